/*
 * The table of every command, above the commands (include/commands.h has
 * what they share).
 */
#ifndef BONNIE_CMD_H
#define BONNIE_CMD_H

#include <stdio.h>

#include "commands.h"

/* Every command, the default (run) first, NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];

/* The command named name, or NULL. */
const struct cmd_entry *cmd_find(const char *name);
/*
 * The entry that argv[1] calls for: a command by its name, the default
 * (run) when argv[1] is an option or absent (*shift 0), or NULL with the
 * refusal in *cause when it is a word that names no command: "'vmm' is
 * not a command (compare, report, sweep, pp, vm; without one, the
 * benchmark runs)", the names from the table.
 */
const struct cmd_entry *cmd_pick(int argc, char **argv, int *shift,
	    char **cause);
/*
 * That refusal for word, -1 (a word where run's options belong too; a
 * command's name there is told to come first).
 */
int	cmd_not_command(const char *word, char **cause);

/*
 * The usage of one command; for the default command, of every command
 * (the man page's SYNOPSIS).  Then, for cmd_help, the option rows.
 */
void	cmd_usage(FILE *, const struct cmd_entry *);
void	cmd_help(FILE *, const struct cmd_entry *);

#endif
