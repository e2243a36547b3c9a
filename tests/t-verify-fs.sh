#!/bin/sh
# A clean --verify run finds no bad data on the file systems people test:
# ext4, xfs and btrfs on loop devices of their own (root only, a visible
# skip otherwise) and tmpfs.  All six phases, cold cache, both seeker
# modes, and O_DIRECT where the file system has it.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
# The mounts and loop devices go with the scratch directory, held or not
# (tests/lib.sh's cleanup_scratch).
scratch

# verify_on NAME DIR EXTRA...: two clean runs on DIR, checked.  8 MiB
# and 500 seeks of 16 KiB: 512 chunks a phase and 8 MiB of seeks checked
# on each file system (32 MiB and 2000 seeks cost the three suites about
# 15 s of CPU more over the fourteen runs).
verify_on() {
	name=$1 dir=$2
	shift 2
	for mode in fork thread; do
		rm -f "$T/r.json"
		"$BONNIE" -d "$dir" -q -s 8m -c 16k -n 500 --seekers=$mode \
		    --verify --json "$T/r.json" "$@" >"$T/out" 2>"$T/err"
		st=$?
		check "$name ($mode seekers${*:+, $*}): exit 0" \
		    $([ $st -eq 0 ]; echo $?)
		[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
		jq -e '[.runs[0].phases[] | select(. != null) | .verify |
		    select(. != null)] as $v | ($v | length) == 4 and
		    ([$v[] | .bad_chunks == 0 and .checked_bytes > 0] | all)' \
		    "$T/r.json" >/dev/null 2>&1
		check "$name ($mode seekers${*:+, $*}): four phases verified, no bad data" $?
		check "$name: no test file left" $(no_test_files "$dir"; echo $?)
	done
}

if ! have jq; then
	skip "jq missing"
	done_testing; exit
fi

# tmpfs: as root a mount of its own, otherwise /dev/shm when it is tmpfs.
if is_root && mkdir "$T/tmpfs" && mount -t tmpfs -o size=80m bn-verify "$T/tmpfs"; then
	T_MOUNTS="$T_MOUNTS $T/tmpfs"
	verify_on tmpfs "$T/tmpfs"
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	d=$(mktemp -d /dev/shm/bonnie-ng-test.XXXXXX)
	verify_on tmpfs "$d"
	rm -rf "$d"
else
	skip "tmpfs: cannot mount one and /dev/shm is not a writable tmpfs"
fi

for fs in ext4 xfs btrfs; do
	if ! is_root; then
		skip "$fs: needs root for a loop device"
		continue
	fi
	if ! have "mkfs.$fs" || ! have losetup; then
		skip "$fs: mkfs.$fs or losetup missing"
		continue
	fi
	img="$T/$fs.img"
	mnt="$T/$fs"
	mkdir "$mnt"
	truncate -s 320m "$img"
	case $fs in
	ext4) mk="mkfs.ext4 -q -F" ;;
	xfs) mk="mkfs.xfs -q -f" ;;
	btrfs) mk="mkfs.btrfs -q -f" ;;
	esac
	if ! loop=$(losetup -f --show "$img" 2>/dev/null); then
		skip "$fs: no loop device"
		continue
	fi
	T_LOOPS="$T_LOOPS $loop"
	if ! $mk "$loop" >"$T/mkfs.out" 2>&1 || ! mount "$loop" "$mnt" 2>>"$T/mkfs.out"; then
		skip "$fs: mkfs or mount failed: $(head -n 1 "$T/mkfs.out")"
		continue
	fi
	T_MOUNTS="$T_MOUNTS $mnt"
	verify_on "$fs" "$mnt"
	if [ -z "${direct_none:-}" ] && no_direct; then
		direct_none="this build has no O_DIRECT (the portable build on glibc)"
	fi
	if [ -n "${direct_none:-}" ]; then
		skip "$fs --direct: $direct_none"
	else
		verify_on "$fs" "$mnt" --direct
	fi
done

done_testing
