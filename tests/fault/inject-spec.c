/*
 * The fault injector's specs (tests/fault/inject.c says what BN_FAULT
 * holds): each read from its text, and said in the log's words.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"

const char *const kind_names[K_COUNT] = {
	"open", "read", "write", "pread", "pwrite", "fsync", "fdatasync",
	"close", "putc", "getc", "fflush", "fclose", "unlink", "fork",
	"thread", "pipe", "cpuclock"
};

static const struct {
	const char	*name;
	int		 value;
} errnos[] = {
	{ "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EFBIG", EFBIG },
	{ "EDQUOT", EDQUOT }, { "EROFS", EROFS }, { "EINTR", EINTR },
	{ "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM }, { "EBADF", EBADF },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EMFILE", EMFILE },
	{ "ENOENT", ENOENT }, { "EINVAL", EINVAL }, { "EEXIST", EEXIST },
};

/* The real functions, found lazily so a hook works even before init. */

static int
parse_errno(const char *s, int *err)
{
	char		*end;
	long		 v;
	size_t		 i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++) {
		if (strcmp(s, errnos[i].name) == 0) {
			*err = errnos[i].value;
			return 0;
		}
	}
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || v <= 0 || v > 4095)
		return -1;
	*err = (int)v;
	return 0;
}

/* Parse one KIND:COUNT:ACTION into s; 0 or -1. */
int
parse_spec(char *text, struct spec *s)
{
	char	*kind, *count, *act, *end, *at;
	int	 k;

	kind = text;
	if ((count = strchr(kind, ':')) == NULL)
		return -1;
	*count++ = '\0';
	if ((act = strchr(count, ':')) == NULL)
		return -1;
	*act++ = '\0';

	for (k = 0; k < K_COUNT; k++)
		if (strcmp(kind, kind_names[k]) == 0)
			break;
	if (k == K_COUNT)
		return -1;
	s->kind = (enum kind)k;

	s->first = strtoul(count, &end, 10);
	if (end == count || s->first == 0)
		return -1;
	s->every = 0;
	if (*end == '+') {
		if (end[1] == '\0')
			s->every = 1;
		else {
			count = end + 1;
			s->every = strtoul(count, &end, 10);
			if (end == count || s->every == 0)
				return -1;
		}
	}
	if (*end != '\0' && !(*end == '+' && end[1] == '\0'))
		return -1;

	s->at_least = -1;
	/* wait=PATH keeps its '@'s: a path may hold them. */
	if (strncmp(act, "wait=", 5) != 0 && (at = strchr(act, '@')) != NULL) {
		*at++ = '\0';
		s->at_least = strtoll(at, &end, 10);
		if (end == at || *end != '\0' || s->at_least < 0)
			return -1;
	}
	if (strcmp(act, "short") == 0)
		s->action = A_SHORT;
	else if (strcmp(act, "flip") == 0)
		s->action = A_FLIP;
	else if (strcmp(act, "zero") == 0)
		s->action = A_ZERO;
	else if (strcmp(act, "hole") == 0)
		s->action = A_HOLE;
	else if (strcmp(act, "hold") == 0)
		s->action = A_HOLD;
	else if (strncmp(act, "scale=", 6) == 0) {
		s->action = A_SCALE;
		s->delta = strtoll(act + 6, &end, 10);
		if (end == act + 6 || *end != '\0' || s->delta < 1)
			return -1;
	}
	else if (strncmp(act, "other=", 6) == 0 ||
	    strncmp(act, "misdirect=", 10) == 0) {
		s->action = act[0] == 'o' ? A_OTHER : A_MISDIRECT;
		act = strchr(act, '=') + 1;
		s->delta = strtoll(act, &end, 10);
		if (end == act || *end != '\0' || s->delta == 0)
			return -1;
	}
	else if (strcmp(act, "eof") == 0)
		s->action = A_EOF;
	else if (strncmp(act, "wait=", 5) == 0) {
		s->action = A_SLEEP;
		if (act[5] == '\0' ||
		    strlen(act + 5) >= sizeof(s->wait))
			return -1;
		memcpy(s->wait, act + 5, strlen(act + 5) + 1);
	} else if (strncmp(act, "sleep=", 6) == 0) {
		s->action = A_SLEEP;
		s->usec = strtol(act + 6, &end, 10);
		if (end == act + 6 || *end != '\0' || s->usec < 0)
			return -1;
	} else {
		s->action = A_ERRNO;
		if (parse_errno(act, &s->err) == -1)
			return -1;
	}
	return 0;
}

const char *
action_text(const struct spec *s, char *buf, size_t len)
{
	switch (s->action) {
	case A_ERRNO:
		snprintf(buf, len, "errno=%d", s->err);
		break;
	case A_SHORT:
		snprintf(buf, len, "short");
		break;
	case A_EOF:
		snprintf(buf, len, "eof");
		break;
	case A_SLEEP:
		if (s->wait[0] != '\0')
			snprintf(buf, len, "wait");
		else
			snprintf(buf, len, "sleep=%ld", s->usec);
		break;
	case A_FLIP:
		snprintf(buf, len, "flip");
		break;
	case A_ZERO:
		snprintf(buf, len, "zero");
		break;
	case A_OTHER:
		snprintf(buf, len, "other=%lld", s->delta);
		break;
	case A_HOLE:
		snprintf(buf, len, "hole");
		break;
	case A_MISDIRECT:
		snprintf(buf, len, "misdirect=%lld", s->delta);
		break;
	case A_HOLD:
		snprintf(buf, len, "hold");
		break;
	case A_SCALE:
		snprintf(buf, len, "scale=%lld", s->delta);
		break;
	}
	return buf;
}
