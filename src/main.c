/*
 * bonnie-ng: find the command, parse its command line, run it, and print
 * the one line of a final error.  The commands are entries in src/cmd.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "commands.h"
#include "complete.h"
#include "error.h"
#include "outfile.h"
#include "phase.h"
#include "settings.h"
#include "team.h"
#include "text.h"
#include "vm-guest.h"

/*
 * "bonnie-ng: message" as one line, shown as every message is
 * (text_say()).  Over MPI every rank would say the same: rank 0 says it.
 */
static void
print_error(const char *msg)
{
	if (team_rank() != 0)
		return;
	text_say("%s", msg);
}

/* The last part of a path: what the program was called. */
static const char *
base_name(const char *path)
{
	const char	*s;

	if (path == NULL)
		return "";
	s = strrchr(path, '/');
	return s != NULL ? s + 1 : path;
}

/*
 * The names under which the program is bonnie-ng pp (src/cmd-pp.c):
 * bonnie++-ng, the symlink the package installs, and bonnie++, a user's
 * own symlink ahead of bonnie++ on PATH, for the harnesses that run
 * bonnie++ by that name (the package installs none, to stay installable
 * beside bonnie++).
 */
static const char *const pp_names[] = { "bonnie++-ng", "bonnie++" };

static int
pp_name(const char *argv0)
{
	size_t	i;

	for (i = 0; i < sizeof(pp_names) / sizeof(pp_names[0]); i++)
		if (strcmp(base_name(argv0), pp_names[i]) == 0)
			return 1;
	return 0;
}

/*
 * "PROG __complete -- WORD...": the words of the command line after the
 * program's name; under a name of pp's, after "pp".
 */
static int
complete_main(int argc, char **argv, int as_pp)
{
	static char	 pp[] = "pp";
	char		**w;
	int		  n = argc - 2, i = 0, rv;

	w = xcalloc((size_t)n + 2, sizeof(*w));
	if (as_pp) {
		if (n > 0 && strcmp(argv[2], "--") == 0)
			w[i++] = argv[2];
		w[i++] = pp;
		memcpy(w + i, argv + 2 + (i - 1), (size_t)(n - (i - 1)) *
		    sizeof(*w));
		n++;
	} else
		memcpy(w, argv + 2, (size_t)n * sizeof(*w));
	rv = complete_words(stdout, n, w) == 0 && fflush(stdout) == 0 ?
	    CMD_OK : CMD_FAIL;
	free(w);
	return rv;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*e = NULL;
	void			*state;
	char			**files, *cause = NULL;
	int			  nfiles, status, guest = 0, shift;

	/* Before any file is opened, so that none takes 0, 1 or 2. */
	if (std_fds_open() == -1)
		return CMD_FAIL;	/* Nowhere safe to say so. */
	/*
	 * A bonnie-ng vm guest's init (vm-guest.h): the run's command line
	 * comes from the mailbox disk, and the end goes back there.
	 */
	if (vm_guest_wanted(argv[0])) {
		guest = 1;
		if (vm_guest_start(&argc, &argv, &cause) == -1) {
			print_error(cause);
			vm_guest_end(CMD_FAIL, cause);
		}
	}
	/* The completion scripts' question (completions/, complete.h). */
	if (argc > 1 && strcmp(argv[1], "__complete") == 0)
		return complete_main(argc, argv, pp_name(argv[0]));
	/* Called bonnie++-ng or bonnie++ (a symlink): bonnie-ng pp. */
	if (pp_name(argv[0]))
		e = &cmd_pp_entry;
	else if ((e = cmd_pick(argc, argv, &shift, &cause)) == NULL) {
		/* A word that names no command: refused, never run's. */
		print_error(cause);
		free(cause);
		return CMD_USAGE;
	} else {
		argc -= shift;
		argv += shift;
	}
	if ((e->flags & CMD_TEAM) && team_init(&argc, &argv) == -1) {
		print_error("cannot start MPI");
		return CMD_FAIL;
	}
	if (phase_table_check(&cause) == -1 ||
	    settings_table_check(&cause) == -1 ||
	    cmd_tables_check(cmd_table, &cause) == -1) {
		print_error(cause);
		return CMD_FAIL;
	}
	state = xcalloc(1, e->size);
	files = xcalloc((size_t)argc + 1, sizeof(*files));
	switch (cmd_parse(e, argc, argv, state, files, &nfiles, &cause)) {
	case ARGS_OK:
		status = e->exec(state, nfiles, files, &cause);
		break;
	case ARGS_SHOW_HELP:
		cmd_help(stdout, e);
		status = fflush(stdout) == EOF ? CMD_FAIL : CMD_OK;
		break;
	case ARGS_SHOW_VERSION:
		printf("bonnie-ng %s\n", BONNIE_NG_VERSION);
		status = fflush(stdout) == EOF ? CMD_FAIL : CMD_OK;
		break;
	case ARGS_SHOW_USAGE:
		print_error(cause);
		free(cause);
		cause = NULL;
		cmd_usage(stderr, e);
		/* FALLTHROUGH */
	default:
		/* A stray word among run's options: the commands named. */
		if (e->spec.command == NULL && files[nfiles] != NULL)
			cmd_not_command(files[nfiles], &cause);
		status = e->refused != NULL ? e->refused(state) : CMD_USAGE;
		break;
	}
	/* bonnie++'s way (pp): the error, the usage, exit 1. */
	if (status == CMD_USAGE && (e->flags & CMD_USAGE_EXIT1)) {
		if (cause != NULL)
			print_error(cause);
		free(cause);
		cause = NULL;
		cmd_usage(stderr, e);
		status = CMD_FAIL;
	}
	/* A rank that fails before the start-up check tells the others. */
	if (status != CMD_OK && (e->flags & CMD_TEAM) && team_start_pending()) {
		struct team_disagree	td;

		(void)team_start_agree(cause != NULL ? cause : "failed", NULL, 0,
		    &td);
	}
	if (cause != NULL)
		print_error(cause);
	if (guest)
		vm_guest_end(status, cause);
	if (e->flags & CMD_TEAM)
		team_finish();
	free(cause);
	free(files);
	if (e->fini != NULL)
		e->fini(state);
	free(state);
	return status;
}
