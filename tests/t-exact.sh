#!/bin/sh
# Output exactness (issue 43 item 7): a latency read back is printed as it
# was written; every reader takes decimals only (CSV, text rows,
# durations); Markdown leaves no link or image live in a file name; JUnit
# cases are unique across suites; compare -o json says why it could not
# compare, with the exit status, under --bisect too.
. tests/lib.sh
scratch
F=tests/fixtures

# Latencies whose seconds are no exact double (8105us is 0.008104999..):
# each read back from a CSV line and printed in the report's row.
lats="249us,1001us,1001ms,8105us,2002ms,99999us"
head -1 $F/pp-198.csv |
    sed "s/19803us,53547us,939ms,29983us,82192us,18901us/$lats/" >"$T/lat.csv"
"$BONNIE" report "$T/lat.csv" >"$T/out" 2>"$T/err"
# The row without its source, the file's path: mktemp's random name may
# hold an "ms" or "us" of its own (a run here read "ms,249us,...").
got=$(sed -n 2p "$T/out" | cut -d ' ' -f 2- | grep -o '[0-9][0-9]*[mu]s' |
    tr '\n' ',' | sed 's/,$//')
[ "$got" = "$lats" ]
check "latencies read back as written ($got)" $?
# Each of the 1438 values of 1..99999us whose float cut loses one.
awk 'BEGIN { for (v = 1; v < 100000; v++) if (int(v / 1e6 * 1e6) != v)
    printf "%dus\n", v }' >"$T/want"
n=$(wc -l <"$T/want")
# Six to a row of the fixture's first line, in one awk (a head and a sed
# a row were 480 processes, 3-6 s of CPU a suite).
head -1 $F/pp-198.csv | awk -v w="$T/want" '{
	while ((getline a <w) > 0) {
		l = a
		for (i = 1; i < 6 && (getline a <w) > 0; i++)
			l = l "," a
		if (i < 6)
			break
		r = $0
		sub(/19803us,53547us,939ms,29983us,82192us,18901us/, l, r)
		print r
	} }' >"$T/many.csv"
"$BONNIE" report "$T/many.csv" 2>"$T/err" | grep "^$T/many.csv " |
    cut -d ' ' -f 2- | grep -o '[0-9][0-9]*[mu]s' >"$T/got"
head -n $(( n / 6 * 6 )) "$T/want" | cmp -s - "$T/got"
check "$n latencies that a float cut loses one of, read back whole ($(wc -l <"$T/got") read)" $?

# Text rows: decimal numbers only, as the CSV reader.
for bad in 1e5 0x10 61234. inf; do
	sed "s/^ext4     2047 61234 /ext4     2047 $bad /" $F/text-classic.txt \
	    >"$T/row.txt"
	"$BONNIE" report "$T/row.txt" >/dev/null 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && grep -q 'row.txt:8:' "$T/err"
	check "a text row with '$bad' refused, exit 2 (got $st)" $?
done

# --interval: decimal durations only; refused before any file.
mkdir "$T/d"
for bad in 0x3Cp0s 1e2 0x64 1e-1s; do
	"$BONNIE" -d "$T/d" -s 1m -p write --interval "$bad" >/dev/null \
	    2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "interval" "$T/err" && [ -z "$(ls -A "$T/d")" ]
	check "--interval $bad refused: one line, exit 2, no file (got $st)" $?
done

# Markdown: a file name's link, image, emphasis and HTML stay text.
mkdir "$T/md"
cp $F/ng-base.json "$T/md/![x](http:evil).json"
cp $F/ng-slower.json "$T/md/[l](u)_*e*_<b>&amp;~s~.json"
(cd "$T/md" && "$BONNIE" compare -o markdown ./*.json) >"$T/out" 2>"$T/err"
grep '^- ' "$T/out" | grep -v -q -e '[^\\][][!*_<&~]' -e '^- [^:]*: [][!*_<&~]'
check "markdown: every markup character of a file name escaped" $?
grep -q '\\!\\\[x\\\](http:evil)' "$T/out"
check "markdown: the image is text: \\!\\[x\\](http:evil)" $?

# JUnit: with several new files, classname.name unique across suites.
"$BONNIE" compare -o junit $F/ng-base.json $F/ng-slower.json \
    $F/ng-faster.json >"$T/out" 2>"$T/err"
total=$(grep -c '<testcase ' "$T/out")
uniq=$(grep -o '<testcase classname="[^"]*" name="[^"]*"' "$T/out" | sort -u |
    wc -l)
[ "$total" -gt 0 ] && [ "$total" = "$uniq" ]
check "junit: $total cases over two suites, $uniq distinct ids" $?
"$BONNIE" compare -o junit $F/ng-base.json $F/ng-slower.json >"$T/out" 2>&1
grep -q 'classname="bonnie-ng.compare" name="write"' "$T/out"
check "junit: one new file keeps classname bonnie-ng.compare" $?

# compare -o json on an unusable input: a document that says why, and
# the status; under --bisect 125 (cannot test), both in the document and
# as the exit status.
for a in "" --bisect; do
	want=2
	[ -n "$a" ] && want=125
	for in2 in "$T/none.json" $F/bad-syntax.json $F/empty.txt; do
		"$BONNIE" compare $a -o json $F/ng-base.json "$in2" \
		    >"$T/out" 2>"$T/err"
		st=$?
		jq -e --argjson w $want '.schema == "bonnie-ng-compare-error/1"
		    and .exit == $w and (.error | length > 0)' "$T/out" \
		    >/dev/null 2>&1 && [ $st -eq $want ] &&
		    [ "$(wc -l <"$T/err")" -eq 1 ]
		check "compare $a -o json, $(basename "$in2") unusable: exit $want (got $st), an error document" $?
		if python3 tests/schema.py doc/schema.json -d compare_error \
		    "$T/out" >"$T/v" 2>&1; then
			check "... valid against \$defs/compare_error" 0
		else
			[ $? -eq 2 ] && skip "python3-jsonschema missing" ||
			    { cat "$T/v"; check "... valid against \$defs/compare_error" 1; }
		fi
	done
done
done_testing
