#!/bin/sh
# --device: the phases on a block device (a loop device over a file made
# here), buffered and with --direct, checked against /proc/diskstats and
# strace; every device in use refused (mounted, under a mounted partition,
# held by another device or another program, swap, the backing file of
# another loop device), -d with a device, a character device and a
# directory refused, each with one line, exit 2 and the device unchanged;
# a regular file measured in place and left as it was, unless it backs a
# loop device (by any of its names) or is a swap file; Ctrl-C ends a
# device run with 130 and no process left.
. tests/lib.sh
scratch

if ! is_root || ! have losetup || ! have jq; then
	skip "--device: needs root, losetup and jq"
	done_testing
	exit
fi

# The loop devices made here (T_LOOPS) and the mount (T_MOUNTS) go with
# the scratch directory on exit, held or not (tests/lib.sh).
M=$T/mnt
mkdir "$M"
teardown() {
	[ -n "${SWAP:-}" ] && swapoff "$SWAP" 2>/dev/null
	[ -n "${DM:-}" ] && dmsetup remove "$DM" 2>/dev/null
	[ -n "${HOLDER:-}" ] && kill "$HOLDER" 2>/dev/null
	cleanup_scratch
}
trap teardown EXIT
trap 'exit 1' INT TERM

# attach FILE [ARGS]: a new loop device over FILE, in $L.
attach() {
	f=$1
	shift
	L=$(losetup -f --show "$@" "$f") || return 1
	T_LOOPS="$T_LOOPS $L"
}

# detach LOOP: detach a loop device made here, and forget it, so that the
# teardown cannot detach another test's device that reuses its number.
detach() {
	scratch_detach "$1"
	# The kernel defers it while another program (udev) has it open.
	n=0
	while [ -e "/sys/block/${1#/dev/}/loop/backing_file" ] && [ $n -lt 50 ]
	do
		sleep 0.1
		n=$((n + 1))
	done
}

# Bytes written and read so far by the block device NAME (loop3).
dev_written() {
	awk -v n="$1" '$3 == n { printf "%.0f\n", $10 * 512 }' /proc/diskstats
}
dev_read() {
	awk -v n="$1" '$3 == n { printf "%.0f\n", $6 * 512 }' /proc/diskstats
}

sum() { md5sum <"$1" | cut -d' ' -f1; }

# refused DESC ARGS...: bonnie-ng ARGS exits 2 with one line on stderr
# that matches $WANT, and the device $L is as it was.
refused() {
	desc=$1
	shift
	before=$(sum "$L")
	"$BONNIE" "$@" >"$T/out" 2>"$T/err"
	st=$?
	after=$(sum "$L")
	lines=$(wc -l <"$T/err")
	[ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ] &&
	    grep -q -- "$WANT" "$T/err" && [ "$before" = "$after" ]
	check "$desc: exit 2, one line, the device unchanged" $?
	diag "exit $st: $(cat "$T/err")"
}

MIB=1048576
head -c $((32 * MIB)) /dev/urandom >"$T/img"
cp "$T/img" "$T/orig"
attach "$T/img" || { skip "--device: losetup -f failed"; done_testing; exit; }
N=${L#/dev/}

# The portable build cannot tell whether a device is in use (Linux's
# sysfs holders, mounts and swaps): it refuses every device, unchanged.
if portable; then
	WANT="cannot tell whether it is in use"
	refused "the portable build, a free device" --device "$L" -s 8m -q
	skip "the device runs and refusals need Linux's in-use checks"
	done_testing
	exit
fi

# --- A run on the loop device: the I/O goes to it, SIZE bytes of it. ---
w0=$(dev_written "$N")
r0=$(dev_read "$N")
if have strace; then
	# LeakSanitizer cannot run under ptrace: no leak check for this run.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f --seccomp-bpf -qq -o "$T/trace" -e trace=openat "$BONNIE" --device "$L" \
	    -s 8m -c 16k -n 200 --verify --json "$T/run.json" >"$T/out" \
	    2>"$T/err"
else
	"$BONNIE" --device "$L" -s 8m -c 16k -n 200 --verify \
	    --json "$T/run.json" >"$T/out" 2>"$T/err"
fi
check "a run on $L exits 0" $?
w1=$(dev_written "$N")
r1=$(dev_read "$N")
diag "$(head -1 "$T/err")"
grep -q "^bonnie-ng: --device: overwriting the first 8 MiB of $L (device $N, model .*, 32 MiB)$" \
    "$T/err"
check "it said what it would overwrite before the first phase" $?
[ "$(head -1 "$T/err" | cut -c1-21)" = "bonnie-ng: --device: " ]
check "  that line came first" $?
# putc, write and rewrite each write the 8 MiB; sync writes chunks again.
dw=$((w1 - w0))
dr=$((r1 - r0))
[ "$dw" -ge $((3 * 8 * MIB)) ] && [ "$dw" -le $((3 * 8 * MIB + 20 * MIB)) ]
check "/proc/diskstats: $L wrote 3 x SIZE for putc, write and rewrite ($dw bytes)" $?
[ "$dr" -ge $((2 * 8 * MIB)) ]
check "/proc/diskstats: $L read at least getc and read's 2 x SIZE ($dr bytes)" $?
# Only the first SIZE bytes changed; the rest of the device is as it was.
! cmp -s -n $((8 * MIB)) "$T/img" "$T/orig"
check "the first 8 MiB of the device were overwritten" $?
cmp -s -i $((8 * MIB)) "$T/img" "$T/orig"
check "  the 24 MiB after them are untouched" $?
jq -e '.runs[0].phases | .write.dev_written_bytes >= 8388608 and
    .read.cache == "cold" and .read.resident <= 0.05' "$T/run.json" >/dev/null
check "the record: the write reached the device, the read cold, resident <= 5%" $?
grep -q "^bonnie-ng: cache: cold" "$T/err" && ! grep -q "bad data" "$T/err"
check "  --verify found every byte read as written" $?
jq -e --arg l "$L" --arg n "$N" '[.] as $r | .target | .kind == "device" and
    .path == $l and .device.name == $n and .device.size_bytes == 33554432 and
    .device.logical_block_size >= 512 and
    .device.physical_block_size >= 512 and .fs_type == null and
    $r[0].runs[0].free_space.before_bytes == null and
    (.device | has("model") and has("scheduler") and has("rotational"))' \
    "$T/run.json" >/dev/null
check "the record: target.kind device, its path, size, block sizes, model" $?
schema_ok "  it validates against doc/schema.json" "$T/run.json"
if have strace; then
	grep -q "openat(.*\"$L\", O_RDWR|O_CLOEXEC|O_EXCL\|openat(.*\"$L\", O_RDWR|O_EXCL" "$T/trace"
	check "strace: $L claimed with O_EXCL" $?
	! grep "openat(" "$T/trace" | grep -q "O_TRUNC.*$L\|$L.*O_TRUNC\|unlink"
	check "strace: no O_TRUNC on the device" $?
else
	skip "strace is not installed"
	skip "strace is not installed"
fi

# --- --direct: the raw device; every block read reaches it. ---
r0=$(dev_read "$N")
"$BONNIE" --device "$L" -s 8m -c 16k -f -p write,read,seeks -n 500 \
    --direct -q --json "$T/direct.json" >/dev/null 2>"$T/err"
check "--direct on $L exits 0" $?
r1=$(dev_read "$N")
jq -e '.options.direct and .runs[0].phases.read.cache == "direct" and
    .runs[0].phases.seeks.cache == "direct"' "$T/direct.json" >/dev/null
check "  recorded direct" $?
[ $((r1 - r0)) -ge $((8 * MIB + 500 * 16384)) ]
check "  /proc/diskstats: the read and the seeks all came from $L ($((r1 - r0)) bytes)" $?
grep -q "overwriting the first 8 MiB of $L" "$T/err"
check "  the overwrite line is printed even with -q" $?

# --- Refusals. ---
WANT="refused: it is mounted on $M"
if have mkfs.ext4 && mkfs.ext4 -q -F "$L" >/dev/null 2>&1 &&
    mount -o ro "$L" "$M" 2>/dev/null && T_MOUNTS=$M; then
	refused "a mounted device" --device "$L" -s 4m
	# A loop device over the mounted one writes what is mounted.
	if attach "$L"; then
		LM=$L
		L=/dev/$N
		WANT="^bonnie-ng: --device $LM: refused: its backing device $N is mounted on $M$"
		refused "a loop device over a mounted device" --device "$LM" -s 4m
		detach "$LM"
	else
		skip "a loop device over a mounted one: losetup failed"
	fi
	scratch_umount "$M"
else
	skip "a mounted device: mkfs.ext4 or mount failed"
	skip "a loop device over a mounted one: mkfs.ext4 or mount failed"
fi

WANT="refused: it is opened exclusively by another program"
# A second bonnie-ng is refused while the first holds the device; the
# first, stopped by SIGINT mid-run, exits 130 and leaves no seeker.
"$BONNIE" --device "$L" -s 8m -c 16k -p seeks -n 100000000 -S 3 -q \
    >/dev/null 2>"$T/first" &
HOLDER=$!
n=0
while [ "$(pgrep -P "$HOLDER" | wc -l)" -lt 3 ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
kids=$(pgrep -P "$HOLDER" | tr '\n' ' ')
"$BONNIE" --device "$L" -s 4m >"$T/out" 2>"$T/err"
st=$?
[ "$st" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$WANT" "$T/err"
check "a device held with O_EXCL by another bonnie-ng: exit 2, one line" $?
diag "exit $st: $(cat "$T/err")"
kill -INT "$HOLDER"
wait "$HOLDER"
st=$?
HOLDER=""
check "Ctrl-C mid-run on the device: exit 130 ($st)" "$([ "$st" -eq 130 ]; echo $?)"
left=0
for k in $kids; do
	kill -0 "$k" 2>/dev/null && left=$((left + 1))
done
[ -n "$kids" ] && [ "$left" -eq 0 ] && [ -b "$L" ]
check "  its seekers ($kids) are gone, the device is still there" $?
grep -q "interrupted by SIGINT$" "$T/first"
check "  it said so, without claiming a file was removed" $?

if have mkswap && mkswap "$L" >/dev/null 2>&1 && swapon "$L" 2>/dev/null; then
	SWAP=$L
	WANT="refused: it is used as swap"
	refused "a device used as swap" --device "$L" -s 4m
	swapoff "$L"
	SWAP=""
else
	skip "swap on a loop device: mkswap or swapon failed"
fi

if have dmsetup && DM=bonnie-ng-test-$$ &&
    dmsetup create "$DM" --table "0 $(blockdev --getsz "$L") linear $L 0" \
    >/dev/null 2>&1; then
	WANT="refused: it is held by dm-"
	refused "a device held by a device mapper" --device "$L" -s 4m
	dmsetup remove "$DM"
else
	skip "a device held by another: no device mapper here"
fi
DM=""

# appears PATH: until the kernel has made PATH (at most 10 s).
appears() {
	_i=0
	until [ -e "$1" ] || [ $_i -ge 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	[ -e "$1" ]
}

# A partition of the device mounted: the kernel must read partition tables.
head -c $((32 * MIB)) /dev/zero >"$T/pimg"
if have sfdisk && printf 'label: dos\nstart=2048, type=83\n' |
    sfdisk -q "$T/pimg" >/dev/null 2>&1 && attach "$T/pimg" -P &&
    P=$L && PN=${P#/dev/} && appears "/sys/block/$PN/${PN}p1"; then
	pnode=/dev/${PN}p1
	if [ ! -b "$pnode" ]; then
		pnode=$T/${PN}p1
		mknod "$pnode" b $(tr ':' ' ' <"/sys/block/$PN/${PN}p1/dev")
	fi
	if mkfs.ext4 -q -F "$pnode" >/dev/null 2>&1 &&
	    mount -o ro "$pnode" "$M" && T_MOUNTS=$M; then
		WANT="refused: its partition ${PN}p1 is mounted on $M"
		refused "a device whose partition is mounted" --device "$P" \
		    -s 4m
		# A loop device over the partitioned one: what it writes is
		# the mounted partition's disk (issue 26).
		if attach "$P"; then
			LP=$L
			WANT="refused: its backing device's partition ${PN}p1 is mounted on $M\|refused: its backing device ${PN}p1 is mounted on $M"
			refused "a loop device over a disk whose partition is mounted" \
			    --device "$LP" -s 1m
			detach "$LP"
		else
			skip "a loop device over a partitioned one: losetup failed"
		fi
		L=$P
		scratch_umount "$M"
	else
		skip "a mounted partition: mkfs.ext4 or mount failed"
		skip "a loop device over a partitioned one: mkfs.ext4 or mount failed"
	fi
	# A partition whose whole disk backs another loop device.
	if attach "$P"; then
		LP=$L
		L=$pnode
		WANT="^bonnie-ng: --device $pnode: refused: its whole disk $PN is the backing file of the loop device $LP; detach it first (losetup -d $LP)$"
		refused "a partition whose whole disk backs another loop device" \
		    --device "$pnode" -s 1m
		detach "$LP"
	else
		skip "a partition whose whole disk backs a loop device: losetup failed"
	fi
	L=/dev/$N
else
	skip "a mounted partition: this kernel read no partition table from sfdisk's"
	skip "a loop device over a partitioned one: no partition table"
	skip "a partition whose whole disk backs a loop device: no partition table"
	L=/dev/$N
fi

WANT="^bonnie-ng: -d $L: a block device, not a directory (--device PATH"
refused "-d with a block device" -d "$L" -s 4m
WANT="^bonnie-ng: --device /dev/null: a character device, not a block device$"
refused "a character device" --device /dev/null -s 4m
WANT="^bonnie-ng: --device $T: a directory, not a block device"
refused "a directory" --device "$T" -s 4m
WANT="more than the 32 MiB of $L"
refused "-s larger than the device" --device "$L" -s 64m
WANT="invalid value for -j, --jobs: --device runs one worker"
refused "-j 2" --device "$L" -s 4m -j 2
WANT="need a file system: use -d"
refused "--files" --device "$L" -s 4m --files 1
WANT="^bonnie-ng: sweep: --device and -d both name the target"
refused "sweep: -d beside --device" sweep --device "$L" -d "$T" \
    --sizes 4m..4m

# A loop device over the loop device: the lower one is in use.
if attach "$L"; then
	L2=$L
	L=/dev/$N
	WANT="^bonnie-ng: --device $L: refused: it is the backing file of the loop device $L2; detach it first (losetup -d $L2)$"
	refused "a device that backs another loop device" --device "$L" -s 4m
	detach "$L2"
	# Two loop devices over one file: each writes what the other reads.
	if attach "$T/img"; then
		L2=$L
		L=/dev/$N
		WANT="^bonnie-ng: --device $L: refused: its backing file is the backing file of the loop device $L2; detach it first (losetup -d $L2)$"
		refused "a loop device whose file backs another loop device" \
		    --device "$L" -s 4m
		detach "$L2"
	else
		skip "two loop devices over one file: losetup failed"
	fi
else
	skip "a loop device over a loop device: losetup -f failed"
	skip "two loop devices over one file: losetup failed"
	L=/dev/$N
fi

# --- compare: the file system on the device against the device. ---
if have mkfs.ext4 && mkfs.ext4 -q -F "$L" >/dev/null 2>&1 &&
    mount "$L" "$M" 2>/dev/null && T_MOUNTS=$M; then
	"$BONNIE" -d "$M" -s 8m -c 16k -f -p write,read -q \
	    --json "$T/fs.json" >/dev/null 2>&1
	st=$?
	scratch_umount "$M"
	"$BONNIE" --device "$L" -s 8m -c 16k -f -p write,read -q \
	    --json "$T/dev.json" >/dev/null 2>&1
	check "an ext4 run on $L and a run on $L itself" "$((st + $?))"
	"$BONNIE" compare "$T/fs.json" "$T/dev.json" >"$T/cmp" 2>&1
	grep -q "^  target  *file system | device $L$" "$T/cmp" &&
	    grep -q "^  file system  *ext4 | none (a block device)$" "$T/cmp" &&
	    grep -q "^note: the targets differ: $T/fs.json measured a file system, $T/dev.json the device $L\.$" "$T/cmp"
	check "compare: the targets differ, said in the settings and a note" $?
	"$BONNIE" report "$T/dev.json" >"$T/rep" 2>&1
	grep -q "dev.json  *bonnie-ng JSON  *none (a block device) " "$T/rep"
	check "report: the device run's file system is none (a block device), as compare says" $? ||
	    diag "$(cat "$T/rep")"
	fsw=$(jq '.runs[0].phases.write.rate' "$T/fs.json")
	dvw=$(jq '.runs[0].phases.write.rate' "$T/dev.json")
	want=$(awk -v a="$fsw" -v b="$dvw" 'BEGIN { printf "%.1f%%", 100 * a / b }')
	grep -Eq "^  write +$want of the device's rate" "$T/cmp"
	check "  the file system's write as a share of the device's: $want" $?
	grep -Eq "^  read +[0-9.]+% of the device's rate" "$T/cmp" &&
	    grep -Eq "^  write_cpu +[0-9.]+x the device's CPU s/GiB" "$T/cmp"
	check "  and the read's share, the CPU cost as a multiple" $?
	diag "$(sed -n '/^note: the targets/,/^$/p' "$T/cmp")"
	"$BONNIE" compare -o json "$T/fs.json" "$T/dev.json" >"$T/cmp.json" \
	    2>/dev/null
	jq -e --argjson a "$fsw" --argjson b "$dvw" '.new[0].target_differs and
	    (.columns[] | select(.name == "write") | .new[0].fs_ratio -
	    $a / $b | fabs < 1e-6)' "$T/cmp.json" >/dev/null
	check "  compare -o json: target_differs, the write's fs_ratio" $?
	"$BONNIE" compare "$T/dev.json" "$T/dev.json" >"$T/cmp2" 2>&1
	! grep -q "targets differ" "$T/cmp2"
	check "  two device runs: no such note" $?
else
	skip "compare of a file system and its device: mkfs.ext4 or mount failed"
fi

# --- A regular file named with --device: measured in place. ---
F=$T/inplace
head -c $((8 * MIB + 3000)) /dev/urandom >"$F"
cp "$F" "$T/inplace.orig"
ino=$(stat -c %i "$F")
"$BONNIE" --device "$F" -c 16k -f -p write,rewrite,read -q \
    --json "$T/file.json" >/dev/null 2>"$T/err"
check "a regular file given to --device: measured, exit 0" $?
grep -q "overwriting the first 8 MiB of $F in place (a regular file of " "$T/err"
check "  the overwrite line names it in place" $?
[ -f "$F" ] && [ "$(stat -c %s "$F")" -eq $((8 * MIB + 3000)) ] &&
    [ "$(stat -c %i "$F")" = "$ino" ]
check "  left in place, the same file, its size unchanged" $?
cmp -s -i $((8 * MIB)) "$F" "$T/inplace.orig"
check "  the bytes past SIZE (the default: the file's size in whole chunks) untouched" $?
jq -e '.options.size_bytes == 8388608' "$T/file.json" >/dev/null
check "  SIZE defaulted to the file's size, rounded to chunks" $?
jq -e --arg f "$F" --arg d "$T" '.target | .kind == "file" and
    .path == $f and .dir == $d and .fs_type != null' "$T/file.json" \
    >/dev/null
check "  the record: kind file, its path, its directory's file system" $?
WANT="more than the 8 MiB of $F"
L=$F
refused "-s larger than the file" --device "$F" -s 9m
ln -s "$F" "$T/link"
WANT="a symbolic link to a regular file"
refused "a symbolic link to a file" --device "$T/link" -s 4m
[ "$(stat -c %s "$F")" -eq $((8 * MIB + 3000)) ]
check "  the file's size is still its own" $?

# --- A regular file under a loop device or used as swap: refused. ---
B=$T/backing
head -c $((4 * MIB)) /dev/urandom >"$B"
if attach "$B"; then
	LB=$L
	L=$B
	WANT="^bonnie-ng: --device $B: refused: it is the backing file of the loop device $LB; detach it first (losetup -d $LB)$"
	refused "the backing file of $LB" --device "$B" -s 1m
	# Compared by device and inode: another name of the file, and that
	# name alone once the one the loop device was given is gone.
	ln "$B" "$T/backing.2"
	L=$T/backing.2
	WANT="^bonnie-ng: --device $L: refused: it is the backing file of the loop device $LB;"
	refused "  by a hard link to it" --device "$L" -s 1m
	rm "$B"
	# sysfs now says "... (deleted)": the kernel's own record tells.
	diag "sysfs: $(cat "/sys/block/${LB#/dev/}/loop/backing_file")"
	refused "  by that link once the first name is removed" --device "$L" \
	    -s 1m
	detach "$LB"
else
	skip "the backing file of a loop device: losetup -f failed"
fi

SW=$T/swapfile
head -c $((1 * MIB)) /dev/zero >"$SW"
chmod 600 "$SW"
if have mkswap && have swapon && mkswap "$SW" >/dev/null 2>&1 &&
    swapon "$SW" 2>/dev/null; then
	SWAP=$SW
	L=$SW
	WANT="^bonnie-ng: --device $SW: refused: it is used as swap ($SW)$"
	refused "an active swap file" --device "$SW" -s 1m
	swapoff "$SW"
	SWAP=""
else
	skip "an active swap file: mkswap or swapon failed (a file system without swap files?)"
fi

done_testing
