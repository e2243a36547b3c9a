/*
 * What every command shares: its row tables put together (the phases'
 * rows included), the parse into a fresh state, its usage and help.
 */
#include <stdio.h>

#include "args.h"
#include "commands.h"
#include "phase.h"

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

void
cmd_entry_usage(FILE *f, const char *prefix, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	cmd_tables(e, phase_table, NULL, t);
	args_usage(f, prefix, &e->spec, t);
}

void
cmd_entry_help(FILE *f, const struct cmd_entry *e)
{
	struct args_table	t[CMD_MAX_TABLES];

	cmd_tables(e, phase_table, NULL, t);
	args_help(f, t);
}
