/*
 * tests/unit/test_sha256.c - SHA-256 (util/sha256.h over nettle): the
 * FIPS 180-4 example vectors fed in chunks of every awkward size, random
 * messages split at random points against the digests the hand-written
 * code that came before nettle gave, and every digest stored in
 * tests/data/archive-v1.db (made by that code) against its run's text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

static void to_hex(const uint8_t d[32], char hex[BS_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}

/* Digest of data fed in chunks of chunk bytes (0: all at once). */
static void hash_chunked(const void *data, size_t len, size_t chunk,
			 uint8_t d[32])
{
	const uint8_t *p = data;
	struct bs_sha256 c;
	size_t n;

	bs_sha256_init(&c);
	if (!chunk)
		chunk = len ? len : 1;
	for (; len; p += n, len -= n) {
		n = len < chunk ? len : chunk;
		bs_sha256_update(&c, p, n);
	}
	bs_sha256_final(&c, d);
}

/* Digest of data split at the sorted offsets cut[0..ncut-1]. */
static void hash_split(const uint8_t *data, size_t len, const size_t *cut,
		       int ncut, uint8_t d[32])
{
	struct bs_sha256 c;
	size_t at = 0;
	int i;

	bs_sha256_init(&c);
	for (i = 0; i < ncut; i++) {
		bs_sha256_update(&c, data + at, cut[i] - at);
		at = cut[i];
	}
	bs_sha256_update(&c, data + at, len - at);
	bs_sha256_final(&c, d);
}

static void test_fips_vectors(void **state)
{
	/* clang-format off */
	static const struct {
		const char *in;
		const char *hex;
	} v[] = {
		{ "",
		  "e3b0c44298fc1c149afbf4c8996fb924"
		  "27ae41e4649b934ca495991b7852b855" },
		{ "abc",
		  "ba7816bf8f01cfea414140de5dae2223"
		  "b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b049237"
		  "0b249b11e8f07a51afac45037afee9d1" },
	};
	/* clang-format on */
	static const size_t chunks[] = {0, 1, 3, 55, 56, 63, 64, 65};
	char hex[BS_SHA256_HEX];
	uint8_t d[32];
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		bs_sha256_hex(v[i].in, strlen(v[i].in), hex);
		assert_string_equal(hex, v[i].hex);
		for (j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++) {
			hash_chunked(v[i].in, strlen(v[i].in), chunks[j], d);
			to_hex(d, hex);
			assert_string_equal(hex, v[i].hex);
		}
	}
}

static void test_million_a(void **state)
{
	static const char want[] = "cdc76e5c9914fb9281a1c7e284d73e67"
				   "f1809a48a497200e046d39ccc7112cd0";
	/* Whole, odd chunks that straddle blocks, and whole blocks. */
	static const size_t chunks[] = {0, 1000, 64 * 100};
	const size_t len = 1000000;
	char *a = xmalloc(len), hex[BS_SHA256_HEX];
	uint8_t d[32];
	size_t j;

	(void)state;
	memset(a, 'a', len);
	for (j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++) {
		hash_chunked(a, len, chunks[j], d);
		to_hex(d, hex);
		assert_string_equal(hex, want);
	}
	free(a);
}

/* xorshift64*: the same "random" messages on every run and machine. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * Every length 0..1000 of one random buffer, from offset len % 16 so that
 * the loads see unaligned input, hashed whole and with up to three random
 * split points: both give the same digest, and the digest of all 1001
 * digests is the one util/sha256.c (hand-written, before nettle) gave, as
 * Python's hashlib does too.
 */
static void test_differential(void **state)
{
	enum { MAXLEN = 1000 };
	static const char want_all[] = "2116a09e3cfdffb1da79ca2ce10d0e7f"
				       "c84ca3d5cc9a3c33f241888458bf8f8d";
	uint8_t *buf = xmalloc(MAXLEN + 16), *msg, want[32], got[32];
	uint64_t seed = 0x5eed5a256ull;
	struct bs_sha256 all;
	char hex[BS_SHA256_HEX];
	size_t len, i, cut[3];
	int ncut, k;

	(void)state;
	for (i = 0; i < MAXLEN + 16; i++)
		buf[i] = (uint8_t)rnd(&seed);
	bs_sha256_init(&all);
	for (len = 0; len <= MAXLEN; len++) {
		msg = buf + len % 16;
		hash_chunked(msg, len, 0, want);
		bs_sha256_update(&all, want, sizeof(want));
		for (k = 0; k < 2; k++) {
			ncut = (int)(rnd(&seed) % 4);
			for (i = 0; i < (size_t)ncut; i++)
				cut[i] = (size_t)(rnd(&seed) % (len + 1));
			qsort(cut, (size_t)ncut, sizeof(cut[0]), cmp_size);
			hash_split(msg, len, cut, ncut, got);
			assert_memory_equal(got, want, 32);
		}
	}
	bs_sha256_final(&all, got);
	to_hex(got, hex);
	assert_string_equal(hex, want_all);
	free(buf);
}

/*
 * The digests an archive already holds: every run of the version 1
 * archive (made by the hand-written code before nettle) has the digest
 * of its text, so ingesting one of its lines again still finds it.
 */
static void test_stored_archive(void **state)
{
	const char *src = getenv("SRC");
	struct bs_buf path = BS_BUF_INIT;
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	uint8_t d[32];
	int n = 0;

	(void)state;
	if (!src)
		skip();
	bs_buf_addf(&path, "%s/tests/data/archive-v1.db", src);
	assert_int_equal(sqlite3_open_v2(bs_buf_str(&path), &db,
					 SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT raw, sha256 FROM runs "
					    "ORDER BY id",
					    -1, &q, NULL),
			 SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const void *raw = sqlite3_column_blob(q, 0);
		int len = sqlite3_column_bytes(q, 0);

		assert_int_equal(sqlite3_column_bytes(q, 1), 32);
		hash_chunked(raw, (size_t)len, 0, d);
		assert_memory_equal(d, sqlite3_column_blob(q, 1), 32);
		hash_chunked(raw, (size_t)len, 7, d);
		assert_memory_equal(d, sqlite3_column_blob(q, 1), 32);
		n++;
	}
	assert_int_equal(n, 26);
	sqlite3_finalize(q);
	sqlite3_close(db);
	bs_buf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_vectors),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_differential),
		cmocka_unit_test(test_stored_archive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
