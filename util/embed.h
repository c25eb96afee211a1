/*
 * util/embed.h - text files compiled into the binary by cmake/embed.cmake.
 * Each table ends with an entry whose name is NULL.
 */
#ifndef BS_UTIL_EMBED_H
#define BS_UTIL_EMBED_H

#include <stddef.h>

struct bs_embedded {
	const char *name; /* file's base name, e.g. "schema.sql" */
	const char *text; /* NUL-terminated contents */
	size_t len;       /* bytes, without the NUL */
};

/* Returns the entry called name in table, or NULL. */
const struct bs_embedded *bs_embed_find(const struct bs_embedded *table,
					const char *name);

#endif
