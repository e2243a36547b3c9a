#!/bin/sh
# The suite under load (issue 44): passes of the timing-sensitive tests,
# each `sh tests/run.sh BUILD-DIR TEST...`, beside stress-ng --cpu 4 --io 2
# (a load well above the cores of a small machine).
#
# Usage: sh tests/soak.sh [-n PASSES] [-u HH:MM] [-d LOGDIR] [BUILD-DIR]
#	    [TEST-NAME...]
# From the top of a built tree, as tests/run.sh.  Runs PASSES passes (10)
# or until HH:MM (local time), whichever comes first: no pass starts
# when the last one took longer than the time left, and a pass that still
# runs at HH:MM is stopped then (timeout(1): its tests' traps undo what
# they made), said, and not counted; no load is left after HH:MM.  Each pass
# starts a stress-ng of its own, bounded by --timeout, and ends it (so on
# every way out of this script).  LOGDIR (a new one under $TMPDIR if not
# given) holds each pass's output (pass.N.log), the 1-minute load average
# every 15 s (pass.N.load), and the summary, also printed: per pass its
# seconds, load (min, mean, max), result line and failing tests.
#
# stress-ng's io stressor opens every mount point there is when it starts
# and holds it open until it ends: other runners' mounts too, which then
# cannot be unmounted but lazily, and whose devices stay in use (a test
# that unmounts a loop device to use it next would find it held).  So that
# the soak loads the machine without holding anyone's mounts, stress-ng
# runs in a mount namespace of its own (unshare -m) in which every mount
# under /tmp, /var/tmp, /work and this tree is detached first.  The
# tests' teardown with such a holder is tests/t-machine.sh's to check.
#
# The default list: the tests whose assertions involve time, signals,
# processes that race, or a machine's load.

n=10 until='' logdir=''
while getopts n:u:d: opt; do
	case $opt in
	n)	n=$OPTARG ;;
	u)	until=$OPTARG ;;
	d)	logdir=$OPTARG ;;
	*)	echo "usage: sh tests/soak.sh [-n PASSES] [-u HH:MM] [-d LOGDIR] [BUILD-DIR] [TEST...]" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=.
if [ $# -gt 0 ] && [ -d "$1" ]; then
	build=$1
	shift
fi
if [ $# -gt 0 ]; then
	list="$*"
else
	list="t-sweep-knees t-jobs t-signals t-ways t-sweep t-files-signals
	    t-safety t-seeks t-helpers t-sweep-kill t-team t-team-plan
	    t-out-signal t-kstat t-honest t-limits t-mpi t-pp-lines
	    t-sweep-compare t-scope t-iodepth t-lockmem t-files-jobs"
fi
command -v stress-ng >/dev/null 2>&1 || {
	echo "soak: stress-ng is not installed (Debian: stress-ng)" >&2
	exit 2
}
case $n in ''|*[!0-9]*) echo "soak: -n $n: not a number" >&2; exit 2 ;; esac
end=
if [ -n "$until" ]; then
	end=$(date -d "$until" +%s 2>/dev/null) || {
		echo "soak: -u $until: not a time (HH:MM)" >&2
		exit 2
	}
	[ "$end" -gt "$(date +%s)" ] || {
		echo "soak: -u $until: already past" >&2
		exit 2
	}
fi
[ -n "$logdir" ] || logdir=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-soak.XXXXXX") ||
    exit 1
mkdir -p "$logdir/stress" || exit 1
top=$(pwd -P)

# Every way out: the pass's process group, stress-ng's and the load meter
# ended (each is a session of its own: setsid), and waited for.
pass_pid='' stress_pid='' meter_pid=''
stop_all() {
	for _p in $pass_pid $stress_pid $meter_pid; do
		kill -TERM -"$_p" 2>/dev/null
	done
	for _p in $pass_pid $stress_pid $meter_pid; do
		wait "$_p" 2>/dev/null
	done
	pass_pid='' stress_pid='' meter_pid=''
}
trap 'stop_all' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# stress_start SECONDS: stress-ng for at most SECONDS, in a mount namespace
# where the test areas' mounts are not.
stress_start() {
	setsid unshare -m --propagation private sh -c '
		awk -v t="$1" "\$2 ~ /^\\/(tmp|var\\/tmp|work)\\// ||
		    index(\$2, t \"/\") == 1 { print \$2 }" /proc/self/mounts |
		    sort -r | while read -r m; do umount -l "$m"; done
		cd "$2" && exec stress-ng --cpu 4 --io 2 --timeout "$3" \
		    --temp-path "$2"' sh "$top" "$logdir/stress" "$1" \
	    >"$logdir/stress.log" 2>&1 </dev/null &
	stress_pid=$!
}

i=0 passes=0 failed=0
echo "# soak: $n passes of: $(echo $list)" | tee "$logdir/summary"
echo "# logs: $logdir" | tee -a "$logdir/summary"
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	now=$(date +%s)
	left=36000
	[ -n "$end" ] && left=$((end - now))
	if [ "$left" -le 60 ]; then
		echo "# $until: stopped before pass $i" | tee -a "$logdir/summary"
		break
	fi
	if [ -n "${last:-}" ] && [ "$left" -lt "$last" ]; then
		echo "# $until: $left s left, the last pass took $last s: stopped before pass $i" |
		    tee -a "$logdir/summary"
		break
	fi
	[ "$left" -gt 7200 ] && left=7200
	stress_start "$left"
	setsid sh -c 'while :; do cut -d" " -f1 /proc/loadavg; sleep 15; done' \
	    >"$logdir/pass.$i.load" 2>/dev/null </dev/null &
	meter_pid=$!
	# The deadline: timeout(1) signals the pass's whole process group.
	# shellcheck disable=SC2086
	setsid timeout -k 60 "$left" sh tests/run.sh "$build" $list \
	    >"$logdir/pass.$i.log" 2>&1 </dev/null &
	pass_pid=$!
	wait "$pass_pid"
	st=$?
	pass_pid=
	stop_all
	secs=$(($(date +%s) - now))
	last=$secs
	load=$(awk '{ s += $1; if (n == 0 || $1 < lo) lo = $1
	    if ($1 > hi) hi = $1; n++ }
	    END { if (n) printf "%.1f %.1f %.1f", lo, s / n, hi }' \
	    "$logdir/pass.$i.load")
	res=$(tail -n 1 "$logdir/pass.$i.log")
	if [ $st -eq 124 ] || [ $st -eq 137 ]; then
		echo "pass $i: stopped at $until after ${secs} s (load $load): not counted" |
		    tee -a "$logdir/summary"
		break
	fi
	passes=$((passes + 1))
	[ $st -eq 0 ] || failed=$((failed + 1))
	echo "pass $i: exit $st, ${secs} s, load min/mean/max $load: $res" |
	    tee -a "$logdir/summary"
	grep '^# failing test programs:' "$logdir/pass.$i.log" |
	    tee -a "$logdir/summary"
done
echo "# $passes passes, $failed with a failure" | tee -a "$logdir/summary"
[ $failed -eq 0 ]
