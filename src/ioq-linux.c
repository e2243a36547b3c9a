/*
 * The Linux half of ioq: io_uring through its system calls, no library.
 * One ring per queue, as many submission and completion entries as the
 * depth, set up as fio's io_uring engine sets up its own by default:
 * completions are run cooperatively and only when the one task that uses
 * the ring asks for them (COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN; each
 * left out again on a kernel that refuses it).  A request is one
 * IORING_OP_READ or IORING_OP_WRITE (kernel 5.6) when the kernel's probe
 * lists them, else one IORING_OP_READV or IORING_OP_WRITEV of one iovec
 * (5.1).  No registered files or buffers, no polling: fio's defaults.  The
 * ring is made and used by the same thread (a phase's setup and run, a
 * seeker's own process or thread).  The rings are shared with the kernel:
 * the tails we write and the heads we read are ordered with release and
 * acquire.
 */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <linux/io_uring.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ioq.h"

/* The kernel's IORING_MAX_ENTRIES (io_uring/io_uring.c since 5.4). */
#define URING_MAX	32768

/* Setup flags newer than some headers (kernel 5.19, 6.0, 6.1). */
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN	(1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif

/* The flags tried in turn, the first the kernel takes is kept. */
static const unsigned uring_flags[] = {
	IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN |
	    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_CQSIZE,
	0,
};

struct ioq {
	int		 ring_fd;
	int		 fd;
	unsigned	 depth;
	void		*sq_map, *cq_map;
	size_t		 sq_len, cq_len;
	struct io_uring_sqe *sqes;
	size_t		 sqes_len;
	unsigned	*sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned	*cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
	unsigned	 queued;	/* Prepared, not yet in the ring. */
	unsigned	 unsent;	/* In the ring, not yet taken. */
	unsigned	 inflight;	/* Submitted, not yet reaped. */
	int		 plain;		/* IORING_OP_READ and _WRITE. */
	struct iovec	*iov;		/* One per tag, without plain. */
};

int
ioq_max_depth(void)
{
	return URING_MAX;
}

const char *
ioq_engine(void)
{
	return "io_uring";
}

const char *
ioq_call(void)
{
	return "io_uring_enter";
}

void
ioq_cpu(struct ioq *q, struct cpu_times *cpu)
{
	(void)q;
	(void)cpu;
}

static int
uring_setup(unsigned entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int
uring_register(int fd, unsigned op, void *arg, unsigned n)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

static int
uring_enter(int fd, unsigned submit, unsigned wait, unsigned flags)
{
	return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags,
	    NULL, 0);
}

/* " (kernel.io_uring_disabled = N)" when it is set, else "". */
static const char *
uring_disabled(void)
{
	static char	words[64];
	FILE		*f;
	int		 v = 0;

	if ((f = fopen("/proc/sys/kernel/io_uring_disabled", "re")) == NULL)
		return "";
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	if (v == 0)
		return "";
	snprintf(words, sizeof(words), " (kernel.io_uring_disabled = %d)", v);
	return words;
}

void
ioq_close(struct ioq *q)
{
	if (q == NULL)
		return;
	if (q->sqes != NULL)
		munmap(q->sqes, q->sqes_len);
	if (q->cq_map != NULL && q->cq_map != q->sq_map)
		munmap(q->cq_map, q->cq_len);
	if (q->sq_map != NULL)
		munmap(q->sq_map, q->sq_len);
	if (q->ring_fd != -1)
		close(q->ring_fd);
	free(q->iov);
	free(q);
}

/* Does the kernel take IORING_OP_READ and IORING_OP_WRITE? */
static int
uring_plain(int ring_fd)
{
	struct io_uring_probe	*pr;
	size_t			 len;
	int			 ok = 0;

	len = sizeof(*pr) + 256 * sizeof(struct io_uring_probe_op);
	if ((pr = calloc(1, len)) == NULL)
		return 0;
	if (uring_register(ring_fd, IORING_REGISTER_PROBE, pr, 256) == 0 &&
	    pr->last_op >= IORING_OP_WRITE &&
	    (pr->ops[IORING_OP_READ].flags & IO_URING_OP_SUPPORTED) &&
	    (pr->ops[IORING_OP_WRITE].flags & IO_URING_OP_SUPPORTED))
		ok = 1;
	free(pr);
	return ok;
}

static void *
ring_map(int fd, size_t len, off_t what)
{
	void	*p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_POPULATE, fd, what);

	return p == MAP_FAILED ? NULL : p;
}

struct ioq *
ioq_open(int fd, int depth, char **why)
{
	struct io_uring_params	 p;
	struct ioq	*q;
	unsigned char		*sq, *cq;
	size_t			 i;
	int			 e = 0;

	if ((q = calloc(1, sizeof(*q))) == NULL ||
	    (q->iov = calloc((size_t)depth, sizeof(*q->iov))) == NULL) {
		free(q);
		errorf(why, "io_uring: %s", strerror(ENOMEM));
		return NULL;
	}
	q->fd = fd;
	q->depth = (unsigned)depth;
	q->ring_fd = -1;
	for (i = 0; i < sizeof(uring_flags) / sizeof(uring_flags[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = uring_flags[i];
		p.cq_entries = (unsigned)depth;
		if ((q->ring_fd = uring_setup((unsigned)depth, &p)) != -1 ||
		    (e = errno) != EINVAL)
			break;
	}
	if (q->ring_fd == -1) {
		errorf(why, "io_uring_setup: %s%s", strerror(e),
		    uring_disabled());
		ioq_close(q);
		return NULL;
	}
	q->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	q->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (q->cq_len > q->sq_len)
			q->sq_len = q->cq_len;
		q->cq_len = q->sq_len;
	}
	q->sq_map = ring_map(q->ring_fd, q->sq_len, IORING_OFF_SQ_RING);
	if (q->sq_map != NULL)
		q->cq_map = (p.features & IORING_FEAT_SINGLE_MMAP) ? q->sq_map :
		    ring_map(q->ring_fd, q->cq_len, IORING_OFF_CQ_RING);
	q->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	if (q->cq_map != NULL)
		q->sqes = ring_map(q->ring_fd, q->sqes_len, IORING_OFF_SQES);
	if (q->sqes == NULL) {
		e = errno;
		errorf(why, "io_uring: mmap of the rings: %s", strerror(e));
		ioq_close(q);
		return NULL;
	}
	sq = q->sq_map;
	cq = q->cq_map;
	q->sq_head = (unsigned *)(void *)(sq + p.sq_off.head);
	q->sq_tail = (unsigned *)(void *)(sq + p.sq_off.tail);
	q->sq_mask = (unsigned *)(void *)(sq + p.sq_off.ring_mask);
	q->sq_array = (unsigned *)(void *)(sq + p.sq_off.array);
	q->cq_head = (unsigned *)(void *)(cq + p.cq_off.head);
	q->cq_tail = (unsigned *)(void *)(cq + p.cq_off.tail);
	q->cq_mask = (unsigned *)(void *)(cq + p.cq_off.ring_mask);
	q->cqes = (struct io_uring_cqe *)(void *)(cq + p.cq_off.cqes);
	q->plain = uring_plain(q->ring_fd);
	return q;
}

/* The caller never has more than depth requests out: the ring has room. */
void
ioq_prep(struct ioq *q, int tag, int write, void *buf,
    size_t len, off_t off)
{
	unsigned		 tail = *q->sq_tail + q->queued;
	unsigned		 i = tail & *q->sq_mask;
	struct io_uring_sqe	*e = &q->sqes[i];

	memset(e, 0, sizeof(*e));
	e->fd = q->fd;
	if (q->plain) {
		e->opcode = write ? IORING_OP_WRITE : IORING_OP_READ;
		e->addr = (uint64_t)(uintptr_t)buf;
		e->len = (unsigned)len;
	} else {
		q->iov[tag].iov_base = buf;
		q->iov[tag].iov_len = len;
		e->opcode = write ? IORING_OP_WRITEV : IORING_OP_READV;
		e->addr = (uint64_t)(uintptr_t)&q->iov[tag];
		e->len = 1;
	}
	e->off = (uint64_t)off;
	e->user_data = (uint64_t)tag;
	q->sq_array[i] = i;
	q->queued++;
}

/* Is a completion waiting in the ring? */
static int
cq_ready(const struct ioq *q)
{
	return __atomic_load_n(q->cq_tail, __ATOMIC_ACQUIRE) != *q->cq_head;
}

int
ioq_more(const struct ioq *q)
{
	return cq_ready(q);
}

/*
 * What was queued goes in with a call that also posts the completions
 * that are ready (GETEVENTS), and waits for one when wait is set and none
 * is in the ring yet.  A completion run as task work (DEFER_TASKRUN) is
 * in the ring only after such a call.  The call returns how many it took
 * even when its wait was interrupted; -1 means it took none, and they
 * stay for the next.
 */
static int
enter(struct ioq *q, int wait)
{
	unsigned	min = wait && !cq_ready(q) ? 1 : 0;
	int		r;

	if (q->queued > 0) {
		__atomic_store_n(q->sq_tail, *q->sq_tail + q->queued,
		    __ATOMIC_RELEASE);
		q->unsent += q->queued;
		q->queued = 0;
	}
	if (q->unsent == 0 && (min == 0 || q->inflight == 0))
		return 0;
	if ((r = uring_enter(q->ring_fd, q->unsent, min,
	    IORING_ENTER_GETEVENTS)) == -1)
		return -1;
	q->unsent -= (unsigned)r;
	q->inflight += (unsigned)r;
	return 0;
}

/* As fio's engine's submission: posts what is ready, waits for none. */
int
ioq_flush(struct ioq *q)
{
	return enter(q, 0);
}

/*
 * fio's engine makes two calls where nothing was ready after the first:
 * the submission, then a wait.  One does both: a request is not sent
 * later for it (it is in the ring before the call), and the wait ends
 * when one completes, as the second call's would.
 */
int
ioq_submit(struct ioq *q)
{
	return enter(q, 1);
}

/*
 * What was prepared and not put in the ring is dropped (what is in the
 * ring and not taken is never taken: no call submits again); what the
 * kernel holds is waited for, a wait that a signal interrupted made
 * again.  A wait refused with nothing to reap (not seen) leaves the rest
 * to ioq_close(): the ring's end cancels them.
 */
void
ioq_drain(struct ioq *q)
{
	ssize_t	res;
	int	tag;

	q->queued = 0;
	while (q->inflight > 0) {
		if (!cq_ready(q) && uring_enter(q->ring_fd, 0, 1,
		    IORING_ENTER_GETEVENTS) == -1 && errno != EINTR &&
		    !cq_ready(q))
			return;
		while (ioq_reap(q, &tag, &res) == 1)
			;
	}
}

int
ioq_reap(struct ioq *q, int *tag, ssize_t *res)
{
	unsigned		 head = *q->cq_head;
	struct io_uring_cqe	*c;

	if (head == __atomic_load_n(q->cq_tail, __ATOMIC_ACQUIRE))
		return 0;
	c = &q->cqes[head & *q->cq_mask];
	*tag = (int)c->user_data;
	*res = c->res;
	__atomic_store_n(q->cq_head, head + 1, __ATOMIC_RELEASE);
	q->inflight--;
	return 1;
}
