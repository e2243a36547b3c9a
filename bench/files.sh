#!/bin/sh
# bench/files.sh: bonnie-ng's file creation phases (--files) against
# bonnie++ -n on the same counts and sizes in the same directory: pairs
# whose order alternates (bonnie-ng first in odd pairs, bonnie++ first in
# even ones), the bonnie-ng / bonnie++ ratio of each phase at the median
# over the pairs, and one run of each tool under strace -c to show the
# system calls each made for the same work.
#
# bonnie++ never drops a cache, so bonnie-ng runs with --cache=keep.
# bonnie++ prints +++++ for a test that took under its minimum time; such
# a phase has no bonnie++ figure (NA) and no ratio: raise -n to time it.
#
# Run from the top of the source tree.  See bench/RESULTS.md.

usage() {
	cat <<EOF
usage: bench/files.sh [-d DIR] [-n N[:MAX:MIN]] [-p PAIRS] [-b BONNIE-NG]
                      [-k DIR]
  -d DIR     directory on the file system under test (default /var/tmp)
  -n SPEC    N x 1024 files, sizes MAX to MIN bytes (default 16, empty
             files; as bonnie++ -n and bonnie-ng --files take it)
  -p PAIRS   pairs (default 5)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -k DIR     keep the raw outputs in DIR
EOF
	exit 2
}

DIR=/var/tmp SPEC=16 PAIRS=5 BNG=./bonnie-ng KEEP="" CHUNK=16384
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-n) SPEC=${2-} ;;
	*) bench_opt dpbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
case $SPEC in
*:*:*:*) die "-n takes N[:MAX:MIN], no DIRS" ;;
esac
need_tools bonnie++ jq
bench_setup files "$PAIRS"
W=$DIR/bench-files.$$
mkdir -p "$W" || die "cannot make $W"
bench_clean "$W"

PHASES="create stat delete rcreate rstat rdelete"
# bonnie++'s CSV (1.98, 1-based): the rate and %CPU of each phase.
bpp_field() {
	case $1 in
	create) echo 27 ;; stat) echo 29 ;; delete) echo 31 ;;
	rcreate) echo 33 ;; rstat) echo 35 ;; rdelete) echo 37 ;;
	esac
}

# ng TAG: one bonnie-ng run of the six file phases.
ng() {
	"$BNG" -d "$W" --files "$SPEC" -p create,stat,delete,rcreate,rstat,rdelete \
	    --cache=keep -q -m bench --json "$RAW/$1.json" >"$RAW/$1.out" \
	    2>"$RAW/$1.err" || note "bonnie-ng failed (exit $?), see $RAW/$1.err"
}

# pp TAG: one bonnie++ run of its file tests only (-s 0).
pp() {
	set -- "$1" -d "$W" -s 0 -n "$SPEC" -q -m bench
	[ "$(id -u)" -eq 0 ] && set -- "$@" -u root
	tag=$1; shift
	bonnie++ "$@" >"$RAW/$tag.csv" 2>"$RAW/$tag.err" ||
	    note "bonnie++ failed, see $RAW/$tag.err"
}

# Samples for ratio.awk: GROUP PHASE PAIR SIDE RATE CPU, A = bonnie++,
# B = bonnie-ng.
: >"$RAW/samples"
p=1
while [ $p -le "$PAIRS" ]; do
	if [ $((p % 2)) -eq 1 ]; then
		ng "ng$p"; pp "pp$p"
	else
		pp "pp$p"; ng "ng$p"
	fi
	for ph in $PHASES; do
		f=$(bpp_field $ph)
		a=$(awk -F, -v f="$f" '$1 ~ /^1\.9/ { v = $f; c = $(f + 1)
		    if (v !~ /^[0-9.]+$/) v = "NA"
		    if (c !~ /^[0-9.]+$/) c = "NA"
		    print v, c; exit }' "$RAW/pp$p.csv")
		[ -n "$a" ] || a="NA NA"
		b=$(jq -r ".runs[0].phases.$ph | if . == null then \"NA NA\"
		    else \"\(.rate) \(.cpu_pct)\" end" "$RAW/ng$p.json" \
		    2>/dev/null) || b="NA NA"
		printf 'files %s %d A %s\n' $ph $p "$a" | tr ' ' '\t' >>"$RAW/samples"
		printf 'files %s %d B %s\n' $ph $p "$b" | tr ' ' '\t' >>"$RAW/samples"
	done
	note "pair $p of $PAIRS done"
	p=$((p + 1))
done

echo "# bench/files.sh $(date -u +%Y-%m-%dT%H:%MZ): -n $SPEC, $PAIRS pairs, $W"
echo "# machine: $(machine_line)"
echo "# load average before the strace runs: $(load_line)"
echo "# A = bonnie++ $(awk -F, '$1 ~ /^1\.9/ { print $2; exit }' "$RAW/pp1.csv"), B = bonnie-ng; ratio = B/A per pair, median"
# A phase bonnie++ never timed has no A median and no ratio: NA, not 0.
awk -f "$here/ratio.awk" "$RAW/samples" | awk 'NR > 1 && $3 == 0 {
	$4 = "NA"; $6 = $7 = $8 = "NA"; $9 = "NA"
	printf "%-14s %-8s %2d %10s %10.0f %7s %7s %7s %6s %6.1f %6s %6s\n",
	    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12; next } { print }'
np=0
for ph in $PHASES; do
	n=$(awk -v ph=$ph '$2 == ph && $4 == "A" && $5 == "NA"' "$RAW/samples" | wc -l)
	[ "$n" -gt 0 ] && printf '# %s: bonnie++ printed +++++ (under its minimum time) in %d of %d pairs\n' $ph "$n" "$PAIRS"
done

# The system calls of one run of each, for the same work.
if command -v strace >/dev/null 2>&1; then
	strace -f -c -o "$RAW/ng.strace" "$BNG" -d "$W" --files "$SPEC" \
	    -p create,stat,delete,rcreate,rstat,rdelete --cache=keep -q \
	    -m bench >/dev/null 2>&1
	set -- -d "$W" -s 0 -n "$SPEC" -q -m bench
	[ "$(id -u)" -eq 0 ] && set -- "$@" -u root
	strace -f -c -o "$RAW/pp.strace" bonnie++ "$@" >/dev/null 2>&1
	echo "# system calls of one whole run (strace -f -c), those made 100 times or more:"
	printf '%-16s %10s %10s\n' syscall bonnie++ bonnie-ng
	awk 'FNR == 1 { side++ }
	    $NF ~ /^[a-z_0-9]+$/ && $(NF - 1) ~ /^[0-9]+$/ && $NF != "total" {
		# calls is the 4th field; errors (when any) the 5th.
		calls = $4; name = $NF
		c[name, side] = calls; names[name] = 1
	    }
	    END {
		for (n in names)
			if (c[n, 1] + 0 >= 100 || c[n, 2] + 0 >= 100)
				printf "%-16s %10d %10d\n", n, c[n, 1], c[n, 2]
	    }' "$RAW/pp.strace" "$RAW/ng.strace" | sort
else
	echo "# strace not installed: no system call counts"
fi
