#!/bin/sh
# End to end: the classic report of a real run on a tiny file.  The header
# byte for byte, 14 fields per row, every number positive, both seeker
# modes, %CPU of threaded seekers within what the cores allow, -f and -p
# printing "-" for skipped phases, the label cut to 8, the size rounding
# note, -q and the non-terminal progress lines.
. tests/lib.sh
scratch

D=$T/d
mkdir "$D" || exit 1
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
SMALL="-s 4 -c 4k -n 200"

# bn ARGS...: run the binary on $D; stdout in $T/out, stderr in $T/err,
# exit status in $st.
bn() {
	"$BONNIE" -d "$D" "$@" >"$T/out" 2>"$T/err"
	st=$?
}

show() {
	diag "exit $st; stdout:"
	diag "$(cat "$T/out")"
	diag "stderr:"
	diag "$(cat "$T/err")"
}

# The three header lines, exactly.
cat >"$T/header" <<'EOF'
              -------Sequential Output-------- ---Sequential Input-- --Random--
              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
EOF

header_ok() {
	head -n 3 "$T/out" | cmp -s - "$T/header"
}

# The report is the header and exactly one row.
one_row() {
	[ "$(wc -l <"$T/out")" -eq 4 ]
}

# row_fields: the fourth line, the row.
row() {
	sed -n 4p "$T/out"
}

fourteen() {
	[ "$(row | awk '{ print NF }')" = 14 ]
}

# Fields 3..14 positive numbers, except those listed as "-" by
# skipped_fields (a space-separated list of field numbers).
numbers_ok() {
	row | awk -v skip=" $1 " '
	function bad(i, why) { print "field " i " (" $i ") " why; err = 1 }
	{
		for (i = 3; i <= 14; i++) {
			if (index(skip, " " i " ")) {
				if ($i != "-")
					bad(i, "should be -")
				continue
			}
			if ($i !~ /^[0-9]+(\.[0-9]+)?$/ || $i + 0 <= 0)
				bad(i, "is not a positive number")
			else if (i <= 11 && i % 2 == 1 && $i !~ /^[0-9]+$/)
				bad(i, "is not whole K/sec")
			else if ((i % 2 == 0 || i == 13) && $i !~ /^[0-9]+\.[0-9]$/)
				bad(i, "does not have one decimal")
		}
	}
	END { exit err }' >"$T/why"
	r=$?
	[ -s "$T/why" ] && diag "$(cat "$T/why")"
	return $r
}

# The row laid out as the classic printf would: label %-8.8s, size %4d,
# then "%5d %4.1f" pairs and "%5.1f %4.1f" for seeks, single spaces.
layout_ok() {
	row | awk '
	{
		line = sprintf("%-8.8s %4d", $1, $2)
		for (i = 3; i <= 11; i += 2)
			line = line sprintf(" %5s %4s", $i, $(i + 1))
		line = line sprintf(" %5s %4s", $13, $14)
		if (line != $0) exit 1
	}'
}

# 1. A default run on a tiny file (forked seekers).
bn -m testhost $SMALL
check "a tiny run exits 0" $st
[ $st -eq 0 ] || show
ok "the three header lines byte for byte" header_ok
ok "header plus exactly one row on stdout" one_row
ok "the row has 14 whitespace-separated fields" fourteen
ok "every number in the row is positive" numbers_ok ""
ok "the row is laid out like the classic printf" layout_ok
check "the row starts with the label and the size in MiB" \
    "$(row | awk '$1 == "testhost" && $2 == 4 { print 0; exit } { print 1 }')"
ok "no test file left after a normal run" no_test_files "$D"

# 2. Progress when stderr is not a terminal: one line per phase.
ok "progress: 'Writing with putc()...done' on stderr" \
    grep -qx 'Writing with putc()\.\.\.done' "$T/err"
n=$(grep -c '\.\.\.done$' "$T/err")
check "progress: a '...done' line for each of the six phases (saw $n)" \
    "$([ "$n" -ge 6 ] && echo 0 || echo 1)"
[ "$n" -ge 6 ] || show

# 3. Both seeker modes: the same work and the same report.  Their %CPU
#    is the seekers' own CPU over the phase's span and can never exceed
#    100 x cores (the known peer reports 373-399% on 2 cores).  Short seek
#    phases with many seekers are where CPU spent outside the span (fork,
#    thread creation, set-up, exit) would show, so each mode runs five of
#    them, the last two with 64 seekers doing one seek each.
for mode in fork thread; do
	bn -m "$mode" -s 8 -c 4k -n 4000 -S 8 --seekers=$mode
	check "--seekers=$mode: a full run exits 0" $st
	[ $st -eq 0 ] || show
	ok "--seekers=$mode: 14 fields" fourteen
	ok "--seekers=$mode: every number positive" numbers_ok ""
	cpus=$(row | awk '{ print $14 }')
	for s in "100 8" "100 8" "100 8" "64 64" "64 64"; do
		bn -m "$mode" -s 8 -c 4k -n ${s% *} -S ${s#* } --seekers=$mode \
		    -p write,seeks
		cpus="$cpus $(row | awk '{ print $14 }')"
	done
	check "--seekers=$mode: seek %CPU ($cpus) within 100 x $NCPU cores (+1)" \
	    "$(echo "$cpus" | awk -v n="$NCPU" '{ for (i = 1; i <= NF; i++)
		if ($i !~ /^[0-9.]+$/ || $i + 0 > 100 * n + 1) bad = 1 }
		END { exit bad }'; echo $?)"
	ok "--seekers=$mode: no test file left" no_test_files "$D"
done

# 4. On a terminal, progress is live: the phase line is redrawn in place
#    (carriage returns) on stderr; -q keeps even the terminal quiet.
if command -v script >/dev/null 2>&1 &&
    script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	script -qec "'$BONNIE' -d '$D' -s 16 -c 4k -n 100 -f -m tty >'$T/out'" \
	    "$T/ts" </dev/null >/dev/null 2>&1
	check "on a terminal: exits 0" $?
	grep -v '^Script \(started\|done\)' "$T/ts" >"$T/tty"
	ok "on a terminal: the report still goes to stdout alone" header_ok
	ok "on a terminal: the phase line is redrawn in place" \
	    grep -q "$(printf '\r')" "$T/tty"
	ok "on a terminal: phases are named" grep -q 'Writing intelligently' "$T/tty"
	script -qec "'$BONNIE' -q -d '$D' -s 16 -c 4k -n 100 -f -m tty >'$T/out'" \
	    "$T/ts" </dev/null >/dev/null 2>&1
	grep -v '^Script \(started\|done\)' "$T/ts" | tr -d '\r\n' >"$T/tty"
	ok "on a terminal with -q: nothing on the terminal" \
	    sh -c "[ ! -s '$T/tty' ]"
else
	for i in 1 2 3 4 5; do skip "script(1) is not available: no terminal"; done
fi

# 5. -f skips the two per-char phases: their fields are "-".
bn -m fast $SMALL -f
check "-f: exits 0" $st
ok "-f: 14 fields" fourteen
ok "-f: per-char fields are '-', the others positive" numbers_ok "3 4 9 10"
ok "-f: the row is still laid out like the classic printf" layout_ok
n=$(grep -c '\.\.\.done$' "$T/err")
check "-f: progress shows only the four phases that ran (saw $n)" \
    "$([ "$n" -eq 4 ] && echo 0 || echo 1)"
ok "-f: no putc progress line" sh -c "! grep -q 'putc' '$T/err'"

# 6. -p selects phases; the rest print "-".
bn -m phases $SMALL -p write,read
check "-p write,read: exits 0" $st
ok "-p write,read: 14 fields" fourteen
ok "-p write,read: only block write and block read have numbers" \
    numbers_ok "3 4 7 8 9 10 13 14"

# 7. The label is cut to 8 characters.
bn -m averyverylonghostname $SMALL -f
check "long label: exits 0" $st
check "long label: cut to 8 characters" \
    "$(row | awk '$1 == "averyver" { print 0; exit } { print 1 }')"

# 7b. Without -m the label is the short host name.
host=$(uname -n | sed 's/\..*//' | cut -c1-8)
bn -s 4 -c 4k -f -p write
check "no -m: exits 0" $st
check "no -m: the label is the short host name, '$host'" \
    "$(row | awk -v h="$host" '$1 == h { print 0; exit } { print 1 }')"

# 8. -q: the report on stdout and nothing at all on stderr.
bn -q -m quiet $SMALL -f
check "-q: exits 0" $st
ok "-q: stderr is empty" sh -c "[ ! -s '$T/err' ]"
ok "-q: stdout is the header and one row" one_row
ok "-q: header byte for byte" header_ok

# 9. A size that is not whole chunks is rounded down, with a note.
#    10001k = 10241024 bytes = 2500 chunks of 4096 and 1024 bytes over.
bn -m round -s 10001k -c 4k -n 200 -f
check "-s 10001k -c 4k: exits 0" $st
[ $st -eq 0 ] || show
ok "-s 10001k -c 4k: stderr says the size was rounded" \
    grep -qi 'round' "$T/err"
check "-s 10001k -c 4k: the row shows 9 MiB (10240000 bytes)" \
    "$(row | awk '$2 == 9 { print 0; exit } { print 1 }')"
bn -m exact -s 10000k -c 4k -n 200 -f -p write
check "-s 10000k -c 4k (whole chunks): exits 0" $st
ok "-s 10000k -c 4k: no rounding note" sh -c "! grep -qi 'round' '$T/err'"

ok "no test file left after all runs" no_test_files "$D"
done_testing
