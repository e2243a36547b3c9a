/*
 * Subcommands: "bonnie-ng compare", "bonnie-ng report", "bonnie-ng sweep".
 * Each takes the arguments after its name (argv[0] is the subcommand),
 * prints its own output on stdout, and returns the exit status.  A final
 * error message, if any, is handed back in *cause for main.c to print.
 */
#ifndef BONNIE_COMMANDS_H
#define BONNIE_COMMANDS_H

int	cmd_compare(int argc, char **argv, char **cause);
int	cmd_report(int argc, char **argv, char **cause);
int	cmd_sweep(int argc, char **argv, char **cause);

#endif
