#!/bin/sh
# bench/fixed-cost.sh: what a run costs beyond its phases' work (issue 45).
#
# Runs bonnie-ng at each size (default: all phases, the default cold
# cache, on DIR) under /usr/bin/time, and splits the whole run's CPU (user
# + system, its children's too: the sampler, forked seekers) into the
# phases' own CPU (the record's user_s + sys_s) and the rest: start-up,
# the cache drops between phases and the seekers' drops, the sampler,
# the file's removal.  CPU, not wall time, so that a busy machine
# disturbs it less.  Per size: medians of the runs; then the fit of CPU
# against size, whose intercept is the run's fixed cost.  With -B, each
# run of the base binary is paired with one of -b's, in alternating
# order, and both are shown.
#
#   sh bench/fixed-cost.sh -s 64,256,1024 -p 3
#   sh bench/fixed-cost.sh -s 256,1024 -p 5 -B /tmp/old/bonnie-ng -- -p write,seeks
#
# Arguments after -- go to every bonnie-ng run.

usage() {
	cat <<EOF
usage: bench/fixed-cost.sh [-d DIR] [-s MIB,...] [-p RUNS] [-b BONNIE-NG]
                           [-B BASE-BONNIE-NG] [-k RAWDIR] [-- ARGS...]
  -d DIR     directory (default /var/tmp)
  -s MIB,... file sizes in MiB (default 64,256,1024)
  -p RUNS    runs of each size (default 3)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -B PATH    a base binary to pair with it (alternating order)
  -k RAWDIR  keep every run's record in RAWDIR
EOF
	exit 2
}

DIR=/var/tmp SIZES=64,256,1024 PAIRS=3 BNG=./bonnie-ng BASE="" KEEP=""
CHUNK=16384 SIZE_MIB=0
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-s) SIZES=${2-} ;;
	-B) BASE=${2-} ;;
	*) bench_opt dpbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
need_tools jq time
# CPU seconds do not depend on the host's free memory: no pause.
BENCH_PAUSE=${BENCH_PAUSE:-0}
bench_setup fixed-cost "$PAIRS" $(echo "$SIZES" | tr ',' ' ')
if [ -n "$BASE" ]; then
	[ -x "$BASE" ] || die "no base binary at $BASE"
	case $BASE in /*) ;; *) BASE=$(pwd)/$BASE ;; esac
fi
SAMPLES=$RAW/samples
: >"$SAMPLES"

# one SIDE BIN MIB N ARGS...: a run; appends "SIDE MIB whole phases
# outside seeks_cpu seeks_ops drop_s" to SAMPLES.
one() {
	side=$1 bin=$2 mib=$3 n=$4; shift 4
	tag=$side-$mib-$n
	/usr/bin/time -f '%U %S' -o "$RAW/$tag.time" "$bin" -d "$DIR" \
	    -s "${mib}m" -q --json "$RAW/$tag.json" "$@" \
	    >"$RAW/$tag.out" 2>"$RAW/$tag.err" ||
	    { note "bonnie-ng failed, see $RAW/$tag.err"; return; }
	whole=$(awk '{ printf "%.3f", $1 + $2 }' "$RAW/$tag.time")
	jq -r --arg side "$side" --arg mib "$mib" --argjson w "$whole" '
	    .runs[0].phases | [to_entries[] | select(.value != null)] |
	    (map(.value.user_s + .value.sys_s) | add) as $p |
	    (map(.value.drop_s // 0) | add) as $d |
	    (map(select(.key == "seeks"))[0].value // {}) as $s |
	    [$side, $mib, $w, $p, $w - $p, (($s.user_s // 0) + ($s.sys_s // 0)),
	     ($s.ops // 0), $d] | map(tostring) | join("\t")' \
	    "$RAW/$tag.json" >>"$SAMPLES"
}

note "machine: $(machine_line)"
note "sizes $SIZES MiB, $PAIRS runs each, in $DIR${BASE:+, base $BASE}; extra: $*"
n=1
while [ "$n" -le "$PAIRS" ]; do
	for mib in $(echo "$SIZES" | tr ',' ' '); do
		note "size $mib MiB, run $n (load $(load_line))"
		if [ -z "$BASE" ]; then
			one B "$BNG" "$mib" "$n" "$@"
		elif [ $((n % 2)) -eq 1 ]; then
			one A "$BASE" "$mib" "$n" "$@"
			one B "$BNG" "$mib" "$n" "$@"
		else
			one B "$BNG" "$mib" "$n" "$@"
			one A "$BASE" "$mib" "$n" "$@"
		fi
	done
	n=$((n + 1))
done
note "done (load $(load_line))"

report_head fixed-cost.sh
echo "# CPU seconds (user + system, children too); B = $BNG${BASE:+, A = $BASE}; extra arguments: $*"
awk -F'\t' '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	k = $1 SUBSEP $2
	if (!(k in cnt)) { order[++nk] = k; side[nk] = $1; mib[nk] = $2 }
	c = ++cnt[k]
	for (f = 3; f <= 8; f++) v[k, f, c] = $f
}
END {
	printf "%-4s %6s %7s %7s %8s %7s %7s %7s\n", "side", "MiB", "whole",
	    "phases", "outside", "seeks", "ops", "drop_s"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		printf "%-4s %6s", side[i], mib[i]
		for (f = 3; f <= 8; f++) {
			for (c = 1; c <= cnt[k]; c++) a[c] = v[k, f, c]
			m[f] = median(a, cnt[k])
			printf (f == 7 ? " %7d" : f == 5 ? " %8.3f" : " %7.3f"), m[f]
		}
		printf "\n"
		# The fit per side: CPU = fixed + per_gib * GiB.
		s = side[i]; x = mib[i] / 1024
		n[s]++; sx[s] += x; sxx[s] += x * x
		sy[s] += m[3]; sxy[s] += x * m[3]
		py[s] += m[4]; pxy[s] += x * m[4]
	}
	for (s in n) {
		d = n[s] * sxx[s] - sx[s] * sx[s]
		if (n[s] < 2 || d == 0) continue
		b = (n[s] * sxy[s] - sx[s] * sy[s]) / d
		pb = (n[s] * pxy[s] - sx[s] * py[s]) / d
		printf "# %s: whole CPU = %.3f s + %.3f s a GiB; phases CPU = %.3f s + %.3f s a GiB (least squares over the medians)\n",
		    s, (sy[s] - b * sx[s]) / n[s], b, (py[s] - pb * sx[s]) / n[s], pb
	}
}' "$SAMPLES"
