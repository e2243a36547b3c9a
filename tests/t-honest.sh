#!/bin/sh
# Honest in every mode: repeats are independent samples that -z
# reproduces, and the bonnie++ CSV keeps the machine name in bon_csv2txt.
. tests/lib.sh
scratch

# The offsets each seeker process read, one line per process, from strace.
seek_offsets() {
	# The seeker's reads of one 4 KiB chunk, whatever its descriptor's
	# number (the run holds the directory open too).
	awk '/pread64\([0-9]+, .*, 4096, [0-9]+\) = / { sub(/\) = .*/, "");
	    n = split($0, a, ", ");
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
		strace -f --seccomp-bpf -qq -e trace=pread64 -o "$T/st$s" "$BONNIE" -d "$T" \
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
# A failed -o json run writes its partial record on stdout; compare leaves
# failed and interrupted runs out, fails a gate on a column the new side
# lacks, and refuses a side with no usable run.
if have jq && is_root && mkdir "$T/full" &&
    mount -t tmpfs -o size=4m tmpfs "$T/full" 2>/dev/null; then
	T_MOUNTS="$T/full"
	"$BONNIE" -d "$T" -s 4m -c 16k -p write,read,seeks -n 200 -x 2 -q \
	    --json "$T/base.json" >/dev/null 2>&1
	"$BONNIE" -d "$T/full" -s 8m -c 16k -p write,read,seeks \
	    --no-space-check -q -o json >"$T/enospc.json" 2>"$T/err"
	st=$?
	[ $st -eq 1 ] && jq -e '.runs[0].error.message |
	    test("No space left on device")' "$T/enospc.json" >/dev/null
	check "-o json: a failed run exits 1 with its record on stdout" $?
	grep -q "No space left on device" "$T/err"
	check "-o json: the error is still on stderr" $?
	"$BONNIE" compare --fail-on write,read,seeks "$T/base.json" \
	    "$T/enospc.json" >"$T/out" 2>"$T/cerr"
	st=$?
	[ $st -eq 2 ] && grep -q "enospc.json: no usable run (.*run 1: phase write:.*No space left" "$T/cerr"
	check "compare: a side with no usable run exits 2 and says why ($st)" $?

	# The same runs, one of them stopped by SIGINT: left out and listed.
	"$BONNIE" -d "$T" -s 4m -c 16k -p write,read,seeks -n 200 -q \
	    -o json >"$T/ok.json" 2>/dev/null
	jq '.runs[0].interrupted = "SIGINT" | .runs[0].phases.read = null |
	    .runs[0].phases.seeks = null' "$T/ok.json" >"$T/int1.json"
	jq -s '.[0].runs += .[1].runs | .[0]' "$T/ok.json" "$T/int1.json" \
	    >"$T/mixed.json"
	"$BONNIE" compare --fail-on write "$T/base.json" "$T/mixed.json" \
	    >"$T/out" 2>&1
	grep -q "^warning: 1 run left out of the statistics" "$T/out" &&
	    grep -q "mixed.json run 2: interrupted by SIGINT" "$T/out" &&
	    grep -q "^new 1: .*mixed.json (bonnie-ng JSON, 1 run used, 1 left out)" "$T/out"
	check "compare: an interrupted run is listed in a warning" $?
	"$BONNIE" compare -o json --fail-on write "$T/base.json" \
	    "$T/mixed.json" >"$T/out.json" 2>/dev/null
	jq -e '(.excluded_runs | length) == 1 and
	    (.columns[] | select(.name == "write") | .new[0].new_runs) == 1' \
	    "$T/out.json" >/dev/null
	check "compare: the interrupted run is out of the statistics" $?
	"$BONNIE" compare --fail-on write "$T/base.json" "$T/int1.json" \
	    >/dev/null 2>"$T/cerr"
	[ $? -eq 2 ] && grep -q "no usable run (.*interrupted by SIGINT)" "$T/cerr"
	check "compare: only an interrupted run is exit 2" $?

	# A run without seeks against a gate on seeks: missing, exit 1.
	"$BONNIE" -d "$T" -s 4m -c 16k -p write,read -q -o json \
	    >"$T/wr.json" 2>/dev/null
	"$BONNIE" compare --threshold 99 --fail-on write,read,seeks \
	    "$T/base.json" "$T/wr.json" >"$T/out" 2>&1
	st=$?
	[ $st -eq 1 ] && grep -Eq '^seeks +/sec +[0-9.]+( +[0-9.>]+%)? +- +- +missing' "$T/out" &&
	    grep -Eq '^result: missing \(missing: seeks(; could not tell: [a-z_, ]+)?\)$' "$T/out"
	check "compare: a selected column missing on the new side fails ($st)" $?
	"$BONNIE" compare -o json --threshold 99 --fail-on write,read,seeks \
	    "$T/base.json" "$T/wr.json" >"$T/out.json" 2>/dev/null
	jq -e '.exit == 1 and (.columns[] | select(.name == "seeks") |
	    .new[0].verdict) == "missing"' "$T/out.json" >/dev/null
	check "compare -o json: verdict missing, exit 1" $?
	"$BONNIE" compare --threshold 99 --fail-on write,read \
	    "$T/base.json" "$T/wr.json" >"$T/out" 2>&1
	[ $? -eq 0 ] && grep -q '^result: ok' "$T/out"
	check "compare: a column not selected may be missing" $?
	scratch_umount "$T/full"
else
	for i in 1 2 3 4 5 6 7 8 9; do
		skip "failed runs: needs root, jq and a tmpfs"
	done
fi
# Without -q stderr ends with one line on the cache; with -q it says nothing.
"$BONNIE" -d "$T" -s 2m -c 16k -p write,read,seeks -n 50 -o csv \
    >/dev/null 2>"$T/err"
last=$(tail -n 1 "$T/err")
case $last in
"bonnie-ng: cache: cold, held for every reading phase"*|\
"bonnie-ng: cache: cold, did not hold for "*) r=0 ;;
*) r=1 ;;
esac
check "stderr ends with the cache line ($last)" $r
hv=$(grep -c '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null)
if portable; then
	skip "the portable build cannot tell a virtual machine (Linux's cpuinfo)"
elif [ "${hv:-0}" -gt 0 ]; then
	echo "$last" | grep -q "a virtual machine: its host may cache the disk\($\|; free page reporting (order [0-9]*) gives\|; idle vCPUs halt at once\)"
	check "on a virtual machine the cache line says the host may cache the disk" $?
else
	! echo "$last" | grep -q "virtual machine"
	check "not a virtual machine: no host caveat" $?
fi
"$BONNIE" -d "$T" -s 2m -c 16k -p write,read -x 2 --cache=keep -o csv \
    >/dev/null 2>"$T/err"
tail -n 1 "$T/err" | grep -q "^bonnie-ng: cache: keep, left alone"
check "--cache=keep: the cache line says the cache was left alone" $?
"$BONNIE" -d "$T" -s 2m -c 16k -p write,read -q -o csv >/dev/null 2>"$T/err"
[ ! -s "$T/err" ]
check "-q: no cache line" $?

# The seek phase's progress never shows 100% more than once: the extra
# second past the seek count counts as progress too.
if have script; then
	script -qc "'$BONNIE' -d '$T' -s 8m -c 4k -p seeks -S 2 --cache=keep" \
	    "$T/tty" >/dev/null 2>&1 </dev/null
	tr '\r' '\n' <"$T/tty" | grep '^Seeking\.\.\.' >"$T/ticks"
	n100=$(grep -c '100%' "$T/ticks")
	nt=$(grep -c '%' "$T/ticks")
	[ "$n100" -le 1 ] && [ "$nt" -ge 2 ]
	check "seek progress: $nt ticks, 100% shown $n100 times" $?
else
	skip "script(1) is not installed"
fi
# compare sees -o sync (a super block option), says "unknown" for what one
# side does not record, and notes that bonnie++'s per-char tests differ.
if portable; then
	skip "compare -o sync: the portable build knows no mount options (Linux's mountinfo)"
elif is_root && have jq && have losetup && have mkfs.ext4; then
	mkdir "$T/m"
	truncate -s 64m "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1
	if mount -o loop "$T/img" "$T/m" 2>/dev/null; then
		T_MOUNTS="$T/m"
		"$BONNIE" -d "$T/m" -s 1m -c 16k -p write -q \
		    --json "$T/def.json" >/dev/null 2>&1
		mount -o remount,sync "$T/m"
		"$BONNIE" -d "$T/m" -s 1m -c 16k -p write -q \
		    --json "$T/sync.json" >/dev/null 2>&1
		"$BONNIE" compare "$T/def.json" "$T/sync.json" >"$T/out" 2>&1
		grep -Eq '^  mount options +[^|]+ \| .*(^|,| )sync(,|$)' "$T/out" &&
		    ! grep -Eq '^  mount options +[^|]*sync' "$T/out"
		check "compare: remount,sync shows in the mount options" $?
		diag "$(grep '^  mount options' "$T/out")"
		scratch_umount "$T/m"
	else
		skip "compare -o sync: cannot mount an ext4 image"
	fi
else
	skip "compare -o sync: needs root, jq, losetup and mkfs.ext4"
fi
"$BONNIE" -d "$T" -s 1m -c 16k -p write -q --json "$T/w.json" \
    >/dev/null 2>&1
"$BONNIE" compare "$T/w.json" tests/fixtures/pp-198.csv >"$T/out" 2>&1
grep -q "^  chunk  *16384 | unknown (bonnie++'s default is 8192)$" "$T/out" &&
    grep -q "^  seekers mode  *fork | unknown$" "$T/out" &&
    grep -q "^note: the per-char columns (putc, getc) measure different work" \
    "$T/out"
check "compare with bonnie++: unknown settings said, per-char note" $?
"$BONNIE" compare "$T/w.json" "$T/w.json" >"$T/out" 2>&1
! grep -q "^note: the per-char" "$T/out" && ! grep -q "unknown" "$T/out"
check "compare of bonnie-ng with itself: no unknowns, no per-char note" $?
"$BONNIE" -d "$T" -s 1m -c 16k -p write -q -S thread -z 5 \
    --json "$T/t.json" >/dev/null 2>&1
"$BONNIE" compare "$T/w.json" "$T/t.json" >"$T/out" 2>&1
grep -Eq '^  seekers mode +fork \| thread$' "$T/out" &&
    grep -Eq '^  seed +random \| given \(-z\)$' "$T/out"
check "compare lists the seekers mode and the seed policy" $?
# The table shows each side's spread with two or more runs, flags
# imprecise and warm phases, keeps latency in one unit per row, and a
# two-way table fits in 100 columns.
if have jq; then
	"$BONNIE" -d "$T" -s 1m -c 16k -p write,seeks -n 50 -x 2 -q \
	    --json "$T/c.json" >/dev/null 2>&1
	# The flags are the records' facts, and which phases a short run
	# finds imprecise (under 0.5 s) or warm depends on the machine's
	# load: every phase is made precise and cold, then a flag is planted
	# in one run of one side each (a flag is a side's when one of its
	# runs has it): seeks imprecise on both sides, write imprecise in
	# the base only and warm in the new only.
	jq '.runs[].phases |= map_values(if . == null then . else
	    .imprecise = false | .cache = "cold" end) |
	    .runs[].phases.seeks.imprecise = true' "$T/c.json" >"$T/c1.json"
	jq '.runs[0].phases.write.imprecise = true' "$T/c1.json" >"$T/c2.json"
	jq '.runs[1].phases.write.cache = "warm"' "$T/c1.json" >"$T/cw.json"
	"$BONNIE" compare --fail-on write "$T/c2.json" "$T/cw.json" \
	    >"$T/out" 2>&1
	sed -n '/^column/,/^$/p' "$T/out" >"$T/table"
	head -n 1 "$T/table" | grep -Eq '^column +unit +base +cv +new +cv +change +verdict +method +flags$' &&
	    grep -Eq '^seeks +/sec +[0-9.]+ +[0-9.>]+% +[0-9.]+ +[0-9.>]+% ' "$T/table"
	check "compare: a cv column next to each side's median" $?
	grep -Eq '^seeks .* b:I n:I$' "$T/table" &&
	    grep -Eq '^write .* b:I n:W$' "$T/table"
	check "compare: imprecise (I) and warm (W) flagged in the row, each side's own" $? ||
	    grep -E '^(seeks|write) ' "$T/table" | sed 's/^/#   /'
	awk 'length($0) > 100 { bad = 1 } END { exit bad }' "$T/out"
	check "compare: the two-way table fits in 100 columns" $?
	grep '_lat ' "$T/table" | awk '{ u3 = $3; u5 = $5;
	    sub(/^[0-9.]+/, "", u3); sub(/^[0-9.]+/, "", u5);
	    if ($5 ~ /^[0-9]/ && u3 != u5) bad = 1 } END { exit bad }'
	check "compare: latency in one unit per row" $?
else
	for i in 1 2 3 4; do skip "spread: jq is not installed"; done
fi
done_testing
