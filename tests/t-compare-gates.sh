#!/bin/sh
# Gates that gate: compare refuses, exit 2 with one line and nothing on
# standard output, a -F column that no input has (it would check nothing
# and say ok) and a threshold at which no selected rate could ever be
# worse (a rate falls by 100% at most); a gate that can fire still runs.
. tests/lib.sh
scratch

"$BONNIE" -d "$T" -s 1m -p write,read -q --json "$T/a.json" >/dev/null &&
    "$BONNIE" -d "$T" -s 1m -p write,read -q --json "$T/b.json" >/dev/null
check "two runs of write and read" $?

# gate DESC WANT-STATUS GREP ARGS...: compare ARGS a b.
gate() {
	_d=$1 _w=$2 _g=$3; shift 3
	"$BONNIE" compare "$@" "$T/a.json" "$T/b.json" >"$T/out" 2>"$T/err"
	st=$?
	if [ "$_w" = 2 ]; then
		[ $st -eq 2 ] && [ ! -s "$T/out" ] &&
		    [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$_g" "$T/err"
	else
		[ $st -ne 2 ] && grep -q "^result: " "$T/out"
	fi
	check "$_d (exit $st)" $? || diag "$(cat "$T/err")"
}

gate "-F putc, which neither side ran: refused" 2 \
    "compare: -F putc: no input has that column, so the gate would check nothing" \
    -F putc
gate "-F putc,write: putc still refused" 2 "-F putc: no input has" \
    -F putc,write
gate "-F write, which both ran: compared" 0 "" -F write
gate "-F rates: compared, some rates present" 0 "" -F rates
gate "-t 100 with the default rates: refused" 2 \
    "compare: -t 100: a rate falls by 100% at most, so .* could never be worse" \
    -t 100
gate "-t 250% with -F write: refused" 2 "-t 250: a rate falls by 100%" \
    -t 250% -F write
gate "-t 99.9: a fall can still be worse" 0 "" -t 99.9
gate "-t 100 -F write_lat: a latency can rise without bound" 0 "" \
    -t 100 -F write_lat
no_test_files "$T"; check "no test file left" $?
done_testing
