#!/bin/sh
# Run every test: the C unit tests (tests/t-*.c, built into $O/tests) and
# the shell tests (tests/t-*.sh).  Each prints TAP; this runner shows it,
# counts it, and ends with "N passed, N failed, N skipped".
#
# Usage: sh tests/run.sh [-j N] [BUILD-DIR] [TEST-NAME...]
# A TEST-NAME without its extension names both t-NAME.c and t-NAME.sh;
# a name that is no test is refused (exit 2) before anything runs.  Each
# test's output ends with its place, "# t-NAME.sh (12 of 89)".
#
# -j N runs N tests at a time (default: the online CPUs), each into a log
# of its own, shown whole, indented, as it ends.
#
# The suites: this runner runs the plain build's (make check), the
# sanitized build's (make check-asan: BONNIE_NG_SANITIZED set) or the
# portable build's (make check-posix: BONNIE_NG_PORTABLE, from the
# objects).  Every test runs in all three unless it has a line
#	# run.sh: suites: SUITE...: REASON
# (plain, sanitized, portable), the one place where a test's suites are
# said (tests/t-run.sh checks that no test decides it for itself): in
# another suite it is one "skipped" line with its REASON and does not
# start.  A name that is no suite is refused (exit 2) before anything runs.
#
# A test with a line
#	# run.sh: alone: REASON
# changes something every other test sees (the page cache of the whole
# machine, say) or reads what they disturb: it runs by itself, before the
# others; not in a portable build, where what such a test would change
# (Linux's drop_caches, swap, page reporting) is not there and it only
# refuses or skips (alone, it held every runner's next test 35 s).  No
# alone test is in the sanitized suite (tests/t-run.sh checks it): the
# same code, and what these tests time and meter is the plain build's;
# their block held CI's every runner a second time.
# Where flock(1) is, every test holds a lock file (shared, or exclusive
# when alone; $BONNIE_NG_TEST_LOCK, by default one in the
# temporary directory), so that an alone test also waits for the tests of
# another runner on this machine (CI runs make check and make check-asan
# side by side).
# The longest tests start first: each run keeps every test's seconds (and
# its CPU seconds, beside) in BUILD-DIR/tests/run-times for the next;
# without it (a clean clone, as CI's) the tests with a line
#	# run.sh: long: REASON
# start first, then the other shell tests, then the quick C tests.
#
# The alone tests run before the others, one at a time: CI's two
# runners wait for them at the start, while the builds of CI's other steps
# keep the CPUs busy, rather than at the end, where they held CI's last
# 40 s with the CPUs mostly idle.

jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || jobs=1
while getopts j: opt; do
	case $opt in
	j)	jobs=$OPTARG ;;
	*)	echo "usage: sh tests/run.sh [-j N] [BUILD-DIR] [TEST...]" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $jobs in
''|*[!0-9]*|0)
	echo "run.sh: -j: want a count of 1 or more, not '$jobs'" >&2
	exit 2 ;;
esac

O=${1:-.}
[ $# -gt 0 ] && shift
# A name that is no test is refused, before anything runs: a typo must not
# pass as "0 passed, 0 failed".
for w in "$@"; do
	[ -e "tests/$w" ] || [ -e "tests/$w.c" ] || [ -e "tests/$w.sh" ] || {
		echo "run.sh: no test '$w' (no tests/$w.c, no tests/$w.sh)" >&2
		exit 2
	}
done
BONNIE=$O/bonnie-ng
case $BONNIE in /*) ;; *) BONNIE=$(pwd)/$BONNIE ;; esac
export BONNIE O
# A build of the *-posix.c half (make UNAME_S=FreeBSD): the tests that
# need Linux skip (tests/lib.sh's portable).
BONNIE_NG_PORTABLE=0
[ -e "$O/obj/platform-posix.o" ] && BONNIE_NG_PORTABLE=1
export BONNIE_NG_PORTABLE

# The suite this run is, for the tests' "# run.sh: suites:" lines.
suite=plain
[ -n "${BONNIE_NG_SANITIZED:-}" ] && suite=sanitized
[ "$BONNIE_NG_PORTABLE" = 1 ] && suite=portable

pass=0 fail=0 skipped=0 broken=""
work=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-run.XXXXXX") || exit 1
bin=$work/bin
mkdir "$bin" || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The schema checks use python3's jsonschema, which Debian's package puts
# in the system python3: prefer that one when it has the module, over
# another python3 first in PATH (a pyenv shim, a shell script, took 0.08
# s a start here, and its newer jsonschema twice Debian's time a record).
if /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
	ln -s /usr/bin/python3 "$bin/python3"
	PATH=$bin:$PATH
	export PATH
fi

# flock(1) lets new shared holders in ahead of an exclusive waiter: with
# several runners on the machine an alone test could wait for ever.  A
# gate in front keeps them out: an alone test holds the gate while it
# waits for and holds the lock; a shared one passes the gate first.
lock=${BONNIE_NG_TEST_LOCK:-${TMPDIR:-/tmp}/bonnie-ng-tests.lock}
gate=$lock.gate
# The runner holds the gate (fd 8) over its whole block of alone tests, so
# that no other runner's test starts between two of them (one did, and the
# next alone test waited for a 140 s test to end).
lock_shared() { flock -o -x "$gate" true && flock -o -s "$lock" "$@"; }
lock_alone() { flock -o -x "$lock" "$@"; }
if command -v flock >/dev/null 2>&1 && { [ -r "$lock" ] || : >>"$lock"; } \
    2>/dev/null && { [ -r "$gate" ] || : >>"$gate"; } 2>/dev/null; then
	lock_shared=lock_shared
	lock_alone=lock_alone
else
	lock_shared="" lock_alone=""
fi

# The tests' scratch directories go under one of the runner's own, marked
# as the top of a hierarchy (chattr +T): ext4 then spreads them over its
# block groups (the Orlov allocator).  Side by side in /tmp's group, every
# file a test made stepped over the inodes the others had deleted in the
# last minute (ext4 without a journal, as this machine's root, does not
# reuse them): 1024 creates took 0.5-1.8 s of system time, 0.03 s here.
# Open to all as /tmp is (the tests that drop to nobody pass through it).
mkdir "$work/tmp" && chmod 755 "$work" && chmod 1777 "$work/tmp" || exit 1
chattr +T "$work/tmp" 2>/dev/null
TMPDIR=$work/tmp
export TMPDIR

times=$O/tests/run-times
if [ -s "$times" ]; then
	order=$(for t in tests/t-*.c tests/t-*.sh; do
		[ -e "$t" ] || continue
		s=$(awk -v n="${t##*/}" '$2 == n { print $1 }' "$times")
		echo "${s:-9999} $t"
	done | sort -k1,1nr -k2 | cut -d' ' -f2)
else
	order=$(grep -l '^# run\.sh: long:' tests/t-*.sh
	    grep -L '^# run\.sh: long:' tests/t-*.sh
	    for t in tests/t-*.c; do echo "$t"; done)
fi
list="" alone="" unrun=""
for t in $order; do
	[ -e "$t" ] || continue
	file=$(basename "$t"); name=${file%.*}
	# Its suites (every test's line is checked, run or not).
	suites=$(sed -n 's/^# run\.sh: suites: *\([^:]*\):.*/\1/p' "$t" |
	    head -n 1)
	if grep -q '^# run\.sh: suites:' "$t" && [ -z "$suites" ]; then
		echo "run.sh: $t: want '# run.sh: suites: SUITE...: REASON'" >&2
		exit 2
	fi
	for w in $suites; do
		case $w in
		plain|sanitized|portable) ;;
		*)	echo "run.sh: $t: no suite '$w' (plain, sanitized, portable)" >&2
			exit 2 ;;
		esac
	done
	if [ $# -gt 0 ]; then
		want=0
		for w in "$@"; do
			[ "$w" = "$name" ] || [ "$w" = "$file" ] && want=1
		done
		[ $want -eq 1 ] || continue
	fi
	if [ -n "$suites" ]; then
		case " $suites " in
		*" $suite "*) ;;
		*)	unrun="$unrun $t"; continue ;;
		esac
	fi
	if [ "$BONNIE_NG_PORTABLE" != 1 ] &&
	    grep -q '^# run\.sh: alone:' "$t"; then
		alone="$alone $t"
	else
		list="$list $t"
	fi
done

# What the runner will run, for the "N of M" each test ends with.
# shellcheck disable=SC2086
total=$(echo $alone $list | wc -w | tr -d ' ') ended=0

# launch TEST LOCK: run TEST in the background under LOCK, its output in
# $work/NAME.log, its exit status and seconds beside; its name goes down
# the pipe on fd 3 when it ends.  The test gets neither fd 3 nor stdin.
launch() {
	_name=$(basename "$1")
	case $1 in
	*.c)	_cmd="$O/tests/${_name%.c}" ;;
	*.sh)	_cmd="sh $1" ;;
	esac
	(
		_start=$(date +%s)
		$2 $_cmd >"$work/$_name.log" 2>&1 </dev/null 3>&- 8>&-
		echo $? >"$work/$_name.rc"
		echo $(( $(date +%s) - _start )) >"$work/$_name.sec"
		# The CPU seconds of the test and every process it waited
		# for (the shell's times: user and system of its children).
		# (A pipe would run times in a new process, with no children.)
		times >"$work/$_name.times"
		awk 'NR == 2 { for (i = 1; i <= 2; i++) {
		    split($i, a, "m"); sub("s", "", a[2]); c += a[1] * 60 + a[2] }
		    printf "%.1f\n", c }' "$work/$_name.times" >"$work/$_name.cpu"
		echo "$_name" >&3
	) &
}

# report NAME: show a finished test's output and count it.
report() {
	_log=$work/$1.log
	status=$(cat "$work/$1.rc")
	ended=$((ended + 1))
	{
		echo "# $1 ($ended of $total)"
		sed 's/^/    /' "$_log"
		p=$(grep -c '^ok ' "$_log" | tr -d ' ')
		s=$(grep -c '^ok .*# *[Ss][Kk][Ii][Pp]' "$_log" | tr -d ' ')
		# "not ok N # TODO" is a known gap, not a failure (TAP).
		f=$(grep '^not ok ' "$_log" | grep -vc '# *TODO' | tr -d ' ')
		todo=$(grep -c '^not ok .*# *TODO' "$_log" | tr -d ' ')
		echo "# $1: $((p - s)) passed, $f failed, $s skipped, $todo todo ($(cat "$work/$1.sec")s, $(cat "$work/$1.cpu")s CPU)"
	} >"$work/$1.out"
	echo "$(cat "$work/$1.sec") $1 $(cat "$work/$1.cpu")" >>"$work/times"
	# One write per test, so that two runners' tests do not interleave.
	cat "$work/$1.out"
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$_log" | tail -n 1)
	pass=$((pass + p - s)); skipped=$((skipped + s)); fail=$((fail + f))
	if [ "$status" -ne 0 ] || [ -z "$plan" ] ||
	    [ "$plan" -ne $((p + f + todo)) ]; then
		[ "$f" -eq 0 ] && fail=$((fail + 1))
		broken="$broken $1(exit $status, plan ${plan:-none}, ran $((p + f + todo)))"
	fi
	rm -f "$_log" "$work/$1.out"
}

# run_all N LOCK TEST...: the tests, N at a time.
run_all() {
	_n=$1 _lock=$2
	shift 2
	_running=0
	for _t in "$@"; do
		if [ $_running -ge "$_n" ]; then
			read -r _done <&3 && report "$_done"
			_running=$((_running - 1))
		fi
		launch "$_t" "$_lock"
		_running=$((_running + 1))
	done
	while [ $_running -gt 0 ]; do
		read -r _done <&3 && report "$_done"
		_running=$((_running - 1))
	done
}

# The machine-wide settings the tests may change (tests/machine.sh), read
# before the first test and after the last, under the machine's lock.
. tests/machine.sh
machine_snapshot >"$work/machine.before"

mkfifo "$work/done" || exit 1
exec 3<>"$work/done"
for t in $unrun; do
	# The reason, with its continuation lines ("#   ...").
	echo "# ${t##*/}: skipped: not in the $suite suite: $(awk '
	    /^# run\.sh: suites:/ && !c { r = $0; c = 1
		sub(/^# run\.sh: suites: *[^:]*: */, "", r); next }
	    c && /^#   / { s = $0; sub(/^# */, "", s); r = r " " s; next }
	    c { exit }
	    END { print r }' "$t")"
	skipped=$((skipped + 1))
done
if [ -n "$alone" ] && [ -n "$lock_alone" ]; then
	exec 8>>"$gate"
	flock -x 8
fi
# shellcheck disable=SC2086
run_all 1 "$lock_alone" $alone
exec 8>&-
# shellcheck disable=SC2086
run_all "$jobs" "$lock_shared" $list
exec 3>&-
# Every test's seconds for the next run's order (a full run only).
[ $# -eq 0 ] && [ -d "$O/tests" ] && [ -s "$work/times" ] &&
    sort -k1,1nr "$work/times" >"$times"

[ -s "$work/times" ] && awk '{ w += $1; c += $3 } END {
    printf "# %d s of tests, %.0f s of CPU\n", w, c }' "$work/times"
# Nothing of the machine changed: a setting the tests changed is back,
# and no loop device, mount or swap area of theirs is left (each one
# found is undone, and fails the run).  A loop device the tests detached
# but another process still holds is said, and fails nothing.
machine_snapshot >"$work/machine.after"
machine_leftovers "$work" >"$work/machine.all"
grep -v '^held: ' "$work/machine.all" >"$work/machine.left"
grep '^held: ' "$work/machine.all" | sed 's/^/# /'
if ! cmp -s "$work/machine.before" "$work/machine.after" ||
    [ -s "$work/machine.left" ]; then
	echo "# the tests changed the machine (before, after):"
	diff "$work/machine.before" "$work/machine.after" | sed 's/^/#   /'
	sed 's/^/#   left: /' "$work/machine.left"
	fail=$((fail + 1))
	broken="$broken machine-settings"
fi
[ -n "$broken" ] && echo "# failing test programs:$broken"
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
