/*
 * The setters of the settings table's option rows: each calls its value's
 * one check in options.c and stores into the struct options (a command's
 * rows say where in its state that is).
 */
#include <stdint.h>

#include "args.h"
#include "options.h"
#include "phase.h"
#include "settings-set.h"
#include "timeline.h"

#define O(t)		((struct options *)(t))

int
settings_set_dir(void *t, const struct args_option *r, const char *v,
    char **why)
{
	if (args_set_string(t, r, v, why) == -1)
		return -1;
	O(t)->dir_given = 1;
	return 0;
}

int
settings_set_label(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (label_check(v, why) == -1)
		return -1;
	O(t)->label = v;
	return 0;
}

int
settings_set_seekers(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return seekers_parse(v, t, why);
}

int
settings_set_seeks(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (seeks_parse(v, &O(t)->seeks, why) == -1)
		return -1;
	O(t)->seeks_given = 1;
	return 0;
}

int
settings_set_seed(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (seed_parse(v, &O(t)->seed, why) == -1)
		return -1;
	O(t)->seed_given = 1;
	return 0;
}

int
settings_set_phases(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	O(t)->phases_given = 1;
	return phases_parse(v, &O(t)->phases, why);
}

int
settings_set_cache(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return cache_mode_parse(v, &O(t)->cache, why);
}

int
settings_set_ram(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (ram_parse(v, &O(t)->ram, why) == -1)
		return -1;
	O(t)->ram_given = 1;
	return 0;
}

int
settings_set_lock_mem(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return lock_mem_parse(v, t, why);
}

int
settings_set_size(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (file_size_parse(v, &O(t)->size_asked, why) == -1)
		return -1;
	O(t)->size = O(t)->size_asked;
	O(t)->size_given = 1;
	return 0;
}

int
settings_set_chunk(void *t, const struct args_option *r, const char *v,
    char **why)
{
	uint64_t	c;

	(void)r;
	if (chunk_parse(v, &c, why) == -1)
		return -1;
	O(t)->chunk = (size_t)c;
	return 0;
}

int
settings_set_jobs(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return jobs_parse(v, &O(t)->jobs, why);
}

int
settings_set_iodepth(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return iodepth_parse(v, &O(t)->iodepth, why);
}

int
settings_set_files(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return files_parse(v, t, why);
}

int
settings_set_repeat(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	if (repeat_parse(v, &O(t)->repeat, why) == -1)
		return -1;
	O(t)->repeat_given = 1;
	return 0;
}

int
settings_set_interval(void *t, const struct args_option *r, const char *v,
    char **why)
{
	double	sec;

	(void)r;
	if (timeline_interval_parse(v, &sec, why) == -1)
		return -1;
	O(t)->interval_ms = (int)(sec * 1000 + 0.5);
	return 0;
}

int
settings_set_output(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return out_format_parse(v, &O(t)->format, why);
}

int
settings_set_csv_format(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return csv_layout_parse(v, &O(t)->csv_layout, why);
}

int
settings_set_verify(void *t, const struct args_option *r, const char *v,
    char **why)
{
	(void)r;
	return verify_mode_parse(v, &O(t)->verify, why);
}

