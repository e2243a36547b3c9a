#!/bin/sh
# bench/history.sh: how bonnie-ng history scales with the records it reads
# (issue 41).  One real run of the default size (-x 1, the timeline on, as
# a nightly run records it) is the base; tests/history-records.py derives
# N records from it by its seeded noise model with a 20% step in block
# write at 60% of them; history -o json reads each set R times, and the
# median wall time, CPU time and peak resident memory (/usr/bin/time) are
# printed with the change points found.  Then the JSON parser alone: one
# object of K members read by compare (which parses it, then refuses it),
# K from 10,000 to 160,000, to show it linear.
# Run from the top of the source tree after make.

usage() {
	cat <<EOF2
usage: bench/history.sh [-d DIR] [-s MIB] [-r REPEATS] [-b BONNIE-NG]
                        [-n "N ..."] [-k RAWDIR]
  -d DIR     where the base run runs (default: a directory under TMPDIR)
  -s MIB     the base run's size in MiB (default 1024, the default's)
  -r N       reads of each history (default 3)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -n LIST    the record counts (default "100 1000 3000 10000")
  -k RAWDIR  keep the records and outputs in RAWDIR
EOF2
	exit 2
}

DIR="" SIZE_MIB=1024 REPS=3 BNG=./bonnie-ng COUNTS="100 1000 3000 10000"
KEEP=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-d) DIR=$2 ;;
	-s) SIZE_MIB=$2 ;;
	-r) REPS=$2 ;;
	-b) BNG=$2 ;;
	-n) COUNTS=$2 ;;
	-k) KEEP=$2 ;;
	*) usage ;;
	esac
	[ $# -ge 2 ] || usage
	shift 2
done
need_tools jq python3
[ -x /usr/bin/time ] || die "needs /usr/bin/time (package time)"
W=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/bench-history.XXXXXX")} ||
    die "mktemp"
mkdir -p "$W"
[ -n "$DIR" ] || { DIR=$W/run; mkdir -p "$DIR"; }
cleanup() { [ -n "$KEEP" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -s "$W/base.json" ]; then
	note "base: bonnie-ng -d $DIR -s ${SIZE_MIB}m -x 1 (the default phases)"
	"$BNG" -d "$DIR" -s "${SIZE_MIB}m" -q --json "$W/base.json" \
	    >/dev/null || die "the base run failed"
fi
echo "# base record: $(wc -c <"$W/base.json") bytes; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# records  reads  wall_s  cpu_s  max_rss_kb  bytes_read  change_points"
for n in $COUNTS; do
	# Kept ones (-k) are used again when they are all there.
	if [ "$(ls "$W/h$n" 2>/dev/null | wc -l)" -ne "$n" ]; then
		rm -rf "$W/h$n"
		python3 "$here/../tests/history-records.py" "$W/base.json" \
		    "$W/h$n" "$n" --seed 7 --step "write:$((n * 6 / 10)):0.8" ||
		    die "history-records.py failed"
	fi
	bytes=$(du -sb "$W/h$n" | cut -f1)
	: >"$W/t$n"
	i=0
	while [ $i -lt "$REPS" ]; do
		/usr/bin/time -f "%e %U %S %M" -o "$W/one" "$BNG" history \
		    -o json "$W/h$n" >"$W/o$n.json"
		# time(1) says "Command exited with non-zero status 1" too.
		grep -v '^Command' "$W/one" >>"$W/t$n"
		i=$((i + 1))
	done
	cps=$(jq -c '[.change_points[] | "\(.column)@\(.index)"]' "$W/o$n.json")
	sort -n "$W/t$n" | awk -v n="$n" -v r="$REPS" -v b="$bytes" -v c="$cps" '
		{ w[NR] = $1; u[NR] = $2 + $3; m[NR] = $4 }
		END { k = int((NR + 1) / 2)
			printf "%9d  %5d  %6.2f  %5.2f  %10d  %10d  %s\n",
			    n, r, w[k], u[k], m[k], b, c }'
	[ -n "$KEEP" ] || rm -rf "$W/h$n"
done

echo "# the JSON parser: one object of K members (compare reads, then refuses it)"
echo "#        K  wall_s  cpu_s"
for k in 10000 20000 40000 80000 160000; do
	python3 -c "
import sys
k = int(sys.argv[1])
print('{' + ','.join('\"k%d\": %d' % (i, i) for i in range(k)) + '}')" \
	    "$k" >"$W/keys.json"
	/usr/bin/time -f "%e %U %S" -o "$W/one" "$BNG" compare "$W/keys.json" \
	    "$W/keys.json" >/dev/null 2>&1
	grep -v '^Command' "$W/one" | awk -v k="$k" \
	    '{ printf "%10d  %6.2f  %5.2f\n", k, $1, $2 + $3 }'
done
