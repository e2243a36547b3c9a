#!/bin/sh
# bench/newfile.sh: a new file's block write at a queue depth, against
# fio and against the least program that does it (bench/uring-write.c):
# is what bonnie-ng's --direct --iodepth write of a new file lacks against
# fio in bonnie-ng?  Each pair runs, in a rotated order, fio io_uring
# (iodepth Q, direct, a new file, --end_fsync=1), bonnie-ng (--direct
# --iodepth Q -p write), uring-write (bonnie-ng's ring and calls, nothing
# else) and uring-write -a (every write IOSQE_ASYNC: io_uring skips its
# non-blocking first try in the submitting call, as fio's force_async=1);
# -K picks among them and uring-write -t (pattern_fill()'s ordinary
# stores instead of pattern_fill_direct()'s streaming ones).  Groups, ratio
# B/A per pair, each when both its kinds run:
#   bng/fio     A fio, B bonnie-ng
#   loop/fio    A fio, B uring-write
#   bng/loop    A uring-write, B bonnie-ng: 1.0 when nothing of bonnie-ng
#               beyond the ring's calls costs rate
#   async/loop  A uring-write, B uring-write -a
#   temporal/loop A uring-write, B uring-write -t
# As root, from the top of the source tree after make; -W keeps every CPU
# awake (bench/lib.sh's keep_awake), as limit.sh -W; -P NS lets an idle
# vCPU poll NS ns before it halts, as limit.sh -P.
#
#   BENCH_PAUSE=1 sh bench/newfile.sh -W -p 10
#   BENCH_PAUSE=1 sh bench/newfile.sh -K loop,temporal -p 20
usage() {
	cat <<EOF2
usage: bench/newfile.sh [-d DIR] [-s MIB] [-c BS] [-Q DEPTH] [-p PAIRS] [-W]
                        [-P NS] [-K KINDS] [-b BONNIE-NG] [-k RAWDIR]
  -d DIR     directory (default /var/tmp)
  -s MIB     file size in MiB (default 1024)
  -c BS      block (chunk) size in bytes (default 16384)
  -Q DEPTH   queue depth (default 32)
  -p PAIRS   rounds of the four runs (default 8)
  -W         every CPU kept awake by a busy loop in the idle class
  -P NS      idle vCPUs poll up to NS ns before they halt
             (guest_halt_poll_ns, restored at exit)
  -K KINDS   comma list of fio, bng, loop, async, temporal
             (default fio,bng,loop,async)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR  keep every run's output in RAWDIR
EOF2
	exit 2
}

DIR=/var/tmp SIZE_MIB=1024 CHUNK=16384 QD=32 PAIRS=8 AWAKE=0 BNG=./bonnie-ng KEEP=""
KINDS=fio,bng,loop,async
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-Q) QD=${2-} ;;
	-W) AWAKE=1; shift; continue ;;
	-K) KINDS=${2-} ;;
	*) bench_opt dscpbkP "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
KINDS=$(echo "$KINDS" | tr , ' ')
for k in $KINDS; do
	case $k in
	fio|bng|loop|async|temporal) ;;
	*) die "-K: no kind $k (fio, bng, loop, async, temporal)" ;;
	esac
done
[ -n "$KINDS" ] || die "-K: no kind"
need_tools fio jq cc liburing
bench_setup newfile "$SIZE_MIB" "$CHUNK" "$QD" "$PAIRS"
[ "$AWAKE" -eq 0 ] || keep_awake
LOOP=$RAW/uring-write
cc -O2 -I"$here/../include" -o "$LOOP" "$here/uring-write.c" \
    "${O:-.}/obj/libbonnie.a" -luring -lpthread -lm ||
    die "cannot build bench/uring-write.c (run make first)"
W=$DIR/bench-newfile.$$
mkdir "$W" || die "cannot make $W"
bench_clean "$W"
SAMPLES=$RAW/samples
: >"$SAMPLES"
# fio as limit.sh's qd group runs it (lib.sh's qd_fio), in $W.
QDIR=$W QJ=1 QENG=io_uring FIO_X=""

# Each run writes a new file in the empty $W and prints "RATE CPU".
run_bng() {
	d0=$DIR
	DIR=$W
	bng_run "bng-$1" --direct --iodepth "$QD" -p write
	DIR=$d0
	bng_get "bng-$1" write
}
run_loop() {
	# $2 is -a or nothing: split on purpose.
	# shellcheck disable=SC2086
	r=$("$LOOP" $2 "$W/f" "$SIZE_MIB" "$CHUNK" "$QD" 2>"$RAW/loop-$1.err") ||
	    r=NA
	echo "$r NA"
}
# one PAIR KIND: a run in an empty directory, its figure kept as v_KIND.
one() {
	rm -rf "${W:?}"/*
	case $2 in
	fio)   v_fio=$(qd_fio "fio-$1" write "$CHUNK" --end_fsync=1) ;;
	bng)   v_bng=$(run_bng "$1") ;;
	loop)  v_loop=$(run_loop "$1") ;;
	async) v_async=$(run_loop "$1-a" -a) ;;
	temporal) v_temporal=$(run_loop "$1-t" -t) ;;
	esac
}
has() {
	case " $KINDS " in *" $1 "*) return 0 ;; esac
	return 1
}
# group NAME A B: the pair's sample of group NAME, when both kinds ran.
group() {
	has "$2" && has "$3" || return 0
	sample "$1" write "$pair" A "$(figure "$2")"
	sample "$1" write "$pair" B "$(figure "$3")"
}
figure() {
	case $1 in
	fio) echo "$v_fio" ;; bng) echo "$v_bng" ;; loop) echo "$v_loop" ;;
	async) echo "$v_async" ;; temporal) echo "$v_temporal" ;;
	esac
}

note "machine: $(machine_line)"
note "$SIZE_MIB MiB, block $CHUNK, depth $QD, $PAIRS pairs, in $DIR"
pair=1
while [ "$pair" -le "$PAIRS" ]; do
	note "pair $pair of $PAIRS (load $(load_line))"
	# The kinds rotated by one each pair: each goes first in turn.
	# shellcheck disable=SC2086
	set -- $KINDS
	r=$(((pair - 1) % $#))
	while [ "$r" -gt 0 ]; do
		k=$1; shift; set -- "$@" "$k"
		r=$((r - 1))
	done
	for k in "$@"; do
		one "$pair" "$k"
	done
	group bng/fio fio bng
	group loop/fio fio loop
	group bng/loop loop bng
	group async/loop loop async
	group temporal/loop loop temporal
	pair=$((pair + 1))
done
note "done (load $(load_line))"

report_head newfile.sh
echo "# a new file, $SIZE_MIB MiB, block $CHUNK, depth $QD, direct I/O in $DIR"
echo "# rates in KiB/s, ratio = B/A per pair; fio: io_uring iodepth=$QD direct=1; loop: bench/uring-write.c; async: loop with IOSQE_ASYNC; temporal: loop with ordinary stores"
awk -F'\t' -f "$here/ratio.awk" "$SAMPLES"
