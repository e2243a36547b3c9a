/*
 * The free space of the target's file system around a run (run.h's
 * run_team() says the rule): src/run-space.c.
 */
#ifndef BONNIE_RUN_SPACE_H
#define BONNIE_RUN_SPACE_H
#include <stdint.h>

struct options;
struct run_result;

/* The free space of dir's file system in bytes, or -1. */
int64_t	run_space_free(const char *dir);
/*
 * After a run of n workers that began with before bytes free: the space
 * again, res->space_*, and the warning when the drop outlasts the slack.
 */
void	run_space_after(const struct options *, struct run_result *, int n,
	    int64_t before);
/* A run on a device: res->space_* unknown. */
void	run_space_none(struct run_result *);

#endif
