#!/bin/sh
# make check-tsan: run the threaded seekers (and a whole small benchmark
# with threads) on a ThreadSanitizer build; any report fails.
# Usage: sh tests/analysis/tsan.sh BUILD-TSAN/bonnie-ng
set -u
BIN=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-tsan.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
fail=0
run() {
	echo "# tsan: $*"
	if ! "$BIN" -d "$T" -q "$@" >"$T/out" 2>"$T/err"; then
		cat "$T/err"
		echo "not ok - tsan: $*"
		fail=1
	else
		echo "ok - tsan: $*"
	fi
}
run -s 4m -c 4k --seekers=thread -S 4 -n 400 --no-space-check
run -s 4m -c 4k --seekers=thread -S 8 -n 800 -p seeks --no-space-check
run -s 2m -c 16k --seekers=thread -S 2 -n 200 -x 2 --no-space-check
# --verify: the threads share the write-back map.
run -s 256k -c 4k --seekers=thread -S 4 -n 4000 -p write,seeks --verify \
    --no-space-check
# A fault in a seeker thread: the error path must be race-free too.
INJECT=$(pwd)/$(dirname "$BIN")/tests/libinject.so
if [ -f "$INJECT" ]; then
	echo "# tsan: pread fault in a seeker thread"
	BN_FAULT=pread:50:EIO LD_PRELOAD=$INJECT "$BIN" -d "$T" -q -s 4m \
	    -c 4k --seekers=thread -S 4 -n 400 -p seeks --no-space-check \
	    >"$T/out" 2>"$T/err"
	st=$?
	if [ $st -eq 1 ] && ! grep -q ThreadSanitizer "$T/err"; then
		echo "ok - tsan: pread fault in a seeker thread exits 1"
	else
		cat "$T/err"; echo "not ok - tsan: pread fault (exit $st)"; fail=1
	fi
	# SIGINT while seeker threads run: the handler and the threads.
	echo "# tsan: SIGINT during threaded seeks"
	BN_FAULT=pread:1+:sleep=20000 LD_PRELOAD=$INJECT "$BIN" -d "$T" \
	    -s 4m -c 4k --seekers=thread -S 4 -n 100000 -p write,seeks \
	    --no-space-check >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	i=0
	while ! grep -q Seeking "$T/err" && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	sleep 0.2
	kill -INT $pid
	wait $pid
	st=$?
	# The seeker threads run in a child process whose signal handlers
	# are the defaults, so no handler writes what a thread reads.
	if [ $st -eq 130 ] && ! grep -q ThreadSanitizer "$T/err"; then
		echo "ok - tsan: SIGINT during threaded seeks exits 130"
	else
		cat "$T/err"; echo "not ok - tsan: SIGINT (exit $st)"; fail=1
	fi
fi
[ -z "$(ls "$T" | grep '^bonnie-ng\.')" ] || { echo "not ok - files left"; fail=1; }
exit $fail
