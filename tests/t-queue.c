/*
 * The queued timed loop (queue.c) over a fake engine: the ioq interface
 * of include/ioq.h kept here, in memory, so that a submission can be made
 * to fail at a chosen call while requests are in flight.  Checked: a
 * failed submission ends the loop with the engine's call, the system's
 * error and the offset of the oldest request out, and only once no
 * request is in flight any more (the caller frees the buffers that the
 * kernel's requests move data into next); a loop that goes well does
 * every chunk once, each request in a call of its own and, after the
 * first depth, with the wait that follows it.  And the buffers
 * (queue_buffers()): aligned, in a mapping a fork leaves alone, in huge
 * pages where the platform has them; and those of one request at a time
 * (io_buffers()): the same under O_DIRECT, else the heap's.  The engine's own files (ioq-linux.c,
 * ioq-posix.c) are not linked: every symbol they define is defined here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "ioq.h"
#include "platform.h"
#include "queue.h"
#include "tap.h"

#define DEPTH	4
#define CHUNK	4096
#define CHUNKS	64

/* The fake engine: prepared, then in flight, then completed, in order. */
struct ioq {
	int	 queued[DEPTH], nqueued;	/* Tags prepared, not sent. */
	int	 flight[DEPTH], nflight;	/* Sent, not completed. */
	int	 done[DEPTH], ndone;		/* Completed, not reaped. */
	size_t	 len[DEPTH];
	int	 calls;			/* Calls that sent something. */
	int	 most;			/* The most one call sent. */
	int	 waits;			/* Calls that only waited. */
	int	 fail_from;		/* That call and every later one
					   fail (0: none). */
};

static struct ioq	fake;

int
ioq_max_depth(void)
{
	return DEPTH;
}

const char *
ioq_engine(void)
{
	return "fake";
}

const char *
ioq_call(void)
{
	return "fake_enter";
}

struct ioq *
ioq_open(int fd, int depth, char **why)
{
	(void)fd;
	(void)depth;
	(void)why;
	return &fake;
}

void
ioq_close(struct ioq *q)
{
	(void)q;
}

void
ioq_prep(struct ioq *q, int tag, int write, void *buf, size_t len,
    off_t off)
{
	(void)write;
	(void)buf;
	(void)off;
	q->len[tag] = len;
	q->queued[q->nqueued++] = tag;
}

int
ioq_flush(struct ioq *q)
{
	int	i;

	if (q->nqueued == 0)
		return 0;
	if (++q->calls >= q->fail_from && q->fail_from > 0) {
		errno = EAGAIN;
		return -1;
	}
	if (q->nqueued > q->most)
		q->most = q->nqueued;
	for (i = 0; i < q->nqueued; i++)
		q->flight[q->nflight++] = q->queued[i];
	q->nqueued = 0;
	return 0;
}

/* The oldest request in flight completes, whole. */
static void
complete_one(struct ioq *q)
{
	q->done[q->ndone++] = q->flight[0];
	memmove(q->flight, q->flight + 1, (size_t)--q->nflight *
	    sizeof(q->flight[0]));
}

/* One call as io_uring's: what was queued goes, then a wait. */
int
ioq_submit(struct ioq *q)
{
	int	sent = q->nqueued > 0;

	if (ioq_flush(q) == -1)
		return -1;
	if (q->nflight > 0 && q->ndone == 0) {
		q->waits += !sent;
		complete_one(q);
	}
	return 0;
}

int
ioq_more(const struct ioq *q)
{
	return q->ndone > 0;
}

int
ioq_reap(struct ioq *q, int *tag, ssize_t *res)
{
	if (q->ndone == 0)
		return 0;
	*tag = q->done[0];
	*res = (ssize_t)q->len[*tag];
	memmove(q->done, q->done + 1, (size_t)--q->ndone *
	    sizeof(q->done[0]));
	return 1;
}

void
ioq_drain(struct ioq *q)
{
	q->nqueued = 0;
	while (q->nflight > 0)
		complete_one(q);
	q->ndone = 0;
}

void
ioq_cpu(struct ioq *q, struct cpu_times *cpu)
{
	(void)q;
	(void)cpu;
}

/* The phase's side: chunks in order, each read. */
struct seq {
	uint64_t	next, done;
	uint64_t	done_off[CHUNKS];
};

static int
seq_next(void *arg, struct queue_chunk *c)
{
	struct seq	*s = arg;

	if (s->next == CHUNKS)
		return 0;
	memset(c, 0, sizeof(*c));
	c->off = s->next++ * CHUNK;
	c->read = 1;
	return 1;
}

static void
seq_fill(void *arg, unsigned char *buf, uint64_t off)
{
	(void)arg;
	(void)buf;
	(void)off;
}

static void
seq_done(void *arg, const struct queue_chunk *c, bn_time now)
{
	struct seq	*s = arg;

	(void)now;
	s->done_off[s->done++] = c->off;
}

static volatile sig_atomic_t	stop;

static int
run(struct seq *s, struct queue_loop *l, struct hist *h, int fail_from)
{
	static unsigned char	mem[DEPTH][CHUNK];
	static unsigned char	*bufs[DEPTH] = { mem[0], mem[1], mem[2],
				    mem[3] };

	memset(&fake, 0, sizeof(fake));
	fake.fail_from = fail_from;
	memset(s, 0, sizeof(*s));
	memset(l, 0, sizeof(*l));
	hist_init(h);
	l->q = &fake;
	l->depth = DEPTH;
	l->chunk = CHUNK;
	l->buf = bufs;
	l->hist = h;
	l->next = seq_next;
	l->fill = seq_fill;
	l->done = seq_done;
	l->arg = s;
	l->stop = &stop;
	return queue_run(l);
}

/*
 * The VmFlags of the mapping that holds p (Linux's /proc/self/smaps: two
 * letters a flag, each after a space), into flags; 0, or -1 when not known.
 */
static int
vm_flags(const void *p, char *flags, size_t len)
{
	FILE		*f;
	char		 line[512];
	unsigned long	 lo, hi, a = (unsigned long)(uintptr_t)p;
	int		 in = 0, rv = -1;

	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return -1;
	while (rv == -1 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(flags, len, "%s", line + 8);
			flags[strcspn(flags, "\n")] = ' ';
			rv = 0;
		}
	}
	fclose(f);
	return rv;
}

/* Whether flags (vm_flags()) hold the two letters of one. */
static int
has_flag(const char *flags, const char *one)
{
	char	word[8];

	snprintf(word, sizeof(word), " %s ", one);
	return strstr(flags, word) != NULL;
}

/*
 * queue_buffers(): depth buffers of a MiB, or one (depth 1 takes its
 * buffers here too), aligned to a huge page when the platform has them, in a mapping that a fork leaves alone (a shared
 * one, "sh", or one a child does not get, "dc": the timeline's sampler is
 * forked while they exist, and copy-on-write pages would fault and be
 * copied in the timed loop) and that asks for huge pages ("hg"), so that
 * a chunk of a MiB is not cut into two requests at the device's segment
 * limit; buffers smaller than a huge page in all are aligned to a page.
 */
static void
buffers_checked(void)
{
	size_t		 page = (size_t)sysconf(_SC_PAGESIZE);
	size_t		 huge = platform_queue_align(), chunk = 1 << 20;
	unsigned char	**b, **small, **one;
	char		 flags[512];
	int		 i, apart = 1;

	b = queue_buffers(8, chunk, 512);
	small = queue_buffers(4, 4096, 512);
	ok(b != NULL && small != NULL, "queue_buffers: 8 of a MiB, 4 of a page");
	if (b == NULL || small == NULL)
		return;
	for (i = 0; i < 8; i++)
		apart &= (uintptr_t)b[i] % page == 0 && b[i][0] == 0 &&
		    b[i][chunk - 1] == 0 &&
		    (i == 0 || (size_t)(b[i] - b[i - 1]) >= chunk);
	ok(apart, "each on a page of its own, zeroed, a chunk apart at least");
	if (!ok((uintptr_t)b[0] % huge == 0,
	    "8 MiB of buffers start on a huge page (a page without)"))
		printf("#   huge page: %zu bytes, buffer at %p\n", huge,
		    (void *)b[0]);
	ok((uintptr_t)small[0] % page == 0, "16 KiB of them on a page");
	one = queue_buffers(1, chunk, 512);
	if (!ok(one != NULL && (uintptr_t)one[0] % huge == 0 &&
	    (size_t)(one[2] - one[0]) >= huge, "one of a MiB alone (depth 1: "
	    "half a huge page) on a huge page, the whole of it mapped"))
		printf("#   huge page: %zu bytes\n", huge);
	queue_buffers_free(one, 1);
	/* One request at a time: the same mapping under O_DIRECT. */
	one = io_buffers(1, chunk, 512, 1);
	ok(one != NULL && (uintptr_t)one[0] % huge == 0 && one[1] != NULL,
	    "io_buffers, direct: the queue's mapping (a huge page)");
	io_buffers_free(one, 1);
	one = io_buffers(3, 4096, 512, 0);
	ok(one != NULL && one[3] == NULL && (uintptr_t)one[0] % 512 == 0 &&
	    (uintptr_t)one[2] % 512 == 0, "io_buffers, buffered: from the "
	    "heap, aligned");
	io_buffers_free(one, 3);
	if (vm_flags(b[0], flags, sizeof(flags)) == -1) {
		tap_skip("no /proc/self/smaps: the mapping's flags are not "
		    "known here");
		tap_skip("no /proc/self/smaps");
	} else {
		if (!ok(has_flag(flags, "sh") || has_flag(flags, "dc"),
		    "a fork leaves them alone (VmFlags sh or dc)"))
			printf("#   VmFlags:%s\n", flags);
		if (huge > page) {
			if (!ok(has_flag(flags, "hg"),
			    "huge pages asked for (VmFlags hg)"))
				printf("#   VmFlags:%s\n", flags);
		} else
			tap_skip("no huge pages on this system (THP off)");
	}
	queue_buffers_free(b, 8);
	queue_buffers_free(small, 4);
}

int
main(void)
{
	static struct hist	h;
	struct queue_loop	l;
	struct seq		s;
	uint64_t		i;
	int			rv, inorder = 1;

	rv = run(&s, &l, &h, 0);
	for (i = 0; i < s.done; i++)
		inorder &= s.done_off[i] == i * CHUNK;
	ok(rv == 0 && l.chunks == CHUNKS && s.done == CHUNKS && inorder,
	    "no failure: every chunk done once, in order");
	ok(fake.nflight == 0 && fake.nqueued == 0 && fake.ndone == 0,
	    "and nothing left in the engine");
	/*
	 * Each request in a call of its own; the one a completion starts
	 * goes with the wait that follows (one call, not fio's two): only
	 * the wait after the first DEPTH and those for the last DEPTH go
	 * alone.
	 */
	ok(fake.most == 1 && fake.calls == CHUNKS,
	    "every request sent in a call of its own");
	if (!ok(fake.waits <= 1 + DEPTH, "a request sent with the wait after "
	    "it: at most 1 + depth calls only wait"))
		printf("#   %d calls only waited\n", fake.waits);

	/*
	 * Calls 1-4 send the first four chunks; each completion then
	 * starts one more, sent with the wait that follows: call 7 (chunk
	 * 6's) and every later one fail.  Chunks 0-2 are done; 3, 4 and 5 are in flight
	 * and 6 prepared when the loop's next submission fails.
	 */
	rv = run(&s, &l, &h, 7);
	ok(rv == -1, "a submission fails while requests are in flight: "
	    "the loop fails");
	is_int(fake.nflight, 0,
	    "and returns only once none is in flight (buffers may go)");
	is_str(l.err_what, "fake_enter", "the failure names the call");
	is_int(l.err_errno, EAGAIN, "and the system's error");
	is_int(l.err_offset, 3 * CHUNK,
	    "and the offset of the oldest request out (chunk 3)");
	ok(s.done == 3 && l.chunks == 3,
	    "the chunks that completed before it are counted, no other");
	buffers_checked();
	return done_testing();
}
