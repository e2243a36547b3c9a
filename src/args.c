/*
 * The one option parser: any command's command line against its row
 * tables, and the usage and help printed from the same rows.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "error.h"
#include "units.h"

#define USAGE_WIDTH	80
#define HELP_COLUMN	28

/* Every command takes -h and --help. */
static const struct args_option help_rows[] = {
	OPT_HELP('h', "help", "print this help and exit"),
	ARGS_END
};

/* A row found, and the object it stores into. */
struct found {
	const struct args_option	*row;
	void				*target;
};

static int
row_end(const struct args_option *r)
{
	return r->letter == 0 && r->name == NULL;
}

void
args_names(char *buf, size_t len, const struct args_option *r)
{
	if (r->letter != 0 && r->name != NULL)
		snprintf(buf, len, "-%c, --%s", r->letter, r->name);
	else if (r->letter != 0)
		snprintf(buf, len, "-%c", r->letter);
	else
		snprintf(buf, len, "--%s", r->name != NULL ? r->name : "?");
}

/* Call fn on every row, the help row first; stop when it returns 1. */
static int
walk(const struct args_table *t, int (*fn)(const struct args_option *,
    void *, void *), void *arg)
{
	const struct args_option	*r;

	for (r = help_rows; !row_end(r); r++)
		if (fn(r, NULL, arg))
			return 1;
	for (; t->rows != NULL; t++)
		for (r = t->rows; !row_end(r); r++)
			if (fn(r, t->target, arg))
				return 1;
	return 0;
}

struct long_match {
	const char	*name;
	size_t		 len;
	struct found	 exact, prefix;
	int		 nprefix;
	char		 list[256];	/* The prefix matches, for a message. */
};

static int
match_long(const struct args_option *r, void *target, void *arg)
{
	struct long_match	*m = arg;
	size_t			 n;

	if (r->name == NULL || strncmp(r->name, m->name, m->len) != 0)
		return 0;
	if (r->name[m->len] == '\0') {
		m->exact.row = r;
		m->exact.target = target;
		return 1;
	}
	m->prefix.row = r;
	m->prefix.target = target;
	m->nprefix++;
	n = strlen(m->list);
	snprintf(m->list + n, sizeof(m->list) - n, "%s--%s", n > 0 ? ", " :
	    "", r->name);
	return 0;
}

struct short_match {
	int		 letter;
	struct found	 f;
};

static int
match_short(const struct args_option *r, void *target, void *arg)
{
	struct short_match	*m = arg;

	if (r->letter != m->letter)
		return 0;
	m->f.row = r;
	m->f.target = target;
	return 1;
}

/* "sweep: " for a subcommand, "" for the default command. */
static const char *
prefix(const struct args_spec *spec, char *buf, size_t len)
{
	if (spec->command == NULL)
		return "";
	snprintf(buf, len, "%s: ", spec->command);
	return buf;
}

/* " sweep" for a subcommand, "" for the default command. */
static const char *
space_name(const struct args_spec *spec, char *buf, size_t len)
{
	if (spec->command == NULL)
		return "";
	snprintf(buf, len, " %s", spec->command);
	return buf;
}

/* One parse under way. */
struct parse {
	const struct args_spec	*spec;
	const struct args_table	*t;
	int			 argc;
	char			**argv;
	int			 seen;		/* The required option. */
	char			**cause;
	char			**operands;	/* Those so far, and marks. */
	int			 n;
};

const char	args_mark[] = "--";

/*
 * Use one option: f's row with its value v (NULL for none).  Returns
 * ARGS_OK, a stop, or ARGS_ERROR with *cause.
 */
static enum args_result
use(struct parse *p, const struct found *f, const char *v)
{
	const struct args_spec	*spec = p->spec;
	char			 names[64], pb[64], *why = NULL;

	switch (f->row->kind) {
	case ARGS_HELP:
		return ARGS_SHOW_HELP;
	case ARGS_VERSION:
		return ARGS_SHOW_VERSION;
	case ARGS_MARK:
		/* Where it stands among the operands is what it says. */
		p->operands[p->n++] = (char *)args_mark;
		return ARGS_OK;
	case ARGS_FLAG:
	case ARGS_VALUE:
	case ARGS_OPTIONAL:
		break;
	}
	if (spec->required != NULL && f->row->name != NULL &&
	    strcmp(f->row->name, spec->required) == 0)
		p->seen = 1;
	if (f->row->set(f->target, f->row, v, &why) == 0)
		return ARGS_OK;
	args_names(names, sizeof(names), f->row);
	errorf(p->cause, "%sinvalid value for %s: %s", prefix(spec, pb,
	    sizeof(pb)), names, why != NULL ? why : "refused");
	free(why);
	return ARGS_ERROR;
}

static int
takes_value(const struct args_option *r)
{
	return r->kind == ARGS_VALUE;
}

/* One "--name" or "--name=value" word; *i moves past a separate value. */
static enum args_result
parse_long(struct parse *p, int *i)
{
	const struct args_spec	*spec = p->spec;
	char			**cause = p->cause;
	const char		*word = p->argv[*i], *eq, *v = NULL;
	struct long_match	 m;
	struct found		 f;
	char			 pb[64], nb[64];

	memset(&m, 0, sizeof(m));
	m.name = word + 2;
	eq = strchr(m.name, '=');
	m.len = eq != NULL ? (size_t)(eq - m.name) : strlen(m.name);
	walk(p->t, match_long, &m);
	if (m.exact.row != NULL)
		f = m.exact;
	else if (m.nprefix == 1)
		f = m.prefix;
	else if (m.nprefix > 1)
		return errorf(cause, "%sambiguous option --%.*s (%s)",
		    prefix(spec, pb, sizeof(pb)), (int)m.len, m.name, m.list);
	else
		return errorf(cause, "%sunknown option --%.*s (see "
		    "bonnie-ng%s --help)", prefix(spec, pb, sizeof(pb)),
		    (int)m.len, m.name, space_name(spec, nb, sizeof(nb)));
	if (eq != NULL && !takes_value(f.row) && f.row->kind != ARGS_OPTIONAL)
		return errorf(cause, "%soption --%s takes no value",
		    prefix(spec, pb, sizeof(pb)), f.row->name);
	if (eq != NULL)
		v = eq + 1;
	else if (takes_value(f.row)) {
		if (*i + 1 >= p->argc)
			return errorf(cause, "%soption --%.*s needs a value",
			    prefix(spec, pb, sizeof(pb)), (int)m.len, m.name);
		v = p->argv[++*i];
	}
	return use(p, &f, v);
}

/* One word of short options, "-qf" or "-s4g" or "-s" then a value. */
static enum args_result
parse_short(struct parse *p, int *i)
{
	const struct args_spec	*spec = p->spec;
	char			**cause = p->cause;
	const char		*s = p->argv[*i] + 1, *v;
	struct short_match	 m;
	enum args_result	 r;
	char			 pb[64], nb[64];

	for (; *s != '\0'; s++) {
		memset(&m, 0, sizeof(m));
		m.letter = (unsigned char)*s;
		if (!walk(p->t, match_short, &m)) {
			if (isprint((unsigned char)*s))
				return errorf(cause, "%sunknown option -%c "
				    "(see bonnie-ng%s --help)", prefix(spec,
				    pb, sizeof(pb)), *s, space_name(spec, nb,
				    sizeof(nb)));
			return errorf(cause, "%sunknown option -\\x%02x (see "
			    "bonnie-ng%s --help)", prefix(spec, pb,
			    sizeof(pb)), (unsigned char)*s, space_name(spec,
			    nb, sizeof(nb)));
		}
		v = NULL;
		if (takes_value(m.f.row)) {
			if (s[1] != '\0')
				v = s + 1;
			else if (*i + 1 < p->argc)
				v = p->argv[++*i];
			else
				return errorf(cause, "%soption -%c needs a "
				    "value", prefix(spec, pb, sizeof(pb)), *s);
		} else if (m.f.row->kind == ARGS_OPTIONAL && s[1] != '\0')
			v = s + 1;	/* Only glued on, as getopt's "f::". */
		if ((r = use(p, &m.f, v)) != ARGS_OK)
			return r;
		if (v != NULL)
			break;
	}
	return ARGS_OK;
}

enum args_result
args_parse(const struct args_spec *spec, const struct args_table *t,
    int argc, char **argv, char **operands, int *noperands, char **cause)
{
	struct parse		 p;
	enum args_result	 r;
	const char		*w;
	char			 pb[64], nb[64];
	int			 i, only = 0, n;

	p.spec = spec;
	p.t = t;
	p.argc = argc;
	p.argv = argv;
	p.seen = 0;
	p.cause = cause;
	p.operands = operands;
	p.n = 0;
	*noperands = 0;
	for (i = 1; i < argc; i++) {
		w = argv[i];
		if (only || w[0] != '-' || w[1] == '\0') {
			/* Refused where it stands, before a later --help. */
			if (spec->upper >= 0 && p.n >= spec->upper)
				break;
			operands[p.n++] = argv[i];
			continue;
		}
		if (strcmp(w, "--") == 0) {
			only = 1;
			continue;
		}
		if (w[1] == '-')
			r = parse_long(&p, &i);
		else
			r = parse_short(&p, &i);
		if (r != ARGS_OK)
			return r;
	}
	n = p.n;
	*noperands = n;
	if (i < argc) {
		operands[n] = argv[i];
		return errorf(cause, "%sunexpected argument '%s' (see "
		    "bonnie-ng%s --help)", prefix(spec, pb, sizeof(pb)),
		    argv[i], space_name(spec, nb, sizeof(nb)));
	}
	if (spec->required != NULL && !p.seen)
		return errorf(cause, "%s%s", prefix(spec, pb, sizeof(pb)),
		    spec->missing != NULL ? spec->missing : "an option is "
		    "missing");
	if (n < spec->lower) {
		errorf(cause, "%stoo few arguments", prefix(spec, pb,
		    sizeof(pb)));
		return ARGS_SHOW_USAGE;
	}
	return ARGS_OK;
}

/* Words on lines of at most USAGE_WIDTH columns, indented after the first. */
struct wrap {
	FILE	*f;
	int	 col;
	int	 indent;
};

static void
wrap_word(struct wrap *w, const char *word)
{
	int	n = (int)strlen(word);

	if (w->col > w->indent && w->col + 1 + n > USAGE_WIDTH) {
		fprintf(w->f, "\n%*s", w->indent, "");
		w->col = w->indent;
	} else {
		fputc(' ', w->f);
		w->col++;
	}
	fputs(word, w->f);
	w->col += n;
}

struct letters {
	char	l[64];
	int	n;
};

static int
collect_flag(const struct args_option *r, void *target, void *arg)
{
	struct letters	*ls = arg;

	(void)target;
	if (r->letter != 0 && r->kind != ARGS_VALUE &&
	    r->kind != ARGS_OPTIONAL && ls->n < (int)sizeof(ls->l) - 1)
		ls->l[ls->n++] = (char)r->letter;
	return 0;
}

/* a A b B ...: by letter, the small one first. */
static int
cmp_letter(const void *pa, const void *pb)
{
	int	a = *(const unsigned char *)pa, b = *(const unsigned char *)pb;
	int	la = tolower(a), lb = tolower(b);

	if (la != lb)
		return la - lb;
	return b - a;
}

struct usage_walk {
	struct wrap		*w;
	const char		*required;
};

static int
usage_row(const struct args_option *r, void *target, void *arg)
{
	struct usage_walk	*u = arg;
	char			 word[256];
	int			 req;

	(void)target;
	if (r->letter != 0 && r->kind != ARGS_VALUE &&
	    r->kind != ARGS_OPTIONAL)
		return 0;	/* In the group of flags. */
	req = u->required != NULL && r->name != NULL &&
	    strcmp(r->name, u->required) == 0;
	if (r->kind == ARGS_VALUE && r->letter != 0)
		snprintf(word, sizeof(word), "%s-%c %s%s", req ? "" : "[",
		    r->letter, r->value, req ? "" : "]");
	else if (r->kind == ARGS_VALUE)
		snprintf(word, sizeof(word), "%s--%s %s%s", req ? "" : "[",
		    r->name, r->value, req ? "" : "]");
	else if (r->kind == ARGS_OPTIONAL && r->letter != 0)
		snprintf(word, sizeof(word), "[-%c[%s]]", r->letter, r->value);
	else if (r->kind == ARGS_OPTIONAL)
		snprintf(word, sizeof(word), "%s--%s[=%s]%s", req ? "" : "[",
		    r->name, r->value, req ? "" : "]");
	else
		snprintf(word, sizeof(word), "%s--%s%s", req ? "" : "[",
		    r->name, req ? "" : "]");
	wrap_word(u->w, word);
	return 0;
}

void
args_usage(FILE *f, const char *pfx, const struct args_spec *spec,
    const struct args_table *t)
{
	struct wrap		 w;
	struct letters		 ls;
	struct usage_walk	 u;
	char			 word[80];

	w.f = f;
	w.col = fprintf(f, "%sbonnie-ng%s%s", pfx, spec->command != NULL ?
	    " " : "", spec->command != NULL ? spec->command : "");
	w.indent = w.col + 1;
	memset(&ls, 0, sizeof(ls));
	walk(t, collect_flag, &ls);
	qsort(ls.l, (size_t)ls.n, 1, cmp_letter);
	if (ls.n > 0) {
		snprintf(word, sizeof(word), "[-%s]", ls.l);
		wrap_word(&w, word);
	}
	u.w = &w;
	u.required = spec->required;
	walk(t, usage_row, &u);
	if (spec->operands != NULL)
		wrap_word(&w, spec->operands);
	fputc('\n', f);
}

static int
help_row(const struct args_option *r, void *target, void *arg)
{
	FILE	*f = arg;
	char	 left[128];
	int	 n;

	(void)target;
	if (r->letter != 0 && r->name != NULL)
		n = snprintf(left, sizeof(left), "-%c, --%s", r->letter,
		    r->name);
	else if (r->letter != 0)
		n = snprintf(left, sizeof(left), "-%c", r->letter);
	else
		n = snprintf(left, sizeof(left), "    --%s", r->name);
	if (r->kind == ARGS_VALUE && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", r->value);
	else if (r->kind == ARGS_OPTIONAL && r->name == NULL && n > 0 &&
	    (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, "[%s]", r->value);
	else if (r->kind == ARGS_OPTIONAL && n > 0 &&
	    (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, "[=%s]", r->value);
	if ((int)strlen(left) + 2 >= HELP_COLUMN)
		fprintf(f, "  %s\n  %*s", left, HELP_COLUMN - 2, "");
	else
		fprintf(f, "  %-*s", HELP_COLUMN - 2, left);
	fprintf(f, "%s\n", r->help != NULL ? r->help : "");
	return 0;
}

void
args_help(FILE *f, const struct args_table *t)
{
	walk(t, help_row, f);
}

int
args_set_flag(void *target, const struct args_option *r, const char *v,
    char **why)
{
	(void)v;
	(void)why;
	*(int *)(void *)((char *)target + r->slot) = 1;
	return 0;
}

int
args_set_string(void *target, const struct args_option *r, const char *v,
    char **why)
{
	if (*v == '\0')
		return errorf(why, "empty %s name", r->value);
	*(const char **)(void *)((char *)target + r->slot) = v;
	return 0;
}

int
args_set_count(void *target, const struct args_option *r, const char *v,
    char **why)
{
	return parse_count(v, r->min, r->max,
	    (uint64_t *)(void *)((char *)target + r->slot), why);
}
