#!/bin/sh
# The suite leaves the machine as it found it (issue 43): every write of a
# machine-wide setting goes through tests/machine.sh's machine_set, which
# holds the machine's lock and puts the value back on every way out (the
# test's exit, SIGTERM, SIGINT to its group, SIGKILL); tests/run.sh fails
# when a setting differs after the tests, or a loop device, mount or swap
# area of theirs is left.  The settings here are files in the scratch
# directory, named in MACHINE_SETTINGS through BN_MACHINE_EXTRA, under a
# lock of their own.
. tests/lib.sh
. tests/fault/lib.sh
scratch

# 1. No test writes a setting of the machine itself: a redirection to
# /proc/sys or /sys/module, or to a variable set to one.
awk '
FNR == 1 { delete v }
/^[ \t]*#/ { next }
match($0, /[A-Za-z_][A-Za-z0-9_]*=["]?\/(proc\/sys|sys\/module)\//) {
	n = substr($0, RSTART, RLENGTH); sub(/=.*/, "", n); v[n] = 1
}
{
	line = $0
	while (match(line, />[ \t]*["]?(\/proc\/sys\/|\/sys\/module\/|\$[{]?[A-Za-z_][A-Za-z0-9_]*)/)) {
		t = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		sub(/^>[ \t]*["]?/, "", t)
		if (t ~ /^\// || ((n = t) && sub(/^\$[{]?/, "", n) && (n in v)))
			print FILENAME ":" FNR ": " $0
	}
}' tests/t-*.sh >"$T/writes"
check "no test writes /proc/sys or /sys/module but through machine_set" \
    $([ ! -s "$T/writes" ]; echo $?) || cat "$T/writes"

BN_MACHINE_EXTRA=$T/knob
BONNIE_NG_MACHINE_LOCK=$T/lock
# Under a lock of this test's own, only the knob is read (tests/machine.sh).
BN_MACHINE_EXTRA_ONLY=1
export BN_MACHINE_EXTRA BONNIE_NG_MACHINE_LOCK BN_MACHINE_EXTRA_ONLY
# holder.sh HOW: a test shell that sets the knob to 1, says so in $T/h.set,
# then ends HOW: "exit" (no machine_restore), "restore", or waits to be
# killed.
cat >"$T/holder.sh" <<'EOF'
. "$BN_TOP/tests/lib.sh"
machine_set "$BN_MACHINE_EXTRA" 1 || exit 9
echo set >"$T/h.set"
case $1 in
exit)	exit 0 ;;
restore) machine_restore; exit 0 ;;
esac
read -r _ <"$T/h.never"
EOF
export BN_TOP T
# gone: the guard has ended (its FIFOs are removed once the value is
# back), within 10 s.
gone() {
	_i=0
	while [ $_i -lt 200 ]; do
		ls "$T"/tmp/bonnie-ng-guard.* >/dev/null 2>&1 || return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}
mkdir "$T/tmp"
TMPDIR=$T/tmp
export TMPDIR
mkfifo "$T/h.never"

# 2. Every way out puts the value back.
for how in exit restore TERM INT HUP KILL group-KILL; do
	echo 0 >"$T/knob"
	rm -f "$T/h.set"
	case $how in
	exit|restore)
		sh "$T/holder.sh" $how
		st=$? ;;
	*)	# A group of its own (setsid: $! is its leader), and every
		# signal at its default: SIGINT is ignored in a background
		# job, and under nohup SIGHUP too, which a shell cannot undo
		# (its trap is refused), so the HUP case waited for ever.
		setsid env --default-signal sh "$T/holder.sh" wait \
		    2>/dev/null &
		pid=$!
		wait_for "$T/h.set" set 10
		# To the whole group, as a terminal or timeout(1) sends it
		# (the guard has a session of its own); SIGKILL to the test
		# alone, and to its whole group, as timeout -k sends it.
		case $how in
		KILL)	kill -KILL $pid ;;
		group-KILL) kill -KILL -$pid ;;
		*)	kill -$how -$pid ;;
		esac
		wait $pid 2>/dev/null
		st=0 ;;
	esac
	gone
	check "a test that ends by $how ($st): the setting was changed, and is back" \
	    $([ "$(cat "$T/h.set" 2>/dev/null)" = set ] &&
		[ "$(cat "$T/knob")" = 0 ]; echo $?)
done

# 3. Two tests: the second waits for the first's lock, so it saves the
# value the first put back, never the first's own.
echo 0 >"$T/knob"
rm -f "$T/h.set"
sh "$T/holder.sh" wait &
a=$!
wait_for "$T/h.set" set 10
BN_TOP=$BN_TOP sh -c '
	. "$BN_TOP/tests/lib.sh"
	machine_set "$BN_MACHINE_EXTRA" 2 || exit 9
	echo "$machine_was" >"$1.was"
	machine_restore' sh "$T/b" &
b=$!
kill -TERM $a
wait $a 2>/dev/null
wait $b
gone
check "a second test saves the value the first put back, and restores it" \
    $([ "$(cat "$T/b.was")" = 0 ] && [ "$(cat "$T/knob")" = 0 ]; echo $?)

# 4. machine_set refuses a setting not in the list, and says so.
(machine_set "$T/other" 1) 2>"$T/err"
check "a setting not in MACHINE_SETTINGS is refused" \
    $([ $? -ne 0 ] && grep -q "not in tests/machine.sh" "$T/err"; echo $?)

# 5. tests/run.sh fails when a test leaves a setting changed, names it,
# and passes the same test when it changes it through machine_set and is
# killed by SIGKILL.
mkdir -p "$T/tree/tests"
cp tests/run.sh tests/lib.sh tests/machine.sh tests/machine-guard.sh "$T/tree/tests/"
cat >"$T/tree/tests/t-leave.sh" <<'EOF'
. tests/lib.sh
echo 1 >"$BN_MACHINE_EXTRA"
ok "left" true
done_testing
EOF
echo 0 >"$T/knob"
(cd "$T/tree" && sh tests/run.sh -j 1 . t-leave) >"$T/run.out" 2>&1
st=$?
check "run.sh: a setting left changed fails the run, named ($st)" \
    $([ $st -ne 0 ] && grep -q "^#   > .*knob 1" "$T/run.out"; echo $?) ||
    cat "$T/run.out"
cat >"$T/tree/tests/t-kill.sh" <<'EOF'
. tests/lib.sh
machine_set "$BN_MACHINE_EXTRA" 1 || exit 9
ok "set" true
kill -KILL $$
EOF
echo 0 >"$T/knob"
(cd "$T/tree" && sh tests/run.sh -j 1 . t-kill) >"$T/run.out" 2>&1
gone
check "run.sh: a test killed by SIGKILL while it holds a setting: the setting is back" \
    $([ "$(cat "$T/knob")" = 0 ] &&
	! grep -q "changed the machine" "$T/run.out"; echo $?) || cat "$T/run.out"
# A mount left by a test (root): named, undone, the run fails.
if is_root && ! portable; then
	cat >"$T/tree/tests/t-mount.sh" <<'EOF'
. tests/lib.sh
mkdir "$TMPDIR/m" && mount -t tmpfs -o size=1m none "$TMPDIR/m"
ok "mounted" true
done_testing
EOF
	(cd "$T/tree" && sh tests/run.sh -j 1 . t-mount) >"$T/run.out" 2>&1
	st=$?
	check "run.sh: a mount left by a test fails the run, named and undone ($st)" \
	    $([ $st -ne 0 ] && grep -q "left: mount on .*/m$" "$T/run.out" &&
		! grep -q " $T/tree" /proc/self/mounts &&
		m=$(sed -n 's/^#   left: mount on //p' "$T/run.out") && [ -n "$m" ] &&
		! awk '{print $2}' /proc/self/mounts | grep -qxF "$m";
		echo $?) || cat "$T/run.out"
else
	skip "a mount left by a test: needs root and Linux"
fi

# 6. Mounts another process holds when the test ends (stress-ng's io
# stressor opens every mount point there is when it starts, and keeps them
# open): the test's teardown (tests/lib.sh's cleanup_scratch) detaches
# them lazily, the loop device under one with them; the run passes and
# says which loop device a holder keeps, and the kernel frees that one
# when the holder lets go.
if is_root && ! portable && have mkfs.ext4 && have losetup; then
	cat >"$T/tree/tests/t-held.sh" <<'EOF'
. tests/lib.sh
scratch
# hold DIR: a process whose working directory is DIR, once it is there.
hold() {
	(cd "$1" && exec sleep 300) </dev/null >/dev/null 2>&1 &
	echo $! >>"$HELD.pids"
	_d=$(cd "$1" && pwd -P)
	_i=0
	until [ "$(readlink "/proc/$!/cwd")" = "$_d" ]; do
		[ $_i -lt 200 ] || return 1
		sleep 0.05
		_i=$((_i + 1))
	done
}
truncate -s 16m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 &&
    L=$(losetup -f --show "$T/img") && T_LOOPS=$L &&
    echo "$L $T/img" >"$HELD.loop" && mkdir "$T/e" "$T/m" &&
    mount "$L" "$T/e" && T_MOUNTS="$T/e" &&
    mount -t tmpfs -o size=1m none "$T/m" && T_MOUNTS="$T_MOUNTS $T/m" &&
    hold "$T/e" && hold "$T/m"
check "an ext4 on a loop device and a tmpfs, mounted and held" $?
done_testing
EOF
	HELD=$T/held
	export HELD
	# The holders go on every way out of this test too.
	trap 'kill $(cat "$HELD.pids" 2>/dev/null) 2>/dev/null; cleanup_scratch' EXIT
	(cd "$T/tree" && sh tests/run.sh -j 1 . t-held) >"$T/run.out" 2>&1
	st=$?
	read -r L img <"$HELD.loop"
	check "run.sh: held mounts detached lazily, the loop device under one said held, the run passes ($st)" \
	    $([ $st -eq 0 ] && [ "$(grep -c 'busy, detached lazily' "$T/run.out")" = 2 ] &&
		grep -q "^# held: loop device $L of " "$T/run.out" &&
		! grep -q "left: " "$T/run.out" &&
		! awk '{print $2}' /proc/self/mounts | grep -qF "${img%/img}/";
		echo $?) || cat "$T/run.out"
	# shellcheck disable=SC2046
	kill $(cat "$HELD.pids")
	i=0
	while losetup -nO BACK-FILE "$L" 2>/dev/null | grep -qF "$img" &&
	    [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	check "the held loop device is gone once its holder is" \
	    $(! losetup -nO BACK-FILE "$L" 2>/dev/null | grep -qF "$img"; echo $?)
else
	skip "held mounts: needs root, Linux, mkfs.ext4 and losetup"
	skip "the held loop device: needs root, Linux, mkfs.ext4 and losetup"
fi
done_testing
