/*
 * bonnie-ng pp: bonnie++ 2.00's command line and outputs on bonnie-ng's
 * engine, for the scripts and harnesses that run bonnie++ (also when the
 * program is called bonnie++-ng).  Each bonnie++ option is a row here
 * that translates into the run's struct options; the run itself is the
 * default command's (cmd_run_series()), with its cold cache and its
 * notes.  What bonnie++ does that bonnie-ng does not do the same way is
 * said on one line of standard error, and the nearest honest thing done.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "error.h"
#include "options.h"
#include "phase.h"
#include "record.h"
#include "report.h"
#include "settings.h"
#include "text.h"

/*
 * bonnie++'s defaults where bonnie-ng's differ are the settings table's
 * (chunk, seeks, seekers: settings_pp_defaults()); -n's, 16, is
 * FILES_DEFAULT_K, which bonnie-ng's -p takes too.
 */

struct pp_state {
	struct options	 o;		/* First: the settings' rows store at
					   offset 0. */
	int		 quiet;		/* -q: CSV alone on stdout. */
	int		 size_given;
	int		 size_zero;	/* -s 0: no test file. */
	int		 files_zero;	/* -n 0: no file creation. */
	const char	*files_chunk;	/* -n's fifth field, or NULL. */
	const char	*ram;		/* -r, as given. */
	const char	*user;		/* -u user[:group]. */
	const char	*group;		/* -g group. */
	const char	*sem_procs;	/* -p processes. */
	const char	*sem_mode;	/* -y s|p. */
	const char	*seed_file;	/* -Z file. */
};

#define PP_OFF(field)	((int)offsetof(struct pp_state, field))

/* Split s at ':' into at most n fields; returns the count, -1 if more. */
static int
pp_fields(char *s, char **f, int n)
{
	int	k;

	for (k = 0; k < n; k++) {
		f[k] = s;
		if ((s = strchr(s, ':')) == NULL)
			return k + 1;
		*s++ = '\0';
	}
	return -1;
}

/* -s size[:chunk[:seeks[:seekers]]]: MiB when bare, 0 skips the I/O. */
static int
pp_set_size(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	struct options	*o = &st->o;
	char		*copy, *f[4];
	uint64_t	 size, n;
	int		 k, rv = -1;

	(void)r;
	copy = xstrdup(v);
	if ((k = pp_fields(copy, f, 4)) == -1) {
		errorf(why, "'%s' (size[:chunk[:seeks[:seekers]]])", v);
		goto out;
	}
	if (file_size_parse(f[0], &size, why) == -1)
		goto out;
	if (k > 1) {
		if (chunk_parse(f[1], &n, why) == -1)
			goto out;
		o->chunk = (size_t)n;
	}
	if (k > 2) {
		if (seeks_parse(f[2], &o->seeks, why) == -1)
			goto out;
		o->seeks_given = 1;
	}
	if (k > 3) {
		if (parse_count(f[3], 1, MAX_SEEKERS, &n, why) == -1)
			goto out;
		o->seekers = (int)n;
	}
	st->size_given = 1;
	st->size_zero = size == 0;
	if (size > 0)
		o->size = o->size_asked = size;
	rv = 0;
out:
	free(copy);
	return rv;
}

/* -n number[:max[:min[:dirs[:chunk]]]]: --files, 0 skips it. */
static int
pp_set_files(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	char		*copy, *f[5], *colon;
	uint64_t	 n;
	int		 k, rv = -1;

	(void)r;
	copy = xstrdup(v);
	if ((k = pp_fields(copy, f, 5)) == -1) {
		errorf(why, "'%s' (number[:max[:min[:dirs[:chunk]]]])", v);
		goto out;
	}
	if (k > 1 && f[1][0] == '-') {
		errorf(why, "'%s' (links instead of files, max -1 or -2, are "
		    "not supported)", v);
		goto out;
	}
	if (k == 1 && parse_count(f[0], 0, 0, &n, NULL) == 0) {
		st->files_zero = 1;
		st->o.files_given = 0;
		rv = 0;
		goto out;
	}
	st->files_zero = 0;
	st->files_chunk = NULL;
	if (k == 5) {
		if (parse_size(f[4], 1, &n, why) == -1)
			goto out;
		st->files_chunk = v + (f[4] - copy);
	}
	/* The first four fields are --files's own. */
	free(copy);
	copy = xstrdup(v);
	if (k == 5 && (colon = strrchr(copy, ':')) != NULL)
		*colon = '\0';
	rv = files_parse(copy, &st->o, why);
out:
	free(copy);
	return rv;
}

/* -r MiB, for the record; 0 (bonnie++: no checks) leaves the system's. */
static int
pp_set_ram(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	uint64_t	 n;

	(void)r;
	if (parse_size(v, (uint64_t)1 << 20, &n, why) == -1)
		return -1;
	st->o.ram = n;
	st->ram = v;
	return 0;
}

/* -p processes: bonnie++ takes any number, -1 to delete its semaphore. */
static int
pp_set_procs(void *t, const struct args_option *r, const char *v, char **why)
{
	uint64_t	n;

	(void)r;
	if (parse_count(v[0] == '-' ? v + 1 : v, 0, MAX_JOBS, &n, why) == -1)
		return -1;
	((struct pp_state *)t)->sem_procs = v;
	return 0;
}

static int
pp_set_sem(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	if (strcmp(v, "s") != 0 && strcmp(v, "p") != 0)
		return errorf(why, "'%s' (s for semaphores or p for prompts)",
		    v);
	((struct pp_state *)t)->sem_mode = v;
	return 0;
}

/*
 * bonnie++'s flags that are not one setting each (-s and -n carry several,
 * -r is only recorded) or not a setting at all.  The flags that map onto
 * one setting (-d, -m, -z, -c, -x, -f, -b, -D, --csv-format, --json) are
 * the settings table's rows (their pp_letter), before these.
 */
static const struct args_option pp_rows[] = {
	{ 's', NULL, ARGS_VALUE, "size[:chunk[:seeks[:seekers]]]",
	  pp_set_size, 0, 0, 0, 0,
	  "file MiB (0: none), chunk bytes, seeks, seekers" },
	{ 'n', NULL, ARGS_VALUE, "number[:max[:min[:dirs[:chunk]]]]",
	  pp_set_files, 0, 0, 0, 0,
	  "files x 1024 (0: none, default 16), sizes, dirs" },
	{ 'r', NULL, ARGS_VALUE, "ram", pp_set_ram, 0, 0, 0, 0,
	  "the RAM in MiB, for the record" },
	{ 'u', NULL, ARGS_VALUE, "user[:group]", args_set_string,
	  PP_OFF(user), 0, 0, 0, "as root, run as this user (and group)" },
	{ 'g', NULL, ARGS_VALUE, "group", args_set_string, PP_OFF(group), 0,
	  0, 0, "as root, run as this group" },
	{ 'p', NULL, ARGS_VALUE, "processes", pp_set_procs, 0, 0, 0, 0,
	  "bonnie++'s semaphore: not needed, says so, exits" },
	{ 'y', NULL, ARGS_VALUE, "s|p", pp_set_sem, 0, 0, 0, 0,
	  "bonnie++'s wait: served by the lock-step start" },
	{ 'Z', NULL, ARGS_VALUE, "file", args_set_string, PP_OFF(seed_file),
	  0, 0, 0, "take the seed from the file's first 8 bytes" },
	{ 'q', NULL, ARGS_FLAG, NULL, args_set_flag, PP_OFF(quiet), 0, 0, 0,
	  "the CSV alone on stdout, the report on stderr" },
	ARGS_END
};

static const struct cmd_rows pp_table[] = {
	{ NULL, 0, offsetof(struct pp_state, o), SCOPE_PP },
	{ pp_rows, 0, 0, SCOPE_NONE },
	{ NULL, 0, 0, SCOPE_NONE }
};

static void
pp_init(void *state, int argc, char **argv)
{
	struct pp_state	*st = state;
	struct options	*o = &st->o;

	settings_defaults(o);
	settings_pp_defaults(o);
	o->files_n = (uint64_t)FILES_DEFAULT_K * 1024;
	o->files_given = 1;
	o->argc = argc;
	o->argv = argv;
}

static void
pp_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line on standard error: what pp does instead. */
static void
pp_say(const char *fmt, ...)
{
	va_list	ap;
	char	buf[2048], shown[2048 * 10];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_escape(shown, sizeof(shown), buf);
	fprintf(stderr, "bonnie-ng pp: %s\n", shown);
}

/* -Z: the seed from the first 8 bytes, in network byte order. */
static int
pp_seed_file(struct pp_state *st, char **cause)
{
	unsigned char	b[8];
	uint64_t	s = 0;
	ssize_t		n;
	size_t		got = 0;
	int		fd, i;

	if ((fd = open(st->seed_file, O_RDONLY | O_CLOEXEC)) == -1)
		return errorf(cause, "-Z: %s: %s", st->seed_file,
		    strerror(errno));
	while (got < sizeof(b) &&
	    (n = read(fd, b + got, sizeof(b) - got)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			close(fd);
			return errorf(cause, "-Z: %s: %s", st->seed_file,
			    strerror(errno));
		}
		got += (size_t)n;
	}
	close(fd);
	if (got < sizeof(b))
		return errorf(cause, "-Z: %s: fewer than 8 bytes",
		    st->seed_file);
	for (i = 0; i < 8; i++)
		s = s << 8 | b[i];
	/* 53 bits, so that the record's JSON readers keep it exact. */
	st->o.seed = s & ((UINT64_C(1) << 53) - 1);
	st->o.seed_given = 1;
	return 0;
}

/* A user or group by name, or by number. */
static int
pp_number(const char *s, unsigned long *out)
{
	char	*end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

static int
pp_group(const char *name, gid_t *gid, char **cause)
{
	struct group	*gr;
	unsigned long	 n;

	if (pp_number(name, &n) == 0) {
		*gid = (gid_t)n;
		return 0;
	}
	if ((gr = getgrnam(name)) == NULL)
		return errorf(cause, "-g: no group '%s'", name);
	*gid = gr->gr_gid;
	return 0;
}

/*
 * -u user[:group] and -g group: as root, become them before anything is
 * checked or made, so the directory must be theirs to write, as bonnie++
 * does; root itself is allowed (bonnie++ asks for -u root).  Not root:
 * the run stays as it is, and says so when another user was asked for.
 */
static int
pp_user(struct pp_state *st, char **cause)
{
	struct passwd	*pw;
	char		*copy, *colon;
	const char	*grp = NULL;
	unsigned long	 n;
	uid_t		 uid = geteuid();
	gid_t		 gid = getegid();
	int		 have_gid = 0, rv = -1;

	copy = xstrdup(st->user != NULL ? st->user : "");
	if ((colon = strchr(copy, ':')) != NULL) {
		*colon = '\0';
		grp = colon + 1;
	}
	if (copy[0] != '\0') {
		if ((pw = getpwnam(copy)) != NULL) {
			uid = pw->pw_uid;
			gid = pw->pw_gid;
			have_gid = 1;
		} else if (pp_number(copy, &n) == 0) {
			uid = (uid_t)n;
			if ((pw = getpwuid(uid)) != NULL) {
				gid = pw->pw_gid;
				have_gid = 1;
			}
		} else {
			errorf(cause, "-u: no user '%s'", copy);
			goto out;
		}
	}
	if (st->group != NULL)
		grp = st->group;
	if (grp != NULL && grp[0] != '\0') {
		if (pp_group(grp, &gid, cause) == -1)
			goto out;
		have_gid = 1;
	}
	if (!have_gid) {
		/* bonnie++: a user by number without a group: nogroup. */
		struct group *gr = getgrnam("nogroup");

		if (gr == NULL) {
			errorf(cause, "-u %s: no group given and no group "
			    "'nogroup'", st->user);
			goto out;
		}
		gid = gr->gr_gid;
	}
	if (geteuid() != 0) {
		if (uid != geteuid() || gid != getegid())
			pp_say("-u/-g: not root: running as uid %lu, gid %lu, "
			    "not %lu:%lu", (unsigned long)geteuid(),
			    (unsigned long)getegid(), (unsigned long)uid,
			    (unsigned long)gid);
		rv = 0;
		goto out;
	}
	if (setgroups(1, &gid) == -1 || setgid(gid) == -1 ||
	    setuid(uid) == -1) {
		errorf(cause, "-u/-g: cannot become uid %lu, gid %lu: %s",
		    (unsigned long)uid, (unsigned long)gid, strerror(errno));
		goto out;
	}
	if (uid != 0 && (setuid(0) == 0 || geteuid() != uid)) {
		errorf(cause, "-u: root could be taken back after becoming "
		    "uid %lu", (unsigned long)uid);
		goto out;
	}
	pp_say("running as uid %lu, gid %lu", (unsigned long)uid,
	    (unsigned long)gid);
	rv = 0;
out:
	free(copy);
	return rv;
}

/*
 * The text report (stderr with -q, as bonnie++), then the CSV line; with
 * -x, as bonnie++, the CSV lines alone, under the line of field names
 * when there are several.
 */
static int
pp_report(const struct options *o, const struct record *rec, void *arg)
{
	const struct pp_state	*st = arg;
	FILE			*text = st->quiet ? stderr : stdout;

	if (st->o.repeat_given && o->repeat > 1 &&
	    record_write_csv_header(stdout, o->csv_layout) == -1)
		return -1;
	if (st->o.repeat_given)
		return record_write_csv(stdout, rec);
	if (report_write_pp(text, rec) == -1 || fflush(text) == EOF)
		return -1;
	return record_write_csv(stdout, rec);
}

/* The option mapping's lines, and the translation into the run's. */
static int
pp_translate(struct pp_state *st, char **cause)
{
	struct options	*o = &st->o;

	if (st->size_zero && (st->files_zero || !o->files_given))
		return errorf(cause, "-s 0 and -n 0: nothing to do");
	if (st->size_zero) {
		/* Only the file creation phases: no test file. */
		o->phases = phase_flag_mask(PHASE_META);
		o->phases_given = 1;
		o->size = o->size_asked = o->chunk;
	}
	if (!st->size_given)
		pp_say("no -s: %llu MiB with the cache dropped, not "
		    "bonnie++'s twice RAM", (unsigned long long)(o->size >> 20));
	if (st->ram != NULL)
		pp_say("-r %s: recorded; twice RAM is not needed: the file's "
		    "cache is dropped before each reading phase", st->ram);
	if (st->files_chunk != NULL && !st->files_zero)
		pp_say("-n: its chunk (%s) is not honoured: the files are "
		    "written in chunks of %zu bytes (-s's chunk)",
		    st->files_chunk, o->chunk);
	if (st->sem_mode != NULL)
		pp_say("-y %s: no %s: the %d worker%s (-c) start each test in "
		    "lock-step", st->sem_mode, strcmp(st->sem_mode, "p") == 0 ?
		    "prompt" : "semaphore", o->jobs, o->jobs == 1 ? "" : "s");
	if (o->sync_writes && !st->size_zero)
		pp_say("-b: %sthe seekers' writes are not fsync'ed one by one; "
		    "the block write, rewrite and file tests are",
		    o->fast ? "" : "the per-char write (stdio) and ");
	if (options_check(o, cause) == -1)
		return -1;
	if (st->seed_file != NULL && pp_seed_file(st, cause) == -1)
		return -1;
	return 0;
}

static int
pp_exec(void *state, int nfiles, char **files, char **cause)
{
	struct pp_state		*st = state;
	struct cmd_run_out	 out;
	int			 status;

	(void)nfiles;
	(void)files;
	if (st->sem_procs != NULL) {
		pp_say("-p %s: no semaphore to make: the workers of -c start "
		    "each test in lock-step", st->sem_procs);
		return CMD_OK;
	}
	if (pp_translate(st, cause) == -1)
		return CMD_FAIL;
	if ((st->user != NULL || st->group != NULL) &&
	    pp_user(st, cause) == -1)
		return CMD_FAIL;
	memset(&out, 0, sizeof(out));
	/* bonnie++ -q: no progress; the notes stay, on standard error. */
	out.progress = st->quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1;
	out.notes = 1;
	out.report = pp_report;
	out.arg = st;
	status = cmd_run_series(&st->o, &out, cause);
	/* bonnie++ exits 1 for a bad command line, too. */
	return status == CMD_USAGE ? CMD_FAIL : status;
}

const struct cmd_entry cmd_pp_entry = {
	{ "pp", NULL, 0, 0, NULL, NULL },
	pp_table,
	sizeof(struct pp_state),
	pp_init,
	pp_exec,
	CMD_TEAM | CMD_USAGE_EXIT1
};
