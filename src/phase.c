/*
 * The phase table and its start-up check.  What the phases share (opening
 * the test file, whole transfers, the data generator) is in phasekit.c,
 * below the phases, so that the table and the phases call only downwards.
 */
#include <stdio.h>
#include <stdlib.h>
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

/* A phase's option rows store into its own slot, with a sane range. */
static int
phase_rows_check(const struct phase *p, char **cause)
{
	const struct args_option	*r;

	for (r = p->options; r != NULL && (r->letter != 0 || r->name != NULL);
	    r++) {
		if (r->kind != ARGS_VALUE || r->set != args_set_count ||
		    r->name == NULL)
			return errorf(cause, "phase %s: option row %s is not "
			    "a long value option of its own slot", p->name,
			    r->name != NULL ? r->name : "?");
		if (r->min > r->max || r->def < r->min || r->def > r->max)
			return errorf(cause, "phase %s: option --%s: default "
			    "out of its range", p->name, r->name);
	}
	return 0;
}

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
		if (phase_rows_check(p, cause) == -1)
			return -1;
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

void
phase_names(char *buf, size_t len)
{
	size_t	n = 0;
	int	i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; phase_table[i] != NULL && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i > 0 ? ", " :
		    "", phase_table[i]->name);
}

int
phases_parse(const char *arg, unsigned *mask, char **why)
{
	const struct phase	*p;
	char			*copy = xstrdup(arg), *s = copy, *name;
	char			 list[256];

	*mask = 0;
	while ((name = strsep(&s, ",")) != NULL) {
		if ((p = phase_by_name(name)) != NULL) {
			*mask |= 1u << p->id;
			continue;
		}
		phase_names(list, sizeof(list));
		errorf(why, "unknown phase '%s' (%s)", name, list);
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

void
phase_option_defaults(const struct phase *const *table, void *o)
{
	const struct args_option	*r;
	int				 i;

	for (i = 0; table[i] != NULL; i++)
		for (r = table[i]->options; r != NULL &&
		    (r->letter != 0 || r->name != NULL); r++)
			if (r->set == args_set_count)
				*(uint64_t *)(void *)((char *)o + r->slot) =
				    r->def;
}
