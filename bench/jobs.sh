#!/bin/sh
# bench/jobs.sh: bonnie-ng -j N against fio numjobs=N --group_reporting on
# the same work (N files of SIZE each, the same chunk; block write with a
# final fsync, block read, and random seeks with one seeker per worker),
# in direct and cold modes, in pairs whose order alternates; then
# bonnie-ng-mpi -np N (and -np 2 -j N/2) against -j N, in alternating
# pairs too; the scaling curve against fio's best
# (numjobs and iodepth raised until the figure stops rising); and the
# leader's peak memory at -j 1 and -j 64.  Prints medians and ratios.
#
# Run from the top of the source tree.  See bench/RESULTS.md.

usage() {
	cat <<EOF
usage: bench/jobs.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS] [-n SEEKS]
                     [-N LIST] [-m MODES] [-g PARTS] [-b BONNIE-NG] [-k RAWDIR]
  -d DIR     directory on the file system under test (default /var/tmp)
  -s MIB     file size per worker in MiB (default 256)
  -c CHUNK   block size in bytes (default 16384)
  -p PAIRS   pairs per comparison (default 3)
  -n SEEKS   seeks per worker (default 8000)
  -N LIST    job counts (default 1,2,4,8)
  -m MODES   direct,cold (default both)
  -g PARTS   fio,mpi,ceiling,memory (default all)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR  keep the raw output (the last JSON and stderr, and every
             pair: RAWDIR/pairs, "mode work N pair bonnie-ng fio", and
             RAWDIR/mpi-pairs, "work N pair -jN -npN -np2,-jN/2") in RAWDIR
EOF
	exit 2
}

DIR=/var/tmp SIZE_MIB=256 CHUNK=16384 PAIRS=3 NLIST=1,2,4,8 SEEKS=8000
MODES=direct,cold PARTS=fio,mpi,ceiling,memory BNG=./bonnie-ng KEEP=""
SEEKERS=1
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-N) NLIST=${2-} ;;
	-m) MODES=${2-} ;;
	-g) PARTS=${2-} ;;
	*) bench_opt dscpnbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
bench_setup jobs "$SIZE_MIB" "$CHUNK" "$PAIRS" "$SEEKS"
need_tools fio jq
: >"$RAW/pairs"; : >"$RAW/mpi-pairs"
W=$DIR/bench-jobs.$$
mkdir -p "$W" || die "cannot make $W"
bench_clean "$W"
has() { in_list "$PARTS" "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "NA";
    else if (NR % 2) print v[(NR + 1) / 2];
    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Before each measured run: the files the last one removed written back
# and, on a file system mounted with discard, their blocks discarded, so
# that neither tool pays for the other's clean-up.
settle() { sync; }

# bng N MODE WORK: the aggregate rate of bonnie-ng -j N.
bng() {
	case $2 in direct) m=--direct ;; *) m=--cache=cold ;; esac
	case $3 in
	write) p=write ;;
	read) p=read ;;
	seeks) p=seeks ;;
	esac
	settle
	"$BNG" -q -d "$W" -s "${SIZE_MIB}m" -c "$CHUNK" -j "$1" -S 1 \
	    -n "$SEEKS" -p "$p" $m --json "$RAW/bng.json" >/dev/null \
	    2>"$RAW/bng.err" || { note "bonnie-ng failed: $(cat "$RAW/bng.err")"; echo NA; return; }
	jq -r ".runs[0].phases.$3.rate" "$RAW/bng.json"
}

# fio_jobs N MODE WORK: fio's group figure for the same work.  As
# bonnie-ng -p read (or seeks) fills its files just before it reads them
# (write, fsync, drop), fio reads files that a first, stonewalled job of
# the same run has just written with the same chunk: a file laid out
# long before sits differently in the caches under the guest (the host
# caches a VM's disk again) and read 5-10% faster here.
fio_jobs() {
	case $2 in
	direct) fm="--direct=1" ;;
	*) fm="--direct=0 --invalidate=1" ;;
	esac
	lay=""
	case $3 in
	# A new file each time, as bonnie-ng writes one: allocation included.
	write) fw="--rw=write --end_fsync=1 --create_on_open=1" ;;
	read) lay=1 fw="--rw=read" ;;
	seeks) lay=1 fw="--rw=randrw --rwmixread=91 --number_ios=$((SEEKS * 11 / 10))" ;;
	esac
	rm -f "$W"/f.*
	settle
	# The laying-out job, when there is one, is group 0; "j" is timed.
	jobs="--name=j $fm $fw"
	[ -n "$lay" ] && jobs="--name=lay --rw=write --end_fsync=1 --direct=0
	    --name=j --stonewall $fm $fw"
	fio --output-format=json --output="$RAW/fio.json" \
	    --directory="$W" --numjobs="$1" --group_reporting \
	    --size="${SIZE_MIB}m" --bs="$CHUNK" --ioengine=psync \
	    --fallocate=none --filename_format='f.$jobnum' \
	    $jobs >/dev/null 2>"$RAW/fio.err"
	st=$?
	# fio leaves its files; bonnie-ng removes its own as it ends.  Left
	# here, they sat on the disk through bonnie-ng's next run
	# and not through fio's (removed just before it): bonnie-ng's files
	# were laid out around them, fio's on the blocks just freed.
	rm -f "$W"/f.*
	[ $st -eq 0 ] || { note "fio failed: $(cat "$RAW/fio.err")"; echo NA; return; }
	g='[.jobs[] | select(.jobname == "j")][0]'
	case $3 in
	write) jq -r "$g.write.bw" "$RAW/fio.json" ;;
	read) jq -r "$g.read.bw" "$RAW/fio.json" ;;
	seeks) jq -r "$g | (.read.total_ios + .write.total_ios) /
	    1.1 / ([.read.runtime, .write.runtime] | max) *
	    1000" "$RAW/fio.json" ;;
	esac
}

echo "bench/jobs.sh: $(uname -r), $(getconf _NPROCESSORS_ONLN) cores, dir $DIR" \
    "($(df -PT "$DIR" | awk 'NR == 2 { print $2 }')), ${SIZE_MIB} MiB per" \
    "worker, chunk $CHUNK, $PAIRS pairs, $SEEKS seeks per worker, $(fio --version)"
echo "machine: $(machine_line)"

if has fio; then
	echo
	echo "mode    work   N  bonnie-ng     fio    ratio (median of pairs; KiB/s or seeks/s)"
	for mode in $(echo "$MODES" | tr , ' '); do
		for n in $(echo "$NLIST" | tr , ' '); do
			rm -f "$W"/*
			for work in write read seeks; do
				: >"$RAW/b" ; : >"$RAW/f"; : >"$RAW/r"
				k=0
				while [ $k -lt "$PAIRS" ]; do
					if [ $((k % 2)) -eq 0 ]; then
						b=$(bng "$n" "$mode" "$work")
						f=$(fio_jobs "$n" "$mode" "$work")
					else
						f=$(fio_jobs "$n" "$mode" "$work")
						b=$(bng "$n" "$mode" "$work")
					fi
					echo "$b" >>"$RAW/b"; echo "$f" >>"$RAW/f"
					echo "$mode $work $n $k $b $f" >>"$RAW/pairs"
					awk -v b="$b" -v f="$f" 'BEGIN { if (b + 0 > 0 && f + 0 > 0) print b / f }' >>"$RAW/r"
					k=$((k + 1))
				done
				printf '%-7s %-6s %2d %10.0f %9.0f %7.3f\n' "$mode" "$work" "$n" \
				    "$(median <"$RAW/b")" "$(median <"$RAW/f")" "$(median <"$RAW/r")"
			done
		done
	done
fi

MPI=$(dirname "$BNG")/bonnie-ng-mpi

# mpi NP J WORK: the aggregate rate of bonnie-ng-mpi -np NP -j J (cold).
# Unbound, as -j N is: mpirun's default binding ties each rank to one
# core here, which alone cost -np 1 seeks 15% against -j 1.
mpi() {
	rm -f "$RAW/mpi.json"
	settle
	mpirun --allow-run-as-root --oversubscribe --bind-to none \
	    --mca btl tcp,self \
	    -np "$1" "$MPI" -q -d "$W" -s "${SIZE_MIB}m" -c "$CHUNK" -j "$2" \
	    -S 1 -n "$SEEKS" -p "$3" --json "$RAW/mpi.json" >/dev/null \
	    2>"$RAW/mpi.err" || { note "bonnie-ng-mpi failed: $(head -3 "$RAW/mpi.err")"; echo NA; return; }
	jq -r ".runs[0].phases.$3.rate" "$RAW/mpi.json"
}

# ratio A B: A / B, or nothing when either is not a figure.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) print a / b }'
}

# num V FORMAT: V in FORMAT, or "-" when V is not a figure.
num() {
	awk -v v="$1" -v f="$2" 'BEGIN { if (v ~ /^[0-9]/) printf f, v
	    else printf "%s", "-" }'
}

if has mpi && [ -x "$MPI" ] && command -v mpirun >/dev/null 2>&1; then
	echo
	echo "bonnie-ng-mpi against -j N, cold, medians of pairs in alternating order:"
	echo "-np N (one worker a rank), and -np 2 -j N/2 (forked workers in 2 ranks)"
	echo "work   N  -j N      -np N     ratio   -np2,-jN/2 ratio"
	for n in $(echo "$NLIST" | tr , ' '); do
		for work in write read seeks; do
			: >"$RAW/b"; : >"$RAW/m"; : >"$RAW/r"; : >"$RAW/c"; : >"$RAW/q"
			k=0
			while [ $k -lt "$PAIRS" ]; do
				if [ $((k % 2)) -eq 0 ]; then
					b=$(bng "$n" cold "$work")
					m=$(mpi "$n" 1 "$work")
				else
					m=$(mpi "$n" 1 "$work")
					b=$(bng "$n" cold "$work")
				fi
				c=NA
				if [ "$n" -ge 4 ] && [ $((n % 2)) -eq 0 ]; then
					c=$(mpi 2 $((n / 2)) "$work")
				fi
				echo "$b" >>"$RAW/b"; echo "$m" >>"$RAW/m"; echo "$c" >>"$RAW/c"
				echo "$work $n $k $b $m $c" >>"$RAW/mpi-pairs"
				ratio "$m" "$b" >>"$RAW/r"
				ratio "$c" "$b" >>"$RAW/q"
				k=$((k + 1))
			done
			printf '%-6s %2d %9.0f %9.0f %7.3f %9s %7s\n' "$work" "$n" \
			    "$(median <"$RAW/b")" "$(median <"$RAW/m")" "$(median <"$RAW/r")" \
			    "$(num "$(grep -v NA "$RAW/c" | median)" %.0f)" \
			    "$(num "$(median <"$RAW/q")" %.3f)"
		done
	done
fi

if has ceiling; then
	echo
	echo "The ceiling: fio direct random 16 KiB reads, libaio, numjobs x iodepth"
	best=0
	for nj in 1 2 4 8 16; do
		for qd in 1 4 16 64; do
			rm -f "$W"/*
			fio --output-format=json --output="$RAW/c.json" --name=c \
			    --directory="$W" --numjobs=$nj --group_reporting \
			    --size="${SIZE_MIB}m" --bs="$CHUNK" --ioengine=libaio \
			    --iodepth=$qd --direct=1 --rw=randread --runtime=5 \
			    --time_based >/dev/null 2>&1 || continue
			v=$(jq -r '.jobs[0].read.bw' "$RAW/c.json")
			printf 'numjobs %2d iodepth %2d: %8.0f KiB/s\n' $nj $qd "$v"
			best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b > a) ? b : a }')
		done
	done
	echo "best: $best KiB/s"
	echo "bonnie-ng -j N, direct seeks (1 seeker each, so queue depth N):"
	for n in $(echo "$NLIST" | tr , ' '); do
		v=$(bng "$n" direct seeks)
		printf '  -j %2d: %8.0f seeks/s = %8.0f KiB/s, %5.1f%% of the best\n' \
		    "$n" "$v" "$(awk -v v="$v" -v c="$CHUNK" 'BEGIN { print v * 1.1 * c / 1024 }')" \
		    "$(awk -v v="$v" -v c="$CHUNK" -v b="$best" 'BEGIN { print 100 * v * 1.1 * c / 1024 / b }')"
	done
fi

if has memory; then
	echo
	echo "The leader's peak memory (VmHWM of the process that -j N starts in):"
	for n in 1 64; do
		rm -f "$W"/*
		"$BNG" -q -d "$W" -s 16m -c "$CHUNK" -j $n -p write,read,seeks \
		    -n 200 >/dev/null 2>&1 &
		pid=$!
		hwm=0
		while kill -0 $pid 2>/dev/null; do
			v=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null)
			[ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
			sleep 0.02
		done
		wait $pid
		echo "  -j $n: $hwm KiB"
	done
fi
