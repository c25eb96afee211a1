/*
 * util/sha256.h - SHA-256 (FIPS 180-4), used to recognise a run that was
 * already stored. A thin face over Debian's nettle (nettle-dev), which
 * picks the CPU's SHA instructions at run time; the digests are the ones
 * every archive holds (tests/unit/test_sha256.c checks them against
 * tests/data/archive-v1.db).
 */
#ifndef BS_UTIL_SHA256_H
#define BS_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>
#include <nettle/version.h>

/* A plain value: copying one forks the hash of a common prefix. */
struct bs_sha256 {
	struct sha256_ctx ctx;
};

#define BS_SHA256_HEX 65 /* 64 hex digits and a NUL */

static inline void bs_sha256_init(struct bs_sha256 *c)
{
	sha256_init(&c->ctx);
}

static inline void bs_sha256_update(struct bs_sha256 *c, const void *data,
				    size_t len)
{
	sha256_update(&c->ctx, len, (const uint8_t *)data);
}

/* The digest of what was fed; c starts over (as after bs_sha256_init). */
static inline void bs_sha256_final(struct bs_sha256 *c, uint8_t digest[32])
{
#if NETTLE_VERSION_MAJOR >= 4 /* nettle 4 dropped the length */
	sha256_digest(&c->ctx, digest);
#else
	sha256_digest(&c->ctx, SHA256_DIGEST_SIZE, digest);
#endif
}

/* One-shot: lowercase hex digest of data into hex. */
static inline void bs_sha256_hex(const void *data, size_t len,
				 char hex[BS_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	struct bs_sha256 c;
	uint8_t d[SHA256_DIGEST_SIZE];
	int i;

	bs_sha256_init(&c);
	bs_sha256_update(&c, data, len);
	bs_sha256_final(&c, d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}

#endif
