#!/bin/sh
# bench/repro.sh: is bench/limit.sh's in-memory figure a result?  Runs
# `bench/limit.sh -g mem` twice, GAP seconds apart, with the same pairs,
# and for every ratio (rate and per CPU second) prints each run's median
# of the per-pair ratios and its quartiles, and whether the two runs agree:
# each run's median inside the other's interquartile range (issue 45).
# Try growing -p until every row agrees to learn how many pairs a figure
# takes on this machine.
#
#   sh bench/repro.sh -p 20 -G 120
#   sh bench/repro.sh -p 24 -G 60 -- -n 64000   (4 GiB a run: limit.sh mem's default)
#
# Arguments after -- go to both limit.sh runs (not -g, -p or -k).

usage() {
	cat <<EOF
usage: bench/repro.sh [-p PAIRS] [-G GAP_SECONDS] [-k RAWDIR] [-- LIMIT-ARGS...]
EOF
	exit 2
}

PAIRS=20 GAP=120 KEEP=""
here=$(dirname "$0")
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-p) PAIRS=${2-} ;;
	-G) GAP=${2-} ;;
	-k) KEEP=${2-} ;;
	*) usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
case $PAIRS$GAP in *[!0-9]*|'') usage ;; esac
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" || exit 1
	RAW=$KEEP
else
	RAW=$(mktemp -d "${TMPDIR:-/tmp}/bench-repro.XXXXXX") || exit 1
	trap 'rm -rf "$RAW"' EXIT
fi
trap 'exit 130' INT TERM

for run in 1 2; do
	[ "$run" = 2 ] && { echo "bench: waiting $GAP s" >&2; sleep "$GAP"; }
	echo "bench: run $run of 2 (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	sh "$here/limit.sh" -g mem -p "$PAIRS" -k "$RAW/run$run" "$@" \
	    >"$RAW/run$run.txt" || exit 1
done

echo "# bench/repro.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ): bench/limit.sh -g mem -p $PAIRS $*, twice, $GAP s apart"
echo "# per-pair ratios B/A: median [q25, q75] of each run; agree: each median inside the other's quartiles"
for run in 1 2; do
	# group phase pair ratio, for rate and per CPU second (cpu > 0).
	awk -F'\t' -v run="$run" '
	$5 ~ /^[0-9.]+$/ { v[$1, $2, $3, $4] = $5; c[$1, $2, $3, $4] = $6
		g[$1 SUBSEP $2] = 1; p[$3] = 1 }
	END {
		for (k in g) {
			split(k, a, SUBSEP)
			for (i in p) {
				A = v[a[1], a[2], i, "A"]; B = v[a[1], a[2], i, "B"]
				cA = c[a[1], a[2], i, "A"]; cB = c[a[1], a[2], i, "B"]
				if (A > 0 && B > 0)
					print run, a[1], a[2], B / A
				if (A > 0 && B > 0 && cA > 0 && cB > 0)
					print run, a[1] "/cpu", a[2], (B / cB) / (A / cA)
			}
		}
	}' "$RAW/run$run/samples"
done | sort -k2,2 -k3,3 -k1,1n -k4,4g | awk '
function q(a, n, f,    i) { i = 1 + int(f * (n - 1) + 0.5); return a[i] }
{
	k = $2 " " $3
	if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
	n[k, $1]++
	x[k, $1, n[k, $1]] = $4
}
END {
	printf "%-16s %-8s %24s %24s  %s\n", "group", "phase", "run 1", "run 2", "agree"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		for (r = 1; r <= 2; r++) {
			m = n[k, r]
			delete s
			for (j = 1; j <= m; j++) s[j] = x[k, r, j]
			med[r] = m ? (m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2) : 0
			lo[r] = m ? q(s, m, 0.25) : 0
			hi[r] = m ? q(s, m, 0.75) : 0
		}
		ok = med[1] >= lo[2] && med[1] <= hi[2] && med[2] >= lo[1] && med[2] <= hi[1]
		split(k, kk, " ")
		printf "%-16s %-8s %8.3f [%.3f, %.3f] %8.3f [%.3f, %.3f]  %s\n", kk[1],
		    kk[2], med[1], lo[1], hi[1], med[2], lo[2], hi[2], ok ? "yes" : "NO"
	}
}'
