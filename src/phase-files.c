/*
 * The file creation phases, as bonnie++ -n defines them: create, stat and
 * delete many small files, first with names in numeric order, then in a
 * random order.  Chosen with --files N[:MAX[:MIN[:DIRS]]].
 *
 * Safety: all files live in one new directory, made by mkdtemp(3) (mode
 * 0700, an unpredictable name) under -d, with DIRS subdirectories made
 * 0700 inside it; each file is made with O_CREAT|O_EXCL|O_NOFOLLOW, so a
 * name that exists already (a planted file or symlink) fails the phase
 * instead of being followed.  files_cleanup(), which the run calls on
 * every way out, removes only regular files of ours (our owner, our name
 * pattern, never through a symlink) and the directories, which rmdir(2)
 * leaves in place if anything foreign is still inside.
 *
 * The timed delete phases unlink their own names directly: the directory
 * is ours and 0700, so only root or we ourselves can put another file
 * under one of them meanwhile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "options.h"
#include "phase-ctx.h"
#include "phase.h"
#include "text.h"

#define NAME_LEN	24

static struct {
	char		 dir[512];
	int		 made;		/* dir exists, ours. */
	int		 dfd;		/* The directory, or -1. */
	int		*sub;		/* DIRS subdirectory descriptors. */
	unsigned	 nsub;		/* How many of them are held open. */
	unsigned	 ndirs;		/* How many subdirectories exist. */
	uint64_t	 n;		/* Files per set. */
	uint32_t	*perm;		/* The random order. */
	int		 present;	/* The set of files exists. */
	int		 partial;	/* Some files may exist. */
} fs = { "", 0, -1, NULL, 0, 0, 0, NULL, 0, 0 };

/* Descriptors kept free for everything else when subdirectories are held. */
#define FD_RESERVE	128

static void
file_name(char *buf, uint64_t i)
{
	snprintf(buf, NAME_LEN, "%010llu", (unsigned long long)i);
}

/*
 * Where file i lives: the directory to give openat(2) and friends, with
 * its name in name.  The subdirectories are held open when the limit on
 * open files allows (fs.nsub); otherwise the name is a path through its
 * subdirectory ("d00007/0000000007"), from the top directory.
 */
static int
file_at(uint64_t i, char *name)
{
	if (fs.ndirs > 0 && fs.nsub == 0) {
		snprintf(name, NAME_LEN, "d%05u/%010llu",
		    (unsigned)(i % fs.ndirs), (unsigned long long)i);
		return fs.dfd;
	}
	file_name(name, i);
	return fs.nsub > 0 ? fs.sub[i % fs.nsub] : fs.dfd;
}

/* fsync(2) the directory that file i lives in (--sync-writes). */
static int
dir_sync(uint64_t i)
{
	char	name[NAME_LEN];
	int	fd, r, e;

	if (fs.ndirs == 0 || fs.nsub > 0)
		return fsync(fs.nsub > 0 ? fs.sub[i % fs.nsub] : fs.dfd);
	snprintf(name, sizeof(name), "d%05u", (unsigned)(i % fs.ndirs));
	if ((fd = openat(fs.dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	r = fsync(fd);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

/*
 * May dirs subdirectories be held open, FD_RESERVE descriptors left for
 * the rest?  The soft limit is raised toward the hard one when that makes
 * room; 0 when it cannot (bash's ulimit -n sets both).
 */
static int
can_hold(unsigned dirs)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)dirs + FD_RESERVE;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return 1;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		return 0;
	rl.rlim_cur = want;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

/*
 * A file phase's failure: the call and the file's name, and the byte
 * offset in that file where there is one (a write), else -1; said why
 * when a create failed for want of inodes.
 */
static int
create_fail(struct phase_ctx *ctx, const char *what, uint64_t i, int e,
    int64_t at)
{
	struct statvfs	vfs;
	char		name[NAME_LEN], where[48] = "";

	file_name(name, i);
	phase_fail(ctx, what, at);
	ctx->err_errno = e;
	if (at >= 0)
		snprintf(where, sizeof(where), " (at byte %lld)",
		    (long long)at);
	if ((e == ENOSPC || e == EDQUOT) && fstatvfs(fs.dfd, &vfs) == 0 &&
	    vfs.f_bavail > 0)
		snprintf(ctx->err_detail, sizeof(ctx->err_detail),
		    "%s: file %llu of %llu: %s: out of inodes (%llu blocks "
		    "still free, %llu inodes free)", fs.dir,
		    (unsigned long long)i + 1, (unsigned long long)fs.n,
		    strerror(e), (unsigned long long)vfs.f_bavail,
		    (unsigned long long)vfs.f_favail);
	else
		snprintf(ctx->err_detail, sizeof(ctx->err_detail),
		    "%s: %s file %llu of %llu (%s): %s%s", fs.dir, what,
		    (unsigned long long)i + 1, (unsigned long long)fs.n, name,
		    strerror(e), where);
	errno = e;
	return -1;
}

/* Make the directory tree once per run. */
static int
files_dir(struct phase_ctx *ctx)
{
	const struct options	*opt = ctx->opt;
	struct stat		 st;
	size_t			 dl = strlen(opt->dir);
	unsigned		 i, dirs;
	char			 name[NAME_LEN];
	int			 e;

	if (fs.made)
		return 0;
	if (snprintf(fs.dir, sizeof(fs.dir), "%s%sbonnie-ng-files.XXXXXX",
	    opt->dir, dl > 0 && opt->dir[dl - 1] == '/' ? "" : "/") >=
	    (int)sizeof(fs.dir)) {
		errno = ENAMETOOLONG;
		return phase_fail(ctx, "make the file directory", -1);
	}
	if (mkdtemp(fs.dir) == NULL) {
		fs.dir[0] = '\0';
		return phase_fail(ctx, "make the file directory", -1);
	}
	fs.made = 1;
	fs.dfd = open(fs.dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fs.dfd == -1)
		return phase_fail(ctx, "open the file directory", -1);
	if (fstat(fs.dfd, &st) == -1 || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0) {
		if (errno == 0)
			errno = EPERM;
		e = errno != 0 ? errno : EPERM;
		errno = e;
		return phase_fail(ctx, "check the file directory", -1);
	}
	fs.n = opt->files_n;
	dirs = opt->files_dirs > 1 ? opt->files_dirs : 0;
	for (i = 0; i < dirs; i++) {
		snprintf(name, sizeof(name), "d%05u", i);
		if (mkdirat(fs.dfd, name, 0700) == -1) {
			e = errno;
			snprintf(ctx->err_detail, sizeof(ctx->err_detail),
			    "%.400s/%s: make subdirectory %u of %u: %s",
			    fs.dir, name, i + 1, dirs, strerror(e));
			errno = e;
			return phase_fail(ctx, "make a subdirectory", -1);
		}
		fs.ndirs = i + 1;
	}
	/* Held open only when they fit; else reached by path. */
	if (dirs > 0 && can_hold(dirs) &&
	    (fs.sub = calloc(dirs, sizeof(*fs.sub))) != NULL) {
		for (i = 0; i < dirs; i++) {
			snprintf(name, sizeof(name), "d%05u", i);
			fs.sub[i] = openat(fs.dfd, name, O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fs.sub[i] == -1)
				break;
		}
		if (i < dirs) {
			while (i > 0)
				close(fs.sub[--i]);
			free(fs.sub);
			fs.sub = NULL;
		} else
			fs.nsub = dirs;
	}
	fs.perm = malloc((size_t)fs.n * sizeof(*fs.perm));
	if (fs.perm == NULL)
		return phase_fail(ctx, "allocate", -1);
	return 0;
}

/* A fresh random order of the names (Fisher-Yates). */
static void
shuffle(struct phase_ctx *ctx, uint64_t salt)
{
	struct rng	rng;
	uint64_t	i, j;
	uint32_t	t;

	rng_seed(&rng, ctx->opt->seed ^ salt);
	for (i = 0; i < fs.n; i++)
		fs.perm[i] = (uint32_t)i;
	for (i = fs.n; i > 1; i--) {
		j = rng_next(&rng) % i;
		t = fs.perm[i - 1];
		fs.perm[i - 1] = fs.perm[j];
		fs.perm[j] = t;
	}
}

static uint64_t
pick(int random, uint64_t k)
{
	return random ? fs.perm[k] : k;
}

/* Create the set: O_CREAT|O_EXCL|O_NOFOLLOW, data when MAX > 0, close. */
static int
create_loop(struct phase_ctx *ctx, int random, int timed)
{
	const struct options	*opt = ctx->opt;
	uint64_t		 k, i, size, left, span, bytes = 0;
	size_t			 w;
	bn_time			 last = time_now();
	char			 name[NAME_LEN];
	struct rng		 rng;
	int			 fd, dfd;

	rng_seed(&rng, opt->seed ^ UINT64_C(0x66696c6573));
	span = opt->files_max > opt->files_min ?
	    opt->files_max - opt->files_min + 1 : 1;
	fs.partial = 1;
	for (k = 0; k < fs.n; k++) {
		i = pick(random, k);
		dfd = file_at(i, name);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd == -1)
			return create_fail(ctx, "create", i, errno, -1);
		if (opt->files_max > 0) {
			size = opt->files_min + rng_next(&rng) % span;
			bytes += size;
			for (left = size; left > 0; left -= w) {
				w = left < ctx->chunk ? (size_t)left :
				    ctx->chunk;
				if (phase_write_full(ctx, fd, ctx->buf, w,
				    (int64_t)(size - left)) == -1) {
					int	e = ctx->err_errno;
					int64_t	at = ctx->err_offset;

					close(fd);
					return create_fail(ctx, "write", i, e,
					    at);
				}
			}
		}
		if (close(fd) == -1)
			return create_fail(ctx, "close", i, errno, -1);
		/* --sync-writes: the new name on stable storage too. */
		if (opt->sync_writes && dir_sync(i) == -1)
			return create_fail(ctx, "fsync the directory", i,
			    errno, -1);
		if (timed)
			phase_lap(ctx, &last, k + 1);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "create", -1);
		}
	}
	fs.present = 1;
	ctx->ops = fs.n;
	ctx->bytes = bytes;	/* The files' data written. */
	return 0;
}

/* Stat each name, never through a symlink, and read it when it has data. */
static int
stat_loop(struct phase_ctx *ctx, int random)
{
	uint64_t	 k, i;
	struct stat	 st;
	bn_time		 last = time_now();
	char		 name[NAME_LEN];
	ssize_t		 got;
	off_t		 left;
	int		 fd, dfd;

	for (k = 0; k < fs.n; k++) {
		i = pick(random, k);
		dfd = file_at(i, name);
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
			return create_fail(ctx, "stat", i, errno, -1);
		if (!S_ISREG(st.st_mode))
			return create_fail(ctx, "stat", i, EPERM, -1);
		if (st.st_size > 0) {
			fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW |
			    O_CLOEXEC);
			if (fd == -1)
				return create_fail(ctx, "open", i, errno, -1);
			/* Up to the size stat gave: no read(2) only to see EOF. */
			left = st.st_size;
			do
				got = read(fd, ctx->buf, ctx->chunk);
			while (got > 0 && (left -= got) > 0);
			close(fd);
			if (got == -1)
				return create_fail(ctx, "read", i, errno, -1);
		}
		phase_lap(ctx, &last, k + 1);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "stat", -1);
		}
	}
	ctx->ops = fs.n;
	return 0;
}

/* Unlink each name. */
static int
delete_loop(struct phase_ctx *ctx, int random, int timed)
{
	uint64_t	k, i;
	bn_time		last = time_now();
	char		name[NAME_LEN];

	fs.present = 0;
	for (k = 0; k < fs.n; k++) {
		i = pick(random, k);
		if (unlinkat(file_at(i, name), name, 0) == -1)
			return create_fail(ctx, "delete", i, errno, -1);
		if (ctx->opt->sync_writes && dir_sync(i) == -1)
			return create_fail(ctx, "fsync the directory", i,
			    errno, -1);
		if (timed)
			phase_lap(ctx, &last, k + 1);
		if (bn_stop_signal) {
			errno = EINTR;
			return phase_fail(ctx, "delete", -1);
		}
	}
	fs.partial = 0;
	ctx->ops = fs.n;
	return 0;
}

/*
 * Before a phase: the tree made, the set present (stat, delete) or absent
 * (create), untimed, and the order drawn.
 */
static int
prepare(struct phase_ctx *ctx, int random, int want_present)
{
	if (files_dir(ctx) == -1)
		return -1;
	ctx->total = fs.n;
	if (random)
		shuffle(ctx, UINT64_C(0x72616e64) * (uint64_t)random);
	if (want_present && !fs.present)
		return create_loop(ctx, 0, 0);
	if (!want_present && (fs.present || fs.partial)) {
		files_cleanup_files();
		if (fs.partial)
			return phase_fail(ctx, "remove the last set", -1);
	}
	return 0;
}

static int
sc_setup(struct phase_ctx *ctx)
{
	return prepare(ctx, 0, 0);
}

static int
ss_setup(struct phase_ctx *ctx)
{
	return prepare(ctx, 0, 1);
}

static int
rc_setup(struct phase_ctx *ctx)
{
	return prepare(ctx, 1, 0);
}

static int
rs_setup(struct phase_ctx *ctx)
{
	return prepare(ctx, 3, 1);
}

static int
rd_setup(struct phase_ctx *ctx)
{
	return prepare(ctx, 2, 1);
}

static int
sc_run(struct phase_ctx *ctx)
{
	return create_loop(ctx, 0, 1);
}

static int
ss_run(struct phase_ctx *ctx)
{
	return stat_loop(ctx, 0);
}

static int
sd_run(struct phase_ctx *ctx)
{
	return delete_loop(ctx, 0, 1);
}

static int
rc_run(struct phase_ctx *ctx)
{
	return create_loop(ctx, 1, 1);
}

static int
rs_run(struct phase_ctx *ctx)
{
	return stat_loop(ctx, 1);
}

static int
rd_run(struct phase_ctx *ctx)
{
	return delete_loop(ctx, 1, 1);
}

/* Remove the regular files of ours in one directory; -1 if any stayed. */
static int
clean_dir(int dfd)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	int		 fd, left = 0;
	size_t		 i, len;

	if ((fd = dup(dfd)) == -1)
		return -1;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return -1;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		len = strlen(de->d_name);
		for (i = 0; i < len && de->d_name[i] >= '0' &&
		    de->d_name[i] <= '9'; i++)
			;
		if (len != 10 || i != len ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    unlinkat(dfd, de->d_name, 0) == -1)
			left = 1;
	}
	closedir(d);
	return left ? -1 : 0;
}

void
files_cleanup_files(void)
{
	unsigned	i;
	int		left = 0;

	if (fs.dfd == -1)
		return;
	if (clean_dir(fs.dfd) == -1 && fs.ndirs == 0)
		left = 1;
	for (i = 0; i < fs.ndirs; i++) {
		char	name[NAME_LEN];
		int	fd;

		if (i < fs.nsub)
			fd = fs.sub[i];
		else {
			snprintf(name, sizeof(name), "d%05u", i);
			fd = openat(fs.dfd, name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		}
		if (fd == -1 || clean_dir(fd) == -1)
			left = 1;
		if (fd != -1 && i >= fs.nsub)
			close(fd);
	}
	fs.present = 0;
	fs.partial = left;
}

/* "%0*llu" of v into buf (width digits, then a NUL), signal-safe. */
static void
put_digits(char *buf, int width, uint64_t v)
{
	int	i;

	buf[width] = '\0';
	for (i = width - 1; i >= 0; i--) {
		buf[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

/* Unlink name in dfd if it is a regular file of ours; signal-safe. */
static void
unlink_ours(int dfd, const char *name)
{
	struct stat	st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_uid == geteuid())
		(void)unlinkat(dfd, name, 0);
}

void
files_cleanup_signal(void)
{
	char		name[NAME_LEN];
	uint64_t	i, n = fs.n;
	unsigned	k, nsub = fs.nsub, ndirs = fs.ndirs;

	if (!fs.made)
		return;
	fs.made = 0;
	if (fs.dfd != -1)
		for (i = 0; i < n; i++) {
			if (ndirs > 0 && nsub == 0) {
				/* "d00007/0000000007", as file_at() makes. */
				name[0] = 'd';
				put_digits(name + 1, 5, i % ndirs);
				name[6] = '/';
				put_digits(name + 7, 10, i);
			} else
				put_digits(name, 10, i);
			unlink_ours(nsub > 0 ? fs.sub[i % nsub] : fs.dfd, name);
		}
	for (k = 0; k < ndirs && fs.dfd != -1; k++) {
		name[0] = 'd';
		put_digits(name + 1, 5, k);
		(void)unlinkat(fs.dfd, name, AT_REMOVEDIR);
	}
	(void)rmdir(fs.dir);
}

int
files_cleanup(void)
{
	char		name[NAME_LEN];
	unsigned	i;
	int		left = 0;

	if (!fs.made)
		return 0;
	files_cleanup_files();
	for (i = 0; i < fs.nsub; i++)
		close(fs.sub[i]);
	for (i = 0; i < fs.ndirs && fs.dfd != -1; i++) {
		snprintf(name, sizeof(name), "d%05u", i);
		(void)unlinkat(fs.dfd, name, AT_REMOVEDIR);
	}
	if (fs.dfd != -1)
		close(fs.dfd);
	/* Only "not empty" means someone else's files are in it. */
	if (rmdir(fs.dir) == -1 && errno != ENOENT) {
		left = 1;
		if (errno == ENOTEMPTY || errno == EEXIST)
			text_say("%s: %s: left in place (it holds files that "
			    "are not the benchmark's)", fs.dir,
			    strerror(errno));
		else
			text_say("%s: the file directory could not be "
			    "removed: %s", fs.dir, strerror(errno));
	}
	free(fs.sub);
	free(fs.perm);
	fs.sub = NULL;
	fs.perm = NULL;
	fs.nsub = 0;
	fs.ndirs = 0;
	fs.dfd = -1;
	fs.made = 0;
	fs.present = fs.partial = 0;
	fs.dir[0] = '\0';
	return left;
}

const struct phase phase_create = {
	.version = PHASE_VERSION,
	.name = "create",
	.title = "Creating files in order",
	.words = "sequential create",
	.column = "Create",
	.bonnie_name = "seq_create",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#17becf",
	.flags = PHASE_OPS | PHASE_META | PHASE_WHOLE,
	.setup = sc_setup,
	.run = sc_run,
};

const struct phase phase_stat = {
	.version = PHASE_VERSION,
	.name = "stat",
	.title = "Stating files in order",
	.words = "sequential stat",
	.column = "Read",
	.bonnie_name = "seq_stat",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#bcbd22",
	.flags = PHASE_OPS | PHASE_META | PHASE_LOOKS,
	.setup = ss_setup,
	.run = ss_run,
};

const struct phase phase_delete = {
	.version = PHASE_VERSION,
	.name = "delete",
	.title = "Deleting files in order",
	.words = "sequential delete",
	.column = "Delete",
	.bonnie_name = "seq_del",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#7f7f7f",
	.flags = PHASE_OPS | PHASE_META | PHASE_LOOKS,
	.setup = ss_setup,
	.run = sd_run,
};

const struct phase phase_rcreate = {
	.version = PHASE_VERSION,
	.name = "rcreate",
	.title = "Creating files at random",
	.words = "random create",
	.column = "Create",
	.bonnie_name = "ran_create",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#aec7e8",
	.flags = PHASE_OPS | PHASE_META | PHASE_WHOLE,
	.setup = rc_setup,
	.run = rc_run,
};

const struct phase phase_rstat = {
	.version = PHASE_VERSION,
	.name = "rstat",
	.title = "Stating files at random",
	.words = "random stat",
	.column = "Read",
	.bonnie_name = "ran_stat",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#ffbb78",
	.flags = PHASE_OPS | PHASE_META | PHASE_LOOKS,
	.setup = rs_setup,
	.run = rs_run,
};

const struct phase phase_rdelete = {
	.version = PHASE_VERSION,
	.name = "rdelete",
	.title = "Deleting files at random",
	.words = "random delete",
	.column = "Delete",
	.bonnie_name = "ran_del",
	.unit = "files",
	.cost_unit = "s/kfile",
	.colour = "#98df8a",
	.flags = PHASE_OPS | PHASE_META | PHASE_LOOKS,
	.setup = rd_setup,
	.run = rd_run,
};
