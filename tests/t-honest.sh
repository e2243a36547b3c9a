#!/bin/sh
# Honest in every mode: repeats are independent samples that -z
# reproduces, and the bonnie++ CSV keeps the machine name in bon_csv2txt.
. tests/lib.sh
scratch

have() { command -v "$1" >/dev/null 2>&1; }

# The offsets each seeker process read, one line per process, from strace.
seek_offsets() {
	awk '/pread64\(4,/ { sub(/\) = .*/, ""); n = split($0, a, ", ");
	    o[$1] = o[$1] " " a[n] } END { for (p in o) print o[p] }' "$1" |
	    sort
}

# -x N: every run its own seed, derived from the base seed and recorded;
# -z SEED reproduces the whole series.
if have jq; then
	"$BONNIE" -d "$T" -s 4m -c 4k -p seeks -n 50 -x 3 -z 777 \
	    --json "$T/a.json" >/dev/null 2>"$T/err"
	check "-x 3 -z 777 runs" $?
	jq -e '.options.seed == 777 and .runs[0].seed == 777 and
	    ([.runs[].seed] | unique | length) == 3' "$T/a.json" >/dev/null
	check "-x 3: three different seeds, the first the base seed" $?
	"$BONNIE" -d "$T" -s 4m -c 4k -p seeks -n 50 -x 3 -z 777 -q \
	    --json "$T/b.json" >/dev/null 2>&1
	[ "$(jq -c '[.runs[].seed]' "$T/a.json")" = \
	    "$(jq -c '[.runs[].seed]' "$T/b.json")" ]
	check "-z 777 reproduces the series of seeds" $?
	for i in 1 2 3; do
		grep -q "^bonnie-ng: run $i of 3$" "$T/err" || break
	done
	check "-x 3 says run 1 of 3 .. run 3 of 3" $?
	"$BONNIE" -d "$T" -s 4m -c 4k -p seeks -n 50 -x 2 -q \
	    --json "$T/c.json" >/dev/null 2>&1
	jq -e '.options.seed_given == false and
	    .runs[0].seed == .options.seed and .runs[1].seed != .runs[0].seed' \
	    "$T/c.json" >/dev/null
	check "-x 2 without -z: the second run has a seed of its own" $?
else
	skip "repeats: jq is not installed"
fi
if have strace; then
	# The repeats seek to other offsets; a second series with the same
	# -z seeks to the same ones.
	for s in 1 2; do
		strace -f -qq -e trace=pread64 -o "$T/st$s" "$BONNIE" -d "$T" \
		    -s 4m -c 4k -p seeks -n 20 -S 1 -x 2 -z 99 -q -o csv \
		    >/dev/null 2>&1
		seek_offsets "$T/st$s" >"$T/off$s"
	done
	[ "$(wc -l <"$T/off1")" -eq 2 ] &&
	    [ "$(sed -n 1p "$T/off1")" != "$(sed -n 2p "$T/off1")" ]
	check "strace: the two runs' seekers read different offsets" $?
	cmp -s "$T/off1" "$T/off2"
	check "strace: the same -z reads the same offsets again" $?
else
	skip "offsets: strace is not installed"
	skip "offsets: strace is not installed"
fi

# The CSV writes the size in its shortest form, as bonnie++ does, and
# bon_csv2txt keeps the machine name in front of it.
"$BONNIE" -d "$T" -s 1m -c 4k -p write -m host7 -q -o csv >"$T/one.csv"
check "-o csv runs" $?
[ "$(cut -d, -f6 "$T/one.csv")" = 1M ]
check "1 MiB is written 1M" $?
"$BONNIE" -d "$T" -s 1536k -c 4k -p write -m host7 -q -o csv >"$T/k.csv"
[ "$(cut -d, -f6 "$T/k.csv")" = 1536K ]
check "1.5 MiB is written 1536K" $?
# A 1 GiB run is too long for a test: the same row with the size of one
# (before, 1024M:16384:4000:3 left no room for the name at all).
"$BONNIE" -d "$T" -s 1m -c 16k -p write -m host7 -q -o csv >"$T/g.csv"
sed 's/^\(\([^,]*,\)\{5\}\)[^,]*,/\11G,/' "$T/g.csv" >"$T/g1.csv"
"$BONNIE" report "$T/g1.csv" >"$T/g1.txt" 2>&1
grep -q "host7 .* 1G " "$T/g1.txt"
check "report reads the size 1G back" $?
if have bon_csv2txt; then
	bon_csv2txt <"$T/g1.csv" >"$T/g1.bon" 2>/dev/null
	grep -q '^h[a-z0-9]* *1G:16384:4000:3 ' "$T/g1.bon"
	check "bon_csv2txt keeps the machine name before 1G:16384:4000:3" $?
	bon_csv2txt <"$T/one.csv" >"$T/one.bon" 2>/dev/null
	grep -q '^host *1M:4096:4000:3 ' "$T/one.bon"
	check "bon_csv2txt shows the name's start before 1M:4096:4000:3" $?
else
	skip "bon_csv2txt is not installed"
	skip "bon_csv2txt is not installed"
fi
done_testing
