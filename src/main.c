/*
 * bonnie-ng: options, then the run, then the report.  Everything else is
 * in the library so the tests can link it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"
#include "options.h"
#include "outfile.h"
#include "phase.h"
#include "platform.h"
#include "record.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "sysinfo.h"
#include "team.h"
#include "timer.h"

static void __attribute__((noreturn))
die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Print "bonnie-ng: message" as exactly one line: control characters
 * that came in with a value or a path are shown escaped.
 */
static void
print_error(const char *msg)
{
	const unsigned char	*p;

	fputs("bonnie-ng: ", stderr);
	for (p = (const unsigned char *)msg; *p != '\0'; p++) {
		if (*p == '\n')
			fputs("\\n", stderr);
		else if (*p == '\t')
			fputs("\\t", stderr);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputc('\n', stderr);
}

static void
die(int status, const char *fmt, ...)
{
	va_list	ap;
	char	msg[2048];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Over MPI every rank would say the same: rank 0 says it. */
	if (team_rank() == 0)
		print_error(msg);
	exit(status);
}

static int
subcommand(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **, char **);
	} cmds[] = {
		{ "compare", cmd_compare },
		{ "report", cmd_report },
		{ "sweep", cmd_sweep },
	};
	char	*cause = NULL;
	size_t	 i;
	int	 status;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name) != 0)
			continue;
		status = cmds[i].fn(argc - 1, argv + 1, &cause);
		if (cause != NULL)
			print_error(cause);
		free(cause);
		return status;
	}
	return -1;
}

/* Write the record to a file (--json), even after a failure. */
static void
write_json_file(const char *path, const struct record *rec)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		die(1, "--json: %s: %s", path, strerror(errno));
	if (record_write_json(f, rec) == -1 || fclose(f) == EOF)
		die(1, "--json: %s: %s", path, strerror(errno));
}

int
main(int argc, char **argv)
{
	struct options		 opt;
	struct run_result	*runs;
	struct sysinfo		*si = NULL;
	struct record		 rec;
	char			*cause = NULL;
	int			 i, usage, status = 0, done = 0, sig, leader, left = 0;

	if (std_fds_open() == -1)
		return 1;	/* Nowhere safe to say so. */
	if (argc > 1 && (i = subcommand(argc, argv)) != -1)
		return i;
	/* MPI (bonnie-ng-mpi): every rank runs this; rank 0 reports. */
	if (team_init(&argc, &argv) == -1)
		die(1, "cannot start MPI");
	leader = team_rank() == 0;
	if (phase_table_check(&cause) == -1)
		die(1, "internal error: %s", cause);

	options_defaults(&opt);
	opt.argc = argc;
	opt.argv = argv;
	switch (options_parse(argc, argv, &opt, &cause)) {
	case OPTIONS_HELP:
		fputs(options_usage, stdout);
		return 0;
	case OPTIONS_VERSION:
		printf("bonnie-ng %s\n", BONNIE_NG_VERSION);
		return 0;
	case -1:
		die(2, "%s", cause);
	}
	if (team_ranks() > 1 && opt.jobs > 1)
		die(2, "invalid value for -j, --jobs: one worker per MPI rank "
		    "(run more ranks instead)");
	if (opt.label == NULL)
		opt.label = options_default_label();
	if (!opt.seed_given)
		/* 53 bits, so the record's readers keep it exact. */
		opt.seed = (time_now().ns ^ ((uint64_t)getpid() << 32)) &
		    ((UINT64_C(1) << 53) - 1);
	if (opt.ram == 0)
		opt.ram = platform_ram();
	if (run_preflight(&opt, &usage, &cause) == -1)
		die(usage ? 2 : 1, "%s", cause);
	/* Over MPI the workers are the ranks, one file each. */
	if (team_ranks() > 1)
		opt.jobs = team_ranks();

	if (!leader)
		opt.quiet = 1;
	if (!opt.quiet && opt.size != opt.size_asked)
		fprintf(stderr, "bonnie-ng: note: size rounded down to %llu "
		    "KiB, a whole number of %zu-byte chunks\n",
		    (unsigned long long)(opt.size >> 10), opt.chunk);
	if (!opt.quiet && opt.cache == CACHE_MODE_KEEP && opt.ram > 0 &&
	    opt.size < 2 * opt.ram)
		fprintf(stderr, "bonnie-ng: note: the %llu MiB file is "
		    "smaller than twice RAM (%.1f GiB): with --cache=keep the "
		    "results include the page cache\n",
		    (unsigned long long)(opt.size >> 20),
		    (double)opt.ram / (1u << 30));

	if (sysinfo_collect(opt.dir, &si, &cause) == -1)
		die(1, "%s", cause);
	run_signals_install();
	run_set_progress(opt.quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1);

	runs = xcalloc((size_t)opt.repeat, sizeof(*runs));
	memset(&rec, 0, sizeof(rec));
	rec.opt = &opt;
	rec.sys = si;
	rec.runs = runs;
	for (i = 0; i < opt.repeat; i++) {
		struct options	one = opt;

		done = i + 1;
		one.seed = run_seed(opt.seed, i);
		if (!opt.quiet && opt.repeat > 1)
			fprintf(stderr, "bonnie-ng: run %d of %d\n", i + 1,
			    opt.repeat);
		if (run_team(&one, &runs[i], !opt.quiet) == -1) {
			status = 1;
			break;
		}
	}
	rec.nruns = done;
	for (i = 0; i < done; i++)
		left |= runs[i].file_left;
	memcpy(rec.start_utc, runs[0].start_utc, sizeof(rec.start_utc));

	if (opt.json_path != NULL && leader)
		write_json_file(opt.json_path, &rec);
	if (status == 0 && leader) {
		switch (opt.format) {
		case OUT_TEXT:
			status = report_write_text(stdout, &rec, opt.latency);
			break;
		case OUT_CSV:
			status = record_write_csv(stdout, &rec);
			break;
		case OUT_JSON:
			status = record_write_json(stdout, &rec);
			break;
		}
		if (status == -1 || fflush(stdout) == EOF)
			die(1, "standard output: %s", strerror(errno));
	}
	sysinfo_free(si);
	for (i = 0; i < done; i++)
		run_result_free(&runs[i]);

	/*
	 * Rank 0 speaks before MPI_Finalize: no rank can end, and have
	 * mpirun stop the job, before it has.
	 */
	if ((sig = runs[done - 1].interrupted) != 0) {
		if (leader && opt.jobs > 1)
			fprintf(stderr, "bonnie-ng: interrupted by %s; test "
			    "files removed\n", signal_name(sig));
		else if (leader)
			fprintf(stderr, "bonnie-ng: interrupted by %s%s\n",
			    signal_name(sig), runs[done - 1].file_removed ?
			    "; test file removed" : "");
		team_finish();
		free(runs);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (status != 0 && leader)
		print_error(runs[done - 1].err.message);
	else if (left)
		status = 1;	/* Said with its path by the run. */
	team_finish();
	free(runs);
	free(cause);
	return status;
}
