#!/bin/sh
# bench/timeline-cost.sh: what the kernel's account and the timeline cost
# (issue 25).  In memory (a tmpfs, --cache=keep), where a phase is
# fastest and any cost shows most, block read and seeks with the timeline
# on (--interval 100ms, the default) against off (--interval 0), in
# alternating pairs (on first in odd pairs, off first in even ones); then
# the peak resident memory of a default -j 1 run (/usr/bin/time) and the
# size of its record.  Prints each pair's ratio on/off and the medians.
# Run from the top of the source tree after make, as root (it mounts a
# tmpfs) or with -d on a tmpfs you made.

usage() {
	cat <<EOF2
usage: bench/timeline-cost.sh [-d DIR] [-s MIB] [-c CHUNK] [-p PAIRS]
                              [-n SEEKS] [-b BONNIE-NG] [-k RAWDIR]
  -d DIR     a directory on a tmpfs (default: a tmpfs mounted for the run)
  -s MIB     file size in MiB (default 512)
  -c CHUNK   chunk size in bytes (default 16384)
  -p PAIRS   pairs of runs (default 7)
  -n SEEKS   seeks per run (default 200000)
  -b PATH    the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR  keep every run's output in RAWDIR
EOF2
	exit 2
}

DIR="" SIZE_MIB=512 CHUNK=16384 PAIRS=7 SEEKS=200000 BNG=./bonnie-ng KEEP=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	bench_opt dscpnbk "$@" || usage
	shift; [ $# -gt 0 ] && shift
done
need_tools jq time
MNT=""
if [ -z "$DIR" ]; then
	[ "$(id -u)" -eq 0 ] || die "not root: give -d DIR on a tmpfs"
	MNT=$(mktemp -d "${TMPDIR:-/tmp}/bench-tl-mnt.XXXXXX") || die "mktemp"
	mount -t tmpfs -o size=$((SIZE_MIB + 64))m tmpfs "$MNT" ||
	    die "mount tmpfs failed"
	DIR=$MNT
fi
bench_setup timeline "$SIZE_MIB" "$CHUNK" "$PAIRS" "$SEEKS"
# Lazily when another process holds it (stress-ng's io stressor, say).
[ -n "$MNT" ] && trap 'umount "$MNT" 2>/dev/null || umount -l "$MNT"; rmdir "$MNT"; bench_cleanup' EXIT

run() {
	bng_run "$1" --cache=keep -p read,seeks -n "$SEEKS" --interval "$2"
}

: >"$RAW/pairs"
i=1
while [ "$i" -le "$PAIRS" ]; do
	if [ $((i % 2)) -eq 1 ]; then
		run "on-$i" 100ms; run "off-$i" 0
	else
		run "off-$i" 0; run "on-$i" 100ms
	fi
	set -- $(bng_get "on-$i" read) $(bng_get "off-$i" read) \
	    $(bng_get "on-$i" seeks) $(bng_get "off-$i" seeks)
	echo "$i $1 $3 $5 $7" >>"$RAW/pairs"
	i=$((i + 1))
done
machine_line
awk '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	n++
	r[n] = $2 / $3; s[n] = $4 / $5
	printf "pair %d: read on/off %.4f (%.0f / %.0f KiB/s), seeks on/off %.4f (%.0f / %.0f /s)\n",
	    $1, r[n], $2, $3, s[n], $4, $5
}
END {
	printf "median: read on/off %.4f, seeks on/off %.4f over %d pairs\n",
	    median(r, n), median(s, n), n
}' "$RAW/pairs"
# Peak memory of a default run at -j 1, and the size of its record.
/usr/bin/time -f "%M" -o "$RAW/rss" "$BNG" -d "$DIR" -s 64m -q \
    --json "$RAW/default.json" >/dev/null 2>&1
echo "peak RSS of a default 64 MiB run: $(cat "$RAW/rss") KiB;" \
    "its record: $(wc -c <"$RAW/default.json") bytes"
