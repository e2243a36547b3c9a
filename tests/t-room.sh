#!/bin/sh
# The room for the test file is checked before every repeat and sweep
# point, not only before the first (issue 43): with the space shrinking
# between runs (a leak: the preload library keeps each removed file open,
# unlink:1+:hold) on a 16 MiB tmpfs, run 3 of -x 3 and a sweep's third
# point are refused as the first would have been (exit 2, both sizes
# named), the completed runs kept, instead of dying of ENOSPC.
# run.sh: suites: plain sanitized: a tmpfs of its own, Linux's
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject
if ! is_root; then
	skip "a 16 MiB tmpfs: needs root"
	done_testing
	exit
fi
mkdir "$T/small"
if ! mount -t tmpfs -o size=16m none "$T/small"; then
	skip "a 16 MiB tmpfs: mount failed"
	done_testing
	exit
fi
T_MOUNTS="$T/small"
LEAK="BN_FAULT=unlink:1+:hold LD_PRELOAD=$INJECT"

# 1. -x 3, -s 6m: runs 1 and 2 leak 12 MiB, run 3 is refused.
env $LEAK "$BONNIE" -m "$TAG" -d "$T/small" -s 6m -c 4k -p write -x 3 -q \
    --cache=keep -o csv --json "$T/x3.json" >"$T/out" 2>"$T/err" </dev/null
st=$?
check "-x 3 with the space leaking: exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
check "-x 3: run 3 refused before it starts, both sizes named" \
    $(grep -q "^bonnie-ng: before run 3 of 3: the file needs 6 MiB but $T/small has [0-4] MiB free (--no-space-check tries anyway)$" "$T/err" &&
	! grep -q "No space left" "$T/err"; echo $?) || cat "$T/err"
check "-x 3: the 2 completed runs' rows printed, and said" \
    $([ "$(wc -l <"$T/out" | tr -d ' ')" = 2 ] &&
	grep -q "the rows printed are the 2 completed runs of 3; run 3 did not complete" "$T/err"
	echo $?)
ok "-x 3: no test file left" no_test_files "$T/small"
if command -v jq >/dev/null 2>&1; then
	jq -e '(.runs | length) == 3 and .runs[0].phases.write != null and
	    .runs[1].phases.write != null and .runs[2].phases.write == null and
	    (.runs[2].error.message | startswith("before run 3 of 3: "))' \
	    "$T/x3.json" >/dev/null
	check "-x 3: the record keeps the 2 completed runs, run 3's refusal" $?
else
	skip "-x 3: the record: jq is not installed"
fi

# 2. The same with --no-space-check: tried, and ENOSPC (exit 1).
env $LEAK "$BONNIE" -m "$TAG" -d "$T/small" -s 6m -c 4k -p write -x 3 -q \
    --cache=keep -o csv --no-space-check >"$T/out" 2>"$T/err" </dev/null
st=$?
check "-x 3 --no-space-check: tried, exit 1 with ENOSPC (got $st)" \
    $([ $st -eq 1 ] && grep -q "No space left on device" "$T/err"; echo $?)

# 3. A sweep of three points (the chunks) at 6 MiB: the third refused.
env $LEAK "$BONNIE" sweep -m "$TAG" -d "$T/small" --sizes 6m..6m \
    --chunks 4k,16k,64k -p write -q --cache=keep --min-time 0 \
    --json "$T/s.json" >"$T/out" 2>"$T/err" </dev/null
st=$?
check "sweep with the space leaking: exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
check "sweep: point 3 refused before it starts, both sizes named" \
    $(grep -q "^bonnie-ng: sweep: before point 3 of 3: the file needs 6 MiB but $T/small has [0-4] MiB free (--no-space-check tries anyway)$" "$T/err" &&
	! grep -q "No space left" "$T/err"; echo $?) || cat "$T/err"
if have jq; then
	check "sweep: the record keeps the 2 points measured" \
	    $([ "$(jq '.points | length' "$T/s.json")" = 2 ]; echo $?)
else
	skip "the sweep's record: no jq"
fi
ok "sweep: no test file left" no_test_files "$T/small"
scratch_umount "$T/small"
done_testing
