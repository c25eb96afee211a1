/*
 * util/hash.c - FNV-1a (Fowler, Noll, Vo), 64 and 32 bits: each byte is
 * xored into the hash, which is then multiplied by the prime.
 */
#include "util/hash.h"
#include "util/banned.h"

uint64_t bs_hash_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * BS_FNV64_PRIME;
	return h;
}

uint64_t bs_hash_fnv64_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * BS_FNV64_PRIME;
	return h;
}

uint64_t bs_hash_fnv64_field(uint64_t h, const char *s)
{
	return (bs_hash_fnv64_str(h, s) ^ 0xff) * BS_FNV64_PRIME;
}

uint32_t bs_hash_fnv32_str(uint32_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * BS_FNV32_PRIME;
	return h;
}
