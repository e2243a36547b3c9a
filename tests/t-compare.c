/*
 * The statistics and verdicts of "compare" on constructed cases, the
 * Mann-Whitney test on samples whose p-values are known, and the bonnie++
 * CSV writer (checked with bon_csv2txt and bon_csv2html when installed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "error.h"
#include "options.h"
#include "settings.h"
#include "compare-out.h"
#include "commands.h"
#include "record.h"
#include "report.h"
#include "resultset.h"
#include "rs-read.h"
#include "stats.h"
#include "tap.h"

static void
test_mann_whitney(void)
{
	double	x[40], y[40], u, p;
	int	i;
	static const double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	static const double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	static const double t1[] = { 1, 2, 2, 3 }, t2[] = { 2, 3, 4, 5 };
	static const double c5[] = { 10, 20, 30, 40, 50 },
	    c6[] = { 15, 25, 35, 45, 55, 65 };

	p = cmp_mann_whitney(a5, 5, b5, 5, &u);
	is_near(p, 2.0 / 252, 1e-12, "MW: separated 5 v 5, p = 2/252");
	is_near(u, 0, 0, "MW: U = 0");
	p = cmp_mann_whitney(b5, 5, a5, 5, &u);
	is_near(p, 2.0 / 252, 1e-12, "MW: symmetric");
	is_near(u, 25, 0, "MW: U = 25 the other way");
	p = cmp_mann_whitney(a5, 3, b5, 3, &u);
	is_near(p, 0.1, 1e-12, "MW: separated 3 v 3, p = 0.1");
	p = cmp_mann_whitney(a5, 4, b5, 4, &u);
	is_near(p, 2.0 / 70, 1e-12, "MW: separated 4 v 4, p = 2/70");
	p = cmp_mann_whitney(odd, 5, even, 5, &u);
	is_near(p, 0.6904761904761905, 1e-12, "MW: interleaved, p = 0.690");
	is_near(u, 10, 0, "MW: interleaved, U = 10");
	p = cmp_mann_whitney(t1, 4, t2, 4, &u);
	is_near(p, 0.2, 1e-12, "MW: ties get mid-ranks, exact p = 0.2");
	is_near(u, 2.5, 0, "MW: ties count half in U");
	p = cmp_mann_whitney(c5, 5, c6, 6, &u);
	is_near(p, 0.42857142857142855, 1e-12, "MW: 5 v 6, p = 0.429");
	p = cmp_mann_whitney(a5, 5, a5, 5, &u);
	is_near(p, 1, 1e-12, "MW: identical samples, p = 1");

	for (i = 0; i < 40; i++) {
		x[i] = i;
		y[i] = i + 5.5;
	}
	p = cmp_mann_whitney(x, 40, y, 40, &u);
	is_near(u, 595, 0, "MW normal: U");
	is_near(p, 0.049090804709638, 1e-9, "MW normal approximation");
	for (i = 0; i < 40; i++) {
		x[i] = i / 2;
		y[i] = i / 2 + 3;
	}
	p = cmp_mann_whitney(x, 40, y, 40, &u);
	is_near(p, 0.032876645288427264, 1e-9,
	    "MW normal approximation with tie correction");

	is_near(cmp_mann_whitney_min_p(3, 3), 0.1, 1e-12, "min p 3 v 3");
	is_near(cmp_mann_whitney_min_p(3, 5), 2.0 / 56, 1e-12, "min p 3 v 5");
	is_near(stats_median(odd, 5), 5, 0, "median, odd count");
	is_near(stats_median(t2, 4), 3.5, 0, "median, even count");
	ok(isnan(stats_median(t2, 0)), "median of nothing is NaN");
	is_near(stats_median(t2, 1), t2[0], 0, "median of one value");
	{
		double	v[] = { 5, 1, 2, 4, 3 };

		stats_sort(v, 5);
		ok(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 4 &&
		    v[4] == 5, "stats_sort sorts ascending");
		is_near(stats_median_sorted(v, 4), 2.5, 0,
		    "median of sorted values, even count");
		is_near(stats_median_sorted(v, 5), 3, 0,
		    "median of sorted values, odd count");
	}
}

static void
test_bootstrap(void)
{
	static const double	 x[] = { 100, 102, 98 }, y[] = { 120, 121, 119 },
				 z[] = { 101, 97, 103 };
	double			 lo, hi, lo2, hi2;

	cmp_bootstrap(x, 3, y, 3, 2000, 42, &lo, &hi);
	ok(lo > 0, "bootstrap: separated samples, interval above 0");
	cmp_bootstrap(x, 3, y, 3, 2000, 42, &lo2, &hi2);
	ok(lo == lo2 && hi == hi2, "bootstrap: fixed seed, same interval");
	cmp_bootstrap(x, 3, z, 3, 2000, 42, &lo, &hi);
	ok(lo <= 0 && hi >= 0, "bootstrap: overlapping samples span 0");
}

/* A log-normal sample: exp(N(log m, sd)), from a seeded generator. */
static void
lognormal(uint64_t *s, double m, double sd, double *v, int n)
{
	double	u1, u2;
	int	i;

	for (i = 0; i < n; i++) {
		*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
		u1 = ((*s >> 11) + 0.5) / 9007199254740992.0;
		*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
		u2 = ((*s >> 11) + 0.5) / 9007199254740992.0;
		v[i] = m * exp(sd * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
	}
}

/*
 * The change's interval: Lehmann's k from the exact distribution, the
 * level it reaches, the sizes that cannot reach 95%, and its coverage of
 * a known change, exact and approximate, over seeded samples.
 */
static void
test_interval(void)
{
	static const double	x[] = { 100, 101, 102, 103, 104 },
				y[] = { 120, 121.2, 122.4, 123.6, 124.8 };
	static const int	sizes[][2] = { { 5, 5 }, { 4, 6 }, { 12, 12 },
				    { 40, 40 } };
	double			 lo, hi, level, a[40], b[40];
	enum cmp_interval	 how;
	uint64_t		 s = 42;
	char			 desc[160];
	size_t			 k;
	int			 t, in, tried;

	ok(cmp_shift_interval(x, 5, y, 5, &lo, &hi, &level, &how) == 0 &&
	    how == CMP_I_EXACT && lo < 20 + 1e-9 && hi > 20 - 1e-9 && lo > 15 &&
	    hi < 25, "5 v 5, +20%: an exact interval around +20%");
	is_near(level, 1 - 2 * 4 / 252.0, 1e-12, "5 v 5: its level is 96.8% "
	    "(P(U <= 2) = 4/252 a tail)");
	ok(cmp_shift_interval(x, 4, y, 4, &lo, &hi, &level, &how) == 0 &&
	    fabs(level - (1 - 2 / 70.0)) < 1e-12 &&
	    fabs(lo - (120 / 103.0 - 1) * 100) < 1e-9 &&
	    fabs(hi - (123.6 / 100 - 1) * 100) < 1e-9,
	    "4 v 4: the extreme ratios, at 97.1%");
	ok(cmp_shift_interval(x, 3, y, 3, &lo, &hi, &level, &how) == -1 &&
	    how == CMP_I_NONE && isnan(lo), "3 v 3 cannot reach 95%: none");
	ok(cmp_shift_interval(x, 3, y, 4, &lo, &hi, &level, &how) == -1,
	    "3 v 4 cannot either (2/35 > 5%)");
	ok(cmp_shift_interval(y, 5, x, 5, &lo, &hi, &level, &how) == 0 &&
	    lo < (1 / 1.2 - 1) * 100 && hi > (1 / 1.2 - 1) * 100 && hi < 0,
	    "the other way round: around -16.7%");
	/*
	 * The ends against every ratio made and sorted, ties included: the
	 * k-th smallest and the k-th largest for one k.
	 */
	for (t = 0, in = 0, tried = 0; t < 200; t++) {
		int	nx = 3 + t % 17, ny = 4 + t % 23, i, j, n = 0, kk;
		double	d[40 * 40], lv;

		lognormal(&s, 100, 0.2, a, nx);
		lognormal(&s, 100, 0.2, b, ny);
		for (i = 0; i < nx; i++)
			a[i] = floor(a[i] / 4) * 4 + 4;	/* Ties. */
		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				d[n++] = log(b[j]) - log(a[i]);
		stats_sort(d, n);
		if (cmp_shift_interval(a, nx, b, ny, &lo, &hi, &lv, &how) != 0)
			continue;
		tried++;
		for (kk = 1; kk <= (n + 1) / 2; kk++)
			if (fabs(expm1(d[kk - 1]) * 100 - lo) < 1e-9 &&
			    fabs(expm1(d[n - kk]) * 100 - hi) < 1e-9)
				break;
		in += kk <= (n + 1) / 2;
	}
	snprintf(desc, sizeof(desc), "each interval's ends are the k-th "
	    "smallest and largest of the ratios made one by one (%d of %d)",
	    in, tried);
	ok(tried > 150 && in == tried, desc);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		in = 0;
		for (t = 0; t < 1000; t++) {
			lognormal(&s, 100, 0.1, a, sizes[k][0]);
			lognormal(&s, 110, 0.1, b, sizes[k][1]);
			if (cmp_shift_interval(a, sizes[k][0], b, sizes[k][1],
			    &lo, &hi, &level, &how) == 0 && lo <= 10 && hi >= 10)
				in++;
		}
		snprintf(desc, sizeof(desc), "%d v %d, +10%% in 10%% noise: "
		    "covered %d times in 1000 (%s, 95%%)", sizes[k][0],
		    sizes[k][1], in, cmp_interval_name(how));
		ok(in >= 935, desc);
	}
}

/* A result set with n runs; values[i] for column col, others 1000. */
static void
make_set(struct result_set *rs, int col, const double *values, int n)
{
	struct rs_run	*r;
	int		 i, c;

	memset(rs, 0, sizeof(*rs));
	rs->file = xstrdup("constructed");
	for (i = 0; i < n; i++) {
		r = rs_add_run(rs, "box", i + 1);
		for (c = 0; c < RS_NCOLS; c++) {
			r->col[c].state = RS_VALUE;
			r->col[c].v = 1000;
		}
		r->col[col].v = values[i];
	}
}

static enum cmp_verdict
verdict(int col, const double *b, int nb, const double *n, int nn,
    enum cmp_method *m, double *change)
{
	struct result_set	base, new;
	struct cmp_cell		c;

	make_set(&base, col, b, nb);
	make_set(&new, col, n, nn);
	cmp_column(&base, &new, col, 5, &c);
	*m = c.method;
	*change = c.change_pct;
	rs_free(&base);
	rs_free(&new);
	return c.verdict;
}

static void
test_verdicts(void)
{
	static const double	base[] = { 100, 103, 98, 101, 99 },
				slow[] = { 80, 82, 79, 81, 78 },
				noise[] = { 101, 99, 102, 98, 100 },
				fast[] = { 130, 128, 131, 127, 129 },
				one[] = { 100 }, three[] = { 103 },
				ten_down[] = { 90 }, ten_up[] = { 110 },
				wide[] = { 100, 80, 120, 90, 110 },
				wide_down[] = { 95, 76, 114, 85, 104 },
				tight[] = { 100, 100.5, 101, 99.5, 99 },
				tight_up[] = { 101, 101.5, 102, 100.5, 100 };
	struct result_set	 b, n;
	struct cmp_cell		 c;
	enum cmp_method		 m;
	double			 ch;

	is_int(verdict(RS_RATE(PH_WRITE), base, 5, slow, 5, &m, &ch), CMP_WORSE,
	    "clear regression in write is worse");
	is_int(m, CMP_M_MANN_WHITNEY, "5 v 5 runs: decided by Mann-Whitney");
	is_near(ch, -20, 1e-9, "change of the medians, -20%");
	is_int(verdict(RS_RATE(PH_WRITE), base, 5, noise, 5, &m, &ch), CMP_SAME,
	    "change within noise is same");
	is_int(verdict(RS_RATE(PH_WRITE), base, 5, fast, 5, &m, &ch), CMP_BETTER,
	    "improvement in write is better");
	is_int(verdict(RS_LAT(PH_WRITE), base, 5, fast, 5, &m, &ch), CMP_WORSE,
	    "higher latency is worse");
	is_int(verdict(RS_CPU(PH_READ), base, 5, slow, 5, &m, &ch), CMP_BETTER,
	    "lower %CPU is better");
	is_int(verdict(RS_RATE(PH_SEEKS), base, 3, slow, 3, &m, &ch), CMP_WORSE,
	    "3 v 3 runs: fewer seeks is worse");
	is_int(m, CMP_M_BOOTSTRAP, "3 v 3 runs: decided by the bootstrap");
	is_int(verdict(RS_RATE(PH_SEEKS), base, 3, noise, 3, &m, &ch), CMP_SAME,
	    "3 v 3 runs, noise: same");
	is_int(verdict(RS_RATE(PH_PUTC), one, 1, three, 1, &m, &ch),
	    CMP_INCONCLUSIVE, "single runs: +3% within the 5% threshold is "
	    "inconclusive, never same");
	is_int(m, CMP_M_THRESHOLD, "single runs: decided by the threshold");
	is_int(verdict(RS_RATE(PH_WRITE), wide, 5, wide_down, 5, &m, &ch),
	    CMP_INCONCLUSIVE, "5 v 5 runs spread by 15%, -5%: inconclusive");
	is_int(verdict(RS_RATE(PH_WRITE), tight, 5, tight_up, 5, &m, &ch),
	    CMP_SAME, "5 v 5 runs, +1% and the interval within 5%: same");
	is_int(verdict(RS_RATE(PH_PUTC), one, 1, ten_down, 1, &m, &ch), CMP_WORSE,
	    "single runs: -10% is worse");
	is_int(verdict(RS_RATE(PH_PUTC), one, 1, ten_up, 1, &m, &ch), CMP_BETTER,
	    "single runs: +10% is better");
	is_int(verdict(RS_CPU(PH_PUTC), one, 1, ten_up, 1, &m, &ch), CMP_WORSE,
	    "single runs: +10% CPU is worse");
	is_int(verdict(RS_RATE(PH_PUTC), base, 5, ten_down, 1, &m, &ch), CMP_WORSE,
	    "5 v 1 runs: threshold on the medians");
	is_int(m, CMP_M_THRESHOLD, "5 v 1 runs: decided by the threshold");

	/* Unmeasurable ("+++++") on either side gets no verdict: n/a. */
	make_set(&b, RS_RATE(PH_PUTC), one, 1);
	make_set(&n, RS_RATE(PH_PUTC), ten_down, 1);
	n.runs[0].col[RS_RATE(PH_PUTC)].state = RS_UNMEASURABLE;
	cmp_column(&b, &n, RS_RATE(PH_PUTC), 5, &c);
	is_int(c.verdict, CMP_NA, "new unmeasurable: n/a, not same or worse");
	is_int(c.method, CMP_M_UNMEASURABLE, "new unmeasurable: said so");
	b.runs[0].col[RS_RATE(PH_PUTC)].state = RS_UNMEASURABLE;
	n.runs[0].col[RS_RATE(PH_PUTC)].state = RS_VALUE;
	cmp_column(&b, &n, RS_RATE(PH_PUTC), 5, &c);
	is_int(c.verdict, CMP_NA, "base unmeasurable: n/a, not same or worse");
	n.runs[0].col[RS_RATE(PH_PUTC)].state = RS_NONE;
	b.runs[0].col[RS_RATE(PH_PUTC)].state = RS_VALUE;
	cmp_column(&b, &n, RS_RATE(PH_PUTC), 5, &c);
	is_int(c.verdict, CMP_NA, "not run on a side: no verdict");
	rs_free(&b);
	rs_free(&n);
}

/* Run a shell command; 0 when it exits 0. */
static int
sh(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*buf;
	size_t	 n;

	if (f == NULL)
		return xstrdup("");
	buf = xcalloc(1, 65536);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
test_csv_writer(void)
{
	struct options		 opt;
	struct run_result	 runs[2];
	struct record		 rec;
	struct result_set	 rs;
	char			 path[256], cmd[1200], *line, *out, *err, *cause = NULL;
	FILE			*f;
	int			 fd, i, k, commas;

	settings_defaults(&opt);
	opt.label = "box,1";
	opt.size = 64ull << 20;
	opt.chunk = 16384;
	opt.seeks = 4000;
	opt.seekers = 3;
	memset(runs, 0, sizeof(runs));
	for (i = 0; i < PH_COUNT; i++)
		runs[0].ph[i].ran = 1;
	/*
	 * The classic columns' figures by their place in the CSV line, not
	 * by their phases' ids: a phase added anywhere moves no figure.
	 */
	for (k = 0; k < CLASSIC_NCOLS; k++) {
		i = classic_columns[k];
		runs[0].ph[i].rate = 1000.9 * (k + 1);
		runs[0].ph[i].cpu_pct = 10.5 + k;
		runs[0].ph[i].lat.count = 10;
		runs[0].ph[i].lat.max = 0.0123456 * (k + 1) * (k + 1) * (k + 1);
	}
	runs[0].ph[PH_SEEKS].rate = 1014.14;
	runs[0].ph[PH_WRITE].rate = 1195170.7;
	runs[0].seed = 77;
	runs[1] = runs[0];
	runs[1].seed = 78;
	runs[1].ph[PH_GETC].ran = 0;
	memset(&rec, 0, sizeof(rec));
	rec.opt = &opt;
	rec.nruns = 2;
	rec.runs = runs;

	snprintf(path, sizeof(path), "%s/bonnie-ng-t-compare.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w+")) == NULL) {
		ok(0, "temporary file");
		return;
	}
	ok(record_write_csv(f, &rec) == 0, "CSV written");
	fclose(f);
	line = slurp(path);
	is_str(line,
	    "1.98,bonnie-ng-" BONNIE_NG_VERSION ",box_1,1,77,64M,16384,4000,3,"
	    "1000,11,1195170,12,3002,13,4003,14,5004,15,1014.1,16,"
	    ",,,,,,,,,,,,,,,,,"
	    "12345us,98764us,333ms,790ms,1543ms,2666ms,,,,,,\n"
	    "1.98,bonnie-ng-" BONNIE_NG_VERSION ",box_1,1,78,64M,16384,4000,3,"
	    "1000,11,1195170,12,3002,13,,,5004,15,1014.1,16,"
	    ",,,,,,,,,,,,,,,,,"
	    "12345us,98764us,333ms,,1543ms,2666ms,,,,,,\n",
	    "CSV lines in the bonnie++ 1.98 layout");
	for (commas = 0, i = 0; line[i] != '\n'; i++)
		commas += line[i] == ',';
	is_int(commas + 1, 50, "CSV: 50 fields");
	free(line);

	/* Our own reader takes it back. */
	if (ok(rs_read_file(path, &rs, &cause) == 0, "CSV reads back")) {
		is_int(rs.nruns, 2, "read back: two runs");
		is_near(rs.runs[0].col[RS_RATE(PH_WRITE)].v, 1195170, 0,
		    "read back: write");
		is_near(rs.runs[0].col[RS_RATE(PH_SEEKS)].v, 1014.1, 1e-9,
		    "read back: seeks");
		is_int(rs.set.chunk, 16384, "read back: chunk");
		is_int(rs.runs[1].col[RS_RATE(PH_GETC)].state, RS_NONE,
		    "read back: phase not run");
		rs_free(&rs);
	}
	free(cause);

	if (sh("command -v bon_csv2txt >/dev/null 2>&1") != 0) {
		tap_skip("bon_csv2txt not installed (package bonnie++)");
		tap_skip("bon_csv2txt not installed (package bonnie++)");
	} else {
		snprintf(cmd, sizeof(cmd), "bon_csv2txt <%s >%s.txt 2>%s.err",
		    path, path, path);
		ok(sh(cmd) == 0, "bon_csv2txt runs");
		snprintf(cmd, sizeof(cmd), "%s.err", path);
		err = slurp(cmd);
		is_str(err, "", "bon_csv2txt: nothing on stderr");
		free(err);
		snprintf(cmd, sizeof(cmd), "%s.txt", path);
		out = slurp(cmd);
		/* bon_csv2txt shows K/sec under 10000 as "1000k", more in m. */
		ok(strstr(out, "1000k  11") != NULL &&
		    strstr(out, "1.1g  12") != NULL &&
		    strstr(out, "3002k  13") != NULL &&
		    strstr(out, "1014.1  16") != NULL &&
		    strstr(out, "12345us   98764us     333ms") != NULL,
		    "bon_csv2txt shows the same numbers");
		free(out);
	}
	if (sh("command -v bon_csv2html >/dev/null 2>&1") != 0) {
		tap_skip("bon_csv2html not installed (package bonnie++)");
		tap_skip("bon_csv2html not installed (package bonnie++)");
	} else {
		snprintf(cmd, sizeof(cmd), "bon_csv2html <%s >%s.html "
		    "2>%s.err", path, path, path);
		ok(sh(cmd) == 0, "bon_csv2html runs");
		snprintf(cmd, sizeof(cmd), "%s.err", path);
		err = slurp(cmd);
		is_str(err, "", "bon_csv2html: nothing on stderr");
		free(err);
		snprintf(cmd, sizeof(cmd), "%s.html", path);
		out = slurp(cmd);
		ok(strstr(out, "<td>1000</td>") != NULL &&
		    strstr(out, "<td>1014.1</td>") != NULL &&
		    strstr(out, ">16384<") != NULL &&
		    strstr(out, ">2666ms<") != NULL,
		    "bon_csv2html shows the same numbers");
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "rm -f %s %s.txt %s.html %s.err", path,
	    path, path, path);
	sh(cmd);
}

/*
 * -o's row spells the printers' names, in the table's order, for the
 * usage, the man page (t-args.sh) and the completion: the two agree.
 */
static void
test_printer_names(void)
{
	const struct cmp_printer *const *p;
	const struct args_option	*r;
	char				 names[128];
	size_t				 n = 0;

	names[0] = '\0';
	for (p = cmp_printers; *p != NULL; p++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
		    p == cmp_printers ? "" : "|", (*p)->name);
	for (r = cmd_compare_entry.rows[0].rows; r->name != NULL &&
	    strcmp(r->name, "output") != 0; r++)
		;
	ok(r->name != NULL && r->value != NULL, "compare has -o");
	is_str(r->value != NULL ? r->value : "", names,
	    "-o's words are the printers' names");
}

int
main(void)
{
	test_printer_names();
	test_mann_whitney();
	test_bootstrap();
	test_interval();
	test_verdicts();
	test_csv_writer();
	return done_testing();
}
