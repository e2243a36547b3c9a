# Summarise bench/peers.sh samples.  Input lines (tab-separated):
#   GROUP PHASE PAIR TOOL RATE CPU
# TOOL is A (bonnie-ng) or B (the peer); RATE and CPU may be NA.
# Output: one row per group and phase with the medians of both tools, the
# bonnie-ng/peer ratio per pair (median, min, max), %CPU medians, the
# coefficient of variation of each tool over the pairs, and the target.
# With -v reverse=1 (pairs ran A B when odd, B A when even) each row is
# followed by the ratio of medians of the runs that went first in their
# pair, and of those that went second.

function median(a, n,    i, j, t, b) {
	if (n == 0) return "NA"
	for (i = 1; i <= n; i++) b[i] = a[i]
	for (i = 2; i <= n; i++) {
		t = b[i]
		for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]
		b[j + 1] = t
	}
	return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
}

# Coefficient of variation in percent (sample standard deviation / mean).
function cv(a, n,    i, m, s) {
	if (n < 2) return "NA"
	m = 0
	for (i = 1; i <= n; i++) m += a[i]
	m /= n
	if (m == 0) return "NA"
	s = 0
	for (i = 1; i <= n; i++) s += (a[i] - m) ^ 2
	return 100 * sqrt(s / (n - 1)) / m
}

function fmt(v, p) {
	if (v == "NA") return "NA"
	return sprintf("%." p "f", v)
}

BEGIN {
	FS = "\t"
	peer["direct"] = "fio direct=1 (end_fsync=1 for writes)"
	peer["cold"] = "fio buffered, invalidate=1, end_fsync=1 for writes"
	peer["bonnie++"] = "bonnie++, both with the cache left alone"
	peer["perchar"] = "bench/perchar-ref (the bare stdio loop)"
}

{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	if (!($1 in gseen)) { gseen[$1] = 1; gorder[++ng] = $1 }
	val[key, $3, $4] = $5
	cpu[key, $3, $4] = $6
	if ($3 > maxpair[key]) maxpair[key] = $3
}

END {
	hdr = sprintf("%-9s %-8s %3s %10s %10s %6s %6s %6s %6s %6s %6s %6s  %s",
	    "group", "phase", "n", "bonnie-ng", "peer", "ratio", "min", "max",
	    "cpuA", "cpuB", "cvA%", "cvB%", "target")
	for (g = 1; g <= ng; g++) {
		grp = gorder[g]
		printf "\n%s: bonnie-ng (A) against %s (B); rates KiB/s, seeks/s\n",
		    grp, peer[grp] != "" ? peer[grp] : "peer"
		print hdr
		for (k = 1; k <= nk; k++) {
			split(order[k], kk, SUBSEP)
			if (kk[1] != grp) continue
			key = order[k]
			na = nb = nr = nca = ncb = 0
			delete A; delete B; delete R; delete CA; delete CB
			for (p = 1; p <= maxpair[key]; p++) {
				a = val[key, p, "A"]; b = val[key, p, "B"]
				if (a != "NA" && a != "") A[++na] = a + 0
				if (b != "NA" && b != "") B[++nb] = b + 0
				if (a != "NA" && a != "" && b != "NA" && b != "" && b + 0 > 0)
					R[++nr] = a / b
				c = cpu[key, p, "A"]; if (c != "NA" && c != "") CA[++nca] = c + 0
				c = cpu[key, p, "B"]; if (c != "NA" && c != "") CB[++ncb] = c + 0
			}
			rmin = rmax = "NA"
			for (i = 1; i <= nr; i++) {
				if (rmin == "NA" || R[i] < rmin) rmin = R[i]
				if (rmax == "NA" || R[i] > rmax) rmax = R[i]
			}
			rmed = median(R, nr)
			cva = cv(A, na); cvb = cv(B, nb)
			t = ""
			if (grp == "direct" || grp == "cold")
				t = rmed == "NA" ? "no data" : (rmed >= 0.97 ? "met (>=0.97)" : "MISSED (<0.97)")
			else if (grp == "perchar")
				t = rmed == "NA" ? "no data" : (rmed >= 0.95 ? "met (>=0.95)" : "MISSED (<0.95)")
			else if (grp == "bonnie++")
				t = (na < 3 || nb < 3) ? "cv: too few figures" : \
				    (cva <= cvb ? "cv met" : "cv MISSED")
			printf "%-9s %-8s %3d %10s %10s %6s %6s %6s %6s %6s %6s %6s  %s\n",
			    grp, kk[2], nr, fmt(median(A, na), 0), fmt(median(B, nb), 0),
			    fmt(rmed, 3), fmt(rmin, 3), fmt(rmax, 3),
			    fmt(median(CA, nca), 1), fmt(median(CB, ncb), 1),
			    fmt(cva, 1), fmt(cvb, 1), t
			if (reverse) {
				# Pairs ran A B when odd, B A when even: compare
				# the tools at the same position in their pair.
				n1 = n2 = m1 = m2 = 0
				delete A1; delete A2; delete B1; delete B2
				for (p = 1; p <= maxpair[key]; p++) {
					a = val[key, p, "A"]; b = val[key, p, "B"]
					if (p % 2) {
						if (a != "NA" && a != "") A1[++n1] = a + 0
						if (b != "NA" && b != "") B2[++m2] = b + 0
					} else {
						if (a != "NA" && a != "") A2[++n2] = a + 0
						if (b != "NA" && b != "") B1[++m1] = b + 0
					}
				}
				f = (n1 && m1 && median(B1, m1) > 0) ? median(A1, n1) / median(B1, m1) : "NA"
				g2 = (n2 && m2 && median(B2, m2) > 0) ? median(A2, n2) / median(B2, m2) : "NA"
				printf "%-9s %-8s     same position, ratio of medians: ran first %s, ran second %s\n",
				    "", "", fmt(f, 3), fmt(g2, 3)
			}
			if (t ~ /MISSED/) missed++
			else if (t ~ /met/) met++
		}
	}
	printf "\ntargets: %d met, %d missed (pairs: %d)\n", met, missed,
	    maxpair[order[1]]
}
