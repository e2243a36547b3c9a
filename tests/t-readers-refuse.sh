#!/bin/sh
# Readers that refuse instead of guessing: a classic text row of another
# shape than its header, a hex number or a wrong field count in CSV, a
# JSON member given twice, a seed JSON readers cannot take back exactly.
# Each is exit 2 with FILE:LINE before anything is printed; bonnie++ 1.96
# CSV lines, the layout --csv-format=1.97 writes, are read.
. tests/lib.sh
scratch
F=tests/fixtures

# refused DESC WANT FILE: report and compare exit 2 with WANT on stderr and
# nothing on stdout.
refused() {
	_d=$1 _w=$2 _f=$3
	"$BONNIE" report "$_f" >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$T/out" ] && grep -q -- "$_w" "$T/err"
	check "$_d: report refuses it (exit $st)" $? || diag "$(cat "$T/err")"
	"$BONNIE" compare "$_f" "$_f" >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$T/out" ] && grep -q -- "$_w" "$T/err"
	check "$_d: compare refuses it (exit $st)" $? || diag "$(cat "$T/err")"
}

hdr='Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU'
row='box      1024  5678 91.2 45678 33.3 23456 18.7  5123 92.0 56789 21.4 333.3  5.5'
printf '%s\n%s\n' "$hdr" "$row" >"$T/good.txt"
"$BONNIE" report "$T/good.txt" >"$T/out" 2>"$T/err"
check "a row of the header's shape is read" $?
# One field missing: every column after it would shift.
printf '%s\n%s\n' "$hdr" "$(echo "$row" | sed 's/ 45678//')" >"$T/short.txt"
refused "text row with a field missing" "short.txt:2: a row of 13 words, 12 of" \
    "$T/short.txt"
# Three extra numbers: the size would come from a rate.
printf '%s\n%s 1 2 3\n' "$hdr" "$row" >"$T/long.txt"
refused "text row with three extra numbers" "long.txt:2: a row of 17 words" \
    "$T/long.txt"
# A numeric machine name with a field missing is not taken as no name.
printf '%s\n%s\n' "$hdr" "$(echo "$row" | sed 's/^box/2216/; s/ 45678//')" \
    >"$T/numeric.txt"
refused "numeric machine, a field missing" "numeric.txt:2:" "$T/numeric.txt"

# CSV: numbers are decimal, as bonnie++ writes them.
sed 's/,80271,/,0x7ffff,/' $F/pp-197.csv >"$T/hex.csv"
grep -q 0x7ffff "$T/hex.csv" || diag "the hex fixture did not take"
refused "CSV hex number" "hex.csv:1: field 10 (put_block) is not a number: '0x7ffff'" \
    "$T/hex.csv"
sed 's/,80271,/,1e5,/' $F/pp-197.csv >"$T/exp.csv"
refused "CSV exponent" "exp.csv:1: field 10 (put_block) is not a number" \
    "$T/exp.csv"
# The field count is the line's own, however many.
awk 'BEGIN { printf "1.98"; for (i = 1; i < 10001; i++) printf ",1"; print "" }' \
    >"$T/wide.csv"
refused "CSV of 10001 fields" "wide.csv:1: bonnie++ CSV 1.98 line has 10001 fields, expected 50" \
    "$T/wide.csv"
# bonnie++ 1.96 lines have 1.97's layout, as --csv-format=1.97 writes.
sed 's/^1\.97,1\.97,/1.96,1.96,/' $F/pp-197.csv >"$T/pp196.csv"
"$BONNIE" report "$T/pp196.csv" >"$T/out" 2>"$T/err"
check "a bonnie++ 1.96 line is read" $? || diag "$(cat "$T/err")"
"$BONNIE" report $F/pp-197.csv >"$T/out197" 2>&1
grep -q "80271" "$T/out" && grep -q "oldhost" "$T/out"
check "1.96: its fields where 1.97 has them" $?

# JSON: a member given twice in one object.
if command -v jq >/dev/null 2>&1; then
	"$BONNIE" -d "$T" -s 1m -p write -q -z 9007199254740991 \
	    --json "$T/r.json" >/dev/null 2>"$T/err"
	check "a run with the largest seed, 2^53 - 1" $?
	[ "$(jq -r '.options.seed' "$T/r.json")" = 9007199254740991 ] &&
	    [ "$(jq -r '.runs[0].seed' "$T/r.json")" = 9007199254740991 ]
	check "jq takes that seed back exactly" $?
	"$BONNIE" report "$T/r.json" >"$T/out" 2>"$T/err"
	check "the record reads" $?
	sed 's/"seed_given"/"label": "other", "seed_given"/' "$T/r.json" \
	    >"$T/dup.json"
	refused "JSON member given twice" 'dup.json:[0-9]*: bad JSON: member "label" given twice in one object' \
	    "$T/dup.json"
else
	skip "jq is not installed"
fi
"$BONNIE" -d "$T" -s 1m -p write -q -z 9007199254740992 >"$T/out" 2>"$T/err"
st=$?
[ $st -eq 2 ] && grep -q "out of range (0 to 9007199254740991)" "$T/err"
check "a seed of 2^53 is refused, exit 2 (got $st)" $?
no_test_files "$T"; check "no test file made" $?
done_testing
