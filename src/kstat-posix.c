/*
 * The kernel's account elsewhere than Linux: the process's own counters
 * from getrusage, and for the rest, the reason there is nothing to read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "kstat.h"
#include "timer.h"

void
kstat_sys_find(struct kstat_src *s, dev_t io_dev, const char *memfs)
{
	(void)io_dev;
	(void)memfs;
	snprintf(s->dev_why, sizeof(s->dev_why), "not known on this system "
	    "(no /proc/diskstats)");
	(void)cgroup_enter();
	snprintf(s->cg_why, sizeof(s->cg_why), "%s", cgroup_files()->mem_why);
	snprintf(s->rpsi_why, sizeof(s->rpsi_why), "%s",
	    cgroup_files()->psi_why);
	snprintf(s->rio_why, sizeof(s->rio_why), "%s", cgroup_files()->io_why);
}

void
kstat_sys_read(struct kstat_src *s, struct kstat_snap *sn)
{
	(void)s;
	memset(sn, 0, sizeof(*sn));
	sn->vm_err = ENOSYS;
	sn->psi_err = ENOSYS;
	sn->cg_err = ENOSYS;
}

void
kstat_sys_proc(struct kstat_proc *p)
{
	memset(p, 0, sizeof(*p));
	p->ru_ok = cpu_counts(&p->v[KC_NVCSW], &p->v[KC_NIVCSW],
	    &p->v[KC_MINFLT], &p->v[KC_MAJFLT]) == 0;
	p->io_err = ENOSYS;
	p->workers = 1;
}

int
kstat_sys_gauges(uint64_t *dirty, uint64_t *writeback)
{
	(void)dirty;
	(void)writeback;
	errno = ENOSYS;
	return -1;
}

int
kstat_sys_dev_now(const char *name, uint64_t *inflight, uint64_t *sectors)
{
	(void)name;
	(void)inflight;
	(void)sectors;
	errno = ENOSYS;
	return -1;
}
