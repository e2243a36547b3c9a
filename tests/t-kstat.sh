#!/bin/sh
# The kernel's account of a phase, against independent meters: a loop
# device's iostat -x figures against sysstat's iostat over an interval
# that holds the whole run (the device idle otherwise), the vmstat deltas
# against /proc/vmstat read around the run, the process's read_bytes
# against the file's size; the small-request note with max_sectors_kb and
# read-ahead lowered; the reclaim note in a memory cgroup smaller than the
# file; a memory file system says it has no device.
# run.sh: alone: it turns a swap file on for the machine and times a loop
# device against iostat.
# run.sh: suites: plain: alone; the kernel's account is Linux's (/proc,
#   sysfs, cgroups)
. tests/lib.sh
scratch

# A record's read phase's kernel object.
K='.runs[0].phases.read.kernel'

# A memory file system: no device, and says why.
mkdir "$T/d"
"$BONNIE" -d "$T/d" -s 8m -p write,read -q --json "$T/m.json" >/dev/null \
    2>"$T/err"
check "a run records the kernel's account" $?
if grep -q ' /tmp tmpfs ' /proc/mounts || [ "$(stat -f -c %T "$T/d")" = tmpfs ]
then
	jq -e "$K | .disk == null and (.disk_why | test(\"memory file system\"))" \
	    "$T/m.json" >/dev/null
	check "tmpfs: disk is null and disk_why says a memory file system" $?
else
	jq -e "$K | (.disk != null and .disk[0].role == \"target\") or
	    (.disk_why | length > 0)" "$T/m.json" >/dev/null
	check "the target's device is named, or why not" $?
fi
# (The portable half's account: t-record.sh, which runs in that suite.)
if [ -r /proc/vmstat ]; then
	jq -e "$K | .vmstat != null and .span_s > 0 and
	    (.process.processes == 1)" "$T/m.json" >/dev/null
	check "vmstat deltas and the process's counters are there" $?
else
	skip "no /proc/vmstat"
fi
schema_ok "the record with its kernel objects matches doc/schema.json" "$T/m.json"

# -K: a table under the report; the classic header and row as without.
"$BONNIE" -d "$T/d" -s 8m -p write,read -q -m host >"$T/plain" 2>/dev/null
"$BONNIE" -d "$T/d" -s 8m -p write,read -q -m host -K >"$T/k" 2>/dev/null
check "-K: exit 0" $?
head -n 3 "$T/plain" >"$T/h1"
head -n 3 "$T/k" >"$T/h2"
# (The row's figures differ from run to run: its label and field count.)
cmp -s "$T/h1" "$T/h2" && [ "$(wc -l <"$T/plain")" -eq 4 ] &&
    [ "$(sed -n 4p "$T/plain" | awk '{ print $1, NF }')" = \
    "$(sed -n 4p "$T/k" | awk '{ print $1, NF }')" ]
check "-K: the header is byte for byte the same, the row in its place" $?
sed -n '5,$p' "$T/k" | awk 'NR == 1 && $0 != "" { exit 1 }
    NR == 2 && $0 != "The kernel'"'"'s account:" { exit 1 }
    NR == 3 && $1 != "phase" { exit 1 }
    NR == 5 && !/the device.s.*the machine.s.*the run.s/ { exit 1 }
    NR >= 6 { n[$1] = 1 } END { exit !(n["write"] && n["read"] && NR == 7) }'
check "-K: the table under it, whose columns say whose, has a line for write and one for read" $?
"$BONNIE" -d "$T/d" -s 8m -p write -q -K -o json | jq -e . >/dev/null
check "-K with -o json: standard output is still one JSON document" $?

# --interval: a bad value is one line and exit 2 before any file.
for bad in 5x 1ms 61s -1 ""; do
	mkdir "$T/bad"
	"$BONNIE" -d "$T/bad" -s 8m --interval "$bad" >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "^bonnie-ng: invalid value for --interval: " "$T/err" &&
	    [ -z "$(ls -A "$T/bad")" ] && [ ! -s "$T/out" ]
	check "--interval '$bad': one line, exit 2, no file made" $?
	rmdir "$T/bad"
done
# The timeline: samples in time order, the work done never falls and
# ends at the phase's bytes; --interval 0 has none.
"$BONNIE" -d "$T/d" -s 32m -p write,read -q --interval 20ms \
    --json "$T/tl.json" >/dev/null 2>&1
jq -e '.runs[0].phases.write.kernel.timeline as $t | $t.merged == 1 and
    ($t.samples | length) >= 2 and
    ([$t.samples[] | .[0]] | . == sort) and
    ([$t.samples[] | .[1]] | . == sort) and
    $t.samples[-1][1] == 33554432 and $t.interval_s == 0.02' "$T/tl.json" \
    >/dev/null
check "timeline: time and work done in order, ending at the 32 MiB written" $?
jq -e '.runs[0].phases.write.kernel.dirty.samples >=
    (.runs[0].phases.write.kernel.timeline.samples | length)' \
    "$T/tl.json" >/dev/null
check "timeline: the dirty peak and mean are the sampler's" $?
# -j 2: the leader's timeline counts both workers' bytes.
"$BONNIE" -d "$T/d" -s 16m -j 2 -p write -q --interval 20ms \
    --json "$T/tlj.json" >/dev/null 2>&1
jq -e '.runs[0].phases.write.kernel.timeline.samples[-1][1] == 33554432' \
    "$T/tlj.json" >/dev/null
check "-j 2: the timeline's work done is both workers' 2 x 16 MiB" $?
# report -o html: the account as a table and a timeline chart per phase.
"$BONNIE" report -o html "$T/tl.json" >"$T/r.html" 2>"$T/err"
check "report -o html of a record with timelines: exit 0" $?
[ "$(grep -c '^<h2>write: timeline</h2>$\|^<h2>read: timeline</h2>$' \
    "$T/r.html")" -eq 2 ] && grep -q "run 1: the kernel's account</h2>" \
    "$T/r.html" && grep -q '<th>rareq-sz</th>' "$T/r.html"
check "report -o html: the account's table and a chart for write and read" $?
if have xmllint; then
	xmllint --noout "$T/r.html" 2>"$T/err"
	check "report -o html: still well-formed XML" $?
else
	skip "xmllint is not installed"
fi
"$BONNIE" -d "$T/d" -s 8m -p write -q --interval 0 --json "$T/tl0.json" \
    >/dev/null 2>&1
jq -e '.runs[0].phases.write.kernel | has("timeline") | not' "$T/tl0.json" \
    >/dev/null
check "--interval 0: no timeline" $?
schema_ok "a record with timelines matches doc/schema.json" "$T/tl.json"
# A sample is one line of the record, at most 120 bytes with its newline;
# a record written one number a line (as records were before the rows)
# still reads, to the same report.
n=$(jq '[.runs[0].phases[].kernel.timeline.samples | length] | add' \
    "$T/tl.json")
rows=$(grep -c '^ *\[[0-9.e+-]*\(, [0-9.e+-]*\|, null\)\{5\}\],\{0,1\}$' \
    "$T/tl.json")
long=$(grep '^ *\[[0-9.e+-]*, ' "$T/tl.json" | awk 'length($0) >= 120' |
    wc -l)
[ "$n" -ge 4 ] && [ "$rows" -eq "$n" ] && [ "$long" -eq 0 ]
check "timeline: each of the $n samples one line of under 120 bytes" $?
mkdir "$T/old"
jq . "$T/tl.json" >"$T/old/tl.json"
[ "$(grep -c '^ *\[$' "$T/old/tl.json")" -ge "$n" ] &&
    (cd "$T" && "$BONNIE" report -o html tl.json) >"$T/r-new.html" &&
    (cd "$T/old" && "$BONNIE" report -o html tl.json) >"$T/r-old.html" &&
    cmp -s "$T/r-new.html" "$T/r-old.html"
check "a record with a sample's numbers one a line reads to the same report" $?
# A sampler is a fork of the run, with its command line.
# ("[-]d": the pattern does not match pgrep's own shell.)
ok "no sampler left behind" sh -c "! pgrep -f -- '[-]d $T/d' >/dev/null"

if ! is_root || ! have losetup || ! have mkfs.ext4 || ! have jq; then
	skip "iostat: needs root, losetup, mkfs.ext4 and jq"
	skip "vmstat: needs root, losetup, mkfs.ext4 and jq"
	skip "small requests: needs root, losetup, mkfs.ext4 and jq"
	skip "reclaim: needs root, losetup, mkfs.ext4 and jq"
	done_testing
	exit
fi

M=$T/mnt
mkdir "$M"
truncate -s 256m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1
LOOP=""
CG=""
RAW=""
HOG=""
SWAP=""
undo() {
	[ -n "$HOG" ] && kill "$HOG" 2>/dev/null && wait "$HOG" 2>/dev/null
	[ -n "$SWAP" ] && swapoff "$SWAP" 2>/dev/null
	# The cgroup goes once its last process has left it: until then.
	cgroup_remove "$CG"
}
# The loop devices and the mount go with the scratch directory, held or
# not (T_LOOPS, T_MOUNTS).
trap 'undo; cleanup_scratch' EXIT
LOOP=$(losetup -f --show --direct-io=on "$T/img" 2>/dev/null) &&
    T_LOOPS=$LOOP && mount "$LOOP" "$M" 2>/dev/null && T_MOUNTS=$M || {
	skip "iostat: losetup or mount failed"
	done_testing
	exit
}
N=${LOOP#/dev/}

# 1. iostat -x over an interval holding the whole run: its per-request
# figures and totals are the phase's, since nothing else reads the device
# (a raw loop device, --device: no file system's own reads beside).
if have iostat && iostat -V 2>&1 | grep -q 'sysstat version 1[2-9]' &&
    truncate -s 96m "$T/raw" &&
    RAW=$(losetup -f --show --direct-io=on "$T/raw" 2>/dev/null) &&
    T_LOOPS="$T_LOOPS $RAW"; then
	RN=${RAW#/dev/}
	# iostat's interval: the read of 64 MiB takes well under a second.
	IV=4
	udevadm settle 2>/dev/null
	iostat -x -d -y -o JSON "$RN" $IV 1 >"$T/io.json" 2>&1 &
	ipid=$!
	# Wait until iostat has taken its first reading (it read a file).
	i=0
	while [ $i -lt 200 ] && [ "$(awk '/^rchar/ { print $2 }' \
	    /proc/$ipid/io 2>/dev/null || echo 0)" -lt 1 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	v0=$(awk '$1 == "pgpgin" { print $2 }' /proc/vmstat)
	"$BONNIE" --device "$RAW" -s 64m -c 64k -p read -q \
	    --json "$T/io-run.json" >/dev/null 2>"$T/err"
	st=$?
	v1=$(awk '$1 == "pgpgin" { print $2 }' /proc/vmstat)
	if kill -0 $ipid 2>/dev/null; then
		wait $ipid
		check "the read of $RN ran within iostat's interval" $st
		jq -e --slurpfile io "$T/io.json" --arg n "$RN" --argjson iv $IV "
		    ($K.disk[] | select(.role == \"target\")) as \$b |
		    (\$io[0].sysstat.hosts[0].statistics[0].disk[] |
		     select(.disk_device == \$n)) as \$s |
		    ($K.span_s) as \$t |
		    def near(a; b; tol): ((a - b) | fabs) <= tol * ([a, b] | max) + 0.05;
		    near(\$b[\"r/s\"] * \$t; \$s[\"r/s\"] * \$iv; 0.05) and
		    near(\$b[\"rkB/s\"] * \$t; \$s[\"rkB/s\"] * \$iv; 0.05) and
		    near(\$b[\"rareq-sz\"]; \$s[\"rareq-sz\"]; 0.05) and
		    (near(\$b[\"r_await\"]; \$s[\"r_await\"]; 0.10) or
		     (\$s[\"r/s\"] * \$iv >= \$b[\"r/s\"] * \$t + 0.5 and
		      \$b[\"r_await\"] * \$b[\"r/s\"] * \$t <=
		      \$s[\"r_await\"] * \$s[\"r/s\"] * \$iv * 1.1 + 1)) and
		    ((\$b.rrqm - \$s.rrqm) | fabs) <= 2" \
		    "$T/io-run.json" >/dev/null
		# r_await: the same mean, or, where iostat's interval held a
		# read outside the phase's span (the tool's own look at the
		# device, slow on a loaded machine), no more wait in all.
		check "iostat -x agrees: reads, kB read, rareq-sz, r_await, %rrqm" $?
		diag "bonnie-ng: $(jq -c "$K | .disk[0] + {span_s} | {span_s, \"r/s\", \"rareq-sz\", r_await, util}" "$T/io-run.json")"
		diag "iostat:    $(jq -c --arg n "$RN" '.sysstat.hosts[0].statistics[0].disk[] | select(.disk_device == $n) | {"r/s", "rareq-sz", r_await, util}' "$T/io.json")"
	else
		skip "iostat: the run outlasted iostat's $IV s interval (a slow machine)"
	fi
	# 2. /proc/vmstat around the run holds the phase's own delta, which
	# is at least the file read (pgpgin is in KiB).
	jq -e --argjson d "$((v1 - v0))" "$K.vmstat.pgpgin as \$p |
	    \$p >= 0.95 * 65536 and \$p <= \$d" "$T/io-run.json" >/dev/null
	check "vmstat: the phase's pgpgin is the file at least and within /proc/vmstat's delta around the run ($((v1 - v0)) KiB)" $?
	# read_bytes counts the bios the process caused: the 64 MiB and the
	# read-ahead past them, which the device read too.
	jq -e "$K | .process.read_bytes as \$r |
	    (.disk[0][\"rkB/s\"] * .span_s * 1024) as \$d |
	    \$r >= 0.95 * 67108864 and ((\$r - \$d) | fabs) <= 0.05 * \$d" \
	    "$T/io-run.json" >/dev/null
	check "process: read_bytes is at least the 64 MiB and what the device read within 5%" $?
	scratch_detach "$RAW" && RAW=""
else
	skip "iostat: sysstat 12 or later is not installed"
	skip "vmstat: needs the iostat run"
	skip "process: needs the iostat run"
fi

# 3. Requests much smaller than the chunk: the device splits them.
ra=$(blockdev --getra "$LOOP")
msk=$(cat /sys/block/$N/queue/max_sectors_kb)
"$BONNIE" -d "$M" -s 32m -c 64k -p read -q --json "$T/big.json" >/dev/null 2>&1
if blockdev --setra 8 "$LOOP" && echo 8 >/sys/block/$N/queue/max_sectors_kb
then
	"$BONNIE" -d "$M" -s 32m -c 64k -p read --json "$T/small.json" \
	    >/dev/null 2>"$T/err"
	check "small requests: the run succeeds" $?
	jq -e "$K | (.disk[0][\"rareq-sz\"] <= 8.01) and
	    ([.notes[].kind] | index(\"small_requests\") != null)" \
	    "$T/small.json" >/dev/null
	check "small requests: rareq-sz <= 8 KiB and the record notes it" $?
	grep -q "^bonnie-ng: warning: phase read: requests reached $N much smaller than the 64 KiB chunk" "$T/err"
	check "small requests: said on stderr" $?
	blockdev --setra "$ra" "$LOOP"
	echo "$msk" >/sys/block/$N/queue/max_sectors_kb
	# compare names the mechanism: the request size, first.  Whether
	# 4 KiB requests make this loop device slower depends on what is
	# under it (the host caches it again), so the small side's read rate
	# is set to half the big side's in a copy (half its own could still
	# be the faster when a loaded host slows the big side's device): its
	# kernel figures stay the ones measured.
	jq --slurpfile b "$T/big.json" '$b[0].runs[0].phases.read as $r |
	    .runs[].phases.read |= (.rate = $r.rate / 2 |
	    .kps = ($r.kps / 2 | floor) | .elapsed_s = $r.elapsed_s * 2)' \
	    "$T/small.json" >"$T/small2.json" &&
	    mv "$T/small2.json" "$T/small.json"
	"$BONNIE" compare "$T/big.json" "$T/small.json" >"$T/cmp" 2>&1
	grep -Eq '^read -[0-9.]*% worse: .*rareq-sz [0-9.]* [KMG]iB -> [0-9.]* KiB \(-[0-9]*%\).*\(single runs\)$' "$T/cmp"
	check "compare: 'read ... worse: ... rareq-sz A MiB -> B KiB (...)' under the table" $?
	diag "$(grep '^read ' "$T/cmp" | tail -n 1)"
	"$BONNIE" compare -o json "$T/big.json" "$T/small.json" >"$T/cmp.json"
	jq -e '.columns[] | select(.name == "read") | .new[0] |
	    .verdict == "worse" and .kernel_moved.method == "single runs" and
	    any(.kernel_moved.figures[]; .name == "rareq-sz" and .new <= 8.01)' \
	    "$T/cmp.json" >/dev/null
	check "compare -o json: kernel_moved names rareq-sz" $?
	# A side that made no reads has no read size and no read wait
	# (iostat prints 0 for both): never "rareq-sz 4.0 -> 0 KiB".  The
	# base's read phase, with its reads set in one copy and none in the
	# other, which also halves its rate.
	jq '.runs[].phases.read.kernel.disk[0] |= (.["r/s"] = 50 |
	    .["rareq-sz"] = 4 | .r_await = 900)' "$T/big.json" >"$T/r1.json"
	jq '.runs[].phases.read |= (.rate /= 2 | .kps = (.kps / 2 | floor) |
	    .elapsed_s *= 2) | .runs[].phases.read.kernel.disk[0] |=
	    (.["r/s"] = 0 | .["rareq-sz"] = 0 | .r_await = 0 | .rrqm = 0)' \
	    "$T/big.json" >"$T/r0.json"
	"$BONNIE" compare -o json "$T/r1.json" "$T/r0.json" >"$T/cmp0.json"
	jq -e '.columns[] | select(.name == "read") | .new[0] |
	    .verdict == "worse" and all(.kernel_moved.figures[];
	    .name != "rareq-sz" and .name != "r_await" and .name != "rrqm")' \
	    "$T/cmp0.json" >/dev/null
	check "compare: no request size or wait named for a side without reads" $?
else
	skip "small requests: cannot lower read-ahead or max_sectors_kb"
	skip "small requests: cannot lower read-ahead or max_sectors_kb"
	skip "small requests: cannot lower read-ahead or max_sectors_kb"
	skip "small requests: cannot lower read-ahead or max_sectors_kb"
fi

# 4. A sync mount: compare names the flushes (f per GiB written) or the
# small writes that made the write phase slower: their size (wareq-sz) or
# their count per GiB (w/GiB, 50 times as many: seen at load 30 beside
# stress-ng, when the process's and the machine's counters, moving
# more, held the size out of the four names).
"$BONNIE" -d "$M" -s 16m -p write -q --json "$T/async.json" >/dev/null 2>&1
if mount -o remount,sync "$M"; then
	"$BONNIE" -d "$M" -s 16m -p write -q --json "$T/sync.json" \
	    >/dev/null 2>&1
	mount -o remount,async "$M"
	"$BONNIE" compare "$T/async.json" "$T/sync.json" >"$T/cmp-sync" 2>&1
	grep -Eq '^write -[0-9.]*% worse: .*(f/GiB [0-9.k]* -> [0-9.k]*|wareq-sz [0-9.]* [KMG]iB -> [0-9.]* KiB|[^a-z]w/GiB [0-9.k]* -> [0-9.k]* \(\+[0-9]{3,}%\))' \
	    "$T/cmp-sync"
	check "a sync mount: compare names the flushes or the write size" $?
	diag "$(sed -n '/^What moved/,/^$/p' "$T/cmp-sync" | grep '^write ')"
else
	skip "a sync mount: remount failed"
fi

# 5. Limit reclaim: a memory cgroup smaller than the file, --cache=keep.
if [ -w /sys/fs/cgroup/memory ] && [ -e /sys/fs/cgroup/memory/memory.stat ]
then
	CG=/sys/fs/cgroup/memory/bonnie-ng-t-kstat.$$
	mkdir "$CG" && echo $((48 << 20)) >"$CG/memory.limit_in_bytes"
	sh -c "echo \$\$ >$CG/tasks && exec \"$BONNIE\" -d $M -s 128m \
	    -p write,read --cache=keep --json $T/cg.json" >/dev/null 2>"$T/err"
	check "reclaim: the run in a 48 MiB cgroup succeeds" $?
	# The run's own cgroup is under the one it was started in, whose
	# limit bounds it: that cgroup's failcnt (read here too) is the
	# limit's hits.
	jq -e --arg cg "/bonnie-ng-t-kstat.$$" "$K | (.cgroup.path |
	    startswith(\$cg + \"/bonnie-ng.\")) and .cgroup.own and
	    .cgroup.version == 1 and .cgroup.limit.path == \$cg and
	    .cgroup.limit.failcnt > 0 and ([.notes[] | select(.kind ==
	    \"reclaim\" and .scope == \"run\")] | length == 1)" \
	    "$T/cg.json" >/dev/null
	check "reclaim: the run's own cgroup under the limit's, its hits, a note of the run's" $?
	jq -e --argjson f "$(cat "$CG/memory.failcnt")" '[.runs[0].phases[] |
	    select(. != null) | .kernel.cgroup.limit.failcnt] | add <= $f' \
	    "$T/cg.json" >/dev/null
	check "reclaim: the phases' hits within the cgroup's own memory.failcnt" $?
	grep -q "^bonnie-ng: warning: phase read: reclaim stalled this run .*the memory cgroup /bonnie-ng-t-kstat.$$ that bounds the run hit its limit" "$T/err"
	check "reclaim: said on stderr" $?
	cgroup_remove "$CG" && CG=""
else
	skip "reclaim: no writable cgroup v1 memory controller"
	skip "reclaim: no writable cgroup v1 memory controller"
	skip "reclaim: no writable cgroup v1 memory controller"
	skip "reclaim: no writable cgroup v1 memory controller"
fi
# 6. Swap: a memory hog beside the run in a 96 MiB cgroup, a swap file
# on: the phases say the machine swapped, and the record has pswpout.
SWAP=$T/swapfile HOG=""
if [ -w /sys/fs/cgroup/memory ] && have stress-ng && have mkswap &&
    dd if=/dev/zero of="$SWAP" bs=1M count=256 status=none &&
    chmod 600 "$SWAP" && mkswap "$SWAP" >/dev/null 2>&1 &&
    swapon "$SWAP" 2>/dev/null; then
	CG=/sys/fs/cgroup/memory/bonnie-ng-t-swap.$$
	mkdir "$CG" && echo $((96 << 20)) >"$CG/memory.limit_in_bytes"
	sh -c "echo \$\$ >$CG/tasks && exec stress-ng --vm 1 --vm-bytes 128m \
	    --vm-keep -t 60 --quiet" >/dev/null 2>&1 &
	HOG=$!
	# Wait until the hog is being swapped out.
	i=0 o=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) n=$o
	while [ $i -lt 100 ] && [ "$n" -le "$((o + 256))" ]; do
		sleep 0.1
		i=$((i + 1))
		n=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	done
	sh -c "echo \$\$ >$CG/tasks && exec \"$BONNIE\" -d $M -s 64m \
	    -p write,read --json $T/swap.json" >/dev/null 2>"$T/err"
	check "swap: the run beside a swapped hog succeeds" $?
	kill "$HOG" 2>/dev/null
	wait "$HOG" 2>/dev/null
	HOG=""
	jq -e '[.runs[0].phases[] | select(. != null) | .kernel |
	    select(([.notes[].kind] | index("swap")) != null and
	    (.vmstat.pswpout // 0) + (.vmstat.pswpin // 0) > 0)] | length > 0' \
	    "$T/swap.json" >/dev/null
	check "swap: a phase notes that the machine swapped, with pswpout/pswpin" $?
	# The run shares the hog's limit here: whether it paid is its own
	# figures' to say; the note says one or the other.
	grep -Eq "^bonnie-ng: warning: phase [a-z]*: (the machine swapped \(pswpin [0-9]*, pswpout [0-9]* pages\); this run's own processes did not wait|this run paid for swapping \(.*\): its figures include paging; the machine swapped pswpin [0-9]*, pswpout [0-9]* pages)" "$T/err"
	check "swap: said on stderr, with who paid" $?
	i=0
	while [ $i -lt 100 ] && [ -s "$CG/tasks" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cgroup_remove "$CG" && CG=""
	swapoff "$SWAP" && rm -f "$SWAP"
else
	[ -e "$SWAP" ] && rm -f "$SWAP"
	skip "swap: needs a cgroup v1 memory controller, stress-ng and a swap file"
fi
ok "no test file left" no_test_files "$M"

done_testing
