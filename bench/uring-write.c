/*
 * bench/uring-write.c: the least a program can do to write a new file
 * with direct I/O through io_uring at a queue depth, for bench/newfile.sh.
 * The ring is set up as bonnie-ng's (CQSIZE, COOP_TASKRUN, SINGLE_ISSUER,
 * DEFER_TASKRUN); each completed slot gets the next offset and its data,
 * made by bonnie-ng's own pattern_fill_direct() (block write's
 * generation), and the round's last request goes in the call that waits
 * for the next completion, as in bonnie-ng's queue.  -a marks
 * every write IOSQE_ASYNC (fio's force_async=1): io_uring then skips its
 * first, non-blocking try of the write in the submitting call.  -t makes
 * the data with pattern_fill() (ordinary stores, as a buffered write's)
 * instead of pattern_fill_direct()'s streaming stores.  Prints the
 * rate in KiB/s, the final fsync included.  Needs liburing (Debian's
 * liburing-dev) and bonnie-ng's objects (make first):
 *
 *   cc -O2 -Iinclude -o uring-write bench/uring-write.c obj/libbonnie.a \
 *       -luring -lpthread -lm
 *   ./uring-write [-a] [-t] /var/tmp/f 1024 16384 32
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"
#include "timer.h"

#define MAXDEPTH	4096

static void
post(struct io_uring *ring, int fd, unsigned char *b, size_t bs, off_t off,
    int tag, int async)
{
	struct io_uring_sqe	*sqe = io_uring_get_sqe(ring);

	io_uring_prep_write(sqe, fd, b, (unsigned)bs, (uint64_t)off);
	sqe->user_data = (uint64_t)tag;
	if (async)
		sqe->flags |= IOSQE_ASYNC;
}

int
main(int argc, char **argv)
{
	struct io_uring		 ring;
	struct io_uring_params	 p;
	struct io_uring_cqe	*cqe;
	struct pattern		 pat;
	static unsigned char	*buf[MAXDEPTH];
	static int		 done[MAXDEPTH];
	void			*mem;
	unsigned		 head;
	off_t			 off = 0, total;
	size_t			 bs;
	bn_time			 t0;
	void			(*fill)(const struct pattern *, unsigned char *,
				    uint64_t, enum pattern_writer);
	int			 async = 0, depth, fd, i, n, out = 0, r;

	fill = pattern_fill_direct;
	for (; argc > 1 && argv[1][0] == '-'; argv++, argc--) {
		if (strcmp(argv[1], "-a") == 0)
			async = 1;
		else if (strcmp(argv[1], "-t") == 0)
			fill = pattern_fill;
		else
			break;
	}
	if (argc != 5) {
		fprintf(stderr,
		    "usage: uring-write [-a] [-t] FILE MIB BS DEPTH\n");
		return 2;
	}
	total = (off_t)atoll(argv[2]) << 20;
	bs = (size_t)atol(argv[3]);
	depth = atoi(argv[4]);
	if (total <= 0 || bs == 0 || bs % 4096 != 0 || (bs & (bs - 1)) != 0 ||
	    depth < 1 || depth > MAXDEPTH) {
		fprintf(stderr, "uring-write: bad size, block size (a power of two, "
		    "4096 or more) or depth\n");
		return 2;
	}
	if ((fd = open(argv[1], O_CREAT | O_EXCL | O_WRONLY | O_DIRECT,
	    0600)) == -1) {
		fprintf(stderr, "uring-write: %s: %s\n", argv[1],
		    strerror(errno));
		return 1;
	}
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN |
	    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	p.cq_entries = (unsigned)depth;
	if ((r = io_uring_queue_init_params((unsigned)depth, &ring, &p)) < 0) {
		fprintf(stderr, "uring-write: io_uring_setup: %s\n",
		    strerror(-r));
		return 1;
	}
	if (posix_memalign(&mem, 4096, (size_t)depth * bs) != 0) {
		fprintf(stderr, "uring-write: out of memory\n");
		return 1;
	}
	for (i = 0; i < depth; i++)
		buf[i] = (unsigned char *)mem + (size_t)i * bs;
	pattern_init(&pat, 1, bs, (uint64_t)total);

	t0 = time_now();
	for (i = 0; i < depth && off < total; i++, off += (off_t)bs, out++) {
		fill(&pat, buf[i], (uint64_t)off, PW_WRITE);
		post(&ring, fd, buf[i], bs, off, i, async);
		io_uring_submit(&ring);
	}
	while (out > 0) {
		if ((r = io_uring_submit_and_wait(&ring, 1)) < 0 && r != -EINTR) {
			fprintf(stderr, "uring-write: io_uring_enter: %s\n",
			    strerror(-r));
			return 1;
		}
		n = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != (int)bs) {
				fprintf(stderr, "uring-write: write: %s\n",
				    cqe->res < 0 ? strerror(-cqe->res) :
				    "short");
				return 1;
			}
			done[n++] = (int)cqe->user_data;
		}
		io_uring_cq_advance(&ring, (unsigned)n);
		out -= n;
		for (i = 0; i < n && off < total; i++, off += (off_t)bs,
		    out++) {
			fill(&pat, buf[done[i]], (uint64_t)off, PW_WRITE);
			post(&ring, fd, buf[done[i]], bs, off, done[i], async);
			/* All but the round's last go at once. */
			if (i + 1 < n && off + (off_t)bs < total)
				io_uring_submit(&ring);
		}
	}
	if (fsync(fd) == -1) {
		fprintf(stderr, "uring-write: fsync: %s\n", strerror(errno));
		return 1;
	}
	printf("%.0f\n", (double)total / 1024 / time_elapsed(t0, time_now()));
	close(fd);
	io_uring_queue_exit(&ring);
	free(mem);
	return 0;
}
