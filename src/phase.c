/*
 * The phase table, its start-up check, and the facts derived from it.
 * What the phases share (opening the test file, whole transfers, the data
 * generator) is in phasekit.c, below the phases, so that the table and
 * the phases call only downwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "phase.h"

/* The phases in the order they run, made from phase-list.h. */
const struct phase *const phase_table[PH_COUNT + 1] = {
#define PHASE(id, sym, on)	&phase_##sym,
#include "phase-list.h"
#undef PHASE
	NULL
};

/* The list and the enum come from one list, so they agree in length. */
_Static_assert(sizeof(phase_table) / sizeof(phase_table[0]) == PH_COUNT + 1,
    "the phase table and enum phase_id differ");
/* The names in the list, which the structs' names must be. */
static const char *const list_names[PH_COUNT] = {
#define PHASE(id, sym, on)	#sym,
#include "phase-list.h"
#undef PHASE
};

/* Phase masks are bit masks in an int. */
_Static_assert(PH_COUNT <= 31, "too many phases for a phase mask");

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
phase_colours_check(const struct phase *const *table, char **cause)
{
	int	i, k;

	for (i = 0; table[i] != NULL; i++)
		for (k = 0; k < i; k++)
			if (table[i]->colour != NULL &&
			    table[k]->colour != NULL &&
			    strcasecmp(table[i]->colour, table[k]->colour) == 0)
				return errorf(cause, "phases %s and %s: the same "
				    "colour %s", table[k]->name, table[i]->name,
				    table[i]->colour);
	return 0;
}

int
phase_table_check(char **cause)
{
	const struct phase	*p;
	int			 i, k;

	for (i = 0; (p = phase_table[i]) != NULL; i++) {
		if (p->version != PHASE_VERSION)
			return errorf(cause, "phase %s: version %d, want %d",
			    p->name, p->version, PHASE_VERSION);
		if (p->run == NULL || p->name == NULL || p->title == NULL ||
		    p->words == NULL || p->column == NULL ||
		    p->colour == NULL)
			return errorf(cause, "phase %d: missing run, name, "
			    "title, words, column or colour", i);
		if (((p->flags & PHASE_OPS) != 0) != (p->unit != NULL) ||
		    ((p->flags & PHASE_OPS) != 0) != (p->cost_unit != NULL))
			return errorf(cause, "phase %s: a unit and a cost unit "
			    "go with PHASE_OPS and only with it", p->name);
		if (strcmp(p->name, list_names[i]) != 0)
			return errorf(cause, "phase %s: listed as %s in "
			    "phase-list.h", p->name, list_names[i]);
		if (strcmp(p->name, "all") == 0 || strchr(p->name, ',') ||
		    strchr(p->name, '_'))
			return errorf(cause, "phase %s: not a usable name",
			    p->name);
		if (p->writer != PW_NONE &&
		    strcmp(pattern_writer_name(p->writer), p->name) != 0)
			return errorf(cause, "phase %s: leaves the version of "
			    "writer %s", p->name,
			    pattern_writer_name(p->writer));
		for (k = 0; k < i; k++)
			if (strcmp(phase_table[k]->name, p->name) == 0 ||
			    (p->bonnie_name != NULL &&
			    phase_table[k]->bonnie_name != NULL &&
			    strcmp(phase_table[k]->bonnie_name,
			    p->bonnie_name) == 0))
				return errorf(cause, "phase %s: its name or "
				    "bonnie++'s listed twice", p->name);
		if (phase_rows_check(p, cause) == -1)
			return -1;
	}
	return phase_colours_check(phase_table, cause);
}

const struct phase *
phase_by_name(const char *name)
{
	int	i = phase_id_by_name(name);

	return i < 0 ? NULL : phase_table[i];
}

int
phase_id_by_name(const char *name)
{
	int	i;

	for (i = 0; i < PH_COUNT; i++)
		if (strcmp(phase_table[i]->name, name) == 0)
			return i;
	return -1;
}

const char *
phase_id_name(enum phase_id id)
{
	if ((unsigned)id >= PH_COUNT)
		return "unknown";
	return phase_table[id]->name;
}

const char *
phase_unit(const struct phase *p, enum phase_unit_style style, char *buf,
    size_t len)
{
	if (!(p->flags & PHASE_OPS))
		snprintf(buf, len, "%s", style == UNIT_RECORD ? "KiB/s" :
		    "K/sec");
	else if (style == UNIT_SHORT)
		snprintf(buf, len, "/sec");
	else
		snprintf(buf, len, "%s/%s", p->unit,
		    style == UNIT_RECORD ? "s" : "sec");
	return buf;
}

unsigned
phase_flag_mask(unsigned flags)
{
	unsigned	m = 0;
	int		i;

	for (i = 0; i < PH_COUNT; i++)
		if ((phase_table[i]->flags & flags) == flags)
			m |= 1u << i;
	return m;
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
	char	*copy = xstrdup(arg), *s = copy, *name;
	char	 list[256];
	int	 id;

	*mask = 0;
	while ((name = strsep(&s, ",")) != NULL) {
		if (strcmp(name, "all") == 0) {
			*mask |= (1u << PH_COUNT) - 1;
			continue;
		}
		if ((id = phase_id_by_name(name)) != -1) {
			*mask |= 1u << id;
			continue;
		}
		phase_names(list, sizeof(list));
		errorf(why, "unknown phase '%s' (%s, all)", name, list);
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
