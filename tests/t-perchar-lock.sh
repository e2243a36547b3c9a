#!/bin/sh
# The per-char phases measure putc(3) and getc(3), not stdio's lock: in a
# process with an idle extra thread (as MPI_Init starts), glibc locks every
# call on a stream its caller did not take over.  The preload shim starts
# such a thread (BN_IDLE_THREAD=1) and counts, per kind, the calls on the
# test file's stream and those on a stream left to lock itself: none may
# be.  The count is exact where a rate would be the scheduler's; the rates
# themselves are compared in the issue's note, not here.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject
if ! ldd "$BONNIE" 2>/dev/null | grep -q 'libc\.so\.6'; then
	skip "not linked with glibc (the shim counts glibc's locking)"
	done_testing
	exit
fi

for idle in 1 0; do
	rm -f "$T/fault.log"
	BN_IDLE_THREAD=$idle BN_FAULT_LOG=$T/fault.log LD_PRELOAD=$INJECT \
	    "$BONNIE" -d "$T" -s 2m -p putc,getc -q --json "$T/r.json" \
	    >/dev/null 2>"$T/err"
	check "idle thread $idle: putc and getc run" $? ||
	    diag "$(cat "$T/err")"
	for k in putc getc; do
		line=$(grep "^stdio pid=[0-9]* kind=$k " "$T/fault.log")
		calls=$(echo "$line" | sed -n 's/.* calls=\([0-9]*\).*/\1/p')
		locking=$(echo "$line" | sed -n 's/.* locking=\([0-9]*\).*/\1/p')
		[ "$calls" = 2097152 ]
		check "idle thread $idle: one $k call per byte (got $calls)" $?
		[ "$locking" = 0 ]
		check "idle thread $idle: no $k call on a self-locking stream (got $locking)" $?
	done
done
no_test_files "$T"; check "no test file left" $?
done_testing
