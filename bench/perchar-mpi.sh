#!/bin/sh
# bench/perchar-mpi.sh: the per-char phases (putc, getc) in a process with
# other threads against a plain run (issue 45).  Target: >= 0.97 of plain
# for both, under MPI (mpirun -np 1 bonnie-ng-mpi), -j 1 and -S thread.
#
#  cg    instructions a byte, from valgrind's callgrind: everything putc_run
#        and getc_run execute (the timed loops, the library's putc and getc,
#        the latency samples) over the bytes, for each side.  Repeatable
#        however busy the machine is; the figure a code change is judged by.
#  rate  alternating pairs of whole runs in memory (a tmpfs DIR,
#        --cache=keep, -p putc,getc), the rates from each record; A = the
#        plain run, B = each variant.  Wants a quiet machine.
#
# The variants: mpi (mpirun -np 1 bonnie-ng-mpi, which `make mpi` builds;
# skipped without it), j1 (-j 1: the phases in one forked worker), thread
# (-S thread -x 2 with a short seeks phase: the second run's per-char
# phases come after the seekers' threads; both sides run so and the second
# run is compared).
#
# Run from the top of the source tree after make (and make mpi).

usage() {
	cat <<EOF
usage: bench/perchar-mpi.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS]
                            [-g GROUPS] [-V VARIANTS] [-b BONNIE-NG]
                            [-k RAWDIR]
  -d DIR      directory (default /dev/shm)
  -s MIB      file size in MiB (default 1024, where a side spreads by
              3-5% against 17-24% at 256; cg uses 8)
  -c CHUNK    chunk size in bytes (default 16384)
  -p PAIRS    pairs of runs for rate (default 9)
  -g GROUPS   comma list of: cg,rate (default cg,rate)
  -V VARIANTS comma list of: mpi,j1,thread (default all three)
  -b PATH     the bonnie-ng binary (default ./bonnie-ng; bonnie-ng-mpi is
              looked for beside it)
  -k RAWDIR   keep every run's output in RAWDIR
EOF
	exit 2
}

DIR=/dev/shm SIZE_MIB=1024 CHUNK=16384 PAIRS=9 SEEKS=100
GROUPS=cg,rate VARIANTS=mpi,j1,thread BNG=./bonnie-ng KEEP=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-g) GROUPS=${2-} ;;
	-V) VARIANTS=${2-} ;;
	*) bench_opt dscpbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
need_tools jq
# Instruction counts do not depend on the host's memory: no pause.
in_list "$GROUPS" rate || BENCH_PAUSE=0
bench_setup perchar-mpi "$SIZE_MIB" "$CHUNK" "$PAIRS"
MPI=$(dirname "$BNG")/bonnie-ng-mpi
if in_list "$VARIANTS" mpi; then
	if [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null 2>&1; then
		note "no $MPI or no mpirun: the mpi variant is skipped (make mpi)"
		VARIANTS=$(echo ",$VARIANTS," | sed 's/,mpi,/,/; s/^,//; s/,$//')
	fi
fi
SAMPLES=$RAW/samples
: >"$SAMPLES"

# side VARIANT TAG SIZE_MIB [WRAP...]: one run of the variant (plain, mpi,
# j1, thread, or plain-x2: the thread variant's base), its record in
# $RAW/TAG.json; the program is run under WRAP (valgrind), itself under
# mpirun for mpi.
side() {
	sv_=$1 tag=$2 mib=$3; shift 3
	bin=$BNG
	if [ "$sv_" = mpi ]; then
		bin=$MPI
		set -- mpirun --allow-run-as-root --oversubscribe -np 1 "$@"
	fi
	set -- "$@" "$bin" -d "$DIR" -s "${mib}m" -c "$CHUNK" -q \
	    --cache=keep --interval 0 --json "$RAW/$tag.json"
	case $sv_ in
	plain|mpi) set -- "$@" -p putc,getc ;;
	j1) set -- "$@" -p putc,getc -j 1 ;;
	plain-x2) set -- "$@" -p putc,getc,seeks -n "$SEEKS" -x 2 ;;
	thread) set -- "$@" -p putc,getc,seeks -n "$SEEKS" -x 2 -S thread ;;
	esac
	"$@" >"$RAW/$tag.out" 2>"$RAW/$tag.err" ||
	    note "$sv_ failed (exit $?), see $RAW/$tag.err"
}

# The run of a record the variant compares: the second for thread.
run_of() {
	case $1 in plain-x2|thread) echo 1 ;; *) echo 0 ;; esac
}

base_of() {
	case $1 in thread) echo plain-x2 ;; *) echo plain ;; esac
}

if in_list "$GROUPS" cg; then
	command -v valgrind >/dev/null 2>&1 ||
	    die "valgrind is not installed (apt-get install valgrind)"
	echo "# instructions a byte (callgrind, 8 MiB, putc_run and getc_run with what they call)"
	printf '%-10s %8s %8s\n' variant putc getc
	for v in plain $(echo "$VARIANTS" | tr ',' ' ') plain-x2; do
		line=$v
		for fn in putc_run getc_run; do
			rm -f "$RAW/cg-$v-$fn".*
			vg="valgrind --tool=callgrind --trace-children=yes \
			    --toggle-collect=$fn \
			    --callgrind-out-file=$RAW/cg-$v-$fn.%p"
			# shellcheck disable=SC2086
			side "$v" "cg-$v-$fn" 8 $vg
			bytes=$((8 * 1048576 * ($(run_of "$v") + 1)))
			ir=$(for f in "$RAW/cg-$v-$fn".*; do
				awk '/^summary:/ { print $2 }' "$f"
			    done | sort -n | tail -1)
			line="$line $(awk -v i="${ir:-0}" -v b="$bytes" \
			    'BEGIN { printf "%.2f", i / b }')"
		done
		echo "$line" | awk '{ printf "%-10s %8s %8s\n", $1, $2, $3 }'
	done
fi

if in_list "$GROUPS" rate; then
	note "machine: $(machine_line)"
	note "$SIZE_MIB MiB in $DIR, chunk $CHUNK, $PAIRS pairs, variants $VARIANTS"
	pair=1
	while [ "$pair" -le "$PAIRS" ]; do
		note "pair $pair of $PAIRS (load $(load_line))"
		for v in $(echo "$VARIANTS" | tr ',' ' '); do
			b=$(base_of "$v")
			if [ $((pair % 2)) -eq 1 ]; then
				order="$b:A $v:B"
			else
				order="$v:B $b:A"
			fi
			for s in $order; do
				sv=${s%:*} sd=${s#*:}
				side "$sv" "$v-$pair-$sd" "$SIZE_MIB"
				r=$(run_of "$sv")
				for ph in putc getc; do
					printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$ph" \
					    "$pair" "$sd" "$(jq -r ".runs[$r].phases.$ph |
					    if . == null then \"NA\tNA\" else
					    \"\(.rate)\t\(.cpu_pct)\" end" \
					    "$RAW/$v-$pair-$sd.json" 2>/dev/null ||
					    printf 'NA\tNA')" >>"$SAMPLES"
				done
			done
		done
		pair=$((pair + 1))
	done
	note "done (load $(load_line))"
	report_head perchar-mpi.sh
	echo "# rates in KiB/s; ratio = B/A per pair; A = a plain run (thread: plain -x 2, its second run), B = the variant"
	awk -F'\t' -f "$here/ratio.awk" "$SAMPLES"
fi
