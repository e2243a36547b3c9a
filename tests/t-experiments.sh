#!/bin/sh
# doc/EXPERIMENTS.md keeps working: every ```sh block in it is extracted
# and run as its own script, at small sizes, on a loop device in this
# test's scratch directory and a mount point of its own, with the page's
# variables set (DEV, MNT, SIZE, OUT, SIZES, CHUNKS, LOCK, LIMIT, HOG, EXTRA,
# MINTIME) and
# `bonnie-ng` on PATH being the binary under test.  Each block must exit
# 0 (or what an "<!-- t-experiments: exit 0 or 1 -->" line just before it
# allows), leave nothing mounted and leave no test file behind.
# run.sh: long: among the longest in CI; started first on a clean clone
# The page's recipes call the runs, sweeps and compares the other tests
# check under the sanitizers: here they are checked as a user runs them,
# in the plain build (27 s of ASan's CPU in CI).
# run.sh: suites: plain: doc/EXPERIMENTS.md's recipes as a user runs them
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

DOC=doc/EXPERIMENTS.md
LOOP=

# The mount the blocks made, the loop device (T_LOOPS) and the image go
# on every way out, held or not (tests/lib.sh).
cleanup() {
	mountpoint -q "$T/mnt" 2>/dev/null && scratch_umount "$T/mnt"
	[ -n "${T_IMG:-}" ] && rm -f "$T_IMG"
	cleanup_scratch
}
trap cleanup EXIT

# --- The blocks, one file each. ---
mkdir "$T/blocks"
awk -v dir="$T/blocks" '
	/^<!-- t-experiments: exit / { allow = $0; sub(/.*exit /, "", allow);
		sub(/ -->.*/, "", allow); next }
	/^```sh[[:space:]]*$/ { n++; f = sprintf("%s/%02d.sh", dir, n);
		a = sprintf("%s/%02d.exit", dir, n);
		print (allow == "" ? "0" : allow) > a; close(a);
		allow = ""; inside = 1; next }
	/^```/ && inside { inside = 0; close(f); next }
	inside { print > f }
' "$DOC"
n=$(ls "$T/blocks"/*.sh 2>/dev/null | wc -l | tr -d ' ')
check "$DOC has sh blocks to run ($n)" $([ "$n" -ge 6 ]; echo $?)
for f in "$T/blocks"/*.sh; do
	sh -n "$f" 2>"$T/syn"
	check "block $(basename "$f" .sh) is valid sh" $?
	[ -s "$T/syn" ] && diag "$(cat "$T/syn")"
done

need=""
is_root || need="root"
for tool in losetup mkfs.ext4 mount umount mountpoint jq; do
	have "$tool" || need="$need $tool"
done
if [ -n "$need" ]; then
	skip "running the blocks needs:$need"
	done_testing; exit
fi

# --- The world the blocks run in. ---
# The disk image on tmpfs when there is one, so that a sync mount's
# flushes cost little.
IMG=$(mktemp /dev/shm/bonnie-ng-exp.XXXXXX 2>/dev/null) || IMG=$T/disk.img
T_IMG=$IMG
truncate -s 192m "$IMG"
LOOP=$(losetup -f --show "$IMG") && T_LOOPS=$LOOP || {
	skip "no loop device free"
	done_testing; exit
}
mkdir "$T/mnt" "$T/out" "$T/bin"
ln -s "$BONNIE" "$T/bin/bonnie-ng"
DEV=$LOOP MNT=$T/mnt OUT=$T/out SIZE=4m SIZES=4m..16m CHUNKS=4k,64k
# 64 MiB locked: a lock passes RLIMIT_MEMLOCK as root.
LOCK=64m
# The memory cgroup's limit and the hog beside the run in it.  A
# sanitized binary's shadow memory and quarantine alone pass 16 MiB: the
# kernel's OOM killer took it (exit 137) and its file was left.
LIMIT=48m HOG=32m
[ "${BONNIE_NG_SANITIZED:-0}" = 1 ] && LIMIT=256m
EXTRA="-n 200"
# A sweep's points at these sizes run well under the default 0.5 s, and a
# point under --min-time is run again, up to 64 times: 0, so that each
# point has its -x runs (half of this test's CPU went to those repeats).
MINTIME=0
export DEV MNT OUT SIZE SIZES CHUNKS LOCK LIMIT HOG EXTRA MINTIME
# The blocks that need no device use a mounted file system.
mkfs.ext4 -q -F "$LOOP" && mount "$LOOP" "$T/mnt"

start=$(date +%s)
for f in "$T/blocks"/*.sh; do
	b=$(basename "$f" .sh)
	allow=$(cat "$T/blocks/$b.exit")
	if portable && grep -q -- '--device' "$f"; then
		skip "block $b: --device needs Linux's in-use checks (the portable build refuses every device)"
		continue
	fi
	# A block that makes its own file system starts from an unmounted
	# device; the others find the one mounted above.
	if grep -q 'mkfs' "$f"; then
		mountpoint -q "$T/mnt" && scratch_umount "$T/mnt"
	elif ! mountpoint -q "$T/mnt"; then
		mkfs.ext4 -q -F "$LOOP" && mount "$LOOP" "$T/mnt"
	fi
	t0=$(date +%s)
	(cd "$T/out" && PATH=$T/bin:$PATH sh -e "$f") >"$T/o" 2>"$T/e" </dev/null
	st=$?
	okst=1
	for a in $(echo "$allow" | tr -c '0-9' ' '); do
		[ "$st" -eq "$a" ] && okst=0
	done
	check "block $b ($(sed -n '/^bonnie-ng\|^\tbonnie-ng\|^for\|^jq/{p;q}' "$f" |
	    cut -c1-50)...): exit $st, allowed $allow, $(( $(date +%s) - t0 ))s" $okst
	[ $okst -eq 0 ] || { sed 's/^/#   /' "$T/e" | tail -15; sed 's/^/#   /' "$T/o" | tail -5; }
	# Exit 1 is only ever compare's verdict, never a failed run.
	if [ "$st" -eq 1 ]; then
		check "block $b: exit 1 is compare's verdict" \
		    $(grep -q '^bonnie-ng compare' "$f" &&
		    { grep -q '^result: worse' "$T/o" ||
		    grep -qs '<failure' "$T/out"/*.xml; }; echo $?)
	fi
	if grep -q 'mkfs' "$f"; then
		check "block $b: leaves the device unmounted" \
		    $(! mountpoint -q "$T/mnt"; echo $?)
	fi
	check "block $b: no test file left" $(no_test_files "$T/mnt" &&
	    no_test_files "$T/out"; echo $?)
done
mountpoint -q "$T/mnt" && scratch_umount "$T/mnt"

# What the blocks made says what the page promises.
if portable; then
	skip "raw device: the portable build refuses every device"
else
	check "raw device: one record on the device, one on its file system" \
	    $(jq -se '[.[].target.kind] == ["device", "file"]' \
	    "$T/out/raw.json" "$T/out/fs.json" >/dev/null 2>&1; echo $?)
fi
if [ -s "$T/out/ext4-b1024.json" ] && [ -s "$T/out/ext4-b4096.json" ]; then
	check "block sizes: both sweeps ran every chunk, 3 runs or more each" \
	    $(jq -se '[.[] | .points | length] == [2, 2] and
	    ([.[] | .target.super_options] | length) == 2 and
	    ([.[].points[].stats.write.runs >= 3] | all)' \
	    "$T/out/ext4-b1024.json" "$T/out/ext4-b4096.json" >/dev/null; echo $?)
	check "block sizes: the page overlays both sweeps in one plot, each named by its block size" \
	    $([ "$(grep -c '<svg ' "$T/out/ext4-blocks.html")" -eq 1 ] &&
	    grep -q "<li>sweep 1: $T/out/ext4-b1024.json (.*block size 1024" \
	    "$T/out/ext4-blocks.html" &&
	    grep -q "<li>sweep 2: $T/out/ext4-b4096.json (.*block size 4096" \
	    "$T/out/ext4-blocks.html"; echo $?)
else
	check "block sizes: the two sweep records exist" 1
	check "block sizes: the page exists" 1
fi
if portable; then
	skip "record sizes: the portable build refuses every device"
else
	check "record sizes: a device sweep and a file system sweep, every chunk" \
	    $(jq -se '[.[].target.kind] == ["device", "file"] and
	    ([.[] | .points | length] == [2, 2]) and .[0].options.direct' \
	    "$T/out/raw-chunks.json" "$T/out/fs-chunks.json" >/dev/null 2>&1;
	    echo $?)
fi
# Each mount option's record was made on a mount with it.
for opt in sync:sync data=journal:data-journal; do
	if portable; then
		skip "mount option ${opt%%:*}: the portable build knows no mount options"
		continue
	fi
	check "mount option: the ${opt%%:*} record was made on such a mount" \
	    $(jq -e --arg o "${opt%%:*}" '.target.super_options |
	    split(",") | index($o) != null' "$T/out/${opt#*:}.json" \
	    >/dev/null 2>&1; echo $?)
done
if portable; then
	skip "memory cgroup: the portable build reads no cgroup's account"
elif [ -s "$T/out/with-hog.json" ]; then
	check "memory cgroup: the hog's run has its own cgroup's account under the limit's, both gone" \
	    $(cg=$(jq -r '[.runs[].phases[] | select(.kernel != null) |
	    .kernel.cgroup.path] | unique | if length == 1 and
	    all(.[]; test("^/bonnie-ng-less[.][0-9]+/bonnie-ng[.][0-9]+$"))
	    then .[0] else "none" end' "$T/out/with-hog.json" 2>/dev/null) &&
	    [ "$cg" != none ] && [ ! -d "/sys/fs/cgroup/memory$cg" ] &&
	    [ ! -d "/sys/fs/cgroup$cg" ] &&
	    [ ! -d "/sys/fs/cgroup/memory${cg%/*}" ] &&
	    [ ! -d "/sys/fs/cgroup${cg%/*}" ]; echo $?)
else
	skip "memory cgroup: no memory controller"
fi
check "less memory: the locked run's record holds its lock" \
    $(jq -e '.memory.locked_bytes == 67108864 and .memory.lock_held' \
    "$T/out/less-ram.json" >/dev/null 2>&1; echo $?)
check "CI: the JUnit file names the compared columns" \
    $(grep -q '<testcase [^>]*name="write"' "$T/out/bonnie-ng-junit.xml" \
    2>/dev/null; echo $?)
diag "all blocks: $(( $(date +%s) - start ))s"
done_testing
