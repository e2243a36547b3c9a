/*
 * What is made from the settings table (settings.h) for the commands: the
 * check of the table at start, the option rows of run, sweep and pp with
 * each default in its help, the defaults themselves, and a row found by
 * its record key.  The record's objects are written by settings.c, next
 * to the table.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "error.h"
#include "options.h"
#include "phase.h"
#include "settings.h"

static int
has_option(const struct setting *s)
{
	return s->opt.letter != 0 || s->opt.name != NULL;
}


/* A help line with its default, at most this long (checked at start). */
#define HELP_MAX	96

static const char *help_with_default(const struct setting *, const char *,
		    char *, size_t);

int
settings_table_check(char **cause)
{
	const struct setting	*s, *t;
	char			 help[HELP_MAX];
	int			 i, k;

	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		if (settings_name(i) == NULL)
			return errorf(cause, "setting %d: no row, or no name",
			    i);
		if ((s->rule == RULE_NONE || s->rule == RULE_PART) &&
		    s->why == NULL)
			return errorf(cause, "setting %s: no reason why it is "
			    "not a setting", settings_name(i));
		if (s->rule == RULE_PART && (s->part_of == (enum setting_id)i ||
		    settings_table[s->part_of].rule == RULE_PART ||
		    settings_table[s->part_of].rule == RULE_NONE))
			return errorf(cause, "setting %s: a part of no "
			    "setting", settings_name(i));
		if (has_option(s) != (s->scope != SCOPE_NONE))
			return errorf(cause, "setting %s: an option without a "
			    "scope, or a scope without an option",
			    settings_name(i));
		if (s->opt.help != NULL && strlen(help_with_default(s,
		    s->opt.help, help, sizeof(help))) + 1 >= sizeof(help))
			return errorf(cause, "setting %s: its help and default "
			    "are over %d bytes", settings_name(i),
			    HELP_MAX - 2);
		if (s->pp_letter > 0 && s->pp_help == NULL)
			return errorf(cause, "setting %s: bonnie++'s -%c has "
			    "no help", settings_name(i), s->pp_letter);
		for (k = 0; k < i; k++) {
			t = &settings_table[k];
			if (strcmp(settings_name(i), settings_name(k)) == 0 ||
			    (s->key != NULL &&
			    t->key != NULL && strcmp(s->key, t->key) == 0))
				return errorf(cause, "setting %s: its name or "
				    "key is another's", settings_name(i));
		}
	}
	return 0;
}

/* Enough for the most rows of one scope. */
#define ROWS_MAX	(SET_COUNT + 1)

static struct args_option	rows_made[SCOPE_PP + 1][ROWS_MAX];
static char			help_made[SCOPE_PP + 1][ROWS_MAX][HELP_MAX];
static int			rows_done[SCOPE_PP + 1];

/* The row's help with its default, in buf. */
static const char *
help_with_default(const struct setting *s, const char *help, char *buf,
    size_t len)
{
	char	num[32], words[64];

	/* A text's default is its own words. */
	if (s->defwords == NULL && s->type == TYPE_STR && s->sdef != NULL) {
		snprintf(buf, len, "%s (default: %s)", help, s->sdef);
		return buf;
	}
	if (s->defwords == NULL)
		return help;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)s->opt.def);
	if (strstr(s->defwords, "%s") != NULL) {
		const char	*p = strstr(s->defwords, "%s");

		snprintf(words, sizeof(words), "%.*s%s%s",
		    (int)(p - s->defwords), s->defwords, num, p + 2);
	} else
		snprintf(words, sizeof(words), "%s", s->defwords);
	snprintf(buf, len, "%s (default: %s)", help, words);
	return buf;
}

const struct args_option *
settings_rows(enum setting_scope scope)
{
	const struct setting	*s;
	struct args_option	*r;
	int			 i, n = 0;

	if (rows_done[scope])
		return rows_made[scope];
	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		r = &rows_made[scope][n];
		if (scope == SCOPE_PP) {
			if (s->pp_letter == 0)
				continue;
			*r = s->opt;
			r->letter = s->pp_letter > 0 ? s->pp_letter : 0;
			if (s->pp_letter > 0)
				r->name = NULL;
			if (s->pp_value != NULL)
				r->value = s->pp_value;
			r->help = help_with_default(s, s->pp_help != NULL ?
			    s->pp_help : s->opt.help,
			    help_made[scope][n], sizeof(help_made[0][0]));
			n++;
			continue;
		}
		if (s->scope != scope)
			continue;
		*r = s->opt;
		r->help = help_with_default(s, s->opt.help,
		    help_made[scope][n], sizeof(help_made[0][0]));
		n++;
	}
	memset(&rows_made[scope][n], 0, sizeof(rows_made[0][0]));
	rows_done[scope] = 1;
	return rows_made[scope];
}

uint64_t
settings_default(enum setting_id id)
{
	return settings_table[id].opt.def;
}


static void
set_default(struct options *o, const struct setting *s)
{
	char	*p = (char *)o + settings_slot(s);

	switch (s->type) {
	case TYPE_NONE:
	case TYPE_SI_STR:	/* The system's facts have no default. */
	case TYPE_SI_I64:
	case TYPE_SI_INT:
	case TYPE_SI_BOOL:
	case TYPE_DEV_STR:
	case TYPE_DEV_I64:
	case TYPE_DEV_BOOL:
	case TYPE_VM_I64:
	case TYPE_GUEST_STR:
	case TYPE_GUEST_I64:
		break;
	case TYPE_STR:
		*(const char **)(void *)p = s->sdef;
		break;
	case TYPE_U64:
		*(uint64_t *)(void *)p = s->opt.def;
		break;
	case TYPE_SIZE:
		*(size_t *)(void *)p = (size_t)s->opt.def;
		break;
	case TYPE_INT:
	case TYPE_BOOL:
		*(int *)(void *)p = (int)s->opt.def;
		break;
	}
}

void
settings_defaults(struct options *o)
{
	int	i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < SET_COUNT; i++)
		set_default(o, &settings_table[i]);
	/* The size is given in MiB; the cache, output and so on are 0. */
	o->size = o->size_asked = settings_default(SET_SIZE) << 20;
	o->phases = PH_DEFAULT_MASK;
	phase_option_defaults(phase_table, o);
}

void
settings_pp_defaults(struct options *o)
{
	const struct setting	*s;
	struct setting		 pp;
	int			 i;

	for (i = 0; i < SET_COUNT; i++) {
		s = &settings_table[i];
		if (s->pp_def == 0)
			continue;
		pp = *s;
		pp.opt.def = s->pp_def;
		set_default(o, &pp);
	}
}

int
settings_phase_rows(const struct args_option **rows, int max)
{
	const struct args_option	*r;
	int				 i, n = 0;

	for (i = 0; i < PH_COUNT; i++)
		for (r = phase_table[i]->options; r != NULL &&
		    (r->letter != 0 || r->name != NULL); r++)
			if (n < max)
				rows[n++] = r;
	return n;
}

int
settings_by_key(const char *key)
{
	int	i;

	for (i = 0; i < SET_COUNT; i++)
		if (settings_table[i].key != NULL &&
		    strcmp(settings_table[i].key, key) == 0)
			return i;
	return -1;
}
