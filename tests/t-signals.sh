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
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

ARGS="-d $T -s 1m -c 4k --cache=keep --no-space-check"

# start SPEC PHASES [ARGS...]: the benchmark in the background, pid in $pid.
start() {
	_s=$1 _p=$2; shift 2
	rm -f "$T/err" "$T/fault.log"
	BN_FAULT=$_s BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" $ARGS -p "$_p" "$@" >"$T/out" 2>"$T/err" \
	    </dev/null &
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

need_inject

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
		faulted
		kill -"$sig" "$pid"
		after "SIG$sig in $phase" $((128 + num))
		grep -q "^$title\.\.\.interrupted\$" "$T/err" &&
		    ! grep -q "\.\.\.failed" "$T/err"
		check "SIG$sig in $phase: the progress line says interrupted" $? ||
		    sed 's/^/#   /' "$T/err"
	done
done

# Threaded seekers, SIGINT.
start pread:1+:sleep=20000 write,seeks -n 100000 --seekers=thread
if wait_for "$T/err" Seeking 10; then
	faulted
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

# The same signal twice, as GNU timeout sends it (to the child, then to
# its group): the record is still written, with the signal's name.
# The second comes once the first has removed the test file, while the
# run unwinds (each close of the test file slowed to 0.5 s).
start write:1+:sleep=20000,close:1+:sleep=500000 write --json "$T/r.json"
if wait_for "$T/err" "Writing intelligently" 10; then
	kill -TERM "$pid"
	i=0
	while ! no_test_files "$T" && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	kill -TERM "$pid"
	after "SIGTERM twice" 143
	check "SIGTERM twice: the record is written and says SIGTERM" \
	    $(have jq && jq -e '.runs[-1].interrupted == "SIGTERM"' \
		"$T/r.json" >/dev/null; echo $?)
	check "SIGTERM twice: 'interrupted by SIGTERM' said" \
	    $(grep -q "interrupted by SIGTERM" "$T/err"; echo $?)
else
	check "SIGTERM twice: phase started" 1
fi
rm -f "$T/r.json"
# timeout(1)'s SIGTERM must come while the run writes (each write held
# 100 ms: 256 of them, 26 s): after 10 s, not 1, as an ASan build at load
# 15 had not yet made its record's file after 1 s (then there is rightly
# no record).
if have timeout; then
	BN_FAULT=write:1+:sleep=100000 LD_PRELOAD=$INJECT timeout 10 \
	    "$BONNIE" -m "$TAG" $ARGS -p write --json "$T/r.json" \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "under timeout 10: timeout's 124 (got $st)" $([ $st -eq 124 ]; echo $?)
	check "under timeout 10: the record is written and says SIGTERM" \
	    $(have jq && jq -e '.runs[-1].interrupted == "SIGTERM"' \
		"$T/r.json" >/dev/null; echo $?)
	check "under timeout 10: no test file, no process left" \
	    $(no_test_files "$T" && no_procs; echo $?)
else
	for i in 1 2 3; do skip "no timeout(1)"; done
fi
rm -f "$T/r.json"

# run_rows FILE: the runs' rows of a text or CSV report (no header, no
# summary row).
run_rows() {
	awk '/^[0-9]\.9[78],/ || (!/^ / && !/^#/ && !/^Machine/) { n++ }
	    END { print n + 0 }' "$1"
}

# A later repeat fails (ENOSPC in run 3 of -x 4; 512 writes a run with
# -f) or is stopped (SIGINT in run 2 of -x 3): the completed runs' rows
# are printed, said on stderr, and the exit is the failure's.
for fmt in text csv; do
	BN_FAULT=write:1100:ENOSPC LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" \
	    $ARGS -f -n 10 -x 4 -q -o $fmt >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "ENOSPC in run 3 of -x 4 (-o $fmt): exit 1 (got $st)" \
	    $([ $st -eq 1 ]; echo $?)
	check "ENOSPC in run 3 of -x 4 (-o $fmt): the 2 completed runs' rows printed" \
	    $([ "$(run_rows "$T/out")" -eq 2 ]; echo $?)
	check "ENOSPC in run 3 of -x 4 (-o $fmt): said, with the error" \
	    $(grep -q "the rows printed are the 2 completed runs of 4; run 3 did not complete" "$T/err" &&
		grep -q "No space left on device" "$T/err"; echo $?)
done
start write:1+:sleep=5000 write -x 3
if wait_for "$T/err" "run 2 of 3" 30; then
	kill -INT "$pid"
	after "SIGINT in run 2 of -x 3" 130
	check "SIGINT in run 2 of -x 3: run 1's row printed, said" \
	    $([ "$(run_rows "$T/out")" -eq 1 ] &&
		grep -q "the rows printed are the 1 completed run of 3" "$T/err"; echo $?)
else
	check "SIGINT in run 2 of -x 3: run 2 started" 1
fi

# A worker of -j 2 stopped (SIGSTOP): the team waits, but says so after a
# bound, naming the worker; once let go (SIGCONT) the run ends normally.
start write:1+:sleep=20000 write -j 2 -s 512k
if wait_for "$T/err" "Writing intelligently" 10; then
	w=$(pgrep -P "$pid" | head -n 1)
	[ -n "$w" ] && kill -STOP "$w"
	wait_for "$T/err" "(process $w) has been stopped by SIGSTOP for 5 s; the run waits for it" 30
	r=$?
	check "a stopped worker: said after a bound" $r
	[ -n "$w" ] && kill -CONT "$w"
	after "a stopped worker let go" 0
else
	check "a stopped worker: phase started" 1
fi

# SIGINT during the untimed fill before -p read (it wrote on to the end).
rm -f "$T/fault.log"
BN_FAULT=write:1+:sleep=20000 BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
    "$BONNIE" -m "$TAG" -d "$T" -s 64m -c 4k --cache=keep --no-space-check \
    -p read >"$T/out" 2>"$T/err" </dev/null &
pid=$!
faulted
kill -INT "$pid"
after "SIGINT in the fill before -p read" 130

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
