#!/bin/sh
# Every way out of a run (issue 15, groups 1 and 7): every catchable
# terminating signal removes the test file and exits 128+N in the putc,
# read and seek phases with both seeker modes; a CPU-time limit
# (ulimit -t) likewise; running out of memory is one line, exit 1, no
# file; a directory renamed during the run does not matter; a replaced
# file is left alone; a removal that fails is said with the file's path
# and exit 1, never "removed"; closed standard descriptors are not taken
# by the test file or the record; a failed fork or thread creation is
# reported as itself, not as the kill that followed.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

# No timeline (--interval 0): its sampler is a fork and a pipe of its own,
# and the fork and pipe faults below count the seekers' calls.
ARGS="-s 1m -c 4k --cache=keep --no-space-check --interval 0"

# signum NAME: the number of signal NAME (dash's kill -l only maps back).
signum() {
	_n=1
	while [ $_n -lt 65 ]; do
		[ "$(kill -l $_n 2>/dev/null)" = "$1" ] && { echo $_n; return; }
		_n=$((_n + 1))
	done
	echo 0
}
# No core files from SIGQUIT, SIGXCPU and the fault signals in the tests.
ulimit -c 0 2>/dev/null

need_inject

# start DIR SPEC PHASES [ARGS...]: the benchmark in the background.
start() {
	_d=$1 _s=$2 _p=$3; shift 3
	rm -f "$T/err" "$T/fault.log"
	BN_FAULT=$_s BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" -d "$_d" $ARGS -p "$_p" "$@" >"$T/out" \
	    2>"$T/err" </dev/null &
	pid=$!
}

# after DESC WANT DIR: exit status, no file left anywhere under DIR, no
# process left.
after() {
	wait_exit "$pid" 15
	check "$1: exits with $2 (got $st)" $([ $st -eq "$2" ]; echo $?)
	[ $st -eq "$2" ] || sed 's/^/#   /' "$T/err"
	check "$1: no test file left" $(no_test_files "$3"; echo $?)
	check "$1: no process left" $(no_procs; echo $?)
}

# Signals by phase and seeker mode.  Each phase is slowed on its own calls
# and the signal is sent once its progress title shows.
set -- \
    putc	putc		putc:1+64:sleep=2000	"Writing with putc()" \
    read	write,read	read:1+:sleep=20000	"Reading intelligently" \
    seeks-fork	write,seeks	pread:1+:sleep=20000	"Seeking" \
    seeks-thread write,seeks	pread:1+:sleep=20000	"Seeking"
while [ $# -ge 4 ]; do
	phase=$1 phases=$2 spec=$3 title=$4
	shift 4
	mode=""
	case $phase in
	seeks-fork)	mode=--seekers=fork ;;
	seeks-thread)	mode=--seekers=thread ;;
	esac
	for sig in QUIT USR1 USR2 ALRM PWR VTALRM PROF XCPU; do
		num=$(signum "$sig")
		start "$T" "$spec" "$phases" -n 100000 $mode
		if ! wait_for "$T/err" "$title" 10; then
			check "SIG$sig in $phase: phase started" 1
			sed 's/^/#   /' "$T/err"
			kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			continue
		fi
		faulted
		kill -"$sig" "$pid"
		after "SIG$sig in $phase" $((128 + num)) "$T"
		grep -q "interrupted by SIG$sig; test file removed" "$T/err"
		check "SIG$sig in $phase: says the file was removed" $?
	done
done

# A stop signal between a seeker's fork and the parent's store of its pid
# (the soak at load 9 met it once: SIGPROF, threaded seekers): the
# handler cannot kill a seeker it does not know yet, and no signal comes
# again.  The fault library's fork:1:wait= holds the parent right after
# the fork while the child seeks (its first pread logged); the signal
# lands there, and $T/go lets the parent go on.  Before the fix the
# threaded seekers' process went on seeking (100000 x 20 ms) and the run
# hung.
for m in thread fork; do
	rm -f "$T/go"
	start "$T" "fork:1:wait=$T/go,pread:1+:sleep=20000" seeks -n 100000 \
	    --seekers=$m
	faulted 'kind=pread'
	kill -TERM "$pid"
	: >"$T/go"
	after "SIGTERM before the $m seekers' pid is stored" 143 "$T"
	grep -q "interrupted by SIGTERM; test file removed" "$T/err"
	check "SIGTERM before the $m seekers' pid is stored: says the file was removed" $?
done
rm -f "$T/go"

# A real CPU-time limit: SIGXCPU from the kernel, in putc (which burns CPU).
(ulimit -S -t 1 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 4g -c 4k \
    --cache=keep --no-space-check -p putc) >"$T/out" 2>"$T/err" </dev/null
st=$?
check "ulimit -t in putc: exit 152 (got $st)" $([ $st -eq 152 ]; echo $?)
[ $st -eq 152 ] || sed 's/^/#   /' "$T/err"
check "ulimit -t in putc: no test file left" $(no_test_files "$T"; echo $?)
# bash's "ulimit -t 2" sets the soft and the hard limit: SIGKILL would
# come with SIGXCPU; the run lowers the soft one and still cleans up.
for p in putc seeks; do
	(ulimit -t 2 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 4g -c 4k \
	    --cache=keep --no-space-check -n 100000000 -p $p -S fork) \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "ulimit -t 2 (soft = hard) in $p: exit 152 (got $st)" \
	    $([ $st -eq 152 ]; echo $?)
	[ $st -eq 152 ] || sed 's/^/#   /' "$T/err"
	check "ulimit -t 2 (soft = hard) in $p: no test file, no process left" \
	    $(no_test_files "$T" && no_procs; echo $?)
	rm -f "$T"/bonnie-ng.*
done

# Out of memory during the run: one line, exit 1, no file.  (A sanitized
# build reserves far more address space than any such limit.)
if [ "${BONNIE_NG_SANITIZED:-0}" = 1 ]; then
	for ph in putc getc seeks-fork seeks-thread; do
		skip "ulimit -v in $ph: not with a sanitizer"
		skip "ulimit -v in $ph: not with a sanitizer"
	done
else
	for ph in putc getc seeks-fork seeks-thread; do
		p=${ph%%-*} m=fork
		[ "$ph" = seeks-thread ] && m=thread
		(ulimit -v 30000 && exec "$BONNIE" -m "$TAG" -d "$T" -q \
		    -s 64m -c 16m --cache=keep --no-space-check -n 10 -p "$p" \
		    --seekers=$m) >"$T/out" 2>"$T/err" </dev/null
		st=$?
		_r=0
		[ $st -eq 1 ] && one_line "$T/err" &&
		    grep -q "^bonnie-ng: phase $p: $T/bonnie-ng\.[^:]*: allocate.*: Cannot allocate memory" "$T/err" ||
		    _r=1
		check "ulimit -v in $ph: exit 1, one line naming phase, file, cause (got $st)" $_r
		[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
		check "ulimit -v in $ph: no test file left" \
		    $(no_test_files "$T"; echo $?)
	done
fi

# The directory renamed during the run: every reopen and the removal go
# through the directory held open.  The writes wait for the rename ($T/go).
for phases in write,rewrite,read write,seeks; do
	for m in fork thread; do
		mkdir "$T/a"
		start "$T/a" "write:1+:wait=$T/go" "$phases" --seekers=$m -n 1000
		wait_for "$T/err" "Writing intelligently" 10
		mv "$T/a" "$T/b"
		: >"$T/go"
		after "renamed directory ($phases, $m)" 0 "$T"
		rm -rf "$T/b" "$T/go"
	done
done
mkdir "$T/a"
start "$T/a" write:1+:sleep=20000 write
wait_for "$T/err" "Writing intelligently" 10
mv "$T/a" "$T/b"
kill -INT "$pid"
after "renamed directory, then SIGINT" 130 "$T"
grep -q "test file removed" "$T/err"
check "renamed directory, then SIGINT: says removed" $?
rm -rf "$T/b"

# The test file replaced by another file: reported, and the other file is
# not deleted.  The writes wait for the replacement ($T/go).
mkdir "$T/r"
start "$T/r" "write:1+:wait=$T/go" write,read
wait_for "$T/err" "Writing intelligently" 10
f=$(find "$T/r" -name 'bonnie-ng.*')
echo "not yours" >"$T/other"
mv "$T/other" "$f"
: >"$T/go"
wait_exit "$pid" 15
rm -f "$T/go"
check "replaced file: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
check "replaced file: the replacement is still there" \
    $([ "$(cat "$f" 2>/dev/null)" = "not yours" ]; echo $?)
grep -q "no longer the test file" "$T/err"
check "replaced file: says it was left alone" $?
grep -q "removed" "$T/err"
check "replaced file: never says removed" $([ $? -ne 0 ]; echo $?)
rm -rf "$T/r"

# The removal itself fails: the path is given, exit 1, never "removed".
bn_fault unlink:1:EROFS "$T/out" "$T/err" -d "$T" $ARGS -p write -n 10
check "unlink fails: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
grep -q "^bonnie-ng: the test file could not be removed: $T/bonnie-ng\.[0-9]*\.[^:]*: Read-only file system\$" "$T/err"
check "unlink fails: one line with the path and the cause" $?
check "unlink fails: the report is still printed" \
    $(grep -q Machine "$T/out"; echo $?)
check "unlink fails: the file is where it says" \
    $([ -n "$(find "$T" -name 'bonnie-ng.*')" ]; echo $?)
rm -f "$T"/bonnie-ng.*
# A directory whose name holds an OSC title sequence, a bidi override
# and a line separator: the "could not be removed" line shows them
# escaped, never raw (issue 26: it printed the path raw).
E=$T/$(printf 'e\033]0;pwned\007\342\200\256x\342\200\250y')
mkdir "$E"
for v in "" "-j 2"; do
	BN_FAULT=unlink:1+:EROFS LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" \
	    -d "$E" $ARGS -p write -n 10 $v >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "escapes in the directory${v:+, $v}: exit 1 (got $st)" \
	    $([ $st -eq 1 ]; echo $?)
	check "escapes in the directory${v:+, $v}: nothing raw on stderr" \
	    $(! LC_ALL=C grep -q "$(printf '\033\|\007\|\342\200\256\|\342\200\250')" \
		"$T/err" && grep -q 'could not be removed: .*e\\x1b]0;pwned\\x07\\u202ex\\u2028y/bonnie-ng' \
		"$T/err"; echo $?)
	rm -f "$E"/bonnie-ng.*
done
# A label with a bidi override: refused as -m (as a control character
# is), shown escaped when it comes in a result file.
"$BONNIE" -d "$T" $ARGS -p write -n 10 -q -m "$(printf 'a\342\200\256b')" \
    >"$T/out" 2>"$T/err"
st=$?
check "-m with U+202E: exit 2, shown as \\u202e, never raw (got $st)" \
    $([ $st -eq 2 ] && grep -q 'a\\u202eb' "$T/err" &&
	! LC_ALL=C grep -q "$(printf '\342\200\256')" "$T/err"; echo $?)
"$BONNIE" -d "$T" $ARGS -p write -n 10 -q -m abcd --json "$T/bidi.json" \
    >/dev/null 2>&1
sed 's/"abcd"/"a\\u202eb\\u2028c\\ufffe"/' "$T/bidi.json" >"$T/bidi2.json"
"$BONNIE" report "$T/bidi2.json" >"$T/out" 2>"$T/err"
st=$?
check "report of a label with U+202E, U+2028, U+FFFE: shown escaped (got $st)" \
    $([ $st -eq 0 ] && grep -q 'a\\u202eb' "$T/out" &&
	! LC_ALL=C grep -q "$(printf '\342\200\256\|\342\200\250\|\357\277\276')" "$T/out"; echo $?)
mkdir "$T/sv"
"$BONNIE" sweep -d "$T/sv" -q --sizes 256k..256k --chunks 4k --cache=keep \
    -n 10 -p write --min-time 0 --json "$T/sv.json" >/dev/null 2>&1
sed "s|$T/sv|$T/a\\\\u202eb\\\\u2028c\\\\ufffe|g" "$T/sv.json" >"$T/sv2.json"
for o in html svg; do
	[ $o = html ] && f=$T/bidi2.json || f=$T/sv2.json
	"$BONNIE" report -o $o "$f" >"$T/out.$o" 2>"$T/err"
	st=$?
	check "report -o $o with U+202E, U+2028, U+FFFE in it: well-formed, none of them raw (got $st)" \
	    $([ $st -eq 0 ] && grep -q 'a?b?c?' "$T/out.$o" &&
		{ ! have xmllint || xmllint --noout "$T/out.$o"; } &&
		! LC_ALL=C grep -q "$(printf '\342\200\256\|\342\200\250\|\357\277\276')" "$T/out.$o"; echo $?)
done
rm -rf "$E"

# The same with -j 2 and -j 4 (each worker removes its own file) and in a
# sweep: exit 1 and every file left named (issue 26: it exited 0).
for v in "-j 2" "-j 4" "sweep" "sweep --jobs 2"; do
	case $v in
	sweep*)	set -- "$BONNIE" sweep -m "$TAG" -d "$T" -p write -n 10 \
		    --sizes 256k..256k --chunks 4k --cache=keep ${v#sweep} -q ;;
	*)	set -- "$BONNIE" -m "$TAG" -d "$T" $ARGS -p write -n 10 $v ;;
	esac
	BN_FAULT=unlink:1+:EROFS LD_PRELOAD=$INJECT "$@" >"$T/out" \
	    2>"$T/err" </dev/null
	st=$?
	check "unlink fails, $v: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	nl=$(find "$T" -maxdepth 1 -name 'bonnie-ng.*' | wc -l)
	named=0
	for f in $(find "$T" -maxdepth 1 -name 'bonnie-ng.*'); do
		grep -q "could not be removed: $f: Read-only file system" \
		    "$T/err" && named=$((named + 1))
	done
	check "unlink fails, $v: each of the $nl files left is named ($named)" \
	    $([ "$nl" -ge 1 ] && [ "$named" -eq "$nl" ]; echo $?)
	rm -f "$T"/bonnie-ng.*
done
start "$T" unlink:1:EROFS,write:1+:sleep=20000 write
wait_for "$T/err" "Writing intelligently" 10
kill -INT "$pid"
wait_exit "$pid" 15
check "unlink fails after SIGINT: exit 130 (got $st)" \
    $([ $st -eq 130 ]; echo $?)
grep -q "could not be removed: $T/bonnie-ng" "$T/err"
check "unlink fails after SIGINT: the path is given" $?
grep -q "removed\$" "$T/err"
check "unlink fails after SIGINT: never says removed" \
    $([ $? -ne 0 ]; echo $?)
rm -f "$T"/bonnie-ng.*

# A real removal failure: an xfs file system shut down during the run.
if is_root && have mkfs.xfs && have xfs_io && have losetup; then
	truncate -s 320m "$T/xfs.img"
	mkdir "$T/x"
	if mkfs.xfs -q "$T/xfs.img" 2>/dev/null &&
	    mount -o loop "$T/xfs.img" "$T/x" 2>/dev/null; then
		T_MOUNTS="$T/x"
		start "$T/x" write:1+:sleep=20000 write
		wait_for "$T/err" "Writing intelligently" 10
		xfs_io -x -c "shutdown" "$T/x" >/dev/null 2>&1
		wait_exit "$pid" 15
		check "xfs shut down: exit 1 (got $st)" \
		    $([ $st -eq 1 ]; echo $?)
		grep -q "could not be removed: $T/x/bonnie-ng.*: Input/output error" "$T/err"
		r=$?
		check "xfs shut down: the file that could not be removed is named" $r
		[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
		scratch_umount "$T/x"
	else
		skip "xfs shut down: cannot make an xfs image"
		skip "xfs shut down: cannot make an xfs image"
	fi
else
	skip "xfs shut down: needs root, xfsprogs and loop devices"
	skip "xfs shut down: needs root, xfsprogs and loop devices"
fi

# Closed standard descriptors: nothing lands in the test file or the record.
"$BONNIE" -m "$TAG" -d "$T" $ARGS -n 10 --json "$T/r.json" \
    </dev/null >&- 2>"$T/err"
st=$?
check "stdout closed: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "stdout closed: the record holds no table" \
    $(! grep -q "Machine" "$T/r.json"; echo $?)
if have jq; then
	jq -e .schema "$T/r.json" >/dev/null 2>&1
	check "stdout closed: the record is JSON" $?
else
	skip "stdout closed: jq not installed"
fi
"$BONNIE" -m "$TAG" -d "$T" $ARGS -n 10 </dev/null >"$T/out" 2>&-
st=$?
check "stderr closed: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "stderr closed: no file left" $(no_test_files "$T"; echo $?)
check "stderr closed: the report is on stdout" \
    $(grep -q Machine "$T/out"; echo $?)
BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" -d "$T" \
    $ARGS -n 10 -p write,read >"$T/out" 2>&- <&-
st=$?
check "stdin and stderr closed: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
# The moved-bytes line counts only test-file writes: progress text that
# went into the file would add to the 1 MiB.
grep -q "kind=write bytes=1048576\$" "$T/fault.log"
r=$?
check "stdin and stderr closed: exactly the file's bytes written to it" $r
[ $r -eq 0 ] || sed 's/^/#   /' "$T/fault.log"
rm -f "$T/fault.log"

# Fork and thread failures name the call and its error.
for m in fork thread; do
	bn_fault fork:1:EAGAIN "$T/out" "$T/err" -d "$T" -q $ARGS -p write,seeks \
	    -S 3 --seekers=$m
	_r=0
	[ $st -eq 1 ] && one_line "$T/err" &&
	    grep -q "^bonnie-ng: phase seeks: $T/bonnie-ng\.[^:]*: fork seeker[^:]*: Resource temporarily unavailable\$" "$T/err" || _r=1
	check "fork EAGAIN ($m): exit 1, one line naming fork and its error" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "fork EAGAIN ($m): no file left" $(no_test_files "$T"; echo $?)
	check "fork EAGAIN ($m): no process left" $(no_procs; echo $?)
done
bn_fault fork:2:EAGAIN "$T/out" "$T/err" -d "$T" -q $ARGS -p write,seeks -S 3 \
    --seekers=fork
_r=0
[ $st -eq 1 ] && one_line "$T/err" &&
    grep -q "fork seeker 1: Resource temporarily unavailable\$" "$T/err" ||
    _r=1
check "second fork EAGAIN: the fork is the cause, not the kill that followed" $_r
[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
check "second fork EAGAIN: no process left" $(no_procs; echo $?)
for spec in thread:1:ENOMEM thread:3:EAGAIN; do
	bn_fault $spec "$T/out" "$T/err" -d "$T" -q $ARGS -p write,seeks -S 3 \
	    --seekers=thread
	_r=0
	[ $st -eq 1 ] && one_line "$T/err" &&
	    grep -q "^bonnie-ng: phase seeks: $T/bonnie-ng\.[^:]*: create thread: \(Cannot allocate memory\|Resource temporarily unavailable\) (seeker [0-9])\$" "$T/err" ||
	    _r=1
	check "$spec: exit 1, one line naming thread creation and its error" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "$spec: no file left" $(no_test_files "$T"; echo $?)
done
# A failed pipe for the seekers names the file and the call, no empty
# field and no made-up offset.
bn_fault pipe:1:EMFILE "$T/out" "$T/err" -d "$T" -q $ARGS -p write,seeks \
    --seekers=fork
_r=0
[ $st -eq 1 ] && one_line "$T/err" &&
    grep -q "^bonnie-ng: phase seeks: $T/bonnie-ng\.[^:]*: pipe: Too many open files\$" "$T/err" ||
    _r=1
check "pipe EMFILE: exit 1, one line with the file, the call and the error" $_r
[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
check "pipe EMFILE: no file left" $(no_test_files "$T"; echo $?)
# No empty field when setup fails before the file exists.
if [ "${BONNIE_NG_SANITIZED:-0}" = 1 ]; then
	skip "setup out of memory: not with a sanitizer"
else
	(ulimit -v 12000 && exec "$BONNIE" -m "$TAG" -d "$T" -q -s 64m \
	    -c 16m --no-space-check --cache=keep -p write) >"$T/out" \
	    2>"$T/err" </dev/null
	st=$?
	_r=0
	[ $st -eq 1 ] && one_line "$T/err" &&
	    grep -q "^bonnie-ng: phase setup: allocate buffer: Cannot allocate memory\$" "$T/err" ||
	    _r=1
	check "setup out of memory: no empty path field (got $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
fi
# A label must be printable UTF-8: it goes into the record and the reports.
for l in "$(printf 'a\033[2Jb')" "$(printf 'a\303')"; do
	"$BONNIE" -d "$T" -q -s 256k -c 4k -m "$l" >"$T/out" 2>"$T/err"
	st=$?
	check "label with a control byte or bad UTF-8: exit 2 (got $st)" \
	    $([ $st -eq 2 ] && grep -q "printable UTF-8" "$T/err"; echo $?)
done

# A real process limit, as an unprivileged user (root ignores it).
if is_root && have setpriv && have prlimit; then
	mkdir "$T/u" && chmod 777 "$T/u"
	# LeakSanitizer needs a process of its own at exit: not under this limit.
	(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" &&
	    export ASAN_OPTIONS && exec prlimit --nproc=1:1 setpriv --reuid=65534 --regid=65534 \
	    --clear-groups "$BONNIE" -m "$TAG" -d "$T/u" $ARGS -p write,seeks \
	    --seekers=fork) >"$T/out" 2>"$T/err" </dev/null
	st=$?
	_r=0
	[ $st -eq 1 ] && grep -q "fork seeker 0: Resource temporarily unavailable" "$T/err" || _r=1
	check "ulimit -u as nobody: the fork and EAGAIN are named (got $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "ulimit -u as nobody: no file left" $(no_test_files "$T/u"; echo $?)
else
	skip "ulimit -u: needs root, setpriv and prlimit"
	skip "ulimit -u: needs root, setpriv and prlimit"
fi

done_testing
