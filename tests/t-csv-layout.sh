# The two CSV layouts bonnie-ng writes, checked field by field the way a
# harness parses them: -o csv is bonnie++ 1.98 (50 fields), and
# --csv-format=1.97 the 48 fields of bonnie++ 1.96/1.97 (no seeks and
# seekers fields).  A small parser written from the published field lists
# (doc: bonnie++'s bon_csv2txt) checks the count,
# numbers where numbers belong, never "+++++" ("+++" only for a doubtful
# %CPU), and units on the
# latencies; bon_csv2txt reads the 1.98 line, and the 1.97 line once the
# two missing fields are put back (bonnie++ 2.00a's bon_csv2txt refuses
# 1.97 lines); bonnie-ng report reads both.

. tests/lib.sh
scratch

finish() {
	done_testing
	exit $?
}

if [ ! -x "$BONNIE" ]; then
	skip "no $BONNIE binary"
	finish
fi

# parse LAYOUT FILE: the published field list as a harness applies it.
# Prints nothing and exits 0 when every field is what it should be, else
# one line per fault.
parse() {
	awk -F, -v layout="$1" '
	function num(i)  { return $i ~ /^[0-9]+$/ }
	function rate(i) { return $i ~ /^[0-9]+(\.[0-9]+)?$/ }
	function lat(i)  { return $i ~ /^[0-9]+(us|ms|s)$/ }
	function bad(w)  { print "line " NR ": " w; faults++ }
	# A %CPU field: a whole number, or "+++" for a doubtful figure (more
	# CPU than the phase'"'"'s threads could use, in a phase of milliseconds).
	function cpu(i)  { return num(i) || $i == "+++" }
	{
		if (layout == "1.97") { want = 48; d = 0 } else { want = 50; d = 2 }
		for (i = 1; i <= NF; i++)
			if (index($i, "+") > 0 && !(i >= 9 + d && i <= 19 + d &&
			    (i - d) % 2))
				bad("+++ written in field " i - 1)
		if (NF != want) { bad(NF " fields, want " want); next }
		if ($1 != layout) bad("format " $1)
		if ($2 !~ /^bonnie-ng-/) bad("version " $2)
		if (!num(4)) bad("concurrency " $4)
		if (!num(5)) bad("seed " $5)
		if ($6 !~ /^[0-9]+[KMGT]?$/) bad("size " $6)
		if (!num(7)) bad("chunk " $7)
		if (layout == "1.98" && (!num(8) || !num(9)))
			bad("seeks " $8 " seekers " $9)
		# putc, put_block, rewrite, getc, get_block, seeks: rate, cpu.
		for (k = 0; k < 6; k++) {
			i = 8 + d + 2 * k
			if (!rate(i) || !cpu(i + 1))
				bad("field " i - 1 ": " $i "," $(i + 1))
		}
		# The file tests, not run: empty.
		for (i = 20 + d; i <= 36 + d; i++)
			if ($i != "") bad("file field " i - 1 ": " $i)
		# The six latencies with units; the file tests empty.
		for (i = 37 + d; i <= 42 + d; i++)
			if (!lat(i)) bad("latency field " i - 1 ": " $i)
		for (i = 43 + d; i <= 48 + d; i++)
			if ($i != "") bad("file latency field " i - 1 ": " $i)
	}
	END { exit faults > 0 }' "$2"
}

mkdir "$T/d"
"$BONNIE" -q -d "$T/d" -s 4m -c 4k -n 500 -S 2 -o csv >"$T/98.csv" \
    2>"$T/98.err"
check "-o csv runs" $?
"$BONNIE" -q -d "$T/d" -s 4m -c 4k -n 500 -S 2 -o csv --csv-format=1.97 \
    >"$T/97.csv" 2>"$T/97.err"
check "-o csv --csv-format=1.97 runs" $?

out=$(parse 1.98 "$T/98.csv")
check "1.98: 50 fields, each as the published list says" $?
[ -n "$out" ] && diag "$out" "$(cat "$T/98.csv")"
out=$(parse 1.97 "$T/97.csv")
check "1.97: 48 fields, each as the published list says" $?
[ -n "$out" ] && diag "$out" "$(cat "$T/97.csv")"

# The harness's fixed map of 1.97: putc at field 7, seeks at 17, the
# latencies at 36-41 (0-based), chunk at 6.
[ "$(awk -F, '{ print $7 }' "$T/97.csv")" = 4096 ] &&
    awk -F, '{ exit !($8 ~ /^[0-9]+$/ && $18 ~ /\./ && $37 ~ /s$/) }' \
    "$T/97.csv"
check "1.97: chunk at 6, putc at 7, seeks at 17, latency at 36" $?
# And 1.98 has the seeks and seekers given at 7 and 8.
[ "$(awk -F, '{ print $8 "," $9 }' "$T/98.csv")" = "500,2" ]
check "1.98: seeks and seekers at 7 and 8" $?

# The 1.97 line is the 1.98 line without fields 7 and 8: put them back.
awk -F, -v OFS=, '{ $1 = "1.98"; $7 = $7 ",500,2"; print }' "$T/97.csv" \
    >"$T/97up.csv"
out=$(parse 1.98 "$T/97up.csv")
check "1.97 with fields 7 and 8 put back is a valid 1.98 line" $?

# bon_csv2txt shows the numbers of each line.
spd='function spd(s) {
	if (s < 10000) return sprintf("%4dk", s)
	if (s / 1024 < 1000) return s / 1024 < 100 ? sprintf("%4.1fm", s / 1024) : sprintf("%4dm", s / 1024 + 0.5)
	return sprintf("%4.1fg", s / 1024 / 1024)
}'
csv2txt() {	# FILE DESC
	if ! command -v bon_csv2txt >/dev/null 2>&1; then
		skip "bon_csv2txt not installed (package bonnie++)"
		return
	fi
	bon_csv2txt <"$1" >"$1.txt" 2>"$1.err"
	want=$(awk -F, "$spd"'
	{ printf "%5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s\n", spd($10), $11, spd($12), $13, spd($14), $15, spd($16), $17, spd($18), $19, $20, $21 }' "$1")
	lats=$(awk -F, '{ printf "%9s %9s %9s %9s %9s %9s", $39, $40, $41, $42, $43, $44 }' "$1")
	[ ! -s "$1.err" ] && grep -qF -- "$want" "$1.txt" &&
	    grep -qF -- "$lats" "$1.txt"
	r=$?
	check "bon_csv2txt shows every rate, %CPU and latency of $2" $r
	[ $r -eq 0 ] || diag "want: $want" "$lats" "$(cat "$1.txt" "$1.err")"
}
csv2txt "$T/98.csv" "the 1.98 line"
csv2txt "$T/97up.csv" "the 1.97 line"

# bonnie-ng's own reader takes both layouts.
for v in 98 97; do
	"$BONNIE" report "$T/$v.csv" >"$T/$v.rep" 2>"$T/$v.rerr"
	check "bonnie-ng report reads the 1.$v line" $?
done

# A layout it does not know: one line, exit 2.
"$BONNIE" -d "$T/d" -s 4m -o csv --csv-format=1.5 >"$T/o" 2>"$T/e"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$T/e")" -ge 1 ] &&
    grep -q -- "--csv-format" "$T/e" && [ ! -s "$T/o" ]
check "--csv-format=1.5: refused on stderr, exit 2" $?
[ $st -eq 2 ] || diag "exit $st" "$(cat "$T/e")"

finish
