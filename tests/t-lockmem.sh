#!/bin/sh
# --lock-mem: a helper process holds the memory locked for the run and is
# gone after it, however the run ends (the end, SIGINT, SIGKILL of the
# run); what cannot be locked is refused before any file is made; the
# record holds the memory figures and the effective RAM.
#
# The lock is checked in the helper's own VmLck (/proc/PID/status), never
# in the system-wide Mlocked, which other tests move.  The runs are kept
# busy by the preload library, so nothing depends on the disk's speed.
. tests/lib.sh
. tests/fault/lib.sh
scratch
chmod 755 "$T"

ARGS="-d $T -s 1m -c 4k --cache=keep --no-space-check"
LOCK_KB=65536

# helper_pid FILE: the helper's pid from the run's stderr line.
helper_pid() {
	sed -n 's/^bonnie-ng: --lock-mem: .* locked by process \([0-9]*\) for the run$/\1/p' "$1"
}

# vmlck PID: the process's locked memory in KiB, empty when it is gone.
vmlck() {
	sed -n 's/^VmLck:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$1/status" 2>/dev/null
}

# gone PID SECONDS: pass when the process is gone within SECONDS (a
# zombie counts as gone: it holds no memory).
gone() {
	_i=0
	while [ $_i -lt $(($2 * 20)) ]; do
		if [ ! -e "/proc/$1" ] ||
		    grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; then
			return 0
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# start SPEC [ARGS...]: the benchmark in the background, pid in $pid.
start() {
	_s=$1; shift
	rm -f "$T/err" "$T/out"
	BN_FAULT=$_s LD_PRELOAD=$INJECT "$BONNIE" -m "$TAG" $ARGS "$@" \
	    >"$T/out" 2>"$T/err" </dev/null &
	pid=$!
}

# --- Refused before any file is made (any user). ---
for v in junk 0 -5 avail-junk 64x 99999t; do
	bn "$T/o" "$T/e" $ARGS --lock-mem "$v"
	check "--lock-mem $v: exit 2 (got $st)" $([ $st -eq 2 ]; echo $?)
	check "--lock-mem $v: one line naming the option" \
	    $(one_line "$T/e" && grep -q -- "--lock-mem" "$T/e"; echo $?)
done
check "refused values: no test file" $(no_test_files "$T"; echo $?)
# The portable build knows no available memory (Linux's MemAvailable):
# an avail- size is refused as unknown there.
stay="at least 256 MiB must stay"
portable && stay="the memory available is unknown on this system"
bn "$T/o" "$T/e" $ARGS --lock-mem avail-100m
check "avail-100m: exit 2, under 256 MiB left or unknown (got $st)" \
    $([ $st -eq 2 ] && grep -q "$stay" "$T/e"; echo $?)
diag "$(cat "$T/e")"
bn "$T/o" "$T/e" $ARGS --lock-mem 99999g
check "99999g: exit 2, more than there is (got $st)" \
    $([ $st -eq 2 ] && grep -q "would leave 0 MiB" "$T/e"; echo $?)
"$BONNIE" sweep -m "$TAG" -d "$T" --lock-mem avail-1m --sizes 1m..2m \
    --chunks 4k >"$T/o" 2>"$T/e" </dev/null
st=$?
check "sweep --lock-mem avail-1m: exit 2 (got $st)" \
    $([ $st -eq 2 ] && grep -q "$stay" "$T/e"; echo $?)
check "refused locks: no test file, no process" \
    $(no_test_files "$T" && no_procs; echo $?)

if ! is_root; then
	skip "not root: mlock of 64 MiB needs CAP_IPC_LOCK or a raised ulimit -l"
	done_testing; exit
fi
need_inject

# --- RLIMIT_MEMLOCK without the privilege to pass it: exit 2. ---
if have setpriv && setpriv --bounding-set=-ipc_lock true 2>/dev/null; then
	setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock sh -c \
	    'ulimit -l 1024 && exec "$@"' sh "$BONNIE" -m "$TAG" $ARGS \
	    --lock-mem 64m >"$T/o" 2>"$T/e" </dev/null
	st=$?
	check "over RLIMIT_MEMLOCK without CAP_IPC_LOCK: exit 2 (got $st)" \
	    $([ $st -eq 2 ]; echo $?)
	check "the line names the limit" \
	    $(one_line "$T/e" && grep -q "RLIMIT_MEMLOCK is 1024 KiB" "$T/e"; echo $?)
	diag "$(cat "$T/e")"
	check "refused lock: no test file, no process" \
	    $(no_test_files "$T" && no_procs; echo $?)
else
	skip "setpriv cannot drop CAP_IPC_LOCK here"
fi

# --- A whole run: 64 MiB in the helper's VmLck, gone after.  The writes
# wait until the lock has been looked at ($T/go). ---
rm -f "$T/go"
start "write:1+:wait=$T/go" -p write --lock-mem 64m --json "$T/r.json"
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
lk=$( [ -n "$h" ] && vmlck "$h")
check "the helper's VmLck is 64 MiB during the run (got ${lk:-none})" \
    $([ "${lk:-0}" -eq $LOCK_KB ]; echo $?)
pp=$( [ -n "$h" ] && sed -n 's/^PPid:[[:space:]]*//p' "/proc/$h/status" 2>/dev/null)
check "the helper is the run's child" $([ "${pp:-0}" = "$pid" ]; echo $?)
: >"$T/go"
wait_exit "$pid" 20
check "the run exits 0 (got $st)" $([ $st -eq 0 ]; echo $?)
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
check "the helper is gone when the run has ended" \
    $([ -n "$h" ] && [ ! -e "/proc/$h" ]; echo $?)
if have jq && [ -s "$T/r.json" ]; then
	check "record: 64 MiB locked and held" $(jq -e '.memory.locked_bytes ==
	    67108864 and .memory.lock_held == true and .options.lock_mem ==
	    "64m"' "$T/r.json" >/dev/null; echo $?)
	check "record: the effective RAM is the smaller bound less the lock" \
	    $(jq -e '([.system.ram_bytes, (.memory.cgroup_limit_bytes //
	    .system.ram_bytes)] | min) - 67108864 == .options.ram_bytes and
	    .memory.ram_source == "lock"' "$T/r.json" >/dev/null; echo $?)
	check "record: the memory available before the run" \
	    $(jq -e '.memory.available_bytes > 0' "$T/r.json" >/dev/null; echo $?)
else
	skip "jq missing"
	skip "jq missing"
	skip "jq missing"
fi

# --- An I/O error: the run fails, the helper is gone when it has ended. ---
start write:1+:sleep=4000,fsync:1:EIO -p write --lock-mem 64m
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
wait_exit "$pid" 20
check "I/O error: exit 1 (got $st)" $([ $st -eq 1 ]; echo $?)
check "I/O error: the helper is gone when the run has ended" \
    $([ -n "$h" ] && [ ! -e "/proc/$h" ]; echo $?)

# --- SIGINT: the run ends the helper before it exits. ---
rm -f "$T/go"
start "write:1+:wait=$T/go" -p write --lock-mem 64m
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
lk=$( [ -n "$h" ] && vmlck "$h")
check "SIGINT: the helper holds 64 MiB first (got ${lk:-none})" \
    $([ "${lk:-0}" -eq $LOCK_KB ]; echo $?)
kill -INT "$pid"
# A SIGINT that lands just before a write starts its wait cuts no wait
# short: the writes go on once the signal is sent, and the run stops at
# its next stop check either way.
touch "$T/go"
wait_exit "$pid" 15
rm -f "$T/go"
check "SIGINT: exit 130 (got $st)" $([ $st -eq 130 ]; echo $?)
check "SIGINT: the helper is gone when the run has ended" \
    $([ -n "$h" ] && [ ! -e "/proc/$h" ]; echo $?)
check "SIGINT: no test file, no process" \
    $(no_test_files "$T" && no_procs; echo $?)

# --- SIGKILL of the run: the helper dies with it. ---
start "write:1+:wait=$T/go" -p write --lock-mem 64m
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
lk=$( [ -n "$h" ] && vmlck "$h")
check "SIGKILL: the helper holds 64 MiB first (got ${lk:-none})" \
    $([ "${lk:-0}" -eq $LOCK_KB ]; echo $?)
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the helper is gone within 5 s" \
    $([ -n "$h" ] && gone "$h" 5; echo $?)
check "SIGKILL: no process of the run left" $(no_procs; echo $?)
# A killed run cannot remove its file; that is not this test's matter.
find "$T" -name 'bonnie-ng.*' -exec rm -f {} +

# --- The helper killed during the run: said, and the record says so.
# The writes wait until the helper is dead ($T/go). ---
start "write:1+:wait=$T/go" -p write --lock-mem 64m --json "$T/k.json"
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
[ -n "$h" ] && kill -KILL "$h" && gone "$h" 10
: >"$T/go"
wait_exit "$pid" 20
rm -f "$T/go"
check "helper killed: the run still ends 0 (got $st)" $([ $st -eq 0 ]; echo $?)
check "helper killed: said on stderr" \
    $(grep -q "helper (process $h) was killed by signal 9" "$T/err"; echo $?)
if have jq && [ -s "$T/k.json" ]; then
	check "helper killed: the record's lock_held is false" \
	    $(jq -e '.memory.lock_held == false' "$T/k.json" >/dev/null; echo $?)
else
	skip "jq missing"
fi

# --- The helper stopped (SIGSTOP) during the run: the run still ends,
# within a bound, says so and kills it (issue 26; it once waited forever
# after the report). ---
for j in 1 2; do
	start write:1+:sleep=8000 -p write -j $j --lock-mem 64m
	wait_for "$T/err" "Writing intelligently" 10
	h=$(helper_pid "$T/err")
	[ -n "$h" ] && kill -STOP "$h"
	wait_exit "$pid" 30
	check "helper stopped, -j $j: the run ends 0 in time (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	check "helper stopped, -j $j: said on stderr" \
	    $(grep -q "the --lock-mem helper (process $h) was stopped by SIGSTOP; killed" \
		"$T/err"; echo $?)
	check "helper stopped, -j $j: the helper is gone" \
	    $([ -n "$h" ] && gone "$h" 5; echo $?)
	[ -n "$h" ] && kill -KILL "$h" 2>/dev/null
done

# --- The same with -j 2: the workers' leader reaps its workers only, so
# the helper's end is still seen (a waitpid(-1) there once hid it). ---
start "write:1+:wait=$T/go" -p write -j 2 --lock-mem 64m --json "$T/kj.json"
wait_for "$T/err" "Writing intelligently" 10
h=$(helper_pid "$T/err")
[ -n "$h" ] && kill -KILL "$h" && gone "$h" 10
: >"$T/go"
wait_exit "$pid" 30
rm -f "$T/go"
check "helper killed, -j 2: the run still ends 0 (got $st)" \
    $([ $st -eq 0 ]; echo $?)
check "helper killed, -j 2: said on stderr" \
    $(grep -q "helper (process $h) was killed by signal 9" "$T/err"; echo $?)
if have jq && [ -s "$T/kj.json" ]; then
	check "helper killed, -j 2: the record's lock_held is false" \
	    $(jq -e '.memory.lock_held == false' "$T/kj.json" >/dev/null; echo $?)
else
	skip "jq missing"
fi
check "helper killed, -j 2: no test file, no process" \
    $(no_test_files "$T" && no_procs; echo $?)

# --- A cgroup's memory limit: recorded, and the effective RAM. ---
cg=
mem=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}memory\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' /proc/self/cgroup)
mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
if [ -n "$mem" ] && [ -n "$mnt" ] && mkdir "$mnt$mem/bn-lockmem-$$" 2>/dev/null; then
	cg=$mnt$mem/bn-lockmem-$$
	echo 512M >"$cg/memory.limit_in_bytes"
fi
if [ -n "$cg" ] && have jq; then
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	    "$BONNIE" -m "$TAG" $ARGS -p write -q --json "$T/c.json" \
	    >"$T/o" 2>"$T/e" </dev/null
	st=$?
	check "in a 512 MiB cgroup: exit 0 (got $st)" $([ $st -eq 0 ]; echo $?)
	check "record: the cgroup's limit, and the RAM assumed is it" \
	    $(jq -e '.memory.cgroup_limit_bytes == 536870912 and
	    .options.ram_bytes == 536870912 and .memory.ram_source == "cgroup"' \
	    "$T/c.json" >/dev/null; echo $?)
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	    "$BONNIE" -m "$TAG" $ARGS -p write --lock-mem 300m \
	    >"$T/o" 2>"$T/e" </dev/null
	st=$?
	check "in a 512 MiB cgroup, --lock-mem 300m: exit 2 (got $st)" \
	    $([ $st -eq 2 ] && grep -Eq "the cgroup (allows|leaves)" "$T/e"; echo $?)
	diag "$(cat "$T/e")"
	# avail-SIZE counts from what the cgroup leaves (512 MiB less its
	# usage), not from the host's available memory (which would leave
	# the cgroup nothing, and be refused).
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	    "$BONNIE" -m "$TAG" $ARGS -p write --lock-mem avail-300m -q \
	    --json "$T/a.json" >"$T/o" 2>"$T/e" </dev/null
	st=$?
	[ $st -eq 0 ] || diag "$(cat "$T/e")"
	check "in a 512 MiB cgroup, --lock-mem avail-300m: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	check "avail-300m: the lock is the cgroup's headroom less 300 MiB" \
	    $(jq -e '.memory.locked_bytes > 100 * 1048576 and
	    .memory.locked_bytes <= 212 * 1048576' "$T/a.json" >/dev/null; echo $?)
	# A sweep's default top: twice the effective RAM, 512 - 200 MiB.
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	    "$BONNIE" sweep -m "$TAG" -d "$T" -q -p write --chunks 64k \
	    --lock-mem 200m --max-time 1 --json "$T/s.json" \
	    >"$T/o" 2>"$T/e" </dev/null
	st=$?
	check "sweep in the cgroup with a lock: exit 0 (got $st)" \
	    $([ $st -eq 0 ]; echo $?)
	[ $st -eq 0 ] || sed 's/^/#   /' "$T/e"
	check "sweep: the default top is twice RAM less the lock (512 MiB)" \
	    $(jq -e '.sweep.sizes[-1] == 536870912 and .options.ram_bytes ==
	    327155712 and .memory.locked_bytes == 209715200 and
	    .memory.lock_held == true' "$T/s.json" >/dev/null; echo $?)
	rmdir "$cg" 2>/dev/null
else
	skip "no cgroup v1 memory controller to make a child in, or jq missing"
fi
check "no test file, no process at the end" \
    $(no_test_files "$T" && no_procs; echo $?)
done_testing
