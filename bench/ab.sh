#!/bin/sh
# bench/ab.sh: two bonnie-ng binaries on the same work, in alternating
# pairs (A first in odd pairs, B first in even ones), and each phase's
# rate B / A per pair: did a change of the code move a figure?  Every
# argument after -- goes to both runs, after -d, -s and -c.  As root,
# from the top of the source tree; -W keeps every CPU awake (lib.sh's
# keep_awake, as limit.sh -W).
#
#   make O=/tmp/old ... (the old tree), then
#   BENCH_PAUSE=1 sh bench/ab.sh -a /tmp/old/bonnie-ng -b ./bonnie-ng \
#       -p 16 -- --direct --iodepth 32 -p write,read
usage() {
	cat <<EOF2
usage: bench/ab.sh -a BONNIE-NG-A [-b BONNIE-NG-B] [-d DIR] [-s MIB] [-c BS]
                   [-p PAIRS] [-W] [-k RAWDIR] [-- BONNIE-NG-ARGS...]
  -a PATH    side A (the old binary)
  -b PATH    side B (default ./bonnie-ng)
  -d DIR     directory (default /var/tmp)
  -s MIB     file size in MiB (default 1024)
  -c BS      chunk size in bytes (default 16384)
  -p PAIRS   pairs of runs (default 8)
  -W         every CPU kept awake by a busy loop in the idle class
  -k RAWDIR  keep every run's output in RAWDIR
EOF2
	exit 2
}

DIR=/var/tmp SIZE_MIB=1024 CHUNK=16384 PAIRS=8 AWAKE=0 BNG=./bonnie-ng KEEP=""
BNG_A=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-a) BNG_A=${2-} ;;
	-W) AWAKE=1; shift; continue ;;
	*) bench_opt dscpbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
[ -n "$BNG_A" ] || usage
BNG_B=$BNG BNG=$BNG_A
bng_check -a
BNG_A=$BNG BNG=$BNG_B
need_tools jq
bench_setup ab "$SIZE_MIB" "$CHUNK" "$PAIRS"
BNG_B=$BNG
[ "$AWAKE" -eq 0 ] || keep_awake
SAMPLES=$RAW/samples
: >"$SAMPLES"

# run PAIR SIDE ARGS...: one run of side A or B, its phases sampled.
run() {
	p=$1 side=$2; shift 2
	if [ "$side" = A ]; then BNG=$BNG_A; else BNG=$BNG_B; fi
	bng_run "$side-$p" "$@"
	for ph in $(jq -r '.runs[0].phases | to_entries[] |
	    select(.value.rate != null) | .key' "$RAW/$side-$p.json" \
	    2>/dev/null); do
		sample "$ph" "$ph" "$p" "$side" "$(bng_get "$side-$p" "$ph")"
	done
}

note "machine: $(machine_line)"
note "A: $BNG_A, B: $BNG_B; $SIZE_MIB MiB, chunk $CHUNK, $PAIRS pairs: $*"
pair=1
while [ "$pair" -le "$PAIRS" ]; do
	note "pair $pair of $PAIRS (load $(load_line))"
	if [ $((pair % 2)) -eq 1 ]; then
		run "$pair" A "$@"; run "$pair" B "$@"
	else
		run "$pair" B "$@"; run "$pair" A "$@"
	fi
	pair=$((pair + 1))
done
note "done (load $(load_line))"

report_head ab.sh
echo "# A: $BNG_A, B: $BNG_B; -d $DIR -s ${SIZE_MIB}m -c $CHUNK $*"
echo "# rates as the record's (K/s, seeks/s), ratio = B/A per pair"
awk -F'\t' -f "$here/ratio.awk" "$SAMPLES"
