/*
 * The SVG plot: one polyline per series, the scale named, text escaped,
 * RAM and knees marked, and well-formed XML when xmllint is at hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knee.h"
#include "svg-plot.h"
#include "tap.h"

static char *
plot(const struct svg_plot *p, const char *path)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "w+")) == NULL)
		return NULL;
	if (svg_plot_write(f, p) == -1) {
		fclose(f);
		return NULL;
	}
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int
count(const char *s, const char *what)
{
	int	n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * The y tick labels of the plot's first panel, in order, as bytes per
 * second: each must be "N UNIT/s" with a binary unit; the first label
 * without "/s" starts the next panel.  Their y positions go to ys.
 * Returns how many, or -1 when one is not of that form.
 */
static int
byte_ticks(const char *s, double *v, double *ys, int max)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	const char	*tag = "<text class=\"ytick\" x=\"";
	char		 u[16];
	double		 x, y, n;
	int		 k = 0, i, got;

	while ((s = strstr(s, tag)) != NULL && k < max) {
		s += strlen(tag);
		if (strchr(s, '<') == NULL || strchr(s, '/') > strchr(s, '<'))
			break;
		got = 0;
		if (sscanf(s, "%lf\" y=\"%lf\" text-anchor=\"end\">%lf "
		    "%15[^/<]/s</text>%n", &x, &y, &n, u, &got) != 4 ||
		    got == 0)
			return -1;
		for (i = 0; i < 5 && strcmp(u, unit[i]) != 0; i++)
			;
		if (i == 5)
			return -1;
		v[k] = n * pow(1024, i);
		ys[k++] = y;
	}
	return k;
}

static void
xmllint(const char *path, const char *desc)
{
	char	cmd[512];

	if (system("xmllint --version >/dev/null 2>&1") != 0) {
		tap_skip("xmllint is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
	ok(system(cmd) == 0, desc);
}

/* The plot the tests draw, its series and their rates, and its file. */
static double		 wr4[6] = { 9e5, 9.2e5, 8.8e5, 9.1e5, 1.2e5, 1.1e5 };
static double		 wr16[6] = { 1.5e6, 1.4e6, 1.6e6, 1.5e6, 1.3e5, NAN };
static double		 flat[6] = { 100, 110, 120, 105, 100, 98 };
static struct svg_series s[3];
static struct svg_plot	 p;
static char		 path[64];

/* A narrow range is linear; RAM beyond the sizes is a note. */
static void
test_linear(void)
{
	char	*out;

	s[0].rate = flat;
	s[0].nknees = 0;
	p.nseries = 1;
	p.ram = (uint64_t)64 << 30;
	out = plot(&p, path);
	ok(out != NULL && strstr(out, "bytes/s (linear scale)") != NULL,
	    "narrow range: linear");
	{
		/* 98 to 120 KiB/s: steps of 32 KiB/s from 0 to 160. */
		double	tv[32], ty[32];
		int	nt = out != NULL ? byte_ticks(out, tv, ty, 32) : -1, t;
		int	good = nt == 6;

		for (t = 0; good && t < nt; t++)
			good = tv[t] == t * 32768.0;
		printf("# %d linear ticks\n", nt);
		ok(good, "linear ticks: 0 B/s, 32 KiB/s ... 160 KiB/s");
		ok(out != NULL && strstr(out, ">0 B/s<") != NULL &&
		    strstr(out, ">160 KiB/s<") != NULL, "the ticks in words");
		ok(out != NULL && count(out, "class=\"legend-mark\"") == 0,
		    "no knee drawn, RAM not drawn: neither in the legend");
	}
	ok(out != NULL && strstr(out, "RAM 64.0 GiB, beyond the sizes") !=
	    NULL, "RAM beyond the sizes: a note");
	p.ram = (uint64_t)3 << 20;
	free(out);
	out = plot(&p, path);
	ok(out != NULL && strstr(out, "RAM 3 MiB, below the sizes") != NULL,
	    "RAM below the sizes, in MiB");
	ok(out != NULL && count(out, "<polyline") == 1, "one series");
	xmllint(path, "linear plot is well-formed XML");
	free(out);
}

/* A line with no point is neither drawn nor in the legend. */
static void
test_empty_line(void)
{
	char	*out;

	{
		double	none[6] = { NAN, NAN, NAN, NAN, NAN, NAN };
		struct svg_series s4[4];

		s4[0] = s[0];
		s4[1] = (struct svg_series){ .phase = PH_READ, .chunk = 4096,
		    .rate = none };
		s4[2] = (struct svg_series){ .phase = PH_SEEKS, .chunk = 4096,
		    .rate = none };
		s4[3] = s[1];
		p.series = s4;
		p.nseries = 4;
		out = plot(&p, path);
		ok(out != NULL && count(out, "<polyline") == 2 &&
		    count(out, "class=\"legend\"") == 2,
		    "two lines with points: two polylines, two legend entries");
		ok(out != NULL && strstr(out, "block read") == NULL,
		    "the line with no point is not in the legend");
		ok(out != NULL && strstr(out, "seeks/s") == NULL,
		    "a unit with no line drawn has no panel");
		p.series = s;
		free(out);
	}
}

/* Sweeps overlaid: a panel per phase, and the key under the title. */
static void
test_overlay(void)
{
	char	*out;

	/*
	 * Sweeps overlaid: a panel per phase (write and read share a unit,
	 * yet each has its own, named by it), and the key under the title.
	 */
	{
		const struct svg_key	keys[2] = { { "#1f77b4", "sweep 1: a" },
			{ "#d62728", "sweep 2: <b>" } };
		struct svg_series	s2[2];
		char			*first;

		s2[0] = (struct svg_series){ .phase = PH_WRITE, .chunk = 4096,
		    .rate = wr4, .colour = "#1f77b4", .label = "sweep 1" };
		s2[1] = (struct svg_series){ .phase = PH_READ, .chunk = 4096,
		    .rate = wr16, .colour = "#d62728", .label = "sweep 2" };
		p.series = s2;
		p.nseries = 2;
		p.ram = 0;
		out = plot(&p, path);
		ok(out != NULL && count(out, "<g>") == 1,
		    "write and read by unit: one panel");
		free(out);
		p.by_phase = 1;
		p.nkeys = 2;
		p.keys = keys;
		out = plot(&p, path);
		ok(out != NULL && count(out, "<g>") == 2 &&
		    strstr(out, ">block write, bytes/s (") != NULL &&
		    strstr(out, ">block read, bytes/s (") != NULL,
		    "by phase: a panel each, named by its phase");
		ok(out != NULL && count(out, "class=\"key\"") == 2 &&
		    strstr(out, ">sweep 2: &lt;b&gt;</text>") != NULL &&
		    strstr(out, "stroke=\"#d62728\" stroke-width=\"4\"") !=
		    NULL, "the key: a swatch and the words of each, escaped");
		/* The key pushes the first panel down by its lines. */
		first = out != NULL ? strstr(out, "<rect x=\"90\" y=\"") : NULL;
		ok(first != NULL && atoi(first + strlen("<rect x=\"90\" y=\"")) ==
		    40 + 2 * 18, "the first panel starts below the key");
		xmllint(path, "overlay plot is well-formed XML");
		free(out);
		p.by_phase = 0;
		p.nkeys = 0;
		p.keys = NULL;
		p.series = s;
		p.nseries = 3;
	}
}

int
main(void)
{
	uint64_t	 sizes[6];
	double		 sk[6] = { 4000, 3900, 4100, 350, 300, 310 };
	struct knee	 k4[4], k16[4], ks[4];
	char		*out;
	int		 i, fd;

	for (i = 0; i < 6; i++)
		sizes[i] = (uint64_t)64 << (20 + i);
	memset(&p, 0, sizeof(p));
	p.title = "sweep of /tmp/<a&b>";
	p.nsizes = 6;
	p.sizes = sizes;
	p.ram = (uint64_t)1 << 30;
	s[0] = (struct svg_series){ .phase = PH_WRITE, .chunk = 4096,
	    .rate = wr4, .knees = k4, .nknees = knee_sizes(wr4, 6, 30, k4, 4) };
	s[1] = (struct svg_series){ .phase = PH_WRITE, .chunk = 16384,
	    .rate = wr16, .knees = k16,
	    .nknees = knee_sizes(wr16, 6, 30, k16, 4) };
	s[2] = (struct svg_series){ .phase = PH_SEEKS, .chunk = 4096,
	    .rate = sk, .knees = ks, .nknees = knee_sizes(sk, 6, 30, ks, 4) };
	p.series = s;
	p.nseries = 3;

	snprintf(path, sizeof(path), "/tmp/bonnie-ng-t-svg.XXXXXX");
	if ((fd = mkstemp(path)) == -1) {
		ok(0, "mkstemp");
		return done_testing();
	}
	close(fd);
	out = plot(&p, path);
	ok(out != NULL, "plot written");
	if (out == NULL)
		return done_testing();
	is_int(count(out, "<polyline"), 3, "one polyline per chunk per phase");
	is_int(count(out, "stroke-dasharray=\"6 4\"/>"), 2 + 2,
	    "RAM line in both panels (and in both legends)");
	is_int(count(out, "class=\"legend\""), 3,
	    "a legend entry per line drawn");
	is_int(count(out, ">knee</text>"), 2,
	    "both panels have rings, both legends say knee");
	ok(strstr(out, "bytes/s (log2 scale)") != NULL,
	    "the throughput panel is log2, in bytes/s");
	ok(strstr(out, "KiB/s (") == NULL, "no KiB/s axis");
	{
		double	tv[32], ty[32];
		int	nt = byte_ticks(out, tv, ty, 32), good = nt >= 3, t;

		/* The first panel's ticks: whole powers of two, evenly. */
		for (t = 1; good && t < nt && tv[t] > tv[t - 1]; t++)
			good = tv[t] == 2 * tv[t - 1] &&
			    fabs((ty[t - 1] - ty[t]) - (ty[0] - ty[1])) < 0.2;
		printf("# %d log ticks\n", nt);
		ok(good, "log ticks parse as bytes/s, doubling, evenly spaced");
		ok(nt >= 3 && tv[0] <= 1.1e5 * 1024 && tv[0] * 2 > 1.1e5 * 1024,
		    "the lowest tick is the power of two below the slowest "
		    "point");
	}
	ok(strstr(out, "seeks/s (log10 scale)") != NULL, "seeks panel is log");
	ok(strstr(out, "/tmp/&lt;a&amp;b&gt;") != NULL, "title escaped");
	ok(strstr(out, "<title>block write, chunk 4k: falls 87% between "
	    "512 MiB and 1024 MiB") != NULL, "knee marked, in words");
	is_int(count(out, "r=\"8\""), 3, "three knees ringed");
	ok(strstr(out, "href") == NULL, "no external references");
	xmllint(path, "well-formed XML");
	free(out);

	test_linear();
	test_empty_line();
	test_overlay();

	/* Nothing measured at all still makes a valid document. */
	p.nsizes = 0;
	out = plot(&p, path);
	ok(out != NULL && strstr(out, "no points measured") != NULL,
	    "empty plot says so");
	xmllint(path, "empty plot is well-formed XML");
	free(out);
	unlink(path);
	return done_testing();
}
