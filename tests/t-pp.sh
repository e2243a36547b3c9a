#!/bin/sh
# bonnie-ng pp, tested the way the harnesses that run bonnie++ use it: a
# cloud benchmark harness's "bonnie++ -q -d DIR -s SIZE -n 100 -f", its CSV
# read from standard output with a fixed map of the 48 fields of 1.96/1.97
# (putc at 7, seeks at 17, latencies at 36-47); a test framework's
# "bonnie++ -u root -d /mnt -s0 -b -n 10:100:10:1000".  Small sizes
# (-n 1 for -n 100, -n 1:100:10:10 for the second), on a tmpfs where
# there is one.  Checked: the field count, numbers where numbers belong,
# never "+++++", units on latencies, bon_csv2txt reads the line, the text
# report parsed as bonnie++'s layout agrees with the CSV, -q's streams,
# -u nobody really runs as nobody, -b really fsyncs every write, the
# bonnie++-ng name, and bonnie++'s usage and exit 1 on a bad option.
# run.sh: long: among the longest in CI; started first on a clean clone
. tests/lib.sh
scratch
# LeakSanitizer cannot run under ptrace (strace), nor once the process
# has left root for nobody (no longer dumpable): no leak checks there.
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# A fast place for the files: a tmpfs when there is one.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	S=$(mktemp -d /dev/shm/bonnie-ng-pp.XXXXXX) || exit 1
	trap 'rm -rf "$S"; cleanup_scratch' EXIT
else
	S=$T/s
	mkdir "$S" || exit 1
fi
chmod 755 "$S"
mkdir "$S/d" && chmod 1777 "$S/d"
D=$S/d

# no_left DIR: no test file and no file tree left in DIR.
no_left() {
	[ -z "$(find "$1" -mindepth 1 -name 'bonnie-ng*' 2>/dev/null)" ]
}

# parse97 FILE: the harness's fixed 48-field map of bonnie++ 1.96/1.97:
# 0 format, 1 version, 2 name, 3 concurrency, 4 seed, 5 size, 6 chunk,
# 7-18 the six rate and %CPU pairs (putc at 7, seeks at 17), 19-23 the
# files' spec, 24-35 their six pairs, 36-47 the twelve latencies.  -f: the
# per-char fields empty.  One line per fault; exit 0 when none.
parse97() {
	awk -F, '
	function f(i)    { return $(i + 1) }	# 0-based, as the harness
	function num(i)  { return f(i) ~ /^[0-9]+$/ }
	function rate(i) { return f(i) ~ /^[0-9]+(\.[0-9]+)?$/ }
	# As bonnie++ 2.00a: a whole number and its unit, what int() reads.
	function lat(i)  { return f(i) ~ /^[0-9]+(us|ms|s)$/ }
	function bad(w)  { print "line " NR ": " w; faults++ }
	# A %CPU field: a whole number, or "+++" where the figure is doubtful
	# (more CPU than the phase'"'"'s threads could use: a short file phase),
	# as bonnie++ marks what it cannot measure; "+++" nowhere else.
	function cpu(i)  { return num(i) || f(i) == "+++" }
	{
		for (i = 0; i < NF; i++)
			if (index(f(i), "+") > 0 && i != 10 && i != 12 &&
			    i != 16 && i != 18 && !(i >= 25 && i <= 35 && i % 2))
				bad("+++ written in field " i)
		if (NF != 48) { bad(NF " fields, want 48"); next }
		if (f(0) != "1.97") bad("format " f(0))
		if (!num(3) || !num(4)) bad("concurrency, seed " f(3) " " f(4))
		if (f(5) !~ /^[0-9]+[KMG]$/) bad("size " f(5))
		# bonnie++ leaves its default chunk (8 KiB) empty.
		if (f(6) != "") bad("chunk " f(6))
		# -f: putc (7, 8) and getc (13, 14) empty.
		if (f(7) != "" || f(8) != "" || f(13) != "" || f(14) != "")
			bad("per-char fields " f(7) "," f(8) "," f(13) "," f(14))
		for (i = 9; i <= 17; i += 2) {
			if (i == 13) continue
			if (!rate(i) || !cpu(i + 1))
				bad("pair " i ": " f(i) "," f(i + 1))
		}
		if (f(19) != "1") bad("num_files " f(19))
		for (i = 24; i <= 35; i++)
			if (i % 2 ? !cpu(i) : !num(i))
				bad("file field " i ": " f(i))
		if (f(36) != "" || f(39) != "")
			bad("per-char latencies " f(36) "," f(39))
		for (i = 37; i <= 47; i++) {
			if (i == 39) continue
			if (!lat(i)) bad("latency " i ": " f(i))
		}
	}
	END { exit faults > 0 }' "$1"
}

# bonnie++'s text layout, read as a script reads it: the "Version" line
# with "Sequential Output", the two column lines, the row, the Latency
# line; then the "Sequential Create" block.  Prints, one per line, the
# row's /sec figures turned into K/s (or counts), and the latencies; for
# the files block the same with "F" in front.
read_text() {
	awk '
	/^Version .*------Sequential Output------ --Sequential Input- --Random-$/ {
		blk = "io"; n = 0; next }
	/^Version .*------Sequential Create------ --------Random Create--------$/ {
		blk = "files"; n = 0; next }
	blk != "" { n++ }
	blk == "io" && n == 1 && !/-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--$/ { print "bad columns"; exit 1 }
	blk == "io" && n == 2 && !/^Name:Size etc +\/sec %CP/ { print "bad units"; exit 1 }
	blk == "io" && n == 3 {
		# -f: the row is name, size, then write, rewrite, read, seeks.
		if (NF != 10) { print "row: " NF " fields"; exit 1 }
		for (i = 3; i <= NF; i += 2) print "R " $i " " $(i + 1)
	}
	blk == "io" && n == 4 {
		if ($1 != "Latency") { print "no latency line"; exit 1 }
		for (i = 2; i <= NF; i++) print "L " $i
	}
	blk == "files" && n == 2 && !/files +\/sec %CP/ { print "bad files units"; exit 1 }
	blk == "files" && n == 3 {
		print "S " $1
		for (i = 2; i <= NF; i += 2) print "FR " $i " " $(i + 1)
	}
	blk == "files" && n == 4 {
		if ($1 != "Latency") { print "no files latency line"; exit 1 }
		for (i = 2; i <= NF; i++) print "FL " $i
	}' "$1"
}

# --- The first harness: -q -d DIR -s SIZE -n 100 -f, 1.97's 48 fields.
# On the disk, not the tmpfs: there the cache can be dropped.
mkdir "$T/d1"
"$BONNIE" pp -q -d "$T/d1" -s 8 -n 1 -f --csv-format=1.97 >"$T/h1.out" \
    2>"$T/h1.err"
st=$?
check "pp -q -d DIR -s 8 -n 1 -f --csv-format=1.97: exit 0 (got $st)" \
    $([ $st -eq 0 ]; echo $?)
[ $st -eq 0 ] || diag "$(cat "$T/h1.err")"
check "-q: standard output is one line, the CSV" \
    $([ "$(wc -l <"$T/h1.out")" -eq 1 ] &&
    ! grep -q '^Version' "$T/h1.out"; echo $?)
check "-q: the text report is on standard error, the CSV is not" \
    $(grep -q '^Version .*Sequential Output' "$T/h1.err" &&
    grep -q '^Version .*Sequential Create' "$T/h1.err" &&
    ! grep -q '^1\.9' "$T/h1.err"; echo $?)
check "-q: no progress lines" $(! grep -q '\.\.\.done' "$T/h1.err"; echo $?)
check "the cold cache's line is there, as for a run" \
    $(grep -q '^bonnie-ng: cache: cold' "$T/h1.err"; echo $?)
out=$(parse97 "$T/h1.out")
check "1.97: 48 fields, numbers and latencies with units where they belong" $?
[ -n "$out" ] && diag "$out" "$(cat "$T/h1.out")"
# The fixed map: chunk empty (bonnie++'s default, as bonnie++ writes it),
# block write at 9, seeks at 17 with a rate, latencies at 36-47.
check "fixed map: chunk at 6 empty, seeks at 17 a rate, latency at 37" \
    $(awk -F, '{ exit !($7 == "" && $18 ~ /^[0-9.]+$/ &&
    $38 ~ /^[0-9]+(us|ms|s)$/) }' "$T/h1.out"; echo $?)
check "the run left nothing in DIR" $(no_left "$T/d1"; echo $?)

# The text report agrees with the CSV: the rates within their unit's
# rounding, %CPU and the latencies exactly.
read_text "$T/h1.err" >"$T/h1.txt"
r=$?
check "the text report reads as bonnie++'s layout" \
    $([ $r -eq 0 ] && [ "$(grep -c '^R ' "$T/h1.txt")" -eq 4 ] &&
    [ "$(grep -c '^FR ' "$T/h1.txt")" -eq 6 ]; echo $?)
[ $r -eq 0 ] || diag "$(cat "$T/h1.txt")" "$(cat "$T/h1.err")"
awk -F, '{
	# write 9, rewrite 11, read 15, seeks 17 (0-based); then files 24-35.
	split("9 11 15 17", io, " ")
	for (k = 1; k <= 4; k++) print "R " $(io[k] + 1) " " $(io[k] + 2)
	split("37 38 40 41", li, " ")
	for (k = 1; k <= 4; k++) print "L " $(li[k] + 1)
	print "S " $20
	for (i = 24; i <= 35; i += 2) print "FR " $(i + 1) " " $(i + 2)
	for (i = 42; i <= 47; i++) print "FL " $(i + 1)
}' "$T/h1.out" >"$T/h1.csvv"
# Rates: the text's figure is the CSV's rounded down to its unit: KiB/s
# as k, m, g; counts (the seeks, the files) as a number or k thousands.
awk '
	function kib(v) {
		if (v ~ /k$/) return substr(v, 1, length(v) - 1) * 1
		if (v ~ /m$/) return substr(v, 1, length(v) - 1) * 1024
		if (v ~ /g$/) return substr(v, 1, length(v) - 1) * 1048576
		return v * 1
	}
	function cnt(v) {
		if (v ~ /k$/) return substr(v, 1, length(v) - 1) * 1000
		return v * 1
	}
	# ok(text, csv, unit): text is csv rounded down to a unit (the CSV
	# rounds a count to the nearest: one more).
	function ok(t, c, u) { return t <= c + 1 && c - t <= u }
	NR == FNR { txt[NR] = $0; n = NR; next }
	{
		split(txt[FNR], a, " ")
		if (a[1] != $1) { print "order: " txt[FNR] " / " $0; bad++; next }
		if ($1 == "R" && FNR < 4) {
			u = a[2] ~ /g$/ ? 104858 : a[2] ~ /m$/ ? 1024 : 1
			if (!ok(kib(a[2]), $2, u)) { print "rate: " txt[FNR] " / " $0; bad++ }
		} else if ($1 == "R" || $1 == "FR") {
			u = a[2] ~ /k$/ ? 1000 : 1
			if (!ok(cnt(a[2]), $2, u)) { print "count: " txt[FNR] " / " $0; bad++ }
		} else if (a[2] != $2) { print "value: " txt[FNR] " / " $0; bad++ }
		if (($1 == "R" || $1 == "FR") && a[3] != $3) {
			print "cpu: " txt[FNR] " / " $0; bad++ }
	}
	END { if (FNR != n) { print "lines: " n " / " FNR; bad++ }; exit bad > 0 }' \
    "$T/h1.txt" "$T/h1.csvv" >"$T/h1.diff"
check "the text's rates, %CPU, files spec and latencies match the CSV's" $?
[ -s "$T/h1.diff" ] && diag "$(cat "$T/h1.diff")"

# bon_csv2txt reads the line once 1.98's seeks and seekers are put back
# (bonnie++ 2.00a's bon_csv2txt refuses 1.97 lines).
if command -v bon_csv2txt >/dev/null 2>&1; then
	awk -F, -v OFS=, '{ $1 = "1.98"; $7 = $7 ",8192,5"; print }' \
	    "$T/h1.out" >"$T/h1.98"
	bon_csv2txt <"$T/h1.98" >"$T/h1.b2t" 2>"$T/h1.b2e"
	lats=$(awk -F, '{ printf "%9s %9s", $39, $40 }' "$T/h1.98")
	flats=$(awk -F, '{ printf "%9s %9s %9s", $45, $46, $47 }' "$T/h1.98")
	[ ! -s "$T/h1.b2e" ] && grep -qF -- "$lats" "$T/h1.b2t" &&
	    grep -qF -- "$flats" "$T/h1.b2t"
	r=$?
	check "bon_csv2txt reads the line and shows its latencies" $r
	[ $r -eq 0 ] || diag "$(cat "$T/h1.98" "$T/h1.b2t" "$T/h1.b2e")"
else
	skip "bon_csv2txt not installed (package bonnie++)"
fi

# bonnie++ leaves its default chunk's field empty, and so does pp: then
# bon_csv2txt has the room bonnie++'s lines give the machine name (with
# 8192 there it shows "keepme" as "keep").
"$BONNIE" pp -q -m keepme -d "$D" -s 4 -n 0 -f >"$T/k.csv" 2>"$T/k.err"
st=$?
check "pp -m keepme -s 4: exit 0, the chunk's field empty (got $st)" \
    $([ $st -eq 0 ] && awk -F, '{ exit !($3 == "keepme" && $7 == "") }' \
    "$T/k.csv"; echo $?)
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$T/k.csv" 2>/dev/null | grep -q '^keepme '
	check "bon_csv2txt shows the whole machine name" $?
else
	skip "bon_csv2txt not installed (package bonnie++)"
fi

# --- The second harness: -u root -d DIR -s0 -b -n 10:100:10:1000.
if command -v strace >/dev/null 2>&1; then
	env "$NOLEAK" strace -f --seccomp-bpf -qq -c -o "$T/h2.st" -e trace=fsync \
	    "$BONNIE" pp -u root -d "$D" -s0 -b -n 1:100:10:10 \
	    >"$T/h2.out" 2>"$T/h2.err"
	st=$?
	env "$NOLEAK" strace -f --seccomp-bpf -qq -c -o "$T/h2n.st" -e trace=fsync \
	    "$BONNIE" pp -u root -d "$D" -s0 -n 1:100:10:10 \
	    >"$T/h2n.out" 2>"$T/h2n.err"
	fs=$(awk '$NF == "fsync" { print $4 }' "$T/h2.st")
	fsn=$(awk '$NF == "fsync" { print $4 }' "$T/h2n.st")
	# Each of the 1024 files made twice: fsync of the file and of its
	# directory; each deleted twice: fsync of the directory.
	check "-b: an fsync after every write and name (>= 6144; got ${fs:-0}, ${fsn:-0} without -b)" \
	    $([ "${fs:-0}" -ge 6144 ] && [ "${fsn:-0}" -lt 100 ]; echo $?)
else
	"$BONNIE" pp -u root -d "$D" -s0 -b -n 1:100:10:10 >"$T/h2.out" \
	    2>"$T/h2.err"
	st=$?
	skip "strace not installed: -b's fsyncs not counted"
fi
check "pp -u root -d DIR -s0 -b -n 1:100:10:10: exit 0 (got $st)" \
    $([ $st -eq 0 ]; echo $?)
[ $st -eq 0 ] || diag "$(cat "$T/h2.err")"
tail -n 1 "$T/h2.out" >"$T/h2.csv"
check "without -q: the text report, then the CSV line, on standard output" \
    $(head -n 1 "$T/h2.out" | grep -q '^Version .*Sequential Create' &&
    grep -q '^files:max:min ' "$T/h2.out" &&
    grep -q '^ *1:100:10/10 ' "$T/h2.out" &&
    grep -q '^1\.98,' "$T/h2.csv" && ! grep -q 'Sequential Output' \
    "$T/h2.out"; echo $?)
check "-s0: 50 fields; size, chunk, seeks and the I/O fields empty; the files' numbers" \
    $(awk -F, '{
	if (NF != 50 || index($0, "+++")) exit 1
	for (i = 6; i <= 21; i++) if ($i != "") exit 1
	if ($22 != "1" || $23 != "100" || $24 != "10" || $26 != "10") exit 1
	for (i = 27; i <= 38; i++) if ($i !~ /^[0-9]+$/) exit 1
	for (i = 39; i <= 44; i++) if ($i != "") exit 1
	for (i = 45; i <= 50; i++) if ($i !~ /^[0-9.]+(us|ms|s)$/) exit 1
    }' "$T/h2.csv"; echo $?)
check "-u root as root: it says so and runs" \
    $(grep -q '^bonnie-ng pp: running as uid 0, gid 0$' "$T/h2.err"; echo $?)
check "the runs left nothing in DIR" $(no_left "$D"; echo $?)
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$T/h2.csv" >"$T/h2.b2t" 2>"$T/h2.b2e"
	flats=$(awk -F, '{ printf "%9s %9s %9s", $48, $49, $50 }' "$T/h2.csv")
	[ ! -s "$T/h2.b2e" ] && grep -qF -- "$flats" "$T/h2.b2t"
	check "bon_csv2txt reads the -s0 line" $?
else
	skip "bon_csv2txt not installed (package bonnie++)"
fi

# --- -u nobody: the run is nobody's.
if is_root && id nobody >/dev/null 2>&1; then
	mkdir "$S/ro" && chmod 755 "$S/ro"
	env "$NOLEAK" "$BONNIE" pp -q -u nobody -d "$S/ro" -s0 -n 1 >"$T/ro.out" \
	    2>"$T/ro.err"
	st=$?
	check "-u nobody on a directory only root may write: exit 1 (got $st)" \
	    $([ $st -eq 1 ] && [ ! -s "$T/ro.out" ] && no_left "$S/ro"; echo $?)
	[ $st -eq 1 ] || diag "$(cat "$T/ro.err")"
	uid=$(id -u nobody)
	if command -v strace >/dev/null 2>&1; then
		env "$NOLEAK" strace -f --seccomp-bpf -qq -o "$T/nb.st" \
		    -e trace=setuid,setgid,setgroups,mkdir,openat \
		    "$BONNIE" pp -q -u nobody -y s -d "$D" -s 1:512:10:1 -n 1 \
		    >"$T/nb.out" 2>"$T/nb.err"
		st=$?
		# setuid(nobody) succeeds before the file tree and the test
		# file are made.
		awk -v uid="$uid" '
		/setuid\(/ && / = 0$/ && index($0, "setuid(" uid ")") { up = NR }
		/mkdir\(.*bonnie-ng-files/ && !mk { mk = NR }
		/openat\(.*bonnie-ng\.[^"]*", O_RDWR\|O_CREAT\|O_EXCL/ && !op { op = NR }
		END { exit !(up > 0 && mk > up && op > up) }' "$T/nb.st"
		r=$?
		check "-u nobody: setuid($uid) before the test file and the file tree" \
		    $([ $st -eq 0 ] && [ $r -eq 0 ]; echo $?)
		[ $st -eq 0 ] && [ $r -eq 0 ] ||
		    diag "exit $st" "$(cat "$T/nb.err")" "$(grep -e setuid -e bonnie-ng "$T/nb.st" | head -20)"
	else
		env "$NOLEAK" "$BONNIE" pp -q -u nobody -y s -d "$D" \
		    -s 1:512:10:1 -n 1 >"$T/nb.out" 2>"$T/nb.err"
		st=$?
		skip "strace not installed: the ids not traced"
	fi
	check "-u nobody: exit 0, it says it runs as nobody" \
	    $([ $st -eq 0 ] && grep -q "^bonnie-ng pp: running as uid $uid," \
	    "$T/nb.err"; echo $?)
	check "-y s: one line, served by the lock-step start" \
	    $([ "$(grep -c '^bonnie-ng pp: -y s: .*lock-step' "$T/nb.err")" \
	    -eq 1 ]; echo $?)
	check "-u nobody: a 1.98 line of 50 fields with seeks 10, seekers 1" \
	    $(awk -F, '{ exit !(NF == 50 && $8 == 10 && $9 == 1 &&
	    $7 == 512) }' "$T/nb.out"; echo $?)
	check "-u nobody: nothing left" $(no_left "$D"; echo $?)
else
	skip "not root or no user nobody: -u nobody not tried"
	skip "not root or no user nobody: -u nobody not tried"
	skip "not root or no user nobody: -u nobody not tried"
	skip "not root or no user nobody: -u nobody not tried"
	skip "not root or no user nobody: -u nobody not tried"
	skip "not root or no user nobody: -u nobody not tried"
fi

# --- The name bonnie++-ng, -Z, -p, and bonnie++'s usage on a bad option.
ln -s "$BONNIE" "$T/bonnie++-ng"
printf '\000\000\000\000\000\000\060\071' >"$T/seed"
"$T/bonnie++-ng" -q -d "$D" -s0 -n 1 -Z "$T/seed" -m harness \
    >"$T/sl.out" 2>"$T/sl.err"
st=$?
check "bonnie++-ng -q -s0 -n 1 -Z: exit 0, one 50-field line (got $st)" \
    $([ $st -eq 0 ] && [ "$(wc -l <"$T/sl.out")" -eq 1 ] &&
    [ "$(awk -F, '{ print NF }' "$T/sl.out")" -eq 50 ]; echo $?)
[ $st -eq 0 ] || diag "$(cat "$T/sl.err")"
check "-Z: the seed is the file's first 8 bytes (12345); -m the name" \
    $([ "$(cut -d, -f3,5 "$T/sl.out")" = "harness,12345" ]; echo $?)
# A user's own symlink named bonnie++ (ahead of bonnie++ on PATH, for the
# harnesses that call it by that name) is pp too.
mkdir "$T/own"
ln -s "$BONNIE" "$T/own/bonnie++"
PATH=$T/own:$PATH bonnie++ -q -d "$D" -s0 -n 1 -m ownlink >"$T/own.out" \
    2>"$T/own.err"
st=$?
check "a symlink named bonnie++ is pp: exit 0, one 50-field line (got $st)" \
    $([ $st -eq 0 ] && [ "$(wc -l <"$T/own.out")" -eq 1 ] &&
    [ "$(awk -F, '{ print NF ":" $2 ":" $3 }' "$T/own.out")" = \
    "50:bonnie-ng-$("$BONNIE" --version | awk '{ print $NF }'):ownlink" ]; echo $?)
[ $st -eq 0 ] || diag "$(cat "$T/own.err")"
# The package and make install make bonnie++-ng, never bonnie++ (they stay
# installable beside bonnie++), and its bash completion (bash-completion
# loads a command's file by the command's name).
check "the installs link bonnie++-ng and its completion, not bonnie++" \
    $(grep -qx 'usr/bin/bonnie++-ng' debian/bonnie-ng.install &&
    grep -qx 'usr/share/bash-completion/completions/bonnie++-ng' \
    debian/bonnie-ng.install &&
    ! grep -q 'bin/bonnie++$' debian/bonnie-ng.install &&
    grep -q 'BINDIR)/bonnie++-ng$' Makefile &&
    grep -q 'BASHCOMPDIR)/bonnie++-ng$' Makefile &&
    ! grep -q 'BINDIR)/bonnie++$' Makefile; echo $?)
for bad in "-Q" "-s 8:100" "-n 1:-1" "-c 0" "-d"; do
	# shellcheck disable=SC2086
	"$T/bonnie++-ng" $bad >"$T/bad.out" 2>"$T/bad.err"
	st=$?
	check "bonnie++-ng $bad: exit 1, the error and the usage on stderr" \
	    $([ $st -eq 1 ] && [ ! -s "$T/bad.out" ] &&
	    grep -q '^usage: bonnie-ng pp ' "$T/bad.err" &&
	    head -n 1 "$T/bad.err" | grep -q '^bonnie-ng: '; echo $?)
done
"$BONNIE" pp -d "$D" -s0 -n0 >"$T/nn.out" 2>"$T/nn.err"
st=$?
check "pp -s0 -n0: nothing to do, exit 1" \
    $([ $st -eq 1 ] && grep -q 'nothing to do' "$T/nn.err"; echo $?)
"$BONNIE" pp -p 2 >"$T/p.out" 2>"$T/p.err"
st=$?
check "pp -p 2: one line, exit 0, nothing run" \
    $([ $st -eq 0 ] && [ "$(wc -l <"$T/p.err")" -eq 1 ] &&
    grep -q 'lock-step' "$T/p.err" && no_left "$D"; echo $?)
"$BONNIE" pp -d "$T/no/such" -s 1 -n0 >"$T/nd.out" 2>"$T/nd.err"
st=$?
check "pp on a missing directory: exit 1, no usage (a refusal, not a bad option)" \
    $([ $st -eq 1 ] && ! grep -q '^usage:' "$T/nd.err" &&
    [ ! -e "$T/no" ]; echo $?)
# -x, as bonnie++: the CSV lines alone, no text report, and for more
# than one run the line of field names first.
"$BONNIE" pp -x 2 -d "$D" -s0 -n 1 --csv-format=1.97 >"$T/x.out" \
    2>"$T/x.err"
st=$?
check "pp -x 2: exit 0, the names, two 48-field lines, no text report" \
    $([ $st -eq 0 ] && [ "$(wc -l <"$T/x.out")" -eq 3 ] &&
    head -n 1 "$T/x.out" | grep -q '^format_version,bonnie_version,name,' &&
    [ "$(awk -F, '{ print NF }' "$T/x.out" | sort -u)" = 48 ] &&
    ! grep -q '^Version' "$T/x.out" "$T/x.err"; echo $?)
"$BONNIE" pp -x 1 -d "$D" -s0 -n 1 >"$T/x1.out" 2>"$T/x1.err"
st=$?
check "pp -x 1: exit 0, one 50-field line alone" \
    $([ $st -eq 0 ] && [ "$(wc -l <"$T/x1.out")" -eq 1 ] &&
    [ "$(awk -F, '{ print NF }' "$T/x1.out")" = 50 ] &&
    ! grep -q '^Version' "$T/x1.err"; echo $?)
if command -v bonnie++ >/dev/null 2>&1 && is_root; then
	# The names are bonnie++'s own (2.00a writes 1.97's 48 above its
	# lines).
	mkdir "$S/real" && (cd "$S/real" && bonnie++ -x 2 -s 0 -n 1 -u root \
	    -d "$S/real" 2>/dev/null | head -n 1 >"$T/real.h")
	head -n 1 "$T/x.out" >"$T/x.h"
	cmp -s "$T/real.h" "$T/x.h"
	r=$?
	check "pp -x --csv-format=1.97: the names bonnie++ -x writes" $r
	[ $r -eq 0 ] || diag "$(cat "$T/real.h" "$T/x.h")"
else
	skip "bonnie++ not installed or not root: its names not compared"
fi
check "nothing left in DIR at the end" $(no_left "$D"; echo $?)

done_testing
