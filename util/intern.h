/*
 * util/intern.h - a pool of strings, each kept once: a string's index in
 * the pool is the order it was first added (0, 1, ...), and its copy
 * stays where it is until the pool is released, so the index and the
 * pointer both name it. Found again through an open-addressing table of
 * FNV-1a hashes (util/hash.h), a power of two at most half full.
 *
 *     struct bs_intern pool = BS_INTERN_INIT;
 *     uint32_t i = bs_intern(&pool, "jump");   // 0, then 0 again
 *     const char *s = pool.str[i];             // "jump", the pool's copy
 *     bs_intern_release(&pool);
 */
#ifndef BS_UTIL_INTERN_H
#define BS_UTIL_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct bs_intern {
	char **str;     /* the strings by index */
	size_t n, cap;  /* strings kept, room in str */
	uint32_t *slot; /* open addressing: index + 1, 0 empty */
	size_t nslot;
};

/* clang-format off */
#define BS_INTERN_INIT {NULL, 0, 0, NULL, 0}
/* clang-format on */

/* The index of s in pool p, a copy of s added when it is new. */
uint32_t bs_intern(struct bs_intern *p, const char *s);
/* The pool's one copy of s (NULL: ""), added when new. */
const char *bs_intern_str(struct bs_intern *p, const char *s);
/* Frees every string of p and its table; p is empty again. */
void bs_intern_release(struct bs_intern *p);

#endif
