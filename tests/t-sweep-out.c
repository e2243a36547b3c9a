/*
 * What "bonnie-ng sweep" prints and writes, from a made-up sweep: the
 * table shape, the knees in words, the JSON record (checked with jq when
 * it is installed) and the SVG (xmllint).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "settings.h"
#include "result.h"
#include "sweep.h"
#include "tap.h"

#define MiB	((uint64_t)1 << 20)

static char	tmp[64];

/* Run fn into the scratch file and return its text. */
static char *
capture(int (*fn)(FILE *, const struct sweep_result *),
    void (*pfn)(FILE *, const struct sweep_result *),
    const struct sweep_result *r)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(tmp, "w+")) == NULL)
		return NULL;
	if (fn != NULL && fn(f, r) == -1) {
		fclose(f);
		return NULL;
	}
	if (pfn != NULL)
		pfn(f, r);
	fflush(f);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/*
 * Run "cmd 'file' after" in the shell on the scratch file; skip when tool
 * is missing.
 */
static void
shell(const char *tool, const char *cmd, const char *after, const char *desc)
{
	char	buf[1024];

	snprintf(buf, sizeof(buf), "command -v %s >/dev/null 2>&1", tool);
	if (system(buf) != 0) {
		snprintf(buf, sizeof(buf), "%s is not installed", tool);
		tap_skip(buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%s '%s'%s", cmd, tmp, after);
	ok(system(buf) == 0, desc);
}

int
main(void)
{
	struct options		 opt;
	struct sweep_result	 r;
	struct sweep_point	 pts[8];
	/* Rates of write and read by size (4 sizes) and chunk (2). */
	double			 wr[4][2] = { { 900e3, 950e3 },
				    { 920e3, 940e3 }, { 120e3, 130e3 },
				    { 110e3, 125e3 } };
	double			 rd[4][2] = { { 3e6, 3.2e6 }, { 3.1e6, 3.3e6 },
				    { 3.0e6, 3.1e6 }, { 2.9e6, 3.0e6 } };
	char			*out, *line, *save;
	char			*argv[] = { "sweep", "-d", "/tmp" };
	int			 fd, i, k, lines, rows = 0, cols = 0;
	int			 intable = 0;

	snprintf(tmp, sizeof(tmp), "/tmp/bonnie-ng-t-sweep-out.XXXXXX");
	if ((fd = mkstemp(tmp)) == -1)
		return 1;
	close(fd);

	settings_defaults(&opt);
	opt.phases = (1u << PH_WRITE) | (1u << PH_READ);
	opt.cache = CACHE_MODE_KEEP;
	opt.ram = 3 * MiB;
	opt.dir = "/tmp";
	opt.argc = 3;
	opt.argv = argv;
	memset(&r, 0, sizeof(r));
	memset(pts, 0, sizeof(pts));
	r.opt = &opt;
	r.nsizes = 4;
	r.nchunks = 2;
	r.chunks[0] = 4096;
	r.chunks[1] = 16384;
	r.knee_pct = 30;
	r.points = pts;
	strcpy(r.start_utc, "2026-11-29T18:00:00Z");
	for (i = 0; i < 4; i++) {
		r.sizes[i] = MiB << i;
		for (k = 0; k < 2; k++) {
			struct sweep_point *p = &pts[i * 2 + k];

			p->size = r.sizes[i];
			p->chunk = r.chunks[k];
			p->res.ph[PH_WRITE].ran = p->res.ph[PH_READ].ran = 1;
			p->res.ph[PH_WRITE].rate = wr[i][k];
			p->res.ph[PH_READ].rate = rd[i][k];
			p->res.ph[PH_WRITE].cache = CSTATE_KEEP;
			p->res.ph[PH_READ].cache = CSTATE_KEEP;
		}
	}
	r.npoints = 7;		/* The last point was not reached. */

	ok(isnan(sweep_rate(&r, PH_WRITE, 3, 1)), "the point not run is NaN");
	ok(sweep_rate(&r, PH_READ, 1, 1) == 3.3e6, "a measured rate");

	/* Two tables of one header and four rows of 1 + 2 columns. */
	out = capture(NULL, sweep_print_tables, &r);
	ok(out != NULL, "tables printed");
	lines = 0;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		int	words = 0;
		char	*w, *s2;

		lines++;
		if (strstr(line, "K/sec") != NULL) {
			intable = 1;
			continue;
		}
		for (w = strtok_r(line, " ", &s2); w != NULL;
		    w = strtok_r(NULL, " ", &s2))
			words++;
		if (intable && words == 3) {
			rows++;
			cols += words;
		}
	}
	is_int(lines, 2 * 6, "two tables of six lines");
	is_int(rows, 2 * 5, "a header and four rows each");
	is_int(cols, 2 * 5 * 3, "three columns each");
	free(out);
	out = capture(NULL, sweep_print_tables, &r);
	ok(out != NULL && strstr(out, "block write, K/sec\n    size         "
	    "4k        16k\n      1M     900000     950000\n") != NULL,
	    "the write table as printed");
	ok(out != NULL && strstr(out, "      8M     110000          -\n") !=
	    NULL, "a point not run is '-'");
	free(out);

	out = capture(NULL, sweep_print_knees, &r);
	ok(out != NULL && strstr(out, "  block write, chunk 4k: falls 87% "
	    "between 2 MiB and 4 MiB (RAM is 3 MiB)\n") != NULL,
	    "the write cliff in words");
	ok(out != NULL && strstr(out, "chunk 16k: falls 86%") != NULL,
	    "the 16k cliff too");
	ok(out != NULL && strstr(out, "block read") == NULL,
	    "no knee in the flat reads");
	free(out);

	out = capture(sweep_write_json, NULL, &r);
	ok(out != NULL, "JSON written");
	free(out);
	shell("jq", "jq -e '.schema == \"bonnie-ng-sweep/1\" and "
	    "(.points | length) == 7 and .points[0].phases.write.rate == "
	    "900000 and .points[0].phases.rewrite == null and "
	    ".sweep.chunks == [4096, 16384] and .options.chunk == 4096 and "
	    ".options.size_bytes == 8388608 and (.knees | length) == 2 and "
	    ".knees[0].from_bytes == 2097152 and .stopped == null and "
	    ".command == [\"bonnie-ng\", \"sweep\", \"-d\", \"/tmp\"]'",
	    " >/dev/null",
	    "JSON: schema, points, phases, knees, command");

	out = capture(sweep_write_svg, NULL, &r);
	ok(out != NULL, "SVG written");
	free(out);
	shell("xmllint", "xmllint --noout", "", "SVG is well-formed XML");
	shell("xmllint", "test 4 -eq $(xmllint --xpath "
	    "'count(//*[local-name()=\"polyline\"])'", ")",
	    "SVG: one polyline per chunk per phase");
	unlink(tmp);
	return done_testing();
}
