/*
 * A result set: the runs read back from one file, whatever its format
 * (a bonnie-ng JSON record, bonnie++ CSV lines or a classic Bonnie text
 * report), in one shape that "compare" and "report" work on.
 */
#ifndef BONNIE_RESULTSET_H
#define BONNIE_RESULTSET_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "settings.h"

/*
 * The columns: each phase's rate (K/sec, or operations/sec), then each
 * one's %CPU, then each one's latency (seconds), phases in table order.
 * RS_KIND() tells which of the three a column is, RS_PHASE() whose.
 */
#define RS_KIND_RATE	0
#define RS_KIND_CPU	1
#define RS_KIND_LAT	2
#define RS_NCOLS	(3 * PH_COUNT)
#define RS_COL(kind, id) ((kind) * PH_COUNT + (int)(id))
#define RS_RATE(id)	RS_COL(RS_KIND_RATE, id)
#define RS_CPU(id)	RS_COL(RS_KIND_CPU, id)
#define RS_LAT(id)	RS_COL(RS_KIND_LAT, id)
#define RS_KIND(c)	((int)(c) / PH_COUNT)
#define RS_PHASE(c)	((int)(c) % PH_COUNT)

enum rs_state {
	RS_NONE,		/* Not run, or not recorded. */
	RS_VALUE,		/* A measured value in v. */
	RS_UNMEASURABLE		/* bonnie++'s "+++++": too fast to measure. */
};

/* What the record says about a run's phase (JSON only). */
#define RS_F_IMPRECISE	0x1	/* Ran under half a second. */
#define RS_F_WARM	0x2	/* The cache did not stay cold. */

struct rs_value {
	enum rs_state	 state;
	double		 v;
	unsigned	 flags;		/* RS_F_* */
};

/*
 * A figure of the kernel's account of a run's phase (read-kernel.c), in
 * the kernel's or iostat's name: a level as recorded ("rareq-sz",
 * "util"), or a count per unit of work ("pgmajfault/GiB", "r/kop"), so
 * that a slower run is not blamed for lasting longer.
 */
struct rs_kfig {
	char		*name;
	double		 v;
	const char	*unit;		/* " KiB", " ms", "%", "" */
	int		 level;		/* 1 a level, 0 a count per work. */
	double		 scale;		/* A change this size is small: how
					   much it moved is measured above
					   it (compare-kernel.c). */
	int		 scope;		/* Whose: enum rs_scope. */
	int		 sparse;	/* A count the record leaves out when
					   it did not move (vmstat,
					   memory.stat, io.stat, a limit's):
					   absent is 0.  Else (the process's
					   counters, the device's rates)
					   absent is not known: a record
					   made before the counter was. */
};
/*
 * Whose a figure is, as the record's "scopes" say (kstat.h's enum
 * ks_scope, in its order): the run's own, its device's (anyone's I/O to
 * it), the whole machine's (other work's too).
 */
enum rs_scope { RS_SCOPE_RUN, RS_SCOPE_DEVICE, RS_SCOPE_MACHINE,
	RS_NSCOPE };
extern const char *const rs_scope_name[RS_NSCOPE];
/* A timeline sample read back: t_s, rate, nr_dirty, nr_writeback, in_flight. */
#define RS_TL_COLS	5
struct rs_kphase {
	int		 n;
	struct rs_kfig	*f;
	int		 tl_n;		/* Timeline samples, 0 none. */
	double		*tl;		/* tl_n x RS_TL_COLS; the rate in the
					   phase's unit (KiB/s, or ops/s)
					   since the sample before; NAN
					   unknown. */
};

struct rs_run {
	char		*label;		/* Machine name or label; never NULL. */
	uint64_t	 size;		/* File size in bytes; 0 unknown. */
	uint64_t	 chunk;		/* Bytes; 0 unknown (a sweep's points
					   only: else the set's). */
	int		 jobs;		/* Workers; 0 unknown (the same). */
	int		 seekers;	/* A sweep's point: its seeker count
					   (--seeker-counts); 0 none. */
	uint64_t	 files;		/* A sweep's point: its file count;
					   0 none. */
	int		 repeat;	/* A sweep's point: 0 its first run,
					   k its k-th later run (more_runs),
					   which follows it in runs[]. */
	unsigned	 imprecise;	/* A sweep's point (first run): the
					   phases its stats call imprecise. */
	int		 line;		/* Where the run starts in the file. */
	char		*failed;	/* Why the run is not usable (it
					   stopped on an error or a signal),
					   or NULL. */
	struct rs_value	 col[RS_NCOLS];
	struct rs_kphase *kernel;	/* PH_COUNT, or NULL: none recorded. */
};

enum rs_format { RS_FMT_JSON, RS_FMT_CSV, RS_FMT_TEXT };

/* Settings recorded with the runs; 0 or NULL when the file has none. */
struct rs_settings {
	uint64_t	 size;		/* Bytes. */
	uint64_t	 chunk;		/* Bytes. */
	uint64_t	 seeks;
	int		 seekers;
	int		 jobs;		/* Workers in lock-step; 0 unknown. */
	uint64_t	 ram;		/* Bytes. */
	/* The file creation phases' --files (bonnie++ -n); 0 unknown. */
	uint64_t	 files;		/* Files per set (N x 1024). */
	uint64_t	 files_max;	/* Bytes. */
	uint64_t	 files_min;
	uint64_t	 files_dirs;	/* 0 or 1: one directory. */
	char		*cache;		/* "cold", "keep", "global" */
	char		*direct;	/* "yes", "no" */
	char		*verified;	/* Reads checked (--verify): "yes",
					   "no". */
	char		*hostname;
	char		*os;
	char		*kernel;
	char		*cpu_model;
	char		*fs_type;
	char		*mount_options;
	char		*super_options;	/* The file system's own (sync ...). */
	char		*device;
	char		*target;	/* What the run measured: "file" (a
					   file system) or "device" (a block
					   device, --device). */
	char		*target_path;	/* The device --device named. */
	char		*scheduler;
	char		*read_ahead;	/* KiB, as text. */
	char		*vm_dirty;	/* The vm.dirty_* settings, as text. */
	char		*seeker_mode;	/* "fork", "thread" */
	char		*seed;		/* "given" (-z) or "random" */
	char		*verify;	/* "off", "count", "fatal" */
	char		*version;	/* Tool and version. */
	char		*dir;		/* The target directory. */
	unsigned	 phases;	/* The phases selected (a mask of phase
					   ids); 0 unknown. */
	const char	*latency;	/* What latency means: "max" (JSON,
					   CSV) or "p99" (text Latency row). */
	/*
	 * A JSON record's settings as text, by setting id (settings.h),
	 * NULL where it has none; the fields above are made from them.
	 * And the phases' own options, in the order of the phase table.
	 */
	char		*value[SET_COUNT];
	char		*phase_value[SETTINGS_PHASE_MAX];
};

/*
 * What only a sweep record (schema bonnie-ng-sweep/1) has: its axes and
 * how it ended.  Its runs are the points, in the order they ran (size by
 * size, within a size chunk by chunk, within a chunk job count by job
 * count), each with its size, chunk and job count.
 */
struct rs_sweep {
	int		 nsizes;
	uint64_t	*sizes;		/* Bytes, ascending. */
	int		 nchunks;
	uint64_t	*chunks;	/* Bytes, ascending. */
	int		 njobs;
	int		*jobs;		/* Ascending. */
	int		 nseekers;	/* 0 without --seeker-counts. */
	int		*seekers;	/* Ascending. */
	int		 nfiles;	/* 0 without --files. */
	uint64_t	*files;		/* Files, ascending. */
	uint64_t	 files_max;	/* --files' sizes and directories. */
	uint64_t	 files_min;
	unsigned	 files_dirs;
	double		 knee_pct;
	int		 capped;	/* The default top was cut. */
	uint64_t	 max_time;	/* Seconds; 0 none. */
	int		 repeat;	/* -x; 0 in older records. */
	double		 min_time;	/* --min-time; 0 none or older. */
	char		*stopped;	/* NULL when complete. */
};

struct result_set {
	char		*file;
	enum rs_format	 format;
	struct rs_settings set;
	int		 nruns;
	struct rs_run	*runs;
	struct rs_sweep	*sweep;		/* A sweep record's; else NULL. */
	unsigned	 read_flags;	/* What the reader was asked to leave
					   out (rs-read.h: RS_READ_LEAN). */
};

/* "write", "write_cpu", "write_lat", ...; NULL when out of range. */
const char	*rs_col_name(int col);
/* The column with this name, or -1. */
int		 rs_col_by_name(const char *);
/* 1 when a lower value is better (%CPU, latency), 0 when higher is. */
int		 rs_col_lower_better(int col);

/*
 * The CPU cost of a %CPU column's run: CPU seconds per GiB for the
 * throughput phases, per thousand operations for the phases whose rate
 * counts them (PHASE_OPS: seeks, ...), from the phase's rate
 * and %CPU.  A %CPU alone rewards a phase that got slower (it waits more
 * and computes the same per byte); the cost does not.  Returns the state:
 * RS_VALUE with *cost set, RS_UNMEASURABLE when either value is, RS_NONE
 * when either is missing or the rate is not positive.
 */
enum rs_state	 rs_cpu_cost(const struct rs_run *, int cpu_col, double *cost);
/* "s/GiB", or the phase's cost unit ("s/kseek"): rs_cpu_cost()'s unit. */
const char	*rs_cost_unit(int cpu_col);

/*
 * A value as the tables print it: K/sec whole (rounded down as the classic
 * report does), seeks/sec and %CPU with one decimal, latency with a unit;
 * "+++++" ("+++" for %CPU) when unmeasurable, "-" when missing.
 */
void	rs_format_value(char *buf, size_t len, int col, enum rs_state,
	    double v);
void	rs_free(struct result_set *);

/*
 * The figures of a phase's recorded "kernel" object (a JSON value; NULL
 * or null: none) into run r's phase id, per GiB of bytes or per thousand
 * ops (phases that count operations).
 */
struct jv;
void	rs_kernel_read(const struct jv *kernel, int id, double bytes,
	    double ops, struct rs_run *r);
void	rs_kernel_free(struct rs_run *r);

/*
 * Move every run of from to the end of into (a side pooled from several
 * files); from keeps its settings and no run.
 */
void	rs_append(struct result_set *into, struct result_set *from);
/* Append an empty run (all columns RS_NONE) and return it. */
struct rs_run *rs_add_run(struct result_set *, const char *label, int line);

/* Did the set run on a block device (--device)? */
int	rs_on_device(const struct result_set *);
/* Its file system as shown: none on a device, NULL when not recorded. */
const char *rs_fs_shown(const struct result_set *);

#endif
