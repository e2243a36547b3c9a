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
	if (cache != NULL && strcmp(cache, "warm") == 0)
		f |= RS_F_WARM;
	for (k = RS_KIND_RATE; k <= RS_KIND_LAT; k++)
		r->col[RS_COL(k, i)].flags |= f;
}

static int
read_phase(const char *name, const struct jv *ph, int i, struct rs_run *r,
    char **cause)
{
	const struct jv	*lat;
	double		 n;

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
	return 0;
}

/* The vm.dirty_* settings in one line, or NULL when not recorded. */
static char *
vm_dirty(const struct jv *vm)
{
	static const char *const keys[] = {
		"dirty_ratio", "dirty_background_ratio", "dirty_bytes",
		"dirty_background_bytes", "dirty_expire_centisecs",
		"dirty_writeback_centisecs"
	};
	char	 buf[256];
	size_t	 i, used = 0;
	double	 n;

	if (vm == NULL || vm->type != JV_OBJECT)
		return NULL;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (jv_num(vm, keys[i], &n) == 0 && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used,
			    "%s%s=%.0f", used ? " " : "", keys[i] + 6, n);
	return used > 0 ? xstrdup(buf) : NULL;
}

/* The mask of the phases named in an array; 0 when there is none. */
static unsigned
phase_mask(const struct jv *a)
{
	unsigned	m = 0;
	size_t		i;
	int		id;

	if (a == NULL || a->type != JV_ARRAY)
		return 0;
	for (i = 0; i < a->len; i++)
		if (a->items[i].type == JV_STRING &&
		    (id = phase_id_by_name(a->items[i].s)) >= 0)
			m |= 1u << id;
	return m;
}

static void
read_settings(const struct jv *root, struct result_set *rs)
{
	const struct jv		*sys, *tgt, *opt, *dev, *d;
	struct rs_settings	*s = &rs->set;
	const char		*tool, *ver;
	double			 n;

	sys = jv_get(root, "system");
	tgt = jv_get(root, "target");
	opt = jv_get(root, "options");
	dev = jv_get(tgt, "device");

	tool = jv_str(root, "tool");
	ver = jv_str(root, "version");
	s->version = xasprintf("%s %s", tool ? tool : "bonnie-ng",
	    ver ? ver : "?");
	s->latency = "max";
	s->hostname = dup_str(sys, "hostname");
	s->os = dup_str(sys, "os");
	s->kernel = dup_str(sys, "kernel_release");
	s->cpu_model = dup_str(sys, "cpu_model");
	s->ram = get_u64(opt, "ram_bytes");
	if (s->ram == 0)
		s->ram = get_u64(sys, "ram_bytes");
	s->fs_type = dup_str(tgt, "fs_type");
	s->mount_options = dup_str(tgt, "mount_options");
	s->device = dup_str(dev, "name");
	/* Records from before --device measured a file system. */
	s->target = dup_str(tgt, "kind");
	if (s->target == NULL && tgt != NULL)
		s->target = xstrdup("file");
	if (s->target != NULL && strcmp(s->target, "device") == 0)
		s->target_path = dup_str(tgt, "path");
	s->scheduler = dup_str(dev, "scheduler");
	s->size = get_u64(opt, "size_bytes");
	s->chunk = get_u64(opt, "chunk");
	s->seeks = get_u64(opt, "seeks");
	s->seekers = (int)get_u64(opt, "seekers");
	s->jobs = (int)get_u64(opt, "jobs");
	s->iodepth = get_u64(opt, "iodepth");
	s->super_options = dup_str(tgt, "super_options");
	d = jv_get(opt, "files");
	if (d != NULL && d->type == JV_OBJECT) {
		s->files = get_u64(d, "files");
		s->files_max = get_u64(d, "max_bytes");
		s->files_min = get_u64(d, "min_bytes");
		s->files_dirs = get_u64(d, "dirs");
	}
	if (jv_num(dev, "read_ahead_kb", &n) == 0 && n >= 0)
		s->read_ahead = xasprintf("%.0f KiB", n);
	s->vm_dirty = vm_dirty(jv_get(tgt, "vm"));
	s->seeker_mode = dup_str(opt, "seeker_mode");
	d = jv_get(opt, "seed_given");
	if (d != NULL && d->type == JV_BOOL)
		s->seed = xstrdup(d->b ? "given (-z)" : "random");
	s->verify = dup_str(opt, "verify");
	s->dir = dup_str(tgt, "dir");
	s->phases = phase_mask(jv_get(opt, "phases"));
	s->cache = dup_str(opt, "cache");
	d = jv_get(opt, "direct");
	if (d != NULL && d->type == JV_BOOL)
		s->direct = xstrdup(d->b ? "yes" : "no");
	/* Records from before --verify have no key: nothing was checked. */
	d = jv_get(opt, "verify");
	if (d == NULL || (d->type == JV_STRING && strcmp(d->s, "off") == 0))
		s->verified = xstrdup("no");
	else if (d->type == JV_STRING)
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
	x->stopped = dup_str(root, "stopped");
	return 0;
}

/* A point's size, chunk and job count. */
static int
read_point(const char *name, const struct jv *pt, struct rs_run *r,
    char **cause)
{
	double	n;

	r->size = get_u64(pt, "size_bytes");
	r->chunk = get_u64(pt, "chunk");
	if (jv_num(pt, "jobs", &n) == 0 && n >= 1 && n <= MAX_JOBS)
		r->jobs = (int)n;
	r->files = get_u64(pt, "files");
	if (r->size == 0 || r->chunk == 0 || r->jobs == 0)
		return errorf(cause, "%s:%d: point without \"size_bytes\", "
		    "\"chunk\" or \"jobs\"", name, pt->line);
	return 0;
}

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
	int		 line, k, ret = -1, sweep = 0;

	if (jv_parse(buf, len, &root, &line, &msg) != 0) {
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
		run_failed(run, r);
		for (k = 0; k < PH_COUNT; k++)
			if (read_phase(name, jv_get(phases,
			    phase_table[k]->name), k,
			    r, cause) != 0)
				goto out;
	}
	ret = 0;
out:
	jv_free(root);
	return ret;
}
