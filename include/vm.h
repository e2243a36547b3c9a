/*
 * bonnie-ng vm's parts, joined (only src/cmd-vm.c and src/vm-cell.c
 * include this): the command's state, the matrix of cells it boots, and
 * one cell's boot from its images to its record.
 */
#ifndef BONNIE_VM_H
#define BONNIE_VM_H

#include <signal.h>
#include <stdint.h>

#include "options.h"
#include "timer.h"
#include "vm-kernel.h"

#define VM_MEM_MIN	((uint64_t)128 << 20)	/* Below: refused. */
#define VM_MEM_DEFAULT	((uint64_t)512 << 20)

/* bonnie-ng vm's exit status when a cell failed (the others kept). */
#define VM_CELL_FAILED	3

struct vm_args {
	/* The command line. */
	const char	**kernels;	/* --kernel, in order. */
	const char	**modules;	/* --modules of each, or NULL. */
	int		  nkernels;
	uint64_t	 *mems;		/* --mem, bytes. */
	int		  nmems;
	const char	**fss;		/* --fs. */
	int		  nfss;
	uint64_t	  cpus;
	uint64_t	  disk;		/* --disk; 0: from the run's size. */
	const char	 *mkfs_options;
	const char	 *mount_options;
	const char	 *append;
	const char	 *accel;	/* auto, kvm, tcg. */
	uint64_t	  rounds;
	uint64_t	  timeout;	/* --timeout seconds; 0: derived. */
	const char	 *out;
	const char	 *kernel_cache;	/* --kernel-cache DIR, or NULL. */
	const char	 *bisect;	/* --bisect: "", "strict"; or NULL. */
	int		  argc;		/* The whole line, for the record. */
	char		**argv;

	/* Made by the checks. */
	struct options	  run;		/* The guest's run, parsed here. */
	char		**guest_argv;	/* Its command line, as run there. */
	int		  guest_argc;
	int		  kvm;
	const char	 *cpu;		/* qemu's -cpu. */
	char		 *kvm_refused;	/* Why KVM's first -cpu failed. */
	char		 *qemu_version;
	char		 *host_kernel;
	char		 *top;		/* The temporary directory. */
	char		 *outdir;
	struct vm_kernel *k;		/* nkernels of them. */
	char		**labels;	/* Each kernel's name in file names. */
	volatile sig_atomic_t *stop;
};

/* One boot: a kernel, a memory size, a file system, a round. */
struct vm_cell {
	int		 kernel, mem, fs, round;
	int		 index;		/* In the order, from 1. */
	int		 ncells;
	char		*name;		/* "6.1.0-57-amd64.512M.r1". */
	/* What happened. */
	int		 ran;		/* Its record was written. */
	int		 failed;	/* Exit 3. */
	int		 status;	/* The guest run's exit status. */
	double		 seconds;	/* qemu's start to its end. */
	double		 first_phase_s;	/* To the first phase; <0 none. */
	char		*record;	/* The record's path. */
	char		*report;	/* What the guest's run printed on its
					   standard output, or NULL. */
	char		*tail;		/* A failed cell's last console
					   lines, each indented, or NULL. */
};

/*
 * Boot one cell (src/vm-cell.c): its disk images, its request, qemu, the
 * reply; its record and console log into the out directory.  0 with
 * cell->ran or cell->failed set (*cause saying why it failed), or -1
 * with *cause when the tool itself failed (or was stopped: *a->stop).
 */
int	vm_cell_run(const struct vm_args *, struct vm_cell *, bn_time start,
	    double done_s, int done_cells, char **cause);
/* The timeout of one cell, from the work its run plans. */
double	vm_cell_timeout(const struct vm_args *);
/* The test disk's size for the run. */
uint64_t vm_disk_size(const struct vm_args *, const char *fs);

#endif
