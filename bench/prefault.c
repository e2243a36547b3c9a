/*
 * bench/prefault: touch, then give back, MIB MiB of anonymous memory, a
 * GiB at a time (MAP_POPULATE), and print the seconds each GiB took.
 *
 *   prefault MIB
 *
 * Under a virtio balloon with free page reporting, a guest page that was
 * reported is no longer backed on the host, and the guest's next use of
 * it faults on the host: pausing reporting (bench/lib.sh's
 * pause_reporting) stops new reports but leaves the old ones unbacked.
 * Touching the free memory once before the measured runs backs it again,
 * so that no run's page cache or tmpfs pages pay the host's faults (here,
 * on the AMD kind: 3.3 s a GiB the first time, 0.4 s once backed).
 * Built by bench/lib.sh with cc -O2.
 */
#define _DEFAULT_SOURCE
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	unsigned long	mib, done;
	size_t		len;
	double		t;
	void		*p;

	if (argc != 2 || (mib = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: prefault MIB\n");
		return 2;
	}
	for (done = 0; done < mib; done += len >> 20) {
		len = (mib - done > 1024 ? 1024 : mib - done) << 20;
		t = now();
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED) {
			perror("prefault: mmap");
			return 1;
		}
		printf("%.3f\n", now() - t);
	}
	/* Every mapping is given back as the process exits. */
	return 0;
}
