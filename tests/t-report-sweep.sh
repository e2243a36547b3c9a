#!/bin/sh
# report of a sweep's JSON record: the tables and knees byte for byte as
# the sweep printed them, and with -o svg the plot byte for byte as its
# --svg file, for a size-by-chunk sweep, a sweep by jobs and one stopped
# by --max-time; two sweeps of the same axes overlaid in one plot on an
# HTML page; a record changed with jq to make a knee prints it; a
# sweep record mixed with a run record, a plot of a run record or of two
# sweeps, compare of a sweep and a record whose points are out of order
# are refused with exit 2 and nothing on standard output.
. tests/lib.sh
scratch

# sweep NAME ARGS...: a sweep on a fresh directory, its standard output
# in $T/NAME.txt, its record and plot in $T/NAME.json and $T/NAME.svg.
sweep() {
	n=$1
	shift
	mkdir "$T/$n.d" || exit 1
	"$BONNIE" sweep --min-time 0 -d "$T/$n.d" --json "$T/$n.json" --svg "$T/$n.svg" \
	    "$@" >"$T/$n.txt" 2>"$T/$n.err"
}

# same NAME WHAT: report of the record reproduces the sweep's output and
# its plot, byte for byte.
same() {
	run report "$T/$1.json"
	[ $status -eq 0 ] && cmp -s "$T/out" "$T/$1.txt"
	r=$?
	check "$2: report prints the sweep's tables and knees byte for byte" $r
	[ $r -eq 0 ] || diag "$(diff "$T/$1.txt" "$T/out")" "$(cat "$T/err")"
	run report -o svg "$T/$1.json"
	[ $status -eq 0 ] && cmp -s "$T/out" "$T/$1.svg"
	check "$2: report -o svg writes the sweep's plot byte for byte" $?
}

sweep s --sizes 4m..8m --chunks 4k,64k -p write,rewrite,read
check "a sweep of 2 sizes by 2 chunks runs" $?
grep -q '^block write, K/sec$' "$T/s.txt" && [ -s "$T/s.svg" ]
check "(it printed its tables and wrote its plot)" $?
same s "sizes by chunks"

run report -o html "$T/s.json"
check "report -o html of a sweep: exit 0" $status
cp "$T/out" "$T/s.html"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/s.html" >"$T/lint" 2>&1 && [ ! -s "$T/lint" ]
	check "the page is well-formed XML" $?
else
	skip "xmllint not installed (libxml2-utils)"
fi
[ "$(grep -c '<svg ' "$T/s.html")" -eq 1 ] &&
    ! grep -q '<?xml' "$T/s.html" &&
    sed -n '/<pre>/,/<\/pre>/p' "$T/s.html" | sed 's/^<pre>//; /<\/pre>/d' |
    cmp -s - "$T/s.txt"
check "the page: the sweep's text in a <pre>, its plot inline" $?

sweep j --sizes 4m..8m --chunks 16k --jobs 1,2 -p write,read
check "a sweep by jobs (-j 1, 2) runs" $?
same j "by jobs"

# Two sweeps of the same axes, on one page: one plot overlays them (a
# panel per phase, a colour per source, a dash per chunk), each source
# named with the settings that differ, then each sweep's text as it
# printed it; the page's plot is report -o svg's, byte for byte.
sweep t --sizes 4m..8m --chunks 4k,64k -p write,rewrite,read -m other
check "a second sweep of the same axes runs (-m other)" $?
run report -o html "$T/s.json" "$T/t.json"
cp "$T/out" "$T/st.html"
[ $status -eq 0 ] && [ "$(grep -c '<svg ' "$T/st.html")" -eq 1 ] &&
    ! grep -q '<?xml' "$T/st.html"
check "report -o html of two sweeps: exit 0, one plot ($status)" $?
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/st.html" >"$T/lint" 2>&1 && [ ! -s "$T/lint" ]
	check "the page is well-formed XML" $?
	xp() { xmllint --xpath "$1" "$T/st.html" 2>/dev/null; }
	g=$(xp 'count(//*[local-name()="svg"]/*[local-name()="g"])')
	n=$(xp 'count(//*[local-name()="polyline"])')
	c=$(grep -o '<polyline class="series" fill="none" stroke="#[0-9a-f]*"' \
	    "$T/st.html" | sort -u | wc -l | tr -d ' ')
	d=$(grep -o '<polyline class="series" [^>]*' "$T/st.html" |
	    grep -c 'stroke-dasharray')
	[ "$g" = 3 ] && [ "$n" = 12 ] && [ "$c" = 2 ] && [ "$d" = 6 ]
	check "a panel per phase ($g), a line per source, phase and chunk ($n), a colour per source ($c), the second chunk dashed ($d)" $?
else
	skip "xmllint not installed (libxml2-utils)"
	skip "xmllint not installed (libxml2-utils)"
fi
k1="sweep 1: $T/s.json (dir $T/s.d, label "
k2="sweep 2: $T/t.json (dir $T/t.d, label other)"
grep -q "<li>$k1" "$T/st.html" && grep -q "<li>$k2</li>" "$T/st.html" &&
    grep -q "<text class=\"key\" [^>]*>$k1" "$T/st.html" &&
    grep -q "<text class=\"key\" [^>]*>$k2</text>" "$T/st.html" &&
    grep -q '>block read, bytes/s (' "$T/st.html" &&
    grep -q '>rewrite, bytes/s (' "$T/st.html"
check "each source named with the settings that differ, in the list and the plot's key; panels named by phase" $?
grep -q "<p>Sweep 2 of 2: $T/t.json, differing from $T/s.json in dir $T/t.d ($T/s.d there), label other (" "$T/st.html"
check "each sweep's heading says what differs, as report's text does" $?
sed -n '/<pre>/,/<\/pre>/p' "$T/st.html" | sed 's/^<pre>//; /<\/pre>/d' >"$T/pre"
cat "$T/s.txt" "$T/t.txt" | cmp -s - "$T/pre"
check "then each sweep's tables and knees as it printed them" $?
run report -o svg "$T/s.json" "$T/t.json"
{ sed -n 1p "$T/out"; sed -n '/^<svg /,/^<\/svg>$/p' "$T/st.html"; } |
    cmp -s - "$T/out"
check "the page's plot is report -o svg's, byte for byte" $?
run report -o html "$T/s.json" "$T/j.json"
[ $status -eq 0 ] && [ "$(grep -c '<svg ' "$T/out")" -eq 2 ] &&
    ! grep -q 'sweeps overlaid' "$T/out"
check "of sweeps of other axes the page draws each one's own plot" $?

# The seeks phase lasts a second: --max-time 1 stops after one point.
sweep m --sizes 4m..8m --chunks 4k -p seeks --max-time 1
check "a sweep stopped by --max-time runs" $?
grep -q ', 1 of 2 points,' "$T/m.txt" && [ "$(jq -r .stopped "$T/m.json")" = max-time ]
check "(it measured 1 of 2 points)" $?
same m "stopped by --max-time"

# A knee made in the record: block write at 8M, chunk 4k, half its 4M rate,
# each of the two points with three close runs and called precise, so that
# the runs' test names it.
w4=$(jq '.points[] | select(.size_bytes == 4194304 and .chunk == 4096) |
    .phases.write.rate' "$T/s.json")
jq --argjson w "$w4" 'def three($r): .phases.write.rate = $r |
    .more_runs = [{phases: {write: {rate: ($r * 1.01)}}},
        {phases: {write: {rate: ($r * 0.99)}}}] |
    .stats.write.precise = true;
    (.points[] | select(.size_bytes == 4194304 and .chunk == 4096)) |=
        three($w) |
    (.points[] | select(.size_bytes == 8388608 and .chunk == 4096)) |=
        three($w / 2)' "$T/s.json" >"$T/k.json"
w8=$(jq '.points[] | select(.size_bytes == 8388608 and .chunk == 4096) |
    .phases.write.rate' "$T/k.json")
pct=$(awk -v a="$w4" -v b="$w8" 'BEGIN { printf "%.0f", (a - b) / a * 100 }')
run report "$T/k.json"
grep -q "^  block write, chunk 4k: falls $pct% between 4 MiB and 8 MiB" "$T/out" &&
    grep -Eq "^ +8M +$(awk -v b="$w8" 'BEGIN { printf "%d", b }') " "$T/out"
r=$?
check "a knee made in the record (write at 8M half that at 4M): 'falls $pct%' and the halved rate" $r
[ $r -eq 0 ] || diag "$(cat "$T/out")"

# --- Refusals: exit 2, one line, nothing on standard output. ---
refused() {
	[ $status -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "$2" "$T/err"
	r=$?
	check "$1: exit 2, one line" $r
	[ $r -eq 0 ] || diag "exit $status" "$(cat "$T/err")"
}
run report "$T/s.json" tests/fixtures/ng-base.json
refused "a sweep with a run record" "is a sweep record and .* is not"
run report -o svg tests/fixtures/ng-base.json
refused "-o svg of a run record" "draws a sweep record"
run report -o svg "$T/s.json" "$T/j.json"
refused "-o svg of two sweeps of other axes" "overlays sweeps of the same axes"
run compare "$T/s.json" tests/fixtures/ng-base.json
refused "compare of a sweep record with a run record" "is a sweep record and .* is not"
jq '.points |= [.[1], .[0]] + .[2:]' "$T/s.json" >"$T/bad.json"
run report "$T/bad.json"
refused "points out of order" "point 1 is not the one the sweep runs there"
run report tests/fixtures/ng-base.json
[ $status -eq 0 ]
check "(a run record alone is still a table)" $?
if [ -w /dev/full ]; then
	"$BONNIE" report "$T/s.json" >/dev/full 2>"$T/err"
	st=$?
	[ $st -eq 1 ] && grep -q 'standard output' "$T/err"
	check "report of a sweep to a full device: exit 1 (got $st)" $?
else
	skip "no /dev/full"
fi

done_testing
