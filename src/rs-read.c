/*
 * Reading result files: the readers in a table, each with a sniff that
 * tells its format from one line, and the loop that picks the reader by
 * the file's content, not its name.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "rs-read.h"
#include "text.h"

/*
 * No value a result can hold comes near this (a rate of 10^15 K/sec is an
 * exabyte a second); anything above it, or not finite, is refused so that
 * no sum, ratio or chart width made from it can overflow.
 */
#define RS_MAX_VALUE	1e15

/* The start of the line after p, or end. */
static const char *
next_line(const char *p, const char *end)
{
	const char	*nl = memchr(p, '\n', (size_t)(end - p));

	return nl != NULL ? nl + 1 : end;
}

/* Does [p, e) start with w? */
static int
starts(const char *p, const char *e, const char *w)
{
	size_t	n = strlen(w);

	return (size_t)(e - p) >= n && memcmp(p, w, n) == 0;
}

/* Does [p, e) contain the word w? */
static int
has(const char *p, const char *e, const char *w)
{
	size_t	n = strlen(w);

	for (; (size_t)(e - p) >= n; p++)
		if (memcmp(p, w, n) == 0)
			return 1;
	return 0;
}

/* JSON: the first non-blank character of the file is a brace. */
static int
sniff_json(const char *s, const char *e, int first)
{
	(void)e;
	return first && *s == '{';
}

/* bonnie++ CSV: a line starting with a format version or field names. */
static int
sniff_csv(const char *s, const char *e, int first)
{
	(void)first;
	return starts(s, e, "1.96,") || starts(s, e, "1.97,") ||
	    starts(s, e, "1.98,") ||
	    starts(s, e, "format_version,") || starts(s, e, "name,");
}

/* bonnie++'s own text report, which is not read but named. */
static int
sniff_pp_text(const char *s, const char *e, int first)
{
	(void)first;
	return has(s, e, "/sec %CP ") || has(s, e, "Name:Size etc");
}

/* The classic Bonnie report: the header's units line. */
static int
sniff_text(const char *s, const char *e, int first)
{
	(void)first;
	return has(s, e, "K/sec") && has(s, e, "%CPU");
}

static const struct rs_reader reader_json = {
	.name = "bonnie-ng JSON",
	.format = RS_FMT_JSON,
	.sniff = sniff_json,
	.read = rs_read_json,
};
static const struct rs_reader reader_csv = {
	.name = "bonnie++ CSV",
	.format = RS_FMT_CSV,
	.sniff = sniff_csv,
	.read = rs_read_csv,
};
static const struct rs_reader reader_pp_text = {
	.name = "bonnie++ text",
	.sniff = sniff_pp_text,
	.refuse = "a bonnie++ text report; compare reads bonnie++'s CSV line "
	    "(the last line bonnie++ prints) instead",
};
static const struct rs_reader reader_text = {
	.name = "Bonnie text",
	.format = RS_FMT_TEXT,
	.sniff = sniff_text,
	.read = rs_read_text,
};

const struct rs_reader *const rs_readers[] = {
	&reader_json,
	&reader_csv,
	&reader_pp_text,
	&reader_text,
	NULL
};

const char *
rs_format_name(enum rs_format f)
{
	const struct rs_reader *const	*rd;

	for (rd = rs_readers; *rd != NULL; rd++)
		if ((*rd)->read != NULL && (*rd)->format == f)
			return (*rd)->name;
	return "unknown";
}

/*
 * What every reader hands back is checked here: text is made valid UTF-8
 * (a stray byte becomes '?'), so that the HTML report and the JSON stay
 * well-formed; values must be finite and below RS_MAX_VALUE.
 */
static int
rs_check(struct result_set *rs, char **cause)
{
	char			**strs[] = {
		&rs->set.cache, &rs->set.direct, &rs->set.hostname,
		&rs->set.os, &rs->set.kernel, &rs->set.cpu_model,
		&rs->set.fs_type, &rs->set.mount_options, &rs->set.device,
		&rs->set.scheduler, &rs->set.version, &rs->set.dir,
		&rs->set.super_options, &rs->set.target, &rs->set.target_path,
	};
	const struct rs_value	 *v;
	size_t			 i;
	int			 k, c;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (*strs[i] != NULL)
			text_utf8_fix(*strs[i]);
	for (k = 0; k < rs->nruns; k++) {
		text_utf8_fix(rs->runs[k].label);
		for (c = 0; c < RS_NCOLS; c++) {
			v = &rs->runs[k].col[c];
			if (v->state == RS_VALUE && (!isfinite(v->v) ||
			    fabs(v->v) > RS_MAX_VALUE))
				return errorf(cause, "%s:%d: %s: %g is out of "
				    "range (at most %g)", rs->file,
				    rs->runs[k].line, rs_col_name(c), v->v,
				    RS_MAX_VALUE);
		}
	}
	return 0;
}

static int	read_buf(const char *, const char *, size_t, unsigned,
		    struct result_set *, char **);

int
rs_read_buf(const char *name, const char *buf, size_t len,
    struct result_set *rs, char **cause)
{
	return read_buf(name, buf, len, 0, rs, cause);
}

static int
read_buf(const char *name, const char *buf, size_t len, unsigned flags,
    struct result_set *rs, char **cause)
{
	const struct rs_reader *const	*rd;
	const char			*p = buf, *end = buf + len, *e, *s;
	int				 line = 1, first = 0, r;

	memset(rs, 0, sizeof(*rs));
	rs->file = xstrdup(name);
	rs->read_flags = flags;
	/* A UTF-8 byte order mark is not part of any format. */
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
		buf += 3;
		len -= 3;
		p = buf;
		end = buf + len;
	}
	if (memchr(buf, '\0', len) != NULL) {
		errorf(cause, "%s:1: binary file, not a result", name);
		goto bad;
	}
	/* The first line that a reader's sniff knows picks the reader. */
	for (; p < end; p = next_line(p, end), line++) {
		e = next_line(p, end);
		for (s = p; s < e && isspace((unsigned char)*s); s++)
			;
		if (s == e)
			continue;
		if (first == 0)
			first = line;
		for (rd = rs_readers; *rd != NULL; rd++) {
			if (!(*rd)->sniff(s, e, first == line))
				continue;
			if ((*rd)->read == NULL) {
				errorf(cause, "%s:%d: %s", name, line,
				    (*rd)->refuse);
				goto bad;
			}
			rs->format = (*rd)->format;
			r = (*rd)->read(name, buf, len, rs, cause);
			goto done;
		}
	}
	if (first == 0)
		errorf(cause, "%s:1: empty file", name);
	else
		errorf(cause, "%s:%d: not a bonnie-ng JSON record, bonnie++ CSV "
		    "or classic Bonnie report", name, first);
	goto bad;
done:
	if (r != 0)
		goto bad;
	if (rs->nruns == 0) {
		errorf(cause, "%s:%d: no results in the file", name,
		    first ? first : 1);
		goto bad;
	}
	if (rs->set.size == 0)
		rs->set.size = rs->runs[0].size;
	if (rs_check(rs, cause) == -1)
		goto bad;
	return 0;
bad:
	rs_free(rs);
	return -1;
}

/* What kind of file st is, for the refusal. */
static const char *
file_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/*
 * Read a whole result file, or standard input for "-", into memory: only
 * a regular file or a pipe, at most RS_MAX_BYTES, and no NUL byte (a
 * binary file is refused at its first block, not at its end).
 */
int
rs_read_file(const char *path, struct result_set *rs, char **cause)
{
	return rs_read_file_flags(path, 0, rs, cause);
}

int
rs_read_file_flags(const char *path, unsigned flags, struct result_set *rs,
    char **cause)
{
	struct stat	 st;
	char		*buf;
	size_t		 len = 0, cap = 65536, i, line = 1;
	ssize_t		 n;
	int		 fd, r, e;
	const char	*nul;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else {
		/* Look before opening: opening a device can do things. */
		if (stat(path, &st) == -1)
			return errorf(cause, "%s: %s", path, strerror(errno));
		if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
			return errorf(cause, "%s: %s, not a result file", path,
			    file_kind(&st));
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return errorf(cause, "%s: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) == -1) {
		e = errno;
		if (fd != STDIN_FILENO)
			close(fd);
		return errorf(cause, "%s: %s", path, strerror(e));
	}
	/* A terminal on standard input is someone typing a result. */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !(fd == STDIN_FILENO && isatty(fd))) {
		if (fd != STDIN_FILENO)
			close(fd);
		return errorf(cause, "%s: %s, not a result file", path,
		    file_kind(&st));
	}
	if (S_ISREG(st.st_mode) && st.st_size > RS_MAX_BYTES) {
		if (fd != STDIN_FILENO)
			close(fd);
		return errorf(cause, "%s: %lld bytes, more than the %d MiB a "
		    "result file may have", path, (long long)st.st_size,
		    RS_MAX_BYTES >> 20);
	}
	buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if ((nul = memchr(buf + len, '\0', (size_t)n)) != NULL) {
			for (i = 0; buf + i < nul; i++)
				line += buf[i] == '\n';
			r = errorf(cause, "%s:%zu: binary file, not a result",
			    path, line);
			goto out;
		}
		len += (size_t)n;
		if (len > RS_MAX_BYTES) {
			r = errorf(cause, "%s: more than the %d MiB a result "
			    "file may have", path, RS_MAX_BYTES >> 20);
			goto out;
		}
	}
	if (n == -1) {
		e = errno;
		r = errorf(cause, "%s: %s", path, strerror(e));
		goto out;
	}
	r = read_buf(path, buf, len, flags, rs, cause);
out:
	if (fd != STDIN_FILENO)
		close(fd);
	free(buf);
	return r;
}

int
rs_read_files(int n, char *const *files, struct result_set **sets,
    char **cause)
{
	struct result_set	*rs;
	int			 i;

	rs = xcalloc((size_t)n, sizeof(*rs));
	for (i = 0; i < n; i++) {
		if (rs_read_file(files[i], &rs[i], cause) != 0) {
			rs_free_sets(rs, i);
			*sets = NULL;
			return -1;
		}
	}
	*sets = rs;
	return 0;
}

void
rs_free_sets(struct result_set *sets, int n)
{
	int	i;

	for (i = 0; sets != NULL && i < n; i++)
		rs_free(&sets[i]);
	free(sets);
}
