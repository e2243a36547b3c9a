#!/bin/sh
# make check-valgrind: small runs under valgrind memcheck, forked seekers
# included.  Any memory error, and any lost block (definitely, indirectly
# or possibly) in any process fails; after a successful run the main
# process must also have freed everything ("still reachable" fails too).
# Forked seekers end with _exit(2) holding the parent's blocks, and an
# error exit leaves its message the way err(3) would, so there still
# reachable is allowed.
# Usage: sh tests/analysis/valgrind.sh BIN
set -u
BIN=$1
command -v valgrind >/dev/null 2>&1 || { echo "not ok - valgrind missing"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-vg.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=definite,indirect,possible --track-fds=no"
INJECT=$(pwd)/$(dirname "$BIN")/tests/libinject.so
fail=0

# run WANT-STATUS [ENV=VALUE...] -- ARGS...
run() {
	want=$1; shift
	envs=
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	rm -rf "$T/vg"; mkdir "$T/vg"
	echo "# valgrind:$envs $*"
	env $envs $VG --log-file="$T/vg/%p" "$BIN" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	st=$?
	bad=0
	[ $st -eq "$want" ] || bad=1
	for f in "$T/vg"/*; do
		if [ "$f" = "$T/vg/$pid" ] && [ "$want" -eq 0 ]; then
			[ -s "$f" ] && bad=1
			continue
		fi
		if grep -q "definitely\|indirectly\|possibly\|Invalid\|uninitialised" "$f"; then
			bad=1
		fi
	done
	if [ $bad -eq 1 ]; then
		cat "$T/err" "$T/vg"/* | head -60 | sed 's/^/# /'
		echo "not ok - valgrind (exit $st, want $want):$envs $*"
		fail=1
	else
		echo "ok - valgrind:$envs $*"
	fi
}

run 0 -- -d "$T" -q -s 2m -c 4k -n 200 --no-space-check
run 0 -- -d "$T" -q -s 2m -c 4k -n 200 --seekers=thread -L -x 2 --no-space-check
run 0 -- -d "$T" -q -s 2m -c 4k -n 200 -j 3 --no-space-check
run 1 -- -d "$T/missing" -q -s 2m -c 4k
# --iodepth: the queue (io_uring) and its buffers, where O_DIRECT works.
if dd if=/dev/zero of="$T/d" bs=4096 count=1 oflag=direct >/dev/null 2>&1; then
	rm -f "$T/d"
	run 0 -- -d "$T" -q -s 2m -c 4k -n 200 --direct --iodepth 4 --verify \
	    --no-space-check
	run 0 -- -d "$T" -q -s 2m -c 4k -n 200 --direct --iodepth 4 \
	    --seekers=thread --no-space-check
else
	rm -f "$T/d"
	echo "ok - valgrind: --iodepth # skip no O_DIRECT in $T"
fi
# The --lock-mem helper (root: the lock passes RLIMIT_MEMLOCK), then a
# SIGINT while it holds: it must be gone when the run has ended.
if [ "$(id -u)" -eq 0 ]; then
	run 0 -- -d "$T" -q -s 2m -c 4k -n 200 --lock-mem 16m --no-space-check
fi
run 2 -- -d "$T" -s junk
# sweep: its plan and estimate, the tables, record and plot, by size and
# by file count; two runs of each point (-x 2), no more (--min-time 0: a
# point under the default 0.5 s is run again up to 64 times, which cost
# 240 s of CPU under memcheck on a fast machine, and fewer on a slow one).
run 0 -- sweep -d "$T" --sizes 1m..2m --chunks 4k -p write,read -x 2 \
    --min-time 0 --json "$T/w.json" --svg "$T/w.svg"
run 0 -- sweep -d "$T" --files 1,2 -p create,stat -x 2 --min-time 0 \
    --json "$T/f.json" --svg "$T/f.svg"
run 0 -- report "$T/f.json"
if [ -f "$INJECT" ]; then
	run 1 BN_FAULT=write:3:EIO LD_PRELOAD="$INJECT" -- -d "$T" -q -s 2m \
	    -c 4k -p write --no-space-check
	run 1 BN_FAULT=pread:5:EIO LD_PRELOAD="$INJECT" -- -d "$T" -q -s 2m \
	    -c 4k -n 200 -p write,seeks --no-space-check
	# --verify finding bad data in every reading phase, then fatal.
	run 1 BN_FAULT=read:7:flip,pread:5:zero LD_PRELOAD="$INJECT" -- \
	    -d "$T" -q -s 2m -c 4k -n 200 --verify --no-space-check
	run 1 BN_FAULT=read:7:flip LD_PRELOAD="$INJECT" -- -d "$T" -q -s 2m \
	    -c 4k -p write,read --verify=fatal --no-space-check
	run 1 BN_FAULT=write:3:EIO LD_PRELOAD="$INJECT" -- -d "$T" -q -s 2m \
	    -c 4k -p write -j 2 --no-space-check
fi
[ -z "$(ls "$T" | grep '^bonnie-ng\.')" ] || { echo "not ok - files left"; fail=1; }
exit $fail
