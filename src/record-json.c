/*
 * The result record as JSON, schema bonnie-ng/1: doc/RECORD.md describes
 * every key and doc/schema.json checks them.  Pure formatting: nothing
 * here reads a clock or the system; unknown values are written as null.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "json.h"
#include "kstat.h"
#include "phase.h"
#include "record.h"
#include "settings.h"
#include "signals.h"
#include "stats.h"
#include "sysinfo.h"
#include "team.h"
#include "units.h"

#ifndef BONNIE_NG_VERSION
#define BONNIE_NG_VERSION "0.0.0"
#endif

#define RECORD_SCHEMA	"bonnie-ng/1"

/* The system, the target, the options and the memory: the settings'. */
static void
write_settings(struct json *j, const char *object, const struct options *opt,
    const struct sysinfo *si, int lock_held)
{
	struct settings_ctx	c;

	c.opt = opt;
	c.si = si;
	c.lock_held = lock_held;
	settings_write(j, object, &c);
}

void
record_write_system(struct json *j, const struct sysinfo *si)
{
	struct options	none;

	memset(&none, 0, sizeof(none));
	write_settings(j, "system", &none, si, -1);
}

void
record_write_guest(struct json *j, const struct sysinfo *si)
{
	struct options	none;

	if (si == NULL || si->guest == NULL)
		return;
	memset(&none, 0, sizeof(none));
	write_settings(j, "guest", &none, si, -1);
}

void
record_write_target(struct json *j, const struct options *opt,
    const struct sysinfo *si)
{
	write_settings(j, "target", opt, si, -1);
}

void
record_write_options(struct json *j, const struct options *opt)
{
	write_settings(j, "options", opt, NULL, -1);
}

void
record_write_memory(struct json *j, const struct options *opt,
    const struct sysinfo *si, int lock_held)
{
	write_settings(j, "memory", opt, si, lock_held);
}

static void
write_latency(struct json *j, const struct latency *l)
{
	if (l->count == 0) {
		json_null(j, "latency");
		return;
	}
	json_object_start(j, "latency");
	json_uint(j, "count", l->count);
	json_double(j, "min_s", l->min);
	json_double(j, "p50_s", l->p50);
	json_double(j, "p90_s", l->p90);
	json_double(j, "p99_s", l->p99);
	json_double(j, "p999_s", l->p999);
	json_double(j, "max_s", l->max);
	json_object_end(j);
}

/* One bad chunk --verify found. */
static void
write_bad(struct json *j, const struct pattern_bad *b)
{
	char	text[512];

	json_object_start(j, NULL);
	json_uint(j, "offset", b->off);
	json_uint(j, "length", b->len);
	json_uint(j, "chunks", b->chunks);
	if (b->worker >= 0)
		json_int(j, "worker", b->worker);
	else
		json_null(j, "worker");
	json_string(j, "diagnosis", pattern_verdict_name(b->verdict));
	if (b->verdict == PV_DIFFERS)
		json_string(j, "differing", pattern_verdict_name(b->inner));
	else
		json_null(j, "differing");
	json_uint(j, "first_bad_byte", b->first);
	json_uint(j, "last_bad_byte", b->last);
	json_uint(j, "bad_bytes", b->nbytes);
	/* One changed byte: what came back and what was due. */
	if (b->verdict == PV_DIFFERS && b->inner == PV_DIFFERS &&
	    b->first == b->last) {
		json_int(j, "byte_read", b->got);
		json_int(j, "byte_due", b->due);
	} else {
		json_null(j, "byte_read");
		json_null(j, "byte_due");
	}
	json_bool(j, "torn", b->torn);
	if (b->found != PW_NONE) {
		json_int(j, "found_generation", pattern_gen(b->found));
		json_string(j, "found_writer", pattern_writer_name(b->found));
	} else {
		json_null(j, "found_generation");
		json_null(j, "found_writer");
	}
	if (b->verdict == PV_MISPLACED || (b->verdict == PV_DIFFERS &&
	    b->inner == PV_MISPLACED))
		json_uint(j, "found_offset", b->found_off);
	else
		json_null(j, "found_offset");
	json_int(j, "want_generation", pattern_gen(b->want));
	json_string(j, "want_writer", pattern_writer_name(b->want));
	pattern_describe(b, text, sizeof(text));
	json_string(j, "text", text);
	json_object_end(j);
}

/* What --verify found in a phase: counts, and the bad chunks kept. */
static void
write_verify(struct json *j, const struct pattern_tally *t)
{
	int	i;

	json_object_start(j, "verify");
	json_uint(j, "checked_bytes", t->checked);
	json_double(j, "check_s", (double)t->ns / 1e9);
	json_uint(j, "bad_chunks", t->chunks);
	json_uint(j, "bad_bytes", t->bytes);
	json_object_start(j, "diagnoses");
	for (i = PV_DIFFERS; i < PV_COUNT; i++)
		json_uint(j, pattern_verdict_name((enum pattern_verdict)i),
		    t->kinds[i]);
	json_object_end(j);
	json_bool(j, "all_listed", pattern_tally_listed(t) == t->chunks);
	json_array_start(j, "bad");
	for (i = 0; i < t->nkept; i++)
		write_bad(j, &t->kept[i]);
	json_array_end(j);
	json_object_end(j);
}

static void
write_phase_members(struct json *j, enum phase_id id,
    const struct phase_result *p, const struct kstat_phase *ks,
    const struct kstat_host *hosts, int nhosts)
{
	const struct phase	*ph = phase_table[id];
	char			 unit[32];

	json_uint(j, "bytes", p->bytes);
	json_uint(j, "ops", p->ops);
	json_double(j, "elapsed_s", p->elapsed);
	json_double(j, "user_s", p->user);
	json_double(j, "sys_s", p->sys);
	json_double(j, "cpu_pct", p->cpu_pct);
	json_double(j, "rate", p->rate);
	json_string(j, "unit", phase_unit(ph, UNIT_RECORD, unit, sizeof(unit)));
	if (ph->flags & PHASE_OPS)
		json_null(j, "kps");
	else
		json_int(j, "kps", units_kps(p->rate));
	write_latency(j, &p->lat);
	json_double_or_null(j, "resident", p->resident);
	if (p->cache == CSTATE_KEEP)
		json_null(j, "drop_s");
	else
		json_double_or_null(j, "drop_s", p->drop_seconds);
	json_double(j, "fill_s", p->fill_seconds);
	/* --iodepth above 1: the depth the phase ran at, and why not. */
	if (p->depth > 1 || p->fallback[0] != '\0') {
		json_object_start(j, "queue");
		json_int(j, "depth", p->depth);
		if (p->engine[0] != '\0')
			json_string(j, "engine", p->engine);
		else
			json_null(j, "engine");
		if (p->fallback[0] != '\0')
			json_string(j, "fallback", p->fallback);
		else
			json_null(j, "fallback");
		json_object_end(j);
	} else
		json_null(j, "queue");
	json_double_or_null(j, "hit_fraction", p->hit_fraction);
	json_double_or_null(j, "backing_resident", p->backing_resident);
	json_string(j, "cache", cache_state_name(p->cache));
	json_string(j, "io", p->direct ? "direct" : "buffered");
	json_bool(j, "imprecise", p->imprecise);
	json_bool(j, "cpu_doubtful", p->cpu_doubtful);
	json_int_or_null(j, "dev_read_bytes", p->dev_read);
	json_int_or_null(j, "dev_written_bytes", p->dev_written);
	json_double_or_null(j, "machine_busy_pct", p->machine_busy);
	if (ph->flags & PHASE_WORKERS)
		json_int(j, "workers", p->workers);
	if (p->verified)
		write_verify(j, &p->verify);
	kstat_write(j, "kernel", ks, &p->kp, hosts, nhosts);
}

void
record_write_phase(struct json *j, const char *key, enum phase_id id,
    const struct phase_result *p)
{
	if (p == NULL || !p->ran) {
		json_null(j, key);
		return;
	}
	json_object_start(j, key);
	write_phase_members(j, id, p, NULL, NULL, 0);
	json_object_end(j);
}

/* A team's phase: the aggregate, its skew and each worker's own. */
static void
write_team_phase(struct json *j, const char *key, enum phase_id id,
    const struct run_result *r)
{
	const struct phase_result	*p = &r->ph[id];
	const struct worker_phase	*w;
	int				 k;

	if (!p->ran) {
		json_null(j, key);
		return;
	}
	json_object_start(j, key);
	write_phase_members(j, id, p, r->ks != NULL ? &r->ks[id] : NULL,
	    r->hks != NULL ? r->hks + (size_t)id * (size_t)r->nhosts : NULL,
	    r->hks != NULL ? r->nhosts : 0);
	json_double(j, "skew", p->skew);
	json_array_start(j, "per_worker");
	for (k = 0; k < r->jobs; k++) {
		w = &r->wph[(size_t)k * PH_COUNT + (size_t)id];
		json_object_start(j, NULL);
		json_int(j, "worker", k);
		json_uint(j, "bytes", w->bytes);
		json_uint(j, "ops", w->ops);
		json_double(j, "ready_s", w->ready);
		json_double(j, "start_s", w->start);
		json_double(j, "end_s", w->end);
		json_double(j, "elapsed_s", w->elapsed);
		json_double(j, "rate", w->rate);
		json_double(j, "cpu_pct", w->cpu_pct);
		json_double(j, "fill_s", w->fill);
		write_latency(j, &w->lat);
		kstat_write_proc(j, "process", &w->kp);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void
record_write_run_phase(struct json *j, const char *key, enum phase_id id,
    const struct run_result *r)
{
	if (r->jobs > 1 && r->wph != NULL)
		write_team_phase(j, key, id, r);
	else if (r->ph[id].ran) {
		json_object_start(j, key);
		write_phase_members(j, id, &r->ph[id], r->ks != NULL ?
		    &r->ks[id] : NULL, NULL, 0);
		json_object_end(j);
	} else
		json_null(j, key);
}

/* Who ran a team's run, where, and whether they shared the directory. */
static void
write_team(struct json *j, const struct run_result *r)
{
	int	k, shared = 1;
	char	id[32];

	if (r->jobs <= 1 || r->workers == NULL) {
		json_null(j, "team");
		return;
	}
	for (k = 1; k < r->jobs; k++)
		if (r->workers[k].fs_id != r->workers[0].fs_id)
			shared = 0;
	json_object_start(j, "team");
	json_string(j, "backend", team_backend);
	json_int(j, "jobs", r->jobs);
	json_bool(j, "same_fs", shared);
	json_array_start(j, "workers");
	for (k = 0; k < r->jobs; k++) {
		json_object_start(j, NULL);
		json_int(j, "worker", k);
		json_string(j, "host", r->workers[k].host);
		snprintf(id, sizeof(id), "%016llx",
		    (unsigned long long)r->workers[k].fs_id);
		json_string(j, "fs_id", id);
		if (r->workers[k].cpus_allowed > 0)
			json_int(j, "cpus_allowed", r->workers[k].cpus_allowed);
		else
			json_null(j, "cpus_allowed");
		/* MPI: each rank's own host; one host (fork) is target's. */
		if (strcmp(team_backend, "mpi") == 0) {
			json_int(j, "rank", r->workers[k].rank);
			json_int(j, "rank_worker", r->workers[k].rank_worker);
			json_string(j, "kernel", r->workers[k].kernel);
			json_string(j, "fs_type", r->workers[k].fs_type);
			json_string(j, "mount_options",
			    r->workers[k].mount_options);
			json_string(j, "device", r->workers[k].device[0] ?
			    r->workers[k].device : NULL);
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void
write_error(struct json *j, const struct run_error *e)
{
	if (!e->set) {
		json_null(j, "error");
		return;
	}
	json_object_start(j, "error");
	json_string(j, "phase", e->phase);
	if (e->path[0] != '\0')
		json_string(j, "path", e->path);
	else
		json_null(j, "path");
	json_int_or_null(j, "offset", e->offset);
	if (e->errnum > 0)
		json_int(j, "errno", e->errnum);
	else
		json_null(j, "errno");
	json_string(j, "message", e->message);
	json_object_end(j);
}

void
record_write_space(struct json *j, const struct run_result *r)
{
	json_object_start(j, "free_space");
	json_int_or_null(j, "before_bytes", r->space_before);
	json_int_or_null(j, "after_bytes", r->space_after);
	if (r->space_before >= 0 && r->space_after >= 0)
		json_int(j, "lost_bytes", r->space_before - r->space_after);
	else
		json_null(j, "lost_bytes");
	json_int_or_null(j, "held_bytes", r->space_held > 0 ? r->space_held :
	    -1);
	if (r->space_held > 0 && r->space_freed >= 0)
		json_int(j, "freed_bytes", r->space_freed);
	else
		json_null(j, "freed_bytes");
	json_bool(j, "leak", r->space_leak);
	json_object_end(j);
}

static void
write_run(struct json *j, int index, const struct run_result *r)
{
	int	i;

	json_object_start(j, NULL);
	json_int(j, "index", index);
	json_uint(j, "seed", r->seed);
	json_string(j, "start", r->start_utc[0] != '\0' ? r->start_utc : NULL);
	json_object_start(j, "phases");
	for (i = 0; i < PH_COUNT; i++)
		record_write_run_phase(j, phase_id_name(i), i, r);
	json_object_end(j);
	write_team(j, r);
	if (r->interrupted > 0)
		json_string(j, "interrupted", signal_name(r->interrupted));
	else
		json_null(j, "interrupted");
	/* Test files (or --files trees) it could not remove, each named. */
	json_uint(j, "files_left", (uint64_t)r->file_left);
	write_error(j, &r->err);
	record_write_space(j, r);
	json_object_end(j);
}

static void
write_stats(struct json *j, const char *key, const double *v, int n)
{
	struct col_stats	s;

	if (n == 0) {
		json_null(j, key);
		return;
	}
	stats_compute(v, n, &s);
	json_object_start(j, key);
	json_int(j, "n", s.n);
	json_double(j, "median", s.median);
	json_double(j, "mean", s.mean);
	json_double(j, "sd", s.sd);
	json_double(j, "min", s.min);
	json_double(j, "max", s.max);
	json_double(j, "cv", s.cv);
	json_object_end(j);
}

/*
 * The free space over the runs: what each lost, how many lost more than
 * the slack, and the drop from before the first to after the last.
 */
static void
write_space_trend(struct json *j, const struct record *rec)
{
	const struct run_result	*r, *first = NULL, *last = NULL;
	int			 k, leaks = 0;

	json_object_start(j, "free_space");
	json_array_start(j, "lost_bytes");
	for (k = 0; k < rec->nruns; k++) {
		r = &rec->runs[k];
		if (r->space_before < 0 || r->space_after < 0) {
			json_null(j, NULL);
			continue;
		}
		json_int(j, NULL, r->space_before - r->space_after);
		if (first == NULL)
			first = r;
		last = r;
		leaks += r->space_leak != 0;
	}
	json_array_end(j);
	json_int(j, "leaking_runs", leaks);
	if (first != NULL)
		json_int(j, "total_lost_bytes", first->space_before -
		    last->space_after);
	else
		json_null(j, "total_lost_bytes");
	json_object_end(j);
}

/* Each phase's rate, %CPU and p99 over the runs that ran it. */
static void
write_summary(struct json *j, const struct record *rec)
{
	const struct phase_result	*p;
	double				*rate, *cpu, *p99;
	int				 i, k, n, nlat;

	n = rec->nruns > 0 ? rec->nruns : 1;
	rate = xcalloc((size_t)n, sizeof(*rate));
	cpu = xcalloc((size_t)n, sizeof(*cpu));
	p99 = xcalloc((size_t)n, sizeof(*p99));
	json_object_start(j, "summary");
	for (i = 0; i < PH_COUNT; i++) {
		n = nlat = 0;
		for (k = 0; k < rec->nruns; k++) {
			p = &rec->runs[k].ph[i];
			if (!p->ran)
				continue;
			rate[n] = p->rate;
			cpu[n] = p->cpu_pct;
			n++;
			if (p->lat.count > 0)
				p99[nlat++] = p->lat.p99;
		}
		if (n == 0) {
			json_null(j, phase_id_name(i));
			continue;
		}
		json_object_start(j, phase_id_name(i));
		write_stats(j, "rate", rate, n);
		write_stats(j, "cpu_pct", cpu, n);
		write_stats(j, "p99_s", p99, nlat);
		json_object_end(j);
	}
	write_space_trend(j, rec);
	json_object_end(j);
	free(rate);
	free(cpu);
	free(p99);
}

int
record_write_json(FILE *f, const struct record *rec)
{
	const struct options	*opt = rec->opt;
	struct json		 j;
	int			 i;

	json_init(&j, f, 1);
	json_object_start(&j, NULL);
	json_string(&j, "schema", RECORD_SCHEMA);
	json_string(&j, "tool", "bonnie-ng");
	json_string(&j, "version", BONNIE_NG_VERSION);
	json_array_start(&j, "command");
	for (i = 0; i < opt->argc && opt->argv != NULL; i++)
		json_string(&j, NULL, opt->argv[i]);
	json_array_end(&j);
	json_string(&j, "start",
	    rec->start_utc[0] != '\0' ? rec->start_utc : NULL);
	record_write_system(&j, rec->sys);
	record_write_guest(&j, rec->sys);
	record_write_target(&j, opt, rec->sys);
	record_write_options(&j, opt);
	record_write_memory(&j, opt, rec->sys, rec->lock_held);
	json_array_start(&j, "runs");
	for (i = 0; i < rec->nruns; i++)
		write_run(&j, i, &rec->runs[i]);
	json_array_end(&j);
	write_summary(&j, rec);
	json_object_end(&j);
	return json_finish(&j);
}
