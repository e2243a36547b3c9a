#!/bin/sh
# Rows that describe the work: a run of only the file creation phases
# prints no classic row (it made no test file, so no MB); the create phase
# records the file data it wrote; a file phase's failure names the file
# and gives a byte offset in it; --files with a -p of no file phase is
# refused.
. tests/lib.sh
scratch

"$BONNIE" -d "$T" -p create,stat,delete --files 1:4096:4096 -q \
    --json "$T/f.json" >"$T/out" 2>"$T/err"
check "files only: exit 0" $?
! grep -q "K/sec" "$T/out" && ! grep -q "^Machine  *MB " "$T/out" &&
    grep -q "Sequential Create" "$T/out"
check "files only: the file block alone, no classic row with an MB" $? ||
    diag "$(cat "$T/out")"
"$BONNIE" -d "$T" -p create,stat,delete --files 1:4096:4096 -q -j 2 \
    >"$T/out2" 2>"$T/err"
! grep -q "^Machine  *MB " "$T/out2"
check "files only, -j 2: no classic row either" $?
if command -v jq >/dev/null 2>&1; then
	jq -e '.runs[0].phases | .create.bytes == 1024 * 4096 and
	    .create.ops == 1024 and .stat.bytes == 0 and .delete.bytes == 0' \
	    "$T/f.json" >/dev/null
	check "create records the 1024 x 4096 bytes of file data it wrote" $? ||
	    diag "$(jq -c '.runs[0].phases.create | {bytes, ops}' "$T/f.json")"
	"$BONNIE" -d "$T" -p create,delete --files 1:100:10 -q \
	    --json "$T/g.json" >/dev/null 2>&1
	jq -e '.runs[0].phases.create.bytes | . >= 1024 * 10 and
	    . <= 1024 * 100' "$T/g.json" >/dev/null
	check "create with sizes 10 to 100: bytes between 10 and 100 per file" $?
else
	skip "jq is not installed"
	skip "jq is not installed"
fi

"$BONNIE" -d "$T" -p write --files 4 -s 1m >"$T/out" 2>"$T/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
    grep -q "^bonnie-ng: --files: -p names no file creation phase" "$T/err"
check "-p write --files 4: refused, exit 2, one line (got $st)" $?
no_test_files "$T"; check "no test file left" $?

# A write of file data that fails: on a tmpfs of 1 MiB, 1024 files of
# 4 KiB do not fit; the failure names the file and a byte offset in it.
M=$T/m
mkdir "$M"
if is_root && mount -t tmpfs -o size=1m tmpfs "$M" 2>/dev/null; then
	T_MOUNTS=$M
	"$BONNIE" -d "$M" -p create --files 1:4096:4096 -q >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 1 ] && grep -Eq "^bonnie-ng: phase create: .*: write file [0-9]+ of 1024 \([0-9]{10}\): No space left on device \(at byte [0-9]+\)$" "$T/err" &&
	    ! grep -Eq "at byte ([4-9][0-9]{3}|[0-9]{5,})\)" "$T/err"
	check "create on a full tmpfs: exit 1, the file named, an offset inside it (got $st)" $? ||
	    diag "$(cat "$T/err")"
	scratch_umount "$M"
else
	skip "a full file system: needs root and tmpfs"
fi
done_testing
