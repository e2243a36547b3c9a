/*
 * The default build's team: one fork team (team-fork.c) on this host, so
 * team.h's interface maps onto team-fork.h's one to one.  make mpi links
 * team-mpi.c in place of this file.
 */
#include <string.h>
#include <unistd.h>

#include "team-fork.h"
#include "team.h"

const char team_backend[] = "fork";

struct team {
	struct fork_team	*f;
	const struct team_config *cfg;
	int			 worker;
};

/* What a worker's body gets: the caller's configuration. */
struct body_arg {
	const struct team_config *cfg;
};

static int
body(struct fork_team *f, int w, void *arg)
{
	const struct team_config	*cfg = ((struct body_arg *)arg)->cfg;
	struct team			 t;

	t.f = f;
	t.cfg = cfg;
	t.worker = w;
	return cfg->body(&t, w, cfg->body_arg);
}

int
team_run(const struct team_config *cfg, struct team_outcome *out,
    char **cause)
{
	struct fork_team_config	fc;
	struct body_arg		ba;

	ba.cfg = cfg;
	memset(&fc, 0, sizeof(fc));
	fc.n = cfg->n;
	fc.blob_size = cfg->blob_size;
	fc.gathered = cfg->gathered;
	fc.released = cfg->released;
	fc.arg = cfg->arg;
	fc.body = body;
	fc.body_arg = &ba;
	fc.stop = cfg->stop;
	fc.stop_signal = cfg->stop_signal;
	return fork_team_run(&fc, out, cause);
}

int
team_barrier(struct team *t)
{
	return fork_team_barrier(t->f);
}

int
team_gather(struct team *t, const void *blob, int ok)
{
	return fork_team_gather(t->f, blob, ok);
}

bn_time
team_epoch(const struct team *t)
{
	bn_time	zero = { 0 };

	/* Every worker reads the same monotonic clock. */
	(void)t;
	return zero;
}

int
team_worker(const struct team *t)
{
	return t->worker;
}

int
team_size(const struct team *t)
{
	return t->cfg->n;
}

void
team_own_file(struct team *t, const char *path, dev_t dev, ino_t ino)
{
	fork_team_own_file(t->f, path, dev, ino);
}

void
team_error(struct team *t, const char *line)
{
	fork_team_error(t->f, line);
}

void
team_stop_all(void)
{
	fork_team_stop_all();
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

const char *
team_host(int worker)
{
	static char	host[64];

	(void)worker;
	if (host[0] == '\0' && gethostname(host, sizeof(host) - 1) == -1)
		host[0] = '\0';
	return host;
}
