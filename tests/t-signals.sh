#!/bin/sh
# Signals in every phase: SIGINT, SIGTERM and SIGHUP must remove the test
# file, kill and reap the seekers and exit with 128 + the signal number; a
# second SIGINT exits at once, still clean; a seeker killed with SIGKILL
# is reported by number and the run exits 1; a file size limit (ulimit -f)
# is a plain "file size limit" error.
#
# Each phase is kept busy by the preload library (sleeps on the phase's
# own calls), and the signal is sent once the phase's progress line shows
# on stderr, so no test depends on how fast the disk is.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

ARGS="-d $T -s 1m -c 4k --cache=keep --no-space-check"

# start SPEC PHASES [ARGS...]: the benchmark in the background, pid in $pid.
start() {
	_s=$1 _p=$2; shift 2
	rm -f "$T/err"
	BN_FAULT=$_s LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" $ARGS -p "$_p" \
	    "$@" >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
}

# after DESC WANT-STATUS: the checks every interrupted run shares.
after() {
	wait_exit "$pid" 15
	check "$1: exits with $2 (got $st)" $([ $st -eq "$2" ]; echo $?)
	[ $st -eq "$2" ] || sed 's/^/#   /' "$T/err"
	check "$1: no test file left" $(no_test_files "$T"; echo $?)
	check "$1: no process left" $(no_procs; echo $?)
}

if [ -z "$INJECT" ]; then
	skip "fault injection library not built (Linux only)"
	done_testing; exit
fi

# phase, phases to run, what to slow, the phase's progress title
set -- \
    putc	putc		putc:1+64:sleep=2000	"Writing with putc()" \
    write	write		write:1+:sleep=20000	"Writing intelligently" \
    rewrite	write,rewrite	read:1+:sleep=20000	"Rewriting" \
    getc	write,getc	getc:1+64:sleep=2000	"Reading with getc()" \
    read	write,read	read:1+:sleep=20000	"Reading intelligently" \
    seeks	write,seeks	pread:1+:sleep=20000	"Seeking"
while [ $# -ge 4 ]; do
	phase=$1 phases=$2 spec=$3 title=$4
	shift 4
	for sig in INT TERM HUP; do
		num=$(kill -l "$sig" 2>/dev/null || echo 0)
		case $sig in INT) num=2 ;; TERM) num=15 ;; HUP) num=1 ;; esac
		start "$spec" "$phases" -n 100000
		if ! wait_for "$T/err" "$title" 10; then
			check "SIG$sig in $phase: phase started" 1
			sed 's/^/#   /' "$T/err"
			kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			continue
		fi
		sleep 0.2
		kill -"$sig" "$pid"
		after "SIG$sig in $phase" $((128 + num))
	done
done

# Threaded seekers, SIGINT.
start pread:1+:sleep=20000 write,seeks -n 100000 --seekers=thread
if wait_for "$T/err" Seeking 10; then
	sleep 0.2
	kill -INT "$pid"
	after "SIGINT in seeks (threads)" 130
else
	check "SIGINT in seeks (threads): phase started" 1
fi

# A second SIGINT right after the first.
start write:1+:sleep=20000 write
if wait_for "$T/err" "Writing intelligently" 10; then
	kill -INT "$pid"; kill -INT "$pid"
	after "second SIGINT" 130
else
	check "second SIGINT: phase started" 1
fi

# SIGKILL of one forked seeker: reported, the rest killed and reaped.
# (--interval 0: no timeline sampler among the children to pick.)
start pread:1+:sleep=20000 write,seeks -n 100000 -S 3 --seekers=fork \
    --interval 0
if wait_for "$T/err" Seeking 10; then
	i=0
	while [ $i -lt 100 ] && [ "$(pgrep -P "$pid" | wc -l)" -lt 3 ]; do
		sleep 0.05; i=$((i + 1))
	done
	victim=$(pgrep -P "$pid" | head -n 1)
	check "SIGKILL seeker: seekers are child processes" \
	    $([ -n "$victim" ]; echo $?)
	[ -n "$victim" ] && kill -KILL "$victim"
	after "SIGKILL of seeker $victim" 1
	grep -Eq "^bonnie-ng: phase seeks: .*seeker [0-9]+ \\(pid $victim\\) killed by signal 9" "$T/err"
	r=$?
	check "SIGKILL seeker: the message names the seeker and the signal" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
else
	check "SIGKILL seeker: phase started" 1
	kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
fi

# ulimit -f below the file size: SIGXFSZ is ignored, the write fails.
for phase in putc write; do
	(ulimit -f 1024 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 4m -c 4k \
	    -p $phase --no-space-check) >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "ulimit -f in $phase: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	err_line "$T/err" $phase ".*file size limit.*"
	r=$?
	check "ulimit -f in $phase: one line, phase, 'file size limit'" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "ulimit -f in $phase: no test file left" $(no_test_files "$T"; echo $?)
done

done_testing
