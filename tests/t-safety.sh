#!/bin/sh
# End to end: the test file is never anyone else's file and never left
# behind.  It is created O_CREAT|O_EXCL|O_NOFOLLOW with mode 0600 (seen
# with strace, and with stat during a run under umask 0); a symlink or a
# hard link swapped in for it during a run never redirects a write; SIGINT, a second SIGINT
# SIGTERM and SIGHUP mid-run remove it and exit 128+N; on a full file system the
# run fails with one line (exit 1) and without --no-space-check it is
# refused up front (exit 2) naming both sizes.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
scratch

D=$T/d
mkdir "$D" || exit 1

# The victim: a file some other user cares about.
printf 'precious data\n' >"$T/victim"
chmod 644 "$T/victim"
victim_sum=$(cksum <"$T/victim")

victim_ok() {
	[ -f "$T/victim" ] && [ ! -L "$T/victim" ] &&
	    [ "$(cksum <"$T/victim")" = "$victim_sum" ] &&
	    [ "$(stat -c %a "$T/victim")" = 644 ]
}

# 1. How the file is opened, as the kernel sees it.
if ! command -v strace >/dev/null 2>&1; then
	skip "strace is not installed: open flags not checked"
	skip "strace is not installed"
	skip "strace is not installed"
	skip "strace is not installed"
elif ! strace -f -o /dev/null true 2>/dev/null; then
	skip "strace cannot trace here (ptrace not allowed)"
	skip "strace cannot trace here"
	skip "strace cannot trace here"
	skip "strace cannot trace here"
else
	# LeakSanitizer cannot run under ptrace: leaks are checked elsewhere.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f --seccomp-bpf -qq -e trace=open,openat,creat -o "$T/strace" \
	    "$BONNIE" -d "$D" -s 4 -c 4k -n 100 -q >"$T/out" 2>"$T/err"
	st=$?
	check "under strace: a tiny run exits 0" $st
	grep '"[^"]*bonnie-ng\.[0-9]' "$T/strace" >"$T/opens"
	diag "$(sed 's/^[0-9]* *//' "$T/opens" | sort | uniq -c)"
	ok "under strace: the file is created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600" \
	    awk '/O_CREAT/ { n++; if (!/O_EXCL/ || !/O_NOFOLLOW/ || !/, 0600\)/) bad = 1 }
		END { exit bad || n == 0 }' "$T/opens"
	ok "under strace: every open for writing has O_NOFOLLOW" \
	    awk '/O_WRONLY|O_RDWR/ && !/O_NOFOLLOW/ { bad = 1 } END { exit bad }' \
	    "$T/opens"
	# The name is bonnie-ng.<pid>.<random>, the pid that of the process.
	main_pid=$(awk 'NR == 1 { print $1 }' "$T/strace")
	ok "under strace: the name is bonnie-ng.<pid>.<something>" \
	    grep -q "bonnie-ng\\.$main_pid\\.[^\"/]" "$T/opens"
fi
ok "no test file left after the traced run" no_test_files "$D"

# 2. Someone swaps the test file for a link to the victim while the
#    benchmark runs (the directory is writable by them): a symlink, then a
#    hard link, which O_NOFOLLOW alone would not stop.  Whatever phase that
#    hits, nothing is written to the victim.  The same watcher records the
#    file's mode, under umask 0, before it swaps.
swap_run() {
	kind=$1 delay=$2
	rm -f "$T/mode" "$T/swapped"
	(
		end=$(( $(date +%s) + 20 ))
		while [ "$(date +%s)" -lt $end ]; do
			for f in "$D"/bonnie-ng.*; do
				[ -f "$f" ] && [ ! -L "$f" ] || continue
				stat -c %a "$f" >"$T/mode" 2>/dev/null
				sleep "$delay"
				if [ "$kind" = symlink ]; then
					rm -f "$f" && ln -s "$T/victim" "$f"
				else
					rm -f "$f" && ln "$T/victim" "$f"
				fi && : >"$T/swapped"
				exit 0
			done
		done
	) &
	watcher=$!
	(umask 0; exec "$BONNIE" -d "$D" -s 32 -c 64k -f -n 200 -S 2 -q) \
	    >"$T/out" 2>"$T/err"
	st=$?
	wait $watcher
	diag "with a $kind swapped in after $delay s: exit $st: $(cat "$T/err")"
	ok "swapped-in $kind: the victim is unchanged" victim_ok
	check "swapped-in $kind: exit 0 or 1 with one line on stderr (got $st)" \
	    "$( { [ $st -eq 0 ] || { [ $st -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; }; } &&
		echo 0 || echo 1)"
	if [ -e "$T/swapped" ]; then
		ok "$kind: the watcher did swap the file during the run" true
	else
		skip "$kind: the watcher did not catch the file in time"
	fi
	if [ -s "$T/mode" ]; then
		check "during a run under umask 0 the test file is mode 0600 (saw $(cat "$T/mode"))" \
		    "$([ "$(cat "$T/mode")" = 600 ] && echo 0 || echo 1)"
	else
		skip "the file was not seen during the run: mode not checked"
	fi
	# The test file is gone; the link we planted may or may not be.
	rm -f "$D"/bonnie-ng.*
}
swap_run symlink 0.05
swap_run symlink 0.25
swap_run hardlink 0.05
swap_run hardlink 0.25

# 2b. The same swap made certain: the run is held in the open(2) of a
#    phase's reopen (the preload sleeps there), stopped, the name swapped
#    for a hard link to the victim or a FIFO, and let go.  The reopen must
#    neither truncate the victim (O_TRUNC before the identity check) nor
#    block on the FIFO: exit 1 with one line saying the file was replaced.
#    Opens: 1 create, 2 putc, 3 write (both O_TRUNC), 4 rewrite, 5 getc;
#    with -f, 5 is each forked seeker's (it counts on from its parent).
. tests/fault/lib.sh
reopen_swap() {
	kind=$1 nth=$2 what=$3; shift 3
	rm -f "$T/fault.log"
	BN_FAULT=open:$nth:sleep=3000000 BN_FAULT_LOG=$T/fault.log \
	    LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" -d "$D" -s 4 -c 4k -n 20 -q \
	    "$@" >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
	if ! wait_for "$T/fault.log" "^fault .*kind=open" 20; then
		wait_exit $pid 30
		check "$what: the run reached open $nth" 1
		return
	fi
	kill -STOP $pid $(pgrep -P $pid)
	for f in "$D"/bonnie-ng.*; do
		rm -f "$f"
		if [ "$kind" = fifo ]; then mkfifo "$f"; else ln "$T/victim" "$f"; fi
	done
	kill -CONT $pid $(pgrep -P $pid)
	wait_exit $pid 30
	diag "$what: exit $st: $(cat "$T/err")"
	ok "$what: the victim is unchanged" victim_ok
	check "$what: exit 1 in time, not blocked (got $st)" \
	    "$([ $st -eq 1 ] && echo 0 || echo 1)"
	# With -j 2 each worker may name its own replaced file.  The test's
	# stop lasts milliseconds: no line may say a worker was held stopped
	# (the team once said so of a worker that had ended since).
	ok "$what: a line saying the file was replaced, every line about it" \
	    sh -c "grep -q 'the file was replaced' '$T/err' && ! grep -qv 'replaced' '$T/err'"
	rm -f "$D"/bonnie-ng.*
}
if [ -z "$INJECT" ]; then
	for i in 1 2 3 4 5 6; do skip "no preload library: reopen swaps not made"; done
else
	reopen_swap hardlink 3 "hard link before the block write's reopen (O_TRUNC)"
	reopen_swap hardlink 2 "hard link before the per-char write's reopen (O_TRUNC)"
	reopen_swap hardlink 3 "hard link before the block write's reopen, -j 2" -j 2
	reopen_swap fifo 3 "FIFO before the block write's reopen (O_WRONLY)"
	reopen_swap fifo 5 "FIFO before the per-char read's reopen (O_RDONLY)"
	reopen_swap fifo 5 "FIFO before a forked seeker's open" -f
fi

# 3. Symlinks planted up front under names the tool might choose.
for n in bonnie-ng bonnie-ng.0 bonnie-ng.1.x Bonnie.1 bonnie-ng.tmp; do
	ln -s "$T/victim" "$D/$n"
done
"$BONNIE" -d "$D" -s 4 -c 4k -n 100 -f -q >"$T/out" 2>"$T/err"
check "planted symlinks: the run exits 0" $?
ok "planted symlinks: the victim is unchanged" victim_ok
ok "planted symlinks: all five links still there" \
    sh -c "[ \$(find '$D' -type l | wc -l) -eq 5 ]"
rm -f "$D"/*

# 4. Signals mid-run: the file is removed and the exit status is 128+N.
#    A background job of a script starts with SIGINT ignored; give the
#    binary the default disposition, as a terminal user's would be.
start_bg() {
	if env --default-signal=INT true 2>/dev/null; then
		env --default-signal=INT,TERM,HUP "$BONNIE" "$@" \
		    >"$T/out" 2>"$T/err" &
	else
		(trap - INT; exec "$BONNIE" "$@") >"$T/out" 2>"$T/err" &
	fi
	pid=$!
}

# interrupt DESC STATUS SIGNAL...: start a big run, wait until its file
# exists and holds data, send the signals (50 ms apart), and check.
interrupt() {
	desc=$1 want=$2; shift 2
	start_bg -d "$D" -s 256 -c 4k -q
	i=0
	while no_test_files "$D" && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	seen=1; no_test_files "$D" && seen=0
	# Once the file holds data (the run is in its phases): an event, not
	# a time a loaded machine could outlast.
	i=0
	while [ -z "$(find "$D" -name 'bonnie-ng.*' -size +0 2>/dev/null)" ] &&
	    kill -0 $pid 2>/dev/null && [ $i -lt 1200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	for sig in "$@"; do
		kill -s "$sig" $pid 2>/dev/null
		sleep 0.05
	done
	# A watchdog: SIGKILL after 30 s; it ends by itself with the run.
	(
		i=0
		while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -s KILL $pid 2>/dev/null
	) &
	dog=$!
	wait $pid 2>/dev/null
	st=$?
	wait $dog
	check "$desc: the file existed before the signal" \
	    "$([ $seen -eq 1 ] && echo 0 || echo 1)"
	check "$desc: exit status $want (got $st)" \
	    "$([ $st -eq "$want" ] && echo 0 || echo 1)"
	[ $st -eq "$want" ] || diag "stderr: $(cat "$T/err")"
	ok "$desc: no test file left" no_test_files "$D"
}
interrupt "SIGINT mid-run" 130 INT
interrupt "two SIGINTs mid-run" 130 INT INT
interrupt "SIGTERM mid-run" 143 TERM
interrupt "SIGHUP mid-run" 129 HUP

# 5. A full file system (root only: a 16 MiB tmpfs).
if ! is_root; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		skip "not root: no tmpfs for the disk-full tests"
	done
elif ! { mkdir "$T/full" && mount -t tmpfs -o size=16m tmpfs "$T/full"; }; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		skip "cannot mount a tmpfs here"
	done
else
	T_MOUNTS="$T/full"
	F=$T/full
	"$BONNIE" -d "$F" -s 64 -c 4k -n 100 -q --no-space-check \
	    >"$T/out" 2>"$T/err"
	st=$?
	diag "disk full: exit $st: $(cat "$T/err")"
	check "disk full (per-char write): exit 1 (got $st)" \
	    "$([ $st -eq 1 ] && echo 0 || echo 1)"
	check "disk full: exactly one line on stderr" \
	    "$([ "$(wc -l <"$T/err")" -eq 1 ] && echo 0 || echo 1)"
	ok "disk full: the line says 'No space left on device'" \
	    grep -q 'No space left on device' "$T/err"
	ok "disk full: the line names the test file's path" \
	    grep -q "$F/bonnie-ng\\." "$T/err"
	ok "disk full: the line names the phase and a byte offset within 16 MiB" \
	    awk '/putc/ && match($0, /\(at [^)]*[0-9]+/) {
		    s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s)
		    if (s + 0 > 0 && s + 0 <= 16777216) found = 1 }
		END { exit !found }' "$T/err"
	ok "disk full: nothing left behind" sh -c "[ -z \"\$(ls -A '$F')\" ]"

	"$BONNIE" -d "$F" -s 64 -c 4k -n 100 -f -q --no-space-check \
	    >"$T/out" 2>"$T/err"
	st=$?
	check "disk full (block write, -f): exit 1 (got $st)" \
	    "$([ $st -eq 1 ] && echo 0 || echo 1)"
	ok "disk full (block write): names the phase and the error" \
	    sh -c "grep 'No space left on device' '$T/err' | grep -q write"
	ok "disk full (block write): nothing left behind" \
	    sh -c "[ -z \"\$(ls -A '$F')\" ]"

	"$BONNIE" -d "$F" -s 64 -c 4k -n 100 -q >"$T/out" 2>"$T/err"
	st=$?
	diag "no room: exit $st: $(cat "$T/err")"
	check "no room, checked up front: exit 2 (got $st)" \
	    "$([ $st -eq 2 ] && echo 0 || echo 1)"
	ok "no room: one line naming the file size and the free space" \
	    awk 'NR == 1 && /67108864|64(\.0)? ?[Mm]/ && /16777216|16(\.0)? ?[Mm]/ { ok = 1 }
		END { exit !(ok && NR == 1) }' "$T/err"
	ok "no room: nothing created" sh -c "[ -z \"\$(ls -A '$F')\" ]"
	scratch_umount "$F"
fi

ok "the victim is unchanged at the end" victim_ok
ok "no test file left in the scratch directory" no_test_files "$D"
done_testing
