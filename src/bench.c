/*
 * The benchmark driver, shared by the commands that benchmark (run, pp,
 * sweep; declared in commands.h): the checks before the first file
 * (--device's claim, the preflight, the system's description), the
 * --lock-mem helper, the notes, o->repeat runs, the report and the
 * record, and the lines on stderr after them.
 */
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "lockmem.h"
#include "options.h"
#include "outfile.h"
#include "phase-ctx.h"
#include "phase.h"
#include "record.h"
#include "run.h"
#include "setdigest.h"
#include "settings.h"
#include "signals.h"
#include "sysinfo.h"
#include "target.h"
#include "team.h"
#include "text.h"
#include "units.h"

/*
 * --device: claim the target, then fit the size to it: by default the
 * smaller of 1 GiB and the target, never more than the target.
 */
static enum cmd_status
claim_target(struct options *o, char **cause)
{
	const struct target	*t;
	uint64_t		 def = settings_default(SET_SIZE) << 20;

	switch (target_claim(o->device, &t, cause)) {
	case TARGET_OK:
		break;
	case TARGET_REFUSED:
		return CMD_USAGE;
	case TARGET_FAILED:
		return CMD_FAIL;
	}
	if (!o->size_given)
		o->size_asked = t->size < def ? t->size : def;
	else if (o->size_asked > t->size) {
		errorf(cause, "invalid value for -s, --size: %llu MiB is more "
		    "than the %llu MiB of %s", (unsigned long long)
		    (o->size_asked >> 20), (unsigned long long)(t->size >> 20),
		    o->device);
		return CMD_USAGE;
	}
	return options_check(o, cause) == -1 ? CMD_USAGE : CMD_OK;
}

enum cmd_status
cmd_run_check(struct options *o, char **cause)
{
	enum cmd_status	st;

	if (options_check(o, cause) == -1)
		return CMD_USAGE;
	if (o->device != NULL && (st = claim_target(o, cause)) != CMD_OK)
		return st;
	switch (run_preflight(o, cause)) {
	case PREFLIGHT_OK:
		break;
	case PREFLIGHT_OPTIONS:
		return CMD_USAGE;
	case PREFLIGHT_SYSTEM:
		return CMD_FAIL;
	}
	return CMD_OK;
}

enum cmd_status
cmd_run_prepare(struct options *o, struct sysinfo **si, char **cause)
{
	enum cmd_status	st;

	options_finish(o);
	if ((st = cmd_run_check(o, cause)) != CMD_OK)
		return st;
	/* A condition of the run, not of the command line: exit 1. */
	if (signals_cpu_limit_check(cause) == -1)
		return CMD_FAIL;
	if (sysinfo_collect(o->device != NULL ? o->device : o->dir, si,
	    cause) == -1)
		return CMD_FAIL;
	if (options_memory(o, (*si)->ram_bytes, (*si)->mem_available,
	    (*si)->cgroup_mem_limit, (*si)->cgroup_mem_room, cause) == -1) {
		sysinfo_free(*si);
		*si = NULL;
		return CMD_USAGE;
	}
	return CMD_OK;
}

enum cmd_status
cmd_run_lock(const struct options *o, struct lockmem *lk, char **cause)
{
	int	limited;

	memset(lk, 0, sizeof(*lk));
	if (o->lock_bytes == 0)
		return CMD_OK;
	if (lockmem_start(lk, o->lock_bytes, &limited, cause) == -1)
		return limited ? CMD_USAGE : CMD_FAIL;
	if (!o->quiet) {
		char	b[32];

		units_ram(b, sizeof(b), o->lock_bytes);
		text_say("--lock-mem: %s locked by process "
		    "%ld for the run", b, (long)lk->pid);
	}
	return CMD_OK;
}

int
cmd_run_unlock(const struct options *o, struct lockmem *lk)
{
	pid_t	pid = lk->pid;
	int	held;

	if (pid == 0)
		return -1;
	if ((held = lockmem_end(lk)) == 0) {
		if (WIFSIGNALED(lk->status))
			text_say("warning: the --lock-mem "
			    "helper (process %ld) was killed by signal %d "
			    "during the run: the memory was not locked to the "
			    "end", (long)pid, WTERMSIG(lk->status));
		else
			text_say("warning: the --lock-mem "
			    "helper (process %ld) ended during the run: the "
			    "memory was not locked to the end", (long)pid);
	} else if (lk->late && lk->stop_sig != 0)
		text_say("warning: the --lock-mem helper "
		    "(process %ld) was stopped by %s; killed", (long)pid,
		    signal_name(lk->stop_sig));
	else if (lk->late)
		text_say("warning: the --lock-mem helper "
		    "(process %ld) did not end within 5 s of the run; killed",
		    (long)pid);
	(void)o;
	return held;
}

void
cmd_run_start(int progress)
{
	run_signals_install();
	run_set_progress(progress);
}

static void
notes(const struct options *o)
{
	if (o->quiet)
		return;
	if (o->size != o->size_asked)
		text_say("note: size rounded down to %llu "
		    "KiB, a whole number of %zu-byte chunks",
		    (unsigned long long)(o->size >> 10), o->chunk);
	if (o->cache == CACHE_MODE_KEEP && o->ram > 0 && o->size < 2 * o->ram)
		text_say("note: the %llu MiB file is "
		    "smaller than twice RAM (%.1f GiB): with --cache=keep the "
		    "results include the page cache",
		    (unsigned long long)(o->size >> 20),
		    (double)o->ram / (1u << 30));
}

/*
 * --device: what is about to be overwritten, before the first write, on
 * stderr even with -q: the act destroys data, so it is always said.
 */
void
cmd_run_announce(const struct options *o, const struct sysinfo *si)
{
	const struct target	*t = target_held();
	char			 size[64], whole[64];

	if (t == NULL)
		return;
	units_size_words(size, sizeof(size), o->size);
	units_size_words(whole, sizeof(whole), t->size);
	if (t->kind == TARGET_IN_PLACE)
		text_say("--device: overwriting the first %s "
		    "of %s in place (a regular file of %s)", size, t->path,
		    whole);
	else
		text_say("--device: overwriting the first %s "
		    "of %s (device %s, model %s, %s)", size, t->path,
		    si != NULL && si->device.name != NULL ? si->device.name :
		    t->name, si != NULL && si->device.model != NULL ?
		    si->device.model : "unknown", whole);
}

/*
 * The last line on stderr: the cache mode asked for, whether every
 * reading phase ran in it, and the caveat of a virtual machine.
 */
static void
cache_summary(const struct options *o, const struct record *rec)
{
	const struct phase		*p;
	const struct phase_result	*ph;
	char				 warm[256] = "";
	size_t				 used = 0;
	int				 i, k, nread = 0, nwarm = 0;
	const char			*mode;

	for (k = 0; k < rec->nruns; k++)
		for (i = 0; (p = phase_table[i]) != NULL; i++) {
			ph = &rec->runs[k].ph[i];
			if (!ph->ran || !(p->flags & PHASE_READS))
				continue;
			nread++;
			if (ph->cache != CSTATE_WARM)
				continue;
			if (nwarm++ < 4 && used < sizeof(warm))
				used += (size_t)snprintf(warm + used,
				    sizeof(warm) - used, "%s%s", used ? ", " :
				    "", p->name);
			if (rec->nruns > 1 && used < sizeof(warm))
				used += (size_t)snprintf(warm + used,
				    sizeof(warm) - used, " (run %d)", k + 1);
		}
	mode = o->direct ? cache_state_name(CSTATE_DIRECT) :
	    cache_mode_name(o->cache);
	fprintf(stderr, "bonnie-ng: cache: %s", mode);
	if (nread == 0)
		fprintf(stderr, ", no reading phase ran");
	else if (o->cache == CACHE_MODE_KEEP && !o->direct)
		fprintf(stderr, ", left alone: reads may come from memory");
	else if (nwarm == 0)
		fprintf(stderr, ", held for every reading phase");
	else
		fprintf(stderr, ", did not hold for %d of %d reading phases: "
		    "%s%s warm", nwarm, nread, warm, nwarm > 4 ? ", ..." : "");
	/* bonnie-ng vm's guest knows how its host treats the disk. */
	if (rec->sys != NULL && rec->sys->guest != NULL &&
	    rec->sys->guest->disk_cache != NULL &&
	    strcmp(rec->sys->guest->disk_cache, "none") == 0)
		fprintf(stderr, "; a bonnie-ng vm guest: its host does not "
		    "cache the disk (cache=none)");
	else if (rec->sys != NULL && rec->sys->hypervisor == 1)
		fprintf(stderr, "; a virtual machine: its host may cache the "
		    "disk");
	/* Only a buffered run allocates memory to write into. */
	if (rec->sys != NULL && rec->sys->page_reporting == 1 && !o->direct)
		fprintf(stderr, "; free page reporting (order %d) gives the "
		    "memory the run frees back to the host, and buffered "
		    "writes wait for it to come back",
		    rec->sys->page_reporting_order);
	/* Up to 2.5 times the rate of a queued write here (RESULTS.md). */
	if (rec->sys != NULL && rec->sys->halt_poll_ns == 0)
		fprintf(stderr, "; idle vCPUs halt at once (haltpoll "
		    "guest_halt_poll_ns 0): an I/O that completes on a halted "
		    "vCPU waits for the host to wake it");
	fputc('\n', stderr);
}

/*
 * With -x, when any run left the file system with less free space: what
 * each run lost and the drop over the whole series, on one line.
 */
static void
space_trend(const struct options *o, const struct record *rec)
{
	const struct run_result	*r;
	char			 list[256] = "";
	size_t			 used = 0;
	int			 k, leaks = 0, n = 0;
	int64_t			 first = -1, last = -1;

	if (rec->nruns < 2)
		return;
	for (k = 0; k < rec->nruns; k++) {
		r = &rec->runs[k];
		if (r->space_before < 0 || r->space_after < 0)
			continue;
		leaks += r->space_leak != 0;
		if (first < 0)
			first = r->space_before;
		last = r->space_after;
		if (n++ < 8 && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) -
			    used, "%s%lld", used ? ", " : "",
			    (long long)((r->space_before - r->space_after) /
			    (1 << 20)));
	}
	if (leaks == 0)
		return;
	text_say("warning: free space in %s over the %d "
	    "runs: %d lost more than the slack; lost per run %s%s MiB, %lld "
	    "MiB from before the first to after the last", o->dir,
	    rec->nruns, leaks, list, n > 8 ? ", ..." : "",
	    (long long)((first - last) / (1 << 20)));
}

/*
 * A later repeat failed or was stopped: the rows of the runs that had
 * completed are printed all the same (their summary rows over them
 * alone), and a line on stderr says which they are.
 */
static void
partial_report(const struct options *o, const struct record *rec,
    const struct cmd_run_out *out)
{
	struct record	done = *rec;

	done.nruns = rec->nruns - 1;
	if (out->report(o, &done, out->arg) == -1 || fflush(stdout) == EOF) {
		text_say("standard output: %s",
		    strerror(errno));
		return;
	}
	text_say("the rows printed are the %d completed "
	    "run%s of %d; run %d did not complete", done.nruns,
	    done.nruns == 1 ? "" : "s", o->repeat, rec->nruns);
}

/*
 * MPI: every rank's start-up (st, and *cause when it failed) and its
 * settings brought together before the first phase.  The first rank that
 * cannot start is named with its host and its line; ranks whose settings
 * differ from rank 0's are refused with the setting named (the directory
 * may differ).  Returns st, or CMD_USAGE for a disagreement.
 */
static enum cmd_status
agree_ranks(const struct options *o, enum cmd_status st, char **cause)
{
	struct team_disagree	 td;
	uint64_t		 d[SETDIGEST_N];
	char			 name[64];

	if (setdigest_make(o, d) == -1)
		memset(d, 0, sizeof(d));
	if (team_start_agree(st == CMD_OK ? NULL : *cause, d, SETDIGEST_N,
	    &td) == 0)
		return st;
	/* errorf() frees the line before; td holds its own copy. */
	if (td.index >= 0) {
		setdigest_name(td.index, name, sizeof(name));
		errorf(cause, "the ranks differ in %s: rank %d (on %s) has "
		    "another value than rank 0; every rank runs the same "
		    "settings (-d may differ)", name, td.rank, td.host);
	} else
		errorf(cause, "rank %d on %s: %s", td.rank, td.host, td.error);
	return st != CMD_OK ? st : CMD_USAGE;
}

/* A series of runs (-x), from the checks to the exit status. */
struct series {
	struct options		*o;
	const struct cmd_run_out *out;
	struct sysinfo		*si;
	struct run_result	*runs;
	struct record		 rec;
	struct outfile		 jf;
	struct lockmem		 lk;
	int			 leader;	/* Rank 0: it reports. */
	int			 progress, say;
	int			 have_json;
	int			 done;		/* Runs started. */
	int			 status;
	int			 said;		/* *cause set by a write. */
	int			 early;		/* MPI: rank 0 wrote what it had
						   when a signal stopped it. */
	int			 unsaved;	/* A record between phases
						   could not be written. */
};

/*
 * The checks before the first file, the ranks' agreement, the lock and
 * every output file: a bad one is refused before any work.
 */
static enum cmd_status
series_begin(struct series *s, char **cause)
{
	struct options	*o = s->o;
	enum cmd_status	 st;

	/* MPI (bonnie-ng-mpi): every rank runs this; rank 0 reports. */
	s->leader = team_rank() == 0;
	st = cmd_run_prepare(o, &s->si, cause);
	if (team_ranks() > 1 && (st = agree_ranks(o, st, cause)) != CMD_OK)
		goto fail;
	if (st != CMD_OK)
		return st;
	if ((st = cmd_run_lock(o, &s->lk, cause)) != CMD_OK)
		goto fail;
	if (s->leader && o->json_path != NULL &&
	    strcmp(o->json_path, "-") == 0) {
		/* run made it -o json; here the report holds stdout (pp). */
		errorf(cause, "--json -: standard output carries the report; "
		    "name a file");
		st = CMD_USAGE;
		goto unlock;
	}
	if (s->leader && o->json_path != NULL) {
		if (outfile_open(&s->jf, "--json", o->json_path, cause) == -1) {
			st = CMD_USAGE;
			goto unlock;
		}
		s->have_json = 1;
	}
	return CMD_OK;
unlock:
	cmd_run_unlock(o, &s->lk);
fail:
	sysinfo_free(s->si);
	return st;
}

/* The runs, each with its own seed, until one fails. */
/*
 * Before a later repeat, the room for its file again (a leak, a neighbour
 * may have taken it since the preflight): short of it, the run is not
 * started and the series ends as the preflight would have, exit 2, the
 * completed runs' rows printed.  One rank alone (under MPI a rank's
 * refusal would leave the others at the barrier).
 */
static int
series_room(struct series *s, const struct options *one, int i)
{
	struct run_error	*e = &s->runs[i].err;
	char			 when[64], *why = NULL;

	if (team_ranks() > 1)
		return 0;
	snprintf(when, sizeof(when), "before run %d of %d", i + 1,
	    one->repeat);
	if (run_space_check(one, when, &why) == 0)
		return 0;
	e->set = 1;
	e->phase = "setup";
	e->offset = -1;
	snprintf(e->message, sizeof(e->message), "%s", why);
	free(why);
	s->status = CMD_USAGE;
	return -1;
}

static void	series_stopping(void *);
static void	series_checkpoint(void *, enum phase_id);

static void
series_runs(struct series *s)
{
	struct options	*o = s->o;
	int		 i;

	/* Over MPI, -j N workers in each rank: N x ranks in all. */
	if (team_ranks() > 1)
		o->jobs *= team_ranks();
	if (!s->leader) {
		o->quiet = 1;
		s->progress = s->say = 0;
	}
	cmd_run_announce(o, s->si);
	if (s->say)
		notes(o);
	cmd_run_start(s->progress);

	s->runs = xcalloc((size_t)o->repeat, sizeof(*s->runs));
	memset(&s->rec, 0, sizeof(s->rec));
	s->rec.opt = o;
	s->rec.sys = s->si;
	s->rec.runs = s->runs;
	if (s->leader && team_ranks() > 1)
		run_set_stopping(series_stopping, s);
	if (s->have_json)
		run_set_phase_done(series_checkpoint, s);
	for (i = 0; i < o->repeat; i++) {
		struct options	one = *o;

		s->done = i + 1;
		one.seed = run_seed(o->seed, i);
		if (i > 0 && series_room(s, &one, i) == -1)
			break;
		if (s->progress && o->repeat > 1)
			text_say("run %d of %d", i + 1, o->repeat);
		if (run_team(&one, &s->runs[i], s->progress != 0) == -1) {
			s->status = CMD_FAIL;
			break;
		}
	}
	run_set_stopping(NULL, NULL);
	run_set_phase_done(NULL, NULL);
	s->rec.nruns = s->done;
	/* The lock ends with the runs, whichever way they ended. */
	s->rec.lock_held = cmd_run_unlock(o, &s->lk);
	memcpy(s->rec.start_utc, s->runs[0].start_utc,
	    sizeof(s->rec.start_utc));
}

/*
 * The report first, so that a record that cannot be written loses
 * nothing; the record even after a failure (a failed run's JSON record on
 * stdout too: it is the evidence).  The first failure is the final error,
 * a later one a line of its own.
 *
 * The rows and the record are written with the stop signals held: a
 * write to a pipe or a FIFO whose reader is slow is never cut short (the
 * handlers do not restart calls), so nothing is spliced or lost; a signal
 * that came meanwhile acts once both are whole.
 */
static int
put_record(FILE *f, const void *arg)
{
	return record_write_json(f, arg);
}

static void
series_write(struct series *s, int final, char **cause)
{
	const struct cmd_run_out *out = s->out;
	sigset_t		 held;
	char			*why = NULL;

	signals_block(&held);
	/* Rank 0 printed the rows when the signal came (series_stopping). */
	if (s->early)
		;
	else if (s->leader && s->status != CMD_OK && !out->report_failed &&
	    s->done > 1)
		partial_report(s->o, &s->rec, out);
	if (!s->early && s->leader &&
	    (s->status == CMD_OK || out->report_failed) &&
	    (out->report(s->o, &s->rec, out->arg) == -1 ||
	    fflush(stdout) == EOF)) {
		if (s->status != CMD_OK)
			text_say("standard output: %s", strerror(errno));
		else {
			errorf(cause, "standard output: %s", strerror(errno));
			s->status = CMD_FAIL;
			s->said = 1;
		}
	}
	if (s->have_json) {
		/* Early, a file is rewritten whole at the end; a pipe not. */
		if (outfile_replace(&s->jf, put_record, &s->rec, final ||
		    !s->jf.whole, &why) == -1) {
			if (s->status == CMD_OK &&
			    !s->runs[s->done - 1].interrupted) {
				errorf(cause, "%s", why);
				s->status = CMD_FAIL;
				s->said = 1;
			} else
				text_say("%s", why);
			free(why);
		}
	}
	signals_restore(&held);
}

/*
 * After each phase that completed (run_set_phase_done()), between the
 * phases' clocks: the record of what was measured so far, rewritten whole
 * (a temporary renamed into place, as at the end), so that a run that
 * ends without a word (SIGKILL, the OOM killer, under MPI its mpirun
 * killed) leaves a valid record of the phases it finished, never a cut
 * one.  The run under way is marked as a stopped one is, by SIGKILL, the
 * only way this record can be left: its error names the phase it was in
 * and says when the record was written.  The end writes it again (a stop
 * signal on its way: only the end's, or under MPI the stopped record
 * again).  A file only: a pipe gets the record once.
 */
static void
series_checkpoint(void *arg, enum phase_id id)
{
	struct series		*s = arg;
	struct run_result	*r = &s->runs[s->done - 1];
	struct run_error	 err = r->err;
	int64_t			 space[4];
	int			 sig = r->interrupted;
	struct record		 rec = s->rec;
	const char		*next = phase_id_name(id);
	sigset_t		 held;
	char			*why = NULL;
	int			 i;

	if (bn_stop_signal != 0 && s->early && s->jf.whole) {
		/*
		 * MPI, rank 0 stopped: it wrote the record as it stood then
		 * (series_stopping()); a phase the ranks completed since
		 * (the stop came while they handed it in) is added to it.
		 */
		series_write(s, 0, &why);
		free(why);
		return;
	}
	if (bn_stop_signal != 0 || !s->jf.whole || s->unsaved)
		return;
	for (i = (int)id + 1; i < PH_COUNT; i++)
		if (s->o->phases & (1u << i)) {
			next = phase_id_name((enum phase_id)i);
			break;
		}
	rec.nruns = s->done;
	rec.lock_held = -1;
	memcpy(rec.start_utc, s->runs[0].start_utc, sizeof(rec.start_utc));
	/* What the run has not yet said: kept, and given back after. */
	space[0] = r->space_before;
	space[1] = r->space_after;
	space[2] = r->space_held;
	space[3] = r->space_freed;
	r->interrupted = SIGKILL;
	memset(&r->err, 0, sizeof(r->err));
	r->err.set = 1;
	r->err.phase = next;
	r->err.offset = -1;
	snprintf(r->err.message, sizeof(r->err.message), "unfinished: this "
	    "record was written after phase %s completed, and the run did not "
	    "write it again (killed by SIGKILL, the OOM killer or its mpirun's "
	    "end; or its last write failed, said on standard error)",
	    phase_id_name(id));
	r->space_before = r->space_after = -1;
	r->space_held = r->space_freed = -1;
	signals_block(&held);
	if (outfile_checkpoint(&s->jf, put_record, &rec, &why) == -1) {
		/* Said once; the end's write tries again and says its own. */
		text_say("warning: %s; the record is written at the end only",
		    why);
		free(why);
		s->unsaved = 1;
	}
	signals_restore(&held);
	r->interrupted = sig;
	r->err = err;
	r->space_before = space[0];
	r->space_after = space[1];
	r->space_held = space[2];
	r->space_freed = space[3];
}

static void
series_free(struct series *s)
{
	int	i;

	for (i = 0; i < s->done; i++)
		run_result_free(&s->runs[i]);
	sysinfo_free(s->si);
	free(s->runs);
}

/* The line that says the runs were stopped by sig. */
static void
say_stop(const struct series *s, int sig)
{
	const struct run_result	*last = &s->runs[s->done - 1];

	if (!s->leader)
		return;
	if (s->o->jobs > 1)
		text_say("interrupted by %s; test files removed",
		    signal_name(sig));
	else
		text_say("interrupted by %s%s", signal_name(sig),
		    last->file_removed ? "; test file removed" : "");
}

/*
 * MPI, rank 0 stopped by a signal (run_set_stopping()): the rows of the
 * runs that completed, the record of the phases that did and the line,
 * written as soon as the team sees the stop (a tick, or in the middle of
 * a wait on other ranks), while mpirun's SIGKILL may be a second away
 * and the ranks it waits on may be gone.  The record is written again,
 * whole, after a phase that completes meanwhile and if the end comes.
 */
static void
series_stopping(void *arg)
{
	struct series	*s = arg;
	char		*why = NULL;

	s->status = CMD_FAIL;
	s->rec.nruns = s->done;
	s->rec.lock_held = -1;
	memcpy(s->rec.start_utc, s->runs[0].start_utc,
	    sizeof(s->rec.start_utc));
	series_write(s, 0, &why);
	free(why);
	s->early = 1;
	/* The workers may still be removing their files. */
	text_say("interrupted by %s", signal_name(s->runs[s->done -
	    1].interrupted));
}

/*
 * A stop signal, during the runs or while writing: said, and the process
 * ends by it (returns 128 + its number where raise does not end it); 0
 * when none came.  Rank 0 speaks before MPI_Finalize: no rank can end,
 * and have mpirun stop the job, before it has.
 */
static int
series_signal(struct series *s)
{
	const struct run_result	*last = &s->runs[s->done - 1];
	int			 sig, late = 0;

	if ((sig = last->interrupted) == 0 && bn_stop_signal != 0) {
		/* The runs had ended: the signal came while writing. */
		sig = bn_stop_signal;
		if (s->leader)
			text_say("interrupted by %s after the report was "
			    "written", signal_name(sig));
		late = 1;
	}
	if (sig <= 0)
		return 0;
	if (!late && !s->early)
		say_stop(s, sig);
	series_free(s);
	team_finish();
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;
}

/* The exit status: the first failure, bad data read, a file left. */
static void
series_verdict(struct series *s, char **cause)
{
	uint64_t	bad = 0;
	int		i, left = 0;

	if (s->status != CMD_OK && !s->said) {
		errorf(cause, "%s", s->runs[s->done - 1].err.message);
		return;
	}
	/* --verify found bad data: the report stands, the exit is 1. */
	if (s->say) {
		space_trend(s->o, &s->rec);
		cache_summary(s->o, &s->rec);
	}
	for (i = 0; i < s->done; i++) {
		bad += s->runs[i].bad_chunks;
		left |= s->runs[i].file_left;
	}
	if (bad > 0) {
		errorf(cause, "--verify: %llu bad chunk%s read (described "
		    "above)", (unsigned long long)bad, bad == 1 ? "" : "s");
		s->status = CMD_FAIL;
	} else if (left)
		s->status = CMD_FAIL;	/* Said with its path by the run. */
}

int
cmd_run_series(struct options *o, const struct cmd_run_out *out,
    char **cause)
{
	struct series	s;
	enum cmd_status	st;
	int		sig;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.out = out;
	s.progress = out->progress;
	s.say = out->notes;
	s.status = CMD_OK;
	if ((st = series_begin(&s, cause)) != CMD_OK)
		return st;
	series_runs(&s);
	series_write(&s, 1, cause);
	if ((sig = series_signal(&s)) != 0)
		return sig;
	series_verdict(&s, cause);
	series_free(&s);
	return s.status;
}
