#!/bin/sh
# compare's "what moved in the kernel's account", on copies of one run's
# record whose kernel objects jq sets to what the experiments of
# doc/EXPERIMENTS.md measured: ext4's data=journal (the device writes
# every byte twice, among larger moves of small counts), a run in a v1
# memory cgroup with a memory hog (the file read again from the device;
# v1's total_ counters; the machine's refaults beside the cgroup's; the
# machine's pressure).  Each figure is named once, with its unit.
# run.sh: suites: plain sanitized: the kernel's account is Linux's
. tests/lib.sh
scratch

mkdir "$T/d"
"$BONNIE" -d "$T/d" -s 8m -p write,read -q --json "$T/r.json" >/dev/null 2>&1
check "a record to copy" $?

# The write phase of 8 MiB: base wrote it once in 1 MiB requests; new
# twice (8 -> 16 MiB in a 1 s span) in small merged requests, with more
# involuntary switches, minor faults and activations, at half the rate.
# The read phase: base from the cache; new from the device, its pages
# refaulted in the cgroup and in the machine, the cgroup at its limit,
# the machine's io and cpu pressure up.
jq '.runs[].phases.write.kernel = {span_s: 1,
	disk: [{disk_device: "loop9", role: "target", "r/s": 0, "rkB/s": 0,
	    "w/s": 8, "wkB/s": 8192, "wareq-sz": 1024, wrqm: 5, w_await: 5,
	    util: 50, "aqu-sz": 1, "f/s": 0, "d/s": 0, "dkB/s": 0}],
	vmstat: {pgactivate: 1}, process: {processes: 1, nvcsw: 10,
	    nivcsw: 1, minflt: 1, read_bytes: 0, write_bytes: 8388608},
	pressure: null, cgroup: null, notes: []} |
    .runs[].phases.read.kernel = {span_s: 1,
	disk: [{disk_device: "loop9", role: "target", "r/s": 0, "rkB/s": 0,
	    "w/s": 0, "wkB/s": 0, util: 0, "aqu-sz": 0, "f/s": 0, "d/s": 0,
	    "dkB/s": 0}],
	vmstat: {pgfree: 8}, process: {processes: 1, nvcsw: 10, nivcsw: 1,
	    minflt: 1, read_bytes: 0, write_bytes: 0},
	pressure: {io: {some_pct: 1, full_pct: 0},
	    memory: {some_pct: 0, full_pct: 0}, cpu: {some_pct: 10}},
	cgroup: {own: true, path: "/t", version: 1, "memory.stat": {pgpgin: 2,
	    total_pgpgin: 2}}, notes: []}' "$T/r.json" >"$T/base.json"
check "base: a copy with the accounts set" $?
jq '.runs[].phases.write |= (.rate /= 2 | .kps = (.kps / 2 | floor) |
	.elapsed_s *= 2) |
    .runs[].phases.read |= (.rate /= 2 | .kps = (.kps / 2 | floor) |
	.elapsed_s *= 2) |
    .runs[].phases.write.kernel.disk[0] |= (.["w/s"] = 48 |
	.["wkB/s"] = 16384 | .["wareq-sz"] = 341 | .wrqm = 99) |
    .runs[].phases.write.kernel.vmstat.pgactivate = 31 |
    .runs[].phases.write.kernel.process |= (.nivcsw = 73 | .minflt = 900) |
    .runs[].phases.read.kernel.disk[0] |= (.["r/s"] = 64 |
	.["rkB/s"] = 8192 | .["rareq-sz"] = 128 | .r_await = 2 |
	.util = 90) |
    .runs[].phases.read.kernel.vmstat |= (.workingset_refault_file = 2048 |
	.pgscan_file = 2048) |
    .runs[].phases.read.kernel.process.read_bytes = 8388608 |
    .runs[].phases.read.kernel.pressure |= (.io.full_pct = 50 |
	.cpu.some_pct = 100) |
    .runs[].phases.read.kernel.cgroup["memory.stat"] |= (.pgpgin = 2048 |
	.total_pgpgin = 2048 | .workingset_refault_file = 2048 |
	.total_workingset_refault_file = 2048 | .failcnt = 100)' \
    "$T/base.json" >"$T/new.json"
check "new: the same with what the experiments moved" $?

"$BONNIE" compare "$T/base.json" "$T/new.json" >"$T/cmp" 2>&1
"$BONNIE" compare -o json "$T/base.json" "$T/new.json" >"$T/cmp.json" 2>&1
diag "$(grep -E '^(write|read) ' "$T/cmp")"
F='.columns[] | select(.name == $c) | .new[0].kernel_moved.figures'

# data=journal: the device wrote every byte twice, a smaller move on a
# log scale than the counts of small events, but the mechanism.
grep -Eq '^write -[0-9.]*% worse: .*wkB/GiB 1\.0 GiB -> 2\.0 GiB \(\+100%\)' \
    "$T/cmp"
check "the device's bytes per GiB written are named when they doubled" $?
jq -e --arg c write "$F"' | any(.name == "wkB/GiB" and .unit == "KiB" and
    .base == 1048576 and .new == 2097152)' "$T/cmp.json" >/dev/null
check "... in -o json with their unit (KiB per GiB)" $?
schema_ok "-o json with units matches doc/schema.json's compare_record" \
    -d compare_record "$T/cmp.json"

# The cgroup: its own counters once, not again as total_; the machine's
# workingset_refault_file not beside the cgroup's.
jq -e --arg c read "[$F | .[].name] |
    (index(\"workingset_refault_file/GiB\") == null)" "$T/cmp.json" \
    >/dev/null
check "the machine's refaults are not named again beside the cgroup's" $?
grep -Eq '^read -[0-9.]*% worse: rkB/GiB 0 -> 1\.0 GiB' "$T/cmp"
check "read from the device: 'rkB/GiB 0 -> 1.0 GiB' first" $?
jq -e --arg c read "[$F | .[].name] | index(\"rkB/GiB\") != null and
    index(\"read_bytes/GiB\") == null" "$T/cmp.json" >/dev/null
check "... and not again as the process's read_bytes, which moved alike" $?

# Pressure is the machine's (/proc/pressure): beside three of the run's
# own figures that moved less, one of its figures at most, not io full
# and cpu some both.
jq '.runs[].phases.read.kernel.disk[0] |= (.["r/s"] = 64 |
	.["rkB/s"] = 4096 | .["rareq-sz"] = 64 | .r_await = 0.04)' \
    "$T/base.json" >"$T/basep.json"
jq '.runs[].phases.read |= (.rate /= 2 | .kps = (.kps / 2 | floor) |
	.elapsed_s *= 2) |
    .runs[].phases.read.kernel.disk[0] |= (.["rkB/s"] = 8192 |
	.["rareq-sz"] = 128 | .util = 30 | .r_await = 20) |
    .runs[].phases.read.kernel.process |= (.nvcsw = 40 | .minflt = 4) |
    .runs[].phases.read.kernel.pressure |= (.io.full_pct = 50 |
	.cpu.some_pct = 100)' "$T/basep.json" >"$T/newp.json"
"$BONNIE" compare -o json "$T/basep.json" "$T/newp.json" >"$T/cmpp.json" 2>&1
jq -e --arg c read "[$F | .[] | select(.name | test(\"^(io|memory|cpu) \"))]
    | length <= 1" "$T/cmpp.json" >/dev/null
check "the machine's pressure is one figure at most, as the machine's" $?
"$BONNIE" compare "$T/basep.json" "$T/newp.json" >"$T/cmpp" 2>&1
grep -Eq '^read .*r_await 0\.04 ms -> 20 ms' "$T/cmpp"
check "a wait under 1 ms keeps two digits: 'r_await 0.04 ms', not '0.0 ms'" $?

# Units of the process's bytes and of v1's charges.
jq '.runs[].phases.read.kernel.disk[0] |= (.["r/s"] = 0 |
	.["rkB/s"] = 0 | .util = 0) |
    .runs[].phases.read.kernel.cgroup["memory.stat"] |= {pgpgin,
	total_pgpgin, failcnt} |
    .runs[].phases.read.kernel.vmstat = {} |
    .runs[].phases.read.kernel.pressure = null' "$T/new.json" >"$T/new2.json"
"$BONNIE" compare "$T/base.json" "$T/new2.json" >"$T/cmp2" 2>&1
diag "$(grep '^read ' "$T/cmp2")"
grep -Eq '^read .*read_bytes/GiB 0 -> 1\.0 GiB' "$T/cmp2"
check "the process's read_bytes per GiB in bytes: '0 -> 1.0 GiB'" $?
# A record made before a counter of the process was (none of its
# write_bytes): not known there, not 0, so not "0 -> 2.0 GiB".
# new2w: base, its write phase's write_bytes 100 times as many.
jq 'del(.runs[].phases.write.kernel.process.write_bytes)' "$T/base.json" \
    >"$T/older.json"
jq '.runs[].phases.write.kernel.process.write_bytes = 838860800' \
    "$T/base.json" >"$T/new2w.json"
"$BONNIE" compare "$T/base.json" "$T/new2w.json" >"$T/cmpw" 2>&1
"$BONNIE" compare "$T/older.json" "$T/new2w.json" >"$T/cmpo" 2>&1
grep -q '^write .*write_bytes/GiB 1\.0 GiB -> 100 GiB' "$T/cmpw" &&
    ! grep -q 'write_bytes' "$T/cmpo"
check "a process counter one record lacks is not known, not '0 -> 100 GiB'" $?
diag "$(grep write_bytes "$T/cmpw")"
grep -Eq '^read .*memory\.stat:pgpgin/GiB 256 charges -> 262\.1k charges' \
    "$T/cmp2"
check "v1's memory.stat pgpgin in charges, not pages" $?
"$BONNIE" compare -o json "$T/base.json" "$T/new2.json" >"$T/cmp2.json" 2>&1
jq -e --arg c read "[$F | .[].name] | any(. == \"memory.stat:pgpgin/GiB\")
    and all(test(\"total_\") | not)" "$T/cmp2.json" >/dev/null
check "v1's total_ counters are not named beside the cgroup's own" $?

# Three runs a side: the statistical path names the same.
for s in base new; do
	jq '.runs = [.runs[0], .runs[0], .runs[0]]' "$T/$s.json" >"$T/${s}3.json"
done
"$BONNIE" compare "$T/base3.json" "$T/new3.json" >"$T/cmp3" 2>&1
diag "$(grep '^write ' "$T/cmp3")"
grep -Eq '^write -[0-9.]*% worse: .*wkB/GiB 1\.0 GiB -> 2\.0 GiB.*\(3 and 3 runs, each moved at 95%\)$' \
    "$T/cmp3"
check "three runs a side: the doubled bytes named by the runs' test" $?
"$BONNIE" compare -o markdown "$T/base3.json" "$T/new3.json" >"$T/cmp3.md" \
    2>&1
grep -q 'wkB/GiB 1\.0 GiB -> 2\.0 GiB' "$T/cmp3.md"
check "... and in -o markdown" $?
# A sync mount's rewrite: the same bytes written (+2%, a real move at
# 95% over identical runs) among far larger moves: not named first.
jq '.runs[].phases.write.kernel.disk[0]["wkB/s"] = 8356' "$T/new3.json" \
    >"$T/new3b.json"
"$BONNIE" compare -o json "$T/base3.json" "$T/new3b.json" >"$T/cmp3b.json" \
    2>&1
jq -e --arg c write "[$F | .[].name] | length == 4 and
    index(\"wkB/GiB\") == null" "$T/cmp3b.json" >/dev/null
check "the device's bytes that moved by 2% are not put before larger moves" $?

# The minimum effect: identical runs but one byte more written a run, a
# real move by the runs' test (the same on every run), but +0%: not
# named, and no figure anywhere reads +0%.
jq '.runs[].phases.write.kernel.process.write_bytes += 1' "$T/base3.json" \
    >"$T/one3.json"
"$BONNIE" compare -o json "$T/base3.json" "$T/one3.json" >"$T/cmp1.json" 2>&1
jq -e '[.columns[].new[0].kernel_moved // {} | .figures // [] | .[] |
    select(.name | startswith("write_bytes"))] | length == 0' \
    "$T/cmp1.json" >/dev/null
check "a figure that moved by a byte in 8 MiB is not named (the minimum effect)" $?
"$BONNIE" compare "$T/base3.json" "$T/new3.json" "$T/one3.json" \
    >"$T/cmp1" 2>&1
! grep -q '(+0%)\|(-0%)' "$T/cmp1"
check "no figure named anywhere reads +0%" $?

# A column neither better nor worse (same, or single runs inconclusive)
# still says what moved a lot: the
# same rates, but the machine swapped 12k pages and the run's cgroup hit
# its limit in new.
jq '.runs[].phases.read.kernel.vmstat += {pswpout: 12000, pswpin: 1200} |
    .runs[].phases.read.kernel.cgroup.limit = {path: "/t", version: 1,
    failcnt: 16543}' "$T/base.json" >"$T/swap.json"
"$BONNIE" compare "$T/base.json" "$T/swap.json" >"$T/cmps" 2>&1
grep -Eq '^read \+0\.0% (same|inconclusive): .*pswpout/GiB 0 -> [0-9.]*[kM] .*\(machine\)' \
    "$T/cmps"
check "a column neither better nor worse: the swapping that moved a lot is still said, marked (machine)" $?
grep -Eq '^read \+0\.0% (same|inconclusive): .*memory\.failcnt/GiB 0 -> [0-9.]*[kM]' "$T/cmps"
check "... with the limit hits of the cgroup that bounds the run" $?
diag "$(grep '^read ' "$T/cmps" | tail -n 1)"
"$BONNIE" compare -o json "$T/base.json" "$T/swap.json" >"$T/cmps.json" 2>&1
jq -e '.columns[] | select(.name == "read") | .new[0] |
    (.verdict == "same" or .verdict == "inconclusive") and
    .kernel_moved.rule == "large" and
    (.kernel_moved.figures | length > 0) and
    (.kernel_moved.figures[0].scope == "run")' "$T/cmps.json" >/dev/null
check "-o json: rule large, the run's own figure first" $?
jq -e '.columns[] | select(.name == "write") | .new[0] |
    (.verdict == "same" or .verdict == "inconclusive") and
    .kernel_moved == null' "$T/cmps.json" >/dev/null
check "-o json: a column neither where nothing moved a lot: kernel_moved null" $?

# The machine's figures never lead while one of the run's moved: a sync
# mount's flushes beside another program's mlock (unevictable_pgs_rescued,
# far the larger move).
jq '.runs[].phases.write |= (.rate /= 2 | .kps = (.kps / 2 | floor) |
	.elapsed_s *= 2) |
    .runs[].phases.write.kernel.disk[0]["f/s"] = 1 |
    .runs[].phases.write.kernel.vmstat.unevictable_pgs_rescued = 6400' \
    "$T/base.json" >"$T/mlock.json"
jq '.runs[].phases.write.kernel.disk[0]["f/s"] = 0.05' "$T/base.json" \
    >"$T/mlock0.json"
"$BONNIE" compare -o json "$T/mlock0.json" "$T/mlock.json" \
    >"$T/cmpm.json" 2>&1
jq -e --arg c write "[$F | .[] | .scope] | length >= 2 and .[0] != \"machine\"
    and (index(\"machine\") as \$m | all(.[0:\$m][]; . != \"machine\"))" \
    "$T/cmpm.json" >/dev/null
check "a machine figure that moved more is named after the run's and the device's" $?
"$BONNIE" compare "$T/mlock0.json" "$T/mlock.json" >"$T/cmpm" 2>&1
grep -Eq '^write -50\.0% worse: f/GiB .*unevictable_pgs_rescued/GiB 0 -> [0-9.]*k \(machine\)' \
    "$T/cmpm"
check "... in the text: f/GiB first, unevictable_pgs_rescued marked (machine)" $?
diag "$(grep '^write ' "$T/cmpm" | tail -n 1)"
schema_ok "-o json with scopes and rules matches doc/schema.json's compare_record" \
    -d compare_record "$T/cmps.json"

done_testing
