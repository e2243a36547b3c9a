/*
 * A fault-injection library for the tests, loaded with LD_PRELOAD.  It
 * makes the Nth call of a chosen kind fail with a chosen errno, come back
 * short, or sleep first, but only on the benchmark's own test files: a
 * descriptor counts when the name it points to (read from /proc/self/fd)
 * starts with "bonnie-ng." and a digit.  Everything else passes untouched.
 *
 *   BN_FAULT=SPEC[,SPEC...]	SPEC is KIND:COUNT:ACTION
 *	KIND	open read write pread pwrite fsync fdatasync close
 *		putc getc fflush fclose unlink (unlink, unlinkat)
 *		fork thread (pthread_create) pipe; these three count
 *		every call of the process, not only on test files;
 *		cpuclock (clock_gettime of a CPU clock), every call too
 *	COUNT	N (the Nth call only), N+ (the Nth and every later one),
 *		N+K (the Nth, then every Kth after it); calls are counted
 *		per kind, from 1, on test files only
 *	ACTION	an errno name (EIO, ENOSPC, ...) or number: fail with it;
 *		short: move only half the bytes (read-like kinds, write-like
 *		kinds, and getc, where it is an early end of file);
 *		eof: read-like kinds return 0 (an early end of file);
 *		sleep=US: sleep US microseconds, then do the call;
 *		wait=PATH: hold the call until PATH exists (looked for
 *		every 10 ms, for at most a minute), then do it: a test's
 *		event; a signal that lands in the wait ends it, one that
 *		lands between two looks may not: a test that signals the
 *		run makes PATH after the signal; fork's sleep or wait
 *		comes after the fork, in the parent only (the child runs
 *		while the parent has not yet seen its pid);
 *	      any ACTION of read, write, pread and pwrite may end in
 *		@OFFSET: only a call at or past that file offset (bytes)
 *		counts, so that sleep=US@OFFSET plants a slow region; a
 *		call before it goes on to the next SPEC of its kind;
 *	      corruptions that report success (for --verify), on the way
 *	      back from read, pread and getc:
 *		flip: flip the lowest bit of the middle byte read (getc: of
 *		the character);
 *		zero: the bytes read come back as zeroes;
 *		other=D: read and pread bring back the bytes at the offset
 *		plus D (D in bytes, may be negative; minus D when plus D
 *		falls outside the file), as a misdirected read;
 *	      and writes that report success, for write and pwrite:
 *		hole: nothing is written (write(2) moves the offset on);
 *		misdirect=D: the bytes go to the offset plus D instead (minus
 *		D when plus D would write past the end of the file);
 *	      for cpuclock:
 *		scale=K: the CPU clock reads K times its value, so every CPU
 *		time measured with it comes out K times too long (a meter
 *		that lies, for the checks that must catch one);
 *	      and for unlink:
 *		hold: open the file first and keep it open until the process
 *		ends, so that its space stays in use after its name is gone
 *		(the leak of a deleted file's space)
 *   BN_IDLE_THREAD=1		start a thread that only waits, as MPI_Init
 *				does: glibc then locks every stream call
 *				that its caller did not take over
 *   BN_FAULT_LOG=FILE		append a line per injected fault and per
 *				open of a test file (flags, mode), and at
 *				exit the bytes moved per kind on test files
 *				and, per stdio kind, the calls on test
 *				streams and how many of them were on a
 *				stream left to lock itself (not
 *				FSETLOCKING_BYCALLER), glibc only
 *
 * The stdio kinds need care: glibc's stdio reaches write(2) and read(2)
 * through internal aliases, never through the symbols a preload can
 * replace, so a write fault never shows in the per-char phases.  putc
 * therefore hooks every per-char output entry point a program can call
 * (putc, fputc, their _unlocked forms and __overflow, which the inlined
 * putc_unlocked calls when the buffer is full); getc likewise.  A failed
 * putc or getc sets the stream's error flag (glibc) so ferror(3) sees it.
 * fclose always closes the stream, then reports the fault; so does close,
 * as Linux releases the descriptor even when close fails.
 *
 * Counters are per process: a forked seeker starts from the parent's
 * counts at fork time and counts on from there on its own.
 */
#ifndef __NO_INLINE__
#define __NO_INLINE__ 1		/* No glibc inline getc_unlocked to clash. */
#endif

#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"


static struct spec	specs[MAX_SPECS];
static int		nspecs;
int			active[K_COUNT];	/* A spec names the kind. */
static int		logging;
static int		log_fd = -1;
static atomic_ulong	calls[K_COUNT];
static atomic_ullong	moved[K_COUNT];
static atomic_uint	stream_gen;	/* Bumped by fopen/fclose hooks. */
static atomic_ulong	stdio_calls[K_COUNT], stdio_locking[K_COUNT];

void *
inject_real(void **slot, const char *name)
{
	void	*p = *slot;

	if (p == NULL) {
		p = dlsym(RTLD_NEXT, name);
		if (p == NULL) {
			static const char msg[] = "libinject: missing symbol\n";
			(void)!write(2, msg, sizeof(msg) - 1);
			abort();
		}
		*slot = p;
	}
	return p;
}

static void	*real_read, *real_write, *real_pread, *real_pwrite,
		*real_fsync, *real_fdatasync, *real_close, *real_open,
		*real_open64, *real_openat, *real_openat64, *real_fopen,
		*real_fdopen, *real_putc, *real_fputc, *real__IO_putc,
		*real_putc_unlocked, *real_fputc_unlocked, *real_getc,
		*real_fgetc, *real__IO_getc, *real_getc_unlocked,
		*real_fgetc_unlocked, *real___overflow, *real___uflow,
		*real_fflush, *real_fclose, *real_pthread_create;

typedef ssize_t	(*rw_fn)(int, void *, size_t);
typedef ssize_t	(*wr_fn)(int, const void *, size_t);
typedef ssize_t	(*prw_fn)(int, void *, size_t, off_t);
typedef ssize_t	(*pwr_fn)(int, const void *, size_t, off_t);
typedef int	(*fd_fn)(int);
typedef int	(*file_fn)(FILE *);
typedef int	(*putc_fn)(int, FILE *);
typedef int	(*open_fn)(const char *, int, ...);
typedef int	(*openat_fn)(int, const char *, int, ...);
typedef FILE	*(*fopen_fn)(const char *, const char *);
typedef FILE	*(*fdopen_fn)(int, const char *);
typedef int	(*overflow_fn)(FILE *, int);

static void
log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
log_line(const char *fmt, ...)
{
	char	line[256];
	va_list	ap;
	int	n;

	if (log_fd == -1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0) {
		if ((size_t)n >= sizeof(line))
			n = sizeof(line) - 1;
		(void)!REAL(wr_fn, write)(log_fd, line, (size_t)n);
	}
}

/* Does this name look like a test file: "bonnie-ng." and a digit? */
int
is_test_name(const char *path)
{
	const char	*base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strncmp(base, "bonnie-ng.", 10) == 0 &&
	    base[10] >= '0' && base[10] <= '9';
}

static int
is_test_fd(int fd)
{
	char	proc[64], target[PATH_MAX + 1];
	ssize_t	n;

	if (fd < 0 || fd == log_fd)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return is_test_name(target);
}

/* A small per-thread cache, as putc and getc run once per byte. */
static int
is_test_stream(FILE *f)
{
	static _Thread_local FILE	*cf;
	static _Thread_local int	 cfd = -1, ctest;
	static _Thread_local unsigned	 cgen;
	unsigned			 gen = atomic_load(&stream_gen);
	int				 fd;

	if (f == NULL)
		return 0;
	fd = fileno(f);
	if (f != cf || fd != cfd || gen != cgen) {
		cf = f;
		cfd = fd;
		cgen = gen;
		ctest = is_test_fd(fd);
	}
	return ctest;
}

/*
 * Count a call of kind k on a test file and return the spec that fires
 * for it, or NULL.
 */
static struct spec *
fault_at(enum kind k, long long at)
{
	unsigned long	n;
	int		i;

	n = atomic_fetch_add(&calls[k], 1) + 1;
	for (i = 0; i < nspecs; i++) {
		struct spec *s = &specs[i];

		if (s->kind != k || n < s->first)
			continue;
		if (s->at_least >= 0 && (at < 0 || at < s->at_least))
			continue;
		if (n == s->first ||
		    (s->every != 0 && (n - s->first) % s->every == 0))
			return s;
	}
	return NULL;
}

struct spec *
fault_for(enum kind k)
{
	return fault_at(k, -1);
}

/* Log a fault once per spec and process (sleeps repeat, errors rarely). */
void
log_fault(struct spec *s, int fd, long long offset)
{
	char	act[32];

	if (s->action == A_SLEEP && atomic_exchange(&s->logged, 1) != 0)
		return;
	log_line("fault pid=%ld kind=%s call=%lu %s fd=%d offset=%lld\n",
	    (long)getpid(), kind_names[s->kind], atomic_load(&calls[s->kind]),
	    action_text(s, act, sizeof(act)), fd, offset);
}

void
do_sleep(const struct spec *s)
{
	struct timespec	ts;
	struct stat	st;
	int		i;

	if (s->wait[0] == '\0') {
		ts.tv_sec = s->usec / 1000000;
		ts.tv_nsec = (s->usec % 1000000) * 1000;
		nanosleep(&ts, NULL);	/* A signal cuts it short: fine. */
		return;
	}
	ts.tv_sec = 0;
	ts.tv_nsec = 10 * 1000000;
	for (i = 0; i < 6000 && stat(s->wait, &st) == -1; i++)
		if (nanosleep(&ts, NULL) == -1)
			break;
}

static long long
fd_offset(int fd)
{
	return (long long)lseek(fd, 0, SEEK_CUR);
}

/*
 * Where a misdirected read goes: at + delta, or at - delta when that
 * falls outside the file (so that a fault on a random read still brings
 * back other bytes of the file).
 */
static off_t
other_offset(int fd, off_t at, size_t len, long long delta)
{
	struct stat	st;
	off_t		to = at + (off_t)delta;

	if (fstat(fd, &st) == 0 && (to < 0 || to + (off_t)len > st.st_size) &&
	    at - (off_t)delta >= 0)
		to = at - (off_t)delta;
	return to;
}

/*
 * The faults that report success: a read that brings back other bytes,
 * a write that lands elsewhere or nowhere.  -2: not one of those.
 */
static ssize_t
lie(const struct spec *s, enum kind k, int fd, void *buf, size_t len,
    off_t off, int positioned)
{
	int	 reading = k == K_READ || k == K_PREAD;
	off_t	 at = positioned ? off : lseek(fd, 0, SEEK_CUR);
	ssize_t	 r;

	switch (s->action) {
	case A_FLIP:
	case A_ZERO:
		if (!reading)
			return -2;
		r = positioned ? REAL(prw_fn, pread)(fd, buf, len, off) :
		    REAL(rw_fn, read)(fd, buf, len);
		if (r > 0 && s->action == A_FLIP)
			((unsigned char *)buf)[r / 2] ^= 1;
		else if (r > 0)
			memset(buf, 0, (size_t)r);
		return r;
	case A_OTHER:
		if (!reading || at == -1)
			return -2;
		r = REAL(prw_fn, pread)(fd, buf, len, other_offset(fd, at, len,
		    s->delta));
		if (r > 0 && !positioned)
			lseek(fd, at + r, SEEK_SET);
		return r;
	case A_HOLE:
		if (reading || at == -1)
			return -2;
		if (!positioned)
			lseek(fd, at + (off_t)len, SEEK_SET);
		return (ssize_t)len;
	case A_MISDIRECT:
		if (reading || at == -1)
			return -2;
		r = REAL(pwr_fn, pwrite)(fd, buf, len, other_offset(fd, at,
		    len, s->delta));
		if (r > 0 && !positioned)
			lseek(fd, at + r, SEEK_SET);
		return r;
	default:
		return -2;
	}
}

/* The common body of read, write, pread and pwrite. */
static ssize_t
hook_rw(enum kind k, int fd, void *buf, size_t len, off_t off, int positioned)
{
	struct spec	*s = NULL;
	ssize_t		 r;
	int		 target;

	target = (active[k] || logging) && is_test_fd(fd);
	if (target && active[k])
		s = fault_at(k, positioned ? (long long)off : fd_offset(fd));
	if (s != NULL) {
		log_fault(s, fd, positioned ? (long long)off : fd_offset(fd));
		if ((r = lie(s, k, fd, buf, len, off, positioned)) != -2) {
			if (r > 0)
				atomic_fetch_add(&moved[k],
				    (unsigned long long)r);
			return r;
		}
		switch (s->action) {
		case A_ERRNO:
			errno = s->err;
			return -1;
		case A_EOF:
			if (k == K_READ || k == K_PREAD)
				return 0;
			break;
		case A_SHORT:
			if (len > 1)
				len /= 2;
			break;
		case A_SLEEP:
			do_sleep(s);
			break;
		default:
			break;
		}
	}
	switch (k) {
	case K_READ:
		r = REAL(rw_fn, read)(fd, buf, len);
		break;
	case K_WRITE:
		r = REAL(wr_fn, write)(fd, buf, len);
		break;
	case K_PREAD:
		r = REAL(prw_fn, pread)(fd, buf, len, off);
		break;
	default:
		r = REAL(pwr_fn, pwrite)(fd, buf, len, off);
		break;
	}
	if (target && r > 0)
		atomic_fetch_add(&moved[k], (unsigned long long)r);
	return r;
}

ssize_t
read(int fd, void *buf, size_t len)
{
	return hook_rw(K_READ, fd, buf, len, 0, 0);
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	return hook_rw(K_WRITE, fd, (void *)(uintptr_t)buf, len, 0, 0);
}

ssize_t
pread(int fd, void *buf, size_t len, off_t off)
{
	return hook_rw(K_PREAD, fd, buf, len, off, 1);
}

ssize_t
pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return hook_rw(K_PWRITE, fd, (void *)(uintptr_t)buf, len, off, 1);
}

#if defined(__LP64__)
/* Where off_t is 64 bits the 64 forms take the same arguments. */
ssize_t	pread64(int, void *, size_t, off_t);
ssize_t	pwrite64(int, const void *, size_t, off_t);

ssize_t
pread64(int fd, void *buf, size_t len, off_t off)
{
	return hook_rw(K_PREAD, fd, buf, len, off, 1);
}

ssize_t
pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return hook_rw(K_PWRITE, fd, (void *)(uintptr_t)buf, len, off, 1);
}
#endif

/* fsync, fdatasync and close: fail, or sleep then do the call. */
static int
hook_fd(enum kind k, int fd, fd_fn fn)
{
	struct spec	*s = NULL;
	int		 r;

	if (active[k] && is_test_fd(fd))
		s = fault_for(k);
	if (s == NULL)
		return fn(fd);
	log_fault(s, fd, fd_offset(fd));
	if (s->action == A_SLEEP) {
		do_sleep(s);
		return fn(fd);
	}
	if (s->action != A_ERRNO)
		return fn(fd);
	if (k == K_CLOSE) {
		r = fn(fd);
		if (r == -1)
			return r;
	}
	errno = s->err;
	return -1;
}

int
fsync(int fd)
{
	return hook_fd(K_FSYNC, fd, REAL(fd_fn, fsync));
}

int
fdatasync(int fd)
{
	return hook_fd(K_FDATASYNC, fd, REAL(fd_fn, fdatasync));
}

int
close(int fd)
{
	atomic_fetch_add(&stream_gen, 1);
	return hook_fd(K_CLOSE, fd, REAL(fd_fn, close));
}

/* open and openat: the file does not exist yet, so go by the name. */
static int
open_fault(const char *path, int flags, mode_t mode)
{
	struct spec	*s;

	if (path == NULL || !is_test_name(path))
		return 0;
	if (logging && flags != -1)
		log_line("open pid=%ld flags=%#x%s%s%s mode=%#o path=%s\n",
		    (long)getpid(), (unsigned)flags,
		    (flags & O_CREAT) ? ",creat" : "",
		    (flags & O_EXCL) ? ",excl" : "",
		    (flags & O_NOFOLLOW) ? ",nofollow" : "",
		    (unsigned)mode, path);
	else if (logging)
		log_line("open pid=%ld fopen path=%s\n", (long)getpid(), path);
	if (!active[K_OPEN])
		return 0;
	if ((s = fault_for(K_OPEN)) == NULL)
		return 0;
	log_fault(s, -1, 0);
	if (s->action == A_SLEEP) {
		do_sleep(s);
		return 0;
	}
	if (s->action != A_ERRNO)
		return 0;
	errno = s->err;
	return -1;
}

static mode_t
open_mode(int flags, va_list ap)
{
#ifdef O_TMPFILE
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return (mode_t)va_arg(ap, int);
#endif
	if (flags & O_CREAT)
		return (mode_t)va_arg(ap, int);
	return 0;
}

int
open(const char *path, int flags, ...)
{
	va_list	ap;
	mode_t	mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	atomic_fetch_add(&stream_gen, 1);
	if (open_fault(path, flags, mode) == -1)
		return -1;
	return REAL(open_fn, open)(path, flags, mode);
}

int	open64(const char *, int, ...);

int
open64(const char *path, int flags, ...)
{
	va_list	ap;
	mode_t	mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	atomic_fetch_add(&stream_gen, 1);
	if (open_fault(path, flags, mode) == -1)
		return -1;
	return REAL(open_fn, open64)(path, flags, mode);
}

int
openat(int dfd, const char *path, int flags, ...)
{
	va_list	ap;
	mode_t	mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	atomic_fetch_add(&stream_gen, 1);
	if (open_fault(path, flags, mode) == -1)
		return -1;
	return REAL(openat_fn, openat)(dfd, path, flags, mode);
}

int	openat64(int, const char *, int, ...);

int
openat64(int dfd, const char *path, int flags, ...)
{
	va_list	ap;
	mode_t	mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	atomic_fetch_add(&stream_gen, 1);
	if (open_fault(path, flags, mode) == -1)
		return -1;
	return REAL(openat_fn, openat64)(dfd, path, flags, mode);
}

FILE *
fopen(const char *path, const char *mode)
{
	atomic_fetch_add(&stream_gen, 1);
	if (open_fault(path, -1, 0) == -1)
		return NULL;
	return REAL(fopen_fn, fopen)(path, mode);
}

FILE *
fdopen(int fd, const char *mode)
{
	atomic_fetch_add(&stream_gen, 1);
	return REAL(fdopen_fn, fdopen)(fd, mode);
}

/* Mark a stream as failed the way glibc does, so ferror() agrees. */
static void
stream_error(FILE *f)
{
#ifdef _IO_ERR_SEEN
	f->_flags |= _IO_ERR_SEEN;
#else
	(void)f;
#endif
}

static void
stream_eof(FILE *f)
{
#ifdef _IO_EOF_SEEN
	f->_flags |= _IO_EOF_SEEN;
#else
	(void)f;
#endif
}

/*
 * The per-char hooks: 1 when the caller should return EOF (errno and the
 * stream flags set), 0 to go on with the real call; getc_fault() also
 * returns 2 to flip the character's lowest bit, 3 to make it a zero.
 */
/*
 * Count a per-char call on a test stream, and whether the stream locks
 * itself (glibc then takes its lock when the process has other threads).
 */
static void
stdio_count(enum kind k, FILE *f, int locking_call)
{
	if (!logging || !is_test_stream(f))
		return;
	atomic_fetch_add(&stdio_calls[k], 1);
#ifdef __GLIBC__
	if (locking_call && __fsetlocking(f, FSETLOCKING_QUERY) ==
	    FSETLOCKING_INTERNAL)
		atomic_fetch_add(&stdio_locking[k], 1);
#else
	(void)locking_call;
#endif
}

static int
putc_fault(FILE *f)
{
	struct spec	*s;

	if (!active[K_PUTC] || !is_test_stream(f))
		return 0;
	if ((s = fault_for(K_PUTC)) == NULL)
		return 0;
	log_fault(s, fileno(f), (long long)ftello(f));
	switch (s->action) {
	case A_ERRNO:
		stream_error(f);
		errno = s->err;
		return 1;
	case A_SLEEP:
		do_sleep(s);
		return 0;
	default:
		return 0;
	}
}

static int
getc_fault(FILE *f)
{
	struct spec	*s;

	if (!active[K_GETC] || !is_test_stream(f))
		return 0;
	if ((s = fault_for(K_GETC)) == NULL)
		return 0;
	log_fault(s, fileno(f), (long long)ftello(f));
	switch (s->action) {
	case A_ERRNO:
		stream_error(f);
		errno = s->err;
		return 1;
	case A_SHORT:
	case A_EOF:
		stream_eof(f);
		return 1;
	case A_SLEEP:
		do_sleep(s);
		return 0;
	case A_FLIP:
		return 2;
	case A_ZERO:
		return 3;
	default:
		return 0;
	}
}

/* Apply getc_fault()'s verdict v to the character the real call gave. */
static int
getc_lie(int v, int c)
{
	if (c == EOF || v < 2)
		return c;
	return v == 2 ? c ^ 1 : 0;
}

#define PUTC_HOOK(name, locking)					\
int									\
name(int c, FILE *f)							\
{									\
	stdio_count(K_PUTC, f, locking);				\
	if (putc_fault(f))						\
		return EOF;						\
	return REAL(putc_fn, name)(c, f);				\
}

#define GETC_HOOK(name, locking)					\
int									\
name(FILE *f)								\
{									\
	int	v;							\
									\
	stdio_count(K_GETC, f, locking);				\
	if ((v = getc_fault(f)) == 1)					\
		return EOF;						\
	return getc_lie(v, REAL(file_fn, name)(f));			\
}

int	_IO_putc(int, FILE *);
int	_IO_getc(FILE *);

PUTC_HOOK(putc, 1)
PUTC_HOOK(fputc, 1)
PUTC_HOOK(_IO_putc, 1)
PUTC_HOOK(putc_unlocked, 0)
PUTC_HOOK(fputc_unlocked, 0)
GETC_HOOK(getc, 1)
GETC_HOOK(fgetc, 1)
GETC_HOOK(_IO_getc, 1)
GETC_HOOK(getc_unlocked, 0)
GETC_HOOK(fgetc_unlocked, 0)

/* What the inlined putc_unlocked and getc_unlocked call. */
int
__overflow(FILE *f, int c)
{
	if (putc_fault(f))
		return EOF;
	return REAL(overflow_fn, __overflow)(f, c);
}

int
__uflow(FILE *f)
{
	int	v = getc_fault(f);

	if (v == 1)
		return EOF;
	return getc_lie(v, REAL(file_fn, __uflow)(f));
}

int
fflush(FILE *f)
{
	struct spec	*s = NULL;

	if (f != NULL && active[K_FFLUSH] && is_test_stream(f))
		s = fault_for(K_FFLUSH);
	if (s != NULL) {
		log_fault(s, fileno(f), (long long)ftello(f));
		if (s->action == A_ERRNO) {
			stream_error(f);
			errno = s->err;
			return EOF;
		}
		if (s->action == A_SLEEP)
			do_sleep(s);
	}
	return REAL(file_fn, fflush)(f);
}

int
fclose(FILE *f)
{
	struct spec	*s = NULL;
	int		 r;

	if (f != NULL && active[K_FCLOSE] && is_test_stream(f))
		s = fault_for(K_FCLOSE);
	atomic_fetch_add(&stream_gen, 1);
	if (s != NULL) {
		log_fault(s, fileno(f), (long long)ftello(f));
		if (s->action == A_SLEEP)
			do_sleep(s);
	}
	r = REAL(file_fn, fclose)(f);
	if (s != NULL && s->action == A_ERRNO && r == 0) {
		errno = s->err;
		return EOF;
	}
	return r;
}


static void
die(const char *what, const char *value)
{
	char	line[512];
	int	n;

	n = snprintf(line, sizeof(line), "libinject: bad %s: %s\n", what,
	    value);
	if (n > 0)
		(void)!REAL(wr_fn, write)(2, line,
		    (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	_exit(97);
}

/* BN_IDLE_THREAD: a thread that waits for ever, as MPI's helpers do. */
static void *
idle_main(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

__attribute__((constructor)) static void
inject_init(void)
{
	const char	*env, *logpath;
	char		 copy[1024], *p, *item;
	pthread_t	 idle;

	logpath = getenv("BN_FAULT_LOG");
	if (logpath != NULL && *logpath != '\0') {
		log_fd = REAL(open_fn, open)(logpath,
		    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (log_fd == -1)
			die("BN_FAULT_LOG", logpath);
		logging = 1;
	}
	env = getenv("BN_IDLE_THREAD");
	if (env != NULL && strcmp(env, "1") == 0 &&
	    (REAL(pthread_create_fn, pthread_create)(&idle, NULL, idle_main, NULL) != 0 ||
	    pthread_detach(idle) != 0))
		die("BN_IDLE_THREAD", env);
	env = getenv("BN_FAULT");
	if (env == NULL || *env == '\0')
		return;
	if (strlen(env) >= sizeof(copy))
		die("BN_FAULT (too long)", env);
	strcpy(copy, env);
	for (p = copy; (item = strsep(&p, ",")) != NULL;) {
		if (*item == '\0')
			continue;
		if (nspecs == MAX_SPECS)
			die("BN_FAULT (too many)", env);
		if (parse_spec(item, &specs[nspecs]) == -1)
			die("BN_FAULT", env);
		active[specs[nspecs].kind] = 1;
		nspecs++;
	}
}

__attribute__((destructor)) static void
inject_fini(void)
{
	int	k;

	if (!logging)
		return;
	for (k = 0; k < K_COUNT; k++) {
		unsigned long long m = atomic_load(&moved[k]);

		if (m != 0)
			log_line("moved pid=%ld kind=%s bytes=%llu\n",
			    (long)getpid(), kind_names[k], m);
		if (atomic_load(&stdio_calls[k]) != 0)
			log_line("stdio pid=%ld kind=%s calls=%lu locking=%lu\n",
			    (long)getpid(), kind_names[k],
			    atomic_load(&stdio_calls[k]),
			    atomic_load(&stdio_locking[k]));
	}
}
