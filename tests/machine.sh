# The machine-wide settings the tests change, and how they change them.
# Sourced by tests/lib.sh (machine_set, machine_restore) and tests/run.sh
# (machine_snapshot, machine_leftovers).
#
# A test that changes a setting every process on the machine sees (a
# sysctl, a module parameter) does it through machine_set, never by
# writing the file itself (tests/t-machine.sh fails on such a write):
#
#	machine_set /proc/sys/fs/protected_symlinks 0 || skip ...
#	...
#	machine_restore
#
# machine_set starts a guard (tests/machine-guard.sh): a process that
# takes the machine's lock (exclusive, so that no other test, of this
# runner or another one on the machine, changes or reads the setting
# meanwhile), saves the value, writes the new one, and then waits on a
# FIFO whose only writer is the test (and the processes it starts).
# When the last writer is gone (the test's machine_restore, its exit, a
# signal, even SIGKILL) the guard writes the saved value back, then lets
# the lock go.  It runs in a session of its own, out of reach of what is
# sent to the test's group (a terminal's signals, timeout(1)'s, a SIGKILL
# to the whole group), and ignores the stop signals besides.
# tests/run.sh takes the same lock to read every setting of the list
# before and after the tests, and fails when one differs.

# The settings a test may change: the snapshot reads each of them.
MACHINE_SETTINGS="/proc/sys/fs/protected_symlinks
/proc/sys/fs/protected_hardlinks
/proc/sys/fs/protected_regular
/proc/sys/fs/protected_fifos
/sys/module/page_reporting/parameters/page_reporting_order
/sys/module/haltpoll/parameters/guest_halt_poll_ns
/proc/sys/vm/dirty_bytes
/proc/sys/vm/dirty_ratio
${BN_MACHINE_EXTRA:-}"
# t-machine's own runs, under a lock of their own, read only their knob:
# the machine's settings may change under them (another runner's test
# holds the machine's lock, not theirs), as fs.protected_symlinks did
# once in CI.
[ "${BN_MACHINE_EXTRA_ONLY:-}" = 1 ] && MACHINE_SETTINGS=$BN_MACHINE_EXTRA
# One lock for the machine, in /tmp whatever TMPDIR says (tests/run.sh
# gives each runner a TMPDIR of its own).
MACHINE_LOCK=${BONNIE_NG_MACHINE_LOCK:-/tmp/bonnie-ng-machine.lock}
# The guard's write end: fd 7 (tests/run.sh gives a test neither 3 nor 0).
machine_guard=

# machine_set PATH VALUE: PATH (one of MACHINE_SETTINGS) holds VALUE until
# machine_restore or the end of the test; fails, saying why on stderr,
# when the lock cannot be had within 10 minutes or the value is refused.
machine_set() {
	if [ -n "$machine_guard" ]; then
		echo "machine_set: $machine_path is still set" >&2
		return 1
	fi
	case "
$MACHINE_SETTINGS
" in
	*"
$1
"*)	;;
	*)	echo "machine_set: $1 is not in tests/machine.sh's MACHINE_SETTINGS" >&2
		return 1 ;;
	esac
	command -v flock >/dev/null 2>&1 || {
		echo "machine_set: no flock(1)" >&2; return 1; }
	command -v setsid >/dev/null 2>&1 || {
		echo "machine_set: no setsid(1)" >&2; return 1; }
	_mf=$(mktemp -u "${TMPDIR:-/tmp}/bonnie-ng-guard.XXXXXX") &&
	    mkfifo "$_mf" "$_mf.ready" || return 1
	# The guard (tests/machine-guard.sh) in a session of its own
	# (setsid), so that a SIGKILL to the test's whole group (timeout -k,
	# a runner killing its jobs) does not take it before it has put the
	# value back.
	setsid -w sh "${BN_TOP:-.}/tests/machine-guard.sh" "$1" "$2" "$_mf" \
	    "$MACHINE_LOCK" </dev/null >/dev/null 2>&1 &
	machine_pid=$!
	exec 7>"$_mf"
	read -r _r <"$_mf.ready"
	case $_r in
	ok\ *)	machine_guard=$_mf machine_path=$1 machine_was=${_r#ok }
		return 0 ;;
	esac
	exec 7>&-
	wait $machine_pid
	rm -f "$_mf" "$_mf.ready"
	echo "machine_set: ${_r:-the guard ended}" >&2
	return 1
}

# machine_restore: the setting back to its value (the guard has written
# it when this returns), the lock let go.
machine_restore() {
	[ -n "$machine_guard" ] || return 0
	exec 7>&-
	wait $machine_pid
	machine_guard=
}

# machine_snapshot: every setting of the list, one "PATH VALUE" line each
# (a missing one as "PATH -"), read under the machine's lock.
machine_snapshot() {
	(
		exec 9>>"$MACHINE_LOCK"
		command -v flock >/dev/null 2>&1 && flock -w 600 -s 9
		for _p in $MACHINE_SETTINGS; do
			_v=$(cat "$_p" 2>/dev/null) || _v=-
			echo "$_p $_v"
		done
	)
}

# machine_leftovers DIR: the loop devices, mounts and swap areas whose file
# or directory lies under DIR (a runner's own), one line each; and undo
# each of them, so that the next run starts clean.  A mount another
# process holds is detached lazily (umount -l, as tests/lib.sh's
# scratch_umount does).  A loop device already detached (autoclear) whose
# file system is no longer mounted here is one a holder keeps (a lazily
# unmounted file system on it that stress-ng's io stressor, say, still
# has open): the kernel frees it when that holder lets go; its line
# starts "held: ", and is no leftover of the tests.
machine_leftovers() {
	if command -v losetup >/dev/null 2>&1; then
		losetup -nO NAME,AUTOCLEAR,BACK-FILE 2>/dev/null |
		while read -r _d _a _f; do
			case $_f in "$1"/*) ;; *) continue ;; esac
			if [ "$_a" = 1 ] && ! awk -v d="$_d" '$1 == d { f = 1 }
			    END { exit !f }' /proc/self/mounts; then
				echo "held: loop device $_d of $_f (detached: goes when its holder lets go)"
				continue
			fi
			echo "loop device $_d of $_f"
			losetup -d "$_d" 2>/dev/null
		done
	fi
	awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts \
	    2>/dev/null | sort -r | while read -r _m; do
		echo "mount on $_m"
		umount "$_m" 2>/dev/null || umount -l "$_m" 2>/dev/null
	done
	awk -v d="$1/" 'NR > 1 && index($1, d) == 1 { print $1 }' /proc/swaps \
	    2>/dev/null | while read -r _s; do
		echo "swap on $_s"
		swapoff "$_s" 2>/dev/null
	done
}
