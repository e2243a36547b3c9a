#!/bin/sh
# A full disk, for real: a 16 MiB tmpfs for the per-char and block writes,
# and a 128 MiB btrfs image on a loop device for the rewrite (only a
# copy-on-write file system can run out of space while overwriting a file
# in place; tmpfs, ext4 and xfs never do).  Root only; each part skips
# visibly without root, tmpfs, btrfs-progs or a loop device.  The
# preload-library version of each cell is in t-faults.sh.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"
NOSPC="No space left on device"
json_probe "$T"

# full DESC DIR PHASE PHASES ARGS...: runs out of space in PHASE.  With
# $HOLD set, the run is held at its first read(2) (the rewrite's first,
# when the phases are write,rewrite) while the command in $HOLD runs.
full() {
	_d=$1 _dir=$2 _ph=$3 _phs=$4; shift 4
	rm -f "$T/r.json" "$T/go" "$T/fault.log"
	_j=
	[ $JSON -eq 1 ] && _j="--json $T/r.json"
	if [ -n "${HOLD:-}" ]; then
		(bn_fault "read:1:wait=$T/go" "$T/out" "$T/err" -d "$_dir" -q \
		    -p "$_phs" --cache=keep --no-space-check -n 20 $_j "$@"
		exit $st) &
		_pid=$!
		_i=0
		while [ $_i -lt 1200 ] && kill -0 $_pid 2>/dev/null &&
		    ! grep -q '^fault .*kind=read' "$T/fault.log" 2>/dev/null; do
			sleep 0.1
			_i=$((_i + 1))
		done
		eval "$HOLD"
		: >"$T/go"
		wait $_pid
		st=$?
	else
		bn "$T/out" "$T/err" -d "$_dir" -q -p "$_phs" --cache=keep \
		    --no-space-check -n 20 $_j "$@"
	fi
	check "$_d: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
	err_line "$T/err" "$_ph" "$NOSPC" "$_dir"
	_r=$?
	check "$_d: one line naming phase $_ph and '$NOSPC'" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "$_d: no test file left" $(no_test_files "$_dir"; echo $?)
	check "$_d: no process left" $(no_procs; echo $?)
	if [ $JSON -eq 1 ] && [ -s "$T/r.json" ]; then
		jq -e ".runs[0].error.errno == 28 and .runs[0].error.phase == \"$_ph\"" \
		    "$T/r.json" >/dev/null 2>&1
		check "$_d: JSON record has the ENOSPC error" $?
	else
		skip "$_d: JSON record (jq missing or --json not in this build)"
	fi
}

if ! is_root; then
	skip "disk full: needs root to mount a small tmpfs"
	skip "disk full (rewrite): needs root to mount btrfs on a loop device"
	done_testing; exit
fi

M=$T/small
mkdir "$M"
if mount -t tmpfs -o size=16m tmpfs "$M" 2>/dev/null; then
	T_MOUNTS=$M
	chmod 1777 "$M"
	# Refused up front, naming both sizes, unless --no-space-check.
	bn "$T/out" "$T/err" -d "$M" -q -s 64m -c 4k
	check "64 MiB on 16 MiB: refused before writing (exit $st)" \
	    $([ $st -eq 2 ]; echo $?)
	grep -Eq "64 MiB.* 1[0-9] MiB free" "$T/err"
	_r=$?
	check "64 MiB on 16 MiB: the message names both sizes" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "64 MiB on 16 MiB: nothing created" $(no_test_files "$M"; echo $?)

	full "disk full in putc" "$M" putc putc -s 64m -c 4k
	full "disk full in write" "$M" write write -s 64m -c 16k
	scratch_umount "$M"
else
	skip "disk full: cannot mount tmpfs"
fi

# Rewrite: 112 MiB on a 128 MiB btrfs fits once, not twice.  Between the
# write and the rewrite the file is copied by reference (a reflink, as a
# snapshot would keep it): every block the rewrite writes then needs new
# space.  Without the copy btrfs can commit its transaction and reuse the
# blocks the rewrite frees, and on a loaded machine it did (the rewrite
# ran to the end, once in a .ci/run).
B=$T/btrfs
if [ -n "$INJECT" ] && have mkfs.btrfs && grep -qw btrfs /proc/filesystems &&
    mkdir "$B" &&
    truncate -s 128m "$T/btrfs.img" &&
    mkfs.btrfs -q --mixed "$T/btrfs.img" >/dev/null 2>&1 &&
    mount -o loop "$T/btrfs.img" "$B" 2>/dev/null; then
	T_MOUNTS=$B
	HOLD='for f in "$B"/bonnie-ng.*; do
		cp --reflink=always "$f" "$B/held"; done'
	full "disk full in rewrite (btrfs)" "$B" rewrite write,rewrite \
	    -s 112m -c 16k
	HOLD=
	[ -e "$B/held" ]
	check "disk full in rewrite (btrfs): the reflinked copy was made" $?
	rm -f "$B/held"
	scratch_umount "$B"
else
	skip "disk full in rewrite: needs the preload library, btrfs-progs, btrfs and a loop device"
fi

done_testing
