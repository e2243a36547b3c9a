#!/bin/sh
# The free-space check: every run records the target's free space before
# the test file is made and after it is removed; a drop of more than 1% of
# the file's size plus 1 MiB is said once on stderr and marked in the
# record, and with -x the summary holds the trend.  The leak comes from
# the preload library: unlink:N:hold keeps the removed file open, so its
# space stays in use (as when another process holds a deleted file).  A
# clean run must not warn.  As root the runs use a tmpfs of their own,
# where nothing else writes.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

D=$T/d
mkdir "$D"
if is_root && mount -t tmpfs -o size=128m tmpfs "$D" 2>/dev/null; then
	T_MOUNTS=$D
else
	diag "not root or no tmpfs: the runs use $D, where others may write"
fi
ARGS="-d $D -c 4k --cache=keep"
MSG="the file system has [0-9]* MiB less free space after the test file was removed"

if ! have jq; then
	skip "jq missing"
	done_testing; exit
fi

# --- A clean run: the figures, and no warning. ---
bn "$T/o" "$T/e" $ARGS -s 8m -p write,read --json "$T/clean.json"
check "clean run: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "clean run: no free-space warning" \
    $(! grep -q "less free space" "$T/e"; echo $?)
check "clean run: before and after recorded, no leak" \
    $(jq -e '.runs[0].free_space | .before_bytes > 0 and .after_bytes > 0
    and .leak == false and (.lost_bytes | fabs) < 1048576' \
    "$T/clean.json" >/dev/null; echo $?)
check "clean run: the summary has no leaking run" \
    $(jq -e '.summary.free_space.leaking_runs == 0' "$T/clean.json" \
    >/dev/null; echo $?)

need_inject

# --- The removed file's space held: said once, marked. ---
bn_fault unlink:1:hold "$T/o" "$T/e" $ARGS -s 8m -p write --json "$T/l.json"
check "held file: exit 0, a warning only (got $st)" $([ $st -eq 0 ]; echo $?)
check "held file: stderr says so once" \
    $([ "$(grep -c "$MSG" "$T/e")" -eq 1 ]; echo $?)
diag "$(grep "less free space" "$T/e")"
check "held file: the record marks it, 8 MiB lost" \
    $(jq -e '.runs[0].free_space | .leak == true and .lost_bytes >= 8388608
    and .before_bytes - .after_bytes == .lost_bytes' "$T/l.json" \
    >/dev/null; echo $?)
check "held file: the named file itself is gone" $(no_test_files "$D"; echo $?)

# --- Another program fills the file system during the run: the whole
# run's drop is recorded, but the removal gave back all the file held, so
# no warning and no leak.  The run's first read sleeps 5 s (the shim logs
# it first); the filler is made in that time, with fallocate, at once. ---
if have fallocate; then
	rm -f "$T/fault.log"
	BN_FAULT=read:1:sleep=5000000 BN_FAULT_LOG=$T/fault.log \
	    LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" $ARGS -s 8m -p write,read \
	    --json "$T/busy.json" >"$T/o" 2>"$T/e" </dev/null &
	pid=$!
	i=0
	while ! grep -q "kind=read" "$T/fault.log" 2>/dev/null && [ $i -lt 300 ]
	do
		sleep 0.1
		i=$((i + 1))
	done
	fallocate -l 24m "$D/filler"
	filled=$?
	wait $pid
	st=$?
	rm -f "$D/filler"
	check "busy file system: exit 0 (got $st), filler made ($filled)" \
	    $([ $st -eq 0 ] && [ $filled -eq 0 ]; echo $?)
	check "busy file system: no free-space warning" \
	    $(! grep -q "less free space" "$T/e"; echo $?)
	check "busy file system: the whole run's drop kept, the removal gave back what the file held" \
	    $(jq -e '.runs[0].free_space | .leak == false and
	    .lost_bytes >= 24 * 1048576 and .held_bytes >= 8388608 and
	    .freed_bytes >= .held_bytes - 1048576' "$T/busy.json" \
	    >/dev/null; echo $?)
	check "held file: the removal's figures say the leak" \
	    $(jq -e '.runs[0].free_space | .held_bytes >= 8388608 and
	    .freed_bytes < 1048576' "$T/l.json" >/dev/null; echo $?)
else
	skip "fallocate missing"
fi

# --- A failed run: only its error is said; the record marks the leak. ---
bn_fault unlink:1:hold,write:1000:EIO "$T/o" "$T/e" $ARGS -s 8m -p write \
    --json "$T/f.json"
check "held file, failed run: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
check "held file, failed run: the error is the last line, no warning" \
    $(tail -n 1 "$T/e" | grep -q "Input/output error" &&
    ! grep -q "less free space" "$T/e"; echo $?)
check "held file, failed run: the record marks the leak" \
    $(jq -e '.runs[0].free_space.leak == true' "$T/f.json" >/dev/null; echo $?)

# --- Three runs, each leaking: one warning, the trend in the summary. ---
bn_fault unlink:1+:hold "$T/o" "$T/e" $ARGS -s 8m -p write -x 3 \
    --json "$T/x.json"
check "-x 3: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "-x 3: the warning once" $([ "$(grep -c "$MSG" "$T/e")" -eq 1 ]; echo $?)
check "-x 3: the trend line names the three runs" \
    $(grep -q "over the 3 runs: 3 lost more than the slack; lost per run 8, 8, 8 MiB, 24 MiB from before the first to after the last" "$T/e"; echo $?)
diag "$(grep "over the 3 runs" "$T/e")"
check "-x 3: summary.free_space: 3 leaking runs, 24 MiB in all" \
    $(jq -e '.summary.free_space | .leaking_runs == 3 and
    (.lost_bytes | length) == 3 and .total_lost_bytes >= 25165824' \
    "$T/x.json" >/dev/null; echo $?)

# --- A sweep: one line for the points, each point marked (one run of
# each: --min-time 0). ---
"$BONNIE" sweep -m "$TAG" -d "$D" --sizes 4m..8m --chunks 4k -p write \
    --min-time 0 --json "$T/s.json" >"$T/o" 2>"$T/e" </dev/null
check "clean sweep: no free-space warning" \
    $(! grep -q "less free space" "$T/e"; echo $?)
BN_FAULT=unlink:1+:hold LD_PRELOAD=$INJECT "$BONNIE" sweep -m "$TAG" \
    -d "$D" --sizes 4m..8m --chunks 4k -p write --min-time 0 \
    --json "$T/s.json" >"$T/o" 2>"$T/e" </dev/null
check "held sweep: one line for both points" \
    $(grep -q "after 2 of 2 points the file system had less free space" "$T/e"; echo $?)
check "held sweep: the points are marked" \
    $(jq -e '[.points[].free_space.leak] == [true, true]' "$T/s.json" \
    >/dev/null; echo $?)
check "no test file, no process" $(no_test_files "$D" && no_procs; echo $?)
done_testing
