/*
 * util/sha256.c - SHA-256 written from the FIPS 180-4 description. On
 * x86-64 CPUs with the SHA extensions (SHA-NI) the block function uses
 * them; the choice is made once, from CPUID, at the first hash, and every
 * other machine runs the portable C code.
 */
#include "util/sha256.h"
#include "util/sha256_impl.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define BS_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#else
#define BS_SHA256_X86 0
#endif

#include "util/banned.h"

/* Aligned so the SHA-NI code can load four constants at a time. */
static _Alignas(16) const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* Portable block function: n 64-byte blocks from p into h. */
static void blocks_portable(uint32_t h[8], const uint8_t *p, size_t n)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (; n; n--, p += 64) {
		for (i = 0; i < 16; i++)
			w[i] = (uint32_t)p[4 * i] << 24 |
			       (uint32_t)p[4 * i + 1] << 16 |
			       (uint32_t)p[4 * i + 2] << 8 |
			       (uint32_t)p[4 * i + 3];
		for (i = 16; i < 64; i++) {
			uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
				      (w[i - 15] >> 3);
			uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
				      (w[i - 2] >> 10);
			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		a = h[0];
		b = h[1];
		c = h[2];
		d = h[3];
		e = h[4];
		f = h[5];
		g = h[6];
		k = h[7];
		for (i = 0; i < 64; i++) {
			t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
			     ((e & f) ^ (~e & g)) + K[i] + w[i];
			t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
			     ((a & b) ^ (a & c) ^ (b & c));
			k = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += k;
	}
}

#if BS_SHA256_X86
/*
 * How the SHA-NI instructions see the state (Intel SDM, SHA256RNDS2):
 * the working variables a..h live in two vectors, ABEF = {a, b, e, f} and
 * CDGH = {c, d, g, h}, listed from the highest 32-bit lane down. One
 * SHA256RNDS2 does two rounds: it takes CDGH, ABEF and W[t] + K[t] for
 * the two rounds in the low two lanes of the third operand, and returns
 * the new ABEF. After two rounds the new CDGH is the old ABEF, so
 * alternating which variable receives the result keeps both up to date.
 *
 * Message schedule, four words at a time: with M(t) = W[t..t+3] (W[t] in
 * the lowest lane), SHA256MSG1(M(t-16), M(t-12)) gives W[t-16+i] +
 * sigma0(W[t-15+i]); adding W[t-7+i], the middle of M(t-8):M(t-4), and
 * passing the sum with M(t-4) to SHA256MSG2 adds sigma1(W[t-2+i]) and
 * yields M(t).
 */

/* Four rounds from t, with message words m = M(t). */
#define SHANI_ROUNDS4(m, t)                                                  \
	do {                                                                 \
		__m128i wk_ = _mm_add_epi32(                                 \
			(m), _mm_load_si128((const __m128i *)&K[(t)]));      \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);               \
		abef = _mm_sha256rnds2_epu32(abef, cdgh,                     \
					     _mm_shuffle_epi32(wk_, 0x0e));  \
	} while (0)

/* m0 = M(t-16) becomes M(t); m1, m2, m3 hold M(t-12), M(t-8), M(t-4). */
#define SHANI_SCHEDULE(m0, m1, m2, m3)                                       \
	((m0) = _mm_sha256msg2_epu32(                                        \
		 _mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)),             \
			       _mm_alignr_epi8((m3), (m2), 4)),              \
		 (m3)))

/* Same contract as blocks_portable(); call only if cpu_has_shani(). */
__attribute__((target("sha,sse4.1"))) static void
blocks_shani(uint32_t h[8], const uint8_t *p, size_t n)
{
	/* Reverses the bytes of each 32-bit lane: the message is big-endian. */
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
					   6, 7, 0, 1, 2, 3);
	__m128i abef, cdgh, t0, t1, abef0, cdgh0, m0, m1, m2, m3;
	int t;

	/* h[0..3] = {d, c, b, a}, h[4..7] = {h, g, f, e}, high lane first. */
	t0 = _mm_loadu_si128((const __m128i *)&h[0]);
	t1 = _mm_loadu_si128((const __m128i *)&h[4]);
	t0 = _mm_shuffle_epi32(t0, 0xb1);         /* {c, d, a, b} */
	t1 = _mm_shuffle_epi32(t1, 0x1b);         /* {e, f, g, h} */
	abef = _mm_alignr_epi8(t0, t1, 8);        /* {a, b, e, f} */
	cdgh = _mm_blend_epi16(t1, t0, 0xf0);     /* {c, d, g, h} */

	for (; n; n--, p += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
				      bswap);
		m1 = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m2 = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m3 = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
		SHANI_ROUNDS4(m0, 0);
		SHANI_ROUNDS4(m1, 4);
		SHANI_ROUNDS4(m2, 8);
		SHANI_ROUNDS4(m3, 12);
		for (t = 16; t < 64; t += 16) {
			SHANI_SCHEDULE(m0, m1, m2, m3);
			SHANI_ROUNDS4(m0, t);
			SHANI_SCHEDULE(m1, m2, m3, m0);
			SHANI_ROUNDS4(m1, t + 4);
			SHANI_SCHEDULE(m2, m3, m0, m1);
			SHANI_ROUNDS4(m2, t + 8);
			SHANI_SCHEDULE(m3, m0, m1, m2);
			SHANI_ROUNDS4(m3, t + 12);
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}

	t0 = _mm_shuffle_epi32(abef, 0x1b);       /* {f, e, b, a} */
	t1 = _mm_shuffle_epi32(cdgh, 0xb1);       /* {d, c, h, g} */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t0, t1, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(t1, t0, 8));
}

#undef SHANI_ROUNDS4
#undef SHANI_SCHEDULE

static int cpu_has_shani(void)
{
	unsigned int a, b, c, d;

	/* blocks_shani() also needs SSSE3 and SSE4.1 (leaf 1, ECX). */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) ||
	    !(c & bit_SSE4_1))
		return 0;
	/* SHA: leaf 7, subleaf 0, EBX bit 29. */
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b & bit_SHA) != 0;
}

/*
 * -1 until the first hash asks the CPU, then 1 (SHA-NI) or 0 (portable).
 * Threads that race on the first hash all store the same answer.
 */
static atomic_int use_shani = -1;

static void blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
	int v = atomic_load_explicit(&use_shani, memory_order_relaxed);

	if (v < 0) {
		v = cpu_has_shani();
		atomic_store_explicit(&use_shani, v, memory_order_relaxed);
	}
	if (v)
		blocks_shani(h, p, n);
	else
		blocks_portable(h, p, n);
}

int bs_sha256_have_accel(void)
{
	return cpu_has_shani();
}

void bs_sha256_force_portable(int on)
{
	atomic_store_explicit(&use_shani, on ? 0 : -1, memory_order_relaxed);
}
#else
static void blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
	blocks_portable(h, p, n);
}

int bs_sha256_have_accel(void)
{
	return 0;
}

void bs_sha256_force_portable(int on)
{
	(void)on;
}
#endif

void bs_sha256_init(struct bs_sha256 *c)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};

	memcpy(c->h, iv, sizeof(iv));
	c->total = 0;
	c->used = 0;
}

void bs_sha256_update(struct bs_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	c->total += len;
	if (c->used) {
		size_t n = 64 - c->used < len ? 64 - c->used : len;
		memcpy(c->block + c->used, p, n);
		c->used += n;
		p += n;
		len -= n;
		if (c->used < 64)
			return;
		blocks(c->h, c->block, 1);
		c->used = 0;
	}
	if (len >= 64) {
		blocks(c->h, p, len / 64);
		p += len & ~(size_t)63;
		len &= 63;
	}
	if (len) {
		memcpy(c->block, p, len);
		c->used = len;
	}
}

void bs_sha256_final(struct bs_sha256 *c, uint8_t digest[32])
{
	uint64_t bits = c->total * 8;
	int i;

	c->block[c->used++] = 0x80;
	if (c->used > 56) {
		memset(c->block + c->used, 0, 64 - c->used);
		blocks(c->h, c->block, 1);
		c->used = 0;
	}
	memset(c->block + c->used, 0, 56 - c->used);
	for (i = 0; i < 8; i++)
		c->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	blocks(c->h, c->block, 1);
	for (i = 0; i < 8; i++) {
		digest[4 * i] = (uint8_t)(c->h[i] >> 24);
		digest[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
		digest[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
		digest[4 * i + 3] = (uint8_t)c->h[i];
	}
}

void bs_sha256_hex(const void *data, size_t len, char hex[BS_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	struct bs_sha256 c;
	uint8_t d[32];
	int i;

	bs_sha256_init(&c);
	bs_sha256_update(&c, data, len);
	bs_sha256_final(&c, d);
	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}
