#!/bin/sh
# bonnie-ng pp against bonnie++ 2.00a itself: the same command lines, run
# by both programs on a small directory (a tmpfs where there is one), must
# be accepted by both or refused by both.  The lines are those harnesses
# pass: numbers read with atoi (-r 7782.55078125, -r '', -s abc), -s and -n
# split with strtok (-s:768:64k, -n :1, -n 1::), -x 0, an optional value
# glued on (-f1), and the lines bonnie++ refuses (a chunk that is no power
# of two from 256 bytes to 1 MiB, -c 0, an operand, -p with -y, ...).
# Then the meaning of a few: the size and chunk of -s:8:64k, the RAM of
# -r 7782.55078125, nothing written for -x 0.  Needs bonnie++ (Debian
# package bonnie++) and root (bonnie++ asks for -u as root; without root
# it would run as the caller, which the lines with -u cannot).
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
scratch

if ! command -v bonnie++ >/dev/null 2>&1; then
	skip "bonnie++ is not installed (Debian package bonnie++)"
	done_testing
	exit
fi
if ! is_root; then
	skip "not root: bonnie++'s -u lines need root"
	done_testing
	exit
fi
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	S=$(mktemp -d /dev/shm/bonnie-ng-lines.XXXXXX) || exit 1
	trap 'rm -rf "$S"; cleanup_scratch' EXIT
else
	S=$T/s
	mkdir "$S" || exit 1
fi
mkdir "$S/b" "$S/n"

# The lines, one a line, as shell words after "-u root -d DIR"; the
# first word is what bonnie++ does with it: 0 runs, 1 refuses.
cat >"$T/lines" <<'EOF'
0 -s 0 -n 1 -r 7782.55078125
0 -s:8:64k -n 0 -r 0 -f
0 -s 0 -n 1 -r ''
0 -s 0 -n 1 -x 0
0 -s 0 -n 1 -x -1
0 -s 4:8192:1000 -n 0 -r 0 -f1
0 -s 4:8192:1000 -n 0 -r 0 -f0
0 -s 0 -n 1 -y q
0 -s 0 -n :1
0 -s 0 -n 1::
0 -s 0 -n 1:4k:1k:2
0 -s abc -n 1
0 -s 0 -n 1 -z abc
0 -s 0 -n 1 -z 12x
0 -s 0 -n 1 -m 'my host'
0 -s 0 -n 1 -c 2
0 -s 4:256 -n 0 -r 0 -f
0 -s 4m:1k -n 0 -r 0 -f
0 -s 0 -n 1 -p 0
0 -qs0 -n1
0 -s 0 -n 1 -x 2
0 -s 0 -n 1 --
0 -s 0 -n 1 -c 1.9
1 -s 4:100 -n 0 -r 0
1 -s 4:1000 -n 0 -r 0
1 -s 4:2m -n 0 -r 0
0 -s 4::64k -n 0 -r 0 -f
0 -s 4:64k:100:2 -n 0 -r 0 -f
0 -s 4:64k:0 -n 0 -r 0 -f
1 -s 0 -n 0
1 -s 0 -n abc
1 -s -5 -n 1
1 -s 0 -n 1:10:20
1 -s 0 -n 1:0:0:1:100
1 -s 0 -n 1 extra
1 -s 0 -n 1 -c 0
1 -s 0 -n 1 -c 201
1 -s 0 -n 1 -y
1 -s 0 -n 1 -p 2 -y s
1 -s 0 -n 1 -u root
1 -s 0 -n 1 -Q
1 -s '' -n 1
1 -s 0 -n ''
EOF

# run PROG DIR WORDS...: 0 when the program took the line (it exited 0,
# or it had started a test, "...done" on stderr, before it failed: bonnie++
# once stopped mid-way at a load of 30), 1 when it refused it (any other
# failure, a crash too); the outputs in $T/PROG.out and .err.
run_one() {
	p=$1 d=$2
	shift 2
	if [ "$p" = bonnie++ ]; then
		timeout 120 bonnie++ -u root -d "$d" "$@" \
		    >"$T/$p.out" 2>"$T/$p.err" </dev/null
	else
		timeout 120 "$BONNIE" pp -u root -d "$d" "$@" \
		    >"$T/$p.out" 2>"$T/$p.err" </dev/null
	fi
	[ $? -eq 0 ] || grep -q '\.\.\.done' "$T/$p.err" && echo 0 || echo 1
}

# bonnie++ does not change with the build: the plain build runs it beside
# pp on every line; the others (the sanitizers, the portable builds) take
# its verdict from the first column, which the plain build checks.
real=1
if [ -n "${BONNIE_NG_SANITIZED:-}" ] || portable; then
	real=0
	diag "bonnie++'s verdicts from the list (checked in the plain build's run)"
fi
while read -r want line; do
	eval "set -- $line"
	if [ $real -eq 1 ]; then
		# bonnie++ crashes on -s '': no shell's word on it here.
		run_one bonnie++ "$S/b" "$@" >"$T/b.rc" 2>/dev/null &
		n=$(run_one pp "$S/n" "$@")
		wait
		b=$(cat "$T/b.rc")
	else
		b=$want
		n=$(run_one pp "$S/n" "$@")
	fi
	check "'$line': bonnie++ $( [ "$b" = 0 ] && echo runs ||
	    echo refuses), pp too" $([ "$b" = "$want" ] && [ "$n" = "$b" ]; echo $?)
	if [ "$b" != "$want" ] || [ "$n" != "$b" ]; then
		diag "bonnie++: $b (want $want): $(head -c 300 "$T/bonnie++.err")"
		diag "pp: $n: $(head -c 600 "$T/pp.err")"
	fi
	rm -rf "${S:?}"/b/* "${S:?}"/n/*
done <"$T/lines"

# bonnie++ takes hard and soft links for files (-n N:-1, -n N:-2);
# bonnie-ng has no such tests and refuses them with a reason.
b=0
[ $real -eq 1 ] && b=$(run_one bonnie++ "$S/b" -s 0 -n 1:-1)
n=$(run_one pp "$S/n" -s 0 -n 1:-1)
check "-n 1:-1: bonnie++ runs links ($b), pp refuses with the reason" \
    $([ "$b" = 0 ] && [ "$n" = 1 ] && grep -q 'links' "$T/pp.err"; echo $?)
rm -rf "${S:?}"/b/* "${S:?}"/n/*

# The meaning: -s:8:64k is 8 MiB in chunks of 64 KiB (the CSV's size and
# chunk fields; bonnie++'s own text report says 8M:64k).  (The -f lines
# above give a seek count, 1000, which saves bonnie-ng's second or two of
# seeking without one; a count would change what bonnie++ prints here.)
# bonnie WORDS...: bonnie++ in the plain build; elsewhere its output
# checks pass (bonnie++ is the same in every build).
bonnie() {
	if [ $real -eq 1 ]; then
		run_one bonnie++ "$@" >/dev/null
	fi
}
bonnie_out() { [ $real -eq 0 ] || "$@"; }
bonnie "$S/b" -s:8:64k -n 0 -r 0 -f
run_one pp "$S/n" -q -s:8:64k -n 0 -r 0 -f >/dev/null
check "-s:8:64k: bonnie++'s report says 8M:64k; pp's CSV size 8M, chunk 65536" \
    $(bonnie_out grep -q ' 8M:64k ' "$T/bonnie++.out" &&
    awk -F, '{ exit !($6 == "8M" && $7 == 65536) }' "$T/pp.out"; echo $?)
# -r 7782.55078125 is 7782 MiB, in the record.
run_one pp "$S/n" -q -s 0 -n 1 -r 7782.55078125 --json "$T/r.json" \
    >/dev/null
check "-r 7782.55078125: the record's RAM is 7782 MiB" \
    $(grep -q '"ram_bytes": *8160018432,' "$T/r.json"; echo $?)
# -x 0: nothing on standard output from either.
bonnie "$S/b" -s 0 -n 1 -x 0
run_one pp "$S/n" -s 0 -n 1 -x 0 >/dev/null
check "-x 0: neither writes a line on standard output" \
    $(bonnie_out [ ! -s "$T/bonnie++.out" ] && [ ! -s "$T/pp.out" ]; echo $?)
# At bonnie++'s default chunk, field 6 is empty in both.
bonnie "$S/b" -s 4 -n 0 -r 0 -f
run_one pp "$S/n" -q -s 4 -n 0 -r 0 -f >/dev/null
check "default chunk: field 6 empty in bonnie++'s CSV line and in pp's" \
    $(bonnie_out awk -F, 'END { exit !($7 == "") }' "$T/bonnie++.out" &&
    awk -F, '{ exit !($7 == "") }' "$T/pp.out"; echo $?)
check "nothing left in either directory" \
    $([ -z "$(ls -A "$S/b" "$S/n" | grep -v ':$' | grep .)" ]; echo $?)
done_testing
