#!/bin/sh
# compare --bisect under a real git bisect run.  The test makes a git
# history of nine commits, each holding the knob of a loop device the
# test makes here (over a file, with direct I/O to it): read-ahead 4096
# KiB, except that commit 7 plants a slowdown (read-ahead 0: every block
# read is a request of its own, 8 to 100 times slower here) and commit 5
# a run that fails (a size the device cannot hold: bonnie-ng refuses it
# and writes no record).  On a busy machine the block read of 8 MiB runs
# at 70 to 950 MB/s at read-ahead 4096 KiB and at 4 to 5 MB/s at 0, so the
# script gates block read at -t 90: only a change of ten times counts,
# and the planted one is 15 times or more.  On the AMD kind (session 12)
# read-ahead 0 reads at 43 to 69 MB/s and 4096 KiB at 470 to 1950 idle:
# 7 to 45 times, a thinner margin; once under CI's load a run at
# read-ahead 0 read at 384 MB/s against a base of 105 and the bisect named
# commit 9, so each step's reads, their request size at the device, the
# cache mode and the loop's dio go to the diagnostics (tested).
# git bisect run, with a script that applies the
# commit's knob, runs bonnie-ng and calls compare --bisect against a base
# measured at the first commit, must name commit 7 as the first bad one,
# having skipped commit 5 (exit 125).  Then each exit status of the
# contract on its own: 0 good, 1 bad, 125 for a missing or unusable
# record and for sides that are not comparable, 255 for a usage error
# (git bisect run stops on it), --bisect=strict's 125 for inconclusive.
# The loop device is the test's own and is detached on every way out.
# run.sh: long: a bisect of nine commits runs bonnie-ng five to seven times
# compare --bisect's statuses are t-compare's and t-compare-pool's under the
# sanitizers; this is git bisect run driving them, in the plain build (the
# portable build refuses --device: it cannot tell whether one is in use).
# run.sh: suites: plain: git bisect run driving compare --bisect, whose
#   statuses t-compare and t-compare-pool check in every suite
. tests/lib.sh
scratch

have() { command -v "$1" >/dev/null 2>&1; }

if ! is_root || ! have losetup || ! have git || ! have jq; then
	skip "compare --bisect under git bisect run: needs root, losetup, git and jq"
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
RA=/sys/block/${L#/dev/}/queue/read_ahead_kb
DIO=/sys/block/${L#/dev/}/loop/dio
# A record's block reads for the diagnostics: K/s, rareq-sz, cache mode.
cat >"$T/reads.jq" <<'JQ'
[.runs[].phases.read | [(.rate // 0 | floor), .kernel.disk[0]["rareq-sz"],
    .cache]]
JQ

# The script git bisect run calls in the checked-out commit: its knob on
# the device, a run, and the verdict on block read against the base.
cat >"$T/measure.sh" <<EOF
#!/bin/sh
knob=\$(cat knob)
rm -f "$T/new.json"
size=8m
case \$knob in
fail)	size=1g ;;
*)	echo "\$knob" >"$RA" || exit 255 ;;
esac
"$BONNIE" --device "$L" -p write,read -s \$size -x 3 -q --json "$T/new.json" >/dev/null 2>>"$T/runs.err"
# What a wrong verdict needs to be understood: each run's block read
# (reads.jq) and the loop's dio.
echo "\$(git rev-parse --short HEAD) \$knob dio \$(cat "$DIO" 2>/dev/null)" \
    "\$(jq -c -f "$T/reads.jq" "$T/new.json" 2>/dev/null)" >>"$T/tested"
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
	7|8|9)	echo 0 ;;
	*)	echo 4096 ;;
	esac >"$R/knob"
	echo "$i" >"$R/commit"
	git -C "$R" add knob commit
	git -C "$R" commit -q -m "commit $i"
	eval "c$i=\$(git -C \"\$R\" rev-parse HEAD)"
done

echo 4096 >"$RA"
"$BONNIE" --device "$L" -p write,read -s 8m -x 3 -q --json "$T/base.json" \
    >/dev/null 2>"$T/err"
check "the base: three runs at read-ahead 4096 KiB" $?
echo "base 4096 dio $(cat "$DIO" 2>/dev/null)" \
    "$(jq -c -f "$T/reads.jq" "$T/base.json" 2>/dev/null)" >"$T/tested"

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
echo 0 >"$RA"
"$BONNIE" --device "$L" -p write,read -s 8m -x 3 -q --json "$T/slow.json" \
    >/dev/null 2>&1
echo 4096 >"$RA"
run compare --bisect -F read "$T/base.json" "$T/slow.json"
check "read-ahead 0: exit 1 (bad)" "$([ $status -eq 1 ]; echo $?)"
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
