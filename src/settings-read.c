/*
 * A record read back by the settings table (settings.h): each row's key
 * as text, whatever the reader.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "error.h"
#include "jsonparse.h"
#include "settings.h"

/* The value at a dotted key ("target.device.name"), or NULL. */
static const struct jv *
at_key(const struct jv *v, const char *key)
{
	char		 part[64];
	const char	*dot;
	size_t		 n;

	while (v != NULL && (dot = strchr(key, '.')) != NULL) {
		n = (size_t)(dot - key);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, key, n);
		part[n] = '\0';
		v = jv_get(v, part);
		key = dot + 1;
	}
	return jv_get(v, key);
}

/* A scalar, or an array of them, as text; NULL for null or an object. */
static char *
as_text(const struct jv *v)
{
	char	*s, *t;
	size_t	 i;

	if (v == NULL)
		return NULL;
	switch (v->type) {
	case JV_NULL:
	case JV_OBJECT:
		return NULL;
	case JV_BOOL:
		return xstrdup(v->b ? "true" : "false");
	case JV_NUMBER:
		if (v->n == (double)(int64_t)v->n)
			return xasprintf("%lld", (long long)v->n);
		return xasprintf("%.17g", v->n);
	case JV_STRING:
		return *v->s != '\0' ? xstrdup(v->s) : NULL;
	case JV_ARRAY:
		s = xstrdup("");
		for (i = 0; i < v->len; i++) {
			char	*one = as_text(&v->items[i]);

			t = xasprintf("%s%s%s", s, i > 0 ? "," : "",
			    one != NULL ? one : "null");
			free(one);
			free(s);
			s = t;
		}
		return s;
	}
	return NULL;
}

void
settings_read(const struct jv *root, char **value, char **phase_value)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];
	const struct jv			*v;
	char				 key[96];
	int				 i, n;


	for (i = 0; i < SET_COUNT; i++) {
		if (settings_table[i].key == NULL)
			continue;
		v = at_key(root, settings_table[i].key);
		/* An option's text recorded as null was not given. */
		if (v != NULL && v->type == JV_NULL &&
		    settings_table[i].type == TYPE_STR)
			value[i] = xstrdup("none");
		else
			value[i] = as_text(v);
	}
	n = settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "options.%s", rows[i]->name);
		phase_value[i] = as_text(at_key(root, key));
	}
}

uint64_t
settings_u64(char *const *value, enum setting_id id)
{
	const char		*s = value[id];
	char			*end;
	unsigned long long	 n;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	n = strtoull(s, &end, 10);
	return *end == '\0' ? (uint64_t)n : 0;
}

char *
settings_dup(char *const *value, enum setting_id id)
{
	return value[id] != NULL ? xstrdup(value[id]) : NULL;
}

