#!/bin/sh
# bench/pool.sh and ratio.awk's per-pair columns, on samples made here:
# two runs of 4 pairs each whose B/A ratios are known (run 1: 0.90, 1.00,
# 1.10, 1.20; run 2: 0.95, 1.05, 1.15, 1.25), pooled as 8 pairs (the runs'
# pair numbers kept apart), their median and quartiles, and a bootstrap
# interval that holds the median and repeats on the same samples.
# run.sh: suites: plain: no build: awk and sh only, the same in every suite
. tests/lib.sh
scratch

# run DIR R1 R2 R3 R4: samples of one run, A 1000 a pair, B = A x R.
run() {
	d=$1; shift
	mkdir -p "$d"
	p=1
	for r in "$@"; do
		printf 'g\tread\t%d\tA\t1000\t10\n' "$p"
		printf 'g\tread\t%d\tB\t%s\t10\n' "$p" "$(awk -v r="$r" 'BEGIN { print 1000 * r }')"
		p=$((p + 1))
	done >"$d/samples"
}
run "$T/r1" 0.90 1.00 1.10 1.20
run "$T/r2" 0.95 1.05 1.15 1.25

# field NAME: the column of that name in the pooled row.
sh bench/pool.sh -b 500 "$T/r1" "$T/r2" >"$T/out" 2>"$T/err"
check "pool.sh exits 0" $?
field() {
	awk -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == "g" { print $c[f] }' "$T/out"
}
[ "$(field n)" = 8 ]
check "the two runs' pairs pooled apart: n 8 (not 4)" $?
[ "$(field ratio)" = 1.075 ]
check "median of the 8 per-pair ratios: 1.075" $?
[ "$(field r25)" = 0.950 ] && [ "$(field r75)" = 1.150 ]
check "quartiles of the per-pair ratios: 0.950, 1.150" $?
lo=$(field lo95) hi=$(field hi95)
awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l <= 1.075 && 1.075 <= h &&
    l >= 0.9 && h <= 1.25 && l < h) }'
check "bootstrap interval around the median, inside the ratios ($lo, $hi)" $?
sh bench/pool.sh -b 500 "$T/r1" "$T/r2" | cmp -s - "$T/out"
check "the same samples give the same interval" $?
sh bench/pool.sh "$T/r1" "$T/none" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]
check "a directory without samples: exit 2, one line" $?
awk -F'\t' -f bench/ratio.awk "$T/r1/samples" | head -1 | grep -q 'r75$'
check "ratio.awk alone: no interval columns" $?
done_testing
