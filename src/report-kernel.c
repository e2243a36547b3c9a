/*
 * -K: the kernel's account under the report, one short line per phase
 * that ran: the device's request sizes, queue depth, util and waits
 * (iostat -x's names), the dirty peak against its threshold, reclaim,
 * swap and pressure.  The classic rows above it are not touched.  Under
 * MPI the line is the sum over the hosts, and each host's follows it
 * under its name (at most 7 characters of it).
 */
#include <stdio.h>

#include "kstat.h"
#include "phase.h"
#include "record.h"
#include "report.h"

/* MPI: under the sum's line, each host's, named by it. */
static void
print_hosts(FILE *f, const struct run_result *r, int id)
{
	const struct kstat_host	*h;
	char			 name[16];
	int			 i;

	if (r->hks == NULL || r->nhosts < 2)
		return;
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hks[(size_t)id * (size_t)r->nhosts + (size_t)i];
		snprintf(name, sizeof(name), " %.7s", h->name);
		kstat_print_line(f, name, &h->k);
	}
}

int
report_write_kernel(FILE *f, const struct record *rec)
{
	const struct run_result	*r;
	int			 k, i;

	for (k = 0; k < rec->nruns; k++) {
		r = &rec->runs[k];
		if (rec->nruns > 1)
			fprintf(f, "\nThe kernel's account, run %d:\n", k + 1);
		else
			fprintf(f, "\nThe kernel's account:\n");
		kstat_print_head(f);
		for (i = 0; i < PH_COUNT; i++)
			if (r->ph[i].ran) {
				kstat_print_line(f, phase_table[i]->name,
				    r->ks != NULL ? &r->ks[i] : NULL);
				print_hosts(f, r, i);
			}
	}
	return ferror(f) ? -1 : 0;
}
