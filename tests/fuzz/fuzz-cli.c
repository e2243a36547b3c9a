/*
 * libFuzzer harness for the run command's parse, cmd_run_parse() (the one
 * parser, args_parse(), over the run command's rows): the input is a
 * command line, its words separated by NUL bytes (at most CLI_MAX_WORDS
 * words of at most CLI_MAX_WORD bytes), after "bonnie-ng".  The answer is
 * one of the four documented values; a refusal has a one-line message
 * (unless a word itself holds a newline: messages quote values); an
 * accepted command line gives options that keep every invariant
 * options_check() promises.
 *
 * The same words go to every other command's parse too (compare, report,
 * sweep): the answer is one of the five documented values, and a refusal
 * (or the line before a usage) is one line.
 *
 * The parser must keep no state between calls (getopt_long(), which the
 * run command once used, did: "-hs1" gave the help the first time and a
 * run the second), so each input is parsed a second time, from a copy of
 * the words, and both answers must be the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "commands.h"
#include "options.h"
#include "settings.h"
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
	if (o->seeks < 1 || o->seeks > MAX_SEEKS)
		abort();
	if (o->dir == NULL || o->dir[0] == '\0')
		abort();
	if (o->label != NULL && (o->label[0] == '\0' ||
	    strpbrk(o->label, " \t\n\r\v\f,") != NULL))
		abort();
	if (o->json_path != NULL && o->json_path[0] == '\0')
		abort();
}

/* The input's words, in new strings; returns how many. */
static int
cli_split(const uint8_t *data, size_t size, char **words, int *newline)
{
	const uint8_t	*p = data, *end = data + size, *nul;
	size_t		 len;
	int		 n = 0;

	/* A trailing NUL does not start an empty word. */
	while (p < end && n < CLI_MAX_WORDS) {
		nul = memchr(p, '\0', (size_t)(end - p));
		len = (size_t)((nul != NULL ? nul : end) - p);
		if (len > CLI_MAX_WORD)
			len = CLI_MAX_WORD;
		if ((words[n] = malloc(len + 1)) == NULL)
			abort();
		memcpy(words[n], p, len);
		words[n][len] = '\0';
		if (memchr(words[n], '\n', len) != NULL)
			*newline = 1;
		n++;
		p = nul != NULL ? nul + 1 : end;
	}
	return n;
}

/*
 * Parse the words as a command line into o and check the answer; returns
 * it, with the message (or NULL) in *cause.
 */
static int
cli_parse(char **words, int nwords, int newline, struct options *o,
    char **cause)
{
	char	*argv[CLI_MAX_WORDS + 2];
	int	 i, r;

	argv[0] = (char *)"bonnie-ng";
	for (i = 0; i < nwords; i++)
		argv[i + 1] = words[i];
	argv[nwords + 1] = NULL;

	settings_defaults(o);
	*cause = NULL;
	r = cmd_run_parse(nwords + 1, argv, o, cause);
	switch (r) {
	case ARGS_OK:
		if (*cause != NULL)
			abort();
		cli_check_options(o);
		break;
	case ARGS_SHOW_HELP:
	case ARGS_SHOW_VERSION:
		if (*cause != NULL)
			abort();
		break;
	case ARGS_ERROR:
		if (*cause == NULL || (*cause)[0] == '\0')
			abort();
		if (!newline && strchr(*cause, '\n') != NULL)
			abort();
		break;
	default:
		abort();
	}
	return r;
}

/* The words as any other command's line: only the shape of the answer. */
static void
cli_parse_others(char **words, int nwords, int newline)
{
	char	*argv[CLI_MAX_WORDS + 2], *files[CLI_MAX_WORDS + 2];
	char	*cause;
	void	*state;
	int	 c, i, n;

	for (c = 0; cmd_table[c] != NULL; c++) {
		if (cmd_table[c]->spec.command == NULL)
			continue;
		argv[0] = (char *)cmd_table[c]->spec.command;
		for (i = 0; i < nwords; i++)
			argv[i + 1] = words[i];
		argv[nwords + 1] = NULL;
		if ((state = calloc(1, cmd_table[c]->size)) == NULL)
			abort();
		cause = NULL;
		n = -1;
		switch (cmd_parse(cmd_table[c], nwords + 1, argv, state, files,
		    &n, &cause)) {
		case ARGS_OK:
			if (cause != NULL || n < cmd_table[c]->spec.lower ||
			    (cmd_table[c]->spec.upper >= 0 &&
			    n > cmd_table[c]->spec.upper))
				abort();
			break;
		case ARGS_SHOW_HELP:
			if (cause != NULL)
				abort();
			break;
		case ARGS_ERROR:
		case ARGS_SHOW_USAGE:
			if (cause == NULL || cause[0] == '\0')
				abort();
			if (!newline && strchr(cause, '\n') != NULL)
				abort();
			break;
		default:
			abort();
		}
		free(cause);
		if (cmd_table[c]->fini != NULL)
			cmd_table[c]->fini(state);
		free(state);
	}
}

static int
cli_same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options	 o1, o2;
	char		*w1[CLI_MAX_WORDS], *w2[CLI_MAX_WORDS];
	char		*c1, *c2;
	int		 n, newline = 0, r1, r2, i;

	n = cli_split(data, size, w1, &newline);
	cli_split(data, size, w2, &newline);
	r1 = cli_parse(w1, n, newline, &o1, &c1);
	r2 = cli_parse(w2, n, newline, &o2, &c2);
	if (r1 != r2 || !cli_same_str(c1, c2))
		abort();
	if (r1 == 0 && (o1.size != o2.size || o1.chunk != o2.chunk ||
	    o1.seekers != o2.seekers || o1.seeks != o2.seeks ||
	    o1.phases != o2.phases || o1.repeat != o2.repeat ||
	    o1.seed != o2.seed || o1.ram != o2.ram ||
	    o1.format != o2.format || o1.cache != o2.cache ||
	    o1.seeker_mode != o2.seeker_mode || o1.direct != o2.direct ||
	    o1.quiet != o2.quiet || o1.latency != o2.latency ||
	    !cli_same_str(o1.dir, o2.dir) ||
	    !cli_same_str(o1.label, o2.label) ||
	    !cli_same_str(o1.json_path, o2.json_path)))
		abort();
	free(c1);
	free(c2);
	cli_parse_others(w1, n, newline);
	for (i = 0; i < n; i++) {
		free(w1[i]);
		free(w2[i]);
	}
	return 0;
}
