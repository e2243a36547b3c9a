/*
 * The phase table and its start-up check.  What the phases share (opening
 * the test file, whole transfers, the data generator) is in phasekit.c,
 * below the phases, so that the table and the phases call only downwards.
 */
#include <string.h>

#include "error.h"
#include "phase.h"

/* The phases in the order they run; the report columns follow it. */
const struct phase *const phase_table[] = {
	&phase_putc,
	&phase_write,
	&phase_rewrite,
	&phase_getc,
	&phase_read,
	&phase_seeks,
	NULL
};

int
phase_table_check(char **cause)
{
	const struct phase	*p;
	int			 i;

	for (i = 0; (p = phase_table[i]) != NULL; i++) {
		if (p->version != PHASE_VERSION)
			return errorf(cause, "phase %s: version %d, want %d",
			    p->name, p->version, PHASE_VERSION);
		if ((int)p->id != i || i >= PH_COUNT)
			return errorf(cause, "phase %s: id %d at table "
			    "position %d", p->name, (int)p->id, i);
		if (p->run == NULL || p->name == NULL || p->title == NULL)
			return errorf(cause, "phase %d: missing run, name or "
			    "title", i);
		if (strcmp(p->name, phase_id_name(p->id)) != 0)
			return errorf(cause, "phase %s: name differs from "
			    "its id's name %s", p->name, phase_id_name(p->id));
	}
	if (i != PH_COUNT)
		return errorf(cause, "phase table has %d phases, want %d", i,
		    PH_COUNT);
	return 0;
}

const struct phase *
phase_by_name(const char *name)
{
	int	i;

	for (i = 0; phase_table[i] != NULL; i++)
		if (strcmp(phase_table[i]->name, name) == 0)
			return phase_table[i];
	return NULL;
}
