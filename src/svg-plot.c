/*
 * The SVG plot of a sweep.  Pure formatting: it writes to the FILE it is
 * given and reads nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knee.h"
#include "phase.h"
#include "svg-plot.h"
#include "text.h"
#include "units.h"

/* Geometry, in SVG user units (pixels). */
#define WIDTH		960
#define PLOT_LEFT	90
#define PLOT_RIGHT	680
#define LEGEND_LEFT	705
#define PANEL_TOP	40
#define PANEL_HEIGHT	300
#define PANEL_GAP	90
#define LEGEND_ROW	18

/* One panel: the series sharing a unit (or a phase), and its y scale. */
struct panel {
	char		 unit[32];	/* "KiB/s", "seeks/s". */
	int		 phase;		/* By phase: its id; else -1. */
	int		 n;		/* Series drawn in this panel. */
	int		 bytes;		/* KiB/s: the ticks say bytes/s in
					   binary units, log2 when logy. */
	int		 logy;
	double		 ylo, yhi;	/* The axis range, in bytes/s for a
					   bytes panel (the log if logy). */
	double		 step;		/* Between ticks, in the same. */
	int		 top, height;
};

static const char *const dashes[] = {
	"", "8 4", "2 3", "10 3 2 3", "4 2 1 2"
};
#define NDASHES	(int)(sizeof(dashes) / sizeof(dashes[0]))

/* Write s as XML character data (text_xml()). */
static void
xml_text(FILE *f, const char *s)
{
	text_xml(f, s);
}

static int
measured(double x)
{
	return isfinite(x) && x > 0;
}

/* The rank of chunk among the distinct chunk sizes of the plot. */
static int
chunk_rank(const struct svg_plot *p, uint64_t chunk)
{
	int	i, rank = 0;

	/* Count the distinct chunk sizes smaller than chunk. */
	for (i = 0; i < p->nseries; i++) {
		int	j, seen = 0;

		if (p->series[i].chunk >= chunk)
			continue;
		for (j = 0; j < i; j++) {
			if (p->series[j].chunk == p->series[i].chunk)
				seen = 1;
		}
		if (!seen)
			rank++;
	}
	return rank;
}

static double
x_of(const struct svg_plot *p, double bytes)
{
	double	lo = log2((double)p->sizes[0]);
	double	hi = log2((double)p->sizes[p->nsizes - 1]);
	double	margin = 18;

	if (hi <= lo)
		return (PLOT_LEFT + PLOT_RIGHT) / 2.0;
	return PLOT_LEFT + margin + (log2(bytes) - lo) / (hi - lo) *
	    (PLOT_RIGHT - PLOT_LEFT - 2 * margin);
}

/* A rate in the panel's axis space: bytes/s, and its log when logy. */
static double
axis_value(const struct panel *pn, double v)
{
	if (pn->bytes)
		v *= 1024;
	if (!pn->logy)
		return v;
	return pn->bytes ? log2(v) : log10(v);
}

static double
y_of(const struct panel *pn, double v)
{
	double	t = axis_value(pn, v);

	return pn->top + pn->height - (t - pn->ylo) / (pn->yhi - pn->ylo) *
	    pn->height;
}

/* A round step near span / 5: 1, 2 or 5 times a power of ten. */
static double
nice_step(double span)
{
	double	raw = span / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;

	if (r <= 1)
		return mag;
	if (r <= 2)
		return 2 * mag;
	if (r <= 5)
		return 5 * mag;
	return 10 * mag;
}

/*
 * A power of two near span / 5, so that binary ticks fall on round
 * numbers of their unit (256 MiB/s, 1 GiB/s, 1.25 GiB/s).
 */
static double
binary_step(double span)
{
	return exp2(ceil(log2(span / 5)));
}

/* Whether series s has a measured point: a line that is drawn. */
static int
drawn(const struct svg_plot *p, const struct svg_series *s)
{
	int	j;

	for (j = 0; j < p->nsizes; j++)
		if (measured(s->rate[j]))
			return 1;
	return 0;
}

/*
 * Whether series s is drawn in panel pn: it has points, and the units
 * (or, by phase, the phases) agree.
 */
static int
in_panel(const struct svg_plot *p, const struct panel *pn,
    const struct svg_series *s)
{
	char	unit[32];

	if (pn->phase >= 0)
		return drawn(p, s) && (int)s->phase == pn->phase;
	return drawn(p, s) && strcmp(phase_unit(phase_table[s->phase],
	    UNIT_RECORD, unit, sizeof(unit)), pn->unit) == 0;
}

/* Choose the y scale of a panel from its measured rates. */
static void
panel_scale(const struct svg_plot *p, struct panel *pn)
{
	double	lo = INFINITY, hi = 0, v;
	int	i, j;

	for (i = 0; i < p->nseries; i++) {
		if (!in_panel(p, pn, &p->series[i]))
			continue;
		for (j = 0; j < p->nsizes; j++) {
			v = p->series[i].rate[j];
			if (!measured(v))
				continue;
			if (pn->bytes)
				v *= 1024;
			if (v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	}
	if (hi == 0) {
		pn->logy = 0;
		pn->ylo = 0;
		pn->yhi = 1;
		pn->step = 1;
		return;
	}
	pn->logy = hi / lo > 10;
	if (pn->logy) {
		/* Ticks at whole powers of 2 (bytes) or 10, at most 10. */
		pn->ylo = floor(pn->bytes ? log2(lo) : log10(lo));
		pn->yhi = ceil(pn->bytes ? log2(hi) : log10(hi));
		if (pn->yhi <= pn->ylo)
			pn->yhi = pn->ylo + 1;
		for (pn->step = 1; (pn->yhi - pn->ylo) / pn->step > 10;
		    pn->step *= 2)
			;
		pn->yhi = pn->ylo + ceil((pn->yhi - pn->ylo) / pn->step) *
		    pn->step;
	} else {
		pn->ylo = 0;
		pn->step = pn->bytes ? binary_step(hi * 1.1) :
		    nice_step(hi * 1.1);
		pn->yhi = ceil(hi * 1.1 / pn->step) * pn->step;
	}
}

static void
panel_axes(FILE *f, const struct svg_plot *p, const struct panel *pn)
{
	char	buf[64];
	double	y, x, step, t, v;
	int	k;
	int	i, every, bottom = pn->top + pn->height;

	/* The frame and the axis labels. */
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "fill=\"none\" stroke=\"#444\"/>\n", PLOT_LEFT, pn->top,
	    PLOT_RIGHT - PLOT_LEFT, pn->height);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	    "%s (log2 scale)</text>\n", (PLOT_LEFT + PLOT_RIGHT) / 2,
	    bottom + 38, p->x_label != NULL ? p->x_label : "file size");
	fprintf(f, "<text transform=\"translate(22 %d) rotate(-90)\" "
	    "text-anchor=\"middle\">%s%s%s (%s scale)</text>\n",
	    pn->top + pn->height / 2, pn->phase >= 0 ?
	    phase_table[pn->phase]->words : "", pn->phase >= 0 ? ", " : "",
	    pn->bytes ? "bytes/s" : pn->unit,
	    !pn->logy ? "linear" : pn->bytes ? "log2" : "log10");

	/* X ticks: every size, or every second or fourth when crowded. */
	every = 1;
	while (p->nsizes / every > 12)
		every *= 2;
	for (i = 0; i < p->nsizes; i += every) {
		x = x_of(p, (double)p->sizes[i]);
		if (p->x_tick != NULL)
			p->x_tick(buf, sizeof(buf), p->sizes[i]);
		else
			units_size_short(buf, sizeof(buf), p->sizes[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#444\"/>\n", x, bottom, x, bottom + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
		    "%s</text>\n", x, bottom + 18, buf);
	}

	/*
	 * Y ticks with light grid lines: bytes per second in binary units
	 * (units_rate_bytes()), operations per second in decimal ones.
	 */
	step = pn->step;
	for (k = 0; (t = pn->ylo + k * step) <= pn->yhi + step / 1000; k++) {
		y = pn->top + pn->height - (t - pn->ylo) /
		    (pn->yhi - pn->ylo) * pn->height;
		v = !pn->logy ? t : pn->bytes ? exp2(t) : pow(10, t);
		if (pn->bytes)
			units_rate_bytes(buf, sizeof(buf), v);
		else
			units_rate_short(buf, sizeof(buf), v);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/>\n", PLOT_LEFT, y, PLOT_RIGHT, y);
		fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%s</text>\n", PLOT_LEFT - 6, y + 4,
		    buf);
	}
}

/* Whether the RAM line is drawn: RAM lies within the sizes. */
static int
ram_line(const struct svg_plot *p)
{
	return p->ram != 0 && p->nsizes > 1 && p->ram >= p->sizes[0] &&
	    p->ram <= p->sizes[p->nsizes - 1];
}

/* The RAM line, or a note when RAM lies outside the sizes swept. */
static void
panel_ram(FILE *f, const struct svg_plot *p, const struct panel *pn)
{
	double	x;
	char	note[96], ram[32];

	if (p->ram == 0)
		return;
	units_ram(ram, sizeof(ram), p->ram);
	snprintf(note, sizeof(note), "RAM %s", ram);
	if (ram_line(p)) {
		x = x_of(p, (double)p->ram);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#000\" stroke-dasharray=\"6 4\"/>\n",
		    x, pn->top, x, pn->top + pn->height);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", x + 4,
		    pn->top + 14, note);
	} else {
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#444\">%s, %s the "
		    "sizes swept</text>\n", PLOT_LEFT + 6, pn->top + 14, note,
		    p->ram < p->sizes[0] ? "below" : "beyond");
	}
}

/* Whether panel pn has a ring: a knee on one of its lines. */
static int
panel_rings(const struct svg_plot *p, const struct panel *pn)
{
	int	i;

	for (i = 0; i < p->nseries; i++)
		if (in_panel(p, pn, &p->series[i]) &&
		    (p->series[i].nknees > 0 || p->series[i].mark_title != NULL))
			return 1;
	return 0;
}

/* The series' legend text: its own, or "block write, chunk 4k". */
static void
series_label(char *buf, size_t len, const struct svg_series *s)
{
	char	c[32];

	if (s->label != NULL) {
		snprintf(buf, len, "%s", s->label);
		return;
	}
	units_chunk(c, sizeof(c), s->chunk);
	snprintf(buf, len, "%s, chunk %s", phase_table[s->phase]->words, c);
}

/* The line's colour: its own (a sweep among several), else its phase's. */
static const char *
series_colour(const struct svg_series *s)
{
	return s->colour != NULL ? s->colour : phase_table[s->phase]->colour;
}

static void
series_line(FILE *f, const struct svg_plot *p, const struct panel *pn,
    const struct svg_series *s)
{
	const char	*colour = series_colour(s);
	const char	*dash = dashes[chunk_rank(p, s->chunk) % NDASHES];
	char		 label[200], words[200];
	double		 x, y, x2, y2;
	int		 j, k, first = 1;

	series_label(label, sizeof(label), s);
	fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"2\"%s%s%s points=\"", colour,
	    *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
	for (j = 0; j < p->nsizes; j++) {
		if (!measured(s->rate[j]))
			continue;
		fprintf(f, "%s%.1f,%.1f", first ? "" : " ",
		    x_of(p, (double)p->sizes[j]), y_of(pn, s->rate[j]));
		first = 0;
	}
	fputs("\"><title>", f);
	xml_text(f, label);
	fputs("</title></polyline>\n", f);
	for (j = 0; j < p->nsizes; j++) {
		if (!measured(s->rate[j]))
			continue;
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
		    "fill=\"%s\"/>\n", x_of(p, (double)p->sizes[j]),
		    y_of(pn, s->rate[j]), colour);
	}

	/* A list axis's knee: a ring on its point, and a label. */
	if (s->mark_title != NULL && s->mark >= 0 && s->mark < p->nsizes &&
	    measured(s->rate[s->mark])) {
		x = x_of(p, (double)p->sizes[s->mark]);
		y = y_of(pn, s->rate[s->mark]);
		fprintf(f, "<circle class=\"knee\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"8\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">"
		    "<title>", x, y, colour);
		xml_text(f, s->mark_title);
		fputs("</title></circle>\n", f);
		if (s->mark_label != NULL) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
			    x + 10, y - 10, colour);
			xml_text(f, s->mark_label);
			fputs("</text>\n", f);
		}
	}

	/* Each knee across sizes: a ring around the middle of its step. */
	for (k = 0; k < s->nknees; k++) {
		const struct knee *kn = &s->knees[k];

		x = x_of(p, (double)p->sizes[kn->from]);
		y = y_of(pn, kn->before);
		x2 = x_of(p, (double)p->sizes[kn->to]);
		y2 = y_of(pn, kn->after);
		knee_format(words, sizeof(words), phase_id_name(s->phase),
		    s->chunk, kn, p->sizes[kn->from], p->sizes[kn->to], p->ram);
		fprintf(f, "<circle class=\"knee\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"8\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">"
		    "<title>", (x + x2) / 2, (y + y2) / 2, colour);
		xml_text(f, words);
		fputs("</title></circle>\n", f);
	}
}

/* The legend: the lines drawn, then a ring and RAM when they are. */
static void
panel_legend(FILE *f, const struct svg_plot *p, const struct panel *pn)
{
	const char	*dash;
	char		 label[200];
	int		 i, row = 0, y;

	for (i = 0; i < p->nseries; i++) {
		const struct svg_series *s = &p->series[i];

		if (!in_panel(p, pn, s))
			continue;
		dash = dashes[chunk_rank(p, s->chunk) % NDASHES];
		series_label(label, sizeof(label), s);
		y = pn->top + 8 + row * LEGEND_ROW;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n", LEGEND_LEFT,
		    y, LEGEND_LEFT + 34, y, series_colour(s),
		    *dash ? " stroke-dasharray=\"" : "", dash,
		    *dash ? "\"" : "");
		fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">",
		    LEGEND_LEFT + 42, y + 4);
		xml_text(f, label);
		fputs("</text>\n", f);
		row++;
	}
	y = pn->top + 8 + row * LEGEND_ROW;
	if (panel_rings(p, pn)) {
		fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"none\" "
		    "stroke=\"#444\" stroke-width=\"2\"/>\n", LEGEND_LEFT + 17,
		    y);
		fprintf(f, "<text class=\"legend-mark\" x=\"%d\" y=\"%d\">"
		    "knee</text>\n", LEGEND_LEFT + 42, y + 4);
		y += LEGEND_ROW;
	}
	if (ram_line(p)) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#000\" stroke-dasharray=\"6 4\"/>\n",
		    LEGEND_LEFT + 17, y - 7, LEGEND_LEFT + 17, y + 7);
		fprintf(f, "<text class=\"legend-mark\" x=\"%d\" y=\"%d\">RAM"
		    "</text>\n", LEGEND_LEFT + 42, y + 4);
	}
}

/* The key under the title: a swatch of each colour and its words. */
static void
plot_keys(FILE *f, const struct svg_plot *p)
{
	int	i, y;

	for (i = 0; i < p->nkeys; i++) {
		y = 24 + (i + 1) * LEGEND_ROW;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"4\"/>\n", PLOT_LEFT, y - 4,
		    PLOT_LEFT + 24, y - 4, p->keys[i].colour);
		fprintf(f, "<text class=\"key\" x=\"%d\" y=\"%d\">",
		    PLOT_LEFT + 32, y);
		xml_text(f, p->keys[i].text);
		fputs("</text>\n", f);
	}
}

int
svg_plot_write(FILE *f, const struct svg_plot *p)
{
	struct panel	 pn[PH_COUNT];
	int		 np = 0, i, k, height, need;
	int		 top = PANEL_TOP + p->nkeys * LEGEND_ROW;

	/*
	 * A panel per unit, in the order the series first use them; a
	 * series with no measured point is not drawn, and a unit with none
	 * has no panel.
	 */
	memset(pn, 0, sizeof(pn));
	for (k = 0; k < p->nseries && p->nsizes > 0; k++) {
		if (!drawn(p, &p->series[k]))
			continue;
		for (i = 0; i < np; i++)
			if (in_panel(p, &pn[i], &p->series[k]))
				break;
		if (i < np || np == PH_COUNT)
			continue;
		pn[np].phase = p->by_phase ? (int)p->series[k].phase : -1;
		phase_unit(phase_table[p->series[k].phase], UNIT_RECORD,
		    pn[np].unit, sizeof(pn[np].unit));
		pn[np].bytes = (phase_table[p->series[k].phase]->flags &
		    PHASE_OPS) == 0;
		for (i = 0; i < p->nseries; i++) {
			if (in_panel(p, &pn[np], &p->series[i]))
				pn[np].n++;
		}
		/* Tall enough for the legend. */
		need = (pn[np].n + 2) * LEGEND_ROW + 8;
		pn[np].height = need > PANEL_HEIGHT ? need : PANEL_HEIGHT;
		pn[np].top = top;
		top += pn[np].height + PANEL_GAP;
		panel_scale(p, &pn[np]);
		np++;
	}
	height = np == 0 ? PANEL_TOP + 40 : top - PANEL_GAP + 60;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height,
	    WIDTH, height);
	fputs("<title>", f);
	xml_text(f, p->title != NULL ? p->title : "bonnie-ng sweep");
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
	    WIDTH, height);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\">", PLOT_LEFT);
	xml_text(f, p->title != NULL ? p->title : "bonnie-ng sweep");
	fputs("</text>\n", f);
	plot_keys(f, p);

	for (k = 0; k < np; k++) {
		fprintf(f, "<g>\n");
		panel_axes(f, p, &pn[k]);
		panel_ram(f, p, &pn[k]);
		for (i = 0; i < p->nseries; i++) {
			if (in_panel(p, &pn[k], &p->series[i]))
				series_line(f, p, &pn[k], &p->series[i]);
		}
		panel_legend(f, p, &pn[k]);
		fprintf(f, "</g>\n");
	}
	if (np == 0)
		fprintf(f, "<text x=\"%d\" y=\"%d\">no points measured"
		    "</text>\n", PLOT_LEFT, PANEL_TOP + 20);
	fputs("</svg>\n", f);
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
