/*
 * util/hash.h - FNV-1a, the one non-cryptographic hash of bstore: the
 * measure keys of store/dedup.c and the catalogue fingerprint of
 * store/migrate.c (both stored in archives, so these functions never
 * change their values: tests/unit/test_util.c pins known answers), the
 * block checksum of core/fileio.c, and the open-addressing tables of
 * report/.
 *
 * Each function continues a hash: start from BS_FNV64_BASIS (or
 * BS_FNV32_BASIS) and feed pieces one after another.
 */
#ifndef BS_UTIL_HASH_H
#define BS_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define BS_FNV64_BASIS 0xcbf29ce484222325ull /* 14695981039346656037 */
#define BS_FNV64_PRIME 0x100000001b3ull      /* 1099511628211 */
#define BS_FNV32_BASIS 2166136261u
#define BS_FNV32_PRIME 16777619u

/* The 64-bit FNV-1a of h continued with the n bytes at p. */
uint64_t bs_hash_fnv64(uint64_t h, const void *p, size_t n);

/* The same with the bytes of string s (none when s is NULL). */
uint64_t bs_hash_fnv64_str(uint64_t h, const char *s);

/* One field of a record: string s (none when NULL), then the byte 0xff,
 * which no UTF-8 text holds, so that ("ab", "c") and ("a", "bc") hash
 * apart. */
uint64_t bs_hash_fnv64_field(uint64_t h, const char *s);

/* The 32-bit FNV-1a of h continued with the bytes of string s. */
uint32_t bs_hash_fnv32_str(uint32_t h, const char *s);

#endif
