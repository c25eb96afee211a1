/*
 * util/mem.h - allocation that never returns NULL. Out of memory prints
 * one line and aborts, so callers do not check.
 */
#ifndef BS_UTIL_MEM_H
#define BS_UTIL_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s); /* xstrdup(NULL) returns NULL */
char *xstrndup(const char *s, size_t n);
/* Grows *p (holding *cap items of size sz) to hold at least need items. */
void xgrow(void **p, size_t *cap, size_t need, size_t sz);

#endif
