/*
 * The kernel's own account of a phase: what /proc/vmstat, /proc/diskstats,
 * /proc/pressure, the memory cgroup's memory.stat and the process's own
 * counters say happened between the two clock reads that bound the
 * phase's timed span.  Raw snapshots are small fixed arrays read outside
 * the timed loop; the deltas and iostat's figures are made after the
 * phase.  kstat.c is the portable part (the shape, the deltas, iostat -x's
 * arithmetic, the warnings, the record); kstat-linux.c reads the files
 * and kstat-posix.c says why there is nothing to read.  Names are the
 * kernel's (vmstat, memory.stat) and sysstat 12's (iostat -x -o JSON).
 */
#ifndef BONNIE_KSTAT_H
#define BONNIE_KSTAT_H

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>

struct json;

#define KS_NAME		48	/* A counter's name, as the kernel has it. */
#define KS_VM_MAX	256	/* /proc/vmstat counters (192 on Linux 6.18). */
#define KS_CG_MAX	128	/* memory.stat entries (v1 has ~70, v2 ~60). */
#define KS_DEV_MAX	4	/* The target's device and those under it. */
#define KS_DISK_FIELDS	17	/* /proc/diskstats after the name (5.5+). */
#define KS_WHY		320	/* Why a source could not be read. */

/* iostat -x's figures, in the order and under the names of sysstat 12. */
enum ks_iostat {
	KI_RS, KI_RKBS, KI_RRQMS, KI_RRQM_PCT, KI_RAWAIT, KI_RAREQSZ,
	KI_WS, KI_WKBS, KI_WRQMS, KI_WRQM_PCT, KI_WAWAIT, KI_WAREQSZ,
	KI_DS, KI_DKBS, KI_DRQMS, KI_DRQM_PCT, KI_DAWAIT, KI_DAREQSZ,
	KI_FS, KI_FAWAIT, KI_AQUSZ, KI_UTIL,
	KI_COUNT
};
extern const char *const kstat_iostat_name[KI_COUNT];

/*
 * Whose a figure or a note is: the run's own (its processes, and the
 * cgroup bonnie-ng put them in), the target device's (shared by nature:
 * anything else that uses it is in its figures), the whole machine's.
 */
enum ks_scope { KS_RUN, KS_DEVICE, KS_MACHINE, KS_NSCOPE };
extern const char *const kstat_scope_name[KS_NSCOPE];

/* The run's cgroup's io.stat fields (cgroup v2), per device. */
enum ks_rio { KR_RBYTES, KR_WBYTES, KR_RIOS, KR_WIOS, KR_DBYTES, KR_DIOS,
	KR_COUNT };
extern const char *const kstat_rio_name[KR_COUNT];

/* /proc/pressure's resources and lines. */
enum ks_psi { KP_IO, KP_MEMORY, KP_CPU, KP_NRES };
extern const char *const kstat_psi_name[KP_NRES];

/* The process's own counters (getrusage and /proc/self/io). */
enum ks_proc {
	KC_NVCSW, KC_NIVCSW, KC_MINFLT, KC_MAJFLT,
	KC_READ_BYTES, KC_WRITE_BYTES, KC_CANCELLED_WRITE_BYTES,
	KC_COUNT
};
/* Each counter's name (the kernel's) and where it is read. */
enum ks_proc_src {
	KS_RUSAGE,		/* getrusage(2). */
	KS_PROC_IO		/* /proc/self/io (Linux's). */
};
struct ks_proc_counter {
	const char		*name;
	enum ks_proc_src	 src;
};
extern const struct ks_proc_counter kstat_proc[KC_COUNT];

/* The notes a phase can carry (a bit each), said on stderr too. */
enum ks_note {
	KN_SWAP,		/* pswpin / pswpout moved. */
	KN_RECLAIM,		/* Direct or cgroup-limit reclaim stalled. */
	KN_THROTTLE,		/* nr_dirty at the dirty limit (likely). */
	KN_SATURATED,		/* The device's util near 100%. */
	KN_IDLE,		/* The device idle while the tool was CPU-bound. */
	KN_SMALL_REQ,		/* Requests much smaller than the chunk. */
	KN_UNREADABLE,		/* A counter could not be read at the end. */
	KN_TIMELINE,		/* No timeline: its sampler failed. */
	KN_QDEPTH,		/* The device saw far less than --iodepth. */
	KN_RMW,			/* Device reads in a write phase. */
	KN_COUNT
};
extern const char *const kstat_note_name[KN_COUNT];

/*
 * The process's counters, summed over a phase's workers and their
 * seekers: raw at a read, a delta after.  It travels inside a worker's
 * phase result (-j, MPI), so it holds no pointer.
 */
struct kstat_proc {
	int		 ru_ok;		/* getrusage's four. */
	int		 io_ok;		/* /proc/self/io's three. */
	int		 io_err;	/* errno when not io_ok. */
	int		 workers;	/* Summed over; 0 never read. */
	uint64_t	 v[KC_COUNT];
};

/* A phase's timeline (timeline.h): at most TL_MAX samples. */
#define TL_MAX		1024
struct tl_sample {
	double		 t;		/* Seconds from the phase's start. */
	double		 done;		/* Bytes, or operations. */
	double		 dirty;		/* nr_dirty, pages; <0 unknown. */
	double		 writeback;	/* nr_writeback, pages. */
	double		 inflight;	/* The device's; <0 unknown. */
	double		 sectors;	/* Read and written so far. */
};

struct kstat_timeline {
	double		 interval;	/* Seconds, as asked. */
	int		 merged;	/* Samples of the interval in each. */
	int		 n;
	uint64_t	 taken;		/* Samples taken in all. */
	double		 dirty_peak, dirty_sum, wb_peak, wb_sum;
	uint64_t	 gauges;	/* Samples with the gauges read. */
	struct tl_sample s[TL_MAX];
};

/* A counter that changed over the phase: its name and delta. */
struct ks_count {
	char		 name[KS_NAME];
	int64_t		 d;
};

/* One device's iostat -x figures over the phase. */
struct ks_dev {
	char		 name[32];	/* As /proc/diskstats names it. */
	char		 role[16];	/* "target", "disk", "slave", "backing" */
	double		 v[KI_COUNT];
};

/* The whole account of one phase (for the host whose leader read it). */
struct kstat_phase {
	int		 known;		/* Read for this phase. */
	double		 span;		/* Seconds between the two reads. */
	int		 vm_ok;
	char		 vm_why[KS_WHY];
	int		 nvm;
	struct ks_count	 vm[KS_VM_MAX];
	/*
	 * nr_dirty and nr_writeback (pages): peak and mean; from the
	 * timeline when it ran (gauge_samples > 2), else the two reads.
	 * The thresholds are the kernel's own (nr_dirty_threshold,
	 * nr_dirty_background_threshold at the end), -1 unknown.
	 */
	double		 dirty_peak, dirty_mean, wb_peak, wb_mean;
	int		 gauge_samples;
	int64_t		 dirty_thresh, dirty_bg_thresh;
	int		 ndev;
	struct ks_dev	 dev[KS_DEV_MAX];
	char		 dev_why[KS_WHY];
	int		 psi_ok;
	double		 psi[KP_NRES][2];	/* some, full: % of span; <0 none. */
	char		 psi_why[KS_WHY];
	int		 cg_ok;		/* memory.stat read. */
	int		 cg_v2;
	int		 cg_own;	/* The run's own cgroup, not a shared one. */
	char		 cg_path[256];
	int		 ncg;
	struct ks_count	 cg[KS_CG_MAX];
	char		 cg_why[KS_WHY];
	/* The run's own cgroup's pressure (v2) and io.stat, per device. */
	int		 rpsi_ok;
	double		 rpsi[KP_NRES][2];	/* As psi; <0 none. */
	char		 rpsi_path[256];
	char		 rpsi_why[KS_WHY];
	int		 rio_ok;
	int64_t		 rio[KS_DEV_MAX][KR_COUNT];	/* By dev[]'s order. */
	char		 rio_why[KS_WHY];
	/* The limit that bounds the run's memory: its cgroup's hits. */
	int		 lim_ok;
	int		 lim_v2;
	int64_t		 lim_hits;	/* v1 memory.failcnt, v2 events max. */
	char		 lim_path[256];
	unsigned	 notes;		/* 1 << KN_*. */
	unsigned char	 note_scope[KN_COUNT];	/* enum ks_scope. */
	char		 note_text[KN_COUNT][512];
	struct kstat_timeline *tl;	/* Allocated, or NULL: none. */
	char		 tl_why[KS_WHY];	/* Why none, "" when asked. */
	/*
	 * 0: one host's own account.  Else the sum over this many hosts
	 * (kstat_sum()), which leaves out what is per host only.
	 */
	int		 hosts;
};

/*
 * Where one host's counters are read: its devices and memory cgroup,
 * found once per run, and the names of the counters seen so far.
 */
struct kstat_src {
	int		 ndev;
	char		 dev[KS_DEV_MAX][32];
	char		 role[KS_DEV_MAX][16];
	char		 dev_why[KS_WHY];
	char		 cg_file[1024];	/* memory.stat, "" none. */
	char		 cg_fail[1024];	/* v1 memory.failcnt, "" none. */
	char		 cg_path[256];
	int		 cg_v2;
	int		 cg_own;	/* The run's own (cgroup.h). */
	char		 cg_why[KS_WHY];
	char		 lim_file[1024];	/* failcnt or memory.events. */
	int		 lim_v2;
	char		 lim_path[256];
	char		 rpsi_dir[1024];	/* The run's *.pressure. */
	char		 rpsi_path[256];
	char		 rpsi_why[KS_WHY];
	char		 rio_file[1024];	/* The run's io.stat. */
	char		 rio_why[KS_WHY];
	char		 dev_id[KS_DEV_MAX][24];	/* "MAJ:MIN". */
	int		 nvm;
	char		 vm_name[KS_VM_MAX][KS_NAME];
	int		 ncg;
	char		 cg_name[KS_CG_MAX][KS_NAME];
};

/* One reading of every source (the leader's, at a clock read). */
struct kstat_snap {
	int		 vm_err;	/* 0 read, else errno. */
	uint64_t	 vm[KS_VM_MAX];
	int		 dev_ok[KS_DEV_MAX];
	uint64_t	 dev[KS_DEV_MAX][KS_DISK_FIELDS];
	int		 psi_err;
	int		 psi_ok[KP_NRES][2];
	uint64_t	 psi[KP_NRES][2];	/* total, microseconds. */
	int		 cg_err;
	uint64_t	 cg[KS_CG_MAX];
	int		 rpsi_err;
	int		 rpsi_ok[KP_NRES][2];
	uint64_t	 rpsi[KP_NRES][2];
	int		 rio_err;
	uint64_t	 rio[KS_DEV_MAX][KR_COUNT];
	int		 lim_err;
	uint64_t	 lim;
};

/*
 * One host's two readings of a phase and its timeline, as they travel
 * from the host that read them (MPI: its lowest rank) to the leader,
 * which makes the account over the team's span.  It holds no pointer.
 */
struct kstat_readings {
	int		 known;		/* Read, and the host's. */
	struct kstat_src src;
	struct kstat_snap a, b;
	int		 has_tl;
	struct kstat_timeline tl;
	char		 tl_why[KS_WHY];	/* Why none (timeline_why()). */
};

/* The system half (kstat-linux.c, kstat-posix.c). */
void	kstat_sys_find(struct kstat_src *, dev_t io_dev, const char *memfs);
void	kstat_sys_read(struct kstat_src *, struct kstat_snap *);
void	kstat_sys_proc(struct kstat_proc *);
/* nr_dirty and nr_writeback now (pages): 0, or -1. */
int	kstat_sys_gauges(uint64_t *dirty, uint64_t *writeback);
/* In-flight requests and sectors done so far of the device: 0, or -1. */
int	kstat_sys_dev_now(const char *name, uint64_t *inflight,
	    uint64_t *sectors);

/*
 * One host's reader over a run: the sources, found once (io_dev: the
 * device the test file's I/O reaches, memfs: "tmpfs" and the like, or
 * NULL), and the reading taken at a phase's first clock read.
 */
struct kstat_run;
struct kstat_run *kstat_run_new(dev_t io_dev, const char *memfs);
void	kstat_run_free(struct kstat_run *);
/* At the first clock read of a phase. */
void	kstat_begin(struct kstat_run *);
/* At the last: the phase's account over span seconds. */
void	kstat_end(struct kstat_run *, double span, struct kstat_phase *);
/* At the last, for another process to account (kstat_account()). */
void	kstat_end_readings(struct kstat_run *, struct kstat_readings *);
/* The account from two readings of src's sources, span seconds apart. */
void	kstat_account(const struct kstat_src *, const struct kstat_snap *,
	    const struct kstat_snap *, double span, struct kstat_phase *);
/* The device the run's figures are of, for the sampler ("" none). */
const char *kstat_run_device(const struct kstat_run *);

/*
 * Hand the phase its timeline (allocated; NULL: none): its gauges'
 * peak and mean replace those of the two readings.
 */
/*
 * The phase's timeline (NULL: none), or why it has none although one was
 * asked for (why not NULL: the phase's note).
 */
void	kstat_attach_timeline(struct kstat_phase *, struct kstat_timeline *,
	    const char *why);

/* The process's counters: read now, and the delta since a reading. */
void	kstat_proc_begin(struct kstat_proc *);
void	kstat_proc_end(const struct kstat_proc *begin, struct kstat_proc *d);
/* sum += one worker's delta. */
void	kstat_proc_add(struct kstat_proc *sum, const struct kstat_proc *);

/* What a phase did, for its notes. */
struct kstat_work {
	const char	*phase;
	uint64_t	 chunk;		/* Bytes per call of a block phase. */
	int		 block;		/* Block I/O of chunk bytes a call. */
	int		 writes;	/* It writes (dirty pages). */
	int		 reads;		/* It reads the file (rewrite does). */
	int		 in_place;	/* --device, or a file written before. */
	int		 direct;	/* O_DIRECT. */
	int		 depth;		/* Requests it kept in flight. */
	const char	*engine;	/* The queue's ("io_uring"...), or "". */
	uint64_t	 bytes;
	double		 cpu_pct;	/* The phase's %CPU, one worker's. */
};
/* Set the phase's notes and their words. */
void	kstat_notes(struct kstat_phase *, const struct kstat_proc *,
	    const struct kstat_work *);
/* Print the notes on stderr, "bonnie-ng: warning: " first. */
void	kstat_say(FILE *, const struct kstat_phase *);

/* The value of a vmstat or memory.stat counter's delta, 0 when absent. */
int64_t	kstat_vm(const struct kstat_phase *, const char *name);
int64_t	kstat_cg(const struct kstat_phase *, const char *name);
/* The sum of the vmstat counters whose names start with prefix. */
int64_t	kstat_vm_prefix(const struct kstat_phase *, const char *prefix);
/* Pages reclaim scanned ("pgscan") or took ("pgsteal"), by any reclaimer. */
int64_t	kstat_reclaimed(const struct kstat_phase *, const char *what);

/*
 * A team across hosts (MPI): each host's account of a phase and its
 * workers' process counters (kstat-hosts.c sums them).
 */
struct kstat_host {
	char		 name[64];
	int		 nranks;
	const int	*ranks;		/* Its ranks, lowest first. */
	struct kstat_phase k;
	struct kstat_proc p;
};
/*
 * The sum over n hosts: the counters and the device's counts, bytes and
 * times summed (the device's by role, its sizes and awaits over the
 * summed requests); what is per host only (the dirty gauges, util,
 * pressure, the cgroup, the timeline) left out; each host's notes.
 */
void	kstat_sum(struct kstat_phase *sum, const struct kstat_host *, int n);
/* Name the host in each of a host's notes ("host NAME: phase ..."). */
void	kstat_host_label(struct kstat_phase *, const char *host);

/*
 * The record's "kernel" object of a phase (ks NULL: null), with each
 * host's (nhosts > 0) in "hosts" (kstat-record.c).
 */
void	kstat_write(struct json *, const char *key, const struct kstat_phase *,
	    const struct kstat_proc *, const struct kstat_host *hosts,
	    int nhosts);
/* The process's counters as an object (NULL or none read: null). */
void	kstat_write_proc(struct json *, const char *key,
	    const struct kstat_proc *);
/* "/proc/self/io: No such file or directory" in KS_WHY bytes. */
void	kstat_why_errno(char *buf, const char *what, int e);
/* -K: a table under the report, its head and a line per phase. */
void	kstat_print_head(FILE *);
void	kstat_print_line(FILE *, const char *phase, const struct kstat_phase *);

#endif
