/*
 * The settings that shape the work, hashed (include/setdigest.h).  The
 * values are the record's own: the options object is written as the
 * record writes it and read back as compare reads it, so that what the
 * ranks compare is what a record of each would say.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jsonparse.h"
#include "options.h"
#include "setdigest.h"
#include "settings.h"

/*
 * Does row id shape the work (and so must match from rank to rank)?
 * Every key of the record's options that compare lists (RULE_MATCH or
 * RULE_INFO), whether or not the row has an option of its own: -S's
 * "fork" or "thread" is such a fact (options.seeker_mode), and was let
 * through while only the rows with an option were asked.  A part of a
 * setting (RULE_PART) is compared as its whole; output, the seed and the
 * like are not settings (RULE_NONE).
 */
int
setdigest_compared(int id)
{
	const struct setting	*s = &settings_table[id];

	if (s->key == NULL || strncmp(s->key, "options.", 8) != 0)
		return 0;
	if (s->rule != RULE_MATCH && s->rule != RULE_INFO)
		return 0;
	return id != SET_DIR && id != SET_LABEL;
}

static uint64_t
fnv1a(const char *s)
{
	uint64_t	h = 0xcbf29ce484222325ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	/* Never 0, which stands for "not compared". */
	return h != 0 ? h : 1;
}

int
setdigest_make(const struct options *o, uint64_t digest[SETDIGEST_N])
{
	char		*buf = NULL, *value[SET_COUNT];
	char		*phase_value[SETTINGS_PHASE_MAX];
	struct settings_ctx c;
	struct json	 j;
	struct jv	*root = NULL;
	size_t		 len = 0;
	FILE		*f;
	char		*why = NULL;
	int		 i, line;

	memset(digest, 0, SETDIGEST_N * sizeof(digest[0]));
	if ((f = open_memstream(&buf, &len)) == NULL)
		return -1;
	json_init(&j, f, 0);
	json_object_start(&j, NULL);
	c.opt = o;
	c.si = NULL;
	c.lock_held = -1;
	settings_write(&j, "options", &c);
	json_object_end(&j);
	if (json_finish(&j) == -1 || fclose(f) == EOF ||
	    jv_parse(buf, len, &root, &line, &why) == -1) {
		free(buf);
		free(why);
		return -1;
	}
	free(buf);
	memset(value, 0, sizeof(value));
	memset(phase_value, 0, sizeof(phase_value));
	settings_read(root, value, phase_value);
	jv_free(root);
	for (i = 0; i < SET_COUNT; i++) {
		if (setdigest_compared(i))
			digest[i] = fnv1a(value[i] != NULL ? value[i] : "");
		free(value[i]);
	}
	for (i = 0; i < SETTINGS_PHASE_MAX; i++) {
		if (phase_value[i] != NULL)
			digest[SET_COUNT + i] = fnv1a(phase_value[i]);
		free(phase_value[i]);
	}
	return 0;
}

void
setdigest_name(int index, char *buf, size_t len)
{
	const struct args_option	*rows[SETTINGS_PHASE_MAX];
	int				 n;

	if (index >= 0 && index < SET_COUNT) {
		if (settings_table[index].opt.name != NULL)
			snprintf(buf, len, "--%s",
			    settings_table[index].opt.name);
		else
			snprintf(buf, len, "%s",
			    settings_name((enum setting_id)index));
		return;
	}
	n = settings_phase_rows(rows, SETTINGS_PHASE_MAX);
	if (index - SET_COUNT < n)
		snprintf(buf, len, "--%s", rows[index - SET_COUNT]->name);
	else
		snprintf(buf, len, "a setting");
}
