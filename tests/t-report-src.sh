#!/bin/sh
# report: per source (input file) its format, file system, mount options
# and cache, "unknown" where the source does not record them (bonnie++
# CSV, a classic text report pasted on standard input); in the HTML page
# each source's colour from one palette, the same in its key and its bars,
# and the median row of a source of repeated runs, checked against the
# median worked out here from the record with jq.
. tests/lib.sh
scratch
F=tests/fixtures

# src_line FILE: the sources table's line of FILE (after the empty line).
src_line() {
	sed '1,/^$/d' "$T/out" | grep "^$1 "
}

# --- Text: the sources table. ---
run report $F/ng-base.json $F/pp-198.csv - <$F/text-classic.txt
check "report of JSON, CSV and pasted text: exit 0" $status
sed '1,/^$/d' "$T/out" | head -n 1 | grep -Eq \
    '^source +format +file system +mount options +fs options +cache$'
check "the sources table follows the results, after an empty line" $?
[ "$(sed '1,/^$/d' "$T/out" | wc -l)" -eq 4 ]
check "a line per source" $?
src_line $F/ng-base.json | grep -Eq \
    'bonnie-ng JSON +ext4 +rw,relatime +rw,errors=remount-ro +cold$'
check "JSON: its file system, mount and fs options and cache mode" $?
src_line $F/pp-198.csv | grep -Eq \
    'bonnie\+\+ CSV +unknown +unknown +unknown +unknown$'
check "bonnie++ CSV: unknown for each" $?
src_line - | grep -Eq 'Bonnie text +unknown +unknown +unknown +unknown$'
check "pasted text (standard input): unknown for each" $?
[ $? -eq 0 ] || diag "$(cat "$T/out")"

# Phases marked warm are counted in the cache column.
sed '104s/"cold"/"warm"/; 133s/"cold"/"warm"/' $F/ng-base.json >"$T/warm.json"
[ "$(grep -c '"warm"' "$T/warm.json")" -eq 2 ]
check "(the fixture has two phases made warm)" $?
n=$(jq '[.runs[].phases[] | select(. != null)] | length' "$T/warm.json")
run report "$T/warm.json"
src_line "$T/warm.json" | grep -Eq "cold, 2 of $n phase results warm$"
check "warm phases: 'cold, 2 of $n phase results warm'" $?

# A real run: the file system and mount options as findmnt sees them.
mkdir "$T/d" || exit 1
"$BONNIE" -q -d "$T/d" -s 4m -c 4k -n 200 -x 3 --cache keep \
    --json "$T/x3.json" >/dev/null 2>"$T/x3.err"
check "bonnie-ng -x 3 --json runs" $?
run report "$T/x3.json"
if portable; then
	# The portable build on Linux has no statfs(2) names to record.
	src_line "$T/x3.json" | grep -Eq ' unknown +unknown +.* keep$'
	check "a real run, the portable build: file system and mount options unknown, cache keep" $?
elif command -v findmnt >/dev/null 2>&1; then
	fs=$(findmnt -n -o FSTYPE --target "$T/d")
	mo=$(findmnt -n -o VFS-OPTIONS --target "$T/d")
	src_line "$T/x3.json" | grep -Fq " $fs  " &&
	    src_line "$T/x3.json" | grep -Fq " $mo  " &&
	    src_line "$T/x3.json" | grep -Eq ' keep$'
	r=$?
	check "a real run: file system $fs, mount options $mo, cache keep" $r
	[ $r -eq 0 ] || diag "$(src_line "$T/x3.json")"
else
	skip "findmnt not installed (util-linux)"
fi

# --- HTML: one colour per source, the same in the key and the bars. ---
run report -o html $F/ng-base.json $F/pp-198.csv $F/text-classic.txt
check "report -o html: exit 0" $status
cp "$T/out" "$T/r.html"
grep -E '^\.s[0-9]+ \{' "$T/r.html" >"$T/css"
[ -s "$T/css" ] &&
    [ "$(wc -l <"$T/css")" -eq "$(sed 's/.*fill: \(#[0-9a-f]*\);.*/\1/' "$T/css" | sort -u | wc -l)" ]
check "the palette: each class sN once, each with its own colour" $?
[ "$(grep -o '<span class="key s[0-9]*"></span>[^<]*' "$T/r.html" |
    sed -n '1,3p' | tr '\n' ' ')" = \
    "<span class=\"key s0\"></span>$F/ng-base.json <span class=\"key s1\"></span>$F/pp-198.csv <span class=\"key s2\"></span>$F/text-classic.txt " ]
check "the key: s0, s1, s2 beside the sources, in order" $?
# The block write panel's rate chart: every source has a write, so each
# has its bars: ng-base's median (five repeats), a bar per machine of the
# others (two each, no median: their runs are not repeats).
sed -n '/<h2>write<\/h2>/,/<\/svg>/p' "$T/r.html" >"$T/w.svg"
[ "$(grep -c 'class="bar s0"' "$T/w.svg")" -eq 0 ] &&
    [ "$(grep -c 'class="bar median s0"' "$T/w.svg")" -eq 1 ] &&
    [ "$(grep -c 'class="bar s1"' "$T/w.svg")" -eq 2 ] &&
    [ "$(grep -c 'class="bar s2"' "$T/w.svg")" -eq 2 ] &&
    [ "$(grep -c 'class="bar' "$T/w.svg")" -eq 5 ]
r=$?
check "write rate chart: ng-base's median in s0, 2 bars in s1, 2 in s2" $r
[ $r -eq 0 ] || diag "$(grep 'class="bar' "$T/w.svg")"

# --- The median row, against the median jq works out. ---
# median FILE PHASE: the median of the runs' rates, floored to whole K/sec.
median() {
	jq -r "[.runs[].phases.$2.rate] | sort |
	    if length % 2 == 1 then .[length / 2 | floor]
	    else (.[length / 2 - 1] + .[length / 2]) / 2 end | floor" "$1"
}
m=$(median $F/ng-base.json write)
grep '<tr class="median">' "$T/r.html" >"$T/med"
[ "$(wc -l <"$T/med")" -eq 1 ] &&
    grep -q "^<tr class=\"median\"><td><span class=\"key s0\"></span>$F/ng-base.json</td><td>vm1</td><td>median</td>" "$T/med" &&
    [ "$(sed 's/<\/td><td>/\n/g' "$T/med" | sed -n 8p)" = "$m" ]
r=$?
check "ng-base: one median row, write $m K/sec (jq's median); none for two machines" $r
[ $r -eq 0 ] || diag "$(cat "$T/med")"
run report -o html "$T/x3.json"
for ph in write read; do
	m=$(median "$T/x3.json" $ph)
	c=$(grep -m1 '<th>source</th><th>machine' "$T/out" |
	    sed 's/<\/th><th>/\n/g' | grep -n "^$ph K/sec" | cut -d: -f1)
	v=$(grep '<tr class="median">' "$T/out" | sed 's/<\/td><td>/\n/g' |
	    sed -n "${c:-0}p")
	[ -n "$c" ] && [ "$v" = "$m" ]
	check "a real -x 3 run: the median row's $ph is jq's median ($m)" $?
done

done_testing
