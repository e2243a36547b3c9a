#!/bin/sh
# compare and report end to end: exit statuses 0/1/2, the settings list
# and the comparability warning, FILE:LINE messages for malformed input,
# JSON output, the HTML page (well-formed, self-contained, every number),
# and bonnie-ng's CSV through bon_csv2txt and back.
# run.sh: suites: plain sanitized: compare and report over records, which reach no
#   call of the platform layer (its two runs are fixtures: the runs are
#   the other tests' subject there); how musl reads and prints numbers is
#   t-exact's
. tests/lib.sh
scratch
F=tests/fixtures

# The JSON fixtures are real records: they follow doc/schema.json.
schema_ok "JSON fixtures validate against doc/schema.json" "$F"/ng-*.json

run compare $F/ng-base.json $F/ng-noise.json
check "change within noise: exit 0" $status
grep -Eq '^write +K/sec +100352( +[0-9.>]+%)? +100864( +[0-9.>]+%)? +\+0\.5% same +MW' "$T/out"
check "within noise: write is same, by Mann-Whitney" $?

run compare $F/ng-base.json $F/ng-slower.json
[ $status -eq 1 ]
check "clear regression: exit 1" $?
grep -Eq '^write +K/sec +100352( +[0-9.>]+%)? +80281( +[0-9.>]+%)? +-20\.0% worse +MW -22\.4\.\.-17\.5%' "$T/out"
check "regression: write is worse, its interval -22.4 to -17.5%" $?
[ ! -s "$T/err" ]
check "regression: nothing on stderr" $?

run compare --fail-on putc,seeks $F/ng-base.json $F/ng-slower.json
check "--fail-on without write: exit 0" $status
run compare --fail-on=write_lat,write $F/ng-base.json $F/ng-slower.json
[ $status -eq 1 ]
check "--fail-on=write_lat,write: exit 1" $?

run compare $F/ng-base.json $F/ng-faster.json
check "improvement: exit 0" $status
grep -Eq '^write .* better ' "$T/out"
check "improvement: write is better" $?
grep -Eq '^  kernel +6\.1\.0-13-amd64 \| 6\.5\.0-1-amd64$' "$T/out" &&
    grep -Eq '^  mount options +errors=remount-ro,relatime,rw \| errors=remount-ro,noatime,rw$' "$T/out"
check "settings that differ: kernel and mount options" $?
! grep -q 'not comparable' "$T/out"
check "same size and chunk: no comparability warning" $?

run compare $F/ng-base.json $F/ng-other-size.json
grep -q "^warning: $F/ng-other-size.json is not comparable with $F/ng-base.json: file size 64M vs 128M, chunk 16384 vs 8192$" "$T/out"
check "comparability warning above the table" $?
w=$(grep -n '^warning' "$T/out" | cut -d: -f1)
t=$(grep -n '^column' "$T/out" | cut -d: -f1)
[ -n "$w" ] && [ -n "$t" ] && [ "$w" -lt "$t" ]
check "the warning comes before the table" $?

# Single runs: the threshold decides.
run compare $F/ng-single.json $F/pp-198.csv $F/text-classic.txt
[ $status -ne 2 ]
check "JSON, CSV and text compare together" $?
grep -Eq '^putc +K/sec +1200( +[0-9.>]+%)? +569( +[0-9.>]+%)? +-52\.6% n/a +\+\+\+\+\+' "$T/out"
check "+++++ on a side gets the verdict n/a, never worse" $?
run compare --threshold 60 $F/text-quoted.txt $F/text-bare.txt
check "--threshold 60: large changes are same, exit 0" $status
grep -Eq '^write +K/sec +12672( +[0-9.>]+%)? +45678 .* better +thr 60%' "$T/out"
check "--threshold: beyond it is better, method shown" $?

# Unusable input: exit 2 and one FILE:LINE line.
for f in bad-syntax.json bad-schema.json bad-fields.csv bad-value.csv \
    bad-row.txt bad-prose.txt bad-bonnie++-text.txt empty.txt; do
	run compare $F/ng-base.json $F/$f
	[ $status -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	    grep -q "^bonnie-ng: $F/$f:[0-9][0-9]*: [a-z]" "$T/err"
	check "malformed $f: exit 2, FILE:LINE message" $?
	diag "$(cat "$T/err")"
done
run compare $F/ng-base.json "$T/missing.json"
[ $status -eq 2 ] && grep -q "missing.json: No such file" "$T/err"
check "missing file: exit 2" $?
run compare $F/ng-base.json
[ $status -eq 2 ]
check "one file only: exit 2" $?
run compare --fail-on bogus $F/ng-base.json $F/ng-noise.json
[ $status -eq 2 ] && grep -q "unknown column 'bogus'" "$T/err"
check "unknown --fail-on column: exit 2" $?
run compare --threshold x $F/ng-base.json $F/ng-noise.json
[ $status -eq 2 ]
check "bad --threshold: exit 2" $?

# JSON output.
if command -v jq >/dev/null 2>&1; then
	run compare -o json $F/ng-base.json $F/ng-slower.json
	[ $status -eq 1 ] &&
	    [ "$(jq -r '.columns[] | select(.name == "write") | .new[0].verdict' "$T/out")" = worse ] &&
	    [ "$(jq -r '.columns[] | select(.name == "write") | .new[0].method' "$T/out")" = mann-whitney ] &&
	    [ "$(jq -r '.exit' "$T/out")" = 1 ] &&
	    [ "$(jq -r '.base.settings.kernel' "$T/out")" = 6.1.0-13-amd64 ]
	check "-o json: verdict, method, exit and settings" $?
else
	skip "jq not installed"
fi

# report: text and HTML.
good="$F/ng-base.json $F/ng-single.json $F/pp-198.csv $F/pp-198-header.csv
    $F/pp-197.csv $F/text-classic.txt $F/text-quoted.txt $F/text-bare.txt
    $F/text-ng.txt"
run report $good
check "report of every format: exit 0" $status
# The results table ends at the first empty line; the sources follow.
[ "$(sed '/^$/q' "$T/out" | grep -c .)" -eq 19 ]
check "report: a header and a row per run (18)" $?
cp "$T/out" "$T/report.txt"
run report -o html $good
check "report -o html: exit 0" $status
cp "$T/out" "$T/report.html"
if command -v xmllint >/dev/null 2>&1; then
	# libxml2's HTML 4 parser calls the inline SVG elements unknown
	# tags; any other complaint (or any at all from the XML parser,
	# since the page is also well-formed XML) fails.
	xmllint --html --noout "$T/report.html" >"$T/lint" 2>&1
	grep 'error' "$T/lint" | grep -Ev 'Tag (svg|rect|text) invalid$' >"$T/lint2"
	[ ! -s "$T/lint2" ]
	check "HTML is well-formed (xmllint --html)" $?
	[ -s "$T/lint2" ] && diag "$(head -5 "$T/lint2")"
	xmllint --noout "$T/report.html" >"$T/lint" 2>&1 && [ ! -s "$T/lint" ]
	check "HTML is well-formed XML too (xmllint)" $?
	[ -s "$T/lint" ] && diag "$(head -5 "$T/lint")"
else
	skip "xmllint not installed (libxml2-utils)"
	skip "xmllint not installed (libxml2-utils)"
fi
! grep -Eiq '<script|<link|src=|url\(|@import' "$T/report.html"
check "HTML is self-contained" $?
# A panel of three charts for each of the 6 classic phases and the 6 file
# creation phases (the bonnie++ lines carry them): 36.
[ "$(grep -c '<svg ' "$T/report.html")" -eq 36 ] &&
    grep -q 'viewBox=' "$T/report.html" && grep -q 'max-width: 100%' "$T/report.html"
check "HTML: an SVG chart each for rate, CPU cost and latency per phase, scaling with the page" $?
missing=0
for n in $(tail -n +2 "$T/report.txt" | tr -s ' ' '\n' | grep -E '^[0-9]'); do
	grep -Eq -- ">$n(<| \()" "$T/report.html" || { missing=$((missing + 1)); diag "missing $n"; }
done
[ $missing -eq 0 ]
check "HTML contains every number of the report" $?
run report
[ $status -eq 2 ]
check "report without files: exit 2" $?
run report $F/bad-row.txt
[ $status -eq 2 ] && grep -q "bad-row.txt:2:" "$T/err"
check "report of a malformed file: exit 2, FILE:LINE" $?

# bonnie-ng's own CSV: bon_csv2txt reads it without a word, and so do we.
mkdir "$T/d"
"$BONNIE" -q -d "$T/d" -s 4m -n 4000 -o csv >"$T/run.csv" 2>"$T/run.err"
check "bonnie-ng -o csv runs" $?
[ "$(awk -F, '{ print NF }' "$T/run.csv")" = 50 ]
check "CSV line has 50 fields" $?
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$T/run.csv" >"$T/pp.txt" 2>"$T/pp.err"
	[ $? -eq 0 ] && [ ! -s "$T/pp.err" ]
	check "bon_csv2txt accepts it, nothing on stderr" $?
	# bon_csv2txt prints K/sec under 10000 as NNNNk, else in m or g.
	want=$(awk -F, '
	function spd(s) {
		if (s < 10000) return sprintf("%4dk", s)
		if (s / 1024 < 1000) return s / 1024 < 100 ? sprintf("%4.1fm", s / 1024) : sprintf("%4dm", s / 1024 + 0.5)
		return sprintf("%4.1fg", s / 1024 / 1024)
	}
	{ printf "%5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", spd($10), $11, spd($12), $13, spd($14), $15, spd($16), $17, spd($18), $19, $20, $21 }' "$T/run.csv")
	grep -qF -- "$want" "$T/pp.txt"
	r=$?
	check "bon_csv2txt shows the same numbers" $r
	[ $r -eq 0 ] || diag "want: $want" "$(cat "$T/pp.txt")"
else
	skip "bon_csv2txt not installed (package bonnie++)"
	skip "bon_csv2txt not installed (package bonnie++)"
fi
if command -v bon_csv2html >/dev/null 2>&1; then
	bon_csv2html <"$T/run.csv" >"$T/pp.html" 2>"$T/pp.err"
	[ $? -eq 0 ] && [ ! -s "$T/pp.err" ] &&
	    grep -q ">$(cut -d, -f7 "$T/run.csv")<" "$T/pp.html"
	check "bon_csv2html accepts it, nothing on stderr" $?
else
	skip "bon_csv2html not installed (package bonnie++)"
fi
run compare "$T/run.csv" "$T/run.csv"
check "bonnie-ng reads its own CSV back: exit 0" $status
! grep -Eq '^[a-z_]+ +(K/sec|/sec|s/[a-z]+|lat) .* (worse|better) ' "$T/out"
check "a result compared with itself is better or worse nowhere" $?
# bonnie-ng's own text (with -x summary rows and -L latency rows) and JSON
# record of the same runs read back as the same numbers.
"$BONNIE" -q -d "$T/d" -s 4m -n 4000 -x 3 -L --json "$T/x3.json" \
    >"$T/x3.txt" 2>"$T/x3.err"
check "bonnie-ng -x 3 -L --json runs" $?
run report "$T/x3.txt" "$T/x3.json"
[ $status -eq 0 ] && [ "$(sed '/^$/q' "$T/out" | grep -c .)" -eq 7 ]
check "report: text and JSON of 3 runs give 6 rows (summary rows skipped)" $?
run compare "$T/x3.txt" "$T/x3.json"
[ $status -eq 0 ] && ! grep -Eq '^[a-z_]+ +(K/sec|/sec|s/[a-z]+|lat) .* (worse|better) ' "$T/out" &&
    grep -q '^Latency is not compared' "$T/out"
r=$?
check "text and JSON of the same runs: better or worse nowhere" $r
[ $r -eq 0 ] || diag "$(cat "$T/out")"
no_test_files "$T/d"
check "no test file left behind" $?

# CPU as cost: the seeds' block read, Linux 2.2.16 against 2.4.0, fell
# from 38.8 to 8.0 %CPU with its rate (45774 -> 9334 K/sec); the CPU per
# GiB did not change, so the verdict must not be better.
run compare $F/seed-2.2.16.txt $F/seed-2.4.0.txt
ok "cpu cost: read_cpu in CPU s/GiB, +1.1%, inconclusive (single runs), raw %CPU beside" \
    grep -Eq '^read_cpu +s/GiB +8\.89 \(38\.8%\) +8\.99 \(8\.0%\) +\+1\.1% inconclusive ' "$T/out"
ok "cpu cost: seeks_cpu in CPU s per thousand seeks (half the seeks: worse)" \
    grep -Eq '^seeks_cpu +s/kseek +0\.25 \(5\.0%\) +0\.5 \(5\.0%\) .* worse ' "$T/out"
ok "cpu cost: the text says CPU is compared as cost" \
    grep -q '^CPU is compared as cost' "$T/out"
run compare -o json $F/seed-2.2.16.txt $F/seed-2.4.0.txt
ok "cpu cost: JSON says which is compared, the raw %CPU beside" \
    jq -e '.columns[] | select(.name == "read_cpu") |
    .compared == "cpu_cost" and .unit == "s/GiB" and .base_cpu_pct == 38.8
    and .new[0].cpu_pct == 8 and .new[0].verdict == "inconclusive"' "$T/out"
ok "cpu cost: JSON rates say they compare the value" \
    jq -e '.columns[] | select(.name == "read") | .compared == "value"' "$T/out"
run report -o html $F/seed-2.2.16.txt $F/seed-2.4.0.txt
ok "cpu cost: report's HTML has the cost beside the %CPU" sh -c "
    grep -q '<th>read %CPU (CPU s/GiB)</th>' '$T/out' &&
    grep -q '<td>38.8 (8.89)</td>' '$T/out' &&
    grep -q '<td>8.0 (8.99)</td>' '$T/out'"

done_testing

