/*
 * util/intern.c - the string pool (util/intern.h).
 */
#include "util/intern.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/mem.h"
#include "util/banned.h"

static uint32_t hash_str(const char *s)
{
	return bs_hash_fnv32_str(BS_FNV32_BASIS, s);
}

uint32_t bs_intern(struct bs_intern *p, const char *s)
{
	size_t i, k;

	if (p->n * 2 >= p->nslot) {
		size_t n = p->nslot ? p->nslot * 2 : 64;
		uint32_t *slot = xcalloc(n, sizeof(*slot));
		for (k = 0; k < p->n; k++) {
			i = hash_str(p->str[k]) & (n - 1);
			while (slot[i])
				i = (i + 1) & (n - 1);
			slot[i] = (uint32_t)k + 1;
		}
		free(p->slot);
		p->slot = slot;
		p->nslot = n;
	}
	i = hash_str(s) & (p->nslot - 1);
	while (p->slot[i]) {
		if (strcmp(p->str[p->slot[i] - 1], s) == 0)
			return p->slot[i] - 1;
		i = (i + 1) & (p->nslot - 1);
	}
	xgrow((void **)&p->str, &p->cap, p->n + 1, sizeof(*p->str));
	p->str[p->n] = xstrdup(s);
	p->slot[i] = (uint32_t)p->n + 1;
	return (uint32_t)p->n++;
}

const char *bs_intern_str(struct bs_intern *p, const char *s)
{
	uint32_t i = bs_intern(p, s ? s : ""); /* may move p->str */

	return p->str[i];
}

void bs_intern_release(struct bs_intern *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->str[i]);
	free(p->str);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}
