/*
 * The request bonnie-ng vm writes on the mailbox disk and its guest reads
 * (include/vm-request.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "vm-request.h"

enum fact_type {
	FACT_STR,
	FACT_I64,
	FACT_WORDS		/* NUL-joined words, their length beside. */
};

/* The facts of struct sysinfo_guest, each once. */
static const struct fact {
	const char	*name;
	size_t		 off;
	enum fact_type	 type;
	size_t		 len_off;	/* FACT_WORDS: its length's. */
} facts[] = {
#define STR(f)	{ #f, offsetof(struct sysinfo_guest, f), FACT_STR, 0 }
#define I64(f)	{ #f, offsetof(struct sysinfo_guest, f), FACT_I64, 0 }
	STR(accel),
	STR(cpu),
	I64(vcpus),
	I64(memory_bytes),
	I64(disk_bytes),
	STR(disk_cache),
	STR(fs),
	STR(mkfs_options),
	STR(mount_options),
	STR(append),
	STR(qemu),
	STR(qemu_version),
	STR(kernel_image),
	STR(kernel_sha256),
	STR(host_kernel),
	{ "host_command", offsetof(struct sysinfo_guest, host_command),
	    FACT_WORDS, offsetof(struct sysinfo_guest, host_command_len) },
	I64(cell),
	I64(cells),
	I64(round),
#undef STR
#undef I64
};
#define NFACTS	(sizeof(facts) / sizeof(facts[0]))

static char **
str_at(struct sysinfo_guest *g, const struct fact *f)
{
	return (char **)(void *)((char *)g + f->off);
}

static int64_t *
i64_at(struct sysinfo_guest *g, size_t off)
{
	return (int64_t *)(void *)((char *)g + off);
}

void
vm_guest_facts_init(struct sysinfo_guest *g)
{
	size_t	i;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < NFACTS; i++)
		if (facts[i].type == FACT_I64)
			*i64_at(g, facts[i].off) = -1;
}

void
vm_guest_facts_free(struct sysinfo_guest *g)
{
	size_t	i;

	for (i = 0; i < NFACTS; i++)
		if (facts[i].type != FACT_I64)
			free(*str_at(g, &facts[i]));
	vm_guest_facts_init(g);
}

void
vm_request_init(struct vm_request *r)
{
	memset(r, 0, sizeof(*r));
	r->argv = xcalloc(1, sizeof(*r->argv));
	vm_guest_facts_init(&r->guest);
}

void
vm_request_free(struct vm_request *r)
{
	int	i;

	for (i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	vm_guest_facts_free(&r->guest);
	memset(r, 0, sizeof(*r));
}

void
vm_request_arg(struct vm_request *r, const char *w)
{
	r->argv = xrealloc(r->argv, (size_t)(r->argc + 2) * sizeof(*r->argv));
	r->argv[r->argc++] = xstrdup(w);
	r->argv[r->argc] = NULL;
}

/* "KEY=VALUE\0" appended to *buf. */
static void
add(char **buf, size_t *len, const char *key, const char *v, size_t vlen)
{
	size_t	klen = strlen(key);

	*buf = xrealloc(*buf, *len + klen + 1 + vlen + 1);
	memcpy(*buf + *len, key, klen);
	(*buf)[*len + klen] = '=';
	memcpy(*buf + *len + klen + 1, v, vlen);
	(*buf)[*len + klen + 1 + vlen] = '\0';
	*len += klen + 1 + vlen + 1;
}

char *
vm_request_encode(const struct vm_request *r, size_t *len)
{
	struct sysinfo_guest	*g = (struct sysinfo_guest *)&r->guest;
	const struct fact	*f;
	char			*buf = NULL, key[64], num[32], *s;
	int64_t			 n;
	size_t			 i;
	int			 k;

	*len = 0;
	for (k = 0; k < r->argc; k++)
		add(&buf, len, "arg", r->argv[k], strlen(r->argv[k]));
	for (i = 0; i < NFACTS; i++) {
		f = &facts[i];
		snprintf(key, sizeof(key), "guest.%s", f->name);
		switch (f->type) {
		case FACT_STR:
			if ((s = *str_at(g, f)) != NULL)
				add(&buf, len, key, s, strlen(s));
			break;
		case FACT_I64:
			if ((n = *i64_at(g, f->off)) >= 0) {
				snprintf(num, sizeof(num), "%lld",
				    (long long)n);
				add(&buf, len, key, num, strlen(num));
			}
			break;
		case FACT_WORDS:
			s = *str_at(g, f);
			n = *i64_at(g, f->len_off);
			while (s != NULL && n > 0) {
				add(&buf, len, key, s, strlen(s));
				n -= (int64_t)strlen(s) + 1;
				s += strlen(s) + 1;
			}
			break;
		}
	}
	return buf;
}

static int
decode_fact(struct sysinfo_guest *g, const char *name, const char *v,
    char **cause)
{
	const struct fact	*f = NULL;
	char			*end, **s;
	int64_t			*n;
	long long		 x;
	size_t			 i, vlen = strlen(v);

	for (i = 0; i < NFACTS && f == NULL; i++)
		if (strcmp(facts[i].name, name) == 0)
			f = &facts[i];
	if (f == NULL)
		return errorf(cause, "vm request: guest.%s: not a fact known "
		    "to this bonnie-ng", name);
	s = str_at(g, f);
	switch (f->type) {
	case FACT_STR:
		free(*s);
		*s = xstrdup(v);
		break;
	case FACT_I64:
		errno = 0;
		x = strtoll(v, &end, 10);
		if (errno != 0 || end == v || *end != '\0' || x < 0)
			return errorf(cause, "vm request: guest.%s=%s: not a "
			    "count", name, v);
		*i64_at(g, f->off) = x;
		break;
	case FACT_WORDS:
		n = i64_at(g, f->len_off);
		if (*s == NULL)
			*n = 0;
		*s = xrealloc(*s, (size_t)*n + vlen + 1);
		memcpy(*s + *n, v, vlen + 1);
		*n += (int64_t)vlen + 1;
		break;
	}
	return 0;
}

int
vm_request_decode(struct vm_request *r, const char *buf, size_t len,
    char **cause)
{
	const char	*s, *e, *eq, *end = buf + len;
	char		*key;
	int		 rv = 0;

	for (s = buf; s < end && rv == 0; s = e + 1) {
		if ((e = memchr(s, '\0', (size_t)(end - s))) == NULL)
			return errorf(cause, "vm request: its last string "
			    "has no end");
		if ((eq = memchr(s, '=', (size_t)(e - s))) == NULL)
			return errorf(cause, "vm request: \"%s\": no \"=\"",
			    s);
		key = xmalloc((size_t)(eq - s) + 1);
		memcpy(key, s, (size_t)(eq - s));
		key[eq - s] = '\0';
		if (strcmp(key, "arg") == 0)
			vm_request_arg(r, eq + 1);
		else if (strncmp(key, "guest.", 6) == 0)
			rv = decode_fact(&r->guest, key + 6, eq + 1, cause);
		else
			rv = errorf(cause, "vm request: \"%s\": not a key "
			    "known to this bonnie-ng", key);
		free(key);
	}
	if (rv == 0 && r->argc == 0)
		return errorf(cause, "vm request: no command line to run");
	return rv;
}
