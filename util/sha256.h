/*
 * util/sha256.h - SHA-256 (FIPS 180-4), used to recognise a run that was
 * already stored.
 */
#ifndef BS_UTIL_SHA256_H
#define BS_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct bs_sha256 {
	uint32_t h[8];
	uint64_t total;   /* bytes fed so far */
	uint8_t block[64];
	size_t used;      /* bytes waiting in block */
};

#define BS_SHA256_HEX 65 /* 64 hex digits and a NUL */

void bs_sha256_init(struct bs_sha256 *c);
void bs_sha256_update(struct bs_sha256 *c, const void *data, size_t len);
void bs_sha256_final(struct bs_sha256 *c, uint8_t digest[32]);
/* One-shot: lowercase hex digest of data into hex. */
void bs_sha256_hex(const void *data, size_t len, char hex[BS_SHA256_HEX]);

#endif
