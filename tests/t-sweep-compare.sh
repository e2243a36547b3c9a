#!/bin/sh
# Sweeps side by side: compare of sweep records of the same axes gives a
# verdict per point and phase with compare's statistics (its test with
# 3 runs a side or more, the threshold with one) and its --fail-on, and
# lists the settings that differ; -o json (schema
# bonnie-ng-compare-sweep/1), -o junit (a case per point and phase) and
# -o markdown show the same verdicts with the same exit status; a sweep
# beside a run record, sweeps of other axes and a gate on what sweeps do
# not compare are refused; report of several sweeps heads each with its
# source and what differs from the first.
# The new sweep's reads are made slow by the fault injector (every read
# of the test file sleeps 100 ms first, a thousand times what a read
# from the cache takes), so that its verdict is known.  A base run takes
# a few milliseconds (--min-time adds runs): with reads sleeping 10 ms a
# stall of 160 ms in one base run made it as slow as a new run, and the
# runs' test rightly could not tell at that point (one point of four, at
# a load of 9); a new run now takes 0.4 to 3.2 s, beyond a load's stall.
. tests/lib.sh
. tests/fault/lib.sh
scratch

need_inject jq
mkdir "$T/d"
S="--sizes 1m..2m --chunks 64k,256k -p read --min-time 0.01 -q"

"$BONNIE" sweep -d "$T/d" $S -x 3 --json "$T/a.json" >/dev/null 2>&1
check "the base sweep runs" $?
BN_FAULT=read:1+:sleep=100000 LD_PRELOAD=$INJECT "$BONNIE" sweep -d "$T/d" \
    $S -x 3 --cache cold --json "$T/b.json" >/dev/null 2>&1
check "the slow sweep runs (reads slowed, cache cold)" $?

run compare "$T/a.json" "$T/b.json"
diag "$(cat "$T/out" "$T/err")"
cp "$T/out" "$T/c.txt"
[ $status -eq 1 ]
check "a phase worse at a point: exit 1 ($status)" $?
n=$(grep -c '^[12]M 64k\|^[12]M 256k' "$T/out")
w=$(grep -c ' worse \+\(bootstrap\|mann-whitney\) ([0-9]* and 3)$' "$T/out")
[ "$n" -eq 4 ] && [ "$w" -eq 4 ]
check "every point of block read compared, worse by the runs' test ($w of $n)" $?
[ "$w" -eq 4 ] || diag "each point's read runs, base and new: $(jq -c \
    --slurpfile s "$T/b.json" '[.points, $s[0].points] | transpose[] |
    map([.phases.read.rate] + [.more_runs[]?.phases.read.rate] |
    map(floor))' "$T/a.json" | tr '\n' ' ')"
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
BN_FAULT=read:1+:sleep=100000 LD_PRELOAD=$INJECT "$BONNIE" sweep -d "$T/d" \
    $S --min-time 0 --json "$T/e.json" >/dev/null 2>&1
run compare "$T/c.json" "$T/e.json"
[ $status -eq 1 ] && [ "$(grep -c ' worse \+threshold (1 and 1)$' "$T/out")" -eq 4 ]
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
refused "compare: -F read_cpu: sweeps are compared by their rates only" \
    -F read_cpu "$T/a.json" "$T/b.json"

# -o json: the same verdicts, as a document of its schema.
run compare -o json "$T/a.json" "$T/b.json"
cp "$T/out" "$T/c.json"
[ $status -eq 1 ] && jq -e '.schema == "bonnie-ng-compare-sweep/1" and
    .exit == 1 and (.phases | map(.name)) == ["read"] and
    .phases[0].fail_on and .base.points == 4 and .new[0].points == 4 and
    ([.phases[0].points[].new[0].verdict] | unique) == ["worse"] and
    ([.phases[0].points[].point] == ["1M 64k", "1M 256k", "2M 64k",
    "2M 256k"])' "$T/c.json" >/dev/null
check "-o json: exit 1 and in the document, every point of read worse ($status)" $?
# Each point called worse is explained: what moved in the kernel's
# account, the run's or its device's figure first (the new side read its
# file from the device, the base from the cache), in the document and in
# the text's "What moved:" under the table, a line a point.
jq -e '[.phases[0].points[] | select(.new[0].verdict == "worse" or
    .new[0].verdict == "better") | .new[0].kernel_moved.figures] |
    length == 4 and all(.[]; length > 0 and .[0].scope != "machine")' \
    "$T/c.json" >/dev/null
check "-o json: each point worse explained, not by the machine first" $? ||
    diag "$(jq -c '[.phases[0].points[].new[0].kernel_moved]' "$T/c.json")"
[ "$(sed -n '/^What moved:$/,/^$/p' "$T/c.txt" |
    grep -c '^  [12]M [0-9]*k -[0-9.]*% worse: ')" -eq 4 ]
check "text: What moved names each worse point with its figures" $?
jq -e --slurpfile r "$T/a.json" --slurpfile s "$T/b.json" \
    '.phases[0].points[0] as $p | $r[0].points[0] as $q |
    $p.base == $q.stats.read.median and $p.size_bytes == $q.size_bytes and
    $p.chunk == $q.chunk and $p.jobs == $q.jobs and $p.files == null and
    $p.new[0].base_runs == $q.stats.read.runs and
    $p.new[0].value == $s[0].points[0].stats.read.median and
    $p.new[0].new_runs == $s[0].points[0].stats.read.runs' \
    "$T/c.json" >/dev/null
check "-o json: a point's place, medians and runs are the records'" $?
if python3 tests/schema.py doc/schema.json -d compare_sweep_record \
    "$T/c.json" >"$T/v" 2>&1; st=$?; [ $st -ne 2 ]; then
	diag "$(cat "$T/v")"
	[ $st -eq 0 ] && ! python3 tests/schema.py doc/schema.json \
	    -d compare_record "$T/c.json" >/dev/null 2>&1
	check "-o json: valid by \$defs/compare_sweep_record (and not a run comparison)" $?
else
	skip "python3 jsonschema not installed"
fi

# The gate's exit status is the same in every output: 1 for a selected
# phase worse at a point, 0 for a sweep against itself, 2 for a gate
# that checks nothing.
for o in text json junit markdown; do
	run compare -o $o -F read "$T/a.json" "$T/b.json"
	s1=$status
	run compare -o $o "$T/a.json" "$T/a.json"
	s0=$status
	run compare -o $o -F write "$T/a.json" "$T/b.json"
	s2=$status
	[ $s1 -eq 1 ] && [ $s0 -eq 0 ] && [ $s2 -eq 2 ]
	check "-o $o: exit 1 worse, 0 the same sweep, 2 an empty gate ($s1 $s0 $s2)" $?
done
run compare -o json "$T/a.json" "$T/a.json"
jq -e '.exit == 0 and ([.phases[0].points[].new[0].verdict] | unique) -
    ["same", "inconclusive"] == []' "$T/out" >/dev/null
check "-o json: a sweep against itself: no point better or worse, exit 0" $?

# -o junit: a case per point and phase, failing where the gate does.
run compare -o junit "$T/a.json" "$T/b.json"
cp "$T/out" "$T/j.xml"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout --schema tests/junit.xsd "$T/j.xml" 2>"$T/lint"
	check "-o junit: valid by tests/junit.xsd" $?
	diag "$(head -n 3 "$T/lint")"
	n=$(xmllint --xpath 'count(//testcase)' "$T/j.xml")
	f=$(xmllint --xpath 'count(//testcase/failure[@type="worse"])' "$T/j.xml")
	m=$(xmllint --xpath 'string(//testcase[@name="read at 2M 256k"]/failure/@message)' "$T/j.xml")
	[ "$n" = 4 ] && [ "$f" = 4 ] &&
	    [ "$(xmllint --xpath 'string(/testsuites/@failures)' "$T/j.xml")" = 4 ] &&
	    echo "$m" | grep -q '^read at 2M 256k: [0-9]* -> [0-9]* K/sec (-[0-9.]*%), worse by '
	check "-o junit: 4 cases (a point each), 4 failures of type worse, the verdict in the message ($n, $f: $m)" $?
	run compare -o junit "$T/a.json" "$T/a.json"
	[ "$(xmllint --xpath 'count(//failure)' "$T/out")" = 0 ] &&
	    [ "$(xmllint --xpath 'count(//testcase)' "$T/out")" = 4 ]
	check "-o junit: the same sweep: 4 cases, no failure" $?
	run compare -o junit "$T/a.json" "$T/f.json"
	[ $status -eq 2 ] && xmllint --noout --schema tests/junit.xsd "$T/out" 2>/dev/null &&
	    [ "$(xmllint --xpath 'string(//testcase/error/@type)' "$T/out")" = "unusable input" ]
	check "-o junit: sweeps of other axes: exit 2, an error case" $?
else
	skip "xmllint is not installed"
	skip "xmllint is not installed"
	skip "xmllint is not installed"
	skip "xmllint is not installed"
fi
if python3 -c 'import xml.etree.ElementTree' 2>/dev/null; then
	[ "$(python3 tests/junit-gitlab.py "$T/j.xml" | grep -c '^failed bonnie-ng.compare read at ')" = 4 ]
	check "-o junit: GitLab's reader sees 4 failed cases" $?
else
	skip "python3 is not installed"
fi

# -o markdown: the result as the heading, a table per phase, the
# failing verdicts in bold.
run compare -o markdown "$T/a.json" "$T/b.json"
[ $status -eq 1 ] &&
    [ "$(sed -n 1p "$T/out")" = "### bonnie-ng compare: $(sed -n 's/^result: //p' "$T/c.txt" | sed 's/_/\\_/g')" ] &&
    grep -q '^#### block read, K/sec: ' "$T/out" &&
    [ "$(grep -c '^| [12]M [0-9]*k | [0-9]* | [0-9]* | -[0-9.]*% | \*\*worse\*\* | [a-z-]* ([0-9]* and [0-9]*) |$' "$T/out")" -eq 4 ] &&
    grep -q '^  cache  *keep | cold$' "$T/out"
check "-o markdown: the result heads it, 4 rows worse in bold, the settings quoted" $?
if command -v node >/dev/null 2>&1 &&
    node tests/md-table.js "$T/out" >"$T/mt" 2>/dev/null; then
	[ "$(cat "$T/mt")" = "table 5 6 6 6 6 6" ]
	check "-o markdown: marked draws one table of 5 rows of 6 cells ($(cat "$T/mt"))" $?
else
	skip "node or marked is not installed"
fi

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

# Output that cannot be written is trouble, 2, for sweeps as for runs:
# never 1 (a regression) or 0 (a pass) for a comparison nobody read.
if [ -w /dev/full ]; then
	for o in text json junit markdown; do
		"$BONNIE" compare -o $o "$T/a.json" "$T/b.json" >/dev/full \
		    2>"$T/err.$o"
		s1=$?
		"$BONNIE" compare -o $o tests/fixtures/ng-base.json \
		    tests/fixtures/ng-slower.json >/dev/full 2>"$T/err2.$o"
		s2=$?
		[ $s1 -eq 2 ] && [ $s2 -eq 2 ] &&
		    [ "$(cat "$T/err.$o" "$T/err2.$o" | wc -l)" -eq 2 ] &&
		    grep -q 'compare: standard output: No space left' "$T/err.$o"
		check "-o $o to a full disk: exit 2 for sweeps and runs, one line each ($s1 $s2)" $?
	done
else
	for o in text json junit markdown; do skip "no /dev/full"; done
fi

done_testing
