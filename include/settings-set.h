/*
 * The setters of the settings table's option rows (settings.h): each
 * checks its value with its one check in options.c and stores it in the
 * struct options the row's command hands it (args.h's args_set_fn).
 */
#ifndef BONNIE_SETTINGS_SET_H
#define BONNIE_SETTINGS_SET_H

#include "args.h"

int	settings_set_dir(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_label(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_seekers(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_seeks(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_seed(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_phases(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_cache(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_ram(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_lock_mem(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_size(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_chunk(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_jobs(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_iodepth(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_interval(void *, const struct args_option *,
	    const char *, char **why);
int	settings_set_files(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_repeat(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_output(void *, const struct args_option *, const char *,
	    char **why);
int	settings_set_csv_format(void *, const struct args_option *,
	    const char *, char **why);
int	settings_set_verify(void *, const struct args_option *, const char *,
	    char **why);

#endif
