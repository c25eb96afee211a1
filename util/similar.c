/* util/similar.c - edit distance for "did you mean" (util/similar.h). */
#include "util/similar.h"

#include <string.h>

#include "util/banned.h"

size_t bs_similar_distance(const char *a, const char *b)
{
	/* Three rows of the table: the one before last, last, and this. */
	size_t r0[BS_SIMILAR_MAX + 1], r1[BS_SIMILAR_MAX + 1],
		r2[BS_SIMILAR_MAX + 1];
	size_t *pp = r0, *p = r1, *c = r2, *t;
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > BS_SIMILAR_MAX || lb > BS_SIMILAR_MAX)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		p[j] = j;
	for (i = 1; i <= la; i++) {
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (c[j - 1] + 1 < best)
				best = c[j - 1] + 1;
			/* "riad" for "raid": two neighbours swapped. */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			c[j] = best;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

int bs_similar_close(const char *word, size_t dist)
{
	size_t n = strlen(word);

	if (dist == 0 || dist == (size_t)-1)
		return 0;
	return dist <= (n <= 4 ? 1u : 2u);
}

void bs_similar_best(const char *word, const char *candidate, const char **best,
		     size_t *dist)
{
	size_t d = bs_similar_distance(word, candidate);

	if (bs_similar_close(word, d) && d < *dist) {
		*best = candidate;
		*dist = d;
	}
}
