/*
 * The command table, and the usage of every command that the default
 * command's help prints.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "commands.h"
#include "error.h"

/* The default command first; main.c falls back to it. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_compare_entry,
	&cmd_history_entry,
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

int
cmd_not_command(const char *word, char **cause)
{
	char	names[256];
	size_t	used = 0;
	int	i;

	if (cmd_find(word) != NULL)
		return errorf(cause, "'%s' is a command, and comes first: "
		    "bonnie-ng %s [options]", word, word);
	names[0] = '\0';
	for (i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i]->spec.command != NULL && used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) -
			    used, "%s%s", used > 0 ? ", " : "",
			    cmd_table[i]->spec.command);
	return errorf(cause, "'%s' is not a command (%s; without one, the "
	    "benchmark runs: see bonnie-ng --help)", word, names);
}

const struct cmd_entry *
cmd_pick(int argc, char **argv, int *shift, char **cause)
{
	const struct cmd_entry	*e;

	*shift = 0;
	if (argc < 2 || argv[1][0] == '-')
		return cmd_table[0];
	if ((e = cmd_find(argv[1])) != NULL) {
		*shift = 1;
		return e;
	}
	cmd_not_command(argv[1], cause);
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
