#!/bin/sh
# make check-valgrind: small runs under valgrind memcheck, forked seekers
# followed; any error or leak (of any kind) fails.
# Usage: sh tests/analysis/valgrind.sh BIN
set -u
BIN=$1
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-vg.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=all --trace-children=yes --child-silent-after-fork=no"
fail=0
run() {
	want=$1; shift
	echo "# valgrind: $*"
	$VG "$BIN" "$@" >"$T/out" 2>"$T/err"
	st=$?
	if [ $st -ne "$want" ] || grep -q '^==[0-9]*==' "$T/err"; then
		cat "$T/err"
		echo "not ok - valgrind (exit $st, want $want): $*"
		fail=1
	else
		echo "ok - valgrind: $*"
	fi
}
run 0 -d "$T" -q -s 2m -c 4k -n 200 --no-space-check
run 0 -d "$T" -q -s 2m -c 4k -n 200 --seekers=thread -L --json "$T/r.json" --no-space-check
run 1 -d "$T/missing" -q -s 2m -c 4k
run 2 -d "$T" -s junk
INJECT=$(dirname "$BIN")/tests/libinject.so
if [ -f "$INJECT" ]; then
	echo "# valgrind: an I/O error path (write fault), preloaded"
	BN_FAULT=write:3:EIO LD_PRELOAD=$INJECT $VG "$BIN" -d "$T" -q -s 2m \
	    -c 4k -p write --json "$T/e.json" --no-space-check >"$T/out" 2>"$T/err"
	st=$?
	if [ $st -ne 1 ] || grep -q '^==[0-9]*==' "$T/err"; then
		cat "$T/err"; echo "not ok - valgrind write fault (exit $st)"; fail=1
	else
		echo "ok - valgrind: write fault path"
	fi
fi
[ -z "$(ls "$T" | grep '^bonnie-ng\.')" ] || { echo "not ok - files left"; fail=1; }
exit $fail
