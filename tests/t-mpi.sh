#!/bin/sh
# The MPI build (make mpi): the team over MPI ranks on this machine, TCP
# over loopback, 4 ranks: lock-step gathering, a rank failing mid-step and
# one failing before the first barrier; bonnie-ng-mpi with a shared
# directory, with -j 2 in each of 2 ranks, the file creation phases over
# 2 ranks, with one directory per rank, each host's kernel account (one
# host, and two faked with UTS namespaces), a
# rank whose disk fills early in a long phase (the others stop mid-phase),
# Ctrl-C, a rank or mpirun killed, and mpirun killed by SIGKILL (rank 0's
# record, rewritten after every phase, kept).  A visible skip without
# mpicc and mpirun.
# run.sh: long: among the longest in CI; started first on a clean clone
# run.sh: suites: plain: make mpi links the plain build's objects; the
#   sanitized and portable builds have no MPI build
. tests/lib.sh
. tests/fault/lib.sh

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1
then
	skip "mpicc or mpirun is not installed (apt-get install openmpi-bin libopenmpi-dev)"
	done_testing
	exit
fi
if [ ! -x build-mpi/tests/mpi-team ] || [ ! -x bonnie-ng-mpi ]; then
	make -s mpi >/dev/null 2>&1
fi
[ -x build-mpi/tests/mpi-team ]; check "make mpi builds" $?

mpi() {
	timeout 120 mpirun --allow-run-as-root --oversubscribe \
	    --mca btl tcp,self "$@"
}

for mode in plain jobs fail prepfail; do
	# Rank 0's TAP to a file of its own: through mpirun's stdout the
	# last lines (the plan) were lost at load 12-15 (soak, 2 of 7 passes).
	rm -f "$T/out"
	mpi -np 4 build-mpi/tests/mpi-team $mode "$T/out" >"$T/job" 2>"$T/err"
	status=$?
	[ -f "$T/out" ] || : >"$T/out"
	grep -E '^(not )?ok|^#' "$T/out" | sed "s/^\(not \)*ok [0-9]* - /&$mode: /; s/^\(not \)*ok [0-9]*/\1ok/" >"$T/tap"
	while IFS= read -r line; do
		case $line in
		"ok "*) check "${line#ok - }" 0 ;;
		"not ok "*) check "${line#not ok - }" 1 ;;
		"#"*) echo "$line" ;;
		esac
	done <"$T/tap"
	grep -q '^1\.\.' "$T/out"; check "$mode: rank 0 finished its checks" $?
	[ $status -eq 0 ]; check "$mode: the job exits 0 (rank 0's checks)" $?
done

# bonnie-ng-mpi: one worker per rank, rank 0 reports.
[ -x bonnie-ng-mpi ]; check "make mpi builds bonnie-ng-mpi" $?
if ! command -v jq >/dev/null 2>&1; then
	skip "jq is not installed: the bonnie-ng-mpi checks"
	done_testing
	exit
fi
scratch
BNM=$(pwd)/bonnie-ng-mpi
TAG=bnmpi$$
no_procs() {
	_i=0
	while [ $_i -lt 100 ]; do
		pgrep -f -- "-m $TAG" >/dev/null 2>&1 || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# aggregate RECORD PHASE: the phase's figures are its 4 workers' work
# (each one's own, started and ended) over the span from the earliest
# start to the latest end.
aggregate() {
	jq -e --arg ph "$2" '
	    .runs[0].phases[$ph] as $p | $p.per_worker as $w |
	    ($w | map(.start_s) | min) as $s0 |
	    ($w | map(.end_s) | max) as $e1 |
	    ($e1 - $s0) as $span |
	    ($w | length) == 4 and ($w | all(.bytes > 0 and .end_s > .start_s)) and
	    $p.bytes == ($w | map(.bytes) | add) and
	    $p.ops == ($w | map(.ops) | add) and
	    (($p.elapsed_s - $span) | fabs) < 1e-6 and
	    (if $ph == "seeks" then (($p.rate - $p.ops / $span) | fabs) <= 1e-6 * $p.rate
	     else (($p.rate - $p.bytes / 1024 / $span) | fabs) <= 1e-6 * $p.rate end)
	' "$1" >/dev/null
}

# A shared directory: four ranks, one file each.
mkdir "$T/shared"
mpi -np 4 "$BNM" -m $TAG -d "$T/shared" -s 16m -p write,read,seeks -n 500 \
    -q --json "$T/r.json" >"$T/out" 2>"$T/err"
st=$?
check "shared directory, 4 ranks: exit 0 (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
[ "$(awk -v t=$TAG '$1 == substr(t, 1, 8)' "$T/out" | wc -l)" -eq 1 ] &&
    [ "$(awk -v t=$TAG '$1 == substr(t, 1, 8) { print $2 }' "$T/out")" = 64 ]
check "rank 0 prints one row; MB is 4 x 16" $?
jq -e '.options.jobs == 4 and .runs[0].team.backend == "mpi" and
    (.runs[0].team.workers | length) == 4 and
    (.runs[0].team.workers | all(.host != "" and .kernel != "" and
        .fs_type != "" and (.mount_options | type) == "string")) and
    .runs[0].team.same_fs == true' "$T/r.json" >/dev/null
check "the record lists every rank's host and one file system" $?
for ph in write read seeks; do
	aggregate "$T/r.json" "$ph"
	check "$ph: the aggregate is the ranks' work over earliest start to latest end" $?
done
[ "$(jq '.runs[0].phases.write.bytes' "$T/r.json")" = 67108864 ]
check "four files of 16 MiB written" $?
check "every file removed" $(no_test_files "$T/shared"; echo $?)
check "no rank left" $(no_procs; echo $?)

# -j 2 in each of 2 ranks: 4 streams in lock-step, one aggregate.
mpi -np 2 "$BNM" -m $TAG -d "$T/shared" -s 16m -j 2 -p write,read,seeks \
    -n 500 -q --json "$T/j.json" >"$T/out" 2>"$T/err"
st=$?
check "-np 2 -j 2: exit 0 (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
[ "$(awk -v t=$TAG '$1 == substr(t, 1, 8) { print $2 }' "$T/out")" = 64 ]
check "-np 2 -j 2: one row, MB is 2 x 2 x 16" $?
jq -e '.options.jobs == 4 and .runs[0].team.backend == "mpi" and
    (.runs[0].team.workers | map([.worker, .rank, .rank_worker])) ==
        [[0, 0, 0], [1, 0, 1], [2, 1, 0], [3, 1, 1]] and
    (.runs[0].team.workers | all(.host != "" and .kernel != ""))' \
    "$T/j.json" >/dev/null
check "-np 2 -j 2: the record lists every stream with its rank, host and worker" $?
for ph in write read seeks; do
	aggregate "$T/j.json" "$ph"
	check "-np 2 -j 2, $ph: the aggregate is the 4 streams' work over earliest start to latest end" $?
done
[ "$(jq '.runs[0].phases.write.bytes' "$T/j.json")" = 67108864 ]
check "-np 2 -j 2: four files of 16 MiB written" $?
check "-np 2 -j 2: every file removed" $(no_test_files "$T/shared"; echo $?)
check "-np 2 -j 2: no process left" $(no_procs; echo $?)

# The file creation phases over 2 ranks: each rank its own directory,
# files over the span from the earliest start to the latest end.
mpi -np 2 "$BNM" -m $TAG -d "$T/shared" --files 1 -p create,stat,delete \
    -q --json "$T/f.json" >"$T/out" 2>"$T/err"
st=$?
check "--files 1, 2 ranks: exit 0 (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
for ph in create stat delete; do
	jq -e --arg ph $ph '.runs[0].phases[$ph] as $p | $p.per_worker as $w |
	    (($w | map(.end_s) | max) - ($w | map(.start_s) | min)) as $span |
	    ($w | length) == 2 and ($w | all(.ops == 1024)) and
	    $p.ops == 2048 and (($p.elapsed_s - $span) | fabs) < 1e-6 and
	    (($p.rate - $p.ops / $span) | fabs) <= 1e-6 * $p.rate' \
	    "$T/f.json" >/dev/null
	check "--files 1, 2 ranks, $ph: 2 x 1024 files over earliest start to latest end" $?
done
[ -z "$(ls -A "$T/shared")" ]
check "--files 1, 2 ranks: no directory or file left" $?
check "--files 1, 2 ranks: no process left" $(no_procs; echo $?)

# A rank, or mpirun, killed mid-run: mpirun sends SIGTERM to the others
# (and SIGKILL odls_base_sigkill_timeout seconds later: 1 by default, 5
# here for a loaded machine); rank 0 writes the record of the phases that
# completed and its line as soon as it sees the signal, even in the middle
# of a wait on a rank that is gone, and leaves no temporary beside the
# record.  Once rank 0's record holds write and read, not after a time and
# not on a word on standard error (the last case's file, not yet emptied
# by the new job's shell, once said "Seeking" in CI): the signal then
# comes while rank 0 waits for the other rank at read's end or at seeks'
# barrier, or during seeks.
# wait_record JOBPID RECORD N: until RECORD holds N phases, or the job
# ended, or 120 s.
wait_record() {
	_i=0
	until [ "$(jq -r '[.runs[0].phases[] | select(. != null)] | length' \
	    "$2" 2>/dev/null)" = "$3" ] || ! kill -0 "$1" 2>/dev/null ||
	    [ $_i -ge 2400 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}
# rank_pid JOBPID R: rank R's own process (a child of mpirun).
rank_pid() {
	for _p in $(pgrep -f -- "-m $TAG"); do
		[ "$(ps -o ppid= -p "$_p" | tr -d ' ')" = "$(pgrep -P "$1" | head -1)" ] ||
		    continue
		tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null |
		    grep -qx "OMPI_COMM_WORLD_RANK=$2" && echo "$_p"
	done | head -1
}
for how in rank mpirun; do
	rm -rf "$T/shared/"* "$T/shared/".[!.]* "$T/k"
	mkdir "$T/k"
	timeout 60 mpirun --allow-run-as-root --oversubscribe \
	    --mca btl tcp,self --mca odls_base_sigkill_timeout 5 \
	    -np 2 "$BNM" -m $TAG -d "$T/shared" -s 8m -p write,read,seeks \
	    -n 100000000 --json "$T/k/k.json" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_record $pid "$T/k/k.json" 2
	if [ $how = rank ]; then
		kill -KILL "$(rank_pid $pid 1)"
	else
		kill -TERM "$(pgrep -P $pid | head -1)"
	fi
	wait $pid
	st=$?
	[ $st -ne 0 ] && [ $st -ne 124 ]
	check "$how killed: the job stops, non-zero (exit $st)" $?
	jq -e '.runs[0].interrupted == "SIGTERM" and
	    .runs[0].phases.write.bytes == 2 * 8388608 and
	    .runs[0].phases.read.bytes == 2 * 8388608' "$T/k/k.json" \
	    >/dev/null 2>&1
	check "$how killed: rank 0's record holds the phases that completed" $?
	grep -q "interrupted by SIGTERM" "$T/err"
	check "$how killed: rank 0 says it was interrupted" $? ||
	    sed 's/^/#   /' "$T/err"
	[ "$(ls -A "$T/k")" = k.json ]
	check "$how killed: no temporary beside the record ($(ls -A "$T/k" | tr '\n' ' '))" $?
	check "$how killed: no rank left" $(no_procs; echo $?)
	check "$how killed: every file removed" \
	    $([ -z "$(ls -A "$T/shared")" ]; echo $?)
done

# mpirun killed by SIGKILL: the ranks get no signal (Open MPI ends them a
# second or so later, when it loses mpirun); rank 0's record, rewritten
# whole after every phase, holds the phases that completed.  Killed once
# the record holds two, not after a time.
rm -rf "$T/shared/"* "$T/shared/".[!.]* "$T/k"
mkdir "$T/k"
timeout 60 mpirun --allow-run-as-root --oversubscribe --mca btl tcp,self \
    -np 2 "$BNM" -m $TAG -d "$T/shared" -s 8m -p write,read,seeks \
    -n 100000000 --json "$T/k/k.json" >"$T/out" 2>"$T/err" &
pid=$!
wait_record $pid "$T/k/k.json" 2
kill -KILL "$(pgrep -P $pid | head -1)"
wait $pid
st=$?
check "mpirun SIGKILLed once the record held 2 phases (exit $st)" \
    $([ $st -eq 137 ]; echo $?)
# The ranks end by themselves, Open MPI's doing: waited for, bounded.
_i=0
while pgrep -f -- "-m $TAG" >/dev/null 2>&1 && [ $_i -lt 1200 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
check "mpirun SIGKILLed: the ranks end" $(no_procs; echo $?)
jq -e '.runs[0].interrupted == "SIGKILL" and
    .runs[0].error.phase == "seeks" and
    .runs[0].phases.write.bytes == 2 * 8388608 and
    .runs[0].phases.read.bytes == 2 * 8388608 and
    .runs[0].phases.seeks == null' "$T/k/k.json" >/dev/null 2>&1
check "mpirun SIGKILLed: rank 0's record holds the phases that completed" $?
schema_ok "mpirun SIGKILLed: the record is valid against the schema" \
    "$T/k/k.json"
[ "$(ls -A "$T/k")" = k.json ]
check "mpirun SIGKILLed: no temporary beside the record ($(ls -A "$T/k" | tr '\n' ' '))" $?
rm -rf "$T/shared/"* "$T/shared/".[!.]*

if [ "$(id -u)" -ne 0 ]; then
	skip "per-rank directories: needs root to mount tmpfs"
	skip "a rank with a full disk: needs root to mount tmpfs"
	done_testing
	exit
fi
# One directory per rank, on two file systems (MPMD: one -d per context).
mkdir "$T/a" "$T/b" "$T/small"
mount -t tmpfs -o size=80m tmpfs "$T/a" && T_MOUNTS="$T/a" &&
    mount -t tmpfs -o size=80m tmpfs "$T/b" && T_MOUNTS="$T_MOUNTS $T/b" &&
    mount -t tmpfs -o size=20m tmpfs "$T/small" &&
    T_MOUNTS="$T_MOUNTS $T/small"
check "mount three tmpfs" $?
mpi -np 2 "$BNM" -m $TAG -d "$T/a" -s 16m -p write,read -q --json "$T/d.json" \
    : -np 2 "$BNM" -m $TAG -d "$T/b" -s 16m -p write,read -q \
    >"$T/out" 2>"$T/err"
st=$?
check "per-rank directories: exit 0 (exit $st)" $st
jq -e '.runs[0].team.same_fs == false and
    ([.runs[0].team.workers[].fs_id] | unique | length) == 2 and
    .runs[0].phases.read.bytes == 67108864' "$T/d.json" >/dev/null
check "the record says the ranks' directories differ" $?
check "per-rank directories: every file removed" \
    $(no_test_files "$T/a" && no_test_files "$T/b"; echo $?)

# Each host's kernel account (issue 25), on a fresh ext4 loop device that
# nothing else reads.  One machine is one host: kernel.hosts[] holds one
# host with both ranks, whose figures are the phase's own, and the
# process counters are the sum of the workers'.  Meters: each worker's
# read_bytes against its cold 32 MiB file, and the loop device's reads
# in /proc/diskstats, read by the test around the job.
# The loop device (T_LOOPS) and its mount (T_MOUNTS) go with the scratch
# directory on every way out, held or not.
LOOP=""
mkdir "$T/lm"
if command -v losetup >/dev/null 2>&1 && command -v mkfs.ext4 >/dev/null 2>&1 &&
    truncate -s 256m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 &&
    LOOP=$(losetup -f --show --direct-io=on "$T/img" 2>/dev/null) &&
    T_LOOPS=$LOOP && mount "$LOOP" "$T/lm" 2>/dev/null &&
    T_MOUNTS="$T_MOUNTS $T/lm"; then
	N=${LOOP#/dev/}
	sect() { awk -v n="$N" '$3 == n { print $6 }' /proc/diskstats; }
	s0=$(sect)
	mpi -np 2 "$BNM" -m $TAG -d "$T/lm" -s 32m -c 64k -p write,read -q \
	    --json "$T/k.json" >"$T/out" 2>"$T/err"
	st=$?
	s1=$(sect)
	check "kernel account, 2 ranks on one host: exit 0 (exit $st)" $st
	[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
	jq -e --arg h "$(hostname)" '.runs[0].phases | [.write, .read][] |
	    .kernel.hosts as $hs | ($hs | length) == 1 and
	    $hs[0].host == $h and $hs[0].ranks == [0, 1] and
	    ($hs[0].timeline.samples | length) >= 2 and
	    (.kernel | has("timeline") | not) and
	    (.kernel | del(.hosts)) == ($hs[0] | del(.host, .ranks,
	        .timeline))' "$T/k.json" >/dev/null
	check "one host: its account is the phase's own (vmstat, disk, pressure, cgroup, process, notes), and it has a timeline" $?
	# The host's timeline counts both ranks' workers: its last sample's
	# work done is the phase's bytes (each worker stores its total).
	jq -e '.runs[0].phases | [.write, .read][] | .bytes as $b |
	    .kernel.hosts[0].timeline.samples | last | .[1] == $b' \
	    "$T/k.json" >/dev/null
	check "one host, 2 ranks: the timeline's last work done is both ranks' bytes" $?
	jq -e '.runs[0].phases | [.write, .read][] | .per_worker as $w |
	    .kernel.process as $p | $p.processes == 2 and
	    ($w | all(.process.processes == 1)) and
	    ([$p | to_entries[] | select(.key != "processes")] |
	     all(.key as $n | .value == ($w | map(.process[$n]) | add)))' \
	    "$T/k.json" >/dev/null
	check "one host: the process counters are the sum over the ranks' workers" $?
	# A cold read: each worker's read_bytes holds its own file (and
	# read-ahead past it); the device read what they read, within what
	# /proc/diskstats moved over the whole job.  The host's first reading
	# is taken as the barrier lets its lead's workers go: on a loaded
	# machine the other rank's worker can start reading before it (a
	# .ci/run saw it), so the device's figure is bounded above by the
	# workers' bytes and the job's, and below by one file: at load 32 the
	# other rank's worker had read all of its file before that reading
	# (the device's figure was exactly one file, 33554432 bytes).
	jq -e --argjson d "$(( (s1 - s0) * 512 ))" --arg n "$N" '
	    .runs[0].phases.read as $r |
	    ($r.per_worker | all(.process.read_bytes >= 0.95 * 33554432)) and
	    ($r.kernel.disk[] | select(.role == "target") |
	     (.["rkB/s"] * $r.kernel.span_s * 1024) as $dev |
	     .disk_device == $n and $dev >= 33554432 and
	     $dev <= $d * 1.001 + 65536 and
	     $dev <= $r.kernel.process.read_bytes * 1.05 + 65536)' \
	    "$T/k.json" >/dev/null
	check "one host: each rank read its file (read_bytes), the device the sum, within /proc/diskstats' $(( (s1 - s0) / 2048 )) MiB over the job" $?
	diag "$(jq -c '.runs[0].phases.read as $r | {span: $r.kernel.span_s, rkBs: ($r.kernel.disk[0]["rkB/s"]), read_bytes: $r.kernel.process.read_bytes, per_worker: [$r.per_worker[].process.read_bytes]}' "$T/k.json" 2>/dev/null)"
	[ $? -eq 0 ] || diag "$(jq -c '.runs[0].phases.read | {w: [.per_worker[].process.read_bytes], p: .kernel.process.read_bytes, d: (.kernel.disk[0] | {disk_device, "rkB/s"}), s: .kernel.span_s}' "$T/k.json")"

	# Two hosts, faked: each rank in a UTS namespace of its own host
	# name (unshare --uts), so the ranks group as two hosts that read
	# the same machine.  Requests are made small (max_sectors_kb 8,
	# read-ahead 8 sectors), so each host notes it, naming itself.
	cat >"$T/as-host" <<'EOS'
#!/bin/sh
n=$1
shift
exec unshare --uts sh -c 'hostname "$0" && exec "$@"' "$n" "$@"
EOS
	chmod +x "$T/as-host"
	if "$T/as-host" bnhosta sh -c '[ "$(hostname)" = bnhosta ]' 2>/dev/null; then
		ra=$(blockdev --getra "$LOOP")
		msk=$(cat /sys/block/$N/queue/max_sectors_kb)
		blockdev --setra 8 "$LOOP" &&
		    echo 8 >/sys/block/$N/queue/max_sectors_kb
		mpi -np 1 "$T/as-host" bnhosta "$BNM" -m $TAG -d "$T/lm" -s 32m \
		    -c 64k -p write,read -K --json "$T/h2.json" : \
		    -np 1 "$T/as-host" bnhostb "$BNM" -m $TAG -d "$T/lm" -s 32m \
		    -c 64k -p write,read -K >"$T/out" 2>"$T/err"
		st=$?
		blockdev --setra "$ra" "$LOOP"
		echo "$msk" >/sys/block/$N/queue/max_sectors_kb
		check "two hosts (UTS namespaces): exit 0 (exit $st)" $st
		[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
		jq -e '.runs[0].phases.read.kernel.hosts |
		    map([.host, .ranks]) ==
		    [["bnhosta", [0]], ["bnhostb", [1]]] and
		    all(.timeline.samples | length >= 2)' "$T/h2.json" >/dev/null
		check "two hosts: the ranks grouped by host name, each host's own timeline" $?
		jq -e '.runs[0].phases | [.write, .read][] | .kernel as $k |
		    $k.hosts as $h |
		    ($k.vmstat | to_entries | all(.key as $n | .value ==
		        ($h | map(.vmstat[$n] // 0) | add))) and
		    ($h | map(.vmstat.pgpgout) | add) == $k.vmstat.pgpgout and
		    ($k.disk[] | select(.role == "target")) as $s |
		    ($h | map(.disk[] | select(.role == "target"))) as $d |
		    def near(a; b): ((a - b) | fabs) <= 1e-9 * ([a, b, 1] | max);
		    near($s["r/s"]; $d | map(.["r/s"]) | add) and
		    near($s["wkB/s"]; $d | map(.["wkB/s"]) | add) and
		    near($s["aqu-sz"]; $d | map(.["aqu-sz"]) | add) and
		    ($s["r/s"] == 0 or near($s["rareq-sz"];
		        ($d | map(.["rkB/s"]) | add) / ($d | map(.["r/s"]) | add))) and
		    ($s["w/s"] == 0 or near($s.w_await;
		        ($d | map(.w_await * .["w/s"]) | add) / ($d | map(.["w/s"]) | add))) and
		    $s.util == null and ($d | all(.util >= 0)) and
		    $k.dirty == null and ($h | all(.dirty.samples >= 2)) and
		    $k.pressure == null and $k.pressure_why == "per host: see hosts" and
		    $k.cgroup == null' "$T/h2.json" >/dev/null
		check "two hosts: the sum adds counters, ios, bytes and queues, makes sizes and awaits from them, leaves util, dirty, pressure and cgroup to each host" $?
		jq -e '.runs[0].phases | [.write, .read][] | .per_worker as $w |
		    .kernel as $k | ($k.hosts | length) == 2 and
		    $k.hosts[0].process == $w[0].process and
		    $k.hosts[1].process == $w[1].process and
		    $k.process.read_bytes == ($w | map(.process.read_bytes) | add) and
		    $k.process.processes == 2' "$T/h2.json" >/dev/null
		check "two hosts: each host's process counters are its rank's worker's, the phase's their sum" $?
		jq -e '.runs[0].phases.read.kernel as $k |
		    ($k.hosts[0].notes | map(.text) | any(startswith("host bnhosta: phase read: requests reached"))) and
		    ($k.hosts[1].notes | map(.text) | any(startswith("host bnhostb: phase read: requests reached"))) and
		    ($k.notes | map(select(.kind == "small_requests") | .text) |
		     any(startswith("host bnhosta: ") and endswith("(and on 1 more host)")))' \
		    "$T/h2.json" >/dev/null
		check "two hosts: each host notes the small requests naming itself, the sum names the first and counts the other" $?
		n=$(grep -c "^bonnie-ng: warning: host bnhost[ab]: phase read: requests reached" "$T/err")
		[ "$n" = 2 ]
		check "two hosts: standard error says each host's note once ($n)" $?
		awk '/^read / { getline a; getline b
		    if (a ~ /^ bnhosta / && b ~ /^ bnhostb /) ok = 1 }
		    END { exit !ok }' "$T/out"
		check "-K: under each phase's line (the sum) each host's line, named" $?
		[ $? -eq 0 ] || sed 's/^/#   /' "$T/out"
	else
		skip "two hosts: unshare --uts cannot set a host name here"
	fi
	check "kernel account: every file removed" $(no_test_files "$T/lm"; echo $?)
	scratch_umount "$T/lm"
	scratch_detach "$LOOP"
else
	skip "kernel account per host: no loop device or mkfs.ext4"
fi

# -j 2 in each of 2 ranks, rank 1's directory too small for its two
# files: the worker that fills it stops every worker of both ranks.
mpi -np 1 "$BNM" -m $TAG -d "$T/a" -s 16m -j 2 -p write,read --cache=keep \
    -q : -np 1 "$BNM" -m $TAG -d "$T/small" -s 16m -j 2 -p write,read \
    --cache=keep --no-space-check -q >"$T/out" 2>"$T/err"
st=$?
[ $st -ne 0 ]; check "-np 2 -j 2, a worker's disk full: the job exits non-zero (exit $st)" $?
n=$(grep -c "^bonnie-ng: " "$T/err")
grep -Eq "^bonnie-ng: rank 1 on [^:]+, worker [23]: phase write: $T/small/bonnie-ng\.[0-9]+\.[^/]*\.r1\.j[01]\.[A-Za-z0-9]+: write: No space left on device \(at byte [0-9]+\)\$" "$T/err" &&
    [ "$n" = 1 ]
check "-np 2 -j 2: rank 0's one line names the rank, host, worker, phase, file, error" $?
[ $? -eq 0 ] || sed 's/^/#   /' "$T/err"
check "-np 2 -j 2, a disk full: every file removed" \
    $(no_test_files "$T/a" && no_test_files "$T/small"; echo $?)
check "-np 2 -j 2, a disk full: no process left" $(no_procs; echo $?)

# Rank 3 fills its disk early in a long write phase: ranks 0 to 2 write
# through the fault library, which sleeps 40 ms before each of their
# 2048 writes (82 s at the least), so only a stop mid-phase ends the job
# soon.  Every rank removes its file; rank 0 names the rank, its host,
# the phase, the file and the error, once.
slow=""
[ -n "$INJECT" ] && slow="env LD_PRELOAD=$INJECT BN_FAULT=write:1+:sleep=40000"
t0=$(date +%s)
mpi -np 3 $slow "$BNM" -m $TAG -d "$T/a" -s 32m -c 16k -p write,read \
    --cache=keep -q : -np 1 "$BNM" -m $TAG -d "$T/small" -s 32m -p write,read \
    --cache=keep --no-space-check -q >"$T/out" 2>"$T/err"
st=$?
took=$(($(date +%s) - t0))
if [ -n "$INJECT" ]; then
	[ $took -lt 60 ]
	check "a rank with a full disk: the others stop mid-phase (job took $took s of their 82 s phase)" $?
else
	skip "the fault library is not built: the mid-phase stop is not timed"
fi
[ $st -ne 0 ]; check "a rank with a full disk: the job exits non-zero (exit $st)" $?
n=$(grep -c "^bonnie-ng: " "$T/err")
grep -Eq "^bonnie-ng: rank 3 on [^:]+: phase write: $T/small/bonnie-ng\.[0-9]+\.[^/]*\.r3\.[A-Za-z0-9]+: write: No space left on device \(at byte [0-9]+\)\$" "$T/err" &&
    [ "$n" = 1 ]
check "rank 0's one line names rank 3, its host, the phase, its file, the error" $?
[ $? -eq 0 ] || sed 's/^/#   /' "$T/err"
check "a full disk: every rank's file removed" \
    $(no_test_files "$T/a" && no_test_files "$T/small"; echo $?)
check "a full disk: no rank left" $(no_procs; echo $?)

# Ranks started with different settings (MPMD) are refused before the
# first phase, with one line naming the setting and the rank (issue 26:
# -s was aggregated silently, -j aborted inside MPI, -x stalled 120 s);
# the directory may differ.  A rank that cannot start (a missing -d, a
# bad option) is named by rank 0 with its host and its own line, at once.
mkdir -p "$T/a" "$T/b"
for v in "--size:-s 1m:-s 2m" "--jobs:-j 1:-j 2" "--repeat:-x 1:-x 2" \
    "--cache:--cache=keep:--cache=cold" "--chunk:-c 4k:-c 8k" \
    "--phases:-p write:-p write,read" "--syncs:--syncs 10:--syncs 20" \
    "seekers mode:-S fork:-S thread" "--seekers:-S 2:-S 3"; do
	name=${v%%:*} rest=${v#*:}
	a=${rest%%:*} b=${rest#*:}
	t0=$(date +%s)
	mpi -np 1 "$BNM" -m $TAG -d "$T/a" -s 1m -c 4k -n 10 -p write -q $a : \
	    -np 1 "$BNM" -m $TAG -d "$T/b" -s 1m -c 4k -n 10 -p write -q $b \
	    >"$T/out" 2>"$T/err"
	st=$?
	took=$(($(date +%s) - t0))
	n=$(grep -c "^bonnie-ng: " "$T/err")
	[ $st -ne 0 ] && [ "$n" = 1 ] && [ $took -lt 60 ] &&
	    grep -q "^bonnie-ng: the ranks differ in $name: rank 1 (on [^)]*) has another value than rank 0" "$T/err"
	r=$?
	check "MPMD $a vs $b: refused in $took s, one line naming $name and rank 1" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
	check "MPMD $a vs $b: nothing measured, no file" \
	    $([ ! -s "$T/out" ] && no_test_files "$T/a" && no_test_files "$T/b"; echo $?)
done
for v in "missing:-d $T/missing" "bad option:-s junk"; do
	what=${v%%:*} b=${v#*:}
	t0=$(date +%s)
	mpi -np 1 "$BNM" -m $TAG -d "$T/a" -s 1m -c 4k -n 10 -p write -q : \
	    -np 1 "$BNM" -m $TAG -d "$T/b" -s 1m -c 4k -n 10 -p write -q $b \
	    >"$T/out" 2>"$T/err"
	st=$?
	took=$(($(date +%s) - t0))
	n=$(grep -c "^bonnie-ng: " "$T/err")
	[ $st -ne 0 ] && [ "$n" = 1 ] && [ $took -lt 60 ] &&
	    grep -q "^bonnie-ng: rank 1 on [^:]*: " "$T/err"
	r=$?
	check "rank 1 cannot start ($what): rank 0 names it and why, in $took s" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
done
# A failed removal on every rank: exit 1, every file named.
if [ -n "$INJECT" ]; then
	mpi -np 2 env LD_PRELOAD=$INJECT BN_FAULT=unlink:1+:EROFS "$BNM" -m $TAG \
	    -d "$T/a" -s 1m -c 4k -n 10 -p write -q >"$T/out" 2>"$T/err"
	st=$?
	nl=$(find "$T/a" -name 'bonnie-ng.*' | wc -l)
	named=0
	for f in $(find "$T/a" -name 'bonnie-ng.*'); do
		grep -q "could not be removed: $f: Read-only file system" \
		    "$T/err" && named=$((named + 1))
	done
	[ $st -ne 0 ] && [ "$nl" -eq 2 ] && [ "$named" -eq 2 ]
	check "MPI, a removal fails on each rank: exit non-zero ($st), both files named ($named of $nl)" $?
	rm -f "$T/a"/bonnie-ng.*
else
	skip "the fault library is not built: MPI removal failure"
fi

# A rank's CPU binding: mpirun ties each rank to a core or so by default
# (fewer CPUs than the host has when there are two or more), which the
# record gives for every worker and standard error says once; with
# --bind-to none each worker may use every CPU and nothing is said.
ncpu=$(getconf _NPROCESSORS_ONLN)
for bind in default none; do
	set -- -np 2
	[ $bind = none ] && set -- --bind-to none -np 2
	mpi "$@" "$BNM" -m $TAG -d "$T/shared" -s 4m -p write \
	    --json "$T/bind.json" >/dev/null 2>"$T/err"
	st=$?
	c=$(jq -r '[.runs[0].team.workers[].cpus_allowed] | map(tostring) | join(",")' "$T/bind.json" 2>/dev/null)
	low=$(jq -r --argjson n "$ncpu" '[.runs[0].team.workers[].cpus_allowed | select(. < $n)] | length' "$T/bind.json" 2>/dev/null)
	n=$(grep -c "may run on [0-9]* of its host's $ncpu CPUs (an mpirun binding)" "$T/err")
	if [ $bind = none ]; then
		[ $st -eq 0 ] && [ "$c" = "$ncpu,$ncpu" ] && [ "$n" = 0 ]
	else
		[ $st -eq 0 ] && [ -n "$low" ] &&
		    { { [ "$low" -gt 0 ] && [ "$n" = 1 ]; } ||
		    { [ "$low" = 0 ] && [ "$n" = 0 ]; }; }
	fi
	check "binding $bind: every worker's cpus_allowed in the record ($c of $ncpu), said once on stderr when fewer ($n)" $?
done

# Ctrl-C: mpirun gets SIGINT and stops the ranks; each removes its file.
# Open MPI sends SIGKILL odls_base_sigkill_timeout seconds (default 1)
# after SIGTERM; on a loaded machine a rank can need longer than that to
# remove its file, so the test gives it the time doc/SCALE.md advises.
timeout 60 mpirun --allow-run-as-root --oversubscribe --mca btl tcp,self \
    --mca odls_base_sigkill_timeout 10 \
    -np 4 "$BNM" -m $TAG -d "$T/a" -s 8m -p write,seeks -n 100000000 \
    >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(find "$T/a" -name 'bonnie-ng.*' | wc -l)" -lt 4 ]; do
	sleep 0.1; i=$((i + 1))
done
# Once the ranks write (rank 0's progress line), not after a time.
wait_for "$T/err" "Writing intelligently" 60
kill -INT $pid
wait $pid
st=$?
[ $st -ne 0 ] && [ $st -ne 124 ]
check "Ctrl-C: the job stops, non-zero (exit $st)" $?
check "Ctrl-C: no rank left" $(no_procs; echo $?)
check "Ctrl-C: every file removed" $(no_test_files "$T/a"; echo $?)
done_testing
