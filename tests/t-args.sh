#!/bin/sh
# End to end: the one option parser.  The usage every command prints is
# the man page's SYNOPSIS; every command takes -h and --help; an error is
# one line, and when the usage follows it, it follows on lines of its own;
# the drift between a single run's options and a sweep's is gone (the
# same rows, the same checks, the same words).
. tests/lib.sh
scratch
D=$T/d
mkdir "$D" || exit 1

# The usage of every command, one line per command, spaces squeezed.
usage_lines() {
	awk '
		/^$/ { exit }
		{ sub(/^usage: /, ""); sub(/^ +/, "") }
		/^bonnie-ng/ { if (line != "") print line; line = $0; next }
		{ line = line " " $0 }
		END { if (line != "") print line }
	' | sed 's/  */ /g; s/ *$//'
}

"$BONNIE" --help >"$T/help" 2>"$T/err"
check "--help exits 0" $?
usage_lines <"$T/help" >"$T/usage"
check "--help shows the usage of the seven commands" \
    "$([ "$(wc -l <"$T/usage")" -eq 7 ] && echo 0 || echo 1)"

if command -v mandoc >/dev/null 2>&1; then
	bs=$(printf '\b')
	mandoc -T ascii -O width=1000 man/bonnie-ng.1 2>/dev/null |
	    sed "s/.$bs//g" |
	    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | grep 'bonnie-ng' |
	    sed 's/^ *//; s/ *| */|/g; s/  */ /g; s/ *$//' >"$T/synopsis"
	if cmp -s "$T/usage" "$T/synopsis"; then
		check "the usage is the man page's SYNOPSIS" 0
	else
		check "the usage is the man page's SYNOPSIS" 1
		diff "$T/synopsis" "$T/usage" | sed 's/^/# /'
	fi
else
	skip "mandoc is not installed"
fi

# Every command: -h and --help exit 0 with its usage on stdout, nothing on
# stderr, and its usage is the line the default command's help has for it.
for c in compare report sweep pp; do
	for h in -h --help; do
		"$BONNIE" $c $h >"$T/out" 2>"$T/err"
		st=$?
		[ $st -eq 0 ] && [ ! -s "$T/err" ] &&
		    head -n 1 "$T/out" | grep -q "^usage: bonnie-ng $c "
		check "$c $h: exit 0, its usage on stdout (exit $st)" $?
	done
	usage_lines <"$T/out" >"$T/one"
	grep -qxF -f "$T/one" "$T/usage"
	check "$c --help: the same usage as bonnie-ng --help's" $?
	# And one help line per option, each under 80 columns.
	awk 'length > 80 { bad = 1 } END { exit bad }' "$T/out"
	check "$c --help: no line over 80 columns" $?
done
awk 'length > 80 { bad = 1 } END { exit bad }' "$T/help"
check "--help: no line over 80 columns" $?
for o in dir label seekers seeks seed phases quiet cache ram size chunk \
    repeat output json direct no-space-check fast latency version help; do
	grep -q -- "--$o\\b" "$T/help" || echo "--$o" >>"$T/nohelp"
done
[ -s "$T/nohelp" ] && diag "no help line: $(cat "$T/nohelp")"
check "--help has a line for every option" "$([ ! -s "$T/nohelp" ] && echo 0 || echo 1)"

# Every long option any command's help lists has an entry in the manual
# (an ".It" line with ".Fl -name"): adding a row without its manual entry
# fails here.
: >"$T/undoc"
sed 's/\\-/-/g' man/bonnie-ng.1 | grep '^\.It ' >"$T/items"
for c in "" compare report sweep pp; do
	# shellcheck disable=SC2086
	"$BONNIE" $c --help 2>/dev/null |
	    sed -n 's/^  \(-., \)\{0,1\} *--\([a-z][a-z-]*\).*/\2/p'
done | sort -u >"$T/longs"
while read -r o; do
	grep -q -e "Fl -$o\\b" "$T/items" || echo "--$o" >>"$T/undoc"
done <"$T/longs"
[ -s "$T/undoc" ] && diag "no entry in the manual: $(cat "$T/undoc")"
check "every long option in the helps ($(wc -l <"$T/longs") of them) has an entry in the manual" \
    "$([ -s "$T/longs" ] && [ ! -s "$T/undoc" ] && echo 0 || echo 1)"

# expect_error STATUS LINES PATTERN CMD...: exit STATUS, exactly LINES
# lines on stderr, the first "bonnie-ng: " and matching PATTERN, no
# literal backslash-n, nothing on stdout, nothing made in $D.
expect_error() {
	want=$1 lines=$2 pat=$3; shift 3
	"$BONNIE" "$@" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	why=
	[ $st -eq "$want" ] || why="$why exit $st;"
	[ "$(wc -l <"$T/err")" -eq "$lines" ] || why="$why $(wc -l <"$T/err") lines;"
	head -n 1 "$T/err" | grep -q "^bonnie-ng: .*$pat" || why="$why first line;"
	grep -qF '\n' "$T/err" && why="$why a literal \\n;"
	[ -s "$T/out" ] && why="$why output on stdout;"
	[ -z "$(ls -A "$D")" ] || why="$why left a file;"
	[ -n "$why" ] && diag "$*:$why $(cat "$T/err")"
	[ -z "$why" ]
}

# Too few operands: the error, then the usage on lines of its own.
ok "report without files: the error, then the usage" \
    expect_error 2 2 "report: too few arguments" report
ok "report without files: the usage is the second line" \
    sed -n '2p' "$T/err" | grep -q '^usage: bonnie-ng report '
ok "compare with one file: the error, then the usage" \
    expect_error 2 4 "compare: too few arguments" compare "$T/x.json"
ok "compare -h no longer refused" sh -c "'$BONNIE' compare -h >/dev/null"
ok "report --help no longer refused" sh -c "'$BONNIE' report --help >/dev/null"

# Unknown options, in every command: one line, pointing to its help.
ok "compare --bogus: one line" \
    expect_error 2 1 "compare: unknown option --bogus (see bonnie-ng compare --help)" \
    compare --bogus a b
ok "report -Y: one line" \
    expect_error 2 1 "report: unknown option -Y" report -Y a
ok "sweep --frobnicate: one line" \
    expect_error 2 1 "sweep: unknown option --frobnicate" sweep -d "$D" --frobnicate
ok "an ambiguous abbreviation names the candidates" \
    expect_error 2 1 "ambiguous option --se (--seekers, --seeks, --seed)" -d "$D" --se 3
ok "a flag given a value is refused" \
    expect_error 2 1 "option --fast takes no value" -d "$D" --fast=1

# The drift between run and sweep.  The same check, the same words.
msg() { sed 's/^bonnie-ng: \(sweep: \)\{0,1\}//' "$T/err"; }
for pair in "--cache=warm" "-m #x" "-m a,b" "-n 0" "-n 1099511627777" \
    "-S 0" "-S walk" "--ram 0" "-z -1" "-p bogus"; do
	# shellcheck disable=SC2086
	expect_error 2 1 "" -d "$D" $pair -s 1m -c 4k
	r=$?
	msg >"$T/run"
	# shellcheck disable=SC2086
	expect_error 2 1 "" sweep -d "$D" $pair --sizes 1m
	s=$?
	msg >"$T/sweep"
	cmp -s "$T/run" "$T/sweep"
	c=$?
	[ $c -eq 0 ] || diag "run: $(cat "$T/run") / sweep: $(cat "$T/sweep")"
	check "$pair: refused by run and sweep in the same words" \
	    "$([ $r -eq 0 ] && [ $s -eq 0 ] && [ $c -eq 0 ] && echo 0 || echo 1)"
done

# -n up to 2^40 in both (a sweep once stopped at 2^32 - 1).
"$BONNIE" -d "$D" -q -s 1m -c 4k -p seeks -n 4294967296 -x 1 --ram 1m \
    --bogus-to-stop-before-running >/dev/null 2>"$T/err"
grep -q "unknown option --bogus-to-stop" "$T/err"
check "run: -n 2^32 passes its check (refused only for the unknown option)" $?
"$BONNIE" sweep -d "$D" -n 4294967296 --bogus-to-stop >/dev/null 2>"$T/err"
grep -q "unknown option --bogus-to-stop" "$T/err"
check "sweep: -n 2^32 passes its check (refused only for the unknown option)" $?

# sweep --seekers 4 and -S thread, accepted (--seekers once took only a
# mode in a sweep, -S only a count).
"$BONNIE" sweep -d "$D" -q --sizes 1m..1m --chunks 4k -p seeks -n 200 \
    --min-time 0 --seekers 4 -S thread --json "$T/s.json" >"$T/out" 2>"$T/err"
st=$?
check "sweep --seekers 4 -S thread: exit 0 (exit $st)" $st
[ $st -eq 0 ] || diag "$(cat "$T/err")"
if command -v jq >/dev/null 2>&1 && [ -s "$T/s.json" ]; then
	jq -e '.options.seekers == 4 and .options.seeker_mode == "thread"' \
	    "$T/s.json" >/dev/null
	check "sweep record: 4 threaded seekers" $?
	# The default seed is 53 bits in a sweep too, as in a single run.
	jq -e '.options.seed < 9007199254740992 and
	    ([.points[].seed] | all(. < 9007199254740992))' "$T/s.json" \
	    >/dev/null
	check "sweep: the default seed fits in 53 bits" $?
else
	skip "jq is not installed or no record"
	skip "jq is not installed or no record"
fi
"$BONNIE" -d "$D" -q -s 1m -c 4k -p write -o json >"$T/r.json" 2>"$T/err"
if command -v jq >/dev/null 2>&1; then
	jq -e '.runs[0].seed < 9007199254740992' "$T/r.json" >/dev/null
	check "run: the default seed fits in 53 bits" $?
else
	skip "jq is not installed"
fi

ok "nothing left in the directory" no_test_files "$D"
done_testing
