#!/bin/sh
# Whose each figure is, made to happen for real and checked against a
# meter bonnie-ng does not read: the timeline's sampler left out of the
# run's counters (10 ms against 0); the run's own cgroup made and removed;
# a memory hog swapping in a cgroup of its own (its memory.stat, the
# machine's /proc/vmstat) while the run's own processes did not wait;
# dirty throttling with vm.dirty_bytes at 2 MiB (perf's count of the
# kernel's writeback:balance_dirty_pages events for the run); --iodepth 32
# on a fresh ext4 file (/proc/diskstats' time in queue); a --device chunk
# sweep on a loop device (/proc/diskstats' sectors read) paying the
# read-modify-write at every repeat, its cliff named; a sync mount, whose
# explanation no machine figure leads.
# run.sh: alone: it sets vm.dirty_bytes, turns a swap file on and runs a
# memory hog, all machine-wide.
# run.sh: suites: plain: alone; the run's cgroup, the sampler, the notes
#   are Linux's (/proc, cgroups)
. tests/lib.sh
scratch

need jq
mkdir "$T/d"

# 1. The timeline's sampler is not the run: at 10 ms it wakes once a
# sample, which would be one voluntary switch each; the run's own count
# does not grow by them.  Reading a cached 128 MiB file 512 bytes at a
# time sleeps nowhere, so the run's own switches are few either way.
"$BONNIE" -d "$T/d" -s 128m -c 512 -p write,read --cache=keep -q \
    --interval 0 --json "$T/i0.json" >/dev/null 2>&1 &&
"$BONNIE" -d "$T/d" -s 128m -c 512 -p write,read --cache=keep -q \
    --interval 10ms --json "$T/i10.json" >/dev/null 2>&1
check "timeline at 0 and at 10 ms: both runs" $?
R='.runs[0].phases.read.kernel'
n=$(jq "$R.timeline.samples | length" "$T/i10.json")
jq -e --slurpfile z "$T/i0.json" --argjson n "$n" "
    ($R.process.nvcsw) as \$ten | (\$z[0] | $R.process.nvcsw) as \$zero |
    \$n >= 4 and \$ten < \$zero + \$n / 2 + 8" "$T/i10.json" >/dev/null
check "the sampler's switches are not the run's: nvcsw at 10 ms within half its $n samples of at 0" $?
diag "nvcsw at 0: $(jq "$R.process.nvcsw" "$T/i0.json"), at 10 ms: $(jq "$R.process.nvcsw" "$T/i10.json") with $n samples"
# The meter: strace's count of the sampler's own sleeps (a poll(2) a
# sample, in the process forked for the read phase: the last of them), a
# voluntary switch each; the run's read phase holds none of them.
if command -v strace >/dev/null 2>&1 && strace --seccomp-bpf -qq -e \
    trace=poll -o /dev/null true 2>/dev/null; then
	# A read phase of 50 samples at least, for an effect far larger than
	# the phase's own switches (2 to 18 here): 128 MiB from the page
	# cache took 180 ms on one machine here, so 512 MiB when it is shorter.
	for size in 128m 512m; do
		strace -f --seccomp-bpf -qq -e trace=poll,ppoll -o "$T/sp" \
		    env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		    "$BONNIE" -d "$T/d" -s $size -c 512 -p write,read \
		    --cache=keep -q --interval 10ms --json "$T/sp.json" \
		    >/dev/null 2>&1
		# The samplers poll every 10 ms; the read phase's is the last.
		polls=$(awk '{ if (!($1 in n)) o[k++] = $1; n[$1]++ } END {
		    for (i = k - 1; i >= 0; i--) if (n[o[i]] >= 5) {
		    print n[o[i]]; exit } print 0 }' "$T/sp")
		[ "$polls" -ge 50 ] && break
	done
	nv=$(jq "$R.process.nvcsw" "$T/sp.json")
	[ "$polls" -ge 50 ] && [ "$nv" -lt "$((polls / 2))" ]
	check "strace: the read phase's sampler slept $polls times; the run's read phase has $nv voluntary switches" $?
else
	skip "the sampler's sleeps: strace with --seccomp-bpf is needed"
fi
jq -e "$R | .scopes == {process: \"run\", cgroup: (if .cgroup.own then
    \"run\" else \"machine\" end), disk: \"device\", vmstat: \"machine\",
    dirty: \"machine\", pressure: \"machine\"}" "$T/i10.json" >/dev/null
check "the record says whose each group of figures is" $?
schema_ok "the record with its scopes matches doc/schema.json" "$T/i10.json"

# 2. The run's own cgroup: made for the run (its pid in the name), its
# pressure files read where cgroup v2 is mounted, gone after the run.
if is_root && [ -r /proc/self/cgroup ]; then
	jq -e "$R.cgroup.own == true and
	    ((.runs[0].phases.read.kernel.cgroup.path // \"\") +
	     (.runs[0].phases.read.kernel.cgroup.pressure_path // \"\") |
	     test(\"/bonnie-ng[.][0-9]+\"))" "$T/i10.json" >/dev/null
	check "the run's own cgroup: bonnie-ng.PID, own" $?
	if grep -q ' cgroup2 ' /proc/mounts; then
		jq -e "$R.cgroup.pressure.memory.some_pct >= 0" "$T/i10.json" \
		    >/dev/null
		check "cgroup v2 mounted: the run's own memory pressure is read" $?
	else
		skip "no cgroup2 mount: the run's pressure is not known"
	fi
	"$BONNIE" -d "$T/d" -s 8m -p write,read -q >/dev/null 2>&1 &
	rp=$!
	wait "$rp"
	left=$(find /sys/fs/cgroup -maxdepth 6 -name "bonnie-ng.$rp" -type d \
	    2>/dev/null | tr '\n' ' ')
	[ -z "$left" ]
	check "the run's cgroups are gone when it ends ($left)" $?
	# SIGKILL leaves the cgroup (nothing runs to remove it); the next
	# run removes a dead run's.
	mkdir "$T/k"
	"$BONNIE" -d "$T/k" -s 256m -c 512 -p write,read --cache keep -q \
	    >/dev/null 2>&1 &
	kp=$!
	i=0
	while [ $i -lt 200 ] && [ -z "$(find /sys/fs/cgroup -maxdepth 6 \
	    -name "bonnie-ng.$kp" -type d 2>/dev/null)" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -9 "$kp" 2>/dev/null
	wait "$kp" 2>/dev/null
	dead=$(find /sys/fs/cgroup -maxdepth 6 -name "bonnie-ng.$kp" -type d \
	    2>/dev/null | tr '\n' ' ')
	"$BONNIE" -d "$T/d" -s 8m -p write -q >/dev/null 2>&1
	[ -n "$dead" ] && [ -z "$(find /sys/fs/cgroup -maxdepth 6 \
	    -name "bonnie-ng.$kp" -type d 2>/dev/null)" ]
	check "a SIGKILLed run's cgroup ($dead) is removed by the next run" $?
	# A fault kills the seekers and leaves at once, before they have
	# exited: the run waits for its cgroup to empty before removing it
	# (it was left, in v2 and in v1's memory).
	"$BONNIE" -d "$T/k" -s 64m -c 4k -p seeks -S 3 -n 1000000 \
	    --cache keep -q >/dev/null 2>&1 &
	kp=$!
	i=0
	while [ $i -lt 400 ] && [ "$(pgrep -P "$kp" | wc -l)" -lt 3 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	in=$(find /sys/fs/cgroup -maxdepth 6 -name "bonnie-ng.$kp" -type d \
	    2>/dev/null | tr '\n' ' ')
	kill -SEGV "$kp" 2>/dev/null
	wait "$kp" 2>/dev/null
	st=$?
	left=$(find /sys/fs/cgroup -maxdepth 6 -name "bonnie-ng.$kp" -type d \
	    2>/dev/null | tr '\n' ' ')
	[ "$st" -gt 128 ] && [ -n "$in" ] && [ -z "$left" ]
	check "a SIGSEGV among 3 seekers: exit $st, its cgroups ($in) gone ($left)" $?
	rm -rf "$T/k"
else
	for i in 1 2 3 4 5; do
		skip "the run's own cgroup: needs root"
	done
fi

if ! is_root || ! have losetup || ! have mkfs.ext4; then
	skip "loop devices, sysctls, swap: need root, losetup and mkfs.ext4"
	done_testing
	exit
fi

M=$T/mnt
mkdir "$M"
LOOP="" RAW="" SWAP="" HOG="" CG=""
# perf mounts tracefs for the tracepoint when it is not: unmounted again.
TRACEFS=$(awk '$2 == "/sys/kernel/tracing" { print 1 }' /proc/self/mounts)
undo() {
	[ -z "$TRACEFS" ] && awk '$2 == "/sys/kernel/tracing" { f = 1 }
	    END { exit !f }' /proc/self/mounts &&
	    scratch_umount /sys/kernel/tracing
	[ -n "$HOG" ] && kill "$HOG" 2>/dev/null && wait "$HOG" 2>/dev/null
	[ -n "$SWAP" ] && swapoff "$SWAP" 2>/dev/null
	cgroup_remove "$CG"
	machine_restore
	return 0
}
# The loop devices and the mount go with the scratch directory, held or
# not (T_LOOPS, T_MOUNTS).
trap 'undo; cleanup_scratch' EXIT
trap 'exit 1' HUP INT TERM
truncate -s 512m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1
LOOP=$(losetup -f --show --direct-io=on "$T/img" 2>/dev/null) &&
    T_LOOPS=$LOOP && mount "$LOOP" "$M" 2>/dev/null && T_MOUNTS=$M || {
	skip "loop device or mount failed"
	done_testing
	exit
}
N=${LOOP#/dev/}
# /proc/diskstats' field of the device (awk's: the name is 3): 6 sectors
# read, 14 time in queue, 19 flush requests.
ds() { awk -v n="$1" -v f="$2" '$3 == n { print $f }' /proc/diskstats; }

# 3. --iodepth 32 on a fresh ext4 file: ext4 allocates a new file's blocks
# one direct write at a time, so the device sees about one request, not
# 32.  The meter: /proc/diskstats' time in queue over the run's span
# (the device is idle but for it) against the note's aqu-sz.
q0=$(ds "$N" 14) t0=$(date +%s%N)
"$BONNIE" -d "$M" -s 64m -c 64k -p write --direct --iodepth 32 \
    --json "$T/qd.json" >/dev/null 2>"$T/qd.err"
st=$?
q1=$(ds "$N" 14) t1=$(date +%s%N)
check "--iodepth 32 on a fresh ext4 file: the run" $st
W='.runs[0].phases.write'
if jq -e "$W.queue.depth == 32 or $W.queue == null" "$T/qd.json" \
    >/dev/null 2>&1 && jq -e "$W.kernel.disk[0][\"aqu-sz\"] < 8" \
    "$T/qd.json" >/dev/null; then
	jq -e "[$W.kernel.notes[] | select(.kind == \"queue_depth\" and
	    .scope == \"device\" and (.text | test(\"--iodepth 32 reached $N about\")))]
	    | length == 1" "$T/qd.json" >/dev/null
	check "the queue_depth note: --iodepth 32 reached $N about ... deep" $?
	grep -q "warning: phase write: --iodepth 32 reached $N about .* deep (aqu-sz .*): likely a file system allocating" "$T/qd.err"
	check "... said on stderr with its likely cause" $?
	# The time in queue over the whole bracket is at least the phase's
	# (ms of requests in flight), so the bracket's mean queue bounds the
	# phase's from below only by the span ratio: the phase's aqu-sz
	# times its span is the time in queue in the phase, within the
	# bracket's.
	jq -e --argjson q "$((q1 - q0))" "$W.kernel | .disk[0][\"aqu-sz\"] *
	    .span_s * 1000 <= \$q * 1.05 + 5 and \$q / (.span_s * 1000) < 8" \
	    "$T/qd.json" >/dev/null
	check "/proc/diskstats' time in queue around the run ($((q1 - q0)) ms) holds the phase's and is under 8 deep over its span" $?
	diag "$(jq -r "$W.kernel.notes[] | select(.kind == \"queue_depth\") | .text" "$T/qd.json")"
else
	skip "the queue reached $N 8 deep or more here (aqu-sz $(jq "$W.kernel.disk[0][\"aqu-sz\"]" "$T/qd.json")): no shallow queue to note"
	skip "the queue was not shallow"
	skip "the queue was not shallow"
fi

# 4. A --device sweep over chunks below and above the page size on a
# loop device: each point and each repeat starts with the device's pages
# dropped, so every write below 4 KiB reads each page first.  The meter:
# /proc/diskstats' sectors read from the device over the sweep, at least
# the points' sizes below the page size times their runs.  The sweep's
# reads of the device are held to 2000 a second (a blkio cgroup of the
# test's, where there is one) so that the read-modify-write costs far
# more than any load on the machine can blur: the cliff is then named.
if [ "$(getconf PAGESIZE)" = 4096 ] && truncate -s 64m "$T/raw" &&
    RAW=$(losetup -f --show "$T/raw" 2>/dev/null) &&
    T_LOOPS="$T_LOOPS $RAW"; then
	RN=${RAW#/dev/}
	BCG=""
	if [ -w /sys/fs/cgroup/blkio ] &&
	    mkdir /sys/fs/cgroup/blkio/bonnie-ng-t-scope.$$ 2>/dev/null; then
		BCG=/sys/fs/cgroup/blkio/bonnie-ng-t-scope.$$
		CG=$BCG
		echo "$(cat /sys/class/block/$RN/dev) 2000" \
		    >"$BCG/blkio.throttle.read_iops_device" || BCG=""
	fi
	r0=$(ds "$RN" 6)
	sh -c "[ -z '$BCG' ] || echo \$\$ >'$BCG/cgroup.procs'; exec \"$BONNIE\" \
	    sweep --device $RAW --sizes 8m..8m --chunks 1k,2k,4k,8k -p write \
	    --repeat 3 -q --json $T/sw.json" >"$T/sw.out" 2>"$T/sw.err"
	check "a --device sweep over 1k..8k chunks, 3 repeats" $?
	r1=$(ds "$RN" 6)
	# Every run of a point below 4 KiB (3 repeats, and those --min-time
	# adds) read the 8 MiB it wrote (its own read_bytes); none at 4 KiB
	# or more.
	small=$(jq '[.points[] | select(.chunk < 4096) | 1 +
	    (.more_runs // [] | length)] | add' "$T/sw.json")
	jq -e '[.points[] | [.] + (.more_runs // []) | .[] as $r |
	    {c: .[0].chunk, rb: $r.phases.write.kernel.process.read_bytes}] |
	    length >= 12 and all(.[]; if .c < 4096 then .rb >= 8388608
	    else .rb < 1048576 end)' "$T/sw.json" >/dev/null
	check "every repeat below 4 KiB read its 8 MiB first, none above ($small runs below)" $?
	jq -e --argjson n "$small" '[.points[] | [.] + (.more_runs // []) |
	    .[] | .phases.write.kernel.notes[] | select(.kind ==
	    "read_modify_write")] | length == $n and all(.[]; .scope == "run"
	    and (.text | test("every 4 KiB page was read before being written")))' \
	    "$T/sw.json" >/dev/null
	check "each of those runs notes its read-modify-write" $?
	[ "$((r1 - r0))" -ge $((small * 16384)) ]
	check "/proc/diskstats: $RN read $((r1 - r0)) sectors over the sweep, at least $small x 8 MiB" $?
	if [ -n "$BCG" ]; then
		jq -e '[.chunk_cliffs[] | select(.phase == "write" and
		    .from_chunk >= 1024 and .to_chunk == 4096)] | length >= 1' \
		    "$T/sw.json" >/dev/null
		check "the knee finder names the cliff between 1 and 4 KiB" $?
		grep -q 'write, 8 MiB: a cliff between chunk [12]k and 4k: .* below the page size, read-modify-write' "$T/sw.out"
		check "... in the sweep's words" $?
		rmdir "$BCG" && CG=""
	else
		skip "the cliff: no blkio cgroup to hold the reads to a rate a load cannot blur"
		skip "the cliff: no blkio cgroup"
	fi
	diag "$(grep -A3 '^Knees' "$T/sw.out" | tail -n 3)"
	schema_ok "the sweep record with its cliffs matches doc/schema.json" \
	    -d sweep_record "$T/sw.json"
	scratch_detach "$RAW" && RAW=""
else
	skip "a --device sweep: a 4 KiB page and a second loop device needed"
fi

# 5. Dirty throttling: vm.dirty_bytes at 2 MiB holds a 64 MiB buffered
# write at the kernel's limit the whole phase.  The meter: perf's count of
# the kernel's own writeback:balance_dirty_pages events in the run's
# processes (a throttled writer passes through it), against none without.
perf_count() {
	awk -F, '$3 == "writeback:balance_dirty_pages" { print $1 }' "$1"
}
if ! have perf || ! perf stat -e writeback:balance_dirty_pages -x, \
    -o "$T/p0" true 2>/dev/null || [ -z "$(perf_count "$T/p0")" ]; then
	skip "dirty throttling: perf with the writeback:balance_dirty_pages tracepoint is needed (Debian's linux-perf)"
elif ! machine_set /proc/sys/vm/dirty_bytes 2097152; then
	skip "dirty throttling: vm.dirty_bytes could not be set"
else
	perf stat -e writeback:balance_dirty_pages -x, -o "$T/p1" -- \
	    "$BONNIE" -d "$M" -s 64m -p write --json "$T/th.json" \
	    >/dev/null 2>"$T/th.err"
	st=$?
	machine_restore
	check "a 64 MiB write with vm.dirty_bytes at 2 MiB" $st
	n1=$(perf_count "$T/p1")
	perf stat -e writeback:balance_dirty_pages -x, -o "$T/p2" -- \
	    "$BONNIE" -d "$M" -s 64m -p write --json "$T/nt.json" \
	    >/dev/null 2>&1
	n2=$(perf_count "$T/p2")
	[ "${n1:-0}" -gt 0 ]
	check "perf: the kernel throttled the run's writer ($n1 balance_dirty_pages events; $n2 without the limit)" $?
	jq -e "$W.kernel | .dirty.nr_dirty_threshold <= 1024 and
	    ([.notes[] | select(.kind == \"dirty_throttle\" and
	    .scope == \"run\" and (.text | test(\"throttled on dirty pages\")))]
	    | length == 1)" "$T/th.json" >/dev/null
	check "the record: nr_dirty_threshold at the 2 MiB, a dirty_throttle note of the run's" $? ||
	    diag "$(jq -c "$W | {rate, bytes, k: (.kernel | {dirty, notes, rp: .cgroup.pressure.io})}" "$T/th.json")"
	grep -q '^bonnie-ng: warning: phase write: the writers were throttled on dirty pages: .* this run waited on I/O' "$T/th.err"
	check "... said on stderr, with the run's own wait" $?
	diag "$(jq -r "$W.kernel.notes[] | select(.kind == \"dirty_throttle\") | .text" "$T/th.json")"
	if [ "${n2:-1}" -eq 0 ]; then
		jq -e "[$W.kernel.notes[] | select(.kind == \"dirty_throttle\")]
		    | length == 0" "$T/nt.json" >/dev/null
		check "without the limit: no throttle event, no throttle note" $?
	else
		skip "without the limit the kernel still throttled ($n2 events): the machine is writing"
	fi
fi

# 6. A memory hog swapping in a cgroup of its own (96 MiB for 128 MiB, a
# swap file on) beside the run, which bonnie-ng puts in a cgroup of its
# own: the swap note says the machine swapped and that the run's own
# processes did not wait.  The meters: /proc/vmstat's pswpout around the
# run, and the hog's cgroup's own memory.stat (its pages in swap).
vm() { awk -v n="$1" '$1 == n { print $2 }' /proc/vmstat; }
# swaps: pages swapped in and out, the machine's.  The hog swaps both ways
# while it runs; at a soak's load it can get no CPU for a whole short run
# and swap only in then (seen: pswpin 13, pswpout 0), so both count.
swaps() { echo $(($(vm pswpin) + $(vm pswpout))); }
MEM=/sys/fs/cgroup/memory
if [ -w "$MEM" ] && have stress-ng && have mkswap &&
    dd if=/dev/zero of="$T/swap" bs=1M count=256 status=none &&
    chmod 600 "$T/swap" && mkswap "$T/swap" >/dev/null 2>&1 &&
    swapon "$T/swap" 2>/dev/null; then
	SWAP=$T/swap
	CG=$MEM/bonnie-ng-t-scope-hog.$$
	mkdir "$CG" && echo $((96 << 20)) >"$CG/memory.limit_in_bytes"
	sh -c "echo \$\$ >$CG/tasks && exec stress-ng --vm 1 --vm-bytes 128m \
	    --vm-keep -t 120 --quiet" >/dev/null 2>&1 &
	HOG=$!
	# Until the hog is being swapped out.
	i=0 o=$(vm pswpout) n=$o
	while [ $i -lt 200 ] && [ "$n" -le "$((o + 256))" ]; do
		sleep 0.1
		i=$((i + 1))
		n=$(vm pswpout)
	done
	s0=$(swaps)
	"$BONNIE" -d "$M" -s 64m -p write,read --json "$T/hog.json" \
	    >/dev/null 2>"$T/hog.err"
	st=$?
	s1=$(swaps)
	hogswap=$(awk '$1 == "swap" { print $2 }' "$CG/memory.stat")
	kill "$HOG" 2>/dev/null
	wait "$HOG" 2>/dev/null
	HOG=""
	check "a run beside a hog swapping in its own cgroup" $st
	[ "$((s1 - s0))" -gt 0 ] && [ "${hogswap:-0}" -gt 0 ]
	check "the meters: the machine swapped $((s1 - s0)) pages in and out over the run, the hog's cgroup holds $hogswap bytes in swap" $?
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel |
	    select((.vmstat.pswpout // 0) + (.vmstat.pswpin // 0) > 0)] |
	    length > 0' "$T/hog.json" >/dev/null
	check "the run's phases saw the machine's pswpin or pswpout move" $?
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel |
	    .notes[] | select(.kind == "swap")] as $n | ($n | length) > 0 and
	    all($n[]; .scope == "machine" and
	    (.text | test("this run.s own processes did not wait")))' \
	    "$T/hog.json" >/dev/null
	check "each swap note is the machine's: this run's own processes did not wait" $?
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel |
	    select([.notes[].kind] | index("swap") != null)] | all(.[];
	    .process.majflt == 0 and (.cgroup["memory.stat"].swap // 0) == 0
	    and ((.cgroup.pressure.memory.some_pct // 0) < 1))' \
	    "$T/hog.json" >/dev/null
	check "... as its own figures say: no major fault, none of its pages in swap, no memory stall" $?
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel.notes[] |
	    select(.kind == "reclaim" and .scope == "run")] | length == 0' \
	    "$T/hog.json" >/dev/null
	check "no reclaim note blames the run" $?
	grep -q "^bonnie-ng: warning: phase [a-z]*: the machine swapped (pswpin [0-9]*, pswpout [0-9]* pages); this run's own processes did not wait (.*) (machine)$" "$T/hog.err"
	check "... said on stderr, marked (machine)" $?
	diag "$(grep swapped "$T/hog.err" | head -n 1)"
	i=0
	while [ $i -lt 100 ] && [ -s "$CG/tasks" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cgroup_remove "$CG" && CG=""
	swapoff "$SWAP" && SWAP=""
else
	skip "a swapping hog: needs the v1 memory controller, stress-ng and a swap file"
fi

# 7. A sync mount: every write waits for its flush.  compare names the
# run's or the device's figures first (the flushes, the write size), a
# machine figure never ahead of them.  The meter: /proc/diskstats' flush
# requests (the 16th field after the name) over the sync run against the
# record's f/s over its span.
"$BONNIE" -d "$M" -s 16m -p write -q --json "$T/async.json" >/dev/null 2>&1
if [ "$(awk -v n="$N" '$3 == n { print NF }' /proc/diskstats)" -ge 20 ] &&
    mount -o remount,sync "$M"; then
	f0=$(ds "$N" 19)
	"$BONNIE" -d "$M" -s 16m -p write -q --json "$T/sync.json" \
	    >/dev/null 2>&1
	st=$?
	f1=$(ds "$N" 19)
	mount -o remount,async "$M"
	check "a write on a sync mount" $st
	jq -e --argjson f "$((f1 - f0))" "$W.kernel | (.disk[0][\"f/s\"] *
	    .span_s) as \$r | \$r > 0 and \$r <= \$f + 0.5" \
	    "$T/sync.json" >/dev/null
	check "the record's flushes are within /proc/diskstats' $((f1 - f0)) flush requests around the run" $?
	"$BONNIE" compare -o json "$T/async.json" "$T/sync.json" \
	    >"$T/cs.json" 2>/dev/null
	jq -e '.columns[] | select(.name == "write") | .new[0] |
	    select(.verdict == "worse") | .kernel_moved.figures |
	    length > 0 and .[0].scope != "machine" and
	    ([.[].scope] | index("machine")) as $m |
	    ($m == null or all(.[0:$m][]; .scope != "machine"))' \
	    "$T/cs.json" >/dev/null
	check "compare: the sync write's worse rate explained by the run's or the device's figures first" $?
	"$BONNIE" compare "$T/async.json" "$T/sync.json" >"$T/cs" 2>&1
	diag "$(grep '^write ' "$T/cs" | tail -n 1)"
else
	skip "a sync mount: no flush field in /proc/diskstats, or the remount failed"
fi

done_testing
