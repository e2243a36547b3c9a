/*
 * The command table, and the usage of every command that the default
 * command's help prints.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "commands.h"

/* The default command first; main.c falls back to it. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_compare_entry,
	&cmd_report_entry,
	&cmd_sweep_entry,
	&cmd_pp_entry,
	&cmd_vm_entry,
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
cmd_usage(FILE *f, const struct cmd_entry *e)
{
	int	i;

	cmd_entry_usage(f, "usage: ", e);
	if (e->spec.command != NULL)
		return;
	for (i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i] != e)
			cmd_entry_usage(f, "       ", cmd_table[i]);
}

void
cmd_help(FILE *f, const struct cmd_entry *e)
{
	cmd_usage(f, e);
	fputc('\n', f);
	cmd_entry_help(f, e);
}
