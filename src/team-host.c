/*
 * The default build's team: one fork team (team-fork.c) on this host, its
 * workers the whole team, so team_run() maps onto fork_team_run() one to
 * one; the worker side is team.c's.  make mpi links team-mpi.c in place
 * of this file.
 */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "team-fork.h"
#include "team.h"

const char team_backend[] = "fork";

/* What a worker's body gets: the caller's configuration. */
struct body_arg {
	const struct team_config *cfg;
	int		 got;		/* Blobs in for this step. */
	void		*hbuf;		/* The host's account, or NULL. */
};

/* The one host's step starts: count its blobs afresh. */
static void
released(void *arg)
{
	struct body_arg	*ba = arg;

	ba->got = 0;
	if (ba->cfg->released != NULL)
		ba->cfg->released(ba->cfg->arg);
}

/* A blob: before the step's last, the host's account. */
static void
gathered(void *arg, int w, int ok, const void *blob)
{
	struct body_arg	*ba = arg;

	if (++ba->got == ba->cfg->n && ba->hbuf != NULL) {
		ba->cfg->host_end(ba->cfg->arg, ba->hbuf);
		ba->cfg->host_gathered(ba->cfg->arg, 0, ba->hbuf);
	}
	ba->cfg->gathered(ba->cfg->arg, w, ok, blob);
}

/* A worker: member w of the one fork team is worker w of the team. */
static int
body(struct fork_team *f, int w, void *arg)
{
	return team_member_run(f, ((struct body_arg *)arg)->cfg, w, NULL);
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct body_arg			ba = { cfg, 0, NULL };
	const struct fork_team_config	fc = {
		.n = cfg->n,
		.blob_size = cfg->blob_size,
		.gathered = gathered,
		.released = released,
		.arg = &ba,
		.body = body,
		.body_arg = &ba,
		.stop = cfg->stop,
		.stop_signal = cfg->stop_signal
	};
	int				rv;

	if (cfg->host_end != NULL && cfg->host_gathered != NULL &&
	    cfg->host_size > 0)
		ba.hbuf = xcalloc(1, cfg->host_size);
	rv = fork_team_run(&fc, out, cause);
	free(ba.hbuf);
	return rv;
}

int
team_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

void
team_finish(void)
{
}

int
team_ranks(void)
{
	return 1;
}

int
team_rank(void)
{
	return 0;
}

int
team_start_agree(const char *err, const uint64_t *digest, int n,
    struct team_disagree *td)
{
	(void)err;
	(void)digest;
	(void)n;
	memset(td, 0, sizeof(*td));
	td->index = -1;
	return 0;
}

int
team_start_pending(void)
{
	return 0;
}

const char *
team_host(int worker)
{
	static char	host[64];

	(void)worker;
	if (host[0] == '\0' && gethostname(host, sizeof(host) - 1) == -1)
		host[0] = '\0';
	return host;
}

int
team_hosts(void)
{
	return 1;
}

int
team_worker_host(int worker)
{
	(void)worker;
	return 0;
}

const char *
team_host_name(int host)
{
	(void)host;
	return team_host(0);
}

int
team_host_ranks(int host, int *ranks, int max)
{
	(void)host;
	if (max > 0)
		ranks[0] = 0;
	return 1;
}

int
team_host_lead(void)
{
	return 1;
}

int
team_host_slot(int worker)
{
	return worker;
}

int
team_host_workers(int n)
{
	return n;
}

void *
team_host_map(size_t len)
{
	void	*p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED |
		    MAP_ANON, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}
