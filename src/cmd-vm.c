/*
 * "bonnie-ng vm --kernel A [--kernel B ...] [options] -- [run options]":
 * boot each kernel under qemu on a fresh disk, run one bonnie-ng command
 * inside with bonnie-ng as the guest's only program, bring the records
 * back, and compare them.
 *
 * This file is the command: its options, the checks made before anything
 * is made (exit 2), the kernels made ready, the matrix of cells (kernels
 * x memory sizes x file systems x rounds) booted in an interleaved order,
 * and the comparison at the end.  A cell's boot is vm-cell.c's; the
 * kernel and its initramfs vm-kernel.c's and vm-initrd.c's; qemu
 * vm-qemu.c's; the guest's side vm-guest.c's.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "platform.h"
#include "signals.h"
#include "spawn.h"
#include "text.h"
#include "tmptree.h"
#include "units.h"
#include "vm-guest.h"
#include "vm-qemu.h"
#include "vm-request.h"
#include "vm.h"

#define OFF(f)	((int)offsetof(struct vm_args, f))

static volatile sig_atomic_t	vm_stop;

static const char *const fs_names[] = { "ext4", "ext2", "xfs", "none" };
/* The package of each file system's mkfs, for the refusal. */
static const char *const fs_packages[] = { "e2fsprogs", "e2fsprogs",
    "xfsprogs", NULL };
#define NFS	(sizeof(fs_names) / sizeof(fs_names[0]))

static int
set_kernel(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;

	(void)r;
	if (*v == '\0')
		return errorf(why, "an empty kernel name");
	a->kernels = xrealloc(a->kernels, (size_t)(a->nkernels + 1) *
	    sizeof(*a->kernels));
	a->modules = xrealloc(a->modules, (size_t)(a->nkernels + 1) *
	    sizeof(*a->modules));
	a->kernels[a->nkernels] = v;
	a->modules[a->nkernels++] = NULL;
	return 0;
}

static int
set_modules(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;

	(void)r;
	if (a->nkernels == 0)
		return errorf(why, "'%s': give it after the --kernel it is "
		    "for", v);
	if (a->modules[a->nkernels - 1] != NULL)
		return errorf(why, "'%s': %s has its modules already", v,
		    a->kernels[a->nkernels - 1]);
	a->modules[a->nkernels - 1] = v;
	return 0;
}

/* "512m,1g": each a size, MiB when bare, at least VM_MEM_MIN. */
static int
set_mem(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;
	char		*s, *w, *last;
	uint64_t	 m;
	int		 rv = 0;

	(void)r;
	s = xstrdup(v);
	a->nmems = 0;
	for (w = strtok_r(s, ",", &last); w != NULL && rv == 0;
	    w = strtok_r(NULL, ",", &last)) {
		if (parse_size(w, (uint64_t)1 << 20, &m, why) == -1)
			rv = -1;
		else if (m < VM_MEM_MIN)
			rv = errorf(why, "'%s': below the %llu MiB a guest "
			    "needs to boot", w, (unsigned long long)
			    (VM_MEM_MIN >> 20));
		else {
			a->mems = xrealloc(a->mems, (size_t)(a->nmems + 1) *
			    sizeof(*a->mems));
			a->mems[a->nmems++] = m & ~(uint64_t)((1 << 20) - 1);
		}
	}
	free(s);
	if (rv == 0 && a->nmems == 0)
		rv = errorf(why, "'%s': no size", v);
	return rv;
}

static int
set_fs(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;
	char		*s, *w, *last;
	size_t		 i;
	int		 rv = 0;

	(void)r;
	s = xstrdup(v);
	a->nfss = 0;
	for (w = strtok_r(s, ",", &last); w != NULL && rv == 0;
	    w = strtok_r(NULL, ",", &last)) {
		for (i = 0; i < NFS && strcmp(w, fs_names[i]) != 0; i++)
			;
		if (i == NFS)
			rv = errorf(why, "'%s' (use ext4, ext2, xfs or none)",
			    w);
		else {
			a->fss = xrealloc(a->fss, (size_t)(a->nfss + 1) *
			    sizeof(*a->fss));
			a->fss[a->nfss++] = fs_names[i];
		}
	}
	free(s);
	if (rv == 0 && a->nfss == 0)
		rv = errorf(why, "'%s': no file system", v);
	return rv;
}

static int
set_disk(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;

	(void)r;
	if (parse_size(v, (uint64_t)1 << 20, &a->disk, why) == -1)
		return -1;
	if (a->disk < ((uint64_t)16 << 20))
		return errorf(why, "'%s': below 16 MiB", v);
	return 0;
}

static int
set_accel(void *t, const struct args_option *r, const char *v, char **why)
{
	struct vm_args	*a = t;

	(void)r;
	if (strcmp(v, "auto") != 0 && strcmp(v, "kvm") != 0 &&
	    strcmp(v, "tcg") != 0)
		return errorf(why, "'%s' (use auto, kvm or tcg)", v);
	a->accel = v;
	return 0;
}

static int
set_bisect(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (v != NULL && strcmp(v, "strict") != 0)
		return errorf(why, "'%s' (only --bisect=strict)", v);
	((struct vm_args *)t)->bisect = v != NULL ? "strict" : "";
	return 0;
}

static const struct args_option vm_rows[] = {
	OPT_VALUE(0, "kernel", "file", set_kernel, 0,
	    "a bzImage or linux-image .deb to boot (each a side)"),
	OPT_VALUE(0, "modules", "dir", set_modules, 0,
	    "the modules tree of the --kernel before it"),
	OPT_VALUE(0, "mem", "sizes", set_mem, 0,
	    "the guest's RAM, a cell each (default: 512m)"),
	OPT_COUNT(0, "cpus", "n", OFF(cpus), 1, 1, 64,
	    "the guest's virtual CPUs (default: 1)"),
	OPT_VALUE(0, "disk", "size", set_disk, 0,
	    "the test disk's size (default: from the run's)"),
	OPT_VALUE(0, "fs", "ext4|ext2|xfs|none", set_fs, 0,
	    "the test disk's file systems, a cell each (ext4)"),
	OPT_STRING(0, "mkfs-options", "opts", OFF(mkfs_options),
	    "more options for mkfs"),
	OPT_STRING(0, "mount-options", "opts", OFF(mount_options),
	    "the test disk's mount options in the guest"),
	OPT_STRING(0, "append", "cmdline", OFF(append),
	    "more of the guest kernel's command line"),
	OPT_VALUE(0, "accel", "auto|kvm|tcg", set_accel, 0,
	    "qemu's accelerator (default: kvm when it can)"),
	OPT_COUNT(0, "rounds", "n", OFF(rounds), 1, 1, 1000,
	    "boot every cell n times, interleaved"),
	OPT_COUNT(0, "timeout", "seconds", OFF(timeout), 0, 1, 1000000,
	    "a cell's time to live (default: from its work)"),
	OPT_STRING(0, "kernel-cache", "dir", OFF(kernel_cache),
	    "keep each .deb made ready there, by its SHA-256"),
	OPT_STRING(0, "out", "dir", OFF(out),
	    "for records and logs (default: bonnie-ng-vm.DATE)"),
	OPT_OPTIONAL(0, "bisect", "strict", set_bisect,
	    "exit for git bisect run: 0 good, 1 bad, 125 skip"),
	ARGS_END
};

static void
vm_init(void *state, int argc, char **argv)
{
	struct vm_args	*a = state;

	a->argc = argc;
	a->argv = argv;
	a->cpus = 1;
	a->rounds = 1;
	a->accel = "auto";
	a->stop = &vm_stop;
	/* Known before the parse: a refused line must stop a bisection. */
	if (cmd_line_asks(argc, argv, "bisect"))
		a->bisect = "";
}

static int
vm_refused(const void *state)
{
	return ((const struct vm_args *)state)->bisect != NULL ?
	    CMD_BISECT_ABORT : CMD_USAGE;
}

static void
vm_fini(void *state)
{
	struct vm_args	*a = state;
	int		 i;

	for (i = 0; a->k != NULL && i < a->nkernels; i++)
		vm_kernel_free(&a->k[i]);
	if (a->top != NULL)
		(void)tmptree_remove(a->top);
	for (i = 0; a->labels != NULL && i < a->nkernels; i++)
		free(a->labels[i]);
	free(a->labels);
	free(a->k);
	free(a->top);
	free(a->outdir);
	free(a->kernels);
	free(a->modules);
	free(a->mems);
	free(a->fss);
	free(a->guest_argv);
	free(a->qemu_version);
	free(a->kvm_refused);
	free(a->host_kernel);
}

static void
on_stop(int sig)
{
	if (vm_stop == 0)
		vm_stop = sig;
}

static void
on_fault(int sig)
{
	/* qemu dies with this process (spawn.h); the signal's default. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The guest's command line: the words after "--", checked here as the
 * run would check them, then the test disk and the record's file added.
 * The words that name a target or the record's file are the tool's.
 */
static int
guest_line(struct vm_args *a, int n, char **words, char **cause)
{
	struct options	 o, def;
	char		**v, *why = NULL;
	int		 i, k = 0, none;

	none = 0;
	for (i = 0; i < a->nfss; i++)
		none += strcmp(a->fss[i], "none") == 0;
	if (none > 0 && none < a->nfss) {
		errorf(cause, "vm: --fs none (the raw disk) and a file system "
		    "in one matrix: the runs would differ in their target");
		return -1;
	}
	v = xcalloc((size_t)n + 6, sizeof(*v));
	v[k++] = "bonnie-ng";
	for (i = 0; i < n; i++)
		v[k++] = words[i];
	memset(&o, 0, sizeof(o));
	memset(&def, 0, sizeof(def));
	settings_defaults(&def);
	if (cmd_run_parse(k, v, &o, &why) != ARGS_OK) {
		errorf(cause, "vm: after --: %s", why != NULL ? why :
		    "not a run's command line");
		free(why);
		free(v);
		return -1;
	}
	if (o.dir != def.dir || o.device != NULL || o.json_path != NULL) {
		errorf(cause, "vm: after --: %s is the tool's: the guest's run "
		    "uses its test disk and hands its record back itself",
		    o.dir != def.dir ? "-d" : o.device != NULL ? "--device" :
		    "--json");
		free(v);
		return -1;
	}
	if (none > 0) {
		v[k++] = "--device";
		v[k++] = VM_TEST_DISK;
	} else {
		v[k++] = "-d";
		v[k++] = VM_GUEST_MNT;
	}
	v[k++] = "--json";
	v[k++] = VM_GUEST_RECORD;
	memset(&a->run, 0, sizeof(a->run));
	if (cmd_run_parse(k, v, &a->run, &why) != ARGS_OK) {
		errorf(cause, "vm: after --: %s", why);
		free(why);
		free(v);
		return -1;
	}
	a->guest_argv = v;
	a->guest_argc = k;
	return 0;
}

/*
 * --kernel-cache: a directory, or one that can be made (its parent is
 * one).  0, or -1 with *cause.
 */
static int
check_cache_dir(const char *dir, char **cause)
{
	struct stat	 st;
	char		*parent, *slash;
	int		 ok;

	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : errorf(cause, "vm: "
		    "--kernel-cache: %s: not a directory", dir);
	if (errno != ENOENT)
		return errorf(cause, "vm: --kernel-cache: %s: %s", dir,
		    strerror(errno));
	parent = xstrdup(dir);
	while ((slash = strrchr(parent, '/')) != NULL && slash[1] == '\0' &&
	    slash != parent)
		*slash = '\0';
	if ((slash = strrchr(parent, '/')) == NULL) {
		free(parent);		/* "" has no room for "." */
		parent = xstrdup(".");
	} else
		slash[slash == parent] = '\0';
	ok = stat(parent, &st) == 0 && S_ISDIR(st.st_mode);
	free(parent);
	return ok ? 0 : errorf(cause, "vm: --kernel-cache: %s: %s", dir,
	    strerror(ENOENT));
}

/*
 * KVM when asked or when /dev/kvm opens; the -cpu model is chosen once the
 * first kernel is ready (choose_cpu()).
 */
static int
choose_accel(struct vm_args *a, char **cause)
{
	a->kvm = 0;
	a->cpu = VM_TCG_CPU;
	if (strcmp(a->accel, "tcg") == 0)
		return CMD_OK;
	if (vm_kvm_usable()) {
		a->kvm = 1;
		return CMD_OK;
	}
	if (strcmp(a->accel, "kvm") != 0)
		return CMD_OK;
	errorf(cause, "vm: --accel kvm: /dev/kvm: %s", strerror(errno));
	return CMD_USAGE;
}

/* Everything checked before anything is made: CMD_OK or CMD_USAGE. */
static int
vm_check(struct vm_args *a, int n, char **words, char **cause)
{
	struct utsname	u;
	size_t		i;
	int		j, rv;

	if (a->nmems == 0) {
		a->mems = xcalloc(1, sizeof(*a->mems));
		a->mems[a->nmems++] = VM_MEM_DEFAULT;
	}
	if (a->nfss == 0) {
		a->fss = xcalloc(1, sizeof(*a->fss));
		a->fss[a->nfss++] = fs_names[0];
	}
	if (guest_line(a, n, words, cause) == -1)
		return CMD_USAGE;
	a->k = xcalloc((size_t)a->nkernels, sizeof(*a->k));
	for (j = 0; j < a->nkernels; j++) {
		vm_kernel_init(&a->k[j], a->kernels[j], a->modules[j]);
		a->k[j].cache = a->kernel_cache;
		if ((rv = vm_kernel_check(&a->k[j], cause)) != VMK_OK)
			return rv;
	}
	if (a->kernel_cache != NULL && check_cache_dir(a->kernel_cache,
	    cause) == -1)
		return CMD_USAGE;
	if (!spawn_found(VM_QEMU)) {
		errorf(cause, "vm: %s not found: install Debian's %s package",
		    VM_QEMU, VM_QEMU_PACKAGE);
		return CMD_USAGE;
	}
	for (j = 0; j < a->nfss; j++)
		for (i = 0; i < NFS; i++) {
			char	prog[32];

			if (strcmp(a->fss[j], fs_names[i]) != 0 ||
			    fs_packages[i] == NULL)
				continue;
			snprintf(prog, sizeof(prog), "mkfs.%s", fs_names[i]);
			if (!spawn_found(prog)) {
				errorf(cause, "vm: --fs %s: %s not found: "
				    "install Debian's %s package", fs_names[i],
				    prog, fs_packages[i]);
				return CMD_USAGE;
			}
		}
	if ((rv = choose_accel(a, cause)) != CMD_OK)
		return rv;
	a->qemu_version = vm_qemu_version(VM_QEMU);
	if (uname(&u) == 0)
		a->host_kernel = xstrdup(u.release);
	return CMD_OK;
}

/*
 * The temporary directory, and whether qemu can open an image in it with
 * O_DIRECT (cache=none): a memory file system may not.
 */
static int
make_top(struct vm_args *a, char **cause)
{
	char	*probe;
	int	 fd, rv = CMD_OK;

	if (tmptree_make("bonnie-ng-vm", &a->top, cause) == -1)
		return CMD_FAIL;
	probe = xasprintf("%s/probe", a->top);
	fd = open(probe, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
	    platform_odirect_flag(), 0600);
	if (fd == -1 && errno == EINVAL) {
		errorf(cause, "vm: %s: its file system does not take O_DIRECT, "
		    "which the test disk's cache=none needs: set TMPDIR to a "
		    "directory on a disk", a->top);
		rv = CMD_USAGE;
	} else if (fd == -1) {
		errorf(cause, "vm: %s: %s", probe, strerror(errno));
		rv = CMD_FAIL;
	} else
		close(fd);
	(void)unlink(probe);
	free(probe);
	return rv;
}

/* The out directory, made when it is not there. */
static int
make_out(struct vm_args *a, char **cause)
{
	struct stat	 st;
	char		 stamp[32];
	time_t		 now = time(NULL);

	if (a->out != NULL)
		a->outdir = xstrdup(a->out);
	else {
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S",
		    localtime(&now));
		a->outdir = xasprintf("bonnie-ng-vm.%s", stamp);
	}
	if (mkdir(a->outdir, 0777) == -1 && errno != EEXIST)
		return errorf(cause, "vm: --out: %s: %s", a->outdir,
		    strerror(errno));
	if (stat(a->outdir, &st) == -1 || !S_ISDIR(st.st_mode))
		return errorf(cause, "vm: --out: %s: not a directory",
		    a->outdir);
	return 0;
}

/*
 * Each kernel's name in the files: its release, and its place when two
 * kernels have the same release (a bisection's builds).
 */
static void
make_labels(struct vm_args *a)
{
	int	i, j, dup;

	a->labels = xcalloc((size_t)a->nkernels, sizeof(*a->labels));
	for (i = 0; i < a->nkernels; i++) {
		for (j = 0, dup = 0; j < a->nkernels; j++)
			dup += j != i && strcmp(a->k[i].release,
			    a->k[j].release) == 0;
		a->labels[i] = dup ? xasprintf("%s.k%d", a->k[i].release,
		    i + 1) : xstrdup(a->k[i].release);
	}
}

/* The kernels made ready, one by one: VMK_* as CMD_*. */
static int
prepare_kernels(struct vm_args *a, char **cause)
{
	bn_time	t0;
	char	size[32];
	int	i, rv;

	for (i = 0; i < a->nkernels; i++) {
		t0 = time_now();
		if (!a->run.quiet)
			fprintf(stderr, "vm: kernel %d/%d: %s: %sits "
			    "initramfs\n", i + 1, a->nkernels, a->kernels[i],
			    !a->k[i].deb ? "writing " : a->kernel_cache ?
			    "from the kernel cache, else unpacking it, writing " :
			    "unpacking it, writing ");
		rv = vm_kernel_prepare(&a->k[i], a->top, i, a->fss, a->nfss,
		    a->stop, cause);
		if (vm_stop)
			return 128 + vm_stop;
		if (rv != VMK_OK)
			return rv;
		units_size_binary(size, sizeof(size), a->k[i].initrd_bytes);
		if (!a->run.quiet)
			fprintf(stderr, "vm: kernel %d/%d: %s, %zu module%s, "
			    "initramfs %s, ready in %.1f s%s\n", i + 1,
			    a->nkernels, a->k[i].release, a->k[i].nmodules,
			    a->k[i].nmodules == 1 ? "" : "s", size,
			    time_elapsed(t0, time_now()), a->k[i].cached == 1 ?
			    " (from the kernel cache)" : a->k[i].cached == 2 ?
			    " (unpacked; now in the kernel cache)" : "");
	}
	make_labels(a);
	return CMD_OK;
}

/* The cells in their order: round by round, each kernel in turn. */
static struct vm_cell *
make_cells(struct vm_args *a, int *ncells)
{
	struct vm_cell	*c;
	char		 mem[32];
	int		 n, r, m, f, k, i = 0;

	n = (int)a->rounds * a->nmems * a->nfss * a->nkernels;
	c = xcalloc((size_t)n, sizeof(*c));
	for (r = 0; r < (int)a->rounds; r++)
		for (m = 0; m < a->nmems; m++)
			for (f = 0; f < a->nfss; f++)
				for (k = 0; k < a->nkernels; k++, i++) {
					c[i].kernel = k;
					c[i].mem = m;
					c[i].fs = f;
					c[i].round = r;
					c[i].index = i + 1;
					c[i].ncells = n;
					units_size(mem, sizeof(mem),
					    a->mems[m]);
					c[i].name = xasprintf("%s.%s%s%s.r%d",
					    a->labels[k], mem,
					    a->nfss > 1 ? "." : "",
					    a->nfss > 1 ? a->fss[f] : "",
					    r + 1);
				}
	*ncells = n;
	return c;
}

static void
free_cells(struct vm_cell *c, int n)
{
	int	i;

	for (i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].record);
		free(c[i].report);
		free(c[i].tail);
	}
	free(c);
}

/* No cell's files may be there already: CMD_OK or CMD_USAGE. */
static int
check_names(const struct vm_args *a, const struct vm_cell *c, int n,
    char **cause)
{
	static const char *const sfx[] = { ".json", ".console.log" };
	struct stat	 st;
	char		*path;
	size_t		 j;
	int		 i, there;

	for (i = 0; i < n; i++)
		for (j = 0; j < 2; j++) {
			path = xasprintf("%s/%s%s", a->outdir, c[i].name,
			    sfx[j]);
			there = lstat(path, &st) == 0;
			if (there)
				errorf(cause, "vm: --out: %s is there already "
				    "(name another directory)", path);
			free(path);
			if (there)
				return CMD_USAGE;
		}
	return CMD_OK;
}

/*
 * compare's own command on its words (after "compare"), as "bonnie-ng
 * compare" prints it: its exit status.
 */
static int
compare_words(char **words, int n, char **cause)
{
	const struct cmd_entry	*e = &cmd_compare_entry;
	void			*state;
	char			**argv, **ops;
	int			  i, nops, rv;

	argv = xcalloc((size_t)n + 2, sizeof(*argv));
	ops = xcalloc((size_t)n + 2, sizeof(*ops));
	argv[0] = "compare";
	for (i = 0; i < n; i++)
		argv[i + 1] = words[i];
	state = xcalloc(1, e->size);
	if (e->init != NULL)
		e->init(state, n + 1, argv);
	if (cmd_parse(e, n + 1, argv, state, ops, &nops, cause) != ARGS_OK)
		rv = CMD_USAGE;
	else
		rv = e->exec(state, nops, ops, cause);
	if (e->fini != NULL)
		e->fini(state);
	free(state);
	free(ops);
	free(argv);
	return rv;
}

/* The records of kernel k at memory m and file system f, every round's. */
static int
records_of(const struct vm_cell *c, int n, int k, int m, int f, char **out)
{
	int	i, nr = 0;

	for (i = 0; i < n; i++)
		if (c[i].kernel == k && c[i].mem == m && c[i].fs == f &&
		    c[i].ran && c[i].status == 0)
			out[nr++] = c[i].record;
	return nr;
}

/*
 * Two comparisons' statuses as one: with --bisect, git's order (255
 * stops the bisection, then 1 bad, then 125 skip, then 0); else the
 * larger (2 unusable, then 1 worse).
 */
static int
worse_of(int s, int t, int bisect)
{
	static const int	order[] = { 255, 1, 125, 0 };
	size_t			i;

	if (!bisect)
		return s > t ? s : t;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (s == order[i] || t == order[i])
			return order[i];
	return s > t ? s : t;
}

/*
 * The comparison of the cells: within each memory size and file system,
 * the first kernel against the others.  With one round, one table of
 * them all; with more, each other kernel against it with the rounds of
 * each side pooled (compare's --vs).  The worst exit status of them.
 */
static int
compare_cells(const struct vm_args *a, const struct vm_cell *c, int n)
{
	char	**w, mem[32], *why = NULL;
	int	  m, f, k, nw, nb, nk, rv, worst = CMD_OK, pooled;

	if (a->nkernels < 2)
		return CMD_OK;
	pooled = a->rounds > 1;
	w = xcalloc((size_t)n + 4, sizeof(*w));
	for (m = 0; m < a->nmems; m++)
		for (f = 0; f < a->nfss; f++) {
			units_ram(mem, sizeof(mem), a->mems[m]);
			for (k = 1; k < a->nkernels; k++) {
				nw = 0;
				if (a->bisect != NULL)
					w[nw++] = *a->bisect != '\0' ?
					    "--bisect=strict" : "--bisect";
				nb = records_of(c, n, 0, m, f, w + nw);
				nw += pooled ? nb : nb > 0;
				if (pooled && nb > 0)
					w[nw++] = "--vs";
				if (pooled)
					nk = records_of(c, n, k, m, f, w + nw);
				else
					for (nk = 0; k < a->nkernels; k++)
						nk += records_of(c, n, k, m, f,
						    w + nw + nk) > 0;
				nw += nk;
				/* Nothing to compare: a cell failed (said). */
				if (nb == 0 || nk == 0) {
					if (a->bisect != NULL)
						worst = worse_of(worst, 125, 1);
					continue;
				}
				printf("\nvm: %s of RAM, %s: %s is the base%s\n",
				    mem, a->fss[f], a->labels[0], pooled ?
				    ", its rounds pooled against each side's" :
				    "");
				fflush(stdout);
				rv = compare_words(w, nw, &why);
				if (why != NULL) {
					text_say("%s", why);
					free(why);
					why = NULL;
				}
				worst = worse_of(worst, rv, a->bisect != NULL);
			}
		}
	free(w);
	return worst;
}

/*
 * A cell's report on standard output, as its run printed it in the guest:
 * alone when it is the only cell, else under a line naming the cell.
 */
static void
show_report(const struct vm_args *a, const struct vm_cell *c, int ncells)
{
	char	mem[32];

	if (c->report == NULL)
		return;
	if (ncells > 1) {
		units_ram(mem, sizeof(mem), a->mems[c->mem]);
		printf("%svm: cell %d/%d: %s, %s of RAM, %s, round %d\n",
		    c->index > 1 ? "\n" : "", c->index, ncells,
		    a->labels[c->kernel], mem, a->fss[c->fs],
		    c->round + 1);
	}
	fputs(c->report, stdout);
	fflush(stdout);
}

/*
 * Under KVM, the -cpu model the first kernel starts with (vm_kvm_cpu()):
 * a KVM that opens may still not run a guest (a nested one that refuses an
 * MSR, or never leaves the kernel's set-up code).  Then TCG, unless
 * --accel kvm asked for KVM.
 */
static int
choose_cpu(struct vm_args *a, char **cause)
{
	const char	*cpu;

	if (!a->kvm)
		return CMD_OK;
	cpu = vm_kvm_cpu(VM_QEMU, a->k[0].image_fd, a->stop, &a->kvm_refused);
	if (a->stop != NULL && *a->stop)
		return CMD_FAIL;
	if (cpu != NULL) {
		a->cpu = cpu;
		return CMD_OK;
	}
	a->kvm = 0;
	if (strcmp(a->accel, "kvm") != 0)
		return CMD_OK;
	errorf(cause, "vm: --accel kvm: %s did not start under KVM: %s",
	    a->k[0].release, a->kvm_refused);
	return CMD_FAIL;
}

/* What the guests' CPU is, when it is not the host's as it is. */
static void
say_accel(const struct vm_args *a)
{
	const char	*why;

	if (a->run.quiet)
		return;
	if (a->kvm) {
		if (a->kvm_refused != NULL)
			text_say("vm: KVM, with -cpu %s: the kernel did not "
			    "start with %s", a->cpu, a->kvm_refused);
		return;
	}
	if (strcmp(a->accel, "tcg") == 0)
		why = "--accel tcg";
	else if (a->kvm_refused != NULL)
		why = "KVM did not start the kernel";
	else
		why = "no KVM here";
	text_say("vm: %s, so TCG: the guest's CPU is emulated, and its "
	    "CPU-bound figures (the per-char phases, %%CPU) are the "
	    "emulator's, not the kernel's; request sizes, the VM counters, "
	    "swap, reclaim and pressure are the guest kernel's own", why);
	if (a->kvm_refused != NULL)
		text_say("vm: under KVM with %s", a->kvm_refused);
}

/*
 * The whole command: its checks, the kernels made ready, the cells, the
 * comparison (*compared set when the status is the comparison's).
 */
static int
vm_run(struct vm_args *a, int n, char **words, int *compared, char **cause)
{
	struct vm_cell	*c = NULL;
	bn_time		 start;
	double		 done_s = 0;
	char		 span[32];
	int		 ncells = 0, i, rv, failed = 0, done = 0;

	if ((rv = vm_check(a, n, words, cause)) != CMD_OK)
		return rv;
	signals_install(on_stop, on_fault);
	if ((rv = make_top(a, cause)) != CMD_OK)
		return rv;
	if ((rv = prepare_kernels(a, cause)) != CMD_OK)
		return rv;
	if ((rv = choose_cpu(a, cause)) != CMD_OK)
		return rv;
	if (make_out(a, cause) == -1)
		return CMD_FAIL;
	c = make_cells(a, &ncells);
	if ((rv = check_names(a, c, ncells, cause)) != CMD_OK) {
		free_cells(c, ncells);
		return rv;
	}
	say_accel(a);
	start = time_now();
	for (i = 0; i < ncells && rv == CMD_OK; i++) {
		char	*why = NULL;

		if (vm_stop)
			break;
		if (vm_cell_run(a, &c[i], start, done_s, done, &why) == -1) {
			if (vm_stop) {
				free(why);
				break;
			}
			*cause = why;
			rv = CMD_FAIL;
			break;
		}
		done++;
		done_s = time_elapsed(start, time_now());
		show_report(a, &c[i], ncells);
		if (c[i].failed) {
			failed++;
			text_say("%s", why);
			if (c[i].tail != NULL && *c[i].tail != '\0')
				fprintf(stderr, "vm: the console's last "
				    "lines:\n%s", c[i].tail);
		}
		free(why);
		units_span(span, sizeof(span), c[i].seconds);
		if (!a->run.quiet && c[i].first_phase_s >= 0)
			fprintf(stderr, "vm: cell %d/%d: %s: %s in %s, its "
			    "first phase %.1f s after qemu's start\n",
			    c[i].index, ncells, c[i].name, c[i].failed ?
			    "failed" : "ran", span, c[i].first_phase_s);
		else if (!a->run.quiet)
			fprintf(stderr, "vm: cell %d/%d: %s: %s in %s, before "
			    "any phase\n", c[i].index, ncells, c[i].name,
			    c[i].failed ? "failed" : "ran", span);
	}
	if (vm_stop) {
		errorf(cause, "vm: interrupted by %s after %d of %d cells; "
		    "their records are kept in %s", signal_name(vm_stop), done,
		    ncells, a->outdir);
		free_cells(c, ncells);
		return 128 + vm_stop;
	}
	if (rv == CMD_OK) {
		rv = compare_cells(a, c, ncells);
		*compared = 1;
		if (failed > 0) {
			errorf(cause, "vm: %d of %d cells failed; the others' "
			    "records are in %s", failed, ncells, a->outdir);
			/* A kernel that does not run cannot be tested. */
			rv = a->bisect != NULL ? worse_of(rv, CMD_BISECT_SKIP,
			    1) : VM_CELL_FAILED;
		} else if (!a->run.quiet)
			fprintf(stderr, "vm: the records and console logs are "
			    "in %s\n", a->outdir);
	}
	free_cells(c, ncells);
	return rv;
}

static int
vm_exec(void *state, int n, char **words, char **cause)
{
	struct vm_args	*a = state;
	int		 rv, compared = 0;

	rv = vm_run(a, n, words, &compared, cause);
	/* --bisect: a refusal or the tool's own failure stops git. */
	if (a->bisect != NULL && !compared && rv != CMD_OK && rv < 128)
		return CMD_BISECT_ABORT;
	return rv;
}

static const struct cmd_rows vm_tables[] = {
	{ .rows = vm_rows, .scope = SCOPE_NONE },
	CMD_ROWS_END
};

const struct cmd_entry cmd_vm_entry = {
	.spec = { .command = "vm", .operands = "-- [run options]",
	    .lower = 0, .upper = -1, .required = "kernel",
	    .missing = "--kernel: give a kernel to boot" },
	.rows = vm_tables,
	.size = sizeof(struct vm_args),
	.init = vm_init,
	.exec = vm_exec,
	.flags = CMD_RUN_OPERANDS,
	.fini = vm_fini,
	.refused = vm_refused
};
