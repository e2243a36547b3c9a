/*
 * One benchmark phase.  Each src/phase-*.c exports one const struct phase
 * that holds every fact about the phase: its name, words, column, unit,
 * colour and flags as well as its code.  include/phase-list.h lists the
 * phases in the order they run; the phase table, enum phase_id and the
 * result arrays (indexed by phase id) are made from that list, and every
 * output (the JSON record, compare, report, sweep and its plot) walks the
 * table.  Only the frozen formats, the classic row (report.c), the
 * bonnie++ CSV (record-csv.c, read-csv.c) and pp's lines, choose phases:
 * the six classic ones and the six file creation ones, through
 * classic_columns[] and files_columns[] in report.h, so they never change
 * when a phase is added; even they take each phase's names from its
 * struct (bonnie++'s CSV name is its bonnie_name).
 *
 * To add a phase:
 *  1. write src/phase-NAME.c with its timed loop in one short function and
 *     a const struct phase at the bottom, filled in completely (name,
 *     title, words, column, unit and cost unit when it counts operations,
 *     colour, flags);
 *  2. add PHASE(ID, NAME, ON) to include/phase-list.h where it should
 *     run, ON 0 if it runs only when asked for;
 *  3. if the phase takes an option of its own (say --syncs), declare its
 *     row in the phase's file only, through the struct's options (see
 *     below): the run and sweep commands parse it, print it in their usage
 *     and help, settings_defaults() sets its default, the record keeps it
 *     under "options" and compare lists it when it differs (settings.h);
 *  4. document it: the man page (-p and the phase), doc/RECORD.md, and
 *     doc/schema.json: its key in "$defs/phases" (each run's phases) and
 *     under "summary", its name in "$defs/phase_name" (the options'
 *     "phases" and the sweep's knees), its option's key under "options",
 *     and, if it leaves a version of the file (writer), that name in
 *     found_writer's and want_writer's lists; and add tests.
 * The core does everything else: it opens the file when the flags say so,
 * reads the clocks around run(), drops the cache when the flags say so,
 * and every output shows the phase.  A phase that is not classic prints
 * its own line under the classic row (its column is the line's name).
 *
 * This header is the contract: the struct, its flags and the table.  What
 * the core hands a phase at run time (struct phase_ctx) and the helpers a
 * phase's code calls (phasekit.c) are in phase-ctx.h.
 */
#ifndef BONNIE_PHASE_H
#define BONNIE_PHASE_H

#include <stddef.h>

#include "args.h"
#include "pattern.h"
#include "result.h"

/*
 * Only pointed to here: phase.h does not include options.h, so that the
 * options (their defaults, the -p list) may use the phase table.
 */
struct options;

#define PHASE_VERSION	2

/* Capability flags. */
#define PHASE_WRITES	0x01	/* Writes the file: drop the cache after. */
#define PHASE_READS	0x02	/* Reads the file: drop the cache before. */
#define PHASE_PERCHAR	0x04	/* stdio; stays buffered under --direct. */
#define PHASE_SPAN	0x08	/* Sets its own elapsed span (seekers). */
#define PHASE_WORKERS	0x10	/* Reports its workers' CPU in ctx. */
#define PHASE_OPEN	0x20	/* The core opens ctx->fd (open_flags). */
#define PHASE_FILLS	0x40	/* Writes the whole file from its start:
				   when no such phase runs, the core fills
				   the file before the others. */
#define PHASE_META	0x100	/* Works on its own files (--files), not
				   on the test file. */
#define PHASE_OPS	0x80	/* The rate counts operations per second
				   (unit names them), not KiB/s. */
#define PHASE_WHOLE	0x200	/* Writes every byte of its data once: the
				   test file, or with PHASE_META each file
				   of --files (what a sweep's plan counts). */
#define PHASE_LOOKS	0x400	/* Looks names up and reads inodes (stat,
				   unlink): --cache=global drops every
				   cache before it, as before a reader. */

/* What the core hands a phase (phase-ctx.h). */
struct phase_ctx;

struct phase {
	int		 version;	/* PHASE_VERSION */
	const char	*name;		/* "putc": the command line, the record's
					   key, compare's column names. */
	const char	*title;		/* "Writing with putc()": progress. */
	const char	*words;		/* "per-char write": tables, knees. */
	const char	*column;	/* The classic header's column title
					   ("-Per Char-"), or for a phase not
					   in the classic row the name of its
					   own line ("Sync"). */
	const char	*bonnie_name;	/* bonnie++'s name of its pair in
					   the CSV ("put_block", with
					   "put_block_cpu" and
					   "put_block_latency"); NULL for a
					   phase bonnie++ has not. */
	const char	*unit;		/* With PHASE_OPS, what one operation
					   is, plural: "seeks" (seeks/sec);
					   NULL for KiB/s. */
	const char	*cost_unit;	/* With PHASE_OPS, the unit of its CPU
					   cost per thousand: "s/kseek" (the
					   others' is s/GiB). */
	const char	*colour;	/* "#9467bd": its lines in plots. */
	unsigned	 flags;
	enum pattern_writer writer;	/* PHASE_WRITES over the whole file:
					   the version it leaves (pattern.h). */
	int		 open_flags;	/* With PHASE_OPEN, the core opens
					   ctx->fd with these (and O_DIRECT
					   under --direct) before setup. */
	int		(*setup)(struct phase_ctx *);	/* Optional. */
	int		(*run)(struct phase_ctx *);	/* Timed. */
	void		(*teardown)(struct phase_ctx *); /* Optional. */
	/*
	 * Optional: the phase's own option rows (include/args.h), ended by
	 * ARGS_END.  The run and sweep commands take them after their own.
	 * A row is a long ARGS_VALUE option with .set = args_set_count,
	 * .slot = OPTIONS_PHASE_ARG(PH_NAME, the phase's id) (options.h), and .def,
	 * .min and .max; its value is in ctx->opt->phase_arg[id], the
	 * default when not given.  For example, in src/phase-NAME.c:
	 *
	 *	static const struct args_option name_rows[] = {
	 *		OPT_COUNT(0, "things", "count", OPTIONS_PHASE_ARG(PH_NAME),
	 *		    1000, 1, 1000000, "at most count things in NAME"),
	 *		ARGS_END
	 *	};
	 *
	 * and .options = name_rows in its struct phase.  options.c fills in
	 * the defaults from the phase table, so a phase reads its options'
	 * fields but calls nothing in options.c (that would be a cycle).
	 */
	const struct args_option *options;
};

#define PHASE(id, sym, on)	extern const struct phase phase_##sym;
#include "phase-list.h"
#undef PHASE

/* The phases in the order they run, indexed by id, NULL-terminated. */
extern const struct phase *const phase_table[PH_COUNT + 1];

/*
 * Check the table once at start: versions, every fact filled in, names
 * and colours unique.  (The order and the length are checked when
 * compiling.)  0 or -1 with the cause.
 */
int	phase_table_check(char **cause);
/* No two phases of the table with one colour (the plot tells them apart). */
int	phase_colours_check(const struct phase *const *, char **cause);
/* The phase with this name, or NULL. */
const struct phase *phase_by_name(const char *);
/* Its id, or -1 for no such phase. */
int	phase_id_by_name(const char *);
/* The phase's name ("putc"); "unknown" out of range. */
const char *phase_id_name(enum phase_id);

/* Units of a phase's rate, as each output spells them. */
enum phase_unit_style {
	UNIT_TABLE,		/* "K/sec", "seeks/sec": sweep tables. */
	UNIT_SHORT,		/* "K/sec", "/sec": compare, report. */
	UNIT_RECORD		/* "KiB/s", "seeks/s": JSON record, plots. */
};
/* The unit in buf, which it returns. */
const char *phase_unit(const struct phase *, enum phase_unit_style,
	    char *buf, size_t len);

/* The mask of the phases with all of these flags. */
unsigned phase_flag_mask(unsigned flags);
/*
 * A comma-separated list of phase names, or "all" (-p, sweep --phases), as
 * a mask of phase ids.  0, or -1 with the reason in *why.
 */
int	phases_parse(const char *, unsigned *mask, char **why);
/* "putc, write, ...": the names of the table's phases, for messages. */
void	phase_names(char *, size_t);
/*
 * Set each phase option of the table's phases to its row's default, in o
 * (a struct options: the rows' slots are byte offsets in it).
 */
void	phase_option_defaults(const struct phase *const *, void *o);

#endif
