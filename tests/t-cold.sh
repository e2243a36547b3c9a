#!/bin/sh
# Cold means the device: in --cache=cold every seek's read comes from the
# device, or the phase says it did not.  Checked against /proc/diskstats on
# a loop device that only this test touches, in fork and thread mode; a
# loop device that reads its backing file through the page cache gets that
# file dropped too; a memory file system is said to be memory, once.
# run.sh: suites: plain sanitized: cold seeks read Linux's device counters
#   (diskstats), loop devices and tmpfs
. tests/lib.sh
scratch

# Sectors read so far by the block device NAME (loop3).
dev_read() {
	awk -v n="$1" '$3 == n { printf "%.0f\n", $6 * 512 }' /proc/diskstats
}

if ! is_root || ! have jq || ! have losetup || ! have mkfs.ext4; then
	skip "cold seeks: needs root, jq, losetup and mkfs.ext4"
	skip "loop backing file: needs root, jq, losetup and mkfs.ext4"
	skip "memory file system: needs root and jq"
	skip "tmpfs: the seekers' drops: needs root and jq"
	done_testing
	exit
fi

M=$T/mnt
mkdir "$M"
truncate -s 256m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1
LOOP=""
# detach: the mount and the loop device undone (lazily when another
# process holds the mount); the scratch directory's teardown undoes what
# is left of them on every way out (T_MOUNTS, T_LOOPS).
detach() {
	[ -n "$LOOP" ] || return 0
	scratch_umount "$M"
	scratch_detach "$LOOP"
	LOOP=""
}
# attach DIO: the image on a new loop device with direct I/O on or off,
# mounted on $M.
attach() {
	detach
	LOOP=$(losetup -f --show --direct-io="$1" "$T/img" 2>/dev/null) &&
	    T_LOOPS="$T_LOOPS $LOOP" && mount "$LOOP" "$M" 2>/dev/null &&
	    T_MOUNTS="$T_MOUNTS $M" && LOOPN=${LOOP#/dev/} || {
		detach
		return 1
	}
}

if attach on && [ "$(cat /sys/block/$LOOPN/loop/dio)" = 1 ]; then
	for mode in fork thread; do
		r0=$(dev_read "$LOOPN")
		"$BONNIE" -d "$M" -s 64m -c 16k -p seeks -S 3 --seekers=$mode \
		    -q --json "$T/$mode.json" >/dev/null 2>"$T/err"
		check "$mode: cold seeks run" $?
		r1=$(dev_read "$LOOPN")
		# The seeks read ops x chunk; the device, by its own count
		# over the whole run, read at least 95% of that.
		jq -e --argjson d "$((r1 - r0))" '.runs[0].phases.seeks |
		    $d >= 0.95 * .ops * 16384 and .ops >= 4000' \
		    "$T/$mode.json" >/dev/null
		check "$mode: /proc/diskstats: the device read >= 95% of the seeks' bytes ($((r1 - r0)) bytes)" $?
		jq -e --argjson d "$((r1 - r0))" '.runs[0].phases.seeks |
		    .cache == "cold" and .hit_fraction <= 0.05 and
		    .dev_read_bytes <= $d and .elapsed_s >= 0.99 and
		    .drop_s > 0' "$T/$mode.json" >/dev/null
		check "$mode: recorded cold, hit fraction <= 5%, drops left out of the time" $?
		diag "$(jq -c '.runs[0].phases.seeks | {rate, ops, hit_fraction, dev_read_bytes, drop_s}' "$T/$mode.json")"

		# --cache=keep: the same seeks come from memory, and the hit
		# fraction says so (the meter agrees).
		r0=$(dev_read "$LOOPN")
		"$BONNIE" -d "$M" -s 64m -c 16k -p write,seeks -S 3 -n 8000 \
		    --seekers=$mode --cache=keep -q --json "$T/k$mode.json" \
		    >/dev/null 2>&1
		r1=$(dev_read "$LOOPN")
		jq -e --argjson d "$((r1 - r0))" '.runs[0].phases.seeks |
		    .hit_fraction >= 0.9 and $d < 0.1 * .ops * 16384' \
		    "$T/k$mode.json" >/dev/null
		check "$mode: keep: hit fraction >= 90%, as /proc/diskstats shows" $?
	done
	# Chunks smaller than a page: each drop takes the pages holding the
	# chunk, so every seek reads a page from the device.
	r0=$(dev_read "$LOOPN")
	"$BONNIE" -d "$M" -s 16m -c 1k -p seeks -S 2 -n 4000 -q \
	    --json "$T/sub.json" \
	    >/dev/null 2>"$T/err"
	check "1 KiB chunks: cold seeks run" $?
	r1=$(dev_read "$LOOPN")
	jq -e --argjson d "$((r1 - r0))" '.runs[0].phases.seeks |
	    .cache == "cold" and .hit_fraction <= 0.05 and
	    $d >= 0.95 * .ops * 1024' "$T/sub.json" >/dev/null
	check "1 KiB chunks: cold, the device read every seek ($((r1 - r0)) bytes)" $? ||
	    diag "$(jq -c '.runs[0].phases.seeks | {ops, hit_fraction, cache}' "$T/sub.json")"
	jq -e '.target.device.name == "'"$LOOPN"'" and
	    .target.device.loop_dio == true and
	    .target.device.loop_backing_file == "'"$T/img"'"' "$T/fork.json" \
	    >/dev/null
	check "the record names the loop device's backing file and its dio" $?
else
	skip "cold seeks: cannot attach a loop device with direct I/O"
fi

# A loop device without direct I/O: its backing file is dropped before
# each reading phase, and seeks read again from its cache are hits.
if attach off; then
	cat "$T/img" >/dev/null
	"$BONNIE" -d "$M" -s 32m -c 16k -p write,read,seeks -n 2000 -q \
	    --json "$T/off.json" >/dev/null 2>&1
	check "dio off: the run passes" $?
	cached=$(fincore -nb -o RES "$T/img" 2>/dev/null | tr -d ' ')
	# Without the drop the whole 256 MiB image stays cached.
	[ -n "$cached" ] && [ "$cached" -lt $((128 << 20)) ]
	check "dio off: the backing file was dropped (fincore: $cached bytes cached after)" $?
	jq -e '.target.device.loop_dio == false and
	    .runs[0].phases.read.backing_resident <= 0.05 and
	    .runs[0].phases.read.cache == "cold" and
	    .runs[0].phases.read.hit_fraction <= 0.05' "$T/off.json" >/dev/null
	check "dio off: read cold, backing residency recorded" $?
	# 2048 chunks seeked 8000 times by 3 seekers: most reads are repeats,
	# which the backing file's cache serves.  Under strace when there is
	# one: its count of the seeks' preads and of their distinct offsets is
	# the meter of the repeats.
	set -- "$BONNIE" -d "$M" -s 32m -c 16k -p seeks -n 8000 -S 3 \
	    --json "$T/off2.json"
	if have strace; then
		strace -ff --seccomp-bpf -qq -e trace=pread64 -o "$T/off2.st" "$@" \
		    >/dev/null 2>"$T/err"
	else
		"$@" >/dev/null 2>"$T/err"
	fi
	jq -e '.runs[0].phases.seeks | .cache == "warm" and
	    .hit_fraction > 0.05' "$T/off2.json" >/dev/null &&
	    grep -q "phase seeks: [0-9]*% of its reads were of chunks read before, which the page cache kept for $LOOPN's backing file $T/img ($LOOPN read [0-9]* of [0-9]* bytes, from that cache, not from the device under the backing file); marked warm" \
	    "$T/err"
	check "dio off: repeated seeks marked warm, the loop device and its backing file named" $? ||
	    diag "$(cat "$T/err")"
	if have strace; then
		# pread64(fd, "..."..., 16384, OFFSET) = 16384, one a seek (a
		# file a process: no call split by another's).
		want=$(awk '/pread64\(.*, 16384, [0-9]+\) = 16384$/ {
		    o = $(NF - 2); sub(/\)$/, "", o); n++
		    if (!(o in seen)) { seen[o] = 1; d++ } }
		    END { if (n > 0) printf "%d %d %.6f\n", n, d, (n - d) / n }' \
		    "$T"/off2.st.*)
		got=$(jq -r '.runs[0].phases.seeks.hit_fraction' "$T/off2.json")
		set -- $want
		[ "${1:-0}" -eq 8000 ] && awk -v a="${3:-0}" -v b="$got" \
		    'BEGIN { d = a - b; exit !(d < 1e-4 && d > -1e-4) }'
		check "dio off: the repeats are the seeks' reads of an offset read before (strace: ${1:-0} preads, ${2:-0} offsets, ${3:-?}; the record: $got)" $?
	else
		skip "dio off: the repeats against strace: no strace"
	fi
	detach
else
	skip "loop backing file: cannot attach a loop device"
fi

# A memory file system: said once, every reading phase warm.
mkdir "$T/tmpfs"
if mount -t tmpfs -o size=64m tmpfs "$T/tmpfs" 2>/dev/null; then
	T_MOUNTS="$T_MOUNTS $T/tmpfs"
	"$BONNIE" -d "$T/tmpfs" -s 8m -c 16k -p write,read,seeks -x 2 -n 100 \
	    --json "$T/mem.json" >/dev/null 2>"$T/err"
	n=$(grep -c "a memory file system" "$T/err")
	[ "$n" = 1 ] && ! grep -q "still cached" "$T/err"
	check "tmpfs: said once to be memory, no per-phase cache warning ($n)" $?
	jq -e '[.runs[].phases.read, .runs[].phases.seeks] |
	    all(.cache == "warm" and .hit_fraction == 1)' "$T/mem.json" \
	    >/dev/null
	check "tmpfs: reading phases warm, every read a hit" $?
	# Nothing to drop there: the seekers drop nothing, counted by
	# strace.  On a disk's file system a seek drops its chunk when
	# another seek reads it again or it was written back: 100 seeks of
	# a 64 KiB file (4 chunks, each read again and again) drop after
	# every seek; of an 8 MiB file (512 chunks) after the 10 write-backs
	# and the few chunks read twice, far fewer.
	if have strace; then
		# (LeakSanitizer cannot run under strace's ptrace.)
		dontneed() {
			env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			    strace -f --seccomp-bpf -qq -e trace=fadvise64 -o "$T/fa.st" \
			    "$BONNIE" -d "$1" -s "$2" -c 16k -p seeks -n 100 -q \
			    >/dev/null 2>&1 &&
			    grep -c 'POSIX_FADV_DONTNEED' "$T/fa.st"
		}
		mem=$(dontneed "$T/tmpfs" 8m)
		mkdir "$T/disk"
		disk=$(dontneed "$T/disk" 8m)
		small=$(dontneed "$T/disk" 64k)
		if [ "$(stat -f -c %T "$T/disk")" = tmpfs ]; then
			[ -n "$mem" ] && [ "$mem" -lt 10 ]
		else
			[ -n "$mem" ] && [ "$mem" -lt 10 ] &&
			    [ "${small:-0}" -ge 100 ] && [ "${disk:-0}" -ge 10 ] &&
			    [ "${disk:-0}" -lt 60 ]
		fi
		check "tmpfs: the seekers drop nothing; on disk what is read again (strace: $mem DONTNEED; on $T/disk's file system $small for 4 chunks, $disk for 512)" $?
	else
		skip "tmpfs: the seekers' drops against strace: no strace"
	fi
	scratch_umount "$T/tmpfs"
else
	skip "memory file system: cannot mount tmpfs"
	skip "tmpfs: the seekers' drops: cannot mount tmpfs"
fi
done_testing
