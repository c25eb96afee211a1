/*
 * report/intern.c - the string pool of the kept list of runs: each
 * machine name and version kept once, found again through an
 * open-addressing hash table (FNV-1a).
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/banned.h"

static uint32_t hash_str(const char *s)
{
	return bs_hash_fnv32_str(BS_FNV32_BASIS, s);
}

/* The index of s in the pool, adding it when new. */
uint32_t bs_rintern(struct bs_rruns *rr, const char *s)
{
	size_t i, k;

	if (rr->nstr * 2 >= rr->nslot) {
		size_t n = rr->nslot ? rr->nslot * 2 : 64;
		uint32_t *slot = xcalloc(n, sizeof(*slot));
		for (k = 0; k < rr->nstr; k++) {
			i = hash_str(rr->str[k]) & (n - 1);
			while (slot[i])
				i = (i + 1) & (n - 1);
			slot[i] = (uint32_t)k + 1;
		}
		free(rr->slot);
		rr->slot = slot;
		rr->nslot = n;
	}
	i = hash_str(s) & (rr->nslot - 1);
	while (rr->slot[i]) {
		if (strcmp(rr->str[rr->slot[i] - 1], s) == 0)
			return rr->slot[i] - 1;
		i = (i + 1) & (rr->nslot - 1);
	}
	xgrow((void **)&rr->str, &rr->capstr, rr->nstr + 1, sizeof(*rr->str));
	rr->str[rr->nstr] = xstrdup(s);
	rr->slot[i] = (uint32_t)rr->nstr + 1;
	return (uint32_t)rr->nstr++;
}
