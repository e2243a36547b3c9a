/*
 * One cell of bonnie-ng vm (include/vm.h): a fresh test disk and mailbox,
 * the boot, the progress read off the console, the reply read back, the
 * record and the console log written whole into the out directory.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "mailbox.h"
#include "outfile.h"
#include "phase.h"
#include "platform.h"
#include "run.h"
#include "signals.h"
#include "spawn.h"
#include "units.h"
#include "vm-guest.h"
#include "vm-qemu.h"
#include "vm-request.h"
#include "vm.h"

/*
 * The timeout's parts: a boot's allowance, and the slowest rate the
 * run's planned bytes (read about as much as written) are allowed, under
 * TCG (an emulated CPU on a busy host) and under KVM; a phase's own
 * allowance (the seekers, the sync, the files).
 */
#define BOOT_ALLOW_TCG	180.0
#define BOOT_ALLOW_KVM	60.0
#define RATE_TCG	(1.0 * 1024 * 1024)
#define RATE_KVM	(10.0 * 1024 * 1024)
#define PHASE_ALLOW	60.0
/* The console lines a failed cell shows. */
#define TAIL_LINES	8

double
vm_cell_timeout(const struct vm_args *a)
{
	const struct options	*o = &a->run;
	double			 bytes, t;
	int			 partial, i, nph = 0, repeat;

	if (a->timeout > 0)
		return (double)a->timeout;
	for (i = 0; i < PH_COUNT; i++)
		nph += (o->phases >> i) & 1;
	repeat = o->repeat > 0 ? o->repeat : 1;
	bytes = 2.0 * (double)run_planned_bytes(o, &partial);
	t = bytes / (a->kvm ? RATE_KVM : RATE_TCG) + nph * PHASE_ALLOW;
	return (a->kvm ? BOOT_ALLOW_KVM : BOOT_ALLOW_TCG) + t * repeat;
}

uint64_t
vm_disk_size(const struct vm_args *a, const char *fs)
{
	const struct options	*o = &a->run;
	uint64_t		 need, jobs = o->jobs > 0 ? (uint64_t)o->jobs : 1;

	if (a->disk > 0)
		return a->disk;
	/* The files, a tenth more, and room for the file system's own. */
	need = o->size * jobs;
	need += need / 10 + ((uint64_t)64 << 20);
	if (strcmp(fs, "xfs") == 0 && need < ((uint64_t)320 << 20))
		need = (uint64_t)320 << 20;
	return (need + ((1 << 20) - 1)) & ~(uint64_t)((1 << 20) - 1);
}

/* The progress of a cell, from the guest's own lines on its console. */
struct progress {
	const struct vm_args	*a;
	struct vm_cell		*cell;
	bn_time			 start;		/* Of the whole matrix. */
	bn_time			 boot;		/* Of this cell. */
	double			 done_s;	/* The cells before. */
	int			 done_cells;
	int			 tty;
	char			 seg[256];	/* The line so far. */
	size_t			 nseg;
	const char		*phase;		/* The title now shown. */
	int			 pct;
};

/* "about 3m 20s left", from the cells finished so far. */
static void
eta(const struct progress *p, char *buf, size_t len)
{
	char	span[32];
	double	left, in;

	if (p->done_cells == 0) {
		snprintf(buf, len, "time left known after the first cell");
		return;
	}
	in = time_elapsed(p->boot, time_now());
	left = p->done_s / p->done_cells * (p->cell->ncells - p->done_cells) -
	    in;
	if (left < 0)
		left = 0;
	units_span(span, sizeof(span), left);
	snprintf(buf, len, "about %s left", span);
}

static void
show(struct progress *p, const char *what)
{
	char	e[64];

	eta(p, e, sizeof(e));
	if (p->tty)
		fprintf(stderr, "\r\033[Kvm: cell %d/%d: %s: %s (%s)",
		    p->cell->index, p->cell->ncells, p->cell->name, what, e);
	else
		fprintf(stderr, "vm: cell %d/%d: %s: %s (%s)\n",
		    p->cell->index, p->cell->ncells, p->cell->name, what, e);
	fflush(stderr);
}

/* A line of the console: a phase's "Title..." when it starts. */
static void
console_line(struct progress *p)
{
	const struct phase	*ph;
	char			 what[128];
	const char		*dots;
	int			 i, pct = -1;

	p->seg[p->nseg] = '\0';
	if ((dots = strstr(p->seg, "...")) == NULL)
		return;
	for (i = 0; (ph = phase_table[i]) != NULL; i++) {
		if (strlen(ph->title) != (size_t)(dots - p->seg) ||
		    strncmp(p->seg, ph->title, (size_t)(dots - p->seg)) != 0)
			continue;
		if (p->cell->first_phase_s < 0)
			p->cell->first_phase_s = time_elapsed(p->boot,
			    time_now());
		(void)sscanf(dots + 3, "%d%%", &pct);
		/* A line a phase, and on a terminal its percentage. */
		if (ph->title == p->phase && (!p->tty || pct == p->pct))
			return;
		p->phase = ph->title;
		p->pct = pct;
		if (pct >= 0 && p->tty)
			snprintf(what, sizeof(what), "%s... %d%%", ph->title,
			    pct);
		else
			snprintf(what, sizeof(what), "%s...", ph->title);
		show(p, what);
		return;
	}
}

static void
on_console(void *arg, const char *buf, size_t n)
{
	struct progress	*p = arg;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\r' || buf[i] == '\n') {
			console_line(p);
			p->nseg = 0;
		} else if (p->nseg < sizeof(p->seg) - 1)
			p->seg[p->nseg++] = buf[i];
	}
	/* A percentage is written without a line's end after it. */
	if (p->nseg > 0)
		console_line(p);
}

/* A new file in the temporary directory, open read-write; then removed. */
static int
scratch_file(const struct vm_args *a, const char *name, uint64_t size,
    char **path, int *fd, char **cause)
{
	*path = xasprintf("%s/%s", a->top, name);
	*fd = open(*path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (*fd == -1)
		return errorf(cause, "vm: %s: %s", *path, strerror(errno));
	if (ftruncate(*fd, (off_t)size) == -1)
		return errorf(cause, "vm: %s: %s (making it %llu bytes)",
		    *path, strerror(errno), (unsigned long long)size);
	return 0;
}

/* mkfs.FS on the image, with --mkfs-options split at blanks. */
static int
make_fs(const struct vm_args *a, const char *fs, const char *path,
    char **cause)
{
	char	**argv, *opts = NULL, *w, *last, *prog;
	int	  n = 0, rv;

	argv = xcalloc(8 + (a->mkfs_options != NULL ?
	    strlen(a->mkfs_options) : 0), sizeof(*argv));
	prog = xasprintf("mkfs.%s", fs);
	argv[n++] = prog;
	argv[n++] = "-q";
	argv[n++] = strcmp(fs, "xfs") == 0 ? "-f" : "-F";
	if (a->mkfs_options != NULL) {
		opts = xstrdup(a->mkfs_options);
		for (w = strtok_r(opts, " \t", &last); w != NULL;
		    w = strtok_r(NULL, " \t", &last))
			argv[n++] = w;
	}
	argv[n++] = (char *)path;
	rv = spawn_run(argv, -1, -1, a->stop, cause);
	free(opts);
	free(prog);
	free(argv);
	return rv;
}

/* The facts of the guest's machine, for its record. */
static void
guest_facts(const struct vm_args *a, const struct vm_cell *c,
    struct sysinfo_guest *g)
{
	const struct vm_kernel	*k = &a->k[c->kernel];
	size_t			 len = 0, n;
	int			 i;

	g->accel = xstrdup(a->kvm ? "kvm" : "tcg");
	g->cpu = xstrdup(a->cpu);
	g->vcpus = (int64_t)a->cpus;
	g->memory_bytes = (int64_t)a->mems[c->mem];
	g->disk_bytes = (int64_t)vm_disk_size(a, a->fss[c->fs]);
	g->disk_cache = xstrdup("none");
	g->fs = xstrdup(a->fss[c->fs]);
	if (a->mkfs_options != NULL)
		g->mkfs_options = xstrdup(a->mkfs_options);
	if (a->mount_options != NULL)
		g->mount_options = xstrdup(a->mount_options);
	if (a->append != NULL)
		g->append = xstrdup(a->append);
	g->qemu = xstrdup(VM_QEMU);
	if (a->qemu_version != NULL)
		g->qemu_version = xstrdup(a->qemu_version);
	g->kernel_image = xstrdup(k->arg);
	g->kernel_sha256 = xstrdup(k->sha256);
	if (a->host_kernel != NULL)
		g->host_kernel = xstrdup(a->host_kernel);
	/* The command's words, after the program's name main.c took. */
	g->host_command = xstrdup("bonnie-ng");
	len = strlen("bonnie-ng") + 1;
	for (i = 0; i < a->argc; i++) {
		n = strlen(a->argv[i]) + 1;
		g->host_command = xrealloc(g->host_command, len + n);
		memcpy(g->host_command + len, a->argv[i], n);
		len += n;
	}
	g->host_command_len = (int64_t)len;
	g->cell = c->index;
	g->cells = c->ncells;
	g->round = c->round + 1;
}

/* The mailbox with the cell's request on it. */
static int
make_mailbox(const struct vm_args *a, const struct vm_cell *c, int *fd,
    char **cause)
{
	struct vm_request	 r;
	struct mbox_msg		 m;
	char			*path = NULL, *name;
	int			 i, rv;

	vm_request_init(&r);
	for (i = 0; i < a->guest_argc; i++)
		vm_request_arg(&r, a->guest_argv[i]);
	guest_facts(a, c, &r.guest);
	memset(&m, 0, sizeof(m));
	m.a = vm_request_encode(&r, &m.alen);
	name = xasprintf("cell%d.mailbox", c->index);
	rv = scratch_file(a, name, MBOX_SIZE, &path, fd, cause);
	if (rv == 0)
		rv = mbox_write(*fd, path, 0, MBOX_REPLY_OFF, MBOX_REQUEST, &m,
		    cause);
	if (path != NULL)
		(void)unlink(path);
	free(path);
	free(name);
	free(m.a);
	vm_request_free(&r);
	return rv;
}

/* The fresh test disk, formatted, open; its file removed. */
static int
make_disk(const struct vm_args *a, const struct vm_cell *c, int *fd,
    char **cause)
{
	const char	*fs = a->fss[c->fs];
	char		*path = NULL, *name;
	int		 rv;

	name = xasprintf("cell%d.img", c->index);
	rv = scratch_file(a, name, vm_disk_size(a, fs), &path, fd, cause);
	if (rv == 0 && strcmp(fs, "none") != 0)
		rv = make_fs(a, fs, path, cause);
	if (path != NULL)
		(void)unlink(path);
	free(path);
	free(name);
	return rv;
}

/*
 * The kernel's command line: the console, no reboot, bonnie-ng as init, and
 * no_timer_check: under TCG on a loaded host the kernel's test of the timer
 * through the IO-APIC can miss its ticks and panic ("IO-APIC + timer doesn't
 * work!", 2 of 4 cells in a CI run at load 15); the test proves nothing
 * about a virtual machine's timer, which qemu emulates.
 */
static char *
kernel_line(const struct vm_args *a)
{
	return xasprintf("console=ttyS0 panic=-1 quiet no_timer_check "
	    "rdinit=/init%s%s",
	    a->append != NULL ? " " : "", a->append != NULL ? a->append : "");
}

/*
 * A console line without its terminal's escape sequences (the firmware
 * clears the screen) and other control characters.
 */
static void
plain(char *s)
{
	char	*d = s;

	while (*s != '\0') {
		if (*s == '\033') {
			/* ESC [ parameters, then a final letter. */
			s++;
			if (*s == '[' || *s == '(')
				for (s++; *s != '\0' && (*s < '@' || *s > '~');
				    s++)
					;
			if (*s != '\0')
				s++;
		} else if ((unsigned char)*s < ' ' && *s != '\t')
			s++;
		else
			*d++ = *s++;
	}
	*d = '\0';
}

/*
 * The last lines of the console's log (for the cell's tail), and its
 * kernel panic's line, if any (into panic, len bytes).
 */
static char *
console_tail(const char *path, char *panic, size_t len)
{
	FILE	*f;
	char	*lines[TAIL_LINES], buf[512], *s, *out, *p;
	int	 n = 0, i;
	size_t	 blen;

	memset(lines, 0, sizeof(lines));
	panic[0] = '\0';
	if ((f = fopen(path, "re")) == NULL)
		return xstrdup("");
	while (fgets(buf, sizeof(buf), f) != NULL) {
		blen = strcspn(buf, "\r\n");
		buf[blen] = '\0';
		plain(buf);
		if (buf[0] == '\0')
			continue;
		if (panic[0] == '\0' && (p = strstr(buf, "Kernel panic")) !=
		    NULL)
			snprintf(panic, len, "%s", p);
		free(lines[n % TAIL_LINES]);
		lines[n % TAIL_LINES] = xstrdup(buf);
		n++;
	}
	fclose(f);
	out = xstrdup("");
	for (i = n > TAIL_LINES ? n - TAIL_LINES : 0; i < n; i++) {
		s = xasprintf("%s    %s\n", out, lines[i % TAIL_LINES]);
		free(out);
		out = s;
	}
	for (i = 0; i < TAIL_LINES; i++)
		free(lines[i]);
	return out;
}

static int
put_bytes(FILE *f, const void *arg)
{
	const struct mbox_msg	*m = arg;

	return fwrite(m->a, 1, m->alen, f) == m->alen ? 0 : -1;
}

/* What the boot's end says when the guest wrote no reply. */
static void
no_reply(const struct vm_boot *b, char *buf, size_t len)
{
	char	span[32];

	units_span(span, sizeof(span), b->seconds);
	switch (b->end) {
	case BOOT_TIMEOUT:
		snprintf(buf, len, "no reply within the timeout (%s; "
		    "--timeout sets it): the guest hung or was too slow", span);
		break;
	case BOOT_SIGNALED:
		snprintf(buf, len, "qemu was killed by %s%s%s", signal_name(
		    b->exit_code), b->errors[0] != '\0' ? "; qemu said: " : "",
		    b->errors);
		break;
	default:
		snprintf(buf, len, "qemu ended (exit %d) after %s with no "
		    "reply from the guest: it panicked, or its init could not "
		    "start%s%s", b->exit_code, span, b->errors[0] != '\0' ?
		    "; qemu said: " : "", b->errors);
		break;
	}
}

/* The reply on the mailbox: the record kept, or why the cell failed. */
static int
take_reply(const struct vm_args *a, struct vm_cell *c,
    const struct vm_boot *b, int mbox_fd, const char *log, char **cause)
{
	struct mbox_msg	 m;
	struct outfile	 out;
	char		*why = NULL, buf[1200], panic[200];
	int		 r;

	r = mbox_read(mbox_fd, "the mailbox disk", MBOX_REPLY_OFF, MBOX_SIZE,
	    MBOX_REPLY, &m, &why);
	if (r == 1 && m.alen > 0) {
		c->record = xasprintf("%s/%s.json", a->outdir, c->name);
		if (outfile_open(&out, "record", c->record, cause) == -1 ||
		    outfile_replace(&out, put_bytes, &m, 1, cause) == -1) {
			mbox_msg_free(&m);
			return -1;
		}
		c->ran = 1;
	}
	if (r == 1) {
		c->status = m.status;
		if (m.clen > 0) {
			c->report = m.c;
			m.c = NULL;
		}
		if (m.status != 0) {
			c->failed = 1;
			errorf(cause, "vm: cell %d (%s): the guest's run exited "
			    "%d: %s (console: %s)", c->index, c->name, m.status,
			    m.blen > 0 ? m.b : "no message", log);
		}
		mbox_msg_free(&m);
		return 0;
	}
	c->failed = 1;
	if (r == -1) {
		snprintf(buf, sizeof(buf), "%s", why);
		free(why);
	} else
		no_reply(b, buf, sizeof(buf));
	c->tail = console_tail(log, panic, sizeof(panic));
	errorf(cause, "vm: cell %d (%s): %s%s%s; its console: %s", c->index,
	    c->name, buf, panic[0] != '\0' ? "; " : "", panic, log);
	return 0;
}

int
vm_cell_run(const struct vm_args *a, struct vm_cell *c, bn_time start,
    double done_s, int done_cells, char **cause)
{
	struct vm_boot	 b;
	struct progress	 p;
	char		*log, *line;
	int		 disk_fd = -1, mbox_fd = -1, log_fd = -1, rv;

	memset(&p, 0, sizeof(p));
	p.a = a;
	p.cell = c;
	p.start = start;
	p.done_s = done_s;
	p.done_cells = done_cells;
	p.tty = isatty(STDERR_FILENO);
	p.pct = -1;
	c->first_phase_s = -1;
	p.boot = time_now();
	show(&p, "making its disk");
	log = xasprintf("%s/%s.console.log", a->outdir, c->name);
	rv = make_disk(a, c, &disk_fd, cause);
	if (rv == 0)
		rv = make_mailbox(a, c, &mbox_fd, cause);
	if (rv == 0 && (log_fd = open(log, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0666)) == -1)
		rv = errorf(cause, "vm: %s: %s", log, strerror(errno));
	if (rv == 0) {
		memset(&b, 0, sizeof(b));
		b.qemu = VM_QEMU;
		b.kvm = a->kvm;
		b.cpu = a->cpu;
		b.vcpus = (int)a->cpus;
		b.mem_bytes = a->mems[c->mem];
		b.kernel_fd = a->k[c->kernel].image_fd;
		b.initrd_fd = a->k[c->kernel].initrd_fd;
		b.disk_fd = disk_fd;
		b.mbox_fd = mbox_fd;
		b.append = line = kernel_line(a);
		b.console_fd = log_fd;
		b.timeout_s = vm_cell_timeout(a);
		b.stop = a->stop;
		b.console = on_console;
		b.arg = &p;
		p.boot = time_now();
		show(&p, "booting");
		rv = vm_boot_run(&b, cause);
		free(line);
		c->seconds = b.seconds;
		if (p.tty)
			fputs("\r\033[K", stderr);
		if (rv == 0 && b.end == BOOT_STOPPED)
			rv = errorf(cause, "vm: stopped");
		else if (rv == 0)
			rv = take_reply(a, c, &b, mbox_fd, log, cause);
	}
	if (log_fd != -1 && close(log_fd) == -1 && rv == 0)
		rv = errorf(cause, "vm: %s: %s", log, strerror(errno));
	if (disk_fd != -1)
		close(disk_fd);
	if (mbox_fd != -1)
		close(mbox_fd);
	free(log);
	return rv;
}
