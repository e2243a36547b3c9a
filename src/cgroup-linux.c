/*
 * The run's own cgroup, Linux's half.  In cgroup v2 (the unified
 * hierarchy) every cgroup has its own pressure files, and memory.stat
 * and io.stat where its parent's cgroup.subtree_control hands it the
 * memory and io controllers; in a hybrid layout the memory controller
 * may be v1's, whose memory.stat is a child's own too.  v1's blkio counts
 * a cgroup's I/O only under a throttle rule (blkio.throttle.*_device),
 * which would change the I/O path measured: it is not used.  Nothing is
 * enabled in a parent (a machine-wide change): the run takes what its
 * cgroup's parent hands a child.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"

/* The hierarchies the run may have a cgroup in. */
enum { H_V2, H_MEM1, H_COUNT };

/* One hierarchy's cgroup of the run's, in fixed buffers: a signal
 * handler leaves it. */
struct hier {
	int	 made;
	char	 dir[RCG_PATH];		/* The run's cgroup. */
	char	 back[RCG_PATH + 16];	/* Its parent's cgroup.procs. */
	char	 name[RCG_NAME];
	size_t	 top;			/* The mount point's length. */
};

static struct hier		 hier[H_COUNT];
static struct cgroup_files	 files;
static pid_t			 owner;
static int			 tried;
static char			 refused[RCG_WHY];

#define CG_NO_LIMIT	(1ULL << 60)	/* v1's "none" is near 2^63. */

void
cgroup_refuse(const char *why)
{
	snprintf(refused, sizeof(refused), "%s", why);
}

const struct cgroup_files *
cgroup_files(void)
{
	if (!tried) {
		snprintf(files.mem_why, sizeof(files.mem_why), "not made yet");
		snprintf(files.io_why, sizeof(files.io_why), "not made yet");
		snprintf(files.psi_why, sizeof(files.psi_why), "not made yet");
	}
	return &files;
}

static int
has_word(const char *list, const char *word)
{
	size_t	n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ',' || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' ' ||
		    p[n] == '\n'))
			return 1;
	return 0;
}

/* Hierarchy h's mount point and the root it shows: 0, or -1 none. */
static int
mount_of(int h, char *mnt, size_t mlen, char *root, size_t rlen)
{
	FILE	*f = fopen("/proc/self/mountinfo", "re");
	char	 line[4096], r[1024], m[1024], type[64], super[1024], *dash;
	int	 found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 ||
		    (dash = strstr(line, " - ")) == NULL ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2)
			continue;
		if (h == H_V2 ? strcmp(type, "cgroup2") == 0 :
		    strcmp(type, "cgroup") == 0 && has_word(super, "memory")) {
			snprintf(mnt, mlen, "%s", m);
			snprintf(root, rlen, "%s", strcmp(r, "/") == 0 ? "" : r);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

/* This process's cgroup in hierarchy h (/proc/self/cgroup): 0, or -1. */
static int
path_of(int h, char *path, size_t len)
{
	FILE	*f = fopen("/proc/self/cgroup", "re");
	char	 line[4096], *c, *p;
	int	 found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((c = strchr(line, ':')) == NULL ||
		    (p = strchr(c + 1, ':')) == NULL)
			continue;
		*p++ = '\0';
		*c = '\0';
		if (h == H_V2 ? strcmp(line, "0") == 0 && c[1] == '\0' :
		    has_word(c + 1, "memory")) {
			snprintf(path, len, "%s", p);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

/* The first line of a cgroup file, without its newline: 0, or -1. */
static int
first_line(const char *dir, const char *name, char *buf, size_t len)
{
	char	 file[RCG_PATH + 64];
	FILE	*f;
	int	 rv = -1;

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	if ((f = fopen(file, "re")) == NULL)
		return -1;
	if (fgets(buf, (int)len, f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		rv = 0;
	}
	fclose(f);
	return rv;
}

/* Write a process id into a cgroup.procs file: 0, or -1 with errno. */
static int
put_pid(const char *procs, pid_t pid)
{
	char	num[24];
	int	fd, n, i, rv = 0;
	long	v = (long)pid;

	/* By hand: a signal handler calls this. */
	i = (int)sizeof(num);
	num[--i] = '\0';
	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && i > 0);
	if ((fd = open(procs, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	n = (int)strlen(num + i);
	if (write(fd, num + i, (size_t)n) != n)
		rv = -1;
	close(fd);
	return rv;
}

/*
 * The cgroups of runs that died without removing theirs (SIGKILL):
 * "bonnie-ng.PID" whose process is gone, removed if empty.
 */
static void
sweep_stale(const char *parent)
{
	char		 path[RCG_PATH + 300], *end;
	DIR		*d;
	struct dirent	*e;
	long		 pid;

	if ((d = opendir(parent)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "bonnie-ng.", 10) != 0)
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if ((*end != '\0' && *end != '-') || pid <= 0 ||
		    pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
		(void)rmdir(path);
	}
	closedir(d);
}

/*
 * Make the run's cgroup in hierarchy h and move this process in: 0, or
 * -1 with why.
 */
static int
make(int h, char *why, size_t wlen)
{
	struct hier	*c = &hier[h];
	char		 mnt[1024], root[1024], self[1024], parent[RCG_PATH];
	const char	*what = h == H_V2 ? "cgroup v2" : "the v1 memory "
			    "controller";
	char		 sfx[16];
	size_t		 n;
	int		 e, try;

	if (mount_of(h, mnt, sizeof(mnt), root, sizeof(root)) == -1) {
		snprintf(why, wlen, "%s is not mounted", what);
		return -1;
	}
	if (path_of(h, self, sizeof(self)) == -1) {
		snprintf(why, wlen, "no %s cgroup in /proc/self/cgroup",
		    h == H_V2 ? "v2" : "memory");
		return -1;
	}
	n = strlen(root);
	if (strncmp(self, root, n) != 0 || (self[n] != '/' &&
	    self[n] != '\0')) {
		snprintf(why, wlen, "this process's cgroup %.100s is outside "
		    "what %.100s shows", self, mnt);
		return -1;
	}
	if ((size_t)snprintf(parent, sizeof(parent), "%s%s", mnt, self + n)
	    >= sizeof(parent) - 24) {
		snprintf(why, wlen, "%s: path too long", what);
		return -1;
	}
	c->top = strlen(mnt);
	n = strlen(parent);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	sweep_stale(parent);
	snprintf(c->back, sizeof(c->back), "%.480s/cgroup.procs", parent);
	/*
	 * A cgroup of this name that is another's (a run of the same PID in
	 * another PID namespace shares the parent) is not joined: the next
	 * name, "bonnie-ng.PID-1", and so on.
	 */
	for (try = 0; ; try++) {
		if (try > 0)
			snprintf(sfx, sizeof(sfx), "-%d", try);
		else
			sfx[0] = '\0';
		snprintf(c->dir, sizeof(c->dir), "%.460s/bonnie-ng.%ld%s",
		    parent, (long)getpid(), sfx);
		snprintf(c->name, sizeof(c->name), "%.200s%sbonnie-ng.%ld%s",
		    strcmp(self, "/") == 0 ? "" : self, "/", (long)getpid(),
		    sfx);
		if (mkdir(c->dir, 0755) == 0)
			break;
		if (errno != EEXIST || try >= 8) {
			e = errno;
			snprintf(why, wlen, "cannot make a cgroup under %.160s: "
			    "%s", parent, strerror(e));
			return -1;
		}
	}
	snprintf(root, sizeof(root), "%s/cgroup.procs", c->dir);
	if (put_pid(root, getpid()) == -1) {
		e = errno;
		(void)rmdir(c->dir);
		snprintf(why, wlen, "cannot move into %.160s: %s", c->dir,
		    strerror(e));
		return -1;
	}
	c->made = 1;
	return 0;
}

/* Whether a v2 cgroup has a controller (its cgroup.controllers). */
static int
v2_has(const char *dir, const char *ctl)
{
	char	line[512];

	return first_line(dir, "cgroup.controllers", line, sizeof(line)) ==
	    0 && has_word(line, ctl);
}

/*
 * The nearest cgroup above the run's (so at or above the one bonnie-ng
 * was started in) that limits memory, below the mount's top (which
 * limits nothing): files.limit, or "".
 */
static void
find_limit(int h)
{
	const struct hier	*c = &hier[h];
	char			 dir[RCG_PATH], name[RCG_NAME], line[64];
	char			*s, *t;
	unsigned long long	 v;

	snprintf(dir, sizeof(dir), "%s", c->dir);
	snprintf(name, sizeof(name), "%s", c->name);
	for (;;) {
		if ((s = strrchr(dir, '/')) == NULL ||
		    (t = strrchr(name, '/')) == NULL)
			return;
		*s = '\0';
		*t = '\0';
		if (strlen(dir) <= c->top)
			return;
		if (first_line(dir, h == H_V2 ? "memory.max" :
		    "memory.limit_in_bytes", line, sizeof(line)) == 0 &&
		    sscanf(line, "%llu", &v) == 1 && v < CG_NO_LIMIT) {
			snprintf(files.limit, sizeof(files.limit), "%s", dir);
			snprintf(files.limit_name, sizeof(files.limit_name),
			    "%s", name[0] != '\0' ? name : "/");
			files.limit_v2 = h == H_V2;
			return;
		}
	}
}

static void
leave_at_exit(void)
{
	cgroup_leave();
}

int
cgroup_enter(void)
{
	char	why2[RCG_WHY] = "", why1[RCG_WHY] = "", line[160];
	int	v2, v1 = 0;

	if (tried)
		return hier[H_V2].made || hier[H_MEM1].made ? 0 : -1;
	tried = 1;
	if (refused[0] != '\0') {
		snprintf(files.mem_why, sizeof(files.mem_why), "%s", refused);
		snprintf(files.io_why, sizeof(files.io_why), "%s", refused);
		snprintf(files.psi_why, sizeof(files.psi_why), "%s", refused);
		return -1;
	}
	owner = getpid();
	v2 = make(H_V2, why2, sizeof(why2)) == 0;
	if (v2) {
		const char *d = hier[H_V2].dir;

		if (first_line(d, "memory.pressure", line, sizeof(line)) == 0) {
			snprintf(files.psi, sizeof(files.psi), "%s", d);
			snprintf(files.psi_name, sizeof(files.psi_name), "%s",
			    hier[H_V2].name);
		} else
			snprintf(files.psi_why, sizeof(files.psi_why), "the "
			    "run's cgroup %.100s has no readable memory."
			    "pressure (CONFIG_PSI, psi=1)", hier[H_V2].name);
		if (v2_has(d, "memory")) {
			snprintf(files.mem, sizeof(files.mem), "%s", d);
			snprintf(files.mem_name, sizeof(files.mem_name), "%s",
			    hier[H_V2].name);
			files.mem_v2 = 1;
			find_limit(H_V2);
		}
		if (v2_has(d, "io")) {
			snprintf(files.io, sizeof(files.io), "%s", d);
			snprintf(files.io_name, sizeof(files.io_name), "%s",
			    hier[H_V2].name);
		} else
			snprintf(files.io_why, sizeof(files.io_why), "the io "
			    "controller is not in the cgroup.subtree_control "
			    "of the run's cgroup's parent (cgroup v1's blkio "
			    "counts only under a throttle rule): the run's "
			    "I/O is its processes' (/proc/self/io)");
	} else {
		snprintf(files.psi_why, sizeof(files.psi_why), "%s", why2);
		snprintf(files.io_why, sizeof(files.io_why), "%s", why2);
	}
	if (files.mem[0] == '\0' && (v1 = make(H_MEM1, why1, sizeof(why1)) ==
	    0)) {
		snprintf(files.mem, sizeof(files.mem), "%s", hier[H_MEM1].dir);
		snprintf(files.mem_name, sizeof(files.mem_name), "%s",
		    hier[H_MEM1].name);
		find_limit(H_MEM1);
	} else if (files.mem[0] == '\0')
		snprintf(files.mem_why, sizeof(files.mem_why), "%s%.240s", v2 ?
		    "cgroup v2 hands the run's cgroup no memory controller, "
		    "and " : "", why1);
	if (!v2 && !v1)
		return -1;
	atexit(leave_at_exit);
	return 0;
}

int
cgroup_exclude(pid_t pid)
{
	int	h, rv = 0;

	for (h = 0; h < H_COUNT; h++)
		if (hier[h].made && put_pid(hier[h].back, pid) == -1)
			rv = -1;
	return rv;
}

/*
 * Leave the run's cgroups and remove them.  A way out that has just
 * killed the run's children (a fault, memory gone, a second signal) gets
 * here before they have exited, and a cgroup with a process in it cannot
 * be removed (EBUSY): wait for them, 10 ms at a time, up to 2 s.  Only
 * what a signal handler may call.
 */
void
cgroup_leave(void)
{
	struct timespec	step = { 0, 10000000 };
	int		h, tries, saved = errno;

	if (owner == 0 || getpid() != owner)
		return;
	for (h = 0; h < H_COUNT; h++) {
		if (!hier[h].made)
			continue;
		(void)put_pid(hier[h].back, getpid());
		for (tries = 0; rmdir(hier[h].dir) == -1 && errno == EBUSY &&
		    tries < 200; tries++)
			nanosleep(&step, NULL);
		if (access(hier[h].dir, F_OK) == -1 && errno == ENOENT)
			hier[h].made = 0;
	}
	errno = saved;
}
