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

int
main(void)
{
	uint64_t	 sizes[6];
	double		 wr4[6] = { 9e5, 9.2e5, 8.8e5, 9.1e5, 1.2e5, 1.1e5 };
	double		 wr16[6] = { 1.5e6, 1.4e6, 1.6e6, 1.5e6, 1.3e5, NAN };
	double		 sk[6] = { 4000, 3900, 4100, 350, 300, 310 };
	double		 flat[6] = { 100, 110, 120, 105, 100, 98 };
	struct knee	 k4[4], k16[4], ks[4];
	struct svg_series s[3];
	struct svg_plot	 p;
	char		 path[64], *out;
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
	ok(strstr(out, "KiB/s (log10 scale)") != NULL, "KiB/s panel is log");
	ok(strstr(out, "seeks/s (log10 scale)") != NULL, "seeks panel is log");
	ok(strstr(out, "/tmp/&lt;a&amp;b&gt;") != NULL, "title escaped");
	ok(strstr(out, "<title>block write, chunk 4k: falls 87% between "
	    "512 MiB and 1024 MiB") != NULL, "knee marked, in words");
	is_int(count(out, "r=\"8\""), 3, "three knees ringed");
	ok(strstr(out, "href") == NULL, "no external references");
	xmllint(path, "well-formed XML");
	free(out);

	/* A narrow range is linear; RAM beyond the sizes is a note. */
	s[0].rate = flat;
	s[0].nknees = 0;
	p.nseries = 1;
	p.ram = (uint64_t)64 << 30;
	out = plot(&p, path);
	ok(out != NULL && strstr(out, "KiB/s (linear scale)") != NULL,
	    "narrow range: linear");
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
