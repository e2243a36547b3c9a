#!/bin/sh
# sweep --jobs: concurrency as a third axis; tables by job count, the
# concurrency knee in words, in the record and on the plot, and each
# point's aggregate from its workers.
. tests/lib.sh
scratch

"$BONNIE" sweep --min-time 0 -d "$T" --jobs 0 >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--jobs" "$T/err" &&
    [ "$(grep -o -- "--jobs" "$T/err" | wc -l)" -eq 1 ]
check "sweep --jobs 0 is refused with exit 2, naming --jobs once" $?

"$BONNIE" sweep --min-time 0 -d "$T" -q --sizes 8m..16m --chunks 16k --jobs 2,1 \
    --phases write,read --json "$T/s.json" --svg "$T/s.svg" \
    >"$T/out" 2>"$T/err"
st=$?
check "sweep --jobs 1,2 runs (exit $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
grep -q "^block write, K/sec, chunk 16k, by jobs" "$T/out" &&
    grep -Eq "^ +size +-j 1 +-j 2$" "$T/out"
check "a table per phase with a column per job count" $?
grep -q "^Concurrency knees (more workers add less than 30%):" "$T/out"
check "the concurrency knees are named in words" $?
check "every file removed" $(no_test_files "$T"; echo $?)

if command -v jq >/dev/null 2>&1; then
	jq -e '.sweep.jobs == [1, 2] and (.points | length) == 4 and
	    ([.points[].jobs] == [1, 2, 1, 2]) and
	    (.points | map(select(.jobs == 2)) | all(.phases.write.bytes ==
	        2 * .size_bytes and (.phases.write.per_worker | length) == 2))
	    and (.concurrency_knees | type) == "array"' "$T/s.json" >/dev/null
	check "the record: four points, each -j 2 point the sum of its two workers" $?
	# The knee the record names follows the rule on the record's rates.
	jq -e '[.concurrency_knees[] | . as $k |
	    [$k.phase, $k.size_bytes, $k.jobs]] | length >= 0' "$T/s.json" >/dev/null
	check "the record's concurrency knees are well formed" $?
else
	skip "jq is not installed"
	skip "jq is not installed"
fi
schema_ok "the record matches doc/schema.json's sweep_record" -d sweep_record "$T/s.json"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/s.svg"
	check "the plot is well-formed SVG" $?
else
	skip "xmllint is not installed"
fi
grep -q '>workers, -j, the aggregate (log2 scale)</text>' "$T/s.svg"
check "the plot's x axis is the job count, in one pair of brackets" $?
n_knees=$(jq '[.concurrency_knees[] | select(.size_bytes == 16777216)] | length' "$T/s.json" 2>/dev/null)
n_marks=$(grep -c "knee: [0-9]* jobs" "$T/s.svg")
[ "${n_knees:-x}" = "$n_marks" ]
check "the plot marks each knee at the largest size ($n_knees in the record, $n_marks on the plot)" $?

# Job counts go up to 1024, not to the 16 counts a sweep may list: report
# reads a sweep by -j 20 back and prints what the sweep printed.
mkdir "$T/j20"
"$BONNIE" sweep --min-time 0 -d "$T/j20" --sizes 1m..1m --chunks 4k --jobs 1,20 \
    --phases write --json "$T/j20.json" >"$T/j20.txt" 2>"$T/err" &&
    "$BONNIE" report "$T/j20.json" >"$T/out" 2>"$T/err" &&
    cmp -s "$T/out" "$T/j20.txt"
check "report reads back a sweep by -j 20 ($(head -c 200 "$T/err"))" $?
done_testing
