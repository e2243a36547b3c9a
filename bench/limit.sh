#!/bin/sh
# bench/limit.sh: how close bonnie-ng comes to the limit of the work.
#
#  mem    in memory (a tmpfs DIR, --cache=keep): block write, rewrite,
#         read and seeks of one bonnie-ng run against bench/bare-loop.c
#         (the system calls alone, a buffer filled once: the limit for a
#         synchronous tool) and against fio (psync, buffered, cache kept)
#         on the same sizes.  Targets: write and rewrite >= 0.97 of the
#         bare loop and >= 1.0 of fio; read and seeks >= 0.95 of the loop.
#  qd     a queue depth (--direct --iodepth Q, default 32; -Q 8,32 for
#         several): sequential write and read and random reads (seeks
#         with -n) of one stream against fio ioengine=io_uring iodepth=Q
#         direct=1 on the same file system; at chunk -c and at 1 MiB.
#         Random: fio --rw=randrw --rwmixread=91 with as many I/Os, the
#         same work (a seek reads a chunk, one in ten also writes it
#         back: 10 writes to 110 I/Os).  Each side's mean queue at the
#         device during the random reads (aqu-sz: bonnie-ng's record for
#         the phase, /proc/diskstats' weighted time over fio's run time)
#         is a group of its own, /aqu (not for the sequential phases,
#         whose requests the block layer merges).  Target >= 1.0.
#         -B 1048576 measures the 1 MiB sequential work alone (random
#         reads run only at the chunk size).  -H gives fio buffers in huge
#         pages (--iomem=shmhuge, vm.nr_hugepages raised for the run and
#         put back), as bonnie-ng's queue has them: by default fio's are
#         malloc's 4 KiB pages, and a 1 MiB request in those is cut in two
#         at virtio-blk's 254 segments as often as not.  -R makes fio
#         write new data each time (--refill_buffers), as bonnie-ng makes
#         each chunk's data: by default fio fills its buffers once and
#         changes a few bytes of each before it is written again.
#         -W keeps every CPU awake for both sides (keep_awake in lib.sh):
#         in a guest whose idle vCPUs halt, a tool that keeps its CPU busy
#         is woken sooner at each completion.
#  ceil   the device's ceiling: -j J --direct --iodepth Q (default 4
#         workers) against fio ioengine=libaio iodepth=Q numjobs=J
#         direct=1 (one file each, group_reporting), the same works as qd.
#         Target >= 0.80.
#
# Each pair runs the sides in turn (A first in odd pairs, B first in even
# ones); the table gives medians, the per-pair ratio B/A (median, min,
# max), %CPU and the coefficient of variation.  The machine may be shared:
# the load is printed with each pair.  Run from the top of the source tree
# after make.

usage() {
	cat <<EOF
usage: bench/limit.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS] [-S SEEKERS]
                      [-n SEEKS] [-g GROUPS] [-Q DEPTHS] [-B SIZES]
                      [-J JOBS] [-H] [-R] [-W] [-P NS] [-b BONNIE-NG]
                      [-k RAWDIR]
  -d DIR     directory (default /dev/shm for mem, /var/tmp for qd)
  -s MIB     file size in MiB (default 4096 for mem alone, else 1024:
             a phase of 1 GiB in memory lasts a few tenths of a second
             and spreads twice as much; bench/RESULTS.md, session 9)
  -c CHUNK   chunk size in bytes (default 16384)
  -p PAIRS   pairs of runs (default 9)
  -S SEEKERS seekers (default 3; qd uses one)
  -n SEEKS   seeks per run (default 16000)
  -g GROUPS  comma list of: mem,qd,ceil (default mem)
  -Q DEPTHS  the queue depths of the qd and ceil groups, a comma list
             (default 32)
  -B SIZES   the block sizes of the qd and ceil groups, a comma list of
             bytes (default: the chunk and 1048576); random reads run at
             the chunk size only
  -J JOBS    workers (fio jobs) of the ceil group (default 4)
  -H         fio's buffers in huge pages (--iomem=shmhuge), as bonnie-ng's
             queue has them (vm.nr_hugepages raised for the run)
  -R         fio writes new data each time (--refill_buffers), as
             bonnie-ng makes each chunk's data
  -W         every CPU kept awake by a busy loop in the idle class, for
             both sides (no vCPU halts between completions)
  -P NS      in a guest with cpuidle-haltpoll, an idle vCPU polls up to
             NS ns before it halts (guest_halt_poll_ns; the kernel's
             default is 200000), for both sides; restored at exit
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR  keep every run's output in RAWDIR
EOF
	exit 2
}

DIR="" SIZE_MIB="" CHUNK=16384 PAIRS=9 SEEKERS=3 SEEKS=16000 GROUPS=mem
DEPTH=32 JOBS=4 BNG=./bonnie-ng KEEP="" BSIZES="" FIO_HUGE=0 FIO_REFILL=0 AWAKE=0
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-g) GROUPS=${2-} ;;
	-Q) DEPTH=${2-} ;;
	-B) BSIZES=${2-} ;;
	-H) FIO_HUGE=1; shift; continue ;;
	-R) FIO_REFILL=1; shift; continue ;;
	-W) AWAKE=1; shift; continue ;;
	-J) JOBS=${2-} ;;
	*) bench_opt dscpSnbkP "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
has_group() { in_list "$GROUPS" "$1"; }
if [ -z "$SIZE_MIB" ]; then
	SIZE_MIB=1024
	[ "$GROUPS" = mem ] && SIZE_MIB=4096
fi
if [ -z "$DIR" ]; then
	DIR=/dev/shm
	{ has_group qd || has_group ceil; } && DIR=/var/tmp
fi
[ -n "$BSIZES" ] || BSIZES=$CHUNK,1048576
need_tools fio jq cc
bench_setup limit "$SIZE_MIB" "$CHUNK" "$PAIRS" "$SEEKERS" "$SEEKS" \
    $(echo "$DEPTH,$BSIZES" | tr ',' ' ') \
    "$JOBS"
SAMPLES=$RAW/samples
: >"$SAMPLES"
# -H: fio's buffers (jobs x depth x block size) in 2 MiB pages, and some over.
# fio's options of -H and -R, for the qd and ceil groups.
FIO_X=""
if [ "$FIO_HUGE" -eq 1 ]; then
	hp=16
	for q in $(echo "$DEPTH" | tr ',' ' '); do
		for bs in $(echo "$BSIZES" | tr ',' ' '); do
			n=$((JOBS * q * bs / 2097152 + 16))
			[ "$n" -gt "$hp" ] && hp=$n
		done
	done
	huge_pages "$hp" || die "cannot reserve $hp huge pages (vm.nr_hugepages) for -H"
	FIO_X=--iomem=shmhuge
	note "fio's buffers in huge pages: --iomem=shmhuge, vm.nr_hugepages $hp for the run"
fi
[ "$FIO_REFILL" -eq 0 ] || FIO_X="${FIO_X:+$FIO_X }--refill_buffers"
[ "$AWAKE" -eq 0 ] || keep_awake
BNG_JSON=1
BARE=$RAW/bare-loop
cc -O2 -o "$BARE" "$here/bare-loop.c" || die "cannot build bench/bare-loop.c"
FIO_FILE=$DIR/bench-limit-fio.$$.dat
BARE_FILE=$DIR/bench-limit-bare.$$.dat
# The qd and ceil groups' fio files, one per job.
QDIR=$DIR/bench-limit-q.$$
mkdir -p "$QDIR" || die "cannot make $QDIR"
bench_clean "$FIO_FILE" "$BARE_FILE" "$QDIR"
BYTES=$((SIZE_MIB * 1048576))

# mem_bng PAIR: one bonnie-ng run, its four figures as B of both groups.
mem_bng() {
	bng_run "mem-$1" --cache=keep -p write,rewrite,read,seeks \
	    -S "$SEEKERS" -n "$SEEKS"
	for ph in write rewrite read seeks; do
		v=$(bng_get_all "mem-$1" "$ph")
		sample mem-bare "$ph" "$1" B "$v"
		[ "$ph" = rewrite ] || sample mem-fio "$ph" "$1" B "$v"
	done
}

mem_bare() {
	for ph in write rewrite read; do
		sample mem-bare "$ph" "$1" A \
		    "$("$BARE" "$ph" "$BARE_FILE" "$BYTES" "$CHUNK" || echo NA NA)"
	done
	sample mem-bare seeks "$1" A "$("$BARE" seeks "$BARE_FILE" "$BYTES" \
	    "$CHUNK" "$SEEKERS" "$SEEKS" || echo NA NA)"
	rm -f "$BARE_FILE"
}

mem_fio() {
	sample mem-fio write "$1" A "$(fio_write keep "fio-w-$1")"
	sample mem-fio read "$1" A "$(fio_read keep "fio-r-$1")"
	sample mem-fio seeks "$1" A "$(fio_seeks keep "fio-s-$1")"
	rm -f "$FIO_FILE"
}

# The queued groups: the name, fio's engine and the workers (jobs).
QG=qd QENG=io_uring QJ=1
set_q() {
	case $1 in
	qd)   QG=qd QENG=io_uring QJ=1 ;;
	ceil) QG=ceil QENG=libaio QJ=$JOBS ;;
	esac
}

# qd_aqu TAG: fio's mean queue at the device over its run, "AQU NA": the
# device's weighted milliseconds over fio's own run time (written by
# qd_fio into TAG.wms; other I/O on the device counts, as in
# bonnie-ng's record).
qd_aqu() {
	[ -s "$RAW/$1.wms" ] || { echo "NA NA"; return; }
	jq -r --argjson w "$(cat "$RAW/$1.wms")" '.jobs[0].job_runtime as $t |
	    if ($t // 0) > 0 then "\($w / $t) NA" else "NA NA" end' \
	    "$RAW/$1.json" 2>/dev/null || echo "NA NA"
}

# qd_side PAIR SIDE BS: one side of the current queued group at block
# size BS and depth QD.
qd_side() {
	g=$QG$QD-$3
	t=$QG$QD-$3-$1
	if [ "$2" = B ]; then
		c0=$CHUNK
		CHUNK=$3
		bng_run "$t" --direct --iodepth "$QD" -j "$QJ" \
		    -p write,read,seeks -S 1 -n "$SEEKS"
		CHUNK=$c0
		for ph in write read; do
			sample "$g" "$ph" "$1" B "$(bng_get_all "$t" "$ph")"
		done
		# One seek is one read, one in ten also written back: I/Os
		# per second are seeks/s x 1.1, against fio's randrw 91/9.
		[ "$3" = "$CHUNK" ] || return
		sample "$g" seeks "$1" B "$(jq -r '.runs[0].phases.seeks |
		    "\(.rate * 1.1) \(100 * (.user_s + .sys_s) / .elapsed_s)"' \
		    "$RAW/$t.json" 2>/dev/null || echo NA NA)"
		sample "$g/aqu" seeks "$1" B "$(jq -r \
		    '.runs[0].phases.seeks.kernel.disk[0]["aqu-sz"] // "NA" |
		    "\(.) NA"' "$RAW/$t.json" 2>/dev/null || echo NA NA)"
		return
	fi
	rm -f "$QDIR"/*
	sample "$g" write "$1" A "$(qd_fio "w-$t" write "$3" --end_fsync=1)"
	sample "$g" read "$1" A "$(qd_fio "r-$t" read "$3")"
	if [ "$3" = "$CHUNK" ]; then
		sample "$g" seeks "$1" A \
		    "$(qd_fio "s-$t" randrw "$3" --rwmixread=91 --norandommap \
		    --randrepeat=0 --number_ios="$((SEEKS * 11 / 10))")"
		sample "$g/aqu" seeks "$1" A "$(qd_aqu "s-$t")"
	fi
	rm -f "$QDIR"/*
}

note "machine: $(machine_line)"
note "$SIZE_MIB MiB, chunk $CHUNK, $SEEKERS seekers, $SEEKS seeks, $PAIRS pairs, groups $GROUPS"
pair=1
while [ "$pair" -le "$PAIRS" ]; do
	note "pair $pair of $PAIRS (load $(load_line))"
	if has_group mem; then
		if [ $((pair % 2)) -eq 1 ]; then
			mem_bare $pair; mem_fio $pair; mem_bng $pair
		else
			mem_bng $pair; mem_fio $pair; mem_bare $pair
		fi
	fi
	for q in qd ceil; do
		has_group $q || continue
		set_q $q
		for QD in $(echo "$DEPTH" | tr ',' ' '); do
		for bs in $(echo "$BSIZES" | tr ',' ' '); do
			if [ $((pair % 2)) -eq 1 ]; then
				qd_side $pair A $bs; qd_side $pair B $bs
			else
				qd_side $pair B $bs; qd_side $pair A $bs
			fi
		done
		done
	done
	pair=$((pair + 1))
done
note "done (load $(load_line))"

report_head limit.sh
echo "# rates in KiB/s (seeks/s; qd seeks: I/Os per second); ratio = B/A per pair, B = bonnie-ng"
echo "# mem-bare: A = bench/bare-loop.c; mem-fio: A = fio psync, cache kept"
echo "# cpuB: all the CPU of bonnie-ng's phase (its fill included) over the phase's timed seconds"
echo "# qdQ-BS: A = fio io_uring iodepth=Q direct=1${FIO_X:+ $FIO_X} (random: randrw, rwmixread=91); B = --direct --iodepth Q (Q: $DEPTH)"
echo "# ceilQ-BS: A = fio libaio iodepth=Q numjobs=$JOBS direct=1${FIO_X:+ $FIO_X}; B = -j $JOBS --direct --iodepth Q"
echo "# .../aqu: the mean queue at the device during the random reads (aqu-sz), in requests"
awk -F'\t' -f "$here/ratio.awk" "$SAMPLES"
# A busy machine slows both sides by how much CPU each is given; the work
# done per CPU second is steadier: the same pairs as KiB (seeks) per CPU
# second, rate / (%CPU / 100), the ratio B/A again (the "cpu" columns are
# then the rates).
# Not for ceil: fio's %CPU of a group of jobs is their average, not their
# sum as bonnie-ng's team %CPU is.
echo "# per CPU second: KiB (seeks, I/Os) per second of user + system time;"
echo "# bonnie-ng's is all the CPU its phase cost (the untimed fill of new data included)"
awk -F'\t' -v OFS='\t' '$1 !~ /^ceil/ && $5 ~ /^[0-9.]+$/ && $6 ~ /^[0-9.]+$/ && $6 > 0 {
	print $1 "/cpu", $2, $3, $4, $5 / ($6 / 100), $5 }' "$SAMPLES" |
    awk -F'\t' -f "$here/ratio.awk"
