# Helpers for the fault tests (t-faults.sh, t-signals.sh, t-hostile.sh,
# t-badopts.sh, t-enospc.sh).  Source after tests/lib.sh.

# The preload library, or empty when it was not built (not Linux).
INJECT=$(pwd)/${O:-.}/tests/libinject.so
[ -f "$INJECT" ] || INJECT=
# A sanitized binary wants its runtime first; let the preload go first.
if [ "${BONNIE_NG_SANITIZED:-0}" = 1 ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS
fi
# need_inject [TOOL...]: the rest of the test needs the preload library
# (and each TOOL): without them it skips, saying which, and ends.
need_inject() {
	_why=""
	[ -n "$INJECT" ] || _why="fault injection library not built (Linux only)"
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 || _why="${_why:+$_why; }no $_t"
	done
	[ -z "$_why" ] && return 0
	skip "$_why"
	done_testing
	exit
}
# A tag in every command line, so our own processes can be found.
TAG=bnft$$

# bn OUT ERR ARGS...: run the binary, status in $st.
bn() {
	_o=$1 _e=$2; shift 2
	"$BONNIE" -m "$TAG" "$@" >"$_o" 2>"$_e" </dev/null
	st=$?
}

# bn_fault SPEC OUT ERR ARGS...: the same with the preload library.
bn_fault() {
	_s=$1 _o=$2 _e=$3; shift 3
	BN_FAULT=$_s BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" "$@" >"$_o" 2>"$_e" </dev/null
	st=$?
}

# procs_left: pass when no process of ours is running any more.
procs_left() {
	_i=0
	while [ $_i -lt 20 ]; do
		pgrep -f -- "-m $TAG" >/dev/null 2>&1 || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 0
}
no_procs() { ! procs_left; }

# one_line FILE: exactly one line.
one_line() { [ "$(wc -l <"$1" | tr -d ' ')" -eq 1 ]; }

# err_line FILE PHASE TEXT: the one error line names the phase, a test
# file in $T, the failed call (optional), the system's text and a byte
# offset (and the seeker, in the seek phase):
#   bonnie-ng: phase write: DIR/bonnie-ng.1.x: write: TEXT (at byte N)
# A fourth argument gives the directory (default $T).
err_line() {
	one_line "$1" && grep -Eq "^bonnie-ng: phase $2: ${4:-$T}/bonnie-ng\.[0-9]+\.[^:/]*: ([a-z_]+: )?$3 \(at byte [0-9]+(, seeker [0-9]+)?\)\$" "$1"
}

# err_offset FILE: the offset the error line names.
err_offset() { sed -n 's/.*(at byte \([0-9]*\)[,)].*$/\1/p' "$1"; }

# wait_for FILE PATTERN SECONDS: poll until FILE has a line matching.  The
# bound is at least 60 s: a bound for a loaded machine, which a passing
# test never waits out.
wait_for() {
	_i=0 _b=$3
	[ "$_b" -ge 60 ] || _b=60
	while [ $_i -lt $((_b * 20)) ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# faulted [PATTERN]: wait until the injector (run with BN_FAULT_LOG=$T/fault.log)
# has slowed its first call, or logged a line matching PATTERN (it logs
# the fault before it sleeps), while
# $pid lives: the slowed loop is running.  An event, not a time, so that a
# loaded machine cannot send a signal before it.
faulted() {
	_i=0 _pat=${1:-^fault }
	while ! grep -q "$_pat" "$T/fault.log" 2>/dev/null &&
	    kill -0 "$pid" 2>/dev/null && [ $_i -lt 1200 ]; do
		sleep 0.05; _i=$((_i + 1))
	done
}

# wait_exit PID SECONDS: wait for a background job to end, status in $st;
# kill it and fail when it does not end in time (at least 60 s, as
# wait_for's bound).
wait_exit() {
	_i=0 _b=$2
	[ "$_b" -ge 60 ] || _b=60
	while kill -0 "$1" 2>/dev/null && [ $_i -lt $((_b * 20)) ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1" 2>/dev/null
		for _p in $(pgrep -f -- "-m $TAG"); do kill -KILL "$_p"; done
		wait "$1" 2>/dev/null
		st=255
		return 1
	fi
	wait "$1"
	st=$?
	return 0
}

# json_probe DIR: JSON=1 when jq is there and this build writes a record.
json_probe() {
	JSON=0
	if have jq && "$BONNIE" -d "$1" -q -s 64k -c 4k -n 10 -p write \
	    --json "$1/probe.json" >/dev/null 2>&1 && [ -s "$1/probe.json" ]; then
		JSON=1
	fi
	rm -f "$1/probe.json"
}
