#!/bin/sh
# Hostile inputs to compare and report (issue 15, groups 4, 5 and 7):
# readers are bounded (devices, directories, endless pipes and binary data
# fail fast with one line, exit 2); text from a file cannot control the
# terminal and is cut by characters; invalid UTF-8 never makes the HTML
# report ill-formed; a UTF-8 BOM is accepted in every format; an absurd
# value (1e308) is refused instead of becoming inf or 2^63-1.
. tests/lib.sh
. tests/fault/lib.sh
scratch
F=tests/fixtures

# fast DESC STATUS-WANTED CMD...: the command ends, having read no more
# than its limit, with the status and exactly one line on stderr.  The
# bound only tells an end from a read that never ends (yes(1) writes for
# ever): 120 s, as ASan's build under a load of 30 took over 10 s to read
# compare's limit of lines.
fast() {
	_d=$1 _w=$2; shift 2
	timeout 120 "$@" >"$T/out" 2>"$T/err"
	st=$?
	_r=0
	[ $st -eq "$_w" ] && one_line "$T/err" || _r=1
	check "$_d: exit $_w at once, one line (got $st)" $_r
	[ $_r -eq 0 ] || sed 's/^/#   /' "$T/err" | head -5
}

for cmd in report compare; do
	extra=""
	[ $cmd = compare ] && extra=$F/pp-198.csv
	for dev in /dev/zero /dev/urandom /dev/null; do
		fast "$cmd $dev" 2 "$BONNIE" $cmd $dev $extra
		grep -q "$dev: a character device, not a result file" "$T/err"
		check "$cmd $dev: says what it is" $?
		fast "$cmd - <$dev" 2 sh -c "exec \"\$0\" $cmd - $extra <$dev" \
		    "$BONNIE"
	done
	fast "$cmd of a directory" 2 "$BONNIE" $cmd "$T" $extra
	grep -q "a directory, not a result file" "$T/err"
	check "$cmd of a directory: says so" $?
	fast "yes | $cmd -" 2 sh -c "yes | exec \"\$0\" $cmd - $extra" \
	    "$BONNIE"
	grep -q "more than the 16 MiB a result file may have" "$T/err"
	check "yes | $cmd -: the limit is named" $?
	fast "/dev/urandom | $cmd -" 2 \
	    sh -c "cat /dev/urandom | exec \"\$0\" $cmd - $extra" "$BONNIE"
	grep -q "binary file, not a result" "$T/err"
	check "/dev/urandom | $cmd -: binary" $?
done
# A regular file over the limit is refused by its size, before reading.
truncate -s 17m "$T/big.txt"
fast "report of a 17 MiB file" 2 "$BONNIE" report "$T/big.txt"
grep -q "17825792 bytes, more than the 16 MiB" "$T/err"
check "report of a 17 MiB file: size and limit named" $?
# A pipe is still read.
cat $F/pp-198.csv | "$BONNIE" report - >"$T/out" 2>"$T/err"
check "report - from a pipe still works" $?

# Control characters in a label, a host name and a file name.
esc=$(printf '\033')
sed "s/^1.98,2.00a,[^,]*,/1.98,2.00a,h${esc}]0;pwned$(printf '\007')${esc}[2J,/" \
    $F/pp-198.csv >"$T/esc.csv"
head -c 40 "$T/esc.csv" | grep -q "$esc" || diag "the fixture did not take"
cp "$T/esc.csv" "$T/name${esc}[31m.csv"
"$BONNIE" report "$T/esc.csv" "$T/name${esc}[31m.csv" >"$T/out" 2>"$T/err"
check "report with escapes: exit 0" $?
check "report with escapes: no ESC or BEL byte on stdout" \
    $(! grep -q "$esc\|$(printf '\007')" "$T/out"; echo $?)
grep -qF 'h\x1b]0;pwned\x07\x1b[2J' "$T/out"
check "report with escapes: shown escaped" $?
"$BONNIE" compare $F/pp-198.csv "$T/esc.csv" "$T/name${esc}[31m.csv" \
    >"$T/out" 2>"$T/err"
check "compare with escapes: no ESC or BEL byte on stdout" \
    $(! grep -q "$esc\|$(printf '\007')" "$T/out"; echo $?)
grep -qF 'name\x1b[31m.csv' "$T/out"
check "compare with escapes: the file name shown escaped" $?
# A host name with escapes in a JSON record (as \u001b), in the settings
# compare lists.
sed 's/"hostname": "vm1"/"hostname": "h\\u001b]0;pwned\\u0007\\u009b2J"/' \
    $F/ng-single.json >"$T/esc.json"
"$BONNIE" compare $F/ng-single.json "$T/esc.json" >"$T/out" 2>"$T/err"
check "compare, host with escapes: no ESC, BEL or CSI on stdout" \
    $(! grep -q "$esc\|$(printf '\007')\|$(printf '\302\233')" "$T/out"; echo $?)
grep -qF 'h\x1b]0;pwned\x07\u009b2J' "$T/out"
check "compare, host with escapes: shown escaped" $?

# A UTF-8 label is cut at eight characters, not eight bytes.
"$BONNIE" -m "$TAG" -d "$T" -q -s 256k -c 4k -n 10 --cache=keep \
    -p write --no-space-check >/dev/null 2>&1  # warm the directory
"$BONNIE" -d "$T" -q -s 256k -c 4k -n 10 --cache=keep -p write \
    --no-space-check -m "éééééééééé" >"$T/row.txt" 2>"$T/err"
check "UTF-8 label: the run exits 0" $?
row=$(sed -n 4p "$T/row.txt")
case $row in
"éééééééé "*) r=0 ;;
*) r=1 ;;
esac
check "UTF-8 label: the row starts with eight whole characters" $r
[ $r -eq 0 ] || diag "$row"
if have xmllint; then
	"$BONNIE" report -o html "$T/row.txt" >"$T/r.html" 2>"$T/err"
	xmllint --noout "$T/r.html" 2>"$T/err"
	check "UTF-8 label: the HTML report is well-formed" $?
	# A label already cut inside a character in a pasted report.
	printf 'Machine    MB K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU  /sec %%CPU\n\303\251\303\251\303\251\303 1 2 3 4 5 6 7 8 9 10 11 12 13\n' \
	    >"$T/cut.txt"
	"$BONNIE" report -o html "$T/cut.txt" >"$T/r.html" 2>"$T/err"
	check "a label cut inside a character: report exits 0" $?
	xmllint --noout "$T/r.html" 2>"$T/err"
	check "a label cut inside a character: the HTML is well-formed" $?
	"$BONNIE" report -o html "$T/esc.csv" >"$T/r.html" 2>"$T/err"
	xmllint --noout "$T/r.html" 2>"$T/err"
	check "control characters: the HTML is well-formed" $?
else
	skip "xmllint not installed"
	skip "xmllint not installed"
	skip "xmllint not installed"
	skip "xmllint not installed"
fi

# A byte order mark in front of every format.
for f in ng-single.json pp-198.csv text-classic.txt; do
	printf '\357\273\277' | cat - $F/$f >"$T/bom-$f"
	"$BONNIE" report "$T/bom-$f" >"$T/out" 2>"$T/err"
	r=$?
	check "UTF-8 BOM before $f: read" $r
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/err"
	"$BONNIE" compare $F/$f "$T/bom-$f" >"$T/out" 2>"$T/err"
	check "UTF-8 BOM before $f: compares as the same file (got $?)" \
	    $(grep -q "^result: " "$T/out"; echo $?)
done

# Absurd values are refused, not written as inf or 2^63-1.
sed 's/^\(1.98,2.00a,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)[0-9]*/\11e308/' \
    $F/pp-198.csv >"$T/huge.csv"
grep -q 1e308 "$T/huge.csv" || diag "the huge fixture did not take"
for cmd in "report" "report -o html" "compare $F/pp-198.csv"; do
	fast "1e308 ($cmd)" 2 "$BONNIE" $cmd "$T/huge.csv"
	grep -q "huge.csv:1: field 12 (put_block) is not a number: '1e308'" \
	    "$T/err"
	check "1e308 ($cmd): the column and the value are named" $?
	check "1e308 ($cmd): nothing infinite on stdout" \
	    $(! grep -qi "inf\|9223372036854775807" "$T/out"; echo $?)
done
# A plain decimal past what a result may hold: out of range, named.
sed 's/^\(1.98,2.00a,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)[0-9]*/\11000000000000000000000/' \
    $F/pp-198.csv >"$T/huge.csv"
for cmd in "report" "compare $F/pp-198.csv"; do
	fast "10^21 ($cmd)" 2 "$BONNIE" $cmd "$T/huge.csv"
	grep -q "huge.csv:1: write: 1e+21 is out of range (at most 1e+15)\$" \
	    "$T/err"
	check "10^21 ($cmd): the column, the value and the limit are named" $?
done

done_testing
