#!/bin/sh
# bench/fio-compare.sh: issue 3's acceptance check.  One bonnie-ng run, then
# fio right after on the same file size and block size, in the default cold
# cache mode and with --direct; each block figure and seeks must land within
# 15% of fio's.  Then --cache=keep on a small file, to show that keep mode
# reports the page cache's much higher read speed.
#
# Exit status: 0 when every comparison is within 15%, 1 otherwise.

usage() {
	cat <<EOF
usage: bench/fio-compare.sh [-d DIR] [-s MIB] [-c CHUNK] [-S SEEKERS]
                            [-n SEEKS] [-K MIB] [-b BONNIE-NG] [-k RAWDIR]
  -d DIR      directory on the file system under test (default /var/tmp)
  -s MIB      file size in MiB (default 1024)
  -c CHUNK    block size in bytes (default 16384)
  -S SEEKERS  bonnie-ng seekers = fio jobs (default 3)
  -n SEEKS    seeks, given to bonnie-ng as -n (default 16000)
  -K MIB      file size for the --cache=keep run (default 256)
  -b PATH     the bonnie-ng binary (default ./bonnie-ng)
  -k RAWDIR   keep every tool's raw output in RAWDIR
EOF
	exit 2
}

DIR=/var/tmp SIZE_MIB=1024 CHUNK=16384 SEEKERS=3 SEEKS=16000 KEEP_MIB=256
BNG=./bonnie-ng KEEP=""
here=$(dirname "$0")
. "$here/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-K) KEEP_MIB=${2-} ;;
	*) bench_opt dscSnbk "$@" || usage ;;
	esac
	shift; [ $# -gt 0 ] && shift
done
bench_setup fio "$SIZE_MIB" "$CHUNK" "$SEEKERS" "$SEEKS" "$KEEP_MIB"
need_tools fio jq
FIO_FILE=$DIR/bench-fio.$$.dat
bench_clean "$FIO_FILE"

bng_probe
fails=0

# row MODE PHASE "BNG_RATE CPU" "FIO_RATE CPU": print one comparison.
row() {
	set -- "$1" "$2" $3 $4
	awk -v m="$1" -v p="$2" -v a="$3" -v b="$5" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) {
			printf "%-7s %-6s %12s %12s %7s  %s\n", m, p, a, b, "NA", "no figure"
			exit 1
		}
		r = a / b
		ok = (r >= 0.85 && r <= 1.15)
		printf "%-7s %-6s %12.0f %12.0f %7.3f  %s\n", m, p, a, b, r,
		    ok ? "within 15%" : "OUTSIDE 15%"
		exit !ok
	}' || fails=$((fails + 1))
}

echo "bench/fio-compare.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(machine_line)"
echo "work: dir $DIR, file ${SIZE_MIB} MiB, chunk $CHUNK, $SEEKERS seekers/jobs," \
    "$SEEKS seeks (fio: $(fio_ios_per_job) ops per job); load $(load_line)"
echo "rates in KiB/s, seeks in seeks/s; ratio = bonnie-ng / fio"
printf '%-7s %-6s %12s %12s %7s  %s\n' mode phase bonnie-ng fio ratio verdict

for mode in cold direct; do
	opt=""
	[ $mode = direct ] && opt=--direct
	bng_run "bng-$mode" $opt -p write,read,seeks -S "$SEEKERS" -n "$SEEKS"
	w=$(fio_write $mode "fio-$mode-write")
	r=$(fio_read $mode "fio-$mode-read")
	s=$(fio_seeks $mode "fio-$mode-seeks")
	rm -f "$FIO_FILE"
	row $mode write "$(bng_get "bng-$mode" write)" "$w"
	row $mode read "$(bng_get "bng-$mode" read)" "$r"
	row $mode seeks "$(bng_get "bng-$mode" seeks)" "$s"
done

# keep: a file far smaller than RAM, cache left alone; its read should be
# the page cache's speed, far above the cold read of the same file.
big=$SIZE_MIB
SIZE_MIB=$KEEP_MIB
bng_run bng-keep --cache=keep -p write,read
bng_run bng-keep-cold -p write,read
set -- $(bng_get bng-keep read) $(bng_get bng-keep-cold read)
echo
awk -v a="$1" -v b="$3" -v m="$KEEP_MIB" 'BEGIN {
	if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) {
		print "--cache=keep: no figure"; exit
	}
	printf "--cache=keep, %d MiB file: block read %.0f KiB/s;" \
	    " the same file cold: %.0f KiB/s\n", m, a, b
	printf "keep / cold = %.1f (%s)\n", a / b,
	    (a / b > 1.5) ? "keep mode shows the cache" : "NO clear cache effect"
}'
SIZE_MIB=$big

echo
if [ $fails -eq 0 ]; then
	echo "all six comparisons within 15%"
else
	echo "$fails of six comparisons outside 15% (or without a figure)"
fi
exit $((fails > 0))
