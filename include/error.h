/*
 * Error propagation: functions return 0 or -1 and hand a message back
 * through a char **cause, which only main.c prints.
 */
#ifndef BONNIE_ERROR_H
#define BONNIE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Store a newly allocated message in *cause (if cause is not NULL) and
 * return -1, so that a failure reads "return errorf(cause, ...);".
 */
int	errorf(char **cause, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	verrorf(char **cause, const char *fmt, va_list)
	    __attribute__((format(printf, 2, 0)));

/*
 * Like asprintf(3), malloc(3) ..., but never return NULL: on memory
 * exhaustion they call the handler set with error_on_nomem() (which must
 * not return), or print "out of memory" and abort when none is set.
 */
void	error_on_nomem(void (*)(void));
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
char	*xstrdup(const char *);

#endif
