/*
 * compare -o junit: JUnit XML for CI test reporters (the shape of
 * Jenkins xUnit's junit-10.xsd, tests/junit.xsd).  A suite per new result
 * set; of run records a test case per compared column, of sweep records
 * one per point and phase.  A case the gate (--fail-on) selects that got
 * worse or is missing fails, one without a value on a side is skipped,
 * and every case says its change in system-out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "compare-out.h"
#include "compare-view.h"
#include "error.h"
#include "phase.h"
#include "resultset.h"
#include "text.h"

/* A suite's head: its name, counts and properties. */
static void
suite_start(FILE *f, const struct cmp_view *cmp, int k, int tests,
    int failures, int skipped, const char *why)
{
	fprintf(f, "  <testsuite name=\"");
	text_xml(f, cmp->sets[k].file);
	fprintf(f, " vs ");
	text_xml(f, cmp->sets[0].file);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
	    "skipped=\"%d\" time=\"0\">\n", tests, failures, skipped);
	fprintf(f, "    <properties>\n");
	fprintf(f, "      <property name=\"base\" value=\"");
	text_xml(f, cmp->sets[0].file);
	fprintf(f, "\"/>\n      <property name=\"new\" value=\"");
	text_xml(f, cmp->sets[k].file);
	fprintf(f, "\"/>\n      <property name=\"threshold_pct\" "
	    "value=\"%g\"/>\n", cmp->threshold);
	if (why != NULL) {
		fprintf(f, "      <property name=\"not_comparable\" "
		    "value=\"");
		text_xml(f, why);
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "    </properties>\n");
}

/*
 * A test case of suite k: name, its cell c of column col, msg its change.
 */
static void
testcase(FILE *f, const struct cmp_view *cmp, int k, const char *name,
    int col, const struct cmp_cell *c, const char *msg, const char *why)
{
	/*
	 * A report joins classname and name into a test's id: with several
	 * new files, each suite's cases have a classname of their own
	 * (bonnie-ng.compare.K, K the new side's place), so that "putc"
	 * names one test, not one in every suite.
	 */
	fprintf(f, "    <testcase classname=\"bonnie-ng.compare");
	if (cmp->nsets > 2)
		fprintf(f, ".%d", k);
	fprintf(f, "\" name=\"");
	text_xml(f, name);
	fprintf(f, "\" time=\"0\">\n");
	if (c->verdict == CMP_NA) {
		fprintf(f, "      <skipped message=\"");
		text_xml(f, msg);
		fprintf(f, "\"/>\n");
	} else if (cmp_view_fails(cmp, col, c)) {
		fprintf(f, "      <failure type=\"%s\" message=\"",
		    cmp_verdict_name(c->verdict));
		text_xml(f, msg);
		fprintf(f, "\">");
		text_xml(f, msg);
		fprintf(f, "</failure>\n");
	}
	fprintf(f, "      <system-out>");
	text_xml(f, msg);
	if ((c->verdict == CMP_WORSE || c->verdict == CMP_MISSING) &&
	    !cmp->fail_on[col])
		fprintf(f, " (not selected by --fail-on)");
	if (why != NULL && c->verdict != CMP_NA) {
		fprintf(f, " (not comparable: ");
		text_xml(f, why);
		fprintf(f, ")");
	}
	fprintf(f, "</system-out>\n    </testcase>\n");
}

/* Count a case: all of them, the failed and the skipped. */
static void
count(const struct cmp_view *cmp, int col, const struct cmp_cell *c,
    int *tests, int *failures, int *skipped)
{
	(*tests)++;
	if (c->verdict == CMP_NA)
		(*skipped)++;
	else if (cmp_view_fails(cmp, col, c))
		(*failures)++;
}

/* The document's head, with the counts of every suite. */
static void
suites_start(FILE *f, int tests, int failures)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	/* Jenkins xUnit's junit-10.xsd has no skipped on <testsuites>. */
	fprintf(f, "<testsuites name=\"bonnie-ng compare\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" time=\"0\">\n", tests, failures);
}

static int
junit_runs(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_cell	*c;
	char			*msg, *why, line[1024];
	int			 col, k, tests, failures, skipped;
	int			 all_tests = 0, all_failures = 0;
	int			 all_skipped = 0;

	for (k = 1; k < cmp->nsets; k++)
		for (col = 0; col < RS_NCOLS; col++)
			if (cmp->shown[col])
				count(cmp, col, cmp_view_cell(cmp, col, k - 1),
				    &all_tests, &all_failures, &all_skipped);
	suites_start(f, all_tests, all_failures);
	for (k = 1; k < cmp->nsets; k++) {
		tests = failures = skipped = 0;
		for (col = 0; col < RS_NCOLS; col++)
			if (cmp->shown[col])
				count(cmp, col, cmp_view_cell(cmp, col, k - 1),
				    &tests, &failures, &skipped);
		why = cmp_view_not_comparable(cmp, k);
		suite_start(f, cmp, k, tests, failures, skipped, why);
		for (col = 0; col < RS_NCOLS; col++) {
			if (!cmp->shown[col])
				continue;
			c = cmp_view_cell(cmp, col, k - 1);
			msg = cmp_view_change(cmp, rs_col_name(col), col, c);
			if (cmp_view_moved(cmp, col, k, line,
			    sizeof(line)) == 0) {
				char	*with = xasprintf("%s; the kernel's "
				    "account: %s", msg, line);

				free(msg);
				msg = with;
			}
			testcase(f, cmp, k, rs_col_name(col), col, c, msg,
			    why);
			free(msg);
		}
		if (cmp->nexcluded > 0) {
			fprintf(f, "    <system-out>");
			for (col = 0; col < cmp->nexcluded; col++) {
				fprintf(f, "left out of the statistics: ");
				text_xml(f, cmp->excluded[col]);
				fprintf(f, "&#10;");
			}
			fprintf(f, "</system-out>\n");
		}
		free(why);
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return ferror(f) ? -1 : 0;
}

/*
 * Sweep records: a suite per new sweep, a case per point and phase that
 * a side measured ("read at 1M 64k"), in the text's order.
 */
static int
junit_sweeps(FILE *f, const struct cmp_view *cmp)
{
	const struct cmp_point	*p;
	char			*msg, *why, *name;
	int			 i, k, tests, failures, skipped;
	int			 all_tests = 0, all_failures = 0;
	int			 all_skipped = 0;

	for (i = 0; i < cmp->npoints_all; i++)
		if (cmp->points[i].shown)
			count(cmp, cmp->points[i].col, &cmp->points[i].c,
			    &all_tests, &all_failures, &all_skipped);
	suites_start(f, all_tests, all_failures);
	for (k = 1; k < cmp->nsets; k++) {
		tests = failures = skipped = 0;
		for (i = 0; i < cmp->npoints_all; i++)
			if (cmp->points[i].k == k && cmp->points[i].shown)
				count(cmp, cmp->points[i].col,
				    &cmp->points[i].c, &tests, &failures,
				    &skipped);
		why = cmp_view_not_comparable(cmp, k);
		suite_start(f, cmp, k, tests, failures, skipped, why);
		for (i = 0; i < cmp->npoints_all; i++) {
			p = &cmp->points[i];
			if (p->k != k || !p->shown)
				continue;
			name = xasprintf("%s at %s",
			    phase_table[p->phase]->name, p->place);
			msg = cmp_view_change(cmp, name, p->col, &p->c);
			testcase(f, cmp, k, name, p->col, &p->c, msg, why);
			free(msg);
			free(name);
		}
		free(why);
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return ferror(f) ? -1 : 0;
}

/*
 * A comparison that could not be made (exit 2): one suite, one test case
 * in error with the reason, so that a CI reporter shows the failure
 * instead of an empty or missing report.
 */
static void
junit_refused(FILE *f, const char *why, int status)
{
	(void)status;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"bonnie-ng compare\" tests=\"1\" "
	    "failures=\"0\" errors=\"1\" time=\"0\">\n");
	fprintf(f, "  <testsuite name=\"bonnie-ng compare\" tests=\"1\" "
	    "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n");
	fprintf(f, "    <testcase classname=\"bonnie-ng.compare\" "
	    "name=\"inputs\" time=\"0\">\n");
	fprintf(f, "      <error type=\"unusable input\" message=\"");
	text_xml(f, why);
	fprintf(f, "\">");
	text_xml(f, why);
	fprintf(f, "</error>\n    </testcase>\n  </testsuite>\n"
	    "</testsuites>\n");
	fflush(f);
}

const struct cmp_printer cmp_out_junit = {
	.name = "junit",
	.runs = junit_runs,
	.sweeps = junit_sweeps,
	.refused = junit_refused,
};
