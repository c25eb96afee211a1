/*
 * tests/unit/test_sha256.c - SHA-256: the FIPS 180-4 example vectors on
 * both block functions, and the SHA-NI path checked against the portable
 * one on random messages, random split points and the sample files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/sha256_impl.h"
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

/* Runs with the portable block function forced (1), or the run-time choice. */
static const int paths[] = {1, 0};

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
	size_t i, j, p;

	(void)state;
	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		bs_sha256_force_portable(paths[p]);
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			bs_sha256_hex(v[i].in, strlen(v[i].in), hex);
			assert_string_equal(hex, v[i].hex);
			for (j = 0; j < sizeof(chunks) / sizeof(chunks[0]);
			     j++) {
				hash_chunked(v[i].in, strlen(v[i].in),
					     chunks[j], d);
				to_hex(d, hex);
				assert_string_equal(hex, v[i].hex);
			}
		}
	}
	bs_sha256_force_portable(0);
}

static void test_million_a(void **state)
{
	static const char want[] =
		"cdc76e5c9914fb9281a1c7e284d73e67"
		"f1809a48a497200e046d39ccc7112cd0";
	/* Whole, odd chunks that straddle blocks, and whole blocks. */
	static const size_t chunks[] = {0, 1000, 64 * 100};
	const size_t len = 1000000;
	char *a = xmalloc(len), hex[BS_SHA256_HEX];
	uint8_t d[32];
	size_t j, p;

	(void)state;
	memset(a, 'a', len);
	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		bs_sha256_force_portable(paths[p]);
		for (j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++) {
			hash_chunked(a, len, chunks[j], d);
			to_hex(d, hex);
			assert_string_equal(hex, want);
		}
	}
	bs_sha256_force_portable(0);
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
 * Every length 0..1000, from every offset 0..15 in the buffer in turn so
 * the accelerated loads see unaligned input: the portable digest of the
 * whole message must equal the run-time choice's digest with up to three
 * random split points, and the portable one with other split points.
 */
static void test_differential(void **state)
{
	enum { MAXLEN = 1000 };
	uint8_t *buf = xmalloc(MAXLEN + 16), *msg, want[32], got[32];
	uint64_t seed = 0x5eed5a256ull;
	size_t len, i, cut[3];
	int ncut, k;

	(void)state;
	if (!bs_sha256_have_accel())
		print_message("note: no SHA-NI on this machine; comparing "
			      "portable with itself\n");
	for (len = 0; len <= MAXLEN; len++) {
		msg = buf + len % 16;
		for (i = 0; i < len; i++)
			msg[i] = (uint8_t)rnd(&seed);

		bs_sha256_force_portable(1);
		hash_chunked(msg, len, 0, want);

		for (k = 0; k < 2; k++) {
			ncut = (int)(rnd(&seed) % 4);
			for (i = 0; i < (size_t)ncut; i++)
				cut[i] = (size_t)(rnd(&seed) % (len + 1));
			qsort(cut, (size_t)ncut, sizeof(cut[0]), cmp_size);
			bs_sha256_force_portable(k);
			hash_split(msg, len, cut, ncut, got);
			assert_memory_equal(got, want, 32);
		}
		bs_sha256_force_portable(0);
		hash_chunked(msg, len, 0, got);
		assert_memory_equal(got, want, 32);
	}
	bs_sha256_force_portable(0);
	free(buf);
}

/* What ingest hashes: each line of the sample reports, on both paths. */
static void test_sample_lines(void **state)
{
	static const char *const files[] = {
		"bonnie++-1.03d-pasted-blog.txt",
		"bonnie++-2.00a-local-full.txt",
		"sysbench-1.0.20-rndrw-local.txt",
	};
	const char *dir = getenv("SAMPLES");
	uint8_t a[32], b[32];
	size_t i, nlines = 0;

	(void)state;
	if (!dir)
		skip();
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct bs_buf path = BS_BUF_INIT;
		char line[8192];
		FILE *f;

		bs_buf_addf(&path, "%s/%s", dir, files[i]);
		f = fopen(bs_buf_str(&path), "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			size_t n = strcspn(line, "\n");

			bs_sha256_force_portable(1);
			hash_chunked(line, n, 0, a);
			bs_sha256_force_portable(0);
			hash_chunked(line, n, 0, b);
			assert_memory_equal(a, b, 32);
			nlines++;
		}
		fclose(f);
		bs_buf_release(&path);
	}
	assert_true(nlines > 50);
}

/* On Linux the kernel's CPU flags must agree with our CPUID check. */
static void test_detect(void **state)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	int flags = 0, sha = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		flags = 1;
		sha = strstr(line, " sha_ni") && strstr(line, " sse4_1") &&
		      strstr(line, " ssse3");
		break;
	}
	fclose(f);
	if (!flags) /* not x86: ARM says "Features" */
		sha = 0;
#if !(defined(__x86_64__) && defined(__GNUC__))
	sha = 0;
#endif
	assert_int_equal(bs_sha256_have_accel(), sha);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_vectors),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_differential),
		cmocka_unit_test(test_sample_lines),
		cmocka_unit_test(test_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
