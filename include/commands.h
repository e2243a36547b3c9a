/*
 * Commands as entries, in the manner of tmux's cmd_entry: each command
 * (run, the default; compare; report; sweep) is one const struct cmd_entry
 * with its name and operands, its option row tables, the size and the
 * defaults of its state, and its exec function.  main.c finds the entry
 * (cmd.h), has cmd_parse() read the command line into a fresh state,
 * prints the help, the version or the error (and the usage, when the
 * parser asks for it), and calls exec.
 *
 * This header and src/commands.c are what the commands share, below them;
 * the table of every command is above them, in src/cmd.c (include/cmd.h),
 * so that calls only go down.
 *
 * To add a command: write src/cmd-NAME.c with its rows, its state, its
 * exec and its entry; add the entry to cmd_table[] in src/cmd.c; document
 * it in man/bonnie-ng.1, whose SYNOPSIS must match the usage
 * (tests/t-args.sh checks).
 */
#ifndef BONNIE_COMMANDS_H
#define BONNIE_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "args.h"
#include "lockmem.h"
#include "options.h"
#include "settings.h"

struct phase;
struct sysinfo;

/*
 * The exit status a command ends with: 0, 1 for a failure of the system
 * (or compare's "worse"), 2 for a fault in the command line or the input;
 * a signal ends the process with 128 plus its number.
 */
enum cmd_status {
	CMD_OK = 0,
	CMD_FAIL = 1,
	CMD_USAGE = 2
};
/*
 * git bisect run's statuses besides 0 (good) and 1 (bad), for --bisect
 * (compare's, vm's): this commit cannot be tested, skip it; stop the
 * bisection (a refused command line, the tool's own failure).
 */
#define CMD_BISECT_SKIP		125
#define CMD_BISECT_ABORT	255


/*
 * One of a command's row tables, and where in the command's state its
 * setters store.  With phases set, the table is the rows of every phase
 * in the phase table (each phase's struct phase options), storing into
 * the struct options at off; with a scope, the settings table's option
 * rows of that scope (settings.h), storing there too.  A list ends with
 * rows NULL, phases 0 and scope SCOPE_NONE.
 */
struct cmd_rows {
	const struct args_option *rows;
	int			  phases;
	size_t			  off;
	enum setting_scope	  scope;
};
#define CMD_ROWS_END	{ .rows = NULL, .phases = 0, .scope = SCOPE_NONE }

struct cmd_entry {
	struct args_spec	 spec;		/* Name, operands, ... */
	const struct cmd_rows	*rows;
	size_t			 size;		/* Of the state. */
	/* Fill a zeroed state with the defaults; argv is the whole line. */
	void			(*init)(void *state, int argc, char **argv);
	/* Run on the operands; returns the exit status, *cause the error. */
	int			(*exec)(void *state, int nfiles, char **files,
				    char **cause);
	int			 flags;
	/* Free what the parse or exec left in the state, or NULL. */
	void			(*fini)(void *state);
	/*
	 * The exit status of a refused command line, from what init saw
	 * in it (compare --bisect: 255, so that git bisect run stops), or
	 * NULL: 2.
	 */
	int			(*refused)(const void *state);
};
/*
 * The command runs as a team (include/team.h): main.c calls team_init()
 * before the parse (MPI takes its own arguments out of argv) and
 * team_finish() at the end, and only rank 0 prints an error.
 */
#define CMD_TEAM	0x1
/*
 * A refused command line prints the error, then the usage, on standard
 * error and exits 1, as bonnie++ does (bonnie-ng pp), not 2.
 */
#define CMD_USAGE_EXIT1	0x2
/*
 * After "--", the operands are a run's command line, passed on (bonnie-ng
 * vm's guest): the completion offers run's options there.
 */
#define CMD_RUN_OPERANDS 0x4

extern const struct cmd_entry cmd_run_entry, cmd_compare_entry, cmd_vm_entry,
	    cmd_history_entry, cmd_report_entry, cmd_sweep_entry, cmd_pp_entry;

#define CMD_MAX_TABLES	16

/*
 * A command's row tables, with the given phase table's rows and the
 * settings' where the entry asks for them, and their targets in state
 * (NULL: for printing only).  out has room for CMD_MAX_TABLES; the last
 * has rows NULL.  Returns how many, or -1 (and out empty) when they do
 * not fit: cmd_tables_check() refuses that at start, so that no row is
 * ever lost.
 */
int	cmd_tables(const struct cmd_entry *, const struct phase *const *,
	    void *state, struct args_table *out);
/*
 * cmd_tables() of every command, and their own rows' defaults (only a
 * count's, args_set_count, is stored, by cmd_parse()): 0, or -1 with the
 * cause.
 */
int	cmd_tables_check(const struct cmd_entry *const *, char **cause);

/*
 * Parse a command's line (argv[0] is the program or the command's name)
 * into state, after the entry's init; the operands go to files[] (room
 * for argc).  As args_parse().
 */
enum args_result cmd_parse(const struct cmd_entry *, int argc, char **argv,
	    void *state, char **files, int *nfiles, char **cause);

/*
 * Does a command line ask for the long option name, before any "--", in
 * any form the parser takes (--name, --name=..., a prefix of three
 * letters or more)?  For what init must know before the parse: compare's
 * and vm's --bisect, whose refused line stops git bisect run.
 */
int	cmd_line_asks(int argc, char **argv, const char *name);

/* The usage of one command; then, for cmd_entry_help, its option rows. */
void	cmd_entry_usage(FILE *, const char *prefix, const struct cmd_entry *);
void	cmd_entry_help(FILE *, const struct cmd_entry *);

/*
 * Parse a benchmark command line into o and check it (options_check()).
 * The fuzzers' and tests' way in.
 */
enum args_result cmd_run_parse(int argc, char **argv, struct options *,
	    char **cause);

/*
 * The benchmark driver (src/bench.c), which run, pp and sweep share, from
 * here to the end.
 *
 * The checks of the options against each other (options_check()) and of
 * the target directory (run_preflight()).  Returns CMD_OK, or CMD_USAGE
 * or CMD_FAIL with *cause.
 */
enum cmd_status cmd_run_check(struct options *, char **cause);

/*
 * What every benchmarking command does before its first file, after its
 * own checks: the defaults that depend on the system, cmd_run_check(),
 * the description of the system, and --lock-mem's size and the RAM a run
 * assumes (options_memory()).  Returns CMD_OK, or CMD_USAGE or
 * CMD_FAIL with *cause.
 */
enum cmd_status cmd_run_prepare(struct options *, struct sysinfo **,
	    char **cause);
/*
 * --device: say on stderr, even with -q, what is about to be overwritten
 * (the first o->size bytes of the target held), before the first write.
 */
void	cmd_run_announce(const struct options *, const struct sysinfo *);
/* Then, just before the first file: signals and progress (run.h). */
void	cmd_run_start(int progress);

struct record;

/* How a benchmarking command reports its series of runs. */
struct cmd_run_out {
	int	 progress;	/* 0 none, 1 a line per phase, 2 live. */
	int	 notes;		/* The notes before, the cache line after. */
	int	 report_failed;	/* Report even when a run failed. */
	/* Write the report of rec: 0, or -1 with errno. */
	int	(*report)(const struct options *, const struct record *,
		    void *arg);
	void	*arg;
};

/*
 * The whole benchmark after the command's own checks: cmd_run_prepare(),
 * the --json file, o->repeat runs (run_team()), the report through out,
 * the record, and the end of an interrupted run (the signal raised again).
 * Returns the exit status, with *cause for a failure.
 */
int	cmd_run_series(struct options *, const struct cmd_run_out *,
	    char **cause);

/*
 * Start the --lock-mem helper, if asked for, before the first file and
 * the first phase.  Returns CMD_OK, CMD_USAGE when RLIMIT_MEMLOCK forbids
 * the lock, or CMD_FAIL when the system could not lock (said in *cause).
 */
enum cmd_status cmd_run_lock(const struct options *, struct lockmem *,
	    char **cause);
/*
 * End it and reap it: 1 when it held its lock to the end, 0 when it died
 * before (said on stderr), -1 when there was none.
 */
int	cmd_run_unlock(const struct options *, struct lockmem *);

#endif
