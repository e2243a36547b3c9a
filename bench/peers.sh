#!/bin/sh
# bench/peers.sh: bonnie-ng against fio, bonnie++ and a bare stdio loop,
# on the same directory, file size and chunk, in alternating pairs
# (A B A B ...), then a table of medians, ratios and coefficients of
# variation, peak memory for several file sizes, and the targets of issue 7.
#
# Run from the top of the source tree (make bench does).  See
# bench/RESULTS.md for what it printed on one machine.

usage() {
	cat <<EOF
usage: bench/peers.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS] [-S SEEKERS]
                      [-n SEEKS] [-g ONLY] [-b BONNIE-NG] [-k RAWDIR] [-f]
                      [-r] [--big]
  -d DIR      directory on the file system under test (default /var/tmp)
  -s MIB      file size in MiB for every tool (default 1024)
  -c CHUNK    block size in bytes for every tool (default 16384)
  -p PAIRS    pairs of runs per comparison, at least 5 (default 5)
  -S SEEKERS  bonnie-ng seekers = fio jobs (default 3)
  -n SEEKS    seeks per run, given to bonnie-ng as -n (default 16000)
  -g ONLY   comma list of: direct,cold,bonnie++,perchar,memory (default all)
  -b PATH     the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR   keep every tool's raw output in RAWDIR
  -f          the bonnie++ group without per-char: both tools skip it (-f),
              so each block phase follows the same work (bonnie-ng's
              putc writes the whole file, bonnie++'s 20 MiB)
  -r          reverse the order (peer first) in every even pair, to cancel
              order effects; the default is bonnie-ng first in every pair
  --big       also measure peak memory with an 8 GiB file
EOF
	exit 2
}

DIR=/var/tmp SIZE_MIB=1024 CHUNK=16384 PAIRS=5 SEEKERS=3 SEEKS=16000
ONLY=direct,cold,bonnie++,perchar,memory BNG=./bonnie-ng KEEP="" BIG=0 REVERSE=0
FAST=0
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-g) ONLY=${2-}; shift ;;
	-r) REVERSE=1 ;;
	-f) FAST=1 ;;
	--big) BIG=1 ;;
	*) bench_opt dscpSnbk "$@" || usage; shift ;;
	esac
	[ $# -gt 0 ] && shift
done
bench_setup peers "$SIZE_MIB" "$CHUNK" "$PAIRS" "$SEEKERS" "$SEEKS"
[ "$PAIRS" -ge 5 ] || note "warning: $PAIRS pairs; issue 7 asks for at least 5"
need_tools fio bonnie++ jq time cc
FIO_FILE=$DIR/bench-fio.$$.dat
SAMPLES=$RAW/samples.tsv
: >"$SAMPLES"
bench_clean "$FIO_FILE" "$DIR/perchar-ref.$$.dat"
has_group() { in_list "$ONLY" "$1"; }

REF=$RAW/perchar-ref
if has_group perchar; then
	cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$REF" "$here/perchar-ref.c" ||
	    die "cannot compile $here/perchar-ref.c"
fi

bng_probe
[ "$BNG_JSON" -eq 1 ] || note "this bonnie-ng writes no JSON record; reading its text row"

BPP_SEEKERS=5 BPP_SEEKS=8192	# bonnie++ 2.00a's fixed seek work
start=$(date +%s)
echo "bench/peers.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(machine_line)"
echo "bonnie-ng: $BNG ($("$BNG" --version 2>/dev/null | head -n 1))"
echo "fio: $(fio --version), bonnie++: 2.00a-family from the distribution"
echo "work: dir $DIR, file ${SIZE_MIB} MiB, chunk $CHUNK, $SEEKERS seekers," \
    "$SEEKS seeks (fio: $(fio_ios_per_job) ops per job), $PAIRS pairs," \
    "order: $([ "$REVERSE" -eq 1 ] && echo "A B, then B A" || echo "A B")$(
    [ "$FAST" -eq 1 ] && echo "; bonnie++ group: per-char skipped (-f)")"
echo "load average before: $(load_line)"

# One function per side of each comparison: A is bonnie-ng, B the peer.
direct_A() {
	bng_run "direct-$pair" --direct -p write,read,seeks \
	    -S "$SEEKERS" -n "$SEEKS"
	for ph in write read seeks; do
		sample direct $ph $pair A "$(bng_get "direct-$pair" $ph)"
	done
}
direct_B() {
	sample direct write $pair B "$(fio_write direct "fio-direct-write-$pair")"
	sample direct read $pair B "$(fio_read direct "fio-direct-read-$pair")"
	sample direct seeks $pair B "$(fio_seeks direct "fio-direct-seeks-$pair")"
	rm -f "$FIO_FILE"
}
cold_A() {
	bng_run "cold-$pair" -p write,read,seeks -S "$SEEKERS" -n "$SEEKS"
	for ph in write read seeks; do
		sample cold $ph $pair A "$(bng_get "cold-$pair" $ph)"
	done
}
cold_B() {
	sample cold write $pair B "$(fio_write cold "fio-cold-write-$pair")"
	sample cold read $pair B "$(fio_read cold "fio-cold-read-$pair")"
	sample cold seeks $pair B "$(fio_seeks cold "fio-cold-seeks-$pair")"
	rm -f "$FIO_FILE"
}
# bonnie++ drops no cache and its -D covers only the block write, so the
# equivalent bonnie-ng run is --cache=keep, with bonnie++'s fixed 5
# seekers and 8192 seeks.  With -f both skip per-char.
BPP_PHASES="putc write rewrite getc read seeks" BPP_FAST=""
[ "$FAST" -eq 1 ] && BPP_PHASES="write rewrite read seeks" BPP_FAST=-f
bpp_A() {
	bng_run "bng-bpp-$pair" --cache=keep -S $BPP_SEEKERS -n $BPP_SEEKS \
	    $BPP_FAST
	for ph in $BPP_PHASES; do
		sample bonnie++ $ph $pair A "$(bng_get "bng-bpp-$pair" $ph)"
	done
}
bpp_B() {
	bpp_run "bpp-$pair" $BPP_FAST
	for ph in $BPP_PHASES; do
		sample bonnie++ $ph $pair B "$(bpp_get "bpp-$pair" $ph)"
	done
}
perchar_A() {
	bng_run "perchar-$pair" -p putc,getc
	for ph in putc getc; do
		sample perchar $ph $pair A "$(bng_get "perchar-$pair" $ph)"
	done
}
perchar_B() {
	"$REF" -b "$CHUNK" "$DIR/perchar-ref.$$.dat" $((SIZE_MIB * 1048576)) \
	    >"$RAW/ref-$pair.out" 2>"$RAW/ref-$pair.err" ||
	    note "perchar-ref failed, see $RAW/ref-$pair.err"
	for ph in putc getc; do
		sample perchar $ph $pair B "$(awk -v p=$ph '$1 == p { print $2, $3; f = 1 }
		    END { if (!f) print "NA NA" }' "$RAW/ref-$pair.out")"
	done
}

# run_pair FN: A then B; with -r, B then A in every even pair.
run_pair() {
	if [ "$REVERSE" -eq 1 ] && [ $((pair % 2)) -eq 0 ]; then
		"${1}_B"; "${1}_A"
	else
		"${1}_A"; "${1}_B"
	fi
}

pair=1
has_group direct || has_group cold || has_group bonnie++ ||
    has_group perchar || pair=$((PAIRS + 1))	# memory only: no pairs
while [ "$pair" -le "$PAIRS" ]; do
	note "pair $pair of $PAIRS (load $(load_line))"
	has_group direct && run_pair direct
	has_group cold && run_pair cold
	has_group bonnie++ && run_pair bpp
	has_group perchar && run_pair perchar
	pair=$((pair + 1))
done

echo "load average after the pairs: $(load_line)"
if [ -s "$SAMPLES" ]; then
	awk -v reverse="$REVERSE" -f "$here/table.awk" "$SAMPLES"
	echo "(ratio = bonnie-ng / peer per pair; cpuA/cpuB = median %CPU of one core;"
	echo " cvA/cvB = coefficient of variation over the pairs; NA = no number," \
	    "e.g. bonnie++'s +++++ for a test under 0.5 s)"
fi

# Peak memory: maximum resident set (from wait4, so it covers forked
# seekers too) of a whole default run for growing file sizes.
if has_group memory; then
	sizes="64 1024"
	[ "$BIG" -eq 1 ] && sizes="$sizes 8192"
	echo
	echo "peak memory of bonnie-ng (all six phases, default cold cache, $SEEKERS seekers)"
	printf '%-8s %-7s %12s\n' "MiB" "seekers" "max RSS KiB"
	for mode in fork thread; do
		for mib in $sizes; do
			/usr/bin/time -f '%M' -o "$RAW/mem-$mode-$mib.txt" \
			    "$BNG" -d "$DIR" -s "${mib}m" -c "$CHUNK" -q -S "$SEEKERS" \
			    --seekers=$mode >/dev/null 2>"$RAW/mem-$mode-$mib.err" ||
			    note "bonnie-ng failed, see $RAW/mem-$mode-$mib.err"
			kib=$(tail -n 1 "$RAW/mem-$mode-$mib.txt")
			printf '%-8s %-7s %12s\n' "$mib" "$mode" "$kib"
			echo "$mode $kib" >>"$RAW/mem.txt"
		done
	done
	awk '$2 ~ /^[0-9]+$/ {
		if (!($1 in min) || $2 < min[$1]) min[$1] = $2
		if (!($1 in max) || $2 > max[$1]) max[$1] = $2
	} END {
		for (m in min)
			printf "%s: spread over sizes %d KiB (target <= 1024): %s;" \
			    " largest %d KiB (target < 16384): %s\n", m,
			    max[m] - min[m], (max[m] - min[m] <= 1024) ? "met" : "MISSED",
			    max[m], (max[m] < 16384) ? "met" : "MISSED"
	}' "$RAW/mem.txt"
fi
echo "elapsed: $(( $(date +%s) - start )) s; load average at the end: $(load_line)"
