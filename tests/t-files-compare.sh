#!/bin/sh
# compare and report read the file creation phases: from a real bonnie++
# -n CSV line (tests/fixtures/pp-198-files.csv, bonnie++ 2.00a with
# -n 1:4096:1024:3) in the 1.98 layout and the same line cut to 1.97's,
# from a live bonnie++ -n run when bonnie++ is installed, and from
# bonnie-ng --files runs (CSV and JSON): each value where bonnie++ puts it,
# the CPU as a cost in s/kfile, "+++++" as too fast to measure, the
# latencies, the --files setting, text and HTML.
. tests/lib.sh
scratch
F=tests/fixtures/pp-198-files.csv

# col FILE NAME KEY: a column's value from compare -o json.
col() {
	jq -r --arg n "$2" ".columns[] | select(.name == \$n) | $3" "$1"
}

"$BONNIE" compare -o json "$F" "$F" >"$T/c.json" 2>"$T/err"
st=$?
check "compare of the bonnie++ -n line: exit 0 (got $st)" $st
[ $st -eq 0 ] || sed 's/^/#   /' "$T/err"
# Fields 27-38 (1-based): 1183,30,+++++,+++,782,3,1219,26,+++++,+++,...
check "create, delete, rcreate from fields 27, 31, 33" \
    $([ "$(col "$T/c.json" create .base)" = 1183 ] &&
    [ "$(col "$T/c.json" delete .base)" = 782 ] &&
    [ "$(col "$T/c.json" rcreate .base)" = 1219 ]; echo $?)
check "stat's +++++ is too fast to measure, no verdict" \
    $([ "$(col "$T/c.json" stat '.new[0].verdict')" = n/a ] &&
    [ "$(col "$T/c.json" stat '.base')" = unmeasurable ]; echo $?)
c=$(col "$T/c.json" create_cpu '"\(.unit) \(.base) \(.base_cpu_pct)"')
check "create_cpu: a cost in s/kfile, 30% at 1183/s (got $c)" \
    $(echo "$c" | awk '{ exit !($1 == "s/kfile" &&
    $2 > 0.2535 && $2 < 0.2537 && $3 == 30) }'; echo $?)
# Fields 45-50: 17580us,108us,19845us,32149us,10403us,9513us.
check "latencies from fields 45 and 50" \
    $([ "$(col "$T/c.json" create_lat .base)" = 0.01758 ] &&
    [ "$(col "$T/c.json" rdelete_lat .base)" = 0.009513 ]; echo $?)
check "the files setting: 1:4096:1024/3 (DIRS where bonnie++ 2.00a puts it)" \
    $([ "$(jq -r '.base.settings.files' "$T/c.json")" = 1:4096:1024/3 ]; echo $?)

# The same line in the 1.97 layout (without the seeks fields 8 and 9).
sed 's/^1\.98,/1.97,/' "$F" | cut -d, -f1-7,10- >"$T/pp-197.csv"
"$BONNIE" compare -o json "$T/pp-197.csv" "$F" >"$T/c197.json" 2>"$T/err"
st=$?
check "1.97 against 1.98: exit 0 (got $st)" $st
same=$(jq '[.columns[] | select(.base != null) |
    .base == .new[0].value] | all and length == 18' "$T/c197.json")
check "1.97 layout: all 18 file columns equal the 1.98 line's" \
    $([ "$same" = true ]; echo $?)

# report, text and HTML.
"$BONNIE" report "$F" >"$T/r.txt" 2>"$T/err"
check "report: the create column and its value" \
    $(head -1 "$T/r.txt" | grep -q 'create /sec' &&
    grep -q ' 1183\.0 ' "$T/r.txt"; echo $?)
"$BONNIE" report -o html "$F" >"$T/r.html" 2>"$T/err"
check "report -o html: the rdelete latency and the create rate" \
    $(grep -q '>rdelete latency<' "$T/r.html" && grep -q '>1183\.0' "$T/r.html";
    echo $?)

# bonnie-ng's own: CSV and JSON of one run agree in compare.
"$BONNIE" -q -m ng -d "$T" --files 1 -p create,stat,delete,rcreate,rstat,rdelete \
    -o csv --json "$T/ng.json" >"$T/ng.csv" 2>"$T/err"
st=$?
check "bonnie-ng --files 1: exit 0 (got $st)" $st
"$BONNIE" compare -o json "$T/ng.json" "$T/ng.csv" >"$T/cng.json" 2>"$T/err"
st=$?
check "compare bonnie-ng JSON with its CSV: no error (got $st)" \
    $([ $st -le 1 ]; echo $?)
ok=$(jq '[.columns[] | select(.unit == "/sec") |
    ((.base | round) == .new[0].value)] | length == 6 and all' "$T/cng.json")
check "the six rates: the CSV's are the record's, rounded" \
    $([ "$ok" = true ]; echo $?)
check "the files setting: 1 on both sides" \
    $([ "$(jq -r '.base.settings.files, .new[0].settings.files' "$T/cng.json" |
    sort -u)" = 1 ]; echo $?)

# A live bonnie++ -n run on the same directory, against bonnie-ng's.
if command -v bonnie++ >/dev/null 2>&1 && is_root; then
	bonnie++ -q -d "$T" -s 0 -n 1 -u root -m pp >"$T/pp.csv" 2>"$T/err"
	st=$?
	check "bonnie++ -s 0 -n 1: exit 0 (got $st)" $st
	tail -1 "$T/pp.csv" >"$T/pp1.csv"
	"$BONNIE" compare -o json "$T/pp1.csv" "$T/ng.csv" >"$T/cpp.json" \
	    2>"$T/err"
	st=$?
	check "compare bonnie++ -n with bonnie-ng --files: no error (got $st)" \
	    $([ $st -le 1 ]; echo $?)
	want=$(cut -d, -f27 "$T/pp1.csv")
	# bonnie++'s +++++: too fast for it to time.
	[ "$want" = "+++++" ] && want=unmeasurable
	check "the bonnie++ create rate from field 27 ($want)" \
	    $([ "$(col "$T/cpp.json" create .base)" = "$want" ]; echo $?)
	n=$(jq '[.columns[] | select(.name | test("create|stat|delete"))] |
	    length' "$T/cpp.json")
	check "18 file columns compared (got $n)" $([ "$n" = 18 ]; echo $?)
	"$BONNIE" report "$T/pp1.csv" "$T/ng.csv" "$T/ng.json" >"$T/r3" \
	    2>"$T/err"
	# The results table ends at the first empty line (the sources
	# table follows).
	check "report of bonnie++ and bonnie-ng: three rows with rdelete" \
	    $([ "$(sed '/^$/,$d' "$T/r3" | wc -l)" -eq 4 ] &&
	    head -1 "$T/r3" | grep -q 'rdelete /sec'; echo $?)
else
	skip "bonnie++ not installed or not root"
	skip "bonnie++ not installed or not root"
	skip "bonnie++ not installed or not root"
	skip "bonnie++ not installed or not root"
	skip "bonnie++ not installed or not root"
fi
done_testing
