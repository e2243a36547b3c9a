/*
 * The benchmark, the default command: its option rows (the settings
 * table's, settings.h: those a sweep shares and those of a single run),
 * its own checks and its report; bench.c runs the benchmark.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "options.h"
#include "record.h"
#include "report.h"
#include "settings.h"
#include "team.h"

/* What a sweep shares, what only a single run takes, and the phases'. */
static const struct cmd_rows run_rows[] = {
	{ .scope = SCOPE_BENCH },
	{ .scope = SCOPE_RUN },
	{ .phases = 1 },		/* The phases' own rows. */
	CMD_ROWS_END
};

static void
run_init(void *state, int argc, char **argv)
{
	struct options	*o = state;

	settings_defaults(o);
	o->argc = argc;
	o->argv = argv;
}

enum args_result
cmd_run_parse(int argc, char **argv, struct options *o, char **cause)
{
	enum args_result	  r;
	char			**files;
	int			  n;

	files = xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(*files));
	r = cmd_parse(&cmd_run_entry, argc, argv, o, files, &n, cause);
	free(files);
	if (r == ARGS_OK && options_check(o, cause) == -1)
		r = ARGS_ERROR;
	return r;
}

static int
write_report(const struct options *o, const struct record *rec)
{
	switch (o->format) {
	case OUT_TEXT:
		if (report_write_text(stdout, rec, o->latency) == -1)
			return -1;
		return o->kernel ? report_write_kernel(stdout, rec) : 0;
	case OUT_CSV:
		return record_write_csv(stdout, rec);
	case OUT_JSON:
		return record_write_json(stdout, rec);
	}
	return -1;
}

static int
run_report(const struct options *o, const struct record *rec, void *arg)
{
	(void)arg;
	return write_report(o, rec);
}

static int
run_exec(void *state, int nfiles, char **files, char **cause)
{
	struct options		*o = state;
	struct cmd_run_out	 out;

	(void)nfiles;
	(void)files;
	if (options_check(o, cause) == -1)
		return CMD_USAGE;
	if (team_ranks() > 1 && o->device != NULL) {
		errorf(cause, "--device: one process only, not one per MPI "
		    "rank");
		return CMD_USAGE;
	}
	if (team_ranks() > 1 && o->lock_arg != NULL) {
		errorf(cause, "--lock-mem: not under MPI, where each rank would "
		    "lock its own (lock the memory on each host instead)");
		return CMD_USAGE;
	}
	/* --json -: the record on standard output, in the report's place. */
	if (o->json_path != NULL && strcmp(o->json_path, "-") == 0) {
		if (o->format == OUT_CSV) {
			errorf(cause, "--json -: standard output carries the "
			    "CSV report (-o csv); name a file");
			return CMD_USAGE;
		}
		o->format = OUT_JSON;
		o->json_path = NULL;
	}
	memset(&out, 0, sizeof(out));
	out.progress = o->quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1;
	out.notes = !o->quiet;
	out.report = run_report;
	/* A failed run's JSON record on stdout too: it is the evidence. */
	out.report_failed = o->format == OUT_JSON;
	return cmd_run_series(o, &out, cause);
}

const struct cmd_entry cmd_run_entry = {
	.spec = { .command = NULL },	/* The default command. */
	.rows = run_rows,
	.size = sizeof(struct options),
	.init = run_init,
	.exec = run_exec,
	.flags = CMD_TEAM,
};
