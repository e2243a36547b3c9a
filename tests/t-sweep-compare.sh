#!/bin/sh
# Sweeps side by side: compare of sweep records of the same axes gives a
# verdict per point and phase with compare's statistics (its test with
# 3 runs a side or more, the threshold with one) and its --fail-on, and
# lists the settings that differ; a sweep beside a run record, sweeps of
# other axes and -o other than text are refused; report of several
# sweeps heads each with its source and what differs from the first.
# The new sweep's reads are made slow by the fault injector (every read
# of the test file sleeps 2 ms first), so that its verdict is known.
. tests/lib.sh
. tests/fault/lib.sh
scratch

if [ -z "$INJECT" ] || ! command -v jq >/dev/null 2>&1; then
	skip "no fault injection library (Linux only) or no jq"
	done_testing
	exit
fi
mkdir "$T/d"
S="--sizes 1m..2m --chunks 64k,256k -p read --min-time 0.01 -q"

"$BONNIE" sweep -d "$T/d" $S -x 3 --json "$T/a.json" >/dev/null 2>&1
check "the base sweep runs" $?
BN_FAULT=read:1+:sleep=2000 LD_PRELOAD=$INJECT "$BONNIE" sweep -d "$T/d" \
    $S -x 3 --cache cold --json "$T/b.json" >/dev/null 2>&1
check "the slow sweep runs (reads slowed, cache cold)" $?

run compare "$T/a.json" "$T/b.json"
diag "$(cat "$T/out" "$T/err")"
[ $status -eq 1 ]
check "a phase worse at a point: exit 1 ($status)" $?
n=$(grep -c '^[12]M 64k\|^[12]M 256k' "$T/out")
w=$(grep -c ' worse    \(bootstrap\|mann-whitney\) ([0-9]* and 3)$' "$T/out")
[ "$n" -eq 4 ] && [ "$w" -eq 4 ]
check "every point of block read compared, worse by the runs' test ($w of $n)" $?
grep -q '^block read, K/sec: .*b.json against .*a.json$' "$T/out"
check "the table is headed by its phase and sources" $?
grep -q '^Settings that differ (base | new):$' "$T/out" &&
    grep -q '^  cache  *keep | cold$' "$T/out"
check "the settings that differ are listed (cache keep | cold)" $?
grep -q '^result: worse (worse read at 1M 64k, worse read at 1M 256k, worse read at 2M 64k, worse read at 2M 256k)$' "$T/out"
check "the result line names every worse point" $?
# The base's medians are the sweep's own figures.
m=$(jq -r '.points[0].stats.read.median | floor' "$T/a.json")
grep -q "^1M 64k  *$m " "$T/out"
check "the base value is the point's median ($m)" $?

run compare --fail-on write "$T/a.json" "$T/b.json"
[ $status -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
    grep -q 'compare: -F write: no input has that column' "$T/err"
check "--fail-on write (not swept): refused as for runs, exit 2" $?

# Single runs: the threshold decides, as for runs.
"$BONNIE" sweep -d "$T/d" $S --min-time 0 --json "$T/c.json" >/dev/null 2>&1
BN_FAULT=read:1+:sleep=2000 LD_PRELOAD=$INJECT "$BONNIE" sweep -d "$T/d" \
    $S --min-time 0 --json "$T/e.json" >/dev/null 2>&1
run compare "$T/c.json" "$T/e.json"
[ $status -eq 1 ] && [ "$(grep -c ' worse    threshold (1 and 1)$' "$T/out")" -eq 4 ]
check "single runs: worse by the threshold at every point ($status)" $?

# Refusals: one line, exit 2.
"$BONNIE" -d "$T/d" -s 1m -p write,read -q --json "$T/run.json" >/dev/null 2>&1
"$BONNIE" sweep -d "$T/d" --sizes 1m..4m --chunks 64k,256k -p read \
    --min-time 0 -q --json "$T/f.json" >/dev/null 2>&1
refused() {
	want=$1
	shift
	run compare "$@"
	[ $status -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    [ ! -s "$T/out" ] && grep -q -- "$want" "$T/err"
	check "refused: $want (exit $status: $(cat "$T/err"))" $?
}
refused "is a sweep record and .*run.json is not" "$T/a.json" "$T/run.json"
refused "sweep different axes" "$T/a.json" "$T/f.json"
refused "compare: -o json: sweep records are compared as text" -o json \
    "$T/a.json" "$T/b.json"

# report of several sweeps: each headed by its source and what differs.
run report "$T/a.json" "$T/b.json"
[ $status -eq 0 ] && [ "$(sed -n 1p "$T/out")" = "Sweep 1 of 2: $T/a.json" ] &&
    grep -q "^Sweep 2 of 2: $T/b.json, differing from $T/a.json in cache cold (keep there)" "$T/out"
check "report of two sweeps: each headed by its source and what differs" $?
if command -v xmllint >/dev/null 2>&1; then
	run report -o svg "$T/a.json" "$T/b.json"
	n=$(xmllint --xpath 'count(//*[local-name()="polyline"])' "$T/out" 2>/dev/null)
	c=$(grep -o '<polyline class="series" fill="none" stroke="#[0-9a-f]*"' \
	    "$T/out" | sort -u | wc -l | tr -d ' ')
	[ $status -eq 0 ] && xmllint --noout "$T/out" && [ "$n" = 4 ] &&
	    [ "$c" = 2 ] && grep -q "<title>bonnie-ng: 2 sweeps overlaid, a colour per sweep, a dash per chunk</title>" "$T/out" &&
	    grep -q ">sweep 1: $T/a.json (cache keep)</text>" "$T/out" &&
	    grep -q ">sweep 2: $T/b.json (cache cold)</text>" "$T/out"
	check "report -o svg of two sweeps: one plot, a colour per source ($n lines, $c colours), each named with what differs" $?
else
	skip "xmllint is not installed"
fi
run report -o svg "$T/a.json" "$T/f.json"
[ $status -eq 2 ] && grep -q 'overlays sweeps of the same axes' "$T/err"
check "report -o svg of sweeps of other axes: refused" $?
run report "$T/a.json"
! grep -q '^Sweep ' "$T/out"
check "report of one sweep: no such heading (it prints what the sweep did)" $?

done_testing
