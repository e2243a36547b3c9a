# Shared helpers for the shell tests: TAP output and a scratch directory.
# Each test sources this file, calls ok/not_ok/skip, and ends with
# done_testing.  $BONNIE is the binary under test.

: "${BONNIE:=./bonnie-ng}"
# The top of the source tree: every test starts there (. tests/lib.sh).
BN_TOP=$(pwd)
case $BONNIE in /*) ;; *) BONNIE=$BN_TOP/$BONNIE ;; esac
tap_n=0
tap_failed=0
# machine_set and machine_restore: a machine-wide setting changed for a
# while, under the machine's lock, put back on every way out.
. "$BN_TOP/tests/machine.sh"

# ok DESC COMMAND...: run COMMAND; pass when it exits 0.  ok and check
# return 1 on a failure, so that "check ... $? || diag ..." shows why.
ok() {
	desc=$1; shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

# check DESC CONDITION-STATUS: record a result computed by the caller.
check() {
	tap_n=$((tap_n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $tap_n - $1"
	else
		echo "not ok $tap_n - $1"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # skip $1"
}

diag() {
	echo "$@" | sed 's/^/# /'
}

# A scratch directory removed at exit.
# Marked as the top of a hierarchy (chattr +T, where the file system has
# it): ext4 spreads the directories made in it, the runs' own among them,
# over its block groups (see tests/run.sh's TMPDIR).
scratch() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-test.XXXXXX") || exit 1
	chattr +T "$T" 2>/dev/null
	trap 'cleanup_scratch' EXIT
	# A signal ends the test through its EXIT trap (dash runs none
	# when a signal kills it): what it mounted, attached or changed is
	# undone on that way out too.
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
# The mounts (T_MOUNTS) and loop devices (T_LOOPS) a test made, space
# separated: cleanup_scratch undoes those still there on every way out
# (scratch's EXIT trap, or the test's own, which calls it).
T_MOUNTS=
T_LOOPS=

# list_drop WORD LIST...: LIST without WORD.
list_drop() {
	_w=$1
	shift
	_out=
	for _i; do
		[ "$_i" = "$_w" ] || _out="$_out $_i"
	done
	echo "${_out# }"
}

# scratch_umount DIR...: unmount each DIR, the deepest first, and drop it
# from T_MOUNTS.  One another process holds (EBUSY: stress-ng's io
# stressor opens every mount point there is when it starts, and keeps
# them open for syncfs until it ends) is detached at once (umount -l):
# it leaves the tree, so that rm -rf cannot reach into it, and the kernel
# frees it, with the loop device under it (scratch_detach), when the
# holder lets go.  Fails when one could not be unmounted either way.
scratch_umount() {
	_urc=0
	for _um in $(printf '%s\n' "$@" | sort -r); do
		if ! umount "$_um" 2>/dev/null; then
			if umount -l "$_um" 2>/dev/null; then
				diag "$_um: busy, detached lazily (umount -l)"
			else
				_urc=1
			fi
		fi
		T_MOUNTS=$(list_drop "$_um" $T_MOUNTS)
	done
	return $_urc
}

# scratch_detach DEV...: detach each loop device and drop it from T_LOOPS.
# One still in use (a file system on it that a holder keeps, or that is
# still mounted) is only marked to go (autoclear): the kernel detaches it
# when its last user lets go, and losetup -d succeeds.
scratch_detach() {
	_drc=0
	for _dl; do
		[ -n "$_dl" ] || continue
		losetup -d "$_dl" 2>/dev/null || _drc=1
		T_LOOPS=$(list_drop "$_dl" $T_LOOPS)
	done
	return $_drc
}

# cleanup_scratch: the loop devices detached first (a device under a
# mount then goes with the mount; a mount holding a device's backing file
# is no longer busy), then the mounts, then $T.
cleanup_scratch() {
	# shellcheck disable=SC2086
	scratch_detach $T_LOOPS
	# shellcheck disable=SC2086
	scratch_umount $T_MOUNTS
	[ -n "${T:-}" ] && rm -rf "$T"
	return 0
}

# cgroup_remove DIR: remove a cgroup a test made, once its processes
# have left it (up to 30 s), with the cgroups bonnie-ng made in it
# (bonnie-ng.PID, which a run that died by SIGKILL, the OOM killer's
# among them, could not remove), so that none is left behind.
cgroup_remove() {
	[ -n "$1" ] && [ -d "$1" ] || return 0
	_i=0
	until { for _c in "$1"/bonnie-ng.*; do [ -d "$_c" ] &&
	    rmdir "$_c" 2>/dev/null; done; rmdir "$1" 2>/dev/null; } ||
	    [ $_i -ge 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ ! -d "$1" ]
}

# no_test_files DIR: pass when DIR holds no bonnie-ng test file.
no_test_files() {
	[ -z "$(find "$1" -name 'bonnie-ng.*' 2>/dev/null)" ]
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# portable: the binary under test is the portable build (the *-posix.c
# half, made on Linux with make UNAME_S=FreeBSD: make check-posix), which
# knows none of Linux's extras (/proc, sysfs, drop_caches, loop devices);
# tests/run.sh says so in BONNIE_NG_PORTABLE.
portable() { [ "${BONNIE_NG_PORTABLE:-0}" = 1 ]; }

# no_direct: this build cannot open with O_DIRECT (the portable build on
# glibc, whose headers hide it without _GNU_SOURCE).
no_direct() {
	_nd=$(mktemp -d "${TMPDIR:-/tmp}/bonnie-ng-direct.XXXXXX") || return 1
	"$BONNIE" -q -d "$_nd" -s 64k -c 4k -p write --direct \
	    >/dev/null 2>"$_nd.err" </dev/null
	grep -q "built without O_DIRECT" "$_nd.err"
	_r=$?
	rm -rf "$_nd" "$_nd.err"
	return $_r
}

# schema_ok DESC [-d NAME] FILE...: a check that every FILE matches
# doc/schema.json (its $defs/NAME with -d: sweep_record, compare_record,
# ...), the first error shown under it; a skip, saying so, without python3's
# jsonschema.  tests/schema.py does the validation.
schema_ok() {
	_desc=$1; shift
	python3 "$BN_TOP/tests/schema.py" "$BN_TOP/doc/schema.json" "$@" \
	    >"${T:-/tmp}/schema.out" 2>&1
	_rc=$?
	if [ $_rc -eq 2 ]; then
		skip "$_desc: python3-jsonschema is not installed"
		return 0
	fi
	[ $_rc -eq 0 ] || cat "${T:-/tmp}/schema.out"
	check "$_desc" $_rc
}

# run ARGS...: run bonnie-ng (after scratch), keeping its standard output in
# $T/out, its standard error in $T/err and its exit status in $status.
run() {
	"$BONNIE" "$@" >"$T/out" 2>"$T/err"
	status=$?
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# have TOOL: is TOOL on the PATH?
have() { command -v "$1" >/dev/null 2>&1; }

# need TOOL...: when one of the tools is missing, the whole test is one
# skip that names them all, and it ends there.
need() {
	for _t in "$@"; do
		have "$_t" && continue
		skip "needs $(echo "$*" | sed 's/ /, /g')"
		done_testing
		exit
	done
}
