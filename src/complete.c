/*
 * Shell completion from the option rows (see complete.h).  What a value
 * may be comes from the row: a value spelled "a|b|c" in the usage offers
 * those of a, b and c that the row's own setter accepts (so "count" in
 * "count|fork|thread" is never offered), "dir" directories, "file" files,
 * "phases" a comma-separated list of the phase table's names; anything
 * else (sizes, counts, labels) is left free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "commands.h"
#include "complete.h"
#include "error.h"
#include "phase.h"

/* A row and the table it sits in (its setter's target). */
struct found {
	const struct args_table		*table;
	const struct args_option	*row;
};

static int
row_end(const struct args_option *r)
{
	return r->letter == 0 && r->name == NULL;
}

/* The row a long name, or an unambiguous prefix of one, names. */
static struct found
find_long(const struct args_table *t, const char *name, size_t len)
{
	const struct args_option	*r;
	struct found			 f = { NULL, NULL }, none = { NULL, NULL };
	int				 n = 0;

	for (; t->rows != NULL; t++)
		for (r = t->rows; !row_end(r); r++) {
			if (r->name == NULL || strncmp(r->name, name, len) != 0)
				continue;
			f.table = t;
			f.row = r;
			if (r->name[len] == '\0')
				return f;
			n++;
		}
	return n == 1 ? f : none;
}

static struct found
find_short(const struct args_table *t, int letter)
{
	const struct args_option	*r;
	struct found			 f = { NULL, NULL };

	for (; t->rows != NULL; t++)
		for (r = t->rows; !row_end(r); r++)
			if (r->letter == letter) {
				f.table = t;
				f.row = r;
				return f;
			}
	return f;
}

static int
takes_value(struct found f)
{
	return f.row != NULL && f.row->kind == ARGS_VALUE;
}

/* Does the row's setter take this value? */
static int
accepts(struct found f, const char *value)
{
	char	*why = NULL;
	int	 ok;

	if (f.row->set == NULL)
		return 0;
	ok = f.row->set(f.table->target, f.row, value, &why) == 0;
	free(why);
	return ok;
}

static int
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Offer pre, head and word, when the row takes head and word. */
static void
offer(FILE *out, struct found f, const char *pre, const char *head,
    size_t headlen, const char *word, size_t len)
{
	char	*v;

	v = xasprintf("%.*s%.*s", (int)headlen, head, (int)len, word);
	if (accepts(f, v))
		fprintf(out, "%s%s\n", pre, v);
	free(v);
}

/* Whether name is one of the first len bytes of list, a list "a,b,". */
static int
listed(const char *list, size_t len, const char *name)
{
	size_t	n = strlen(name);
	const char *p = list, *end = list + len, *comma;

	for (; p < end; p = comma + 1) {
		if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
			comma = end;
		if ((size_t)(comma - p) == n && memcmp(p, name, n) == 0)
			return 1;
	}
	return 0;
}

/* The values of row f that start with cur, each after pre ("--x="). */
static void
complete_value(FILE *out, struct found f, const char *pre, const char *cur)
{
	const char	*v = f.row->value != NULL ? f.row->value : "";
	const char	*w, *end, *tail;
	size_t		 headlen;
	int		 i;

	if (strcmp(v, "dir") == 0) {
		fputs("dirs\n", out);
		return;
	}
	if (strcmp(v, "file") == 0) {
		fputs("files\n", out);
		return;
	}
	if (strcmp(v, "phases") == 0) {
		/* The last name of the list is the one completed. */
		tail = strrchr(cur, ',');
		tail = tail != NULL ? tail + 1 : cur;
		headlen = (size_t)(tail - cur);
		fputs("words\n", out);
		for (i = 0; phase_table[i] != NULL; i++)
			if (starts_with(phase_table[i]->name, tail) &&
			    !listed(cur, headlen, phase_table[i]->name))
				offer(out, f, pre, cur, headlen,
				    phase_table[i]->name,
				    strlen(phase_table[i]->name));
		if (headlen == 0 && starts_with("all", tail))
			offer(out, f, pre, cur, 0, "all", 3);
		return;
	}
	if (strchr(v, '|') == NULL) {
		fputs("none\n", out);
		return;
	}
	fputs("words\n", out);
	for (w = v; *w != '\0'; w = *end == '|' ? end + 1 : end) {
		end = w + strcspn(w, "|");
		if ((size_t)(end - w) >= strlen(cur) &&
		    strncmp(w, cur, strlen(cur)) == 0)
			offer(out, f, pre, "", 0, w, (size_t)(end - w));
	}
}

/* The options that start with cur ("-" or "--..."). */
static void
complete_option(FILE *out, const struct args_table *t, const char *cur)
{
	const struct args_option	*r;

	fputs("words\n", out);
	for (; t->rows != NULL; t++)
		for (r = t->rows; !row_end(r); r++) {
			if (r->name != NULL && (cur[1] == '\0' ||
			    starts_with(r->name, cur + 2)))
				fprintf(out, "--%s%s\n", r->name,
				    r->kind == ARGS_VALUE ? "=" : "");
			if (r->letter != 0 && cur[1] == '\0')
				fprintf(out, "-%c\n", r->letter);
		}
}

/* Complete the last of words[0 .. n-1] for command e. */
static void
complete_command(FILE *out, const struct cmd_entry *e,
    const struct args_table *t, int n, char **words)
{
	struct found	 f, pending = { NULL, NULL };
	const char	*w, *cur, *eq;
	char		*pre;
	int		 i, operands = 0;

	/* Is the current word the value of an option before it? */
	for (i = 0; i < n - 1; i++) {
		w = words[i];
		if (pending.row != NULL) {
			pending.row = NULL;
			continue;
		}
		if (operands || w[0] != '-' || w[1] == '\0')
			continue;
		if (strcmp(w, "--") == 0) {
			operands = 1;
			continue;
		}
		if (w[1] == '-') {
			f = find_long(t, w + 2, strlen(w + 2));
			if (strchr(w, '=') == NULL && takes_value(f))
				pending = f;
			continue;
		}
		/* Grouped short flags; one with a value ends the group. */
		for (w++; *w != '\0'; w++) {
			f = find_short(t, *w);
			if (takes_value(f)) {
				if (w[1] == '\0')
					pending = f;
				break;
			}
		}
	}
	cur = words[n - 1];

	if (pending.row != NULL)
		complete_value(out, pending, "", cur);
	else if (!operands && starts_with(cur, "--") &&
	    (eq = strchr(cur, '=')) != NULL) {
		f = find_long(t, cur + 2, (size_t)(eq - cur - 2));
		if (!takes_value(f)) {
			fputs("none\n", out);
			return;
		}
		pre = xasprintf("%.*s", (int)(eq + 1 - cur), cur);
		complete_value(out, f, pre, eq + 1);
		free(pre);
	} else if (!operands && cur[0] == '-') {
		if (cur[1] != '-' && cur[1] != '\0')
			fputs("none\n", out);	/* "-s4": a value. */
		else
			complete_option(out, t, cur);
	} else if (e->spec.upper != 0)
		fputs("files\n", out);		/* compare's, report's files */
	else
		fputs("none\n", out);
}

int
complete_words(FILE *out, int n, char **words)
{
	const struct cmd_entry	*e;
	struct args_table	 t[CMD_MAX_TABLES];
	static char		 empty[] = "";
	static char		*none[] = { empty };
	char			*argv0[] = { empty, NULL };
	void			*state;
	int			 i;

	if (n > 0 && strcmp(words[0], "--") == 0) {
		n--;
		words++;
	}
	if (n == 0) {
		n = 1;
		words = none;
	}
	/* The first word: a command, or the default command's options. */
	if (n == 1 && words[0][0] != '-') {
		fputs("words\n", out);
		for (i = 0; cmd_table[i] != NULL; i++)
			if (cmd_table[i]->spec.command != NULL &&
			    starts_with(cmd_table[i]->spec.command, words[0]))
				fprintf(out, "%s\n", cmd_table[i]->spec.command);
		return 0;
	}
	if (n > 1 && (e = cmd_find(words[0])) != NULL) {
		n--;
		words++;
	} else
		e = cmd_table[0];
	/* bonnie-ng vm ... -- RUN OPTIONS: run's, after the "--". */
	for (i = 0; (e->flags & CMD_RUN_OPERANDS) && i < n - 1; i++)
		if (strcmp(words[i], "--") == 0) {
			e = &cmd_run_entry;
			words += i + 1;
			n -= i + 1;
			break;
		}

	/* A scratch state for the setters that check the values. */
	state = xcalloc(1, e->size);
	e->init(state, 1, argv0);
	cmd_tables(e, phase_table, state, t);
	complete_command(out, e, t, n, words);
	free(state);
	return 0;
}
