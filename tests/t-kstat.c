/*
 * Unit tests: the kernel's account from two made-up readings: iostat -x's
 * arithmetic on /proc/diskstats fields worked by hand, the counters that
 * moved, pressure as a share of the span, the notes and when they stay
 * quiet, a source unreadable at the end, the process's counters
 * summed over workers, and the sum over hosts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "tap.h"

static struct kstat_src		src;
static struct kstat_snap	a, b;

static void
setup(void)
{
	memset(&src, 0, sizeof(src));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	src.ndev = 1;
	strcpy(src.dev[0], "loop7");
	strcpy(src.role[0], "target");
	a.dev_ok[0] = b.dev_ok[0] = 1;
	src.nvm = 6;
	strcpy(src.vm_name[0], "pgpgin");
	strcpy(src.vm_name[1], "pswpout");
	strcpy(src.vm_name[2], "nr_dirty");
	strcpy(src.vm_name[3], "nr_dirty_threshold");
	strcpy(src.vm_name[4], "allocstall_normal");
	strcpy(src.vm_name[5], "nr_writeback");
	a.vm[3] = b.vm[3] = 1000;
	a.psi_ok[KP_MEMORY][1] = b.psi_ok[KP_MEMORY][1] = 1;
	a.psi_ok[KP_IO][0] = b.psi_ok[KP_IO][0] = 1;
	a.cg_err = b.cg_err = ENOENT;
}

/* Two seconds of reads: fields as /proc/diskstats has them. */
static void
reads(void)
{
	/* rd_ios rd_merges rd_sectors rd_ticks */
	a.dev[0][0] = 100;
	b.dev[0][0] = 100 + 400;		/* 400 reads */
	b.dev[0][1] = 100;			/* 100 merged */
	a.dev[0][2] = 8;
	b.dev[0][2] = 8 + 400 * 256;		/* 128 KiB each */
	b.dev[0][3] = 800;			/* 2 ms each */
	b.dev[0][9] = 1000;			/* io_ticks: busy 1 s of 2 */
	b.dev[0][10] = 3000;			/* time_in_queue */
	b.dev[0][15] = 10;			/* flushes */
	b.dev[0][16] = 50;
}

/*
 * The sum over two hosts (MPI), worked by hand: host a read 400 requests
 * of 128 KiB at 2 ms over 2 s, host b 100 of 32 KiB at 10 ms on another
 * device, each swapped; one host's sum is its own account.
 */
static void
hosts_sum(struct kstat_phase *k)
{
	struct kstat_host	*h = calloc(2, sizeof(*h));
	const struct ks_dev	*d;

	setup();
	reads();
	b.vm[0] = 51200;
	b.vm[1] = 12;
	kstat_account(&src, &a, &b, 2.0, &h[0].k);
	snprintf(h[0].name, sizeof(h[0].name), "a");
	setup();
	strcpy(src.dev[0], "sdb");
	b.dev[0][0] = 100;			/* 100 reads */
	b.dev[0][2] = 100 * 64;			/* 32 KiB each */
	b.dev[0][3] = 1000;			/* 10 ms each */
	b.dev[0][9] = 500;
	b.dev[0][10] = 1000;
	b.vm[0] = 3200;
	b.vm[5] = 7;				/* nr_writeback moved */
	kstat_account(&src, &a, &b, 2.0, &h[1].k);
	snprintf(h[1].name, sizeof(h[1].name), "b");
	{
		struct kstat_work	w;

		memset(&w, 0, sizeof(w));
		w.phase = "read";
		w.chunk = 131072;
		w.block = 1;
		w.bytes = 51200 * 1024;
		kstat_notes(&h[0].k, NULL, &w);
		w.bytes = 3200 * 1024;
		kstat_notes(&h[1].k, NULL, &w);
	}
	kstat_host_label(&h[0].k, "a");
	kstat_host_label(&h[1].k, "b\033[2J");
	ok(strncmp(h[0].k.note_text[KN_SWAP], "host a: phase read: the "
	    "machine swapped", 39) == 0, "a host's note names the host");
	ok(strstr(h[1].k.note_text[KN_SMALL_REQ], "\033") == NULL,
	    "... escaped for the terminal");
	kstat_sum(k, h, 2);
	ok(k->known && k->hosts == 2 && k->ndev == 1, "sum: the two "
	    "targets summed as one, over 2 hosts");
	d = &k->dev[0];
	is_str(d->name, "loop7+sdb", "... named by both devices");
	is_near(d->v[KI_RS], 250, 1e-9, "sum r/s: 200 + 50");
	is_near(d->v[KI_RKBS], 25600 + 1600, 1e-9, "sum rkB/s: 25600 + 1600");
	is_near(d->v[KI_RAREQSZ], 27200.0 / 250, 1e-9, "sum rareq-sz: the "
	    "summed kB over the summed requests");
	is_near(d->v[KI_RAWAIT], (200 * 2 + 50 * 10) / 250.0, 1e-9,
	    "sum r_await: weighted by each host's requests");
	is_near(d->v[KI_RRQM_PCT], 100 * 50 / 300.0, 1e-9, "sum rrqm: the "
	    "summed merges over merges and requests");
	is_near(d->v[KI_AQUSZ], 1.5 + 0.5, 1e-9, "sum aqu-sz: the queues add");
	ok(d->v[KI_UTIL] < 0, "sum util: none (each host's)");
	ok(kstat_vm(k, "pgpgin") == 51200 + 3200 && kstat_vm(k, "pswpout") ==
	    12 && kstat_vm(k, "nr_writeback") == 7, "sum vmstat: by name, "
	    "a counter one host lacks counted once");
	ok(!k->psi_ok && !k->cg_ok, "sum: pressure and cgroup each host's");
	ok((k->notes & (1u << KN_SWAP)) && strncmp(k->note_text[KN_SWAP],
	    "host a: ", 8) == 0 && strstr(k->note_text[KN_SWAP],
	    "(and on") == NULL, "sum: host a's swap note alone");
	ok((k->notes & (1u << KN_SMALL_REQ)) &&
	    strstr(k->note_text[KN_SMALL_REQ], "(and on 1 more host)") == NULL,
	    "sum: host b's small requests alone");
	h[0].k.notes |= 1u << KN_SMALL_REQ;
	kstat_sum(k, h, 2);
	ok(strstr(k->note_text[KN_SMALL_REQ], "(and on 1 more host)") != NULL,
	    "sum: a note of both hosts counts the second");
	h[1].k.vm_ok = 0;
	kstat_sum(k, h, 2);
	ok(!k->vm_ok && strncmp(k->vm_why, "host b: ", 8) == 0,
	    "sum: a host without vmstat makes no vmstat sum, and says which");
	h[0].k.tl = calloc(1, sizeof(*h[0].k.tl));
	kstat_sum(k, h, 1);
	ok(k->hosts == 0 && k->tl == NULL && memcmp(k->dev, h[0].k.dev,
	    sizeof(k->dev)) == 0 && k->notes == h[0].k.notes,
	    "one host: the sum is its account, its timeline left to it");
	free(h[0].k.tl);
	free(h);
}

/* What a phase did, as the notes see it: each test changes it further. */
static struct kstat_work	w;

/* A device's account, pressure, a quiet phase and small requests. */
static void
test_account(struct kstat_phase *k)
{
	const struct ks_dev	*d;

	setup();
	reads();
	b.vm[0] = 51200;
	a.psi[KP_IO][0] = 1000000;
	b.psi[KP_IO][0] = 1500000;		/* 0.5 s of 2 */
	kstat_account(&src, &a, &b, 2.0, k);
	ok(k->known && k->ndev == 1, "one device accounted");
	d = &k->dev[0];
	is_str(d->name, "loop7", "by its diskstats name");
	is_near(d->v[KI_RS], 200, 1e-9, "r/s: 400 reads over 2 s");
	is_near(d->v[KI_RKBS], 25600, 1e-9, "rkB/s: 51200 KiB over 2 s");
	is_near(d->v[KI_RRQMS], 50, 1e-9, "rrqm/s: 100 merges over 2 s");
	is_near(d->v[KI_RRQM_PCT], 20, 1e-9, "rrqm: 100 of 500 merged");
	is_near(d->v[KI_RAWAIT], 2, 1e-9, "r_await: 800 ms over 400 reads");
	is_near(d->v[KI_RAREQSZ], 128, 1e-9, "rareq-sz: 128 KiB");
	is_near(d->v[KI_AQUSZ], 1.5, 1e-9, "aqu-sz: 3000 ms queued in 2 s");
	is_near(d->v[KI_UTIL], 50, 1e-9, "util: busy 1000 ms of 2000");
	is_near(d->v[KI_FS], 5, 1e-9, "f/s: 10 flushes over 2 s");
	is_near(d->v[KI_FAWAIT], 5, 1e-9, "f_await: 50 ms over 10");
	is_near(d->v[KI_WS], 0, 0, "w/s: none");
	is_near(d->v[KI_WAREQSZ], 0, 0, "wareq-sz: none is 0, as iostat");
	ok(k->nvm == 1 && strcmp(k->vm[0].name, "pgpgin") == 0 &&
	    k->vm[0].d == 51200, "vmstat: only the counter that moved");
	is_near(k->psi[KP_IO][0], 25, 1e-9, "pressure io some: 0.5 s of 2");
	b.psi[KP_IO][0] = 1000000 + 2100000;	/* 2.1 s in a 2 s span */
	kstat_account(&src, &a, &b, 2.0, k);
	is_near(k->psi[KP_IO][0], 100, 0, "pressure: never above 100% of the "
	    "span (the readings bracket a little more)");
	b.psi[KP_IO][0] = 1500000;
	kstat_account(&src, &a, &b, 2.0, k);
	ok(k->psi[KP_CPU][0] < 0, "pressure cpu: not read is < 0 (null)");
	ok(!k->cg_ok,
	    "cgroup: not read");

	/* A quiet phase: no note. */
	memset(&w, 0, sizeof(w));
	w.phase = "read";
	w.chunk = 131072;
	w.block = 1;
	w.bytes = 51200 * 1024;
	w.cpu_pct = 20;
	kstat_notes(k, NULL, &w);
	is_int(k->notes, 0, "no note: nothing swapped, util 50%, 128 KiB "
	    "requests for a 128 KiB chunk");

	/* Small requests: 4 KiB for a 1 MiB chunk. */
	w.chunk = 1 << 20;
	b.dev[0][2] = 8 + 400 * 8;
	w.bytes = 400 * 4096;
	kstat_account(&src, &a, &b, 2.0, k);
	kstat_notes(k, NULL, &w);
	ok(k->notes == 1u << KN_SMALL_REQ, "small requests noted alone");
	ok(strstr(k->note_text[KN_SMALL_REQ], "rareq-sz 4.0 KiB") != NULL,
	    "... with iostat's name and size");
}

/* Saturated, swapping, stalled, at the dirty limit; with a timeline. */
static void
test_saturated(struct kstat_phase *k)
{
	/* Saturated, swapping, stalled, at the dirty limit. */
	setup();
	reads();
	b.dev[0][9] = 2000;
	b.vm[1] = 12;
	b.vm[4] = 3;
	a.vm[2] = 950;
	b.vm[2] = 100;
	b.psi[KP_MEMORY][1] = 100000;		/* 5% of 2 s */
	w.chunk = 131072;
	w.bytes = 51200 * 1024;
	w.writes = 1;
	kstat_account(&src, &a, &b, 2.0, k);
	kstat_notes(k, NULL, &w);
	ok(k->notes & (1u << KN_SATURATED), "util 100%: saturated");
	ok(strstr(k->note_text[KN_SATURATED], "busy the whole phase (util "
	    "100%") != NULL && strstr(k->note_text[KN_SATURATED], "in "
	    "parallel") != NULL, "... said as busy: util is no limit for a "
	    "device serving requests in parallel");
	ok(k->notes & (1u << KN_SWAP), "pswpout 12: swapped");
	ok(k->notes & (1u << KN_RECLAIM), "allocstall 3: reclaim stalled");
	ok(strstr(k->note_text[KN_RECLAIM], "the machine reclaimed "
	    "(allocstall 3") != NULL && strstr(k->note_text[KN_RECLAIM],
	    "full 5.0%") != NULL && k->note_scope[KN_RECLAIM] == KS_MACHINE,
	    "... the machine's, with memory pressure full (the run's own "
	    "stall not known)");
	ok(k->notes & (1u << KN_THROTTLE), "nr_dirty 950 of 1000: likely "
	    "throttled");
	is_near(k->dirty_peak, 950, 0, "nr_dirty peak of the two readings");
	is_near(k->dirty_mean, 525, 0, "nr_dirty mean of the two readings");

	/* With a timeline: throttled only when the rate fell at the limit. */
	{
		struct kstat_timeline	*tl = calloc(1, sizeof(*tl));
		int			 i;

		tl->n = 8;
		tl->merged = 1;
		for (i = 0; i < 8; i++) {
			tl->s[i].t = i * 0.1;
			tl->s[i].dirty = i < 4 ? 100 : 990;
			/* 100 MiB/s, then 10 MiB/s at the limit. */
			tl->s[i].done = (i < 4 ? i * 10.0 : 30 + (i - 3)) *
			    1048576;
		}
		k->tl = tl;
		k->notes = 0;
		kstat_notes(k, NULL, &w);
		ok(k->notes & (1u << KN_THROTTLE), "timeline: the rate fell "
		    "at the dirty limit: throttled");
		ok(strstr(k->note_text[KN_THROTTLE], "the rate was 10240 "
		    "KiB/s while at it, 102400 below it") != NULL &&
		    k->note_scope[KN_THROTTLE] == KS_RUN, "... the run's: "
		    "from 100 to 10 MiB/s");
		for (i = 0; i < 8; i++)
			tl->s[i].done = i * 10.0 * 1048576;
		k->notes = 0;
		kstat_notes(k, NULL, &w);
		ok(!(k->notes & (1u << KN_THROTTLE)), "timeline: the rate held "
		    "at the limit: no note");
		kstat_attach_timeline(k, NULL, NULL);
	}
}

/* An idle device while CPU-bound; limit reclaim in a v1 cgroup. */
static void
test_idle_reclaim(struct kstat_phase *k)
{
	/* Idle device while CPU-bound. */
	setup();
	reads();
	b.dev[0][9] = 200;
	w.writes = 0;
	w.cpu_pct = 99;
	kstat_account(&src, &a, &b, 2.0, k);
	kstat_notes(k, NULL, &w);
	ok(k->notes == 1u << KN_IDLE, "util 10% at 99% CPU: idle, CPU-bound");

	/*
	 * Limit reclaim in a v1 cgroup: vmstat counts it in pgscan_file and
	 * pgsteal_file, never in pgscan_direct; the cgroup in failcnt and
	 * its refaults.  The note gives those, not "pgscan_direct 0".
	 */
	setup();
	src.nvm = 8;
	strcpy(src.vm_name[6], "pgscan_file");
	strcpy(src.vm_name[7], "pgsteal_file");
	b.vm[6] = 21305;
	b.vm[7] = 15924;
	strcpy(src.cg_file, "/sys/fs/cgroup/memory/t/memory.stat");
	strcpy(src.cg_path, "/t");
	src.ncg = 2;
	strcpy(src.cg_name[0], "failcnt");
	strcpy(src.cg_name[1], "workingset_refault_file");
	a.cg_err = b.cg_err = 0;
	b.cg[0] = 4450;
	b.cg[1] = 32768;
	memset(&w, 0, sizeof(w));
	w.phase = "rewrite";
	w.chunk = 16384;
	w.bytes = 192 << 20;
	kstat_account(&src, &a, &b, 1.0, k);
	kstat_notes(k, NULL, &w);
	ok(k->notes & (1u << KN_RECLAIM), "failcnt 4450: limit reclaim noted");
	ok(strstr(k->note_text[KN_RECLAIM], "pgscan 21305, pgsteal 15924 "
	    "pages") != NULL, "... with the pages scanned and taken by any "
	    "reclaimer");
	ok(strstr(k->note_text[KN_RECLAIM], "/t hit its limit 4450 times") !=
	    NULL && strstr(k->note_text[KN_RECLAIM], "32768 pages were read "
	    "again after reclaim evicted them (workingset_refault_file)") !=
	    NULL, "... the cgroup, its failcnt and its refaults, untruncated");
	{
		FILE	*f = tmpfile();
		char	 line[512] = "";

		kstat_print_line(f, "rewrite", k);
		rewind(f);
		ok(fgets(line, sizeof(line), f) != NULL &&
		    strstr(line, " 21305 ") != NULL, "-K: the pgscan column "
		    "counts limit reclaim's pages too");
		fclose(f);
	}
}

/* Small writes, an unreadable vmstat, the process's counters. */
static void
test_writes_proc(struct kstat_phase *k)
{
	struct kstat_proc	 s, p;

	/* Small writes: read-ahead is not what shapes them. */
	setup();
	b.dev[0][4] = 400;			/* 400 writes */
	b.dev[0][6] = 400 * 8;			/* 4 KiB each */
	memset(&w, 0, sizeof(w));
	w.phase = "write";
	w.chunk = 65536;
	w.block = 1;
	w.writes = 1;
	w.bytes = 400 * 4096;
	kstat_account(&src, &a, &b, 2.0, k);
	kstat_notes(k, NULL, &w);
	ok((k->notes & (1u << KN_SMALL_REQ)) &&
	    strstr(k->note_text[KN_SMALL_REQ], "wareq-sz 4.0 KiB: "
	    "max_sectors_kb or the record size") != NULL,
	    "small writes: noted without blaming read-ahead");

	/* vmstat readable at the start, not at the end: a note. */
	setup();
	b.vm_err = EACCES;
	kstat_account(&src, &a, &b, 1.0, k);
	ok(!k->vm_ok && strstr(k->vm_why, "/proc/vmstat") != NULL,
	    "vmstat unreadable: null with its reason");
	ok(k->notes & (1u << KN_UNREADABLE), "... and a note, not a failure");

	/* The process's counters over two workers. */
	memset(&s, 0, sizeof(s));
	memset(&p, 0, sizeof(p));
	p.workers = 1;
	p.ru_ok = p.io_ok = 1;
	p.v[KC_READ_BYTES] = 100;
	p.v[KC_NVCSW] = 3;
	kstat_proc_add(&s, &p);
	kstat_proc_add(&s, &p);
	ok(s.workers == 2 && s.v[KC_READ_BYTES] == 200 && s.v[KC_NVCSW] == 6,
	    "process: two workers summed");
}

int
main(void)
{
	struct kstat_phase	*k = calloc(1, sizeof(*k));

	test_account(k);
	test_saturated(k);
	test_idle_reclaim(k);
	test_writes_proc(k);
	hosts_sum(k);
	free(k);
	return done_testing();
}
