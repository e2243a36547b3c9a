/*
 * A small strict JSON parser (RFC 8259) that builds a tree, for reading
 * bonnie-ng's own records back.  Every value remembers its line so that
 * readers can point at the place in the file that is wrong.
 */
#ifndef BONNIE_JSONPARSE_H
#define BONNIE_JSONPARSE_H

#include <stddef.h>

#define JV_MAX_DEPTH	64

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type	 type;
	int		 line;		/* 1-based line where the value starts. */
	int		 b;		/* JV_BOOL */
	double		 n;		/* JV_NUMBER */
	char		*s;		/* JV_STRING, NUL-terminated UTF-8. */
	size_t		 len;		/* JV_ARRAY, JV_OBJECT: members. */
	struct jv	*items;		/* The members' values. */
	char		**keys;		/* JV_OBJECT: the members' names. */
};

/*
 * Parse exactly one JSON value (with optional white space around it).
 * Returns 0 with the tree in *out, or -1 with the line of the fault in
 * *line and a message (without file or line) in *cause.
 */
int	jv_parse(const char *buf, size_t len, struct jv **out, int *line,
	    char **cause);
/*
 * The same, leaving out the members named in skip (a NULL-terminated
 * list), at any depth: each is checked as strictly as the rest, and
 * reads as null, so that a reader that needs little of a large document
 * builds little of it.
 */
int	jv_parse_skip(const char *buf, size_t len, const char *const *skip,
	    struct jv **out, int *line, char **cause);
void	jv_free(struct jv *);

/* The member key of an object, or NULL (also when v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* A member's string, or NULL when absent, null or not a string. */
const char *jv_str(const struct jv *v, const char *key);
/* A member's number: 0 with *n set, or -1 when absent or not a number. */
int	jv_num(const struct jv *v, const char *key, double *n);

#endif
