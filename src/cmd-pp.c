/*
 * bonnie-ng pp: bonnie++ 2.00's command line and outputs on bonnie-ng's
 * engine, for the scripts and harnesses that run bonnie++ (also when the
 * program is called bonnie++-ng).  Each bonnie++ option is a row here
 * that translates into the run's struct options; the run itself is the
 * default command's (cmd_run_series()), with its cold cache and its
 * notes.  What bonnie++ does that bonnie-ng does not do the same way is
 * said on one line of standard error, and the nearest honest thing done.
 */
#include <ctype.h>
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
#include "platform.h"
#include "record.h"
#include "report.h"
#include "settings.h"
#include "text.h"

/* bonnie++ 2.00a's smallest file without -s, in MiB (pp_default_size()). */
#define PP_MIN_MIB	300

/*
 * bonnie++'s defaults where bonnie-ng's differ are the settings table's
 * (chunk, seeks, seekers: settings_pp_defaults()); -n's, 16, is
 * FILES_DEFAULT_K, which bonnie-ng's -p takes too.
 */

static void
pp_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line on standard error: what pp does instead. */
static void
pp_say(const char *fmt, ...)
{
	va_list	ap;
	char	buf[2048], esc[4 * sizeof(buf)];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_escape(esc, sizeof(esc), buf);
	fprintf(stderr, "bonnie-ng pp: %s\n", esc);
}

struct pp_state {
	struct options	 o;		/* First: the settings' rows store at
					   offset 0. */
	int		 quiet;		/* -q: CSV alone on stdout. */
	int		 count;		/* -x's count, as bonnie++ reads it. */
	int		 size_given;
	int64_t		 mib;		/* -s's size in MiB. */
	int64_t		 chunk;		/* -s's chunk in bytes, 0: not given. */
	int64_t		 files_k;	/* -n's fields, as bonnie++ has them: */
	int64_t		 files_max, files_min, files_dirs;
	int64_t		 files_chunk;	/* 0: not given. */
	int		 conc;		/* -c. */
	int		 per_char_mib;	/* -fN with N > 0. */
	const char	*ram;		/* -r, as given. */
	const char	*user;		/* -u user[:group]. */
	const char	*group;		/* -g group, or -u's group. */
	const char	*sem_procs;	/* -p processes, when not 0. */
	const char	*sem_mode;	/* -y any. */
	const char	*seed_file;	/* -Z file. */
	const char	*seed_bad;	/* -z that is no number: not used. */
	const char	*label_asked;	/* -m as given, when changed. */
	char		*label_made;	/* The name written instead. */
};

/* A number's digits, for a help line. */
#define WORDS_(n)	#n
#define WORDS(n)	WORDS_(n)

#define PP_OFF(field)	((int)offsetof(struct pp_state, field))

/*
 * bonnie++ reads its numbers with atoi(3): a whole number cut at the
 * first character that is not a digit ("7782.55078125" is 7782), 0 when
 * there is none ("" and "abc" are 0).  Kept within int, as bonnie++'s.
 */
static int64_t
pp_atoi(const char *s)
{
	long long	v;

	errno = 0;
	v = strtoll(s, NULL, 10);
	if (v > INT32_MAX)
		return INT32_MAX;
	if (v < INT32_MIN)
		return INT32_MIN;
	return v;
}

/*
 * bonnie++'s size_from_str(): atoi, times 2^10, 2^20 or 2^30 when the
 * last character (either case) is the first, second or third letter of
 * conv.
 */
static int64_t
pp_size(const char *s, const char *conv)
{
	int64_t		 v = pp_atoi(s);
	size_t		 n = strlen(s);
	const char	*p;
	int		 c;

	if (n == 0)
		return v;
	c = tolower((unsigned char)s[n - 1]);
	/* The first letter of conv is x 1024, the next x 1024^2, ... */
	if (c == '\0' || (p = strchr(conv, c)) == NULL)
		return v;
	return v * ((int64_t)1 << (10 * (p - conv + 1)));
}

/* bonnie++'s chunk rule: a power of two from 256 bytes to 1 MiB. */
static int
pp_chunk_ok(int64_t c)
{
	return c >= 256 && c <= (1 << 20) && (c & (c - 1)) == 0;
}

/*
 * -s size[:chunk[:seeks[:seekers]]], read as bonnie++ 2.00a reads it:
 * strtok(3) at ':' (empty fields skipped: -s:768:64k is 768 MiB in chunks
 * of 64 KiB), the size atoi'ed in MiB (g: GiB, t: TiB), the chunk in bytes
 * (k: KiB), seeks and seekers atoi'ed.  bonnie++ takes 0 seeks or
 * seekers; here each must be at least 1, else its default is kept and a
 * line says so.
 */
static int
pp_set_size(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	char		*copy, *save, *tok;
	int64_t		 n;

	(void)r;
	copy = xstrdup(v);
	if ((tok = strtok_r(copy, ":", &save)) == NULL) {
		free(copy);
		return errorf(why, "'%s' (no size; bonnie++ fails on it too)",
		    v);
	}
	st->mib = pp_size(tok, "gt");
	st->size_given = 1;
	if ((tok = strtok_r(NULL, ":", &save)) != NULL)
		st->chunk = pp_size(tok, "k");
	if (tok != NULL && (tok = strtok_r(NULL, ":", &save)) != NULL) {
		if ((n = pp_atoi(tok)) >= 1) {
			st->o.seeks = (uint64_t)n;
			st->o.seeks_given = 1;
		} else
			pp_say("-s %s: seeks %lld: at least 1 here; %llu kept",
			    v, (long long)n, (unsigned long long)st->o.seeks);
	}
	if (tok != NULL && (tok = strtok_r(NULL, ":", &save)) != NULL) {
		if ((n = pp_atoi(tok)) >= 1 && n <= MAX_SEEKERS)
			st->o.seekers = (int)n;
		else
			pp_say("-s %s: seekers %lld: 1 to %d here; %d kept", v,
			    (long long)n, MAX_SEEKERS, st->o.seekers);
	}
	free(copy);
	return 0;
}

/*
 * -n number[:max[:min[:dirs[:chunk]]]], as bonnie++: strtok(3) at ':',
 * empty fields skipped; number in 1024 files (m: times 1024), max and min
 * in bytes (k, m, g), dirs (k), the rest of the word the chunk (k, m, g).
 * A field not given keeps its value.
 */
static int
pp_set_files(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	char		*copy, *save, *tok;

	(void)r;
	copy = xstrdup(v);
	if ((tok = strtok_r(copy, ":", &save)) == NULL) {
		free(copy);
		return errorf(why, "'%s' (no number; bonnie++ fails on it "
		    "too)", v);
	}
	st->files_k = pp_size(tok, "m");
	if ((tok = strtok_r(NULL, ":", &save)) != NULL) {
		st->files_max = pp_size(tok, "kmg");
		if ((tok = strtok_r(NULL, ":", &save)) != NULL) {
			st->files_min = pp_size(tok, "kmg");
			if ((tok = strtok_r(NULL, ":", &save)) != NULL) {
				st->files_dirs = pp_size(tok, "k");
				if ((tok = strtok_r(NULL, "", &save)) != NULL)
					st->files_chunk = pp_size(tok, "kmg");
			}
		}
	}
	free(copy);
	return 0;
}

/* -r MiB (atoi), for the record; 0 (bonnie++: no checks) the system's. */
static int
pp_set_ram(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	int64_t		 mib = pp_atoi(v);

	(void)r;
	(void)why;
	st->o.ram = mib > 0 ? (uint64_t)mib << 20 : 0;
	st->o.ram_given = mib > 0;
	st->ram = v;
	return 0;
}

/* -x count (atoi): the CSV lines alone; 0 runs none, -1 is no -x. */
static int
pp_set_repeat(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;

	(void)r;
	(void)why;
	st->count = (int)pp_atoi(v);
	st->o.repeat_given = st->count != -1;
	if (st->count >= 1)
		st->o.repeat = st->count;
	return 0;
}

/* -c concurrency (atoi), from 1 to 200 as bonnie++, checked at the end. */
static int
pp_set_conc(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;

	(void)r;
	(void)why;
	st->conc = (int)pp_atoi(v);
	if (st->conc >= 1 && st->conc <= MAX_JOBS)
		st->o.jobs = st->conc;
	return 0;
}

/* -p processes (atoi): bonnie++'s semaphore, -1 deletes it, 0 is none. */
static int
pp_set_procs(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	(void)why;
	((struct pp_state *)t)->sem_procs = pp_atoi(v) != 0 ? v : NULL;
	return 0;
}

/* -y s|p: bonnie++'s wait before each test (another letter: no wait). */
static int
pp_set_sem(void *t, const struct args_option *r, const char *v, char **why)
{
	(void)r;
	(void)why;
	((struct pp_state *)t)->sem_mode = v;
	return 0;
}

/* -z seed, as bonnie++'s sscanf("%u"): no number, no seed (random). */
static int
pp_set_seed(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	unsigned int	 u;

	(void)r;
	(void)why;
	if (sscanf(v, "%u", &u) == 1) {
		st->o.seed = u;
		st->o.seed_given = 1;
		st->seed_bad = NULL;
	} else
		st->seed_bad = v;
	return 0;
}

/*
 * -m name: bonnie++ takes any; a name that is not one printable word
 * without commas has each such character made '_', and a line says so.
 */
static int
pp_set_name(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	char		*copy, *c;

	(void)r;
	(void)why;
	st->label_asked = NULL;
	free(st->label_made);
	st->label_made = NULL;
	if (label_check(v, NULL) == 0) {
		st->o.label = v;
		return 0;
	}
	copy = st->label_made = xstrdup(*v == '\0' ? "_" : v);
	text_utf8_fix(copy);
	for (c = copy; *c != '\0'; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f || *c == ',' ||
		    isspace((unsigned char)*c) || (c == copy && *c == '#'))
			*c = '_';
	st->o.label = copy;
	st->label_asked = v;
	return 0;
}

/* -u user[:group] and -g group: each once, one group, as bonnie++. */
static int
pp_set_user(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	const char	*colon = strchr(v, ':');

	(void)r;
	if (st->user != NULL)
		return errorf(why, "'%s' (-u given twice)", v);
	if (colon != NULL && st->group != NULL)
		return errorf(why, "'%s' (a group both here and in -g)", v);
	st->user = v;
	if (colon != NULL)
		st->group = colon + 1;
	return 0;
}

static int
pp_set_group(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;

	(void)r;
	if (st->group != NULL)
		return errorf(why, "'%s' (a group given twice, with -g or "
		    "-u user:group)", v);
	st->group = v;
	return 0;
}

/* -f[size]: alone or 0, no per-char tests; a size: bonnie++'s per-char
   size in MiB. */
static int
pp_set_fast(void *t, const struct args_option *r, const char *v, char **why)
{
	struct pp_state	*st = t;
	int64_t		 n = v != NULL ? pp_atoi(v) : 0;

	(void)r;
	(void)why;
	st->o.fast = n <= 0;
	st->per_char_mib = n > 0 ? (int)n : 0;
	return 0;
}

/*
 * bonnie++ 2.00a's getopt string is "bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D"
 * (-f's value only glued on, -f10).  The flags that map onto one setting
 * and read their values as bonnie-ng does (-d, -b, -D, --csv-format,
 * --json) are the settings table's rows (their pp_letter), before these;
 * here the flags that carry several settings (-s, -n), are only recorded
 * (-r) or not settings at all, and those read as bonnie++ reads them:
 * -m any name, -z and -c and -x by atoi or sscanf, -f with a size.
 */
static const struct args_option pp_rows[] = {
	OPT_VALUE('s', NULL, "size[:chunk[:seeks[:seekers]]]", pp_set_size, 0,
	    "file MiB (0: none), chunk bytes, seeks, seekers"),
	OPT_VALUE('n', NULL, "number[:max[:min[:dirs[:chunk]]]]", pp_set_files,
	    0, "files x 1024 (0: none, default " WORDS(FILES_DEFAULT_K) "), "
	    "sizes, dirs"),
	OPT_VALUE('m', NULL, "name", pp_set_name, 0,
	    "the machine name (default: the short host name)"),
	OPT_VALUE('r', NULL, "ram", pp_set_ram, 0,
	    "the RAM in MiB, for the record"),
	OPT_VALUE('x', NULL, "count", pp_set_repeat, 0,
	    "run the tests count times (0: none)"),
	OPT_VALUE('u', NULL, "user[:group]", pp_set_user, 0,
	    "as root, run as this user (and group)"),
	OPT_VALUE('g', NULL, "group", pp_set_group, 0,
	    "as root, run as this group"),
	OPT_VALUE('c', NULL, "concurrency", pp_set_conc, 0,
	    "workers in lock-step, each on its own file (-j)"),
	OPT_VALUE('p', NULL, "processes", pp_set_procs, 0,
	    "bonnie++'s semaphore: not needed, says so, exits"),
	OPT_VALUE('y', NULL, "s|p", pp_set_sem, 0,
	    "bonnie++'s wait: served by the lock-step start"),
	OPT_VALUE('z', NULL, "seed", pp_set_seed, 0,
	    "the seed of the data and offsets"),
	OPT_STRING('Z', NULL, "file", PP_OFF(seed_file),
	    "take the seed from the file's first 8 bytes"),
	OPT_FLAG('q', NULL, PP_OFF(quiet),
	    "the CSV alone on stdout, the report on stderr"),
	OPT_OPTIONAL('f', NULL, "size", pp_set_fast,
	    "skip the per-char tests (-fsize: run them)"),
	ARGS_END
};

static const struct cmd_rows pp_table[] = {
	{ .off = offsetof(struct pp_state, o), .scope = SCOPE_PP },
	{ .rows = pp_rows },
	CMD_ROWS_END
};

static void
pp_init(void *state, int argc, char **argv)
{
	struct pp_state	*st = state;
	struct options	*o = &st->o;

	settings_defaults(o);
	settings_pp_defaults(o);
	o->argc = argc;
	o->argv = argv;
	/* bonnie++'s: one run, one process, -n 16 of empty files. */
	st->count = -1;
	st->conc = 1;
	st->files_k = FILES_DEFAULT_K;
	st->files_dirs = 1;
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

/*
 * What bonnie++ 2.00a refuses after reading its options (its usage and
 * exit 1), in its order: the concurrency, -p with -y, a negative size or
 * count or both 0, a chunk that is no power of two from 256 bytes to
 * 1 MiB, a max below min.  And what bonnie-ng cannot do: links (-n's
 * max -1 or -2).
 */
static int
pp_refusals(const struct pp_state *st, char **cause)
{
	if (st->conc < 1 || st->conc > 200)
		return errorf(cause, "invalid value for -c: %d (1 to 200, as "
		    "bonnie++)", st->conc);
	if (st->sem_procs != NULL && st->sem_mode != NULL)
		return errorf(cause, "-p and -y: one or the other, as "
		    "bonnie++");
	if (st->sem_procs != NULL)
		return 0;
	if (st->mib < 0 || st->files_k < 0)
		return errorf(cause, "invalid value for %s: negative",
		    st->mib < 0 ? "-s" : "-n");
	if (st->mib == 0 && st->files_k == 0)
		return errorf(cause, "-s 0 and -n 0: nothing to do");
	if (st->chunk != 0 && !pp_chunk_ok(st->chunk))
		return errorf(cause, "invalid value for -s: chunk %lld (a "
		    "power of two from 256 to 1048576 bytes, as bonnie++)",
		    (long long)st->chunk);
	if (st->files_chunk != 0 && !pp_chunk_ok(st->files_chunk))
		return errorf(cause, "invalid value for -n: chunk %lld (a "
		    "power of two from 256 to 1048576 bytes, as bonnie++)",
		    (long long)st->files_chunk);
	if (st->files_max == -1 || st->files_max == -2)
		return errorf(cause, "invalid value for -n: max %lld (links "
		    "instead of files are not supported)",
		    (long long)st->files_max);
	if (st->files_max < st->files_min || st->files_max < 0 ||
	    st->files_min < 0)
		return errorf(cause, "invalid value for -n: max %lld, min "
		    "%lld (0 <= min <= max, as bonnie++)",
		    (long long)st->files_max, (long long)st->files_min);
	return 0;
}

/* The file creation tests' fields as --files's, and its checks. */
static int
pp_files(struct pp_state *st, char **cause)
{
	char	 arg[128], *why = NULL;

	snprintf(arg, sizeof(arg), "%lld:%lld:%lld:%lld",
	    (long long)st->files_k, (long long)st->files_max,
	    (long long)st->files_min,
	    (long long)(st->files_dirs > 1 ? st->files_dirs : 1));
	if (files_parse(arg, &st->o, &why) == -1) {
		errorf(cause, "invalid value for -n: %s", why);
		free(why);
		return -1;
	}
	return 0;
}

/* The option mapping's lines, and the translation into the run's. */
static int
pp_translate(struct pp_state *st, char **cause)
{
	struct options	*o = &st->o;

	o->jobs = st->conc;
	if (st->chunk != 0 && st->chunk < MIN_CHUNK) {
		pp_say("-s: chunk %lld: bonnie-ng's smallest chunk is %d bytes,"
		    " used instead", (long long)st->chunk, MIN_CHUNK);
		o->chunk = MIN_CHUNK;
	} else if (st->chunk != 0)
		o->chunk = (size_t)st->chunk;
	if (st->mib > 0)
		o->size = o->size_asked = (uint64_t)st->mib << 20;
	if (st->files_k > 0 && pp_files(st, cause) == -1)
		return -1;
	if (st->mib == 0) {
		/* Only the file creation phases: no test file. */
		o->phases = phase_flag_mask(PHASE_META);
		o->phases_given = 1;
		o->size = o->size_asked = o->chunk;
	}
	if (st->count >= 1)
		o->repeat = st->count;
	if (!st->size_given)
		pp_say("no -s: %llu MiB, as bonnie++ (twice %s RAM, at least "
		    "%d MiB)", (unsigned long long)(o->size >> 20),
		    st->ram != NULL ? "-r's" : "the", PP_MIN_MIB);
	if (st->ram != NULL && o->ram > 0 && st->size_given)
		pp_say("-r %s: recorded; twice RAM is not needed: the file's "
		    "cache is dropped before each reading phase", st->ram);
	if (st->files_chunk != 0 && st->files_k > 0)
		pp_say("-n: its chunk (%lld) is not honoured: the files are "
		    "written in chunks of %zu bytes (-s's chunk)",
		    (long long)st->files_chunk, o->chunk);
	if (st->per_char_mib > 0 && st->mib != 0)
		pp_say("-f%d: the per-char tests run on the whole file, not "
		    "on its first %d MiB", st->per_char_mib,
		    st->per_char_mib);
	if (st->seed_bad != NULL)
		pp_say("-z %s: not a number: a seed of its own, as bonnie++",
		    st->seed_bad);
	if (st->label_asked != NULL)
		pp_say("-m '%s': written as '%s' (one printable word without "
		    "commas)", st->label_asked, o->label);
	if (st->sem_mode != NULL && strchr("sp", st->sem_mode[0]) != NULL &&
	    st->sem_mode[0] != '\0')
		pp_say("-y %s: no %s: the %d worker%s (-c) start each test in "
		    "lock-step", st->sem_mode, st->sem_mode[0] == 'p' ?
		    "prompt" : "semaphore", o->jobs, o->jobs == 1 ? "" : "s");
	if (o->sync_writes && st->mib != 0)
		pp_say("-b: %sthe seekers' writes are not fsync'ed one by one; "
		    "the block write, rewrite and file tests are",
		    o->fast ? "" : "the per-char write (stdio) and ");
	if (options_check(o, cause) == -1)
		return -1;
	if (st->seed_file != NULL && pp_seed_file(st, cause) == -1)
		return -1;
	return 0;
}

/*
 * No -s: bonnie++ 2.00a's size, twice the RAM in MiB (-r's, 0 when -r
 * says 0; else the machine's), at least PP_MIN_MIB, and the six phases
 * of the test file run (bonnie++ -r 256 writes a 512 MiB file, -r 100
 * and -r 0 a 300 MiB one).
 */
static void
pp_default_size(struct pp_state *st)
{
	uint64_t	ram;

	if (st->size_given)
		return;
	ram = st->ram != NULL ? st->o.ram : platform_ram();
	st->mib = (int64_t)(ram >> 20) * 2;
	if (st->mib < PP_MIN_MIB)
		st->mib = PP_MIN_MIB;
}

static int
pp_run(struct pp_state *st, char **cause)
{
	struct cmd_run_out	 out;
	int			 status;

	pp_default_size(st);
	/* bonnie++'s refusals: the error, its usage, exit 1 (main.c). */
	if (pp_refusals(st, cause) == -1)
		return CMD_USAGE;
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
	/* -x 0 (or below -1): bonnie++ runs no test and writes nothing. */
	if (st->o.repeat_given && st->count < 1) {
		pp_say("-x %d: no test to run", st->count);
		return CMD_OK;
	}
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

static int
pp_exec(void *state, int nfiles, char **files, char **cause)
{
	struct pp_state	*st = state;

	(void)nfiles;
	(void)files;
	return pp_run(st, cause);
}

/* The name made for -m, whether or not pp ran. */
static void
pp_fini(void *state)
{
	struct pp_state	*st = state;

	free(st->label_made);
	st->label_made = NULL;
}

const struct cmd_entry cmd_pp_entry = {
	.spec = { .command = "pp" },
	.rows = pp_table,
	.size = sizeof(struct pp_state),
	.init = pp_init,
	.exec = pp_exec,
	.flags = CMD_TEAM | CMD_USAGE_EXIT1,
	.fini = pp_fini,
};
