/*
 * Reading bonnie-ng JSON records (schema bonnie-ng/1, doc/RECORD.md) back
 * into a result set, and sweep records (bonnie-ng-sweep/1): their points
 * as the runs, their axes in the set's sweep.  Latency is the worst case (max_s), which is what
 * bonnie++'s CSV latency fields mean, so JSON and CSV compare alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsonparse.h"
#include "phase.h"
#include "resultset.h"
#include "rs-read.h"
#include "settings.h"
#include "sweep.h"

static char *
dup_str(const struct jv *v, const char *key)
{
	const char	*s = jv_str(v, key);

	return s != NULL && *s != '\0' ? xstrdup(s) : NULL;
}

static uint64_t
get_u64(const struct jv *v, const char *key)
{
	double	n;

	if (jv_num(v, key, &n) != 0 || !(n >= 0) || n > 1.8e19)
		return 0;
	return (uint64_t)n;
}

/* Mark the phase's columns imprecise or warm as the record says. */
static void
phase_flags(const struct jv *ph, int i, struct rs_run *r)
{
	const struct jv	*b = jv_get(ph, "imprecise");
	const char	*cache = jv_str(ph, "cache");
	unsigned	 f = 0;
	int		 k;

	if (b != NULL && b->type == JV_BOOL && b->b)
		f |= RS_F_IMPRECISE;
	if (cache != NULL && strcmp(cache, cache_state_name(CSTATE_WARM)) == 0)
		f |= RS_F_WARM;
	for (k = RS_KIND_RATE; k <= RS_KIND_LAT; k++)
		r->col[RS_COL(k, i)].flags |= f;
}

static int
read_phase(const char *name, const struct jv *ph, int i, struct rs_run *r,
    char **cause)
{
	const struct jv	*lat;
	double		 n, ops;

	if (ph == NULL || ph->type == JV_NULL)
		return 0;
	if (ph->type != JV_OBJECT)
		return errorf(cause, "%s:%d: phase \"%s\" is not an object",
		    name, ph->line, phase_table[i]->name);
	if (jv_num(ph, "rate", &n) != 0 || !(n >= 0))
		return errorf(cause, "%s:%d: phase \"%s\" has no \"rate\"",
		    name, ph->line, phase_table[i]->name);
	r->col[RS_RATE(i)].state = RS_VALUE;
	r->col[RS_RATE(i)].v = n;
	phase_flags(ph, i, r);
	if (jv_num(ph, "cpu_pct", &n) == 0 && n >= 0) {
		r->col[RS_CPU(i)].state = RS_VALUE;
		r->col[RS_CPU(i)].v = n;
	}
	lat = jv_get(ph, "latency");
	if (lat != NULL && jv_num(lat, "max_s", &n) == 0 && n >= 0) {
		r->col[RS_LAT(i)].state = RS_VALUE;
		r->col[RS_LAT(i)].v = n;
	}
	if (jv_num(ph, "bytes", &n) == 0 && jv_num(ph, "ops", &ops) == 0)
		rs_kernel_read(jv_get(ph, "kernel"), i, n, ops, r);
	return 0;
}

/* The vm.dirty_* settings in one line, or NULL when not recorded. */
static char *
vm_dirty(char *const *v)
{
	char	 buf[256];
	size_t	 used = 0;
	int	 i;

	for (i = SET_VM_DIRTY; i <= SET_VM_DIRTY_WRITEBACK; i++)
		if (v[i] != NULL && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used,
			    "%s%s=%s", used ? " " : "",
			    strrchr(settings_table[i].key, '.') + 7, v[i]);
	return used > 0 ? xstrdup(buf) : NULL;
}

/* The mask of the phases named in a list ("write,read"); 0: none. */
static unsigned
phase_mask(const char *list)
{
	char		*copy, *s, *name;
	unsigned	 m = 0;
	int		 id;

	if (list == NULL)
		return 0;
	s = copy = xstrdup(list);
	while ((name = strsep(&s, ",")) != NULL)
		if ((id = phase_id_by_name(name)) >= 0)
			m |= 1u << id;
	free(copy);
	return m;
}

/* A boolean read back as text: yes for "true", no for "false". */
static char *
yes_no(const char *v, const char *yes, const char *no)
{
	if (v == NULL)
		return NULL;
	return xstrdup(strcmp(v, "true") == 0 ? yes : no);
}

/*
 * The settings, by the settings table (settings_read()), and the typed
 * fields every reader fills from them.
 */
static void
read_settings(const struct jv *root, struct result_set *rs)
{
	struct rs_settings	*s = &rs->set;
	char *const		*v = s->value;

	settings_read(root, s->value, s->phase_value);
	s->version = xasprintf("%s %s", v[SET_TOOL] ? v[SET_TOOL] :
	    "bonnie-ng", v[SET_TOOL_VERSION] ? v[SET_TOOL_VERSION] : "?");
	s->latency = "max";
	s->hostname = settings_dup(v, SET_HOSTNAME);
	s->os = settings_dup(v, SET_OS);
	s->kernel = settings_dup(v, SET_KERNEL);
	s->cpu_model = settings_dup(v, SET_CPU);
	s->ram = settings_u64(v, SET_RAM);
	if (s->ram == 0)
		s->ram = settings_u64(v, SET_SYSTEM_RAM);
	s->fs_type = settings_dup(v, SET_FS_TYPE);
	s->mount_options = settings_dup(v, SET_MOUNT_OPTIONS);
	s->device = settings_dup(v, SET_DEV_NAME);
	/* Records from before --device measured a file system. */
	s->target = settings_dup(v, SET_TARGET);
	if (s->target == NULL && jv_get(root, "target") != NULL)
		s->target = xstrdup("file");
	if (s->target != NULL && strcmp(s->target, "device") == 0)
		s->target_path = settings_dup(v, SET_TARGET_PATH);
	s->scheduler = settings_dup(v, SET_SCHEDULER);
	s->size = settings_u64(v, SET_SIZE);
	s->chunk = settings_u64(v, SET_CHUNK);
	s->seeks = settings_u64(v, SET_SEEKS);
	s->seekers = (int)settings_u64(v, SET_SEEKERS);
	s->jobs = (int)settings_u64(v, SET_JOBS);
	s->super_options = settings_dup(v, SET_SUPER_OPTIONS);
	s->files = settings_u64(v, SET_FILES_N);
	s->files_max = settings_u64(v, SET_FILES_MAX);
	s->files_min = settings_u64(v, SET_FILES_MIN);
	s->files_dirs = settings_u64(v, SET_FILES_DIRS);
	if (v[SET_READ_AHEAD] != NULL)
		s->read_ahead = xasprintf("%s KiB", v[SET_READ_AHEAD]);
	s->vm_dirty = vm_dirty(v);
	s->seeker_mode = settings_dup(v, SET_SEEKER_MODE);
	s->seed = yes_no(v[SET_SEED_GIVEN], "given (-z)", "random");
	s->verify = settings_dup(v, SET_VERIFY);
	s->dir = settings_dup(v, SET_DIR);
	s->phases = phase_mask(v[SET_PHASES]);
	s->cache = settings_dup(v, SET_CACHE);
	s->direct = yes_no(v[SET_DIRECT], "yes", "no");
	/* Records from before --verify have no key: nothing was checked. */
	if (v[SET_VERIFY] == NULL || strcmp(v[SET_VERIFY], "off") == 0)
		s->verified = xstrdup("no");
	else
		s->verified = xstrdup("yes");
}

/* A run that stopped on an error or a signal: say why. */
static void
run_failed(const struct jv *run, struct rs_run *r)
{
	const struct jv	*err = jv_get(run, "error");
	const char	*sig = jv_str(run, "interrupted"), *msg;

	if (err != NULL && err->type == JV_OBJECT) {
		msg = jv_str(err, "message");
		r->failed = xstrdup(msg != NULL && *msg != '\0' ? msg :
		    "failed");
	}
	if (sig != NULL && *sig != '\0') {
		free(r->failed);
		r->failed = xasprintf("interrupted by %s", sig);
	}
}

/*
 * The array key of o, of at most max whole numbers from 1 to top, each
 * above the one before, into a new array; returns how many, or -1.
 */
static int
u64_list(const struct jv *o, const char *key, int max, uint64_t top,
    uint64_t **out)
{
	const struct jv	*a = jv_get(o, key);
	size_t		 i;
	double		 n;

	*out = NULL;
	if (a == NULL || a->type != JV_ARRAY || a->len == 0 ||
	    a->len > (size_t)max)
		return -1;
	*out = xcalloc(a->len, sizeof(**out));
	for (i = 0; i < a->len; i++) {
		n = a->items[i].n;
		if (a->items[i].type != JV_NUMBER || !(n >= 1) ||
		    n > (double)top || n != (double)(uint64_t)n ||
		    (i > 0 && (uint64_t)n <= (*out)[i - 1]))
			return -1;
		(*out)[i] = (uint64_t)n;
	}
	return (int)a->len;
}

/* A sweep record's "sweep" object and "stopped". */
static int
read_sweep(const char *name, const struct jv *root, struct result_set *rs,
    char **cause)
{
	const struct jv	*sw = jv_get(root, "sweep"), *b;
	struct rs_sweep	*x;
	uint64_t	*jobs;
	double		 n;
	int		 i;

	if (sw == NULL || sw->type != JV_OBJECT)
		return errorf(cause, "%s:%d: sweep record has no \"sweep\" "
		    "object", name, root->line);
	x = rs->sweep = xcalloc(1, sizeof(*rs->sweep));
	if ((x->nsizes = u64_list(sw, "sizes", SWEEP_MAX_SIZES,
	    UINT64_MAX / 2, &x->sizes)) < 0)
		return errorf(cause, "%s:%d: \"sizes\" is not a list of at "
		    "most %d sizes, ascending", name, sw->line,
		    SWEEP_MAX_SIZES);
	if ((x->nchunks = u64_list(sw, "chunks", SWEEP_MAX_CHUNKS,
	    UINT32_MAX, &x->chunks)) < 0)
		return errorf(cause, "%s:%d: \"chunks\" is not a list of at "
		    "most %d chunk sizes, ascending", name, sw->line,
		    SWEEP_MAX_CHUNKS);
	if ((x->njobs = u64_list(sw, "jobs", SWEEP_MAX_JOBS, MAX_JOBS,
	    &jobs)) < 0) {
		free(jobs);
		return errorf(cause, "%s:%d: \"jobs\" is not a list of at "
		    "most %d job counts, ascending", name, sw->line,
		    SWEEP_MAX_JOBS);
	}
	x->jobs = xcalloc((size_t)x->njobs, sizeof(*x->jobs));
	for (i = 0; i < x->njobs; i++)
		x->jobs[i] = (int)jobs[i];
	free(jobs);
	/* The seeker counts: absent without --seeker-counts. */
	b = jv_get(sw, "seekers");
	if (b != NULL) {
		uint64_t	*sk = NULL;

		if ((x->nseekers = u64_list(sw, "seekers", SWEEP_MAX_SEEKERS,
		    MAX_SEEKERS, &sk)) < 0) {
			free(sk);
			return errorf(cause, "%s:%d: \"seekers\" is not a list "
			    "of at most %d seeker counts, ascending", name,
			    sw->line, SWEEP_MAX_SEEKERS);
		}
		x->seekers = xcalloc((size_t)x->nseekers + 1,
		    sizeof(*x->seekers));
		for (i = 0; i < x->nseekers; i++)
			x->seekers[i] = (int)sk[i];
		free(sk);
	}
	/* The file counts: absent (older records) or [] without --files. */
	b = jv_get(sw, "files");
	if (b != NULL && b->type == JV_ARRAY && b->len > 0) {
		if ((x->nfiles = u64_list(sw, "files", SWEEP_MAX_FILES,
		    UINT32_MAX, &x->files)) < 0)
			return errorf(cause, "%s:%d: \"files\" is not a list "
			    "of at most %d file counts, ascending", name,
			    sw->line, SWEEP_MAX_FILES);
		x->files_max = get_u64(sw, "files_max_bytes");
		x->files_min = get_u64(sw, "files_min_bytes");
		x->files_dirs = (unsigned)get_u64(sw, "files_dirs");
	}
	if (jv_num(sw, "knee_pct", &n) != 0 || !(n >= 1 && n <= 99))
		return errorf(cause, "%s:%d: \"knee_pct\" is not a percentage "
		    "from 1 to 99", name, sw->line);
	x->knee_pct = n;
	b = jv_get(sw, "capped");
	x->capped = b != NULL && b->type == JV_BOOL && b->b;
	if (jv_num(sw, "max_time_s", &n) == 0 && n >= 1 && n <= UINT32_MAX)
		x->max_time = (uint64_t)n;
	if (jv_num(sw, "repeat", &n) == 0 && n >= 1 && n <= MAX_REPEAT)
		x->repeat = (int)n;
	if (jv_num(sw, "min_time_s", &n) == 0 && n >= 0 && n <= 3600)
		x->min_time = n;
	x->stopped = dup_str(root, "stopped");
	return 0;
}

/* A point's size, chunk and job count. */
/* The phases a point's "stats" call imprecise. */
static unsigned
point_imprecise(const struct jv *pt)
{
	const struct jv	*st = jv_get(pt, "stats"), *ph, *b;
	unsigned	 m = 0;
	int		 id;

	for (id = 0; id < PH_COUNT; id++) {
		ph = jv_get(st, phase_table[id]->name);
		b = jv_get(ph, "precise");
		if (b != NULL && b->type == JV_BOOL && !b->b)
			m |= 1u << id;
	}
	return m;
}

static int
read_point(const char *name, const struct jv *pt, struct rs_run *r,
    char **cause)
{
	double	n;

	r->size = get_u64(pt, "size_bytes");
	r->chunk = get_u64(pt, "chunk");
	if (jv_num(pt, "jobs", &n) == 0 && n >= 1 && n <= MAX_JOBS)
		r->jobs = (int)n;
	if (jv_num(pt, "seekers", &n) == 0 && n >= 1 && n <= MAX_SEEKERS)
		r->seekers = (int)n;
	r->files = get_u64(pt, "files");
	if (r->size == 0 || r->chunk == 0 || r->jobs == 0)
		return errorf(cause, "%s:%d: point without \"size_bytes\", "
		    "\"chunk\" or \"jobs\"", name, pt->line);
	r->imprecise = point_imprecise(pt);
	return 0;
}

/* One run's phases into r, and why it failed. */
static int
read_run_phases(const char *name, const struct jv *run, struct rs_run *r,
    char **cause)
{
	const struct jv	*phases = jv_get(run, "phases");
	int		 k;

	if (phases == NULL || phases->type != JV_OBJECT)
		return errorf(cause, "%s:%d: run without a \"phases\" object",
		    name, run->line);
	run_failed(run, r);
	for (k = 0; k < PH_COUNT; k++)
		if (read_phase(name, jv_get(phases, phase_table[k]->name), k,
		    r, cause) != 0)
			return -1;
	return 0;
}

/*
 * A sweep point's later runs ("more_runs", absent in older records), each
 * a run after the point's own in rs.
 */
static int
read_more_runs(const char *name, const struct jv *pt, struct result_set *rs,
    const char *label, char **cause)
{
	const struct jv	*more = jv_get(pt, "more_runs");
	const struct rs_run *first = &rs->runs[rs->nruns - 1];
	struct rs_run	*r;
	uint64_t	 size = first->size, chunk = first->chunk, files;
	int		 jobs = first->jobs, seekers = first->seekers;
	size_t		 i;

	files = first->files;
	if (more == NULL)
		return 0;
	if (more->type != JV_ARRAY)
		return errorf(cause, "%s:%d: \"more_runs\" is not an array",
		    name, more->line);
	for (i = 0; i < more->len; i++) {
		r = rs_add_run(rs, label, more->items[i].line);
		r->size = size;
		r->chunk = chunk;
		r->jobs = jobs;
		r->seekers = seekers;
		r->files = files;
		r->repeat = (int)i + 1;
		if (read_run_phases(name, &more->items[i], r, cause) != 0)
			return -1;
	}
	return 0;
}

/* What a lean read leaves out: the kernel's account and its timeline. */
static const char *const lean_skip[] = { "kernel", NULL };

int
rs_read_json(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	struct jv	*root = NULL;
	const struct jv	*runs, *run, *phases, *opt;
	const char	*schema, *label, *what;
	struct rs_run	*r;
	char		*msg = NULL;
	size_t		 i;
	int		 line, ret = -1, sweep = 0;

	if (jv_parse_skip(buf, len, (rs->read_flags & RS_READ_LEAN) ?
	    lean_skip : NULL, &root, &line, &msg) != 0) {
		errorf(cause, "%s:%d: bad JSON: %s", name, line, msg);
		free(msg);
		return -1;
	}
	rs->format = RS_FMT_JSON;
	if (root->type != JV_OBJECT) {
		errorf(cause, "%s:%d: not a bonnie-ng record (not an object)",
		    name, root->line);
		goto out;
	}
	schema = jv_str(root, "schema");
	if (schema != NULL && strcmp(schema, SWEEP_SCHEMA) == 0)
		sweep = 1;
	else if (schema == NULL || strcmp(schema, "bonnie-ng/1") != 0) {
		errorf(cause, "%s:%d: not a bonnie-ng/1 or %s record (schema "
		    "is %s)", name, root->line, SWEEP_SCHEMA,
		    schema ? schema : "missing");
		goto out;
	}
	read_settings(root, rs);
	opt = jv_get(root, "options");
	label = jv_str(opt, "label");
	if (label == NULL)
		label = rs->set.hostname;
	what = sweep ? "points" : "runs";
	runs = jv_get(root, what);
	if (runs == NULL || runs->type != JV_ARRAY) {
		errorf(cause, "%s:%d: record has no \"%s\" array", name,
		    root->line, what);
		goto out;
	}
	if (sweep && read_sweep(name, root, rs, cause) != 0)
		goto out;
	for (i = 0; i < runs->len; i++) {
		run = &runs->items[i];
		phases = jv_get(run, "phases");
		if (phases == NULL || phases->type != JV_OBJECT) {
			errorf(cause, "%s:%d: %s %zu has no \"phases\" object",
			    name, run->line, sweep ? "point" : "run", i);
			goto out;
		}
		r = rs_add_run(rs, label, run->line);
		r->size = rs->set.size;
		if (sweep && read_point(name, run, r, cause) != 0)
			goto out;
		if (read_run_phases(name, run, r, cause) != 0)
			goto out;
		if (sweep && read_more_runs(name, run, rs, label, cause) != 0)
			goto out;
	}
	ret = 0;
out:
	jv_free(root);
	return ret;
}
