# Summarise bench/verify-cost.sh samples.  Input lines (tab-separated):
#   GROUP PHASE PAIR SIDE RATE CPU
# SIDE is A (the base) or B (the change); RATE and CPU may be NA.
# Output: one row per group and phase with the medians of both sides, the
# B/A ratio per pair (median, min, max), %CPU medians, the coefficient
# of variation of each side over the pairs, and the ratio of the sides'
# best runs (best) and of their 75th percentiles (q75): where the
# machine's noise only ever slows a run (a host's faults, another guest),
# each side's faster runs are its less disturbed ones; the best run alone
# is one sample, so q75 wants 20 pairs or more.  r25 and r75: the
# quartiles of the per-pair ratio.  With -v boot=N (bench/pool.sh), lo95
# and hi95: a bootstrap interval of the median ratio, N resamples of the
# pairs (seeded: the same samples give the same interval).

# b[1..n]: a[1..n] in ascending order.
function sorted(a, n, b,    i, j, t) {
	for (i = 1; i <= n; i++) b[i] = a[i]
	for (i = 2; i <= n; i++) {
		t = b[i]
		for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]
		b[j + 1] = t
	}
}

function median(a, n,    b) {
	if (n == 0) return "NA"
	sorted(a, n, b)
	return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
}

# The q-quantile (0 to 1) of a[1..n], the nearest rank below.
function quantile(a, n, q,    b) {
	if (n == 0) return "NA"
	sorted(a, n, b)
	return b[1 + int(q * (n - 1))]
}

# x / y, or NA.
function ratio(x, y) { return (num(x) && num(y) && y > 0) ? sprintf("%.3f", x / y) : "NA" }

function cv(a, n,    i, m, s) {
	if (n < 2) return "NA"
	m = 0
	for (i = 1; i <= n; i++) m += a[i]
	m /= n
	if (m == 0) return "NA"
	s = 0
	for (i = 1; i <= n; i++) s += (a[i] - m) ^ 2
	return sprintf("%.1f", 100 * sqrt(s / (n - 1)) / m)
}

function num(x) { return x ~ /^[0-9.e+-]+$/ }

# The 2.5% and 97.5% points of the median of n ratios drawn from r[1..n]
# with replacement, over boot draws: "lo hi".
function interval(r, n,    i, j, d, m, meds) {
	if (n < 2) return "NA NA"
	srand(1)
	for (i = 1; i <= boot; i++) {
		for (j = 1; j <= n; j++) d[j] = r[1 + int(rand() * n)]
		meds[i] = median(d, n)
	}
	return sprintf("%.3f %.3f", quantile(meds, boot, 0.025),
	    quantile(meds, boot, 0.975))
}

{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key }
	rate[key, $3, $4] = $5
	cpu[key, $3, $4] = $6
	if ($3 > maxpair) maxpair = $3
}

END {
	printf "%-14s %-8s %2s %10s %10s %7s %7s %7s %6s %6s %6s %6s %6s %6s %6s %6s",
	    "group", "phase", "n", "A", "B", "ratio", "min", "max", "cpuA",
	    "cpuB", "cvA%", "cvB%", "best", "q75", "r25", "r75"
	printf "%s\n", (boot > 0 ? sprintf(" %6s %6s", "lo95", "hi95") : "")
	for (k = 1; k <= nkeys; k++) {
		key = order[k]
		split(key, gp, SUBSEP)
		na = nb = nr = nca = ncb = 0
		delete ra; delete rb; delete rr; delete ca; delete cb
		mn = ""; mx = ""
		for (p = 1; p <= maxpair; p++) {
			a = rate[key, p, "A"]; b = rate[key, p, "B"]
			if (num(a)) ra[++na] = a
			if (num(b)) rb[++nb] = b
			if (num(cpu[key, p, "A"])) ca[++nca] = cpu[key, p, "A"]
			if (num(cpu[key, p, "B"])) cb[++ncb] = cpu[key, p, "B"]
			if (num(a) && num(b) && a > 0) {
				r = b / a
				rr[++nr] = r
				if (mn == "" || r < mn) mn = r
				if (mx == "" || r > mx) mx = r
			}
		}
		printf "%-14s %-8s %2d %10.0f %10.0f %7.3f %7.3f %7.3f %6.1f %6.1f %6s %6s %6s %6s %6.3f %6.3f",
		    gp[1], gp[2], nr, median(ra, na), median(rb, nb),
		    median(rr, nr), mn, mx, median(ca, nca), median(cb, ncb),
		    cv(ra, na), cv(rb, nb),
		    ratio(quantile(rb, nb, 1), quantile(ra, na, 1)),
		    ratio(quantile(rb, nb, 0.75), quantile(ra, na, 0.75)),
		    quantile(rr, nr, 0.25), quantile(rr, nr, 0.75)
		if (boot > 0) {
			split(interval(rr, nr), iv, " ")
			printf " %6s %6s", iv[1], iv[2]
		}
		printf "\n"
	}
}
