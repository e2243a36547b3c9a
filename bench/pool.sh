#!/bin/sh
# bench/pool.sh DIR...: the runs of one script pooled, pair by pair.
# Each DIR is a -k directory of limit.sh, peers.sh, perchar-mpi.sh or
# files.sh (its file "samples": GROUP PHASE PAIR SIDE RATE CPU); the pairs
# of every run are taken together (run k's pair p as pair 1000 (k - 1) +
# p) and summarised by ratio.awk as one run, with a bootstrap interval of
# the median ratio (2000 resamples; -b N for another count).
#
#   sh bench/pool.sh /tmp/qd-1 /tmp/qd-2
set -u
here=$(cd "$(dirname "$0")" && pwd)
boot=2000
if [ "${1:-}" = -b ]; then
	boot=${2:?-b wants a count}
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: sh bench/pool.sh [-b N] DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -r "$d/samples" ] || { echo "pool.sh: no $d/samples" >&2; exit 2; }
done
k=0
for d in "$@"; do
	awk -F'\t' -v OFS='\t' -v k="$k" '{ $3 = 1000 * k + $3; print }' \
	    "$d/samples"
	k=$((k + 1))
done | awk -F'\t' -v boot="$boot" -f "$here/ratio.awk"
