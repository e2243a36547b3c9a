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
 * The usage of one command; for the default command, of every command
 * (the man page's SYNOPSIS).  Then, for cmd_help, the option rows.
 */
void	cmd_usage(FILE *, const struct cmd_entry *);
void	cmd_help(FILE *, const struct cmd_entry *);

#endif
