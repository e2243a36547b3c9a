#!/bin/sh
# End to end: the command line.  Every malformed or out-of-range value is
# refused before any file is made, with one line on stderr naming the
# option and exit status 2; a missing directory is a runtime failure
# (exit 1) naming the path; the valid spellings of sizes are accepted;
# -h and -V answer and exit 0.
. tests/lib.sh
scratch

D=$T/d
mkdir "$D" || exit 1

# refused OPTION-NAME ARGS...: the binary, run on $D with ARGS, exits 2,
# prints nothing on stdout, exactly one line on stderr that starts with
# "bonnie-ng: " and contains OPTION-NAME, and leaves $D empty.
refused() {
	name=$1; shift
	"$BONNIE" -d "$D" "$@" >"$T/out" 2>"$T/err" </dev/null
	st=$?
	why=""
	[ $st -eq 2 ] || why="$why exit $st, not 2;"
	[ -s "$T/out" ] && why="$why output on stdout;"
	n=$(wc -l <"$T/err")
	[ "$n" -eq 1 ] || why="$why $n lines on stderr, not 1;"
	grep -q '^bonnie-ng: ' "$T/err" || why="$why stderr does not start with 'bonnie-ng: ';"
	grep -qe "$name" "$T/err" || why="$why stderr does not name $name;"
	[ -z "$(ls -A "$D")" ] || why="$why left $(ls -A "$D");"
	rm -rf "$D"; mkdir "$D"
	if [ -n "$why" ]; then
		diag "$*:$why"
		diag "stderr: $(head -n 5 "$T/err")"
		return 1
	fi
	return 0
}

# named VALUE: the line of the last refusal names the value as given.
named() {
	grep -qF -e "$1" "$T/err" && return 0
	diag "stderr does not name '$1': $(cat "$T/err")"
	return 1
}

# Sizes.
ok "-s -5 refused"			refused --size -s -5
ok "-s 0 refused"			refused --size -s 0
ok "-s 0m refused"			refused --size -s 0m
ok "-s 12x (junk suffix) refused"	refused --size -s 12x
ok "-s 12x: the line names the value '12x'"	named '12x'
ok "-s 4mx (junk after suffix) refused"	refused --size -s 4mx
ok "-s '' refused"			refused --size -s ''
ok "-s 1.5g refused"			refused --size -s 1.5g
ok "-s 1.5g: the line names the value '1.5g'"	named '1.5g'
ok "-s 99999999999999999999t (overflow) refused" \
					refused --size -s 99999999999999999999t
ok "-s 99999999999999999999t: the line names the value '99999999999999999999t'"	named '99999999999999999999t'
ok "-s 16777216t (2^64 bytes) refused"	refused --size -s 16777216t
ok "--size=abc refused"			refused --size --size=abc
ok "-s 2k -c 4k (smaller than a chunk) refused" \
					refused --size -s 2k -c 4k
ok "-s 1000 -c 8k -s 1k (last -s wins, too small) refused" \
					refused --size -s 1000 -c 8k -s 1k

# Chunks.
ok "-c 3000 (not a power of two) refused" refused --chunk -c 3000
ok "-c 3000: the line names the value '3000'"	named '3000'
ok "-c 256 (below 512) refused"		refused --chunk -c 256
ok "-c 32m (above 16 MiB) refused"	refused --chunk -c 32m
ok "-c 32m: the line names the value '32m'"	named '32m'
ok "-c 0 refused"			refused --chunk -c 0
ok "-c -4096 refused"			refused --chunk -c -4096
ok "-c 4q refused"			refused --chunk -c 4q
ok "--chunk=99999999999999999999999 refused" \
					refused --chunk --chunk=99999999999999999999999

# Seekers and seeks.
ok "-S 0 refused"			refused --seekers -S 0
ok "-S 257 refused"			refused --seekers -S 257
ok "-S 257: the line names the value '257'"	named '257'
ok "-S -1 refused"			refused --seekers -S -1
ok "-S two refused"			refused --seekers -S two
ok "--seekers=walk refused"		refused --seekers --seekers=walk
ok "--seekers=walk: the line names the value 'walk'"	named 'walk'
ok "--seekers= (empty) refused"		refused --seekers --seekers=
ok "-n 0 refused"			refused --seeks -n 0
ok "-n -3 refused"			refused --seeks -n -3
ok "-n -3: the line names the value '-3'"	named '-3'
ok "-n 10k0 refused"			refused --seeks -n 10k0

# The other options with values.
ok "--cache=warm refused"		refused --cache --cache=warm
ok "--cache=warm: the line names the value 'warm'"	named 'warm'
ok "-o xml refused"			refused --output -o xml
ok "-o xml: the line names the value 'xml'"	named 'xml'
ok "--output=txt refused"		refused --output --output=txt
ok "--output=txt: the line names the value 'txt'"	named 'txt'
ok "-p bogus refused"			refused --phases -p bogus
ok "-p bogus: the line names the value 'bogus'"	named 'bogus'
ok "-p write,,read refused"		refused --phases -p write,,read
ok "-x 0 refused"			refused --repeat -x 0
ok "-x many refused"			refused --repeat -x many
ok "-x many: the line names the value 'many'"	named 'many'
ok "-z junk refused"			refused --seed -z junk
ok "-z junk: the line names the value 'junk'"	named 'junk'
ok "--ram 12q refused"			refused --ram --ram 12q
ok "--ram 12q: the line names the value '12q'"	named '12q'

# Unknown options and missing arguments.
ok "--bogus (unknown option) refused"	refused bogus --bogus
ok "-Y (unknown short option) refused"	refused Y -Y
ok "-s without a value refused"		refused "-s\|'s'\|--size" -s
ok "--size without a value refused"	refused size --size
ok "a stray operand refused"		refused stray -s 4 stray

# A directory that does not exist is a runtime failure: exit 1, one line
# naming the path, nothing created anywhere.
"$BONNIE" -d "$T/missing/dir" -s 4 -c 4k -q >"$T/out" 2>"$T/err"
st=$?
check "missing directory: exit 1 (got $st)" "$([ $st -eq 1 ] && echo 0 || echo 1)"
ok "missing directory: stderr names the path" grep -q "$T/missing/dir" "$T/err"
check "missing directory: one line on stderr" \
    "$([ "$(wc -l <"$T/err")" -eq 1 ] && echo 0 || echo 1)"
[ $st -eq 1 ] || diag "stderr: $(cat "$T/err")"
ok "missing directory: nothing created" sh -c "[ ! -e '$T/missing' ]"

# A regular file given as the directory: also exit 1, naming it.
: >"$T/plain"
"$BONNIE" -d "$T/plain" -s 4 -c 4k -q >"$T/out" 2>"$T/err"
st=$?
check "-d on a regular file: exit 1 (got $st)" "$([ $st -eq 1 ] && echo 0 || echo 1)"
ok "-d on a regular file: stderr names the path" grep -q "$T/plain" "$T/err"

# Valid spellings are accepted.
accepted() {
	"$BONNIE" -d "$D" -q "$@" >"$T/out" 2>"$T/err"
	st=$?
	if [ $st -ne 0 ]; then
		diag "$*: exit $st: $(cat "$T/err")"
		return 1
	fi
	no_test_files "$D"
}
ok "-s 4 -c 4096 accepted (MiB and bytes when bare)" \
    accepted -s 4 -c 4096 -f -p write
ok "--size=4m --chunk=4k accepted"	accepted --size=4m --chunk=4k -f -p write
ok "-s 4096K -c 4KiB accepted"		accepted -s 4096K -c 4KiB -f -p write
check "-s 4 shows 4 MiB in the row" \
    "$(sed -n 4p "$T/out" | awk '$2 == 4 { print 0; exit } { print 1 }')"
ok "--seekers=2 (a number) accepted"	accepted -s 4 -c 4k -n 100 -p write,seeks --seekers=2
ok "--seekers 2 --seekers=thread accepted" \
    accepted -s 4 -c 4k -n 100 -p write,seeks --seekers 2 --seekers=thread
ok "--cache=keep and --cache=cold accepted" \
    accepted -s 4 -c 4k -p write --cache=keep --cache=cold
ok "-c 512 and -c 16m are the bounds" \
    sh -c "'$BONNIE' -d '$D' -q -s 1m -c 512 -p write >/dev/null &&
	   '$BONNIE' -d '$D' -q -s 16m -c 16m -p write >/dev/null"

# -h and -V.
"$BONNIE" -h >"$T/out" 2>"$T/err"
st=$?
check "-h exits 0" $st
ok "-h prints the usage on stdout" grep -qi 'usage' "$T/out"
"$BONNIE" --help >"$T/out2" 2>/dev/null
check "--help exits 0" $?
"$BONNIE" -V >"$T/out" 2>"$T/err"
st=$?
check "-V exits 0" $st
ok "-V prints the version from VERSION" grep -qF "$(cat VERSION)" "$T/out"
"$BONNIE" --version >/dev/null 2>&1
check "--version exits 0" $?

ok "nothing left in the directory" no_test_files "$D"
done_testing
