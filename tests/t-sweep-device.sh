#!/bin/sh
# sweep --device, --direct and --cache: the chunk x size surface on a
# block device (a loop device over a file made here), buffered and
# direct, checked against /proc/diskstats; the top size capped at the
# device, a size beyond it refused; and the refusals of a run (a mounted
# device, -d with --device, several workers) made by the same code, with
# the same words, before anything is written.
. tests/lib.sh
scratch

if ! is_root || ! have losetup || ! have jq; then
	skip "sweep --device: needs root, losetup and jq"
	done_testing
	exit
fi

# The loop device (T_LOOPS) and the mount (T_MOUNTS) go with the scratch
# directory on every way out (scratch's traps), held or not.
L=""
M=$T/mnt
mkdir "$M"

MIB=1048576
truncate -s 32m "$T/img"
if L=$(losetup -f --show "$T/img"); then
	T_LOOPS=$L
else
	L=""
	skip "losetup could not attach a loop device"
	done_testing
	exit
fi
N=${L#/dev/}
# The portable build cannot tell whether a device is in use (Linux's
# sysfs holders, mounts and swaps): it refuses every device, unchanged.
if portable; then
	s0=$(md5sum <"$L")
	"$BONNIE" sweep --device "$L" --sizes 4m..4m --chunks 4k -q \
	    >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "cannot tell whether it is in use" "$T/err" &&
	    [ "$(md5sum <"$L")" = "$s0" ]
	check "the portable build: sweep --device refused, one line, exit 2, the device unchanged (got $st)" $?
	skip "the device sweeps need Linux's in-use checks"
	done_testing
	exit
fi
# Bytes written and read so far by the block device $N.
dev_written() {
	awk -v n="$N" '$3 == n { printf "%.0f\n", $10 * 512 }' /proc/diskstats
}
dev_read() {
	awk -v n="$N" '$3 == n { printf "%.0f\n", $6 * 512 }' /proc/diskstats
}

# Buffered, the cache kept (the sweep's default): 2 sizes x 2 chunks.
w0=$(dev_written)
"$BONNIE" sweep --min-time 0 --device "$L" --sizes 4m..8m --chunks 4k,64k \
    --phases write,read --json "$T/b.json" >"$T/out" 2>"$T/err"
check "a sweep of $L exits 0" $?
diag "$(cat "$T/err")"
sync
w1=$(dev_written)
grep -q "^bonnie-ng: --device: overwriting the first 8 MiB of $L " "$T/err"
check "the overwrite is said first, as for a run" $?
grep -q "^bonnie-ng sweep of $L: sizes 4M to 8M, 4 of 4 points, cache keep$" \
    "$T/out"
check "the heading names the device" $?
jq -e --arg l "$L" '.target.kind == "device" and .target.path == $l and
    (.points | length) == 4 and
    ([.points[].size_bytes] | unique) == [4194304, 8388608] and
    ([.points[].chunk] | unique) == [4096, 65536] and
    ([.points[] | .phases.write.rate > 0 and .phases.read.rate > 0] | all)' \
    "$T/b.json" >/dev/null
check "the record: a device target, 4 points measured" $?
"$BONNIE" report "$T/b.json" >"$T/rep" 2>&1
cmp -s "$T/out" "$T/rep"
check "report of the device sweep prints what the sweep printed" $?
# Each point writes its size: 2 x (4 + 8) MiB reach the device.
[ $((w1 - w0)) -ge $((24 * MIB)) ]
check "/proc/diskstats: $L took the $((24 * MIB)) bytes written ($((w1 - w0)))" $?

# Direct and cold: every read from the device, recorded direct.
r0=$(dev_read)
"$BONNIE" sweep --min-time 0 --device "$L" --sizes 4m..8m --chunks 16k --direct \
    --cache cold --phases write,read --json "$T/d.json" -q \
    >"$T/out" 2>"$T/err"
check "--direct --cache cold exits 0" $?
r1=$(dev_read)
jq -e '.options.direct and .options.cache == "cold" and
    (.points | length) == 2 and
    ([.points[].phases.read.cache] | unique) == ["direct"]' "$T/d.json" \
    >/dev/null
check "--direct: the reads recorded direct" $?
[ $((r1 - r0)) -ge $((12 * MIB)) ]
check "/proc/diskstats: both reads came from $L ($((r1 - r0)) bytes)" $?
grep -q "^bonnie-ng: --device: overwriting the first 8 MiB of $L " "$T/err"
check "--direct: the overwrite line even with -q" $?

# An open top is capped at the device, and said; a top beyond it refused.
"$BONNIE" sweep --min-time 0 --device "$L" --sizes 16m --ram 1g --chunks 64k \
    --phases write --json "$T/c.json" -q >/dev/null 2>"$T/err"
check "--sizes 16m on a 32 MiB device exits 0" $?
grep -q "^bonnie-ng: sweep: sizes capped at 32 MiB, the size of $L (twice RAM is 2048 MiB)$" \
    "$T/err" && jq -e '.sweep.sizes == [16777216, 33554432] and
    .sweep.capped' "$T/c.json" >/dev/null
check "the open top capped at the device's 32 MiB, and said" $?

# refused WANT ARGS...: exit 2, one line matching WANT, nothing written.
refused() {
	want=$1
	shift
	w0=$(dev_written)
	"$BONNIE" sweep --min-time 0 "$@" --json "$T/x.json" >"$T/out" 2>"$T/err"
	st=$?
	sync
	w1=$(dev_written)
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
	    [ ! -e "$T/x.json" ] && [ "$w0" = "$w1" ] &&
	    grep -q -- "$want" "$T/err"
	check "refused: $* (exit $st: $(cat "$T/err"))" $?
}
refused "'4m..64m' (64 MiB is more than the 32 MiB of $L)" \
    --device "$L" --sizes 4m..64m
refused "^bonnie-ng: sweep: --device and -d both name the target" \
    --device "$L" -d "$T" --sizes 4m..4m
refused "^bonnie-ng: sweep: invalid value for -j, --jobs: --device runs one worker" \
    --device "$L" --sizes 4m..4m --jobs 1,2
refused "^bonnie-ng: sweep: no directory given (-d dir, or --device path)$" \
    --sizes 4m..4m

# A mounted device: the run's refusal, word for word, with "sweep: ".
if have mkfs.ext4 && mkfs.ext4 -q -F "$L" >/dev/null 2>&1 &&
    mount -o ro "$L" "$M" 2>/dev/null && T_MOUNTS=$M; then
	"$BONNIE" --device "$L" -s 4m >/dev/null 2>"$T/run.err"
	want=$(sed 's/^bonnie-ng: //' "$T/run.err")
	refused "^bonnie-ng: sweep: $want$" --device "$L" --sizes 4m..4m
	grep -q "refused: it is mounted on $M" "$T/err"
	check "  the refusal says where it is mounted" $?
	scratch_umount "$M"
else
	skip "a mounted device: mkfs.ext4 or mount failed"
	skip "a mounted device: mkfs.ext4 or mount failed"
fi

done_testing
