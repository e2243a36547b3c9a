/*
 * Error messages handed back to main.c, and allocation that cannot fail:
 * at start-up it aborts; while a test file exists the run installs a
 * handler that removes the file and exits 1 instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static void	(*nomem_handler)(void);

void
error_on_nomem(void (*fn)(void))
{
	nomem_handler = fn;
}

static void
nomem(void)
{
	if (nomem_handler != NULL)
		nomem_handler();
	fputs("bonnie-ng: out of memory\n", stderr);
	abort();
}

static char	*xvasprintf(const char *, va_list)
		    __attribute__((format(printf, 1, 0)));

/* vasprintf(3) from C11 and POSIX alone. */
static char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 ap2;
	char	*s;
	int	 n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		nomem();
	s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

int
verrorf(char **cause, const char *fmt, va_list ap)
{
	if (cause == NULL)
		return -1;
	free(*cause);
	*cause = xvasprintf(fmt, ap);
	return -1;
}

int
errorf(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verrorf(cause, fmt, ap);
	va_end(ap);
	return -1;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void	*q = realloc(p, n ? n : 1);

	if (q == NULL)
		nomem();
	return q;
}

char *
xstrdup(const char *s)
{
	char	*p = strdup(s);

	if (p == NULL)
		nomem();
	return p;
}
