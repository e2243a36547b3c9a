/*
 * A kernel's modules from depmod's text, and the closure of the modules a
 * guest loads (include/moddep.h).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "moddep.h"

void
moddep_init(struct moddep *d)
{
	memset(d, 0, sizeof(*d));
}

static void
free_list(char **l, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static void
free_aliases(struct moddep_alias *a, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(a[i].alias);
		free(a[i].name);
	}
	free(a);
}

void
moddep_free(struct moddep *d)
{
	size_t	i;

	for (i = 0; i < d->nmods; i++) {
		free(d->mods[i].name);
		free(d->mods[i].path);
		free_list(d->mods[i].deps, d->mods[i].ndeps);
		free_list(d->mods[i].pre, d->mods[i].npre);
	}
	free(d->mods);
	free_aliases(d->aliases, d->naliases);
	free_aliases(d->balias, d->nbalias);
	free_list(d->builtin, d->nbuiltin);
	moddep_init(d);
}

/* A character of a module's name as the kernel keeps it: '_' for '-'. */
static int
canon(int c)
{
	return c == '-' ? '_' : c;
}

/* A copy of the len bytes at s, canon(). */
static char *
normal(const char *s, size_t len)
{
	char	*n = xmalloc(len + 1);
	size_t	 i;

	for (i = 0; i < len; i++)
		n[i] = (char)canon(s[i]);
	n[len] = '\0';
	return n;
}

int
moddep_same_name(const char *a, const char *b)
{
	for (; *a != '\0' && canon(*a) == canon(*b); a++, b++)
		;
	return canon(*a) == canon(*b);
}

char *
moddep_name(const char *path)
{
	const char	*b = strrchr(path, '/'), *ko;

	b = b != NULL ? b + 1 : path;
	ko = strstr(b, ".ko");
	return normal(b, ko != NULL ? (size_t)(ko - b) : strlen(b));
}

static void
push(char ***l, size_t *n, char *s)
{
	*l = xrealloc(*l, (*n + 1) * sizeof(**l));
	(*l)[(*n)++] = s;
}

/* The words of the line s..e, one at a time: *w, its length; 0 at the end. */
static size_t
word(const char **s, const char *e, const char **w)
{
	const char	*p = *s;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	*w = p;
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	*s = p;
	return (size_t)(p - *w);
}

static struct moddep_mod *
find_mod(const struct moddep *d, const char *name)
{
	size_t	i;

	for (i = 0; i < d->nmods; i++)
		if (strcmp(d->mods[i].name, name) == 0)
			return &d->mods[i];
	return NULL;
}

/* "PATH: DEP DEP...": the module and what it needs. */
static void
parse_dep(struct moddep *d, const char *s, const char *colon, const char *e)
{
	struct moddep_mod	*m;
	const char		*w;
	char			*path;
	size_t			 n;

	path = xmalloc((size_t)(colon - s) + 1);
	memcpy(path, s, (size_t)(colon - s));
	path[colon - s] = '\0';
	d->mods = xrealloc(d->mods, (d->nmods + 1) * sizeof(*d->mods));
	m = &d->mods[d->nmods++];
	memset(m, 0, sizeof(*m));
	m->path = path;
	m->name = moddep_name(path);
	s = colon + 1;
	while ((n = word(&s, e, &w)) > 0) {
		path = xmalloc(n + 1);
		memcpy(path, w, n);
		path[n] = '\0';
		push(&m->deps, &m->ndeps, moddep_name(path));
		free(path);
	}
}

static void
add_alias(struct moddep_alias **a, size_t *n, char *alias, char *name)
{
	*a = xrealloc(*a, (*n + 1) * sizeof(**a));
	(*a)[*n].alias = alias;
	(*a)[*n].name = name;
	(*n)++;
}

/* "alias NAME MODULE": kept unless NAME is a pattern or a symbol. */
static void
parse_alias(struct moddep *d, const char *s, const char *e)
{
	const char	*a, *m;
	size_t		 na, nm;

	na = word(&s, e, &a);
	nm = word(&s, e, &m);
	if (na == 0 || nm == 0 || memchr(a, '*', na) != NULL ||
	    memchr(a, '?', na) != NULL || memchr(a, '[', na) != NULL ||
	    (na > 7 && memcmp(a, "symbol:", 7) == 0))
		return;
	add_alias(&d->aliases, &d->naliases, normal(a, na), normal(m, nm));
}

/* "softdep MODULE pre: A B post: C": the pre: names of MODULE. */
static int
parse_softdep(struct moddep *d, const char *s, const char *e, char **cause)
{
	struct moddep_mod	*m;
	const char		*w;
	char			*name;
	size_t			 n;
	int			 pre = 0;

	if ((n = word(&s, e, &w)) == 0)
		return errorf(cause, "modules: a softdep line names no module");
	name = normal(w, n);
	m = find_mod(d, name);
	free(name);
	if (m == NULL)
		return 0;	/* Not a module here: nothing to load. */
	while ((n = word(&s, e, &w)) > 0) {
		if (n == 4 && memcmp(w, "pre:", 4) == 0)
			pre = 1;
		else if (n == 5 && memcmp(w, "post:", 5) == 0)
			pre = 0;
		else if (pre)
			push(&m->pre, &m->npre, normal(w, n));
	}
	return 0;
}

/* The first ".ko" in s..e, or NULL. */
static const char *
find_ko(const char *s, const char *e)
{
	for (; e - s >= 3; s++)
		if (s[0] == '.' && s[1] == 'k' && s[2] == 'o')
			return s;
	return NULL;
}

/*
 * Softdep lines name modules that may come later in the text (depmod -n
 * prints modules.softdep after modules.dep, but a caller may pass the
 * files in any order): they are read in a second pass.
 */
int
moddep_parse(struct moddep *d, const char *text, size_t len, char **cause)
{
	const char	*s, *e, *end = text + len, *colon, *sp, *ko;
	int		 pass;

	for (pass = 0; pass < 2; pass++)
		for (s = text; s < end; s = e + 1) {
			e = memchr(s, '\n', (size_t)(end - s));
			if (e == NULL)
				e = end;
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
			if (s == e || *s == '#')
				continue;
			if (pass == 1) {
				if (e - s > 8 && memcmp(s, "softdep ", 8) == 0 &&
				    parse_softdep(d, s + 8, e, cause) == -1)
					return -1;
				continue;
			}
			if (e - s > 6 && memcmp(s, "alias ", 6) == 0) {
				parse_alias(d, s + 6, e);
				continue;
			}
			if (e - s > 8 && memcmp(s, "softdep ", 8) == 0)
				continue;
			colon = memchr(s, ':', (size_t)(e - s));
			sp = memchr(s, ' ', (size_t)(e - s));
			ko = find_ko(s, e);
			/* "PATH.ko[.xz]: ..." and not a devname line. */
			if (colon != NULL && (sp == NULL || sp > colon) &&
			    ko != NULL && ko < colon) {
				parse_dep(d, s, colon, e);
				continue;
			}
			if (colon == NULL && ko != NULL && sp == NULL)
				return errorf(cause, "modules: \"%.*s\": a "
				    "module without the colon of modules.dep",
				    (int)(e - s), s);
		}
	return 0;
}

void
moddep_parse_builtin(struct moddep *d, const char *text, size_t len)
{
	const char	*s, *e, *end = text + len;
	char		*path;

	for (s = text; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (e == NULL)
			e = end;
		if (e == s || *s == '#')
			continue;
		path = xmalloc((size_t)(e - s) + 1);
		memcpy(path, s, (size_t)(e - s));
		path[e - s] = '\0';
		push(&d->builtin, &d->nbuiltin, moddep_name(path));
		free(path);
	}
}

/* "MODULE.alias=NAME" strings, each ending in a NUL. */
void
moddep_parse_builtin_modinfo(struct moddep *d, const char *text, size_t len)
{
	const char	*s, *e, *end = text + len, *dot;
	size_t		 n;

	for (s = text; s < end; s = e + 1) {
		e = memchr(s, '\0', (size_t)(end - s));
		if (e == NULL)
			e = end;
		dot = memchr(s, '.', (size_t)(e - s));
		if (dot == NULL || (size_t)(e - dot) < 7 ||
		    memcmp(dot, ".alias=", 7) != 0)
			continue;
		n = (size_t)(e - (dot + 7));
		if (memchr(dot + 7, '*', n) != NULL)
			continue;
		add_alias(&d->balias, &d->nbalias, normal(dot + 7, n),
		    normal(s, (size_t)(dot - s)));
	}
}

const struct moddep_mod *
moddep_find(const struct moddep *d, const char *name)
{
	return find_mod(d, name);
}

int
moddep_is_builtin(const struct moddep *d, const char *name)
{
	char	*n = normal(name, strlen(name));
	size_t	 i;
	int	 yes = 0;

	for (i = 0; i < d->nbuiltin && !yes; i++)
		yes = strcmp(d->builtin[i], n) == 0;
	for (i = 0; i < d->nbalias && !yes; i++)
		yes = strcmp(d->balias[i].alias, n) == 0;
	free(n);
	return yes;
}

struct walk {
	struct moddep		*d;
	struct moddep_load	*out;
	size_t			 n;
	char			*missing;	/* What is missing, or NULL. */
};

/* Marks: 0 not seen, 1 on the way, 2 loaded hard, 3 loaded soft. */
static void visit(struct walk *, struct moddep_mod *, int soft);

/* A module loaded as soft that turns out needed: it and its needs hard. */
static void
harden(struct walk *w, struct moddep_mod *m)
{
	struct moddep_mod	*dep;
	size_t			 i;

	if (m->mark != 3)
		return;
	m->mark = 2;
	for (i = 0; i < w->n; i++)
		if (w->out[i].mod == m)
			w->out[i].soft = 0;
	for (i = 0; i < m->ndeps; i++)
		if ((dep = find_mod(w->d, m->deps[i])) != NULL)
			harden(w, dep);
}

/* Every module a name stands for: itself, or each module of an alias. */
static int
visit_name(struct walk *w, const char *name, int soft)
{
	struct moddep_mod	*m;
	size_t			 i;
	int			 found = 0;

	if ((m = find_mod(w->d, name)) != NULL) {
		visit(w, m, soft);
		return 1;
	}
	for (i = 0; i < w->d->naliases; i++)
		if (strcmp(w->d->aliases[i].alias, name) == 0 &&
		    (m = find_mod(w->d, w->d->aliases[i].name)) != NULL) {
			visit(w, m, soft);
			found = 1;
		}
	return found;
}

static void
note_missing(struct walk *w, const char *what)
{
	char	*s;

	if (w->missing == NULL)
		w->missing = xstrdup(what);
	else {
		s = xasprintf("%s, %s", w->missing, what);
		free(w->missing);
		w->missing = s;
	}
}

static void
visit(struct walk *w, struct moddep_mod *m, int soft)
{
	char	*what;
	size_t	 i;

	/* Hard now and soft before: it stays where it is, made hard. */
	if (m->mark >= 2) {
		if (!soft)
			harden(w, m);
		return;
	}
	if (m->mark == 1)
		return;		/* A cycle of soft dependencies. */
	m->mark = 1;
	for (i = 0; i < m->npre; i++)
		(void)visit_name(w, m->pre[i], 1);
	for (i = 0; i < m->ndeps; i++)
		if (!visit_name(w, m->deps[i], soft) && !soft) {
			what = xasprintf("%s (which %s needs)", m->deps[i],
			    m->name);
			note_missing(w, what);
			free(what);
		}
	m->mark = soft ? 3 : 2;
	w->out = xrealloc(w->out, (w->n + 1) * sizeof(*w->out));
	w->out[w->n].mod = m;
	w->out[w->n].soft = soft;
	w->n++;
}

int
moddep_closure(struct moddep *d, const char *const *want, size_t nwant,
    struct moddep_load **out, size_t *n, char **cause)
{
	struct walk	 w;
	char		*name;
	size_t		 i;

	memset(&w, 0, sizeof(w));
	w.d = d;
	for (i = 0; i < d->nmods; i++)
		d->mods[i].mark = 0;
	for (i = 0; i < nwant; i++) {
		name = normal(want[i], strlen(want[i]));
		if (!visit_name(&w, name, 0) && !moddep_is_builtin(d, name))
			note_missing(&w, want[i]);
		free(name);
	}
	*out = NULL;
	*n = 0;
	if (w.missing != NULL) {
		errorf(cause, "modules missing: %s: neither a module of "
		    "the tree nor built into the kernel", w.missing);
		free(w.missing);
		free(w.out);
		return -1;
	}
	*out = w.out;
	*n = w.n;
	return 0;
}
