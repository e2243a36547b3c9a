/*
 * One parser for the options of every command, in the manner of git's
 * parse-options and tmux's args_parse().
 *
 * A command describes its options as rows: a short and a long name, the
 * kind of argument, the function that checks the value and stores it, and
 * one line of help.  args_parse() reads any command line against a list
 * of row tables, each with the object its rows store into; the usage and
 * the help are printed from the same rows, so they cannot drift from the
 * parser.
 *
 * To add an option of the benchmark (run, sweep): add its row to the
 * settings table (include/settings.h, src/settings.c), which makes the
 * rows of run and sweep; a value only one phase uses is a row of that
 * phase's (include/phase.h); an option of another command is a row of
 * that command's own table.  A setter calls the value's check in
 * options.c.  Document it in man/bonnie-ng.1 (tests/t-man.sh and
 * tests/t-args.sh compare the two).
 *
 * Phase rows: a phase may carry its own rows (struct phase's options).
 * Commands that run phases (run and sweep) list them with a cmd_rows
 * entry whose phases is set (see commands.h); such a row's value lands in
 * the options' per-phase slot o->phase_arg[id] (its slot is
 * OPTIONS_PHASE_ARG(id), a byte offset), its default is row->def (set by
 * settings_defaults()), and args_set_count() checks it against the row's
 * min and max.
 */
#ifndef BONNIE_ARGS_H
#define BONNIE_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum args_kind {
	ARGS_FLAG,		/* No value: -q, --quiet. */
	ARGS_VALUE,		/* A value: -s 4g, -s4g, --size 4g, --size=4g. */
	ARGS_OPTIONAL,		/* A value only after "=" or glued on:
				   --verify, --verify=fatal; -f, -f10. */
	ARGS_HELP,		/* Stop: print the help (-h, --help). */
	ARGS_VERSION,		/* Stop: print the version (-V, --version). */
	ARGS_MARK		/* No value: a mark among the operands where
				   it stands (compare's --vs), args_mark. */
};

/* What an ARGS_MARK row puts among the operands: compare the pointer. */
extern const char args_mark[];

struct args_option;

/*
 * Check a value (NULL for a flag) and store it in target.  Returns 0, or
 * -1 with the reason in *why, one line that names the value as given; the
 * parser puts "invalid value for -s, --size: " in front of it.
 */
typedef int (*args_set_fn)(void *target, const struct args_option *,
    const char *value, char **why);

struct args_option {
	int		 letter;	/* Short name, or 0. */
	const char	*name;		/* Long name, or NULL. */
	enum args_kind	 kind;
	const char	*value;		/* The value in the usage: "size". */
	args_set_fn	 set;		/* NULL for ARGS_HELP, ARGS_VERSION. */
	int		 slot;		/* For set(): e.g. a phase id. */
	uint64_t	 def;		/* The default: a phase's or a command's
					   count's (stored before the parse),
					   or a setting's (settings.h); */
	uint64_t	 min, max;	/* args_set_count's range. */
	const char	*help;		/* One line for --help. */
};
/*
 * A row of each kind, in the manner of git's OPT_BOOL and OPT_INTEGER:
 * the kind names the fields that matter, and the others are 0.  A row
 * that fits none is written out with its fields named (.letter = ...).
 *
 * OPT_FLAG: sets the int at byte offset off of the target to 1.
 * OPT_STRING: keeps the value, a const char *, at byte offset off.
 * OPT_COUNT: a whole number in [lo, hi] at byte offset off (a uint64_t),
 * def when not given.
 * OPT_VALUE, OPT_OPTIONAL: a value that set checks and stores; def is the
 * default it is documented with (a setting's, settings.h), or 0.
 */
#define OPT_FLAG(l, n, off, h)						\
	{ .letter = (l), .name = (n), .kind = ARGS_FLAG,		\
	  .set = args_set_flag, .slot = (off), .help = (h) }
#define OPT_STRING(l, n, v, off, h)					\
	{ .letter = (l), .name = (n), .kind = ARGS_VALUE, .value = (v),	\
	  .set = args_set_string, .slot = (off), .help = (h) }
#define OPT_COUNT(l, n, v, off, d, lo, hi, h)				\
	{ .letter = (l), .name = (n), .kind = ARGS_VALUE, .value = (v),	\
	  .set = args_set_count, .slot = (off), .def = (d), .min = (lo),	\
	  .max = (hi), .help = (h) }
#define OPT_VALUE(l, n, v, fn, d, h)					\
	{ .letter = (l), .name = (n), .kind = ARGS_VALUE, .value = (v),	\
	  .set = (fn), .def = (d), .help = (h) }
#define OPT_OPTIONAL(l, n, v, fn, h)					\
	{ .letter = (l), .name = (n), .kind = ARGS_OPTIONAL, .value = (v),	\
	  .set = (fn), .help = (h) }
#define OPT_HELP(l, n, h)						\
	{ .letter = (l), .name = (n), .kind = ARGS_HELP, .help = (h) }
#define OPT_MARK(n, h)							\
	{ .name = (n), .kind = ARGS_MARK, .help = (h) }
#define OPT_VERSION(l, n, h)						\
	{ .letter = (l), .name = (n), .kind = ARGS_VERSION, .help = (h) }

/* A row table ends with a row that has neither name. */
#define ARGS_END	{ .letter = 0, .name = NULL }

/* A table of rows and the object its setters store into. */
struct args_table {
	const struct args_option *rows;
	void			 *target;
};

/* What args_parse() found; the error is a named outcome of its own. */
enum args_result {
	ARGS_ERROR = -1,	/* Bad command line: *cause says why. */
	ARGS_OK = 0,		/* Parsed: go on. */
	ARGS_SHOW_HELP,		/* -h or --help was given. */
	ARGS_SHOW_VERSION,	/* -V or --version was given. */
	ARGS_SHOW_USAGE		/* Too few operands: *cause, then usage. */
};

/* How a command's command line looks, for the parser and the usage. */
struct args_spec {
	const char	*command;	/* "sweep", or NULL for the default. */
	const char	*operands;	/* "base new [new ...]", or NULL. */
	int		 lower, upper;	/* Operand count; upper -1: any. */
	const char	*required;	/* A long option that must be given,
					   or NULL. */
	const char	*missing;	/* The message when it is not. */
};

/*
 * Parse argv[1 .. argc-1] against the tables (the last has rows NULL).
 * Options and operands may come in any order; "--" ends the options and
 * "-" is an operand.  Short flags group ("-qf"), a short option's value may
 * be attached ("-s4g"), a long one's may follow "=", and a long name may be
 * cut to any unambiguous prefix.  The operands are stored, in order, in
 * operands[] (room for argc) and counted in *noperands.  A refusal is one
 * line in *cause, prefixed with the command's name for a subcommand.  An
 * operand past the spec's upper is refused where it stands (before a later
 * --help) and left at operands[*noperands], for the caller's words.
 */
enum args_result args_parse(const struct args_spec *,
	    const struct args_table *, int argc, char **argv,
	    char **operands, int *noperands, char **cause);

/*
 * Print the usage, as in the man page's SYNOPSIS, starting with prefix
 * ("usage: " or its width in spaces), wrapped at 80 columns.
 */
void	args_usage(FILE *, const char *prefix, const struct args_spec *,
	    const struct args_table *);
/* Print one line of help per row. */
void	args_help(FILE *, const struct args_table *);

/*
 * Generic setters: args_set_flag sets the int at byte offset row->slot of
 * target to 1; args_set_string stores a non-empty value in the const
 * char * at that offset; args_set_count a whole number in [row->min,
 * row->max] in the uint64_t at that offset.
 */
int	args_set_flag(void *, const struct args_option *, const char *,
	    char **);
int	args_set_string(void *, const struct args_option *, const char *,
	    char **);
int	args_set_count(void *, const struct args_option *, const char *,
	    char **);

/* "-s, --size", "--cache" or "-q": the names of a row, for messages. */
void	args_names(char *, size_t, const struct args_option *);

#endif
