/*
 * What every command shares: its row tables put together (the phases'
 * rows and the settings' included), the parse into a fresh state, its
 * usage and help.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "phase.h"
#include "settings.h"

/* Add one table; -1 when out is full (its last place ends the list). */
static int
add(struct args_table *out, int *n, const struct args_option *rows,
    void *target)
{
	if (*n >= CMD_MAX_TABLES - 1)
		return -1;
	out[*n].rows = rows;
	out[(*n)++].target = target;
	return 0;
}

int
cmd_tables(const struct cmd_entry *e, const struct phase *const *phases,
    void *state, struct args_table *out)
{
	const struct cmd_rows	*r;
	void			*target;
	int			 n = 0, i, bad = 0;

	for (r = e->rows; r->rows != NULL || r->phases ||
	    r->scope != SCOPE_NONE; r++) {
		target = state != NULL ? (char *)state + r->off : NULL;
		if (r->rows != NULL)
			bad |= add(out, &n, r->rows, target);
		else if (r->scope != SCOPE_NONE)
			bad |= add(out, &n, settings_rows(r->scope), target);
		else
			for (i = 0; phases[i] != NULL; i++)
				if (phases[i]->options != NULL)
					bad |= add(out, &n, phases[i]->options,
					    target);
	}
	if (bad)
		n = 0;
	out[n].rows = NULL;
	out[n].target = NULL;
	return bad ? -1 : n;
}

static int
row_end(const struct args_option *r)
{
	return r->letter == 0 && r->name == NULL;
}

/*
 * A command's own row's default: cmd_parse() stores it for a count
 * (args_set_count); any other setter would never see it.
 */
static int
own_rows_check(const struct cmd_entry *e, char **cause)
{
	const struct cmd_rows		*t;
	const struct args_option	*r;
	char				 names[64];

	for (t = e->rows; t->rows != NULL || t->phases ||
	    t->scope != SCOPE_NONE; t++)
		for (r = t->rows; r != NULL && !row_end(r); r++)
			if (r->def != 0 && r->set != args_set_count) {
				args_names(names, sizeof(names), r);
				return errorf(cause, "command %s: option %s: a "
				    "default its setter ignores (only a count's "
				    "is stored; a setting's is its row's in the "
				    "settings table)", e->spec.command != NULL ?
				    e->spec.command : "run", names);
			}
	return 0;
}

/* Store the default of each of a command's own counts in its state. */
static void
own_defaults(const struct cmd_entry *e, void *state)
{
	const struct cmd_rows		*t;
	const struct args_option	*r;

	for (t = e->rows; t->rows != NULL || t->phases ||
	    t->scope != SCOPE_NONE; t++)
		for (r = t->rows; r != NULL && !row_end(r); r++)
			if (r->set == args_set_count)
				*(uint64_t *)(void *)((char *)state + t->off +
				    r->slot) = r->def;
}

int
cmd_tables_check(const struct cmd_entry *const *cmds, char **cause)
{
	struct args_table	t[CMD_MAX_TABLES];
	int			i;

	for (i = 0; cmds[i] != NULL; i++) {
		if (cmd_tables(cmds[i], phase_table, NULL, t) == -1)
			return errorf(cause, "command %s: more than %d tables "
			    "of option rows", cmds[i]->spec.command != NULL ?
			    cmds[i]->spec.command : "run", CMD_MAX_TABLES - 1);
		if (own_rows_check(cmds[i], cause) == -1)
			return -1;
	}
	return 0;
}

enum args_result
cmd_parse(const struct cmd_entry *e, int argc, char **argv, void *state,
    char **files, int *nfiles, char **cause)
{
	struct args_table	t[CMD_MAX_TABLES];

	e->init(state, argc, argv);
	own_defaults(e, state);
	*nfiles = 0;
	if (cmd_tables(e, phase_table, state, t) == -1)
		return errorf(cause, "too many tables of option rows");
	return args_parse(&e->spec, t, argc, argv, files, nfiles, cause);
}

void
cmd_entry_usage(FILE *f, const char *prefix, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	(void)cmd_tables(e, phase_table, NULL, t);
	args_usage(f, prefix, &e->spec, t);
}

void
cmd_entry_help(FILE *f, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	(void)cmd_tables(e, phase_table, NULL, t);
	args_help(f, t);
}

int
cmd_line_asks(int argc, char **argv, const char *name)
{
	size_t	n;
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		n = strcspn(argv[i] + 2, "=");
		if (n >= 3 && strncmp(argv[i] + 2, name, n) == 0)
			return 1;
	}
	return 0;
}
