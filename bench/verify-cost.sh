#!/bin/sh
# bench/verify-cost.sh: what --verify and the self-identifying data cost.
#
#  verify   the rate of each reading phase (rewrite, getc, read, seeks)
#           with and without --verify, in cold and keep cache modes;
#  pattern  the rate of each writing phase (putc, write, rewrite) of this
#           bonnie-ng against an older binary that wrote the old data
#           (one word changed per 512 bytes; give it with -B);
#  cpu      the CPU time to fill and to check 1 GiB, and of the old data,
#           with no I/O (bench/pattern-cost.c), and how well each kind of
#           data compresses (zstd -3, when zstd is installed).
#
# Runs go in alternating pairs (A B, then B A in every even pair, so that
# neither side always runs first); the table gives the medians of both
# sides, the median, min and max of the per-pair ratios B/A, and the
# coefficients of variation.  The machine is shared: read the ratios, not
# the absolute rates.  Run from the top of the source tree after make.

usage() {
	cat <<EOF
usage: bench/verify-cost.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS]
                            [-n SEEKS] [-g GROUPS] [-b BONNIE-NG] [-B OLD]
                            [-k RAWDIR]
  -d DIR     directory on the file system under test (default /var/tmp)
  -s MIB     file size in MiB (default 512)
  -c CHUNK   chunk size in bytes (default 16384)
  -p PAIRS   pairs of runs per comparison (default 6)
  -n SEEKS   seeks per run (default 8000)
  -g GROUPS  comma list of: verify,pattern,cpu (default verify,cpu, and
             pattern when -B is given)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -B PATH    an older bonnie-ng binary, for the pattern group
  -k RAWDIR  keep every run's output in RAWDIR
EOF
	exit 2
}

DIR=/var/tmp SIZE_MIB=512 CHUNK=16384 PAIRS=6 SEEKS=8000 GROUPS=""
BNG=./bonnie-ng OLD="" KEEP=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-g) GROUPS=${2-} ;;
	-B) OLD=${2-} ;;
	*) bench_opt dscpnbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
if [ -z "$GROUPS" ]; then
	GROUPS=verify,cpu
	[ -n "$OLD" ] && GROUPS=$GROUPS,pattern
fi
has_group() { in_list "$GROUPS" "$1"; }
if has_group pattern; then
	[ -n "$OLD" ] && [ -x "$OLD" ] || die "the pattern group needs -B OLD-BINARY"
	case $OLD in /*) ;; *) OLD=$(pwd)/$OLD ;; esac
fi
need_tools jq cc
bench_setup verify "$SIZE_MIB" "$CHUNK" "$PAIRS" "$SEEKS"
SAMPLES=$RAW/samples
SHARES=$RAW/shares
: >"$SAMPLES"
: >"$SHARES"
NEW=$BNG
BNG_JSON=1

# one GROUP MODE SIDE: one run of that side; A is the base, B the change.
one() {
	g=$1 mode=$2 side=$3
	tag="$g-$mode-$pair-$side"
	case $g in
	verify)
		BNG=$NEW
		extra=""
		[ "$side" = B ] && extra=--verify
		bng_run "$tag" --cache="$mode" -p write,rewrite,getc,read,seeks \
		    -n "$SEEKS" $extra
		phases="rewrite getc read seeks"
		;;
	pattern)
		BNG=$OLD
		[ "$side" = B ] && BNG=$NEW
		bng_run "$tag" --cache="$mode" -p putc,write,rewrite
		phases="putc write rewrite"
		;;
	esac
	for ph in $phases; do
		sample "$g-$mode" "$ph" "$pair" "$side" "$(bng_get "$tag" "$ph")"
		# The run's own meter: the time spent checking, in percent of
		# the phase's elapsed time (both in the record; the seekers'
		# checks are summed, so over the seekers' summed time).
		[ "$g" = verify ] && [ "$side" = B ] &&
		    jq -r ".runs[0].phases.$ph | if . == null or .verify == null
		    then empty else \"$g-$mode\t$ph\t\(100 * .verify.check_s /
		    .elapsed_s / (.workers // 1))\" end" "$RAW/$tag.json" >>"$SHARES" 2>/dev/null
	done
}

note "machine: $(machine_line)"
note "$SIZE_MIB MiB, chunk $CHUNK, $SEEKS seeks, $PAIRS pairs, groups $GROUPS"
pair=1
while [ "$pair" -le "$PAIRS" ]; do
	note "pair $pair of $PAIRS (load $(load_line))"
	for g in verify pattern; do
		has_group $g || continue
		for mode in cold keep; do
			if [ $((pair % 2)) -eq 1 ]; then
				one $g $mode A; one $g $mode B
			else
				one $g $mode B; one $g $mode A
			fi
		done
	done
	pair=$((pair + 1))
done

if [ -s "$SAMPLES" ]; then
	echo "# rates in KiB/s (seeks/s for seeks); ratio = B/A per pair"
	echo "# verify-MODE: A = no --verify, B = --verify"
	echo "# pattern-MODE: A = the old binary ($OLD), B = this one"
	awk -F'\t' -f "$here/ratio.awk" "$SAMPLES"
fi
if [ -s "$SHARES" ]; then
	echo "# the checks' share of each verified phase's elapsed time, from"
	echo "# the record (verify.check_s / elapsed_s, / workers for seeks):"
	echo "# median, min, max in %"
	sort -t"$(printf '\t')" -k1,1 -k2,2 -k3,3g "$SHARES" | awk -F'\t' '
	    { k = $1 " " $2; if (k != last) { flush(); last = k; n = 0 }
	      v[++n] = $3 }
	    function flush() { if (n == 0) return
	      printf "%-14s %-8s n=%d median %.1f%% min %.1f%% max %.1f%%\n",
	          substr(last, 1, index(last, " ") - 1),
	          substr(last, index(last, " ") + 1), n,
	          (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2,
	          v[1], v[n] }
	    END { flush() }'
fi

if has_group cpu; then
	cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	    -I"$here/../include" -o "$RAW/pattern-cost" "$here/pattern-cost.c" \
	    "${O:-.}/obj/libbonnie.a" -lpthread -lm ||
	    die "cannot build bench/pattern-cost.c (run make first)"
	echo "# CPU seconds per GiB of 16 KiB chunks, one core, no I/O (5 tries)"
	"$RAW/pattern-cost" time
	if command -v zstd >/dev/null 2>&1; then
		for k in old new; do
			"$RAW/pattern-cost" dump $k 256 >"$RAW/$k.bin"
			echo "# zstd -3 of 256 MiB of the $k data: $(zstd -3 -c "$RAW/$k.bin" | wc -c) bytes"
			rm -f "$RAW/$k.bin"
		done
	fi
fi
