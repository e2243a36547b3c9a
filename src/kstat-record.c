/*
 * The record's "kernel" object of a phase (doc/RECORD.md): one host's
 * account, or under MPI the sum over the hosts with each host's own in
 * "hosts"; a sum writes null for what is per host only.
 */
#include <errno.h>
#include <stdio.h>

#include "json.h"
#include "kstat.h"

static void
write_counts(struct json *j, const char *key, const struct ks_count *c,
    int n)
{
	int	i;

	json_object_start(j, key);
	for (i = 0; i < n; i++)
		json_int(j, c[i].name, c[i].d);
	json_object_end(j);
}

static void
write_vm(struct json *j, const struct kstat_phase *k)
{
	if (!k->vm_ok) {
		json_null(j, "vmstat");
		json_string(j, "vmstat_why", k->vm_why);
		json_null(j, "dirty");
		return;
	}
	write_counts(j, "vmstat", k->vm, k->nvm);
	json_null(j, "vmstat_why");
	/* Gauges: each host's own. */
	if (k->hosts > 0) {
		json_null(j, "dirty");
		return;
	}
	json_object_start(j, "dirty");
	json_double(j, "nr_dirty_peak", k->dirty_peak);
	json_double(j, "nr_dirty_mean", k->dirty_mean);
	json_double(j, "nr_writeback_peak", k->wb_peak);
	json_double(j, "nr_writeback_mean", k->wb_mean);
	json_int(j, "samples", k->gauge_samples);
	json_int_or_null(j, "nr_dirty_threshold", k->dirty_thresh);
	json_int_or_null(j, "nr_dirty_background_threshold",
	    k->dirty_bg_thresh);
	json_object_end(j);
}

static void
write_devices(struct json *j, const struct kstat_phase *k)
{
	int	i, f;

	if (k->ndev == 0) {
		json_null(j, "disk");
		json_string(j, "disk_why", k->dev_why);
		return;
	}
	json_array_start(j, "disk");
	for (i = 0; i < k->ndev; i++) {
		json_object_start(j, NULL);
		json_string(j, "disk_device", k->dev[i].name);
		json_string(j, "role", k->dev[i].role);
		for (f = 0; f < KI_COUNT; f++)
			if (f == KI_UTIL && k->hosts > 0)
				json_null(j, kstat_iostat_name[f]);
			else
				json_double(j, kstat_iostat_name[f],
				    k->dev[i].v[f]);
		json_object_end(j);
	}
	json_array_end(j);
	json_null(j, "disk_why");
}

static void write_psi_pcts(struct json *, const char *, const double (*)[2]);

static void
write_psi(struct json *j, const struct kstat_phase *k)
{
	if (k->hosts > 0) {
		json_null(j, "pressure");
		json_string(j, "pressure_why", "per host: see hosts");
		return;
	}
	if (!k->psi_ok) {
		json_null(j, "pressure");
		json_string(j, "pressure_why", k->psi_why);
		return;
	}
	write_psi_pcts(j, "pressure", k->psi);
	json_null(j, "pressure_why");
}

/* A pressure object: each resource's some and full, % of the span. */
static void
write_psi_pcts(struct json *j, const char *key, const double (*v)[2])
{
	int	r;

	json_object_start(j, key);
	for (r = 0; r < KP_NRES; r++) {
		json_object_start(j, kstat_psi_name[r]);
		json_double_or_null(j, "some_pct", v[r][0]);
		json_double_or_null(j, "full_pct", v[r][1]);
		json_object_end(j);
	}
	json_object_end(j);
}

/* The run's cgroup's io.stat, a device a line, in the disk's order. */
static void
write_rio(struct json *j, const struct kstat_phase *k)
{
	int	i, f;

	if (!k->rio_ok) {
		json_null(j, "io.stat");
		json_string(j, "io_why", k->rio_why);
		return;
	}
	json_array_start(j, "io.stat");
	for (i = 0; i < k->ndev; i++) {
		json_object_start(j, NULL);
		json_string(j, "disk_device", k->dev[i].name);
		for (f = 0; f < KR_COUNT; f++)
			json_int(j, kstat_rio_name[f], k->rio[i][f]);
		json_object_end(j);
	}
	json_array_end(j);
	json_null(j, "io_why");
}

/*
 * The cgroup: the run's own (bonnie-ng made it, "own" true) or the one
 * the run was started in, shared ("own" false); its memory.stat, and the
 * run's own pressure and io.stat, the limit that bounds it.
 */
static void
write_cg(struct json *j, const struct kstat_phase *k)
{
	if (k->hosts > 0) {
		json_null(j, "cgroup");
		json_string(j, "cgroup_why", "per host: see hosts");
		return;
	}
	if (!k->cg_ok && !k->rpsi_ok && !k->rio_ok) {
		json_null(j, "cgroup");
		json_string(j, "cgroup_why", k->cg_why);
		return;
	}
	json_object_start(j, "cgroup");
	json_bool(j, "own", k->cg_own || (!k->cg_ok && k->rpsi_ok));
	if (k->cg_ok) {
		json_string(j, "path", k->cg_path);
		json_int(j, "version", k->cg_v2 ? 2 : 1);
		write_counts(j, "memory.stat", k->cg, k->ncg);
		json_null(j, "memory_why");
	} else {
		json_null(j, "path");
		json_null(j, "version");
		json_null(j, "memory.stat");
		json_string(j, "memory_why", k->cg_why);
	}
	if (k->rpsi_ok) {
		json_string(j, "pressure_path", k->rpsi_path);
		write_psi_pcts(j, "pressure", k->rpsi);
		json_null(j, "pressure_why");
	} else {
		json_null(j, "pressure_path");
		json_null(j, "pressure");
		json_string(j, "pressure_why", k->rpsi_why);
	}
	write_rio(j, k);
	if (k->lim_ok) {
		json_object_start(j, "limit");
		json_string(j, "path", k->lim_path);
		json_int(j, "version", k->lim_v2 ? 2 : 1);
		json_int(j, k->lim_v2 ? "max" : "failcnt", k->lim_hits);
		json_object_end(j);
	} else
		json_null(j, "limit");
	json_object_end(j);
	json_null(j, "cgroup_why");
}

/* Whose each group of figures is (kstat.h's scopes). */
static void
write_scopes(struct json *j, const struct kstat_phase *k)
{
	json_object_start(j, "scopes");
	json_string(j, "process", kstat_scope_name[KS_RUN]);
	json_string(j, "cgroup", kstat_scope_name[k->cg_own ||
	    (!k->cg_ok && k->rpsi_ok) ? KS_RUN : KS_MACHINE]);
	json_string(j, "disk", kstat_scope_name[KS_DEVICE]);
	json_string(j, "vmstat", kstat_scope_name[KS_MACHINE]);
	json_string(j, "dirty", kstat_scope_name[KS_MACHINE]);
	json_string(j, "pressure", kstat_scope_name[KS_MACHINE]);
	json_object_end(j);
}

void
kstat_write_proc(struct json *j, const char *key, const struct kstat_proc *p)
{
	int	i;

	if (p == NULL || p->workers == 0 || (!p->ru_ok && !p->io_ok)) {
		json_null(j, key);
		return;
	}
	json_object_start(j, key);
	json_int(j, "processes", p->workers);
	for (i = 0; i < KC_COUNT; i++)
		if (kstat_proc[i].src == KS_RUSAGE ? p->ru_ok : p->io_ok)
			json_uint(j, kstat_proc[i].name, p->v[i]);
		else
			json_null(j, kstat_proc[i].name);
	json_object_end(j);
}

static void
write_proc(struct json *j, const struct kstat_proc *p)
{
	char	why[KS_WHY];

	kstat_write_proc(j, "process", p);
	if (p == NULL || p->workers == 0 || (!p->ru_ok && !p->io_ok))
		json_string(j, "process_why", "not read");
	else if (p->io_ok)
		json_null(j, "process_why");
	else {
		kstat_why_errno(why, "/proc/self/io", p->io_err ? p->io_err :
		    ENOENT);
		json_string(j, "process_why", why);
	}
}

static void
write_timeline(struct json *j, const struct kstat_timeline *tl)
{
	static const char *const cols[] = {
		"t_s", "done", "nr_dirty", "nr_writeback", "in_flight",
		"sectors"
	};
	size_t	c;
	int	i;

	if (tl == NULL)
		return;
	json_object_start(j, "timeline");
	json_double(j, "interval_s", tl->interval);
	json_int(j, "merged", tl->merged);
	json_array_start(j, "columns");
	for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		json_string(j, NULL, cols[c]);
	json_array_end(j);
	json_array_start(j, "samples");
	for (i = 0; i < tl->n; i++) {
		const struct tl_sample *s = &tl->s[i];

		json_row_start(j, NULL);
		json_double(j, NULL, s->t);
		json_double_or_null(j, NULL, s->done);
		json_double_or_null(j, NULL, s->dirty);
		json_double_or_null(j, NULL, s->writeback);
		json_double_or_null(j, NULL, s->inflight);
		json_double_or_null(j, NULL, s->sectors);
		json_array_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* The members of a kernel object (one host's, or the sum). */
static void
write_members(struct json *j, const struct kstat_phase *k,
    const struct kstat_proc *p)
{
	int	n;

	json_double(j, "span_s", k->span);
	write_scopes(j, k);
	write_vm(j, k);
	write_devices(j, k);
	write_psi(j, k);
	write_cg(j, k);
	write_proc(j, p);
	json_array_start(j, "notes");
	for (n = 0; n < KN_COUNT; n++) {
		if (!(k->notes & (1u << n)))
			continue;
		json_object_start(j, NULL);
		json_string(j, "kind", kstat_note_name[n]);
		json_string(j, "scope", kstat_scope_name[k->note_scope[n]]);
		json_string(j, "text", k->note_text[n]);
		json_object_end(j);
	}
	json_array_end(j);
	write_timeline(j, k->tl);
}

void
kstat_write(struct json *j, const char *key, const struct kstat_phase *k,
    const struct kstat_proc *p, const struct kstat_host *hosts, int nhosts)
{
	int	h, r;

	if (k == NULL || !k->known) {
		json_null(j, key);
		return;
	}
	json_object_start(j, key);
	write_members(j, k, p);
	if (nhosts > 0) {
		json_array_start(j, "hosts");
		for (h = 0; h < nhosts; h++) {
			json_object_start(j, NULL);
			json_string(j, "host", hosts[h].name);
			json_array_start(j, "ranks");
			for (r = 0; r < hosts[h].nranks; r++)
				json_int(j, NULL, hosts[h].ranks[r]);
			json_array_end(j);
			write_members(j, &hosts[h].k, &hosts[h].p);
			json_object_end(j);
		}
		json_array_end(j);
	}
	json_object_end(j);
}
