/*
 * The kernel's account of a phase, the portable part: two readings of
 * every source (kstat-linux.c), their deltas, iostat -x's arithmetic on
 * /proc/diskstats, the notes that change what a figure means and the -K
 * table (kstat-record.c writes the record's "kernel" object, kstat-hosts.c
 * sums the hosts' accounts).  Nothing here reads a clock.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "kstat.h"
#include "text.h"

const char *const kstat_iostat_name[KI_COUNT] = {
	[KI_RS] = "r/s", [KI_RKBS] = "rkB/s", [KI_RRQMS] = "rrqm/s",
	[KI_RRQM_PCT] = "rrqm", [KI_RAWAIT] = "r_await",
	[KI_RAREQSZ] = "rareq-sz",
	[KI_WS] = "w/s", [KI_WKBS] = "wkB/s", [KI_WRQMS] = "wrqm/s",
	[KI_WRQM_PCT] = "wrqm", [KI_WAWAIT] = "w_await",
	[KI_WAREQSZ] = "wareq-sz",
	[KI_DS] = "d/s", [KI_DKBS] = "dkB/s", [KI_DRQMS] = "drqm/s",
	[KI_DRQM_PCT] = "drqm", [KI_DAWAIT] = "d_await",
	[KI_DAREQSZ] = "dareq-sz",
	[KI_FS] = "f/s", [KI_FAWAIT] = "f_await", [KI_AQUSZ] = "aqu-sz",
	[KI_UTIL] = "util"
};

const char *const kstat_psi_name[KP_NRES] = {
	[KP_IO] = "io", [KP_MEMORY] = "memory", [KP_CPU] = "cpu"
};

const struct ks_proc_counter kstat_proc[KC_COUNT] = {
	[KC_NVCSW] = { .name = "nvcsw", .src = KS_RUSAGE },
	[KC_NIVCSW] = { .name = "nivcsw", .src = KS_RUSAGE },
	[KC_MINFLT] = { .name = "minflt", .src = KS_RUSAGE },
	[KC_MAJFLT] = { .name = "majflt", .src = KS_RUSAGE },
	[KC_READ_BYTES] = { .name = "read_bytes", .src = KS_PROC_IO },
	[KC_WRITE_BYTES] = { .name = "write_bytes", .src = KS_PROC_IO },
	[KC_CANCELLED_WRITE_BYTES] = { .name = "cancelled_write_bytes",
	    .src = KS_PROC_IO },
};

const char *const kstat_note_name[KN_COUNT] = {
	[KN_SWAP] = "swap", [KN_RECLAIM] = "reclaim",
	[KN_THROTTLE] = "dirty_throttle", [KN_SATURATED] = "device_saturated",
	[KN_IDLE] = "device_idle", [KN_SMALL_REQ] = "small_requests",
	[KN_UNREADABLE] = "unreadable", [KN_TIMELINE] = "timeline",
	[KN_QDEPTH] = "queue_depth", [KN_RMW] = "read_modify_write"
};

const char *const kstat_scope_name[KS_NSCOPE] = {
	[KS_RUN] = "run", [KS_DEVICE] = "device", [KS_MACHINE] = "machine"
};

const char *const kstat_rio_name[KR_COUNT] = {
	[KR_RBYTES] = "rbytes", [KR_WBYTES] = "wbytes", [KR_RIOS] = "rios",
	[KR_WIOS] = "wios", [KR_DBYTES] = "dbytes", [KR_DIOS] = "dios"
};

/* /proc/diskstats' fields after the name (Documentation/admin-guide/iostats). */
enum {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECT, DS_RD_TICKS,
	DS_WR_IOS, DS_WR_MERGES, DS_WR_SECT, DS_WR_TICKS,
	DS_IN_FLIGHT, DS_IO_TICKS, DS_TIME_IN_QUEUE,
	DS_DC_IOS, DS_DC_MERGES, DS_DC_SECT, DS_DC_TICKS,
	DS_FL_IOS, DS_FL_TICKS
};

/* Milliseconds to wait at most for the phase's requests to be counted. */
#define SETTLE_TRIES	50

struct kstat_run {
	struct kstat_src	src;
	struct kstat_snap	a, b;
};

struct kstat_run *
kstat_run_new(dev_t io_dev, const char *memfs)
{
	struct kstat_run	*k = xcalloc(1, sizeof(*k));

	kstat_sys_find(&k->src, io_dev, memfs);
	return k;
}

void
kstat_run_free(struct kstat_run *k)
{
	free(k);
}

const char *
kstat_run_device(const struct kstat_run *k)
{
	return k->src.ndev > 0 ? k->src.dev[0] : "";
}

void
kstat_begin(struct kstat_run *k)
{
	kstat_sys_read(&k->src, &k->a);
}

/* iostat -x over span seconds from two readings of a device's fields. */
static void
iostat(const uint64_t *a, const uint64_t *b, double t, double *v)
{
	double	d[KS_DISK_FIELDS];
	int	i;

	for (i = 0; i < KS_DISK_FIELDS; i++)
		d[i] = (double)(b[i] - a[i]);
	d[DS_IN_FLIGHT] = (double)b[DS_IN_FLIGHT];
	memset(v, 0, sizeof(double) * KI_COUNT);
	if (t <= 0)
		return;
#define RATE(i)		(d[i] / t)
#define PER(x, n)	(d[n] > 0 ? (x) / d[n] : 0)
#define PCT(m, n)	(d[m] + d[n] > 0 ? 100 * d[m] / (d[m] + d[n]) : 0)
	v[KI_RS] = RATE(DS_RD_IOS);
	v[KI_RKBS] = RATE(DS_RD_SECT) / 2;
	v[KI_RRQMS] = RATE(DS_RD_MERGES);
	v[KI_RRQM_PCT] = PCT(DS_RD_MERGES, DS_RD_IOS);
	v[KI_RAWAIT] = PER(d[DS_RD_TICKS], DS_RD_IOS);
	v[KI_RAREQSZ] = PER(d[DS_RD_SECT] / 2, DS_RD_IOS);
	v[KI_WS] = RATE(DS_WR_IOS);
	v[KI_WKBS] = RATE(DS_WR_SECT) / 2;
	v[KI_WRQMS] = RATE(DS_WR_MERGES);
	v[KI_WRQM_PCT] = PCT(DS_WR_MERGES, DS_WR_IOS);
	v[KI_WAWAIT] = PER(d[DS_WR_TICKS], DS_WR_IOS);
	v[KI_WAREQSZ] = PER(d[DS_WR_SECT] / 2, DS_WR_IOS);
	v[KI_DS] = RATE(DS_DC_IOS);
	v[KI_DKBS] = RATE(DS_DC_SECT) / 2;
	v[KI_DRQMS] = RATE(DS_DC_MERGES);
	v[KI_DRQM_PCT] = PCT(DS_DC_MERGES, DS_DC_IOS);
	v[KI_DAWAIT] = PER(d[DS_DC_TICKS], DS_DC_IOS);
	v[KI_DAREQSZ] = PER(d[DS_DC_SECT] / 2, DS_DC_IOS);
	v[KI_FS] = RATE(DS_FL_IOS);
	v[KI_FAWAIT] = PER(d[DS_FL_TICKS], DS_FL_IOS);
	/* Milliseconds in the queue and busy, per second of the span. */
	v[KI_AQUSZ] = RATE(DS_TIME_IN_QUEUE) / 1000;
	v[KI_UTIL] = RATE(DS_IO_TICKS) / 10;
	/* As iostat prints it: never above 100%. */
	if (v[KI_UTIL] > 100)
		v[KI_UTIL] = 100;
#undef RATE
#undef PER
#undef PCT
}

/* The counters that moved, by name; 1 when some did not fit. */
static int
deltas(const char (*names)[KS_NAME], int n, const uint64_t *a, const uint64_t *b,
    struct ks_count *out, int max, int *nout)
{
	int	i, lost = 0;

	*nout = 0;
	for (i = 0; i < n; i++) {
		if (a[i] == b[i])
			continue;
		if (*nout >= max) {
			lost = 1;
			continue;
		}
		memcpy(out[*nout].name, names[i], KS_NAME);
		out[*nout].d = (int64_t)(b[i] - a[i]);
		(*nout)++;
	}
	return lost;
}

static int
find(const char (*names)[KS_NAME], int n, const char *name)
{
	int	i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

void
kstat_why_errno(char *buf, const char *what, int e)
{
	if (e == ENOSYS)
		snprintf(buf, KS_WHY, "%.90s: not known on this system", what);
	else
		snprintf(buf, KS_WHY, "%.90s: %.60s", what, strerror(e));
}

static void
vm_account(const struct kstat_src *s, const struct kstat_snap *a,
    const struct kstat_snap *b, struct kstat_phase *o)
{
	int	i;

	o->dirty_thresh = o->dirty_bg_thresh = -1;
	if (a->vm_err != 0 || b->vm_err != 0) {
		kstat_why_errno(o->vm_why, "/proc/vmstat", a->vm_err ?
		    a->vm_err : b->vm_err);
		return;
	}
	o->vm_ok = 1;
	deltas(s->vm_name, s->nvm, a->vm, b->vm, o->vm, KS_VM_MAX,
	    &o->nvm);
	if ((i = find(s->vm_name, s->nvm, "nr_dirty")) >= 0) {
		o->dirty_peak = (double)(a->vm[i] > b->vm[i] ?
		    a->vm[i] : b->vm[i]);
		o->dirty_mean = ((double)a->vm[i] + (double)b->vm[i]) / 2;
		o->gauge_samples = 2;
	}
	if ((i = find(s->vm_name, s->nvm, "nr_writeback")) >= 0) {
		o->wb_peak = (double)(a->vm[i] > b->vm[i] ?
		    a->vm[i] : b->vm[i]);
		o->wb_mean = ((double)a->vm[i] + (double)b->vm[i]) / 2;
	}
	if ((i = find(s->vm_name, s->nvm, "nr_dirty_threshold")) >= 0)
		o->dirty_thresh = (int64_t)b->vm[i];
	if ((i = find(s->vm_name, s->nvm,
	    "nr_dirty_background_threshold")) >= 0)
		o->dirty_bg_thresh = (int64_t)b->vm[i];
}

static void
dev_account(const struct kstat_src *s, const struct kstat_snap *a,
    const struct kstat_snap *b, double span, struct kstat_phase *o)
{
	int	i;

	snprintf(o->dev_why, sizeof(o->dev_why), "%s", s->dev_why);
	for (i = 0; i < s->ndev; i++) {
		if (!a->dev_ok[i] || !b->dev_ok[i])
			continue;
		memcpy(o->dev[o->ndev].name, s->dev[i], sizeof(s->dev[i]));
		memcpy(o->dev[o->ndev].role, s->role[i], sizeof(s->role[i]));
		iostat(a->dev[i], b->dev[i], span, o->dev[o->ndev].v);
		o->ndev++;
	}
	if (o->ndev == 0 && s->ndev > 0)
		snprintf(o->dev_why, sizeof(o->dev_why), "%s is not in "
		    "/proc/diskstats", s->dev[0]);
}

/* Pressure totals (microseconds) over span seconds, as % of it. */
static int
psi_pct(const uint64_t (*a)[2], const int (*aok)[2], const uint64_t (*b)[2],
    const int (*bok)[2], double span, double (*o)[2])
{
	int	r, l, any = 0;

	for (r = 0; r < KP_NRES; r++)
		for (l = 0; l < 2; l++) {
			o[r][l] = -1;
			if (!aok[r][l] || !bok[r][l] || span <= 0)
				continue;
			o[r][l] = 100.0 * (double)(b[r][l] - a[r][l]) /
			    (span * 1e6);
			/*
			 * The readings bracket the span and the reading of
			 * the sources: a stall never exceeds the span.
			 */
			if (o[r][l] > 100)
				o[r][l] = 100;
			any = 1;
		}
	return any;
}

static void
psi_account(const struct kstat_src *s, const struct kstat_snap *a,
    const struct kstat_snap *b, double span, struct kstat_phase *o)
{
	o->psi_ok = psi_pct(a->psi, a->psi_ok, b->psi, b->psi_ok, span,
	    o->psi);
	if (!o->psi_ok)
		kstat_why_errno(o->psi_why, "/proc/pressure", a->psi_err ?
		    a->psi_err : b->psi_err ? b->psi_err : ENOENT);
	snprintf(o->rpsi_path, sizeof(o->rpsi_path), "%s", s->rpsi_path);
	if (s->rpsi_dir[0] == '\0') {
		snprintf(o->rpsi_why, sizeof(o->rpsi_why), "%s", s->rpsi_why);
		return;
	}
	o->rpsi_ok = psi_pct(a->rpsi, a->rpsi_ok, b->rpsi, b->rpsi_ok, span,
	    o->rpsi);
	if (!o->rpsi_ok)
		kstat_why_errno(o->rpsi_why, "the run's cgroup's *.pressure",
		    a->rpsi_err ? a->rpsi_err : b->rpsi_err ? b->rpsi_err :
		    ENOENT);
}

static void
cg_account(const struct kstat_src *s, const struct kstat_snap *a,
    const struct kstat_snap *b, struct kstat_phase *o)
{
	int	i, k;

	snprintf(o->cg_path, sizeof(o->cg_path), "%s", s->cg_path);
	o->cg_v2 = s->cg_v2;
	o->cg_own = s->cg_own;
	if (s->rio_file[0] == '\0')
		snprintf(o->rio_why, sizeof(o->rio_why), "%s", s->rio_why);
	else if (a->rio_err != 0 || b->rio_err != 0)
		kstat_why_errno(o->rio_why, s->rio_file, a->rio_err ?
		    a->rio_err : b->rio_err);
	else {
		o->rio_ok = 1;
		for (i = 0; i < s->ndev; i++)
			for (k = 0; k < KR_COUNT; k++)
				o->rio[i][k] = (int64_t)(b->rio[i][k] -
				    a->rio[i][k]);
	}
	snprintf(o->lim_path, sizeof(o->lim_path), "%s", s->lim_path);
	o->lim_v2 = s->lim_v2;
	if (s->lim_file[0] != '\0' && a->lim_err == 0 && b->lim_err == 0) {
		o->lim_ok = 1;
		o->lim_hits = (int64_t)(b->lim - a->lim);
	}
	if (s->cg_file[0] == '\0') {
		snprintf(o->cg_why, sizeof(o->cg_why), "%s", s->cg_why);
		return;
	}
	if (a->cg_err != 0 || b->cg_err != 0) {
		kstat_why_errno(o->cg_why, s->cg_file, a->cg_err ? a->cg_err :
		    b->cg_err);
		return;
	}
	o->cg_ok = 1;
	deltas(s->cg_name, s->ncg, a->cg, b->cg, o->cg, KS_CG_MAX,
	    &o->ncg);
}

/* Whether a device still had requests in flight at the end. */
static int
in_flight(const struct kstat_run *k)
{
	int	i;

	for (i = 0; i < k->src.ndev; i++)
		if (k->b.dev_ok[i] && k->b.dev[i][DS_IN_FLIGHT] > 0)
			return 1;
	return 0;
}

/* The reading at the phase's end, once its requests are counted. */
static void
read_end(struct kstat_run *k)
{
	int	tries;

	kstat_sys_read(&k->src, &k->b);
	/*
	 * A request whose data is in (the phase's last read returned) is
	 * counted in /proc/diskstats only when it ends, a moment later:
	 * wait for the phase's requests to end, for up to SETTLE_TRIES ms.
	 */
	for (tries = 0; tries < SETTLE_TRIES && in_flight(k); tries++) {
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		kstat_sys_read(&k->src, &k->b);
	}
}

void
kstat_end(struct kstat_run *k, double span, struct kstat_phase *o)
{
	read_end(k);
	kstat_account(&k->src, &k->a, &k->b, span, o);
}

void
kstat_end_readings(struct kstat_run *k, struct kstat_readings *r)
{
	read_end(k);
	r->known = 1;
	r->src = k->src;
	r->a = k->a;
	r->b = k->b;
}

void
kstat_account(const struct kstat_src *src, const struct kstat_snap *a,
    const struct kstat_snap *b, double span, struct kstat_phase *o)
{
	memset(o, 0, sizeof(*o));
	o->known = 1;
	o->span = span;
	vm_account(src, a, b, o);
	dev_account(src, a, b, span, o);
	psi_account(src, a, b, span, o);
	cg_account(src, a, b, o);
	/* Readable at the start and not at the end: a note, not a failure. */
	if ((a->vm_err == 0 && b->vm_err != 0) ||
	    (a->cg_err == 0 && b->cg_err != 0)) {
		o->notes |= 1u << KN_UNREADABLE;
		o->note_scope[KN_UNREADABLE] = b->vm_err ? KS_MACHINE : KS_RUN;
		snprintf(o->note_text[KN_UNREADABLE],
		    sizeof(o->note_text[0]), "%.100s could not be read at the "
		    "phase's end: %.50s", b->vm_err ? "/proc/vmstat" :
		    src->cg_file, strerror(b->vm_err ? b->vm_err : b->cg_err));
	}
}

void
kstat_attach_timeline(struct kstat_phase *k, struct kstat_timeline *tl,
    const char *why)
{
	free(k->tl);
	k->tl = tl;
	snprintf(k->tl_why, sizeof(k->tl_why), "%s", tl == NULL &&
	    why != NULL ? why : "");
	if (tl == NULL || tl->gauges < 2 || !k->vm_ok)
		return;
	k->dirty_peak = tl->dirty_peak;
	k->dirty_mean = tl->dirty_sum / (double)tl->gauges;
	k->wb_peak = tl->wb_peak;
	k->wb_mean = tl->wb_sum / (double)tl->gauges;
	k->gauge_samples = (int)tl->gauges;
}

void
kstat_proc_begin(struct kstat_proc *p)
{
	kstat_sys_proc(p);
}

void
kstat_proc_end(const struct kstat_proc *a, struct kstat_proc *d)
{
	struct kstat_proc	b;
	int			i;

	kstat_sys_proc(&b);
	memset(d, 0, sizeof(*d));
	d->workers = 1;
	d->ru_ok = a->ru_ok && b.ru_ok;
	d->io_ok = a->io_ok && b.io_ok;
	d->io_err = a->io_ok ? b.io_err : a->io_err;
	for (i = 0; i < KC_COUNT; i++)
		d->v[i] = b.v[i] - a->v[i];
}

void
kstat_proc_add(struct kstat_proc *sum, const struct kstat_proc *p)
{
	int	i;

	if (p->workers == 0)
		return;
	if (sum->workers == 0) {
		*sum = *p;
		return;
	}
	sum->ru_ok = sum->ru_ok && p->ru_ok;
	sum->io_ok = sum->io_ok && p->io_ok;
	if (!p->io_ok)
		sum->io_err = p->io_err;
	sum->workers += p->workers;
	for (i = 0; i < KC_COUNT; i++)
		sum->v[i] += p->v[i];
}

static int64_t
lookup(const struct ks_count *c, int n, const char *name)
{
	int	i;

	for (i = 0; i < n; i++)
		if (strcmp(c[i].name, name) == 0)
			return c[i].d;
	return 0;
}

int64_t
kstat_vm(const struct kstat_phase *k, const char *name)
{
	return lookup(k->vm, k->nvm, name);
}

int64_t
kstat_cg(const struct kstat_phase *k, const char *name)
{
	return lookup(k->cg, k->ncg, name);
}

int64_t
kstat_vm_prefix(const struct kstat_phase *k, const char *prefix)
{
	size_t	n = strlen(prefix);
	int64_t	sum = 0;
	int	i;

	for (i = 0; i < k->nvm; i++)
		if (strncmp(k->vm[i].name, prefix, n) == 0)
			sum += k->vm[i].d;
	return sum;
}

/*
 * Pages reclaim scanned ("pgscan") or took ("pgsteal") in the phase, by
 * any reclaimer: the cgroup's own count where its memory.stat has one
 * (v2), else vmstat's by type (pgscan_anon + pgscan_file, which count
 * cgroup-limit reclaim; pgscan_direct does not), else by reclaimer.
 */
int64_t
kstat_reclaimed(const struct kstat_phase *k, const char *what)
{
	char	anon[32], file[32];
	int64_t	n;

	if (k->cg_ok && (n = kstat_cg(k, what)) > 0)
		return n;
	snprintf(anon, sizeof(anon), "%s_anon", what);
	snprintf(file, sizeof(file), "%s_file", what);
	if ((n = kstat_vm(k, anon) + kstat_vm(k, file)) > 0)
		return n;
	snprintf(anon, sizeof(anon), "%s_kswapd", what);
	snprintf(file, sizeof(file), "%s_direct", what);
	return kstat_vm(k, anon) + kstat_vm(k, file);
}

/* A span of w columns over a group, " --- label ---". */
static void
span(FILE *f, int w, const char *label)
{
	int	n = (int)strlen(label) + 2, left = (w - 1 - n) / 2, i;

	fputc(' ', f);
	for (i = 0; i < left; i++)
		fputc('-', f);
	fprintf(f, " %s ", label);
	for (i = left + n; i < w - 1; i++)
		fputc('-', f);
}

void
kstat_print_head(FILE *f)
{
	fprintf(f, "%-8s %-8s %8s %8s %6s %5s %7s %7s %9s %6s %6s %7s "
	    "%7s %6s %6s %6s %6s\n", "phase", "device", "rareq-sz",
	    "wareq-sz", "aqu-sz", "util", "r_await", "w_await", "nr_dirty",
	    "/limit", "stall", "pgscan", "pswp", "io", "memory", "io",
	    "memory");
	fprintf(f, "%-8s %-8s %8s %8s %6s %5s %7s %7s %9s %6s %6s %7s "
	    "%7s %6s %6s %6s %6s\n", "", "", "KiB", "KiB", "", "%", "ms", "ms",
	    "peak", "%", "alloc", "all", "in+out", "full%", "full%", "some%",
	    "some%");
	/* Whose each group of columns is. */
	fprintf(f, "%-8s", "");
	span(f, 56, "the device's");
	span(f, 54, "the machine's");
	span(f, 14, "the run's");
	fputc('\n', f);
}

/* A count in at most 7 characters: 1234567, 12.3M. */
static const char *
short_count(char *b, size_t n, int64_t v)
{
	if (v < 10000000)
		snprintf(b, n, "%lld", (long long)v);
	else
		snprintf(b, n, "%.1fM", (double)v / 1e6);
	return b;
}

void
kstat_print_line(FILE *f, const char *phase, const struct kstat_phase *k)
{
	const struct ks_dev	*d;
	char			 a[24], b[24], c[24];

	fprintf(f, "%-8s", phase);
	if (k == NULL || !k->known) {
		fprintf(f, " not read\n");
		return;
	}
	if (k->ndev > 0) {
		d = &k->dev[0];
		fprintf(f, " %-8s %8.1f %8.1f %6.2f", d->name,
		    d->v[KI_RAREQSZ], d->v[KI_WAREQSZ], d->v[KI_AQUSZ]);
		/* A sum over hosts has no util: each host's. */
		if (d->v[KI_UTIL] >= 0)
			fprintf(f, " %5.0f", d->v[KI_UTIL]);
		else
			fprintf(f, " %5s", "-");
		fprintf(f, " %7.2f %7.2f", d->v[KI_RAWAIT], d->v[KI_WAWAIT]);
	} else
		fprintf(f, " %-8s %8s %8s %6s %5s %7s %7s", "-", "-", "-", "-",
		    "-", "-", "-");
	if (k->vm_ok && k->hosts > 0)
		fprintf(f, " %9s %6s %6s %7s %7s", "-", "-",
		    short_count(a, sizeof(a), kstat_vm_prefix(k, "allocstall_")),
		    short_count(b, sizeof(b), kstat_vm_prefix(k, "pgscan_direct")),
		    short_count(c, sizeof(c), kstat_vm(k, "pswpin") +
		    kstat_vm(k, "pswpout")));
	else if (k->vm_ok)
		fprintf(f, " %9.0f %6.1f %6s %7s %7s", k->dirty_peak,
		    k->dirty_thresh > 0 ? 100 * k->dirty_peak /
		    (double)k->dirty_thresh : 0, short_count(a, sizeof(a),
		    kstat_vm_prefix(k, "allocstall_")), short_count(b, sizeof(b),
		    kstat_reclaimed(k, "pgscan")), short_count(c, sizeof(c),
		    kstat_vm(k, "pswpin") + kstat_vm(k, "pswpout")));
	else
		fprintf(f, " %9s %6s %6s %7s %7s", "-", "-", "-", "-", "-");
	if (k->psi_ok)
		fprintf(f, " %6.1f %6.1f", k->psi[KP_IO][1] >= 0 ?
		    k->psi[KP_IO][1] : 0, k->psi[KP_MEMORY][1] >= 0 ?
		    k->psi[KP_MEMORY][1] : 0);
	else
		fprintf(f, " %6s %6s", "-", "-");
	/* The run's own cgroup's: what its processes waited. */
	if (k->rpsi_ok)
		fprintf(f, " %6.1f %6.1f", k->rpsi[KP_IO][0] >= 0 ?
		    k->rpsi[KP_IO][0] : 0, k->rpsi[KP_MEMORY][0] >= 0 ?
		    k->rpsi[KP_MEMORY][0] : 0);
	else
		fprintf(f, " %6s %6s", "-", "-");
	fputc('\n', f);
}
