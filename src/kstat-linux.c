/*
 * The kernel's account, Linux's half: /proc/vmstat, /proc/diskstats (with
 * the devices /sys names under the target's: a partition's disk, a
 * device-mapper or md device's slaves, a loop device's backing file's
 * device), /proc/pressure/{io,memory,cpu}, the memory cgroup's
 * memory.stat (v2, else v1 with memory.failcnt) and /proc/self/io.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstat.h"
#include "platform.h"
#include "cgroup.h"
#include "timer.h"

/* The name of the block device dev (its /sys directory's), or -1. */
static int
dev_sys(dev_t dev, char *real, size_t rlen, char *name, size_t nlen)
{
	char	 path[64], *r, *s;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
	    minor(dev));
	if ((r = realpath(path, NULL)) == NULL)
		return -1;
	snprintf(real, rlen, "%s", r);
	s = strrchr(r, '/');
	snprintf(name, nlen, "%s", s != NULL ? s + 1 : r);
	free(r);
	return 0;
}

static int
has_dev(const struct kstat_src *s, const char *name)
{
	int	i;

	for (i = 0; i < s->ndev; i++)
		if (strcmp(s->dev[i], name) == 0)
			return 1;
	return 0;
}

static void
add_dev(struct kstat_src *s, const char *name, const char *role)
{
	if (s->ndev >= KS_DEV_MAX || name[0] == '\0' || has_dev(s, name))
		return;
	snprintf(s->dev[s->ndev], sizeof(s->dev[0]), "%s", name);
	snprintf(s->role[s->ndev], sizeof(s->role[0]), "%s", role);
	s->ndev++;
}

/* A device and, for a partition, its disk; then the disk's slaves. */
static void
add_tree(struct kstat_src *s, dev_t dev, const char *role)
{
	char		 real[PATH_MAX], name[64], p[PATH_MAX + 32];
	char		*slash;
	DIR		*d;
	struct dirent	*e;

	if (dev_sys(dev, real, sizeof(real), name, sizeof(name)) == -1)
		return;
	add_dev(s, name, role);
	snprintf(p, sizeof(p), "%s/partition", real);
	if (access(p, F_OK) == 0 && (slash = strrchr(real, '/')) != NULL) {
		*slash = '\0';
		if ((slash = strrchr(real, '/')) != NULL)
			add_dev(s, slash + 1, "disk");
	}
	snprintf(p, sizeof(p), "%s/slaves", real);
	if ((d = opendir(p)) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			add_dev(s, e->d_name, "slave");
	closedir(d);
}

/*
 * The memory cgroup the process runs in, when the run has none of its
 * own: v2's memory.stat when there is one, else v1's; shared with
 * whatever else runs there.
 */
static void
find_cgroup(struct kstat_src *s)
{
	char	dir[1024];
	int	v2;

	for (v2 = 1; v2 >= 0; v2--) {
		if (platform_cgroup_dir(v2, dir, sizeof(dir), s->cg_path,
		    sizeof(s->cg_path)) == -1)
			continue;
		snprintf(s->cg_file, sizeof(s->cg_file), "%.1000s/memory.stat",
		    dir);
		if (access(s->cg_file, R_OK) == -1) {
			s->cg_file[0] = '\0';
			continue;
		}
		s->cg_v2 = v2;
		if (!v2)
			snprintf(s->cg_fail, sizeof(s->cg_fail),
			    "%.1000s/memory.failcnt", dir);
		return;
	}
	snprintf(s->cg_why, sizeof(s->cg_why), "no memory cgroup with a "
	    "memory.stat for this process (/proc/self/cgroup)");
}

/*
 * The run's own cgroup (cgroup.h): its memory.stat, the limit above it,
 * its pressure files and io.stat; the process's cgroup where the run has
 * no memory.stat of its own.
 */
static void
find_run_cgroup(struct kstat_src *s)
{
	const struct cgroup_files	*f;

	(void)cgroup_enter();
	f = cgroup_files();
	if (f->mem[0] != '\0') {
		snprintf(s->cg_file, sizeof(s->cg_file), "%.1000s/memory.stat",
		    f->mem);
		snprintf(s->cg_path, sizeof(s->cg_path), "%s", f->mem_name);
		s->cg_v2 = f->mem_v2;
		s->cg_own = 1;
	} else
		find_cgroup(s);
	if (f->limit[0] != '\0') {
		snprintf(s->lim_file, sizeof(s->lim_file), "%.1000s/%s",
		    f->limit, f->limit_v2 ? "memory.events" : "memory.failcnt");
		snprintf(s->lim_path, sizeof(s->lim_path), "%s", f->limit_name);
		s->lim_v2 = f->limit_v2;
	}
	if (f->psi[0] != '\0') {
		snprintf(s->rpsi_dir, sizeof(s->rpsi_dir), "%s", f->psi);
		snprintf(s->rpsi_path, sizeof(s->rpsi_path), "%s", f->psi_name);
	} else
		snprintf(s->rpsi_why, sizeof(s->rpsi_why), "%s", f->psi_why);
	if (f->io[0] != '\0')
		snprintf(s->rio_file, sizeof(s->rio_file), "%.1000s/io.stat",
		    f->io);
	else
		snprintf(s->rio_why, sizeof(s->rio_why), "%s", f->io_why);
}

/* Each device's "MAJ:MIN", as io.stat names it. */
static void
dev_ids(struct kstat_src *s)
{
	char	 path[96], line[32];
	FILE	*f;
	int	 i;

	for (i = 0; i < s->ndev; i++) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/dev",
		    s->dev[i]);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fgets(line, sizeof(line), f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(s->dev_id[i], sizeof(s->dev_id[i]), "%.23s", line);
		}
		fclose(f);
	}
}

void
kstat_sys_find(struct kstat_src *s, dev_t io_dev, const char *memfs)
{
	struct stat	 st;
	char		*backing = NULL, loop[64];
	int		 dio;

	find_run_cgroup(s);
	if (memfs != NULL) {
		snprintf(s->dev_why, sizeof(s->dev_why), "%s is a memory file "
		    "system: no block device", memfs);
		return;
	}
	if (major(io_dev) == 0) {
		snprintf(s->dev_why, sizeof(s->dev_why), "no block device under "
		    "the file system (device %u:%u: btrfs, overlay, NFS and "
		    "the like)", major(io_dev), minor(io_dev));
		return;
	}
	add_tree(s, io_dev, "target");
	if (platform_loop_info(io_dev, &backing, &dio, loop,
	    sizeof(loop)) == 0 && backing != NULL &&
	    stat(backing, &st) == 0 && major(st.st_dev) != 0)
		add_tree(s, st.st_dev, "backing");
	free(backing);
	if (s->ndev == 0)
		snprintf(s->dev_why, sizeof(s->dev_why), "device %u:%u is not "
		    "in /sys/dev/block", major(io_dev), minor(io_dev));
	dev_ids(s);
}

/* The slot of a counter's name, added when new; -1 when full. */
static int
slot(char (*names)[KS_NAME], int *n, int max, int guess, const char *name)
{
	int	i;

	if (guess < *n && strcmp(names[guess], name) == 0)
		return guess;
	for (i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	if (*n >= max || strlen(name) >= KS_NAME)
		return -1;
	snprintf(names[*n], KS_NAME, "%s", name);
	return (*n)++;
}

/* "name value" lines into the named slots; errno or 0. */
static int
read_pairs(const char *path, char (*names)[KS_NAME], int *n, int max,
    uint64_t *v)
{
	FILE		*f;
	char		 line[256], name[128];
	uint64_t	 x;
	int		 k = 0, i;

	if ((f = fopen(path, "re")) == NULL)
		return errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%127s %" SCNu64, name, &x) != 2)
			continue;
		/* /proc/self/io has "read_bytes: N". */
		if ((i = (int)strlen(name)) > 0 && name[i - 1] == ':')
			name[i - 1] = '\0';
		if ((i = slot(names, n, max, k, name)) >= 0)
			v[i] = x;
		k++;
	}
	fclose(f);
	return 0;
}

static void
read_disks(const struct kstat_src *s, struct kstat_snap *sn)
{
	FILE		*f;
	char		 line[512], name[64];
	unsigned long long f_[KS_DISK_FIELDS];
	int		 i, k, got;

	if (s->ndev == 0 || (f = fopen("/proc/diskstats", "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		memset(f_, 0, sizeof(f_));
		got = sscanf(line, "%*u %*u %63s %llu %llu %llu %llu %llu %llu "
		    "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		    name, &f_[0], &f_[1], &f_[2], &f_[3], &f_[4], &f_[5],
		    &f_[6], &f_[7], &f_[8], &f_[9], &f_[10], &f_[11], &f_[12],
		    &f_[13], &f_[14], &f_[15], &f_[16]);
		if (got < 12)
			continue;
		for (i = 0; i < s->ndev; i++) {
			if (strcmp(s->dev[i], name) != 0)
				continue;
			for (k = 0; k < KS_DISK_FIELDS; k++)
				sn->dev[i][k] = f_[k];
			sn->dev_ok[i] = 1;
		}
	}
	fclose(f);
}

/*
 * The pressure files of dir ("/proc/pressure/" and names, or a cgroup's
 * "DIR/" and "NAME.pressure"): each resource's some and full totals.
 */
static int
read_psi(const char *dir, const char *suffix, uint64_t (*v)[2],
    int (*ok)[2])
{
	char		 path[1200], line[256], kind[8];
	unsigned long long t;
	FILE		*f;
	int		 r, err = 0;
	char		*p;

	for (r = 0; r < KP_NRES; r++) {
		snprintf(path, sizeof(path), "%.1100s%s%s", dir,
		    kstat_psi_name[r], suffix);
		if ((f = fopen(path, "re")) == NULL) {
			err = errno;
			continue;
		}
		while (fgets(line, sizeof(line), f) != NULL) {
			if (sscanf(line, "%7s", kind) != 1 ||
			    (p = strstr(line, "total=")) == NULL ||
			    sscanf(p, "total=%llu", &t) != 1)
				continue;
			if (strcmp(kind, "some") == 0) {
				v[r][0] = t;
				ok[r][0] = 1;
			} else if (strcmp(kind, "full") == 0) {
				v[r][1] = t;
				ok[r][1] = 1;
			}
		}
		/* A kernel without PSI fails the read (EOPNOTSUPP). */
		if (ferror(f))
			err = errno != 0 ? errno : EIO;
		fclose(f);
	}
	return err;
}

/* The run's io.stat: "MAJ:MIN rbytes=N wbytes=N rios=N ..." a line. */
static int
read_io_stat(const struct kstat_src *s, struct kstat_snap *sn)
{
	char		 line[512], id[24], key[16], *p, *tok, *save = NULL;
	unsigned long long v;
	FILE		*f;
	int		 i, k;

	if ((f = fopen(s->rio_file, "re")) == NULL)
		return errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%23s", id) != 1)
			continue;
		for (i = 0; i < s->ndev; i++)
			if (strcmp(s->dev_id[i], id) == 0)
				break;
		if (i == s->ndev)
			continue;
		for (p = line + strlen(id); (tok = strtok_r(p, " \n", &save)) != NULL;
		    p = NULL) {
			if (sscanf(tok, "%15[a-z]=%llu", key, &v) != 2)
				continue;
			for (k = 0; k < KR_COUNT; k++)
				if (strcmp(key, kstat_rio_name[k]) == 0)
					sn->rio[i][k] = v;
		}
	}
	fclose(f);
	return 0;
}

/* The limit's hits: v1 memory.failcnt, v2 memory.events' "max". */
static int
read_limit(const struct kstat_src *s, uint64_t *hits)
{
	char		 line[128];
	unsigned long long v;
	FILE		*f;
	int		 got = 0;

	if ((f = fopen(s->lim_file, "re")) == NULL)
		return errno;
	while (!got && fgets(line, sizeof(line), f) != NULL)
		got = s->lim_v2 ? sscanf(line, "max %llu", &v) == 1 :
		    sscanf(line, "%llu", &v) == 1;
	fclose(f);
	if (!got)
		return ENOENT;
	*hits = v;
	return 0;
}

void
kstat_sys_read(struct kstat_src *s, struct kstat_snap *sn)
{
	FILE		*f;
	uint64_t	 x;
	int		 i;

	memset(sn, 0, sizeof(*sn));
	sn->vm_err = read_pairs("/proc/vmstat", s->vm_name, &s->nvm,
	    KS_VM_MAX, sn->vm);
	read_disks(s, sn);
	sn->psi_err = read_psi("/proc/pressure/", "", sn->psi, sn->psi_ok);
	sn->rpsi_err = ENOENT;
	if (s->rpsi_dir[0] != '\0') {
		char	dir[1100];

		snprintf(dir, sizeof(dir), "%.1000s/", s->rpsi_dir);
		sn->rpsi_err = read_psi(dir, ".pressure", sn->rpsi,
		    sn->rpsi_ok);
	}
	sn->rio_err = s->rio_file[0] != '\0' ? read_io_stat(s, sn) : ENOENT;
	sn->lim_err = s->lim_file[0] != '\0' ? read_limit(s, &sn->lim) :
	    ENOENT;
	sn->cg_err = ENOENT;
	if (s->cg_file[0] != '\0')
		sn->cg_err = read_pairs(s->cg_file, s->cg_name, &s->ncg,
		    KS_CG_MAX, sn->cg);
	if (sn->cg_err == 0 && s->cg_fail[0] != '\0' &&
	    (f = fopen(s->cg_fail, "re")) != NULL) {
		if (fscanf(f, "%" SCNu64, &x) == 1 && (i = slot(s->cg_name,
		    &s->ncg, KS_CG_MAX, 0, "failcnt")) >= 0)
			sn->cg[i] = x;
		fclose(f);
	}
}

void
kstat_sys_proc(struct kstat_proc *p)
{
	char		 names[KC_COUNT][KS_NAME];
	uint64_t	 v[KC_COUNT];
	int		 id[KC_COUNT] = { 0 }, i, n = 0, max;

	memset(p, 0, sizeof(*p));
	p->ru_ok = cpu_counts(&p->v[KC_NVCSW], &p->v[KC_NIVCSW],
	    &p->v[KC_MINFLT], &p->v[KC_MAJFLT]) == 0;
	/* /proc/self/io's counters, by their names in the table. */
	for (i = 0; i < KC_COUNT; i++)
		if (kstat_proc[i].src == KS_PROC_IO) {
			snprintf(names[n], KS_NAME, "%s", kstat_proc[i].name);
			v[n] = UINT64_MAX;
			id[n++] = i;
		}
	max = n;
	/* Reaped children's (forked seekers') I/O is in the parent's. */
	p->io_err = read_pairs("/proc/self/io", names, &n, max, v);
	p->io_ok = p->io_err == 0;
	for (i = 0; i < max; i++) {
		if (v[i] == UINT64_MAX)
			p->io_ok = 0;
		p->v[id[i]] = v[i];
	}
	if (p->io_err == 0 && !p->io_ok)
		p->io_err = ENOENT;
	p->workers = 1;
}

int
kstat_sys_gauges(uint64_t *dirty, uint64_t *writeback)
{
	FILE		*f;
	char		 line[128];
	uint64_t	 x;
	int		 got = 0;

	if ((f = fopen("/proc/vmstat", "re")) == NULL)
		return -1;
	while (got != 3 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "nr_dirty %" SCNu64, &x) == 1) {
			*dirty = x;
			got |= 1;
		} else if (sscanf(line, "nr_writeback %" SCNu64, &x) == 1) {
			*writeback = x;
			got |= 2;
		}
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

int
kstat_sys_dev_now(const char *name, uint64_t *inflight, uint64_t *sectors)
{
	char		 path[128];
	unsigned long long v[KS_DISK_FIELDS];
	FILE		*f;
	int		 n;

	if (name[0] == '\0')
		return -1;
	/* One small file, not the whole of /proc/diskstats. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", name);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
	    &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]);
	fclose(f);
	if (n != 9)
		return -1;
	*inflight = v[8];
	*sectors = v[2] + v[6];
	return 0;
}
