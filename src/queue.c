/*
 * The queued timed loop (see include/queue.h).  Each tag of the ioq is a
 * slot with its own buffer and chunk; a chunk that reads then writes goes
 * back into the queue under the same tag when its read is done.
 *
 * A request goes to the kernel as soon as its slot is free, in a call of
 * its own, as fio's does (its iodepth_batch_submit=1, the default).  Not
 * all the slots freed by one wait in one call: io_uring plugs a batch of
 * more than two, and the block layer then holds the first requests until
 * the last is made and merges neighbours (at depth 32 and 16 KiB the block
 * read reached the device as requests of 187 KiB, about 12 chunks, which
 * then completed together and were sent again together: slots in
 * lock-step, the device idle between, 0.8 of fio; trace in bench/RESULTS.md,
 * issue 45).  The last request a round of completions starts goes in the
 * call that waits for the next (send_or_hold()).
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "queue.h"

struct slot {
	struct queue_chunk	 c;
	bn_time			 start;
	size_t			 done;		/* Bytes of this request. */
	int			 writing;	/* The write is out. */
	int			 out;		/* A request is out. */
};

static int
fail(struct queue_loop *l, const char *what, uint64_t off, int e)
{
	l->err_what = what;
	l->err_offset = (int64_t)off;
	l->err_errno = e;
	return -1;
}

/* Queue (the rest of) the slot's current request. */
static void
prep(struct queue_loop *l, int tag, struct slot *s)
{
	ioq_prep(l->q, tag, s->writing, l->buf[tag] + s->done,
	    l->chunk - s->done, (off_t)(s->c.off + s->done));
}

/*
 * Send what a slot has just queued, and read the clock after the call:
 * the next chunk starts from that reading, and every completion the call
 * posted ends no later than it.  A call that fails leaves the request
 * queued; the loop's ioq_submit() sends it again and says why.
 */
static void
send(struct queue_loop *l, bn_time *now)
{
	if (ioq_flush(l->q) == 0)
		*now = time_now();
}

/*
 * Among the completions: the request a slot has just queued goes now, in
 * a call of its own, when another completion is waiting to be handled
 * (the next slot's request must not join it in one call); else the loop's
 * ioq_submit() sends it and waits for the next completion in one call,
 * where fio's engine makes two.
 */
static void
send_or_hold(struct queue_loop *l, bn_time *now)
{
	if (ioq_more(l->q))
		send(l, now);
}

/* Start a new chunk in a free slot; 0 when there is none to start. */
static int
start(struct queue_loop *l, int tag, struct slot *s, bn_time now)
{
	memset(s, 0, sizeof(*s));
	if (!l->next(l->arg, &s->c))
		return 0;
	s->start = now;
	s->out = 1;
	s->writing = !s->c.read;
	if (s->writing)
		l->fill(l->arg, l->buf[tag], s->c.off);
	prep(l, tag, s);
	return 1;
}

/* A request of the slot completed with res; 1: the chunk is done. */
static int
complete(struct queue_loop *l, int tag, struct slot *s, ssize_t res)
{
	const char	*what = s->writing ? "write" : "read";

	if (res < 0)
		return fail(l, what, s->c.off + s->done, (int)-res);
	if (res == 0)
		return fail(l, s->writing ? "write" : "read (unexpected end "
		    "of file)", s->c.off + s->done, EIO);
	s->done += (size_t)res;
	if (s->done < l->chunk) {
		prep(l, tag, s);	/* A short transfer: the rest. */
		return 0;
	}
	if (!s->writing) {
		if (l->got != NULL && l->got(l->arg, l->buf[tag], l->chunk,
		    &s->c) == -1)
			return fail(l, "data check", s->c.off, errno);
		if (s->c.write) {
			s->writing = 1;
			s->done = 0;
			l->fill(l->arg, l->buf[tag], s->c.off);
			prep(l, tag, s);
			return 0;
		}
	}
	return 1;
}

/*
 * Where a failure of the queue itself (a submission or a wait, or a stop)
 * happened: the byte the oldest request out was at, or -1 when none is.
 */
static uint64_t
oldest_out(const struct queue_loop *l, const struct slot *slots)
{
	const struct slot	*o = NULL;
	int			 i;

	for (i = 0; i < l->depth; i++)
		if (slots[i].out && (o == NULL ||
		    time_elapsed(slots[i].start, o->start) > 0))
			o = &slots[i];
	return o != NULL ? o->c.off + o->done : (uint64_t)-1;
}

int
queue_run(struct queue_loop *l)
{
	struct slot	*slots;
	bn_time		 now = time_now();
	ssize_t		 res;
	int		 i, tag, out = 0, more = 1, r, rv = 0;

	if ((slots = calloc((size_t)l->depth, sizeof(*slots))) == NULL)
		return fail(l, "allocate the queue", 0, ENOMEM);
	for (i = 0; i < l->depth && more; i++)
		if ((more = start(l, i, &slots[i], now)) != 0) {
			out++;
			send(l, &now);
		}
	/*
	 * After a failure nothing new starts, but every request out is
	 * waited for: none may still move data into a buffer once this
	 * returns.
	 */
	while (out > 0) {
		if (ioq_submit(l->q) == -1) {
			if (errno == EINTR) {
				if (rv == 0 && *l->stop)
					rv = fail(l, "queue",
					    oldest_out(l, slots), EINTR);
				continue;
			}
			if (rv == 0)
				rv = fail(l, ioq_call(), oldest_out(l, slots),
				    errno);
			/*
			 * Nothing more can be sent: what is in flight is
			 * waited for here, before the caller frees the
			 * buffers it moves data into.
			 */
			ioq_drain(l->q);
			break;
		}
		now = time_now();
		/*
		 * Each call of send() may post more completions: the stop is
		 * checked at each one, not only when the ring runs dry.
		 */
		while (ioq_reap(l->q, &tag, &res) == 1) {
			if (rv == 0 && *l->stop)
				rv = fail(l, "queue", oldest_out(l, slots),
				    EINTR);
			if (rv == -1) {
				slots[tag].out = 0;
				out--;
				continue;
			}
			if ((r = complete(l, tag, &slots[tag], res)) == 0) {
				send_or_hold(l, &now);
				continue;
			}
			slots[tag].out = 0;
			out--;
			if (r == -1) {
				rv = -1;
				continue;
			}
			hist_add(l->hist, time_elapsed_ns(slots[tag].start,
			    now));
			l->chunks++;
			l->done(l->arg, &slots[tag].c, now);
			if (more && (more = start(l, tag, &slots[tag], now))) {
				out++;
				send_or_hold(l, &now);
			}
		}
		if (rv == 0 && *l->stop)
			rv = fail(l, "queue", oldest_out(l, slots), EINTR);
	}
	free(slots);
	return rv;
}

/*
 * The buffers sit in one mapping of their own (platform_queue_map()), not
 * on the heap: the run forks helpers (the timeline's sampler, just before
 * the clock starts) while they exist, and a fork leaves every private page
 * that is present copy-on-write in both processes, so each page's first
 * fill or read after it faulted and was copied inside the timed loop
 * (perf: at depth 32 and 1 MiB, do_wp_page and its copy, and pinning
 * fallen back to the slow path, a sixth of the write's samples).  The
 * platform's mapping is one a fork leaves alone, and on Linux one in huge
 * pages where the kernel has them, aligned to one here: a 1 MiB chunk
 * in 4 KiB pages is cut into two requests or more at virtio-blk's 254
 * segments, depending on where its pages fell (bench/RESULTS.md, session
 * 10: 256 to 480 device reads for 256 reads of a MiB).  Zeroed and so
 * faulted in once here, untimed (and a memory checker knows the bytes the
 * kernel puts there through io_uring).  The array of pointers holds two
 * more: the mapping's start and its end, for queue_buffers_free().  The
 * portable engine's worker processes (ioq-posix.c) read and write the
 * same pages.
 */
unsigned char **
queue_buffers(int depth, size_t chunk, size_t align)
{
	unsigned char	**b, *map;
	size_t		  page = (size_t)sysconf(_SC_PAGESIZE), huge, stride;
	size_t		  len;
	uintptr_t	  at;
	int		  i;

	if (align < page)
		align = page;
	stride = (chunk + align - 1) / align * align;
	len = (size_t)depth * stride;
	/*
	 * Huge pages only pay for buffers that fill half of one or more
	 * (a MiB on x86-64: more than 254 pages of 4 KiB, virtio-blk's
	 * segments); the mapping then ends on a whole huge page past them,
	 * so that the kernel can back all of them with huge pages.
	 */
	huge = platform_queue_align();
	if (huge > align && len >= huge / 2) {
		align = huge;
		len = (len + huge - 1) / huge * huge;
	}
	len += align > page ? align : 0;
	if ((b = calloc((size_t)depth + 2, sizeof(*b))) == NULL)
		return NULL;
	if ((map = platform_queue_map(len)) == NULL) {
		free(b);
		return NULL;
	}
	/* Aligned by an offset into the mapping, not a made pointer. */
	at = (align - (uintptr_t)map % align) % align;
	for (i = 0; i < depth; i++)
		b[i] = map + at + (size_t)i * stride;
	b[depth] = map;
	b[depth + 1] = map + len;
	memset(map + at, 0, (size_t)depth * stride);
	return b;
}

void
queue_buffers_free(unsigned char **b, int depth)
{
	if (b == NULL)
		return;
	munmap(b[depth], (size_t)(b[depth + 1] - b[depth]));
	free(b);
}

/*
 * In heap buffers, direct I/O of a MiB at depth 1 went to the device as
 * two requests of 512 KiB, at about half the rate (bench/RESULTS.md,
 * session 11).  The heap's are marked by a null where the mapping's start
 * would be.
 */
unsigned char **
io_buffers(int n, size_t chunk, size_t align, int direct)
{
	unsigned char	**b;
	void		 *p;
	int		  i, e;

	if (direct)
		return queue_buffers(n, chunk, align);
	if ((b = calloc((size_t)n + 2, sizeof(*b))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if ((e = posix_memalign(&p, align < 64 ? 64 : align,
		    chunk)) != 0) {
			io_buffers_free(b, i);
			errno = e;
			return NULL;
		}
		b[i] = p;
	}
	return b;
}

void
io_buffers_free(unsigned char **b, int n)
{
	int	i;

	if (b == NULL)
		return;
	if (b[n] != NULL) {
		queue_buffers_free(b, n);
		return;
	}
	for (i = 0; i < n; i++)
		free(b[i]);
	free(b);
}
