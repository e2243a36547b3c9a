#!/bin/sh
# Leftovers (issue 43): a sweep makes no more test files once one could
# not be removed; the record of a run, -j 2 too, counts the files it left;
# an append-only --json directory is refused before any work, and a
# complete record whose rename fails (the flag set during the run) is
# kept and named; a partition of a loop device is taken for what it is,
# not refused as "the backing file of" its own whole disk.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject jq
mkdir "$T/d"
FAIL="BN_FAULT=unlink:1+:EROFS LD_PRELOAD=$INJECT"

# 1. A sweep of 12 points whose removals fail: it stops after the first.
for j in 1 2; do
	rm -f "$T/d"/bonnie-ng.*
	env $FAIL "$BONNIE" sweep -m "$TAG" -d "$T/d" --sizes 64k..128k \
	    -p write -q --min-time 0 --jobs $j --json "$T/s.json" \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	left=$(ls "$T/d" | grep -c '^bonnie-ng\.')
	check "sweep --jobs $j, removals failing: exit 1 (got $st), $j file(s) left, not more" \
	    $([ $st -eq 1 ] && [ "$left" = $j ] &&
		grep -q "^bonnie-ng: sweep: stopped after point 1 of [0-9]*: $j test files\{0,1\} could not be removed (named above); no more are made$" "$T/err" &&
		[ "$(jq '.points | length' "$T/s.json")" = 1 ]; echo $?) ||
	    cat "$T/err"
done
rm -f "$T/d"/bonnie-ng.*

# 2. The record counts the files left: 0, 1, and 2 with -j 2.
"$BONNIE" -d "$T/d" -s 64k -c 4k -p write -q --json "$T/r.json" >/dev/null
check "a clean run's record: files_left 0" \
    $([ "$(jq '.runs[0].files_left' "$T/r.json")" = 0 ]; echo $?)
for j in 1 2; do
	env $FAIL "$BONNIE" -m "$TAG" -d "$T/d" -s 64k -c 4k -p write -q \
	    -j $j --json "$T/r.json" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "-j $j, the removal failing: exit 1 (got $st), the record's files_left $j" \
	    $([ $st -eq 1 ] &&
		[ "$(jq '.runs[0].files_left' "$T/r.json")" = $j ]; echo $?)
	schema_ok "-j $j, files left: the record matches the schema" "$T/r.json"
	rm -f "$T/d"/bonnie-ng.*
done

# 3. An append-only directory for --json (root, chattr): refused at once;
# made so during the run: the complete record kept and named.
mkdir "$T/ao"
if is_root && chattr +a "$T/ao" 2>/dev/null; then
	"$BONNIE" -m "$TAG" -d "$T/d" -s 64k -c 4k -p write -q \
	    --json "$T/ao/r.json" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "--json in an append-only directory: exit 2 (got $st), said, nothing made" \
	    $([ $st -eq 2 ] && one_line "$T/err" &&
		grep -q "^bonnie-ng: --json: $T/ao/r.json: its directory is append-only: a complete record could not be renamed into place$" "$T/err" &&
		[ -z "$(ls -A "$T/ao")" ] && no_test_files "$T/d"; echo $?) ||
	    cat "$T/err"
	chattr -a "$T/ao"
	rm -f "$T/go" "$T/fl"
	BN_FAULT="write:3:wait=$T/go" BN_FAULT_LOG=$T/fl LD_PRELOAD=$INJECT \
	    "$BONNIE" -m "$TAG" -d "$T/d" -s 64k -c 4k -p write -q \
	    --json "$T/ao/r.json" >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	wait_for "$T/fl" "kind=write call=3" 30
	chattr +a "$T/ao"
	: >"$T/go"
	wait_exit $pid 30
	tmp=$(sed -n 's/.*; the complete record is in \(.*\)$/\1/p' "$T/err")
	check "append-only set during the run: exit 1 (got $st), the complete record kept and named" \
	    $([ $st -eq 1 ] && [ -n "$tmp" ] && [ -f "$tmp" ] &&
		[ "$(jq '.runs | length' "$tmp")" = 1 ]; echo $?) ||
	    cat "$T/err"
	chattr -a "$T/ao"
else
	skip "an append-only directory: needs root and chattr"
	skip "an append-only directory: needs root and chattr"
fi

# 4. A partition of a loop device (root, losetup -P, sfdisk, partx).
L= L2=
if is_root && ! portable && have sfdisk && have partx && have losetup; then
	truncate -s 64m "$T/img" &&
	    printf 'label: dos\n,32M\n' | sfdisk -q "$T/img" >/dev/null 2>&1 &&
	    L=$(losetup -f --show -P "$T/img" 2>/dev/null) && T_LOOPS=$L
fi
if [ -n "$L" ]; then
	# The loop devices (T_LOOPS) go with the scratch directory.
	trap 'rm -f "$T/p1"; partx -d "$L" 2>/dev/null; cleanup_scratch' EXIT
	N=${L#/dev/}
	partx -a "$L" 2>/dev/null
	D=$(cat "/sys/block/$N/${N}p1/dev" 2>/dev/null)
	[ -n "$D" ] && mknod "$T/p1" b "${D%:*}" "${D#*:}"
fi
if [ -b "$T/p1" ]; then
	"$BONNIE" -m "$TAG" --device "$T/p1" -s 8m -c 4k -p write -q \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "--device on a loop device's partition: runs, exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?) || cat "$T/err"
	L2=$(losetup -f --show "$T/img") && T_LOOPS="$T_LOOPS $L2"
	"$BONNIE" -m "$TAG" --device "$T/p1" -s 8m -c 4k -p write -q \
	    >"$T/out" 2>"$T/err" </dev/null
	st=$?
	check "the same with a second loop device on its file: exit 2 (got $st), that one named" \
	    $([ $st -eq 2 ] && grep -q "the backing file of the loop device $L2;" "$T/err"
		echo $?) || cat "$T/err"
	scratch_detach "$L2"; L2=
else
	skip "a loop device's partition: needs root, losetup -P, sfdisk and partx"
	skip "a loop device's partition: needs root, losetup -P, sfdisk and partx"
fi
done_testing
