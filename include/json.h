/*
 * A small JSON writer: objects, arrays, strings (escaped), numbers, bools
 * and nulls, with commas and indentation handled for the caller.
 */
#ifndef BONNIE_JSON_H
#define BONNIE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json {
	FILE	*f;
	int	 depth;
	int	 first[JSON_MAX_DEPTH];	/* No member written yet at depth. */
	int	 pretty;
	int	 row;		/* Depth of the open row, on one line; 0: none. */
};

void	json_init(struct json *, FILE *, int pretty);
/* Start/end an object or array; key is NULL inside arrays. */
void	json_object_start(struct json *, const char *key);
void	json_object_end(struct json *);
void	json_array_start(struct json *, const char *key);
void	json_array_end(struct json *);
/*
 * An array written on one line even when pretty ("[1, 2, null]"), and
 * everything inside it: a row of a table of numbers.  Ended by
 * json_array_end().
 */
void	json_row_start(struct json *, const char *key);
void	json_string(struct json *, const char *key, const char *value);
/* Non-finite doubles are written as null. */
void	json_double(struct json *, const char *key, double value);
void	json_int(struct json *, const char *key, int64_t value);
void	json_uint(struct json *, const char *key, uint64_t value);
void	json_bool(struct json *, const char *key, int value);
void	json_null(struct json *, const char *key);
/* Values where a negative number means unknown, written as null. */
void	json_int_or_null(struct json *, const char *key, int64_t value);
void	json_double_or_null(struct json *, const char *key, double value);
void	json_bool_or_null(struct json *, const char *key, int value);
/* Ends the document with a newline; 0, or -1 if the stream failed. */
int	json_finish(struct json *);

#endif
