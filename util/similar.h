/*
 * util/similar.h - "did you mean": how far apart two words are, and the
 * closest of a set of candidates. The one rule for every suggestion bstore
 * makes (a mistyped command, selector key or value, tag key).
 */
#ifndef BS_UTIL_SIMILAR_H
#define BS_UTIL_SIMILAR_H

#include <stddef.h>

/*
 * The edit distance of a and b (Damerau's optimal string alignment: an
 * insertion, deletion, substitution or swap of two neighbours costs 1),
 * byte by byte. Words longer than BS_SIMILAR_MAX bytes are
 * (size_t)-1: far from everything.
 */
#define BS_SIMILAR_MAX 64
size_t bs_similar_distance(const char *a, const char *b);

/*
 * Whether a candidate at dist from word is close enough to suggest: a distance of
 * at most 1 for words of up to 4 bytes, else at most 2, and never the
 * word itself. bs_similar_best keeps the closest such candidate seen:
 * start with best = NULL and *dist = (size_t)-1, and feed it every
 * candidate; a tie keeps the first.
 */
int bs_similar_close(const char *word, size_t dist);
void bs_similar_best(const char *word, const char *candidate, const char **best,
		     size_t *dist);

#endif
