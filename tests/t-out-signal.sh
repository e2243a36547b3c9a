#!/bin/sh
# A stop signal while the rows or the record go to a pipe or a FIFO whose
# reader is slow (issue 43): the write blocked in the kernel is not cut
# short, nothing is spliced or lost, the record is valid JSON, and the run
# says the signal came after the report was written, exit 128 + signal.
#
# The reader shrinks its pipe to 4 KiB, says so in a file that the run's
# first open of its test file waits for (the preload library's wait=),
# and reads nothing until the test has seen the run blocked in the pipe's
# write (/proc/PID/wchan) and signalled it; no step depends on time.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject python3
# wchan: whether the kernel names where a sleeping process waits.  A
# running process's is "0", so the question is put to a sleep(1) until it
# sleeps (the test's own shell, read at once, was still running in one
# make check and the whole test skipped).
wchan() {
	sleep 30 &
	_s=$! _i=0 _w=0
	while [ $_i -lt 200 ] && [ "$_w" = 0 ]; do
		_w=$(cat /proc/$_s/wchan 2>/dev/null) || _w=0
		[ -n "$_w" ] || _w=0
		[ "$_w" = 0 ] && sleep 0.05
		_i=$((_i + 1))
	done
	kill $_s 2>/dev/null
	wait $_s 2>/dev/null
	[ "$_w" != 0 ]
}
if ! wchan; then
	skip "no /proc/PID/wchan to see the run blocked in a pipe's write"
	done_testing
	exit
fi
mkdir "$T/d"
BASE="-q -d $T/d -p write --cache=keep"
ARGS="$BASE -s 64k -c 4k --no-space-check"

# reader NAME: read the FIFO $T/NAME.fifo into $T/NAME, with a pipe of one
# page, after $T/go exists.
cat >"$T/reader.py" <<'EOF'
import fcntl, os, sys, time
name = sys.argv[1]
fd = os.open(name + ".fifo", os.O_RDONLY)
fcntl.fcntl(fd, 1031, 4096)		# F_SETPIPE_SZ: one page
open(name + ".sized", "w").close()
for i in range(60000):			# the test's event, within 600 s
	if os.path.exists(os.path.join(os.path.dirname(name), "go")):
		break
	time.sleep(0.01)
with open(name, "wb") as out:
	while True:
		b = os.read(fd, 65536)
		if not b:
			break
		out.write(b)
EOF
reader() {
	rm -f "$T/$1" "$T/$1.sized" "$T/$1.fifo"
	mkfifo "$T/$1.fifo"
	python3 "$T/reader.py" "$T/$1" &
	rpid=$!
}

# blocked PID: wait until the run is blocked writing to a full pipe.
blocked() {
	_i=0
	while [ $_i -lt 600 ]; do
		case $(cat "/proc/$1/wchan" 2>/dev/null) in
		*pipe_write*|*pipe_wait*) return 0 ;;
		esac
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# go SIG PID: the signal (twice, as timeout(1) sends it to the child and
# then to the group), then the reader may read.
go() {
	kill -"$1" "$2"
	kill -"$1" "$2"
	: >"$T/go"
}

# try DESC SIG OUT [ARGS...]: a run whose standard output (OUT "stdout")
# or --json FIFO (OUT "json") goes to the slow reader, signalled when it
# blocks there; $T/rows (or $T/rec) is what the reader got.
try() {
	_d=$1 _sig=$2 _out=$3; shift 3
	rm -f "$T/go" "$T/fl"
	# No timeline where the signal comes after the report (its sampler
	# is a fork a run, which ended with the run): 60 runs took 0.9 s of
	# CPU with it, 0.5 without (ASan: 3.8, 1.5).  The run stopped in
	# run 50 keeps it.
	_tl="--interval 0"
	[ -n "$held" ] && _tl=
	if [ "$_out" = stdout ]; then
		reader rows
		BN_FAULT="open:1:wait=$T/rows.sized${held:+,$held}" \
		    BN_FAULT_LOG=$T/fl LD_PRELOAD=$INJECT \
		    "$BONNIE" $CMD -m "$TAG" $ARGS $_tl "$@" >"$T/rows.fifo" \
		    2>"$T/err" &
	else
		reader rec
		BN_FAULT="open:1:wait=$T/rec.sized" LD_PRELOAD=$INJECT \
		    "$BONNIE" $CMD -m "$TAG" $ARGS $_tl "$@" --json "$T/rec.fifo" \
		    >"$T/rows" 2>"$T/err" &
	fi
	pid=$!
	if [ -n "$held" ]; then
		# Held in a later run's open (KIND:N:wait=...: the injector
		# logs "kind=KIND call=N" before it waits): the signal stops
		# the run there.  The log line is the event, not a time (the
		# injector holds the call for a minute at most).
		_c=${held#*:}
		wait_for "$T/fl" "kind=${held%%:*} call=${_c%%:*} " 60
		check "$_d: the run is held in its open ${_c%%:*}" $?
		kill -"$_sig" $pid
		: >"$T/held"
	fi
	blocked $pid
	check "$_d: the run blocks in the pipe's write" $? || {
		kill -KILL $pid; : >"$T/go"; }
	go "$_sig" $pid
	wait_exit $pid 60
	wait $rpid
	case $_sig in HUP) want=129 ;; INT) want=130 ;; TERM) want=143 ;; esac
	check "$_d: exit $want (got $st)" $([ $st -eq $want ]; echo $?) ||
	    cat "$T/err"
	check "$_d: the signal named, the output said whole, no write error" \
	    $(grep -q "^bonnie-ng: ${said:-interrupted by SIG$_sig after the report was written}" "$T/err" &&
		! grep -q "standard output\|--json:" "$T/err"; echo $?) ||
	    cat "$T/err"
	check "$_d: no test file left" $(no_test_files "$T/d"; echo $?)
}

# CSV: 60 rows, every one whole (the same number of fields), none lost.
try "-x 60 -o csv to a slow pipe, SIGTERM" TERM stdout -x 60 -o csv
check "-x 60 -o csv: 60 rows, each whole" \
    $([ "$(wc -l <"$T/rows" | tr -d ' ')" = 60 ] &&
	[ "$(awk -F, '{ print NF }' "$T/rows" | sort -u | wc -l)" = 1 ] &&
	[ "$(tail -c 1 "$T/rows" | od -An -c | tr -d ' ')" = '\n' ]; echo $?)

# The classic text rows, SIGINT.
try "-x 60 text to a slow pipe, SIGINT" INT stdout -x 60
check "-x 60 text: the 60 rows and the summary" \
    $([ "$(grep -c "^bnft" "$T/rows")" = 60 ] &&
	[ "$(tail -n 1 "$T/rows" | cut -c1-4)" = '#max' ]; echo $?)

# The record on standard output (--json -) and to a FIFO: valid JSON with
# every run.
if have jq; then
	try "-x 12 --json - to a slow pipe, SIGTERM" TERM stdout -x 12 --json -
	check "--json -: a whole record of 12 runs" \
	    $([ "$(jq '.runs | length' "$T/rows")" = 12 ]; echo $?)
	try "-x 12 --json FIFO with a slow reader, SIGHUP" HUP json -x 12
	check "--json FIFO: a whole record of 12 runs" \
	    $([ "$(jq '.runs | length' "$T/rec")" = 12 ]; echo $?)
else
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "the record: no jq"; done
fi
# The signal during run 50 of -x 60: the 49 rows of the completed runs
# go to the slow reader, and the same signal again while they are
# written changes nothing.
held="open:99:wait=$T/held"
said="the rows printed are the 49 completed runs of 60; run 50 did not complete"
try "SIGTERM in run 50 of -x 60 -o csv, again while its rows are written" \
    TERM stdout -x 60 -o csv
check "SIGTERM in run 50: 49 rows, each whole, and the stop said" \
    $([ "$(wc -l <"$T/rows" | tr -d ' ')" = 49 ] &&
	[ "$(awk -F, '{ print NF }' "$T/rows" | sort -u | wc -l)" = 1 ] &&
	grep -q "^bonnie-ng: interrupted by SIGTERM; test file removed" "$T/err"
	echo $?)
held=

# sweep: its tables and its --json - to a slow reader.
said="sweep: interrupted by SIGTERM after the tables and records were written"
CMD=sweep ARGS=$BASE
SW="--sizes 64k..1m --chunks 4k,8k,16k,32k --min-time 0"
if have jq; then
	try "sweep --json - to a slow pipe, SIGTERM" TERM stdout $SW --json -
	check "sweep --json -: a whole record of 20 points" \
	    $([ "$(jq '.points | length' "$T/rows")" = 20 ]; echo $?)
	said="sweep: interrupted by SIGHUP after the tables and records were written"
	try "sweep --json FIFO with a slow reader, SIGHUP" HUP json $SW
	check "sweep --json FIFO: a whole record of 20 points" \
	    $([ "$(jq '.points | length' "$T/rec")" = 20 ]; echo $?)
else
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "the record: no jq"; done
fi
said= CMD=
ok "no process left" no_procs
done_testing
