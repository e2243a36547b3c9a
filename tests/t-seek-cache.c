/*
 * The cold seekers' map of what may be cached: a chunk is to be dropped
 * before every read but its first, sub-page chunks by the page, and past
 * the bytes that may stay cached, after its read too.
 */
#include <stdint.h>

#include "seek-cache.h"
#include "tap.h"

int
main(void)
{
	struct seek_cache	*m;
	int			 after, again;

	m = seek_cache_new(64 << 20, 16384, 4096, 3 * 16384);
	ok(m != NULL, "a map for 64 MiB of 16 KiB chunks");
	again = seek_cache_mark(m, 5 * 16384, &after);
	ok(!again && !after, "a first read: nothing to drop");
	again = seek_cache_mark(m, 5 * 16384, &after);
	ok(again && !after, "read again: dropped before, not after");
	(void)seek_cache_mark(m, 6 * 16384, &after);
	ok(!after, "a second chunk within the limit");
	(void)seek_cache_mark(m, 7 * 16384, &after);
	ok(!after && seek_cache_kept(m) == 3 * 16384,
	    "a third: the limit's 48 KiB kept");
	again = seek_cache_mark(m, 8 * 16384, &after);
	ok(!again && after, "past the limit: dropped after its read");
	again = seek_cache_mark(m, 8 * 16384, &after);
	ok(again && !after, "and before it is read again");
	ok(seek_cache_kept(m) == 3 * 16384, "the bytes kept stay at the limit");
	seek_cache_free(m);

	/* 1 KiB chunks: four to a page, the page is what a drop takes. */
	m = seek_cache_new(1 << 20, 1024, 4096, 1 << 20);
	again = seek_cache_mark(m, 0, &after);
	ok(!again, "1 KiB chunks: the first of a page is a first read");
	again = seek_cache_mark(m, 3072, &after);
	ok(again, "the fourth of the same page is dropped first");
	again = seek_cache_mark(m, 4096, &after);
	ok(!again, "the next page's first is not");
	seek_cache_free(m);

	/* 6 KiB chunks straddle pages: a chunk sharing a page with one read. */
	m = seek_cache_new(6144 * 100, 6144, 4096, 1 << 20);
	(void)seek_cache_mark(m, 0, &after);
	again = seek_cache_mark(m, 6144, &after);
	ok(again, "6 KiB chunks: one sharing a page with a chunk read is dropped first");
	again = seek_cache_mark(m, 3 * 6144, &after);
	ok(!again, "one sharing none is not");
	seek_cache_free(m);
	return done_testing();
}
