/*
 * The modules a guest needs, with what they need, read from the modules'
 * own .modinfo sections (vm-kernel.h's vm_modules_text()) where a tree
 * has no modules.dep, as Debian's packages have none (depmod makes it at
 * install): only the modules on the way are read (decompressed when they
 * are), a dozen of some 4000, where depmod -n reads them all.
 *
 * The tree's module files are found by name (the file's stem, '_' for
 * '-'; one under updates/ before one under kernel/, as depmod's default
 * search order has it, then any other).  A wanted name is a module of
 * that name, or one built into the kernel (modules.builtin and the
 * aliases of modules.builtin.modinfo: nothing to load), or else an
 * alias; a module's "depends=" names modules, its "softdep=" pre: names
 * modules or aliases.  An alias has no file of its own: it is looked for
 * among the modules read so far and those whose name is the alias's
 * (less a kind such as "fs-" or "crypto-": "crypto-crc32c" finds
 * crc32c_generic and crc32c_intel), then, when none of them declares it,
 * those whose name begins as it does less its digits ("fs-ext2" finds
 * ext4), and, for a wanted name still not found, every module of the
 * tree (what depmod reads).  So a module of another name that declares
 * an alias found that way is not seen, where depmod would list it too;
 * none does for the aliases vm asks of Debian's kernels.  What is not
 * found is left to the closure (moddep.h), which names it.
 *
 * The text is what depmod -n prints for these modules: "PATH: DEP..."
 * lines (a module's direct dependencies; the closure follows them),
 * their aliases and soft dependencies.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "moddep.h"
#include "modinfo.h"
#include "spawn.h"
#include "vm-kernel.h"

#define TREE_DEPTH	16

/* How a name is looked for. */
enum want {
	W_DEP,		/* A "depends=" name: a module's. */
	W_SOFT,		/* A soft dependency: a module or an alias. */
	W_WANT		/* Wanted: a module or an alias, every module read. */
};

struct ment {
	char	*name;		/* "crc32c_intel". */
	char	*rel;		/* Its path in the tree. */
	int	 rank;		/* 0 updates/, 1 kernel/, 2 elsewhere. */
	int	 state;		/* M_*. */
	char	*mi;		/* Its .modinfo, once read. */
	size_t	 milen;
};

#define M_UNREAD	0
#define M_READ		1	/* Its lines written. */
#define M_FOLLOWED	2	/* And what it needs looked for. */
#define M_BAD		3	/* Not readable as a module. */

struct mwalk {
	const struct vm_modules_req	*r;
	struct ment			*e;
	size_t				 n;
	FILE				*text;		/* The lines. */
	char				*buf;		/* text's. */
	size_t				 len;
	int				 usage;		/* The input's fault. */
};

/* The decompressor of a module's file, by its name, and its package. */
static const struct {
	const char	*sfx, *prog, *package;
} unpackers[] = {
	{ ".ko.xz", "xz", "xz-utils" },
	{ ".ko.zst", "zstd", "zstd" },
	{ ".ko.gz", "gzip", "gzip" },
};

#define NUNPACKERS	(sizeof(unpackers) / sizeof(unpackers[0]))

/* The unpacker of a file of that name, or NUNPACKERS: none. */
static size_t
unpacker_of(const char *name)
{
	size_t	i, n = strlen(name), z;

	for (i = 0; i < NUNPACKERS; i++) {
		z = strlen(unpackers[i].sfx);
		if (n > z && strcmp(name + n - z, unpackers[i].sfx) == 0)
			break;
	}
	return i;
}

/* Whether a file of that name is a module's: .ko, compressed or not. */
static int
is_module(const char *name)
{
	size_t	n = strlen(name);

	return (n > 3 && strcmp(name + n - 3, ".ko") == 0) ||
	    unpacker_of(name) < NUNPACKERS;
}

int
vm_module_open(const char *path, const char *scratch,
    volatile sig_atomic_t *stop, char **cause)
{
	char	*tmp, *argv[] = { NULL, "-dc", NULL, NULL };
	size_t	 i = unpacker_of(path);
	int	 fd, rv;

	if (i == NUNPACKERS) {
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return errorf(cause, "%s: %s", path, strerror(errno));
		return fd;
	}
	if (!spawn_found(unpackers[i].prog)) {
		errorf(cause, "%s: no %s to decompress it: install Debian's "
		    "%s package", path, unpackers[i].prog, unpackers[i].package);
		return -2;
	}
	tmp = xasprintf("%s/module.ko", scratch);
	(void)unlink(tmp);
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		rv = errorf(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return rv;
	}
	argv[0] = (char *)unpackers[i].prog;
	argv[2] = (char *)path;
	rv = spawn_run(argv, -1, fd, stop, cause);
	(void)unlink(tmp);
	free(tmp);
	if (rv == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Add a module's file, rel (taken), to w's index. */
static void
add_file(struct mwalk *w, char *rel)
{
	struct ment	*m;

	w->e = xrealloc(w->e, (w->n + 1) * sizeof(*w->e));
	m = &w->e[w->n++];
	memset(m, 0, sizeof(*m));
	m->name = moddep_name(rel);
	m->rel = rel;
	m->rank = strncmp(rel, "updates/", 8) == 0 ? 0 :
	    strncmp(rel, "kernel/", 7) == 0 ? 1 : 2;
}

/*
 * Add the module files under tree/rel (rel "" at the top) to w's index;
 * symbolic links (build, source) are not followed.  0, or -1.
 */
static int
index_dir(struct mwalk *w, const char *rel, int depth, char **cause)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*path, *sub, *full;
	int		 rv = 0;

	path = xasprintf("%s%s%s", w->r->tree, *rel ? "/" : "", rel);
	if ((d = opendir(path)) == NULL) {
		rv = errorf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return rv;
	}
	while (rv == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s%s%s", rel, *rel ? "/" : "", de->d_name);
		full = xasprintf("%s/%s", path, de->d_name);
		if (lstat(full, &st) == -1)
			st.st_mode = 0;
		free(full);
		if (S_ISDIR(st.st_mode) && depth < TREE_DEPTH)
			rv = index_dir(w, sub, depth + 1, cause);
		else if (S_ISREG(st.st_mode) && is_module(de->d_name)) {
			add_file(w, sub);
			continue;
		}
		free(sub);
	}
	closedir(d);
	free(path);
	return rv;
}

static int
ment_cmp(const void *a, const void *b)
{
	const struct ment	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->rel, y->rel);
}

/* The first entry whose name is at or after s (w->n when none). */
static size_t
lower_bound(const struct mwalk *w, const char *s)
{
	size_t	lo = 0, hi = w->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(w->e[mid].name, s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The module file of that name (the first of its rank), or NULL. */
static struct ment *
lookup(const struct mwalk *w, const char *name)
{
	char	*n = moddep_name(name);
	size_t	 i = lower_bound(w, n);

	i = i < w->n && strcmp(w->e[i].name, n) == 0 ? i : w->n;
	free(n);
	return i < w->n ? &w->e[i] : NULL;
}

/* m's lines: its dependencies' paths, its aliases, its soft dependencies. */
static void
put_lines(struct mwalk *w, const struct ment *m)
{
	const struct ment	*dep;
	const char		*v;
	char			*s, *list, *last;
	size_t			 at = 0;

	fprintf(w->text, "%s:", m->rel);
	while ((v = modinfo_next(m->mi, m->milen, "depends", &at)) != NULL) {
		list = xstrdup(v);
		for (s = strtok_r(list, ",", &last); s != NULL;
		    s = strtok_r(NULL, ",", &last)) {
			dep = lookup(w, s);
			fprintf(w->text, " %s", dep != NULL ? dep->rel : s);
		}
		free(list);
	}
	fputc('\n', w->text);
	for (at = 0; (v = modinfo_next(m->mi, m->milen, "alias", &at)) !=
	    NULL; )
		if (strpbrk(v, "*?[ \t\n") == NULL && *v != '\0')
			fprintf(w->text, "alias %s %s\n", v, m->name);
	for (at = 0; (v = modinfo_next(m->mi, m->milen, "softdep", &at)) !=
	    NULL; )
		if (strchr(v, '\n') == NULL)
			fprintf(w->text, "softdep %s %s\n", m->name, v);
}

/* Whether the command is asked to stop. */
static int
stopped(const struct mwalk *w)
{
	return w->r->stop != NULL && *w->r->stop;
}

/*
 * Read m's .modinfo and write its lines.  0, or -1 with *cause, -2 when
 * the module is at fault (not one, or no program to decompress it).
 */
static int
read_ent(struct mwalk *w, struct ment *m, char **cause)
{
	char	*path, *why = NULL;
	int	 fd;

	if (m->state == M_BAD) {
		errorf(cause, "%s/%s: not readable as a module", w->r->tree,
		    m->rel);
		return -2;
	}
	if (m->state != M_UNREAD)
		return 0;
	if (stopped(w))
		return errorf(cause, "stopped");
	path = xasprintf("%s/%s", w->r->tree, m->rel);
	if ((fd = vm_module_open(path, w->r->scratch, w->r->stop, cause)) >= 0) {
		m->mi = modinfo_read(fd, &m->milen, &why);
		close(fd);
		if (m->mi == NULL) {
			errorf(cause, "%s: %s", path, why);
			free(why);
			fd = -2;
		}
	}
	free(path);
	if (fd < 0) {
		m->state = M_BAD;
		return fd;
	}
	m->state = M_READ;
	put_lines(w, m);
	return 0;
}

static int resolve(struct mwalk *, const char *, enum want, char **);

/*
 * Look for what m needs: its "depends=" names and its soft dependencies'
 * "pre:" names (its "post:" ones are loaded after it, by modprobe, and
 * not by the guest).  Once.  0, or -1 with *cause.
 */
static int
follow(struct mwalk *w, struct ment *m, char **cause)
{
	const char	*v;
	char		*list, *s, *last;
	size_t		 at = 0;
	int		 rv = 0, pre;

	if (m->state != M_READ)
		return 0;
	m->state = M_FOLLOWED;
	while (rv == 0 && (v = modinfo_next(m->mi, m->milen, "depends",
	    &at)) != NULL) {
		list = xstrdup(v);
		for (s = strtok_r(list, ",", &last); rv == 0 && s != NULL;
		    s = strtok_r(NULL, ",", &last))
			rv = resolve(w, s, W_DEP, cause);
		free(list);
	}
	for (at = 0; rv == 0 && (v = modinfo_next(m->mi, m->milen,
	    "softdep", &at)) != NULL; ) {
		list = xstrdup(v);
		pre = 0;
		for (s = strtok_r(list, " \t", &last); rv == 0 && s != NULL;
		    s = strtok_r(NULL, " \t", &last))
			if (strcmp(s, "pre:") == 0 || strcmp(s, "post:") == 0)
				pre = s[1] == 'r';
			else if (pre)
				rv = resolve(w, s, W_SOFT, cause);
		free(list);
	}
	return rv;
}

/* Whether m declares the alias a. */
static int
declares(const struct ment *m, const char *a)
{
	const char	*v;
	size_t		 at = 0;

	while ((v = modinfo_next(m->mi, m->milen, "alias", &at)) != NULL)
		if (moddep_same_name(v, a))
			return 1;
	return 0;
}

/*
 * Entry i as one that may declare alias: read (passed over when it
 * cannot be), and followed, *found counted, when it does.  0, or -1 with
 * *cause (stopped, or what it needs failed).
 */
static int
candidate(struct mwalk *w, size_t i, const char *alias, int *found,
    char **cause)
{
	struct ment	*m = &w->e[i];
	char		*why = NULL;

	if (i > 0 && strcmp(w->e[i - 1].name, m->name) == 0)
		return 0;	/* Another file of a module found before. */
	if (read_ent(w, m, &why) < 0) {
		if (stopped(w)) {
			*cause = why;
			return -1;
		}
		free(why);
		return 0;
	}
	if (!declares(m, alias))
		return 0;
	(*found)++;
	return follow(w, m, cause);
}

/*
 * The candidates whose names begin with prefix (whole: are prefix, or
 * prefix and "_..."), for alias.  0, or -1 with *cause.
 */
static int
by_prefix(struct mwalk *w, const char *prefix, int whole, const char *alias,
    int *found, char **cause)
{
	size_t	i, n = strlen(prefix);
	char	c;

	for (i = lower_bound(w, prefix); i < w->n &&
	    strncmp(w->e[i].name, prefix, n) == 0; i++) {
		c = w->e[i].name[n];
		if (whole && c != '\0' && c != '_')
			continue;
		if (candidate(w, i, alias, found, cause) == -1)
			return -1;
	}
	return 0;
}

/* Find alias's modules, as this file's comment says.  0, or -1. */
static int
resolve_alias(struct mwalk *w, const char *alias, enum want kind,
    char **cause)
{
	const char	*p;
	char		*base, *stem;
	size_t		 i, n;
	int		 found = 0, rv = 0;

	for (i = 0; rv == 0 && i < w->n; i++)
		if ((w->e[i].state == M_READ || w->e[i].state ==
		    M_FOLLOWED) && declares(&w->e[i], alias)) {
			found++;
			rv = follow(w, &w->e[i], cause);
		}
	/* Less its kind: "fs-ext2" is ext2, "crypto-crc32c" crc32c. */
	for (p = alias; *p >= 'a' && *p <= 'z'; p++)
		;
	p = *p == '-' && p[1] != '\0' ? p + 1 : alias;
	base = moddep_name(p);
	if (rv == 0)
		rv = by_prefix(w, base, 1, alias, &found, cause);
	stem = xstrdup(base);
	for (n = strlen(stem); n > 0 && ((stem[n - 1] >= '0' &&
	    stem[n - 1] <= '9') || stem[n - 1] == '_'); n--)
		stem[n - 1] = '\0';
	if (rv == 0 && found == 0 && n >= 3 && strcmp(stem, base) != 0)
		rv = by_prefix(w, stem, 0, alias, &found, cause);
	for (i = 0; rv == 0 && found == 0 && kind == W_WANT && i < w->n; i++)
		rv = candidate(w, i, alias, &found, cause);
	free(stem);
	free(base);
	return rv;
}

/*
 * Look for name as kind says: its module read and followed, nothing for
 * one built in, its alias's modules.  0 whether found or not (the
 * closure names what is missing), or -1 with *cause.
 */
static int
resolve(struct mwalk *w, const char *name, enum want kind, char **cause)
{
	struct ment	*m;
	char		*why = NULL;
	int		 rv;

	if ((m = lookup(w, name)) != NULL) {
		if ((rv = read_ent(w, m, &why)) < 0) {
			if (kind == W_SOFT && !stopped(w)) {
				free(why);	/* Left out, as modprobe would. */
				return 0;
			}
			w->usage = rv == -2;
			*cause = why;
			return -1;
		}
		return follow(w, m, cause);
	}
	if (kind == W_DEP || moddep_is_builtin(w->r->builtin, name))
		return 0;
	return resolve_alias(w, name, kind, cause);
}

int
vm_modules_text(const struct vm_modules_req *r, char **text, size_t *len,
    char **cause)
{
	struct mwalk	 w;
	char		*fsname;
	size_t		 i;
	int		 rv;

	memset(&w, 0, sizeof(w));
	w.r = r;
	*text = NULL;
	*len = 0;
	if ((w.text = open_memstream(&w.buf, &w.len)) == NULL) {
		errorf(cause, "vm: the modules' list: %s", strerror(errno));
		return VMK_FAIL;
	}
	rv = index_dir(&w, "", 0, cause);
	if (w.n > 0)
		qsort(w.e, w.n, sizeof(*w.e), ment_cmp);
	for (i = 0; rv == 0 && i < r->nwant; i++)
		rv = resolve(&w, r->want[i], W_WANT, cause);
	/* A file system: the module of its name, or the one "fs-NAME" is. */
	for (i = 0; rv == 0 && i < r->nfs; i++) {
		if (strcmp(r->fs[i], "none") == 0)
			continue;
		fsname = lookup(&w, r->fs[i]) != NULL ||
		    moddep_is_builtin(r->builtin, r->fs[i]) ?
		    xstrdup(r->fs[i]) : xasprintf("fs-%s", r->fs[i]);
		rv = resolve(&w, fsname, W_WANT, cause);
		free(fsname);
	}
	for (i = 0; i < w.n; i++) {
		free(w.e[i].name);
		free(w.e[i].rel);
		free(w.e[i].mi);
	}
	free(w.e);
	if (ferror(w.text) && rv == 0)
		rv = errorf(cause, "vm: the modules' list: %s", strerror(ENOMEM));
	if (fclose(w.text) != 0 && rv == 0)
		rv = errorf(cause, "vm: the modules' list: %s", strerror(errno));
	if (rv == -1) {
		free(w.buf);
		return w.usage ? VMK_USAGE : VMK_FAIL;
	}
	*text = w.buf;
	*len = w.len;
	return VMK_OK;
}
