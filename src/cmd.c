/*
 * The command table, and what every command shares: its row tables put
 * together (the phases' rows included), the parse into a fresh state, the
 * usage and the help.
 */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "phase.h"

/* The default command first; main.c falls back to it. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_compare_entry,
	&cmd_report_entry,
	&cmd_sweep_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	int	i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i]->spec.command != NULL &&
		    strcmp(cmd_table[i]->spec.command, name) == 0)
			return cmd_table[i];
	return NULL;
}

void
cmd_tables(const struct cmd_entry *e, const struct phase *const *phases,
    void *state, struct args_table *out)
{
	const struct cmd_rows	*r;
	void			*target;
	int			 n = 0, i;

	for (r = e->rows; r->rows != NULL || r->phases; r++) {
		target = state != NULL ? (char *)state + r->off : NULL;
		if (!r->phases) {
			if (n < CMD_MAX_TABLES - 1) {
				out[n].rows = r->rows;
				out[n++].target = target;
			}
			continue;
		}
		for (i = 0; phases[i] != NULL; i++) {
			if (phases[i]->options == NULL ||
			    n >= CMD_MAX_TABLES - 1)
				continue;
			out[n].rows = phases[i]->options;
			out[n++].target = target;
		}
	}
	out[n].rows = NULL;
	out[n].target = NULL;
}

enum args_result
cmd_parse(const struct cmd_entry *e, int argc, char **argv, void *state,
    char **files, int *nfiles, char **cause)
{
	struct args_table	t[CMD_MAX_TABLES];

	e->init(state, argc, argv);
	cmd_tables(e, phase_table, state, t);
	return args_parse(&e->spec, t, argc, argv, files, nfiles, cause);
}

static void
usage_one(FILE *f, const char *prefix, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	cmd_tables(e, phase_table, NULL, t);
	args_usage(f, prefix, &e->spec, t);
}

void
cmd_usage(FILE *f, const struct cmd_entry *e)
{
	int	i;

	usage_one(f, "usage: ", e);
	if (e->spec.command != NULL)
		return;
	for (i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i] != e)
			usage_one(f, "       ", cmd_table[i]);
}

void
cmd_help(FILE *f, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	cmd_usage(f, e);
	fputc('\n', f);
	cmd_tables(e, phase_table, NULL, t);
	args_help(f, t);
}
