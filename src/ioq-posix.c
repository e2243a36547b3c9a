/*
 * The POSIX half of ioq: depth worker processes per queue, each doing one
 * pread(2) or pwrite(2) at a time (fio's psync engine, numjobs of them,
 * behind one queue).  Requests go to the workers through one pipe and
 * completions come back through another; a message is smaller than
 * PIPE_BUF, so each write(2) of one is atomic and each read(2) of one
 * whole.  The buffers are a MAP_SHARED mapping made before the workers
 * (queue_buffers()), so a worker reads into and writes from the caller's
 * own pages.  At the end each worker answers with its CPU (ioq_cpu()), so
 * that a phase's %CPU counts the workers' system calls as it counts the
 * calling thread's.
 *
 * Processes, not threads: once a process has had a thread, stdio locks
 * every getc() and putc() of the per-char phases (glibc: 6 ns a char
 * without, 70-120 ns after one thread has come and gone), and glibc's AIO
 * threads leave its state locked in a forked seeker.  A worker only reads,
 * writes and closes (async-signal-safe calls), so a queue may also be made
 * by a threaded seeker.  A worker ends when the request pipe ends: when
 * the queue is closed, or when its maker dies.  So that no worker holds
 * another queue's pipe open, the queues' own ends are kept in a list that
 * a new worker closes, and queues are made one at a time.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "error.h"
#include "ioq.h"
#include "signals.h"
#include "text.h"

/*
 * A process per request in flight: deeper than this is a fork bomb, not
 * a queue.  The completions of a full queue (32 bytes each) fit in the
 * smallest pipe buffer a BSD gives (16 KiB).
 */
#define POSIX_DEPTH_MAX	256

/*
 * How often a wait looks for a worker that has died: after a second of
 * no completion, and every so many waits while the others complete.
 */
#define WORKER_CHECK_MS		1000
#define WORKER_CHECK_WAITS	256
/*
 * A worker stopped (SIGSTOP, a debugger) for this many of those idle
 * seconds holds its request for ever: it is killed, and the request
 * fails as a dead worker's does.
 */
#define WORKER_STOPPED_CHECKS	(CHILD_END_MS / WORKER_CHECK_MS)

struct ioq_req {
	void		*buf;
	size_t		 len;
	off_t		 off;
	int		 tag;		/* -1: end. */
	int		 write;
};

/* A completion, or a worker's last word with its CPU (tag -1). */
struct ioq_done {
	ssize_t		 res;
	struct cpu_times cpu;
	int		 tag;
	int		 worker;
};

struct ioq {
	int		 depth;
	int		 req_w;		/* Our end of the request pipe. */
	int		 done_r;	/* Our end of the completion pipe. */
	int		 queued;	/* Prepared, not yet sent. */
	int		 sent;		/* Of those, sent. */
	int		 inflight;	/* Sent, not yet reaped. */
	unsigned	 waits;		/* Since the last look for the dead. */
	pid_t		*pids;
	int		*stopped;	/* The signal that stopped it, or 0. */
	int		*stopped_for;	/* Idle checks since. */
	struct ioq_req	*reqs;
	struct ioq	*next;		/* The list of open queues. */
};

static pthread_mutex_t	 queues_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ioq	*queues;

int
ioq_max_depth(void)
{
	return POSIX_DEPTH_MAX;
}

const char *
ioq_engine(void)
{
	return "psync-workers";
}

const char *
ioq_call(void)
{
	return "poll";
}

/* A worker: requests from req_r until it ends; never returns. */
static void
worker(int id, int fd, int req_r, int done_w)
{
	struct ioq_req	r;
	struct ioq_done	d;
	ssize_t		n;

	for (;;) {
		if ((n = read(req_r, &r, sizeof(r))) == -1 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(r))
			_exit(0);
		memset(&d, 0, sizeof(d));
		d.tag = r.tag;
		d.worker = id;
		if (r.tag < 0) {
			/* The end: the CPU of all it did, then go. */
			cpu_self(&d.cpu);
			while (write(done_w, &d, sizeof(d)) == -1 &&
			    errno == EINTR)
				;
			_exit(0);
		}
		do {
			n = r.write ? pwrite(fd, r.buf, r.len, r.off) :
			    pread(fd, r.buf, r.len, r.off);
		} while (n == -1 && errno == EINTR);
		d.res = n == -1 ? -errno : n;
		while (write(done_w, &d, sizeof(d)) == -1 && errno == EINTR)
			;
	}
}

/*
 * A worker told to end (its request pipe closed) is waited for at most
 * CHILD_END_MS: one stopped would hold the run for as long as it stays
 * stopped; one seen stopped already is killed at once.  One killed is
 * said.
 */
static void
worker_end(struct ioq *q, int i)
{
	char	who[64], words[160];
	int	st, stopsig;

	if (q->stopped[i] != 0)
		kill(q->pids[i], SIGKILL);
	if (child_end(q->pids[i], CHILD_END_MS, &st, &stopsig) != 1 &&
	    q->stopped[i] == 0)
		return;
	snprintf(who, sizeof(who), "the queue's worker (process %ld)",
	    (long)q->pids[i]);
	child_words(words, sizeof(words), who, 1, st,
	    stopsig != 0 ? stopsig : q->stopped[i], CHILD_END_MS);
	text_say("warning: %s", words);
}

/* Our ends closed, the workers waited for. */
static void
ioq_end(struct ioq *q)
{
	int	i;

	if (q->req_w != -1)
		close(q->req_w);
	if (q->done_r != -1)
		close(q->done_r);
	for (i = 0; i < q->depth; i++)
		if (q->pids[i] > 0)
			worker_end(q, i);
	free(q->pids);
	free(q->stopped);
	free(q->stopped_for);
	free(q->reqs);
	free(q);
}

/* Start the workers; queues_lock is held. */
static int
ioq_fork(struct ioq *q, int fd, int req_r, int done_w)
{
	struct ioq	*o;
	int		 i;

	for (i = 0; i < q->depth; i++) {
		if ((q->pids[i] = fork()) == -1)
			return -1;
		if (q->pids[i] == 0) {
			for (o = queues; o != NULL; o = o->next) {
				close(o->req_w);
				close(o->done_r);
			}
			worker(i, fd, req_r, done_w);
		}
	}
	return 0;
}

struct ioq *
ioq_open(int fd, int depth, char **why)
{
	struct ioq	*q;
	const char	*what = "pipe";
	int		 req[2], done[2], e, rv;

	if ((q = calloc(1, sizeof(*q))) == NULL ||
	    (q->pids = calloc((size_t)depth, sizeof(*q->pids))) == NULL ||
	    (q->stopped = calloc((size_t)depth, sizeof(int))) == NULL ||
	    (q->stopped_for = calloc((size_t)depth, sizeof(int))) == NULL ||
	    (q->reqs = calloc((size_t)depth, sizeof(*q->reqs))) == NULL) {
		if (q != NULL) {
			free(q->pids);
			free(q->stopped);
			free(q->stopped_for);
		}
		free(q);
		errorf(why, "the queue: %s", strerror(ENOMEM));
		return NULL;
	}
	q->depth = depth;
	q->req_w = q->done_r = -1;
	if (pipe(req) == -1)
		goto fail;
	if (pipe(done) == -1) {
		e = errno;
		close(req[0]);
		close(req[1]);
		errno = e;
		goto fail;
	}
	q->req_w = req[1];
	q->done_r = done[0];
	pthread_mutex_lock(&queues_lock);
	q->next = queues;
	queues = q;
	rv = ioq_fork(q, fd, req[0], done[1]);
	e = errno;
	pthread_mutex_unlock(&queues_lock);
	close(req[0]);
	close(done[1]);
	errno = e;
	what = "fork";
	if (rv == 0) {
		what = "fcntl";
		if (fcntl(q->done_r, F_SETFL, O_NONBLOCK) == 0)
			return q;
	}
fail:
	/* No worker yet (the pipes), or those made are ended with it. */
	errorf(why, "%s: %s", what, strerror(errno));
	ioq_close(q);
	return NULL;
}

void
ioq_close(struct ioq *q)
{
	struct ioq	**p;

	if (q == NULL)
		return;
	pthread_mutex_lock(&queues_lock);
	for (p = &queues; *p != NULL; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			break;
		}
	pthread_mutex_unlock(&queues_lock);
	ioq_end(q);
}

void
ioq_prep(struct ioq *q, int tag, int write, void *buf, size_t len, off_t off)
{
	struct ioq_req	*r = &q->reqs[q->queued++];

	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
	r->off = off;
	r->tag = tag;
	r->write = write;
}

/*
 * A worker has ended, or (idle: after a second with no completion) has
 * been stopped for WORKER_STOPPED_CHECKS of those seconds and is killed,
 * which is said: 1 (it is reaped).
 */
static int
ioq_worker_died(struct ioq *q, int idle)
{
	pid_t	r;
	int	i, st;

	for (i = 0; i < q->depth; i++) {
		if (q->pids[i] <= 0)
			continue;
		r = waitpid(q->pids[i], &st, WNOHANG | WUNTRACED | WCONTINUED);
		if (r == q->pids[i] && WIFSTOPPED(st)) {
			q->stopped[i] = WSTOPSIG(st);
			q->stopped_for[i] = 0;
			continue;
		}
		if (r == q->pids[i] && WIFCONTINUED(st)) {
			q->stopped[i] = 0;
			continue;
		}
		if (r == q->pids[i]) {
			q->pids[i] = 0;
			return 1;
		}
		if (idle && q->stopped[i] != 0 &&
		    ++q->stopped_for[i] >= WORKER_STOPPED_CHECKS) {
			text_say("warning: the queue's worker (process %ld) "
			    "was stopped by %s for %d s; killed",
			    (long)q->pids[i], signal_name(q->stopped[i]),
			    CHILD_END_MS / 1000);
			kill(q->pids[i], SIGKILL);
			while (waitpid(q->pids[i], &st, 0) == -1 &&
			    errno == EINTR)
				;
			q->pids[i] = 0;
			return 1;
		}
	}
	return 0;
}

int
ioq_flush(struct ioq *q)
{
	while (q->sent < q->queued) {
		if (write(q->req_w, &q->reqs[q->sent],
		    sizeof(q->reqs[0])) == -1)
			return -1;
		q->sent++;
		q->inflight++;
	}
	q->queued = q->sent = 0;
	return 0;
}

/* Wait until a request in flight has completed, if any is. */
static int
await_one(struct ioq *q)
{
	struct pollfd	p;
	ssize_t		n;

	if (q->inflight == 0)
		return 0;
	if (++q->waits >= WORKER_CHECK_WAITS) {
		q->waits = 0;
		if (ioq_worker_died(q, 0)) {
			errno = EPIPE;
			return -1;
		}
	}
	for (;;) {
		memset(&p, 0, sizeof(p));
		p.fd = q->done_r;
		p.events = POLLIN;
		if ((n = poll(&p, 1, WORKER_CHECK_MS)) == -1)
			return -1;
		if (n == 1 && (p.revents & POLLIN) != 0)
			return 0;
		/*
		 * Every worker gone (a hang-up), or one of them: its request
		 * will never end.
		 */
		if (n == 1 || ioq_worker_died(q, n == 0)) {
			errno = EPIPE;
			return -1;
		}
	}
}

int
ioq_submit(struct ioq *q)
{
	if (ioq_flush(q) == -1)
		return -1;
	return await_one(q);
}

/*
 * What was not sent is dropped; what the workers hold is waited for,
 * until a worker has died (its request never ends, and the count never
 * comes down): ioq_close() then waits for the others, whose requests end
 * with them.  The workers move data in their own mapping of the shared
 * buffers, never in memory their parent has freed.
 */
void
ioq_drain(struct ioq *q)
{
	ssize_t	res;
	int	tag, i, lost = 0;

	q->queued = q->sent = 0;
	while (q->inflight > 0) {
		for (i = 0; i < q->depth; i++)
			lost |= q->pids[i] <= 0;
		if (lost)
			return;
		if (await_one(q) == -1 && errno != EINTR)
			return;
		while (ioq_reap(q, &tag, &res) == 1)
			;
	}
}

/* Only a read of the pipe would tell. */
int
ioq_more(const struct ioq *q)
{
	(void)q;
	return 1;
}

int
ioq_reap(struct ioq *q, int *tag, ssize_t *res)
{
	struct ioq_done	d;

	if (q->inflight == 0 ||
	    read(q->done_r, &d, sizeof(d)) != (ssize_t)sizeof(d))
		return 0;
	q->inflight--;
	*tag = d.tag;
	*res = d.res;
	return 1;
}

/*
 * One end request per worker, each answered with the worker's CPU as it
 * goes (a worker takes one and ends, so each is asked once); a worker
 * that has died is not waited for.
 */
void
ioq_cpu(struct ioq *q, struct cpu_times *cpu)
{
	struct ioq_req	r;
	struct ioq_done	d;
	struct pollfd	p;
	int		i, live = 0, n;

	memset(&r, 0, sizeof(r));
	r.tag = -1;
	for (i = 0; i < q->depth; i++)
		if (q->pids[i] > 0 && write(q->req_w, &r, sizeof(r)) ==
		    (ssize_t)sizeof(r))
			live++;
	while (live > 0) {
		memset(&p, 0, sizeof(p));
		p.fd = q->done_r;
		p.events = POLLIN;
		if ((n = poll(&p, 1, WORKER_CHECK_MS)) == -1 && errno == EINTR)
			continue;
		if (n == 1 && (p.revents & POLLIN) != 0) {
			if (read(q->done_r, &d, sizeof(d)) == (ssize_t)sizeof(d) &&
			    d.tag == -1) {
				cpu_add(cpu, &d.cpu);
				live--;
			}
			continue;
		}
		if (n != 0 || !ioq_worker_died(q, 1))
			break;
		live--;
	}
}
