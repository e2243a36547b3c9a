#!/bin/sh
# compare --bisect under a real git bisect run.  The test makes a git
# history of nine commits, each holding a knob for a loop device the test
# makes here (over a file, with direct I/O to it): commits 7 to 9 plant a
# slowdown, a read throttle of 2 MiB/s on the device (blk-throttle, in a
# cgroup of the test's own that each run joins: cgroup v1's
# blkio.throttle.read_bps_device, or v2's io.max rbps), and commit 5 a
# run that fails (a size the device cannot hold: bonnie-ng refuses it and
# writes no record).  The script gates block read at -t 90: only a drop to
# a tenth counts.  A throttle is a slowdown no load can hide: under CI's
# load the unthrottled block read ran at 57 to 211 MB/s (8 MiB, read-ahead
# 4096 KiB; 28 times the throttle or more) and under stress-ng at 207 to
# 1147 MiB/s, where the earlier plant, read-ahead 0, left a drop of only
# 64% and the bisect named commit 9.  Each step's
# reads, their request size at the device, the cache mode and the rule go
# to the diagnostics.
# git bisect run, with a script that applies the commit's knob, runs
# bonnie-ng and calls compare --bisect against a base measured at the
# first commit, must name commit 7 as the first bad one, having skipped
# commit 5 (exit 125).  Then each exit status of the contract on its own:
# 0 good, 1 bad, 125 for a missing or unusable record and for sides that
# are not comparable, 255 for a usage error (git bisect run stops on it),
# --bisect=strict's 125 for inconclusive.  The loop device and the cgroup
# are the test's own and go on every way out.
# run.sh: long: a bisect of nine commits runs bonnie-ng five to seven times,
#   the slow ones about 3 s each
# compare --bisect's statuses are t-compare's and t-compare-pool's under the
# sanitizers; this is git bisect run driving them, in the plain build (the
# portable build refuses --device: it cannot tell whether one is in use).
# run.sh: suites: plain: git bisect run driving compare --bisect, whose
#   statuses t-compare and t-compare-pool check in every suite
. tests/lib.sh
scratch

if ! is_root || ! have losetup || ! have git || ! have jq; then
	skip "compare --bisect under git bisect run: needs root, losetup, git and jq"
	done_testing
	exit
fi

# The throttle: a cgroup of the test's own in the hierarchy that has
# blk-throttle (v1's blkio, or a v2 whose root lets children use io), its
# rule file, and the rule's two forms.  The cgroup goes on every way out
# (cgroup_remove, once the last run has left it).
CG=
cg_rule=
if [ -w /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	CG=/sys/fs/cgroup/blkio/bonnie-ng-t-bisect.$$
	cg_rule=blkio.throttle.read_bps_device
	slow_rule=2097152 fast_rule=0
else
	v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	if [ -n "$v2" ] && grep -qw io "$v2/cgroup.subtree_control" 2>/dev/null; then
		CG=$v2/bonnie-ng-t-bisect.$$
		cg_rule=io.max
		slow_rule=rbps=2097152 fast_rule=rbps=max
	fi
fi
trap 'cgroup_remove "$CG"; cleanup_scratch' EXIT
if [ -z "$CG" ] || ! mkdir "$CG" 2>/dev/null; then
	skip "compare --bisect under git bisect run: no cgroup with a read throttle (v1 blkio, or v2 io enabled at the root)"
	done_testing
	exit
fi

# The loop device (T_LOOPS) goes with the scratch directory on every way
# out (scratch's traps).
L=
truncate -s 64M "$T/img"
if L=$(losetup -f --show --direct-io=on "$T/img" 2>/dev/null); then
	T_LOOPS=$L
else
	L=
	skip "losetup -f --direct-io=on failed"
	done_testing
	exit
fi
DEV=$(cat "/sys/block/${L#/dev/}/dev")
# A record's block reads for the diagnostics: K/s, rareq-sz, cache mode.
cat >"$T/reads.jq" <<'JQ'
[.runs[].phases.read | [(.rate // 0 | floor), .kernel.disk[0]["rareq-sz"],
    .cache]]
JQ

# A run in the throttle's cgroup (the script joins it, and bonnie-ng
# with it), the record to FILE; the commit, the knob, the rule in force
# and the block reads to the diagnostics (tested).
cat >"$T/run.sh" <<EOF
#!/bin/sh
# run.sh KNOB SIZE FILE: KNOB slow throttles, fast and fail do not.
rule=$fast_rule
[ "\$1" = slow ] && rule=$slow_rule
echo "$DEV \$rule" >"$CG/$cg_rule" && echo \$\$ >"$CG/cgroup.procs" || exit 255
rm -f "\$3"
"$BONNIE" --device "$L" -p write,read -s "\$2" -x 3 -q --json "\$3" \
    >/dev/null 2>>"$T/runs.err"
st=\$?
echo "commit \$(cat commit 2>/dev/null || echo base) \$1 \$rule" \
    "\$(jq -c -f "$T/reads.jq" "\$3" 2>/dev/null)" >>"$T/tested"
exit \$st
EOF
chmod +x "$T/run.sh"

# The script git bisect run calls in the checked-out commit: a run with
# its knob, and the verdict on block read against the base.
cat >"$T/measure.sh" <<EOF
#!/bin/sh
knob=\$(cat knob)
case \$knob in
fail)	"$T/run.sh" fail 1g "$T/new.json" ;;
*)	"$T/run.sh" "\$knob" 2m "$T/new.json" ;;
esac
"$BONNIE" compare --bisect -F read -t 90 "$T/base.json" "$T/new.json" >>"$T/compare.out" 2>&1
EOF
chmod +x "$T/measure.sh"

R=$T/repo
mkdir "$R"
git -C "$R" init -q
git -C "$R" config user.email test@bonnie-ng
git -C "$R" config user.name bonnie-ng
for i in 1 2 3 4 5 6 7 8 9; do
	case $i in
	5)	echo fail ;;
	7|8|9)	echo slow ;;
	*)	echo fast ;;
	esac >"$R/knob"
	echo "$i" >"$R/commit"
	git -C "$R" add knob commit
	git -C "$R" commit -q -m "commit $i"
	eval "c$i=\$(git -C \"\$R\" rev-parse HEAD)"
done

"$T/run.sh" fast 2m "$T/base.json"
check "the base: three runs unthrottled" $? || diag "$(cat "$T/runs.err")"

git -C "$R" checkout -q "$c9"
(cd "$R" && git bisect start "$c9" "$c1" >/dev/null &&
    git bisect run "$T/measure.sh") >"$T/bisect.out" 2>&1
bs=$?
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$T/bisect.out")
[ $bs -eq 0 ] && [ "$first" = "$c7" ]
check "git bisect run names the planted commit 7 ($(git -C "$R" log -1 --format=%s "$first" 2>/dev/null))" $? ||
    diag "$(cat "$T/bisect.out" "$T/tested" "$T/compare.out")"
(cd "$R" && git bisect log) >"$T/log" 2>&1
grep -q "^git bisect skip $c5" "$T/log"
check "the commit whose run failed was skipped (125)" $? ||
    diag "$(cat "$T/log")"
! grep -q "^git bisect \(good\|bad\) $c5" "$T/log"
check "and not called good or bad" $?
(cd "$R" && git bisect reset -q) 2>/dev/null

# Each exit status on its own, against the same base.
"$T/run.sh" slow 2m "$T/slow.json"
run compare --bisect -F read "$T/base.json" "$T/slow.json"
check "throttled to 2 MiB/s: exit 1 (bad)" "$([ $status -eq 1 ]; echo $?)" ||
    diag "$(cat "$T/tested")"
run compare --bisect -F read "$T/base.json" "$T/base.json"
check "the base against itself: exit 0 (good)" "$([ $status -eq 0 ]; echo $?)"
run compare --bisect -F read "$T/base.json" "$T/missing.json"
check "a missing record: exit 125 (cannot test)" "$([ $status -eq 125 ]; echo $?)"
printf '{"schema": "bonnie-ng/1"' >"$T/cut.json"
run compare --bisect -F read "$T/base.json" "$T/cut.json"
check "a record cut short: exit 125" "$([ $status -eq 125 ]; echo $?)"
jq '.runs[].interrupted = "SIGINT"' "$T/base.json" >"$T/failed.json"
run compare --bisect -F read "$T/base.json" "$T/failed.json"
check "a side whose runs all failed: exit 125" "$([ $status -eq 125 ]; echo $?)"
jq '.options.chunk = 4096' "$T/base.json" >"$T/chunk.json"
run compare --bisect -F read "$T/base.json" "$T/chunk.json"
check "sides not comparable (another chunk): exit 125" "$([ $status -eq 125 ]; echo $?)"
run compare --bisect -F nosuch "$T/base.json" "$T/base.json"
check "a usage error: exit 255, so that git bisect run stops" "$([ $status -eq 255 ]; echo $?)"
run compare --bisect --threshold=2000 "$T/base.json" "$T/base.json"
check "a value out of range: exit 255" "$([ $status -eq 255 ]; echo $?)"
# One run a side within the threshold is inconclusive: good, unless strict.
jq '.runs |= .[:1]' "$T/base.json" >"$T/one.json"
run compare --bisect -F read "$T/one.json" "$T/one.json"
check "inconclusive: exit 0 with --bisect" "$([ $status -eq 0 ]; echo $?)"
run compare --bisect=strict -F read "$T/one.json" "$T/one.json"
check "inconclusive: exit 125 with --bisect=strict" "$([ $status -eq 125 ]; echo $?)"
done_testing
