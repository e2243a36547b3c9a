/*
 * libFuzzer harness for options_parse(): the input is a command line, its
 * words separated by NUL bytes (at most CLI_MAX_WORDS words of at most
 * CLI_MAX_WORD bytes), after "bonnie-ng".  The answer is one of the four
 * documented values; a refusal has a one-line message (unless a word
 * itself holds a newline: messages quote values); an accepted command
 * line gives options that keep every invariant options_check() promises.
 *
 * getopt_long() keeps state between calls (glibc remembers where it was
 * inside a group of short options such as "-hq").  options_parse() sets
 * optind = 0, which glibc, musl and the BSDs all take as "start again from
 * scratch", so that it may be called once per input; the harness sets
 * optind = 0 as well, for a getopt that some other code left mid-scan.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "result.h"

#define CLI_MAX_WORDS	32
#define CLI_MAX_WORD	256

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check what an accepted command line left in o; abort() if wrong. */
static void
cli_check_options(const struct options *o)
{
	if (o->chunk < MIN_CHUNK || o->chunk > MAX_CHUNK ||
	    (o->chunk & (o->chunk - 1)) != 0)
		abort();
	if (o->size < o->chunk || o->size % o->chunk != 0 ||
	    o->size > o->size_asked)
		abort();
	if (o->seekers < 1 || o->seekers > MAX_SEEKERS)
		abort();
	if (o->phases == 0 || (o->phases & ~((1u << PH_COUNT) - 1)) != 0)
		abort();
	if (o->repeat < 1 || o->repeat > 1000)
		abort();
	if (o->seeks < 1)
		abort();
	if (o->dir == NULL || o->dir[0] == '\0')
		abort();
	if (o->label != NULL && (o->label[0] == '\0' ||
	    strpbrk(o->label, " \t\n\r\v\f,") != NULL))
		abort();
	if (o->json_path != NULL && o->json_path[0] == '\0')
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options	 o;
	char		*words[CLI_MAX_WORDS + 1], *argv[CLI_MAX_WORDS + 2];
	char		*cause = NULL;
	const uint8_t	*p = data, *end = data + size, *nul;
	size_t		 len;
	int		 argc, nwords = 0, newline = 0, r, i;

	/* Split on NUL; a trailing NUL does not start an empty word. */
	while (p < end && nwords < CLI_MAX_WORDS) {
		nul = memchr(p, '\0', (size_t)(end - p));
		len = (size_t)((nul != NULL ? nul : end) - p);
		if (len > CLI_MAX_WORD)
			len = CLI_MAX_WORD;
		if ((words[nwords] = malloc(len + 1)) == NULL)
			break;
		memcpy(words[nwords], p, len);
		words[nwords][len] = '\0';
		if (memchr(words[nwords], '\n', len) != NULL)
			newline = 1;
		nwords++;
		p = nul != NULL ? nul + 1 : end;
	}

	/* getopt_long() permutes argv: keep words[] for freeing. */
	argv[0] = (char *)"bonnie-ng";
	for (i = 0; i < nwords; i++)
		argv[i + 1] = words[i];
	argv[nwords + 1] = NULL;
	argc = nwords + 1;

	options_defaults(&o);
	optind = 0;
	r = options_parse(argc, argv, &o, &cause);
	switch (r) {
	case 0:
		if (cause != NULL)
			abort();
		cli_check_options(&o);
		break;
	case OPTIONS_HELP:
	case OPTIONS_VERSION:
		if (cause != NULL)
			abort();
		break;
	case -1:
		if (cause == NULL || cause[0] == '\0')
			abort();
		if (!newline && strchr(cause, '\n') != NULL)
			abort();
		break;
	default:
		abort();
	}
	free(cause);
	for (i = 0; i < nwords; i++)
		free(words[i]);
	return 0;
}
