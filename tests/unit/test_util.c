/*
 * tests/unit/test_util.c - strict numbers, buffers, SHA-256, FNV-1a, JSON, CSV
 * cells, dates, reading the files a user names.
 */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/buf.h"
#include "util/csv.h"
#include "util/err.h"
#include "util/hash.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/num.h"
#include "util/readfile.h"
#include "util/sha256.h"
#include "util/similar.h"
#include "util/timefmt.h"
#include "util/banned.h"

struct dcase {
	const char *in;
	int ok;
	double want;
};

static void test_parse_double(void **state)
{
	/* clang-format off */
	static const struct dcase cases[] = {
		{ "575.0", 1, 575.0 },   { "7510.9", 1, 7510.9 },
		{ "0", 1, 0 },           { "-12.5", 1, -12.5 },
		{ "1e3", 1, 1000 },      { "3144", 1, 3144 },
		{ "", 0, 0 },            { " 1", 0, 0 },
		{ "1 ", 0, 0 },          { "+++++", 0, 0 },
		{ "0x10", 0, 0 },        { "inf", 0, 0 },
		{ "nan", 0, 0 },         { "1e", 0, 0 },
		{ ".", 0, 0 },           { "1.2.3", 0, 0 },
		{ "1e999", 0, 0 },       { "12us", 0, 0 },
	};
	/* clang-format on */
	size_t i;
	double v;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = bs_parse_double(cases[i].in, strlen(cases[i].in), &v);
		if (cases[i].ok) {
			assert_int_equal(rc, 0);
			assert_true(v == cases[i].want);
		} else {
			assert_int_equal(rc, -BS_EPARSE);
		}
	}
}

/* The fast path (Clinger's) gives strtod's double, bit for bit, for the
 * numbers benchmarks print: random decimals of 1 to 17 digits, 0 to 16 of
 * them after the point, signed, and the cases at its edges. */
static void test_parse_double_as_strtod(void **state)
{
	static const char *const edge[] = {
		"999999999999999",
		"9999999999999999",
		"0.000000000000001",
		"123456789012345.",
		"-0",
		"-0.0",
		"9007199254740993",
		"0.1",
		"0.30000000000000004",
		"2.2250738585072014",
		"+7.5",
		"1.000000000000000",
	};
	char buf[40];
	size_t i;
	unsigned seed = 12345;
	double v, want;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		assert_int_equal(bs_parse_double(edge[i], strlen(edge[i]), &v),
				 0);
		want = strtod(edge[i], NULL);
		assert_memory_equal(&v, &want, sizeof(v));
	}
	for (i = 0; i < 200000; i++) {
		int nd = 1 + (int)(rand_r(&seed) % 17), point, k, n = 0;

		point = (int)(rand_r(&seed) % (unsigned)(nd + 1));
		if (rand_r(&seed) % 4 == 0)
			buf[n++] = '-';
		for (k = 0; k < nd; k++) {
			if (k == point && k > 0)
				buf[n++] = '.';
			buf[n++] = (char)('0' + rand_r(&seed) % 10);
		}
		buf[n] = '\0';
		assert_int_equal(bs_parse_double(buf, (size_t)n, &v), 0);
		want = strtod(buf, NULL);
		if (memcmp(&v, &want, sizeof(v)) != 0)
			fail_msg("%s: %.17g, strtod %.17g", buf, v, want);
	}
}

static void test_parse_ints(void **state)
{
	uint64_t u;
	int64_t i;

	(void)state;
	assert_int_equal(bs_parse_u64("18446744073709551615", 20, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(bs_parse_u64("18446744073709551616", 20, &u),
			 -BS_EPARSE);
	assert_int_equal(bs_parse_u64("-1", 2, &u), -BS_EPARSE);
	assert_int_equal(bs_parse_u64("", 0, &u), -BS_EPARSE);
	assert_int_equal(bs_parse_i64("-9223372036854775808", 20, &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(bs_parse_i64("9223372036854775808", 19, &i),
			 -BS_EPARSE);
	assert_int_equal(bs_parse_size("64k", 3, &u), 0);
	assert_true(u == 65536);
	assert_int_equal(bs_parse_size("2G", 2, &u), 0);
	assert_true(u == 2147483648ULL);
	assert_int_equal(bs_parse_size("k", 1, &u), -BS_EPARSE);
	assert_int_equal(bs_parse_size("99999999999999999999t", 21, &u),
			 -BS_EPARSE);
}

static void test_fmt_double(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(bs_fmt_double(b, sizeof(b), 3.4912, 2), "3.49");
	assert_string_equal(bs_fmt_double(b, sizeof(b), -0.001, 2), "0.00");
	assert_string_equal(bs_fmt_double(b, sizeof(b), -533, 0), "-533");
	/* Its integer path prints what printf prints, ties and all. */
	{
		static const double edge[] = {0.5,    1.5,  2.5,        0.05,
					      0.15,   0.25, 1.005,      2.675,
					      999.95, 1e11, 123456.785, -0.04,
					      -0.0,   0};
		unsigned seed = 12345;
		char want[64];
		int i, prec;

		for (i = 0; i < 400000; i++) {
			double v;

			seed = seed * 1103515245u + 12345u;
			if (i < (int)(sizeof(edge) / sizeof(edge[0])))
				v = edge[i];
			else
				v = ((double)(seed >> 8) / (1 << 24) - 0.25) *
				    pow(10, (int)(seed % 13) - 3);
			prec = (int)((seed >> 4) % 7);
			snprintf(want, sizeof(want), "%.*f", prec, v);
			bs_fmt_double(b, sizeof(b), v, prec);
			if (want[0] == '-' && strcmp(b, want + 1) == 0 &&
			    strspn(want + 1, "0.") == strlen(want + 1))
				continue; /* "-0.00" printed "0.00" */
			assert_string_equal(b, want);
		}
	}
	assert_string_equal(bs_fmt_g(b, sizeof(b), 0.1), "0.1");
	assert_string_equal(bs_fmt_g(b, sizeof(b), 575.0), "575");
	assert_string_equal(bs_fmt_g(b, sizeof(b), 30960), "30960");
	assert_string_equal(bs_fmt_g(b, sizeof(b), 538.8), "538.8");
}

static void test_buf(void **state)
{
	struct bs_buf b = BS_BUF_INIT;
	char *s;
	size_t len;
	int i;

	(void)state;
	assert_string_equal(bs_buf_str(&b), "");
	for (i = 0; i < 1000; i++)
		assert_int_equal(bs_buf_addf(&b, "%d,", i), 0);
	assert_int_equal(strncmp(bs_buf_str(&b), "0,1,2,", 6), 0);
	bs_buf_trim(&b, 4);
	assert_string_equal(bs_buf_str(&b) + b.len - 4, "998,");
	s = bs_buf_detach(&b, &len);
	assert_int_equal(len, strlen(s));
	assert_null(b.data);
	free(s);

	bs_buf_init_max(&b, 8);
	assert_int_equal(bs_buf_adds(&b, "12345678"), 0);
	assert_int_equal(bs_buf_addc(&b, '9'), -BS_ETOOBIG);
	assert_string_equal(bs_buf_str(&b), "12345678");
	bs_buf_release(&b);
}

static void test_sha256(void **state)
{
	/* FIPS 180-4 example vectors, fed whole and byte by byte. */
	static const struct {
		const char *in;
		const char *hex;
	} v[] = {
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		     "7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff"
			"61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db"
		 "06c1"},
	};
	char hex[BS_SHA256_HEX];
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct bs_sha256 c;
		uint8_t d[32];
		char h2[BS_SHA256_HEX];

		bs_sha256_hex(v[i].in, strlen(v[i].in), hex);
		assert_string_equal(hex, v[i].hex);
		bs_sha256_init(&c);
		for (j = 0; j < strlen(v[i].in); j++)
			bs_sha256_update(&c, v[i].in + j, 1);
		bs_sha256_final(&c, d);
		for (j = 0; j < 32; j++) {
			h2[2 * j] = "0123456789abcdef"[d[j] >> 4];
			h2[2 * j + 1] = "0123456789abcdef"[d[j] & 15];
		}
		h2[64] = '\0';
		assert_string_equal(h2, v[i].hex);
	}
}

static void test_fnv(void **state)
{
	/* The FNV authors' known answers (64 and 32 bits): archives hold
	 * values of these functions (measure keys, the catalogue's
	 * fingerprint), so they must never move. */
	static const struct {
		const char *in;
		uint64_t h64;
		uint32_t h32;
	} v[] = {
		{"", 0xcbf29ce484222325ull, 0x811c9dc5u},
		{"a", 0xaf63dc4c8601ec8cull, 0xe40c292cu},
		{"foobar", 0x85944171f73967e8ull, 0xbf9cf968u},
	};
	uint64_t h;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(bs_hash_fnv64_str(BS_FNV64_BASIS, v[i].in),
				 v[i].h64);
		assert_int_equal(bs_hash_fnv64(BS_FNV64_BASIS, v[i].in,
					       strlen(v[i].in)),
				 v[i].h64);
		for (h = BS_FNV64_BASIS, j = 0; j < strlen(v[i].in); j++)
			h = bs_hash_fnv64(h, v[i].in + j, 1);
		assert_int_equal(h, v[i].h64);
		assert_int_equal(bs_hash_fnv32_str(BS_FNV32_BASIS, v[i].in),
				 v[i].h32);
	}
	assert_int_equal(bs_hash_fnv64_str(BS_FNV64_BASIS, NULL),
			 BS_FNV64_BASIS);
	/* Fields end in 0xff: "bonnie", "", NULL (as "") and "foo", as the
	 * measure keys chain them; and ("ab", "c") is not ("a", "bc"). */
	h = bs_hash_fnv64_field(BS_FNV64_BASIS, "bonnie");
	h = bs_hash_fnv64_field(h, "");
	h = bs_hash_fnv64_field(h, "foo");
	assert_int_equal(h, 0x05fcf57bf7caa38full);
	h = bs_hash_fnv64_field(BS_FNV64_BASIS, "bonnie");
	h = bs_hash_fnv64_field(h, NULL);
	h = bs_hash_fnv64_field(h, "foo");
	assert_int_equal(h, 0x05fcf57bf7caa38full);
	assert_int_equal(bs_hash_fnv64_field(bs_hash_fnv64_field(BS_FNV64_BASIS,
								 "ab"),
					     "c"),
			 0x20ba9b3025a8b421ull);
	assert_int_equal(bs_hash_fnv64_field(bs_hash_fnv64_field(BS_FNV64_BASIS,
								 "a"),
					     "bc"),
			 0xa0a3542c19b900abull);
}

static void test_json(void **state)
{
	struct bs_buf b = BS_BUF_INIT;

	(void)state;
	/* One escaper for exports and templates: < > & as \u escapes, so
	 * that JSON may sit inside an HTML page. */
	bs_json_str(&b, "<a \"b\"\\\n\x01\xff>&");
	assert_string_equal(bs_buf_str(&b),
			    "\"\\u003ca \\\"b\\\"\\\\\\n\\u0001\\ufffd\\u003e"
			    "\\u0026\"");
	bs_buf_reset(&b);
	bs_json_num(&b, NAN);
	bs_buf_addc(&b, ' ');
	bs_json_num(&b, 575.0);
	bs_buf_addc(&b, ' ');
	bs_json_num(&b, 7510.9);
	bs_buf_addc(&b, ' ');
	bs_json_i64(&b, INT64_MIN);
	assert_string_equal(bs_buf_str(&b), "null 575 7510.9 null");
	bs_buf_release(&b);
}

static void test_err_first_wins(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	char q[16];

	(void)state;
	assert_int_equal(bs_error(&err, BS_EPARSE, "first %d", 1), -BS_EPARSE);
	assert_int_equal(bs_error(&err, BS_EIO, "second"), -BS_EIO);
	assert_string_equal(err.msg, "first 1");
	assert_int_equal(err.code, BS_EPARSE);
	bs_err_quote(q, sizeof(q), "a\tb\x1b[31mlong text here", 22, 8);
	assert_string_equal(q, "a?b?[31m...");
}

/* One CSV cell as a reader sees it: the quotes undone, then one leading
 * "'" (the formula guard) taken off. */
static char *read_cell(const char *cell)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t i, n = strlen(cell);

	assert_true(n >= 2 && cell[0] == '"' && cell[n - 1] == '"');
	for (i = 1; i + 1 < n; i++) {
		if (cell[i] == '"') {
			assert_int_equal(cell[i + 1], '"');
			i++;
		}
		bs_buf_addc(&b, cell[i]);
	}
	if (b.len > 0 && b.data[0] == '\'') {
		char *s = bs_buf_detach(&b, NULL);

		memmove(s, s + 1, strlen(s));
		return s;
	}
	return bs_buf_detach(&b, NULL);
}

static void test_csv_cell(void **state)
{
	/* clang-format off */
	static const char *const cases[][2] = {
		{ "plain", "\"plain\"" },
		{ "=1+1", "\"'=1+1\"" },
		/* The guard's own character is guarded, or "'=1+1" would
		 * be written as "=1+1" is. */
		{ "'=1+1", "\"''=1+1\"" },
		{ "''=1+1", "\"'''=1+1\"" },
		{ "'plain", "\"''plain\"" },
		{ "plain'", "\"plain'\"" },
		{ "+1", "\"'+1\"" },         { "-1", "\"'-1\"" },
		{ "@x", "\"'@x\"" },         { "\tx", "\"'\tx\"" },
		{ "\rx", "\"'\rx\"" },       { "a\tb\x1b[1m", "\"a\tb\x1b[1m\"" },
		{ "a \"b\", c", "\"a \"\"b\"\", c\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "", "\"\"" },
	};
	/* clang-format on */
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *back;

		bs_buf_reset(&b);
		bs_csv_cell(&b, cases[i][0], strlen(cases[i][0]));
		assert_string_equal(bs_buf_str(&b), cases[i][1]);
		back = read_cell(bs_buf_str(&b));
		assert_string_equal(back, cases[i][0]);
		free(back);
	}
	bs_buf_release(&b);
}

struct tcase {
	const char *in;
	int64_t want; /* unix seconds, or -1: out of range, -2: no date */
};

static void test_time_parse(void **state)
{
	/* clang-format off */
	static const struct tcase cases[] = {
		{ "2004-06-01", 1086048000 },
		{ "2004-06-01 12:30", 1086093000 },
		{ "2004-06-01T12:30:15Z", 1086093015 },
		{ "2024-02-29", 1709164800 },
		{ "@1700000000", 1700000000 },
		/* The range's ends: ISO 8601 and SQLite's datetime() both
		 * have four-digit years. */
		{ "1970-01-01", 0 },                  { "@0", 0 },
		{ "9999-12-31 23:59:59", 253402300799 },
		{ "@253402300799", 253402300799 },
		{ "1969-12-31 23:59:59", -1 },        { "@-1", -1 },
		{ "0000-01-01", -1 },                 { "@-99999999999", -1 },
		{ "@253402300800", -1 },              { "@9223372036854775807", -1 },
		{ "@-9223372036854775808", -1 },
		{ "", -2 },                  { "@", -2 },
		{ "@12x", -2 },              { "@9223372036854775808", -2 },
		{ "10000-01-01", -2 },       { "2023-02-29", -2 },
		{ "2024-13-01", -2 },        { "2024-01-01 24:00", -2 },
		{ "2024-01-01 12:60", -2 },  { "2024-01-01 12:00:60", -2 },
		{ "2024- 1- 1", -2 },        { " 2024-01-01", -2 },
		{ "2024-01-01 12", -2 },     { "2024-01-01 12:00:", -2 },
		{ "24-01-01", -2 },          { "2024/01/01", -2 },
		{ "yesterday", -2 },         { "-001-01-01", -2 },
	};
	/* clang-format on */
	struct bs_err err = BS_ERR_INIT;
	char want[128];
	size_t i;
	int64_t t;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs_err_reset(&err);
		t = 42;
		rc = bs_time_parse(cases[i].in, &t, &err);
		if (cases[i].want >= 0) {
			if (rc != 0 || t != cases[i].want)
				fail_msg("%s: rc %d, %lld (%s)", cases[i].in,
					 rc, (long long)t, err.msg);
			continue;
		}
		snprintf(want, sizeof(want), "'%s' %s", cases[i].in,
			 cases[i].want == -1
				 ? "is out of range (1970-01-01 to 9999-12-31)"
				 : "is not a date (YYYY-MM-DD[ HH:MM[:SS]] or "
				   "@UNIXTIME)");
		assert_int_equal(rc, -BS_EPARSE);
		assert_int_equal(t, 42);
		if (strcmp(err.msg, want) != 0)
			fail_msg("%s:\n got  %s\n want %s", cases[i].in,
				 err.msg, want);
	}
	/* User data in the message: cut, control characters as '?'. */
	bs_err_reset(&err);
	assert_int_equal(bs_time_parse("\x1b[2J@1", &t, &err), -BS_EPARSE);
	assert_string_equal(err.msg, "'?[2J@1' is not a date (YYYY-MM-DD[ "
				     "HH:MM[:SS]] or @UNIXTIME)");
}

/* Dates as text carries them: a mail's Date:, date(1), ISO. */
static void test_time_text(void **state)
{
	/* clang-format off */
	static const struct { const char *in; int64_t want; } cases[] = {
		{ " Tue, 14 Mar 2006 10:22:01 +0100", 1142328121 },
		{ "14 Mar 2006 09:22:01", 1142328121 },
		{ "Tue, 14 Mar 2006 04:22:01 -0500 (EST)", 1142328121 },
		{ "Tue, 14 Mar 2006 09:22 GMT", 1142328120 },
		{ "Tue Mar 14 09:22:01 UTC 2006", 1142328121 },
		{ "Tue Mar 14 09:22:01 2006", 1142328121 },
		{ "Tue Mar  14 10:22:01 CET 2006", 1142331721 },
		{ "2006-03-14", 1142294400 },
		{ "2006-03-14 09:22:01", 1142328121 },
		{ "", -1 }, { "yesterday", -1 }, { "Tue, 31 Feb 2006 10:00", -1 },
		{ "14 Foo 2006 10:22:01", -1 }, { "Tue, 14 Mar 06 10:22", -1 },
		{ "Tue, 14 Mar 2006 25:22:01", -1 }, { "2006-13-01", -1 },
		{ "1 2 3 4 5 6 7 8 9", -1 }, { "Mon Jan 1 00:00:00 1969", -1 },
	};
	/* clang-format on */
	size_t i;
	int64_t t;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		t = 42;
		rc = bs_time_parse_text(cases[i].in, strlen(cases[i].in), &t);
		if (cases[i].want < 0 ? rc != -BS_EPARSE || t != 42
				      : rc != 0 || t != cases[i].want)
			fail_msg("'%s': rc %d, %lld", cases[i].in, rc,
				 (long long)t);
	}
}

static void test_time_iso(void **state)
{
	char iso[40];

	(void)state;
	assert_string_equal(bs_time_iso(iso, sizeof(iso), 0),
			    "1970-01-01T00:00:00Z");
	assert_string_equal(bs_time_iso(iso, sizeof(iso), BS_TIME_MAX),
			    "9999-12-31T23:59:59Z");
}

/* ---- util/readfile.h ------------------------------------------------ */

/* dir/name, in a scratch directory made afresh. */
static char *scratch_path(const char *name)
{
	const char *base = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;

	bs_buf_addf(&b, "%s/test_util_readfile", base ? base : "/tmp");
	mkdir(base ? base : "/tmp", 0755);
	mkdir(bs_buf_str(&b), 0755);
	if (name)
		bs_buf_addf(&b, "/%s", name);
	return bs_buf_detach(&b, NULL);
}

/* Reads path as a template of at most max bytes; returns the code, and
 * the message in msg with the scratch directory's path as "D". */
static int read_as_template(const char *name, size_t max, struct bs_buf *out,
			    struct bs_buf *msg)
{
	char *path = scratch_path(name), *dir = scratch_path(NULL);
	struct bs_err err = BS_ERR_INIT;
	const char *p, *q;
	int rc;

	rc = bs_readfile(path, "template", max, out, &err);
	bs_buf_reset(msg);
	for (p = err.msg; (q = strstr(p, dir)) != NULL; p = q + strlen(dir)) {
		bs_buf_add(msg, p, (size_t)(q - p));
		bs_buf_adds(msg, "D");
	}
	bs_buf_adds(msg, p);
	free(path);
	free(dir);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_readfile(void **state)
{
	struct bs_buf out = BS_BUF_INIT, msg = BS_BUF_INIT;
	char *small = scratch_path("small"), *zero = scratch_path("zero");
	char *fifo = scratch_path("fifo"), *sub = scratch_path("sub");
	FILE *f;

	(void)state;
	f = fopen(small, "w");
	assert_non_null(f);
	fputs("hello", f);
	fclose(f);
	unlink(zero);
	assert_int_equal(symlink("/dev/zero", zero), 0);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	mkdir(sub, 0755);

	/* A regular file, up to the limit; out keeps what it held. */
	bs_buf_adds(&out, "<");
	assert_int_equal(read_as_template("small", 5, &out, &msg), 0);
	assert_string_equal(bs_buf_str(&out), "<hello");
	assert_int_equal(read_as_template("small", 4, &out, &msg), -BS_ETOOBIG);
	assert_string_equal(bs_buf_str(&msg),
			    "cannot read template 'D/small': larger than 4 "
			    "bytes");
	assert_string_equal(bs_buf_str(&out), "<hello");

	/* Not regular files: refused at once, never read. */
	assert_int_equal(read_as_template("zero", 1 << 20, &out, &msg),
			 -BS_EINVAL);
	assert_string_equal(bs_buf_str(&msg),
			    "cannot read template 'D/zero': it is a character "
			    "device, not a regular file");
	assert_int_equal(read_as_template("fifo", 1 << 20, &out, &msg),
			 -BS_EINVAL);
	assert_string_equal(bs_buf_str(&msg),
			    "cannot read template 'D/fifo': it is a FIFO, not "
			    "a regular file");
	assert_int_equal(read_as_template("sub", 1 << 20, &out, &msg),
			 -BS_EINVAL);
	assert_string_equal(bs_buf_str(&msg),
			    "cannot read template 'D/sub': Is a directory");
	assert_int_equal(read_as_template("none", 1 << 20, &out, &msg),
			 -BS_ENOTFOUND);
	assert_string_equal(bs_buf_str(&msg),
			    "cannot open template 'D/none': No such file or "
			    "directory");
	assert_string_equal(bs_buf_str(&out), "<hello");

	/* /proc says 0 bytes: what is there is read all the same. */
	bs_buf_reset(&out);
	assert_int_equal(bs_readfile("/proc/self/status", NULL, 1 << 20, &out,
				     NULL),
			 0);
	assert_non_null(strstr(bs_buf_str(&out), "Pid:"));

	bs_buf_release(&out);
	bs_buf_release(&msg);
	free(small);
	free(zero);
	free(fifo);
	free(sub);
}

static void test_readfile_open_fifo(void **state)
{
	char *fifo = scratch_path("fifo2");
	struct bs_err err = BS_ERR_INIT;
	char buf[16];
	double t0;
	pid_t pid;
	int fd, status;

	(void)state;
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	/* Nobody writes: the wait ends after its time. */
	t0 = now_s();
	assert_int_equal(bs_readfile_open(fifo, NULL, BS_FILE_FIFO, 200, &fd,
					  &err),
			 -BS_EIO);
	assert_true(now_s() - t0 >= 0.19 && now_s() - t0 < 5);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(err.msg, "': nothing written to the FIFO in "
					"200 ms"));

	/* A writer that comes later is waited for, and read to its end. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int w;

		usleep(100000);
		w = open(fifo, O_WRONLY);
		_exit(w >= 0 && write(w, "data", 4) == 4 ? 0 : 1);
	}
	bs_err_reset(&err);
	assert_int_equal(bs_readfile_open(fifo, NULL, BS_FILE_ANY, -1, &fd,
					  &err),
			 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "data", 4);
	assert_int_equal(read(fd, buf, sizeof(buf)), 0);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* Devices are taken when asked for, directories never. */
	assert_int_equal(bs_readfile_open("/dev/null", NULL, BS_FILE_ANY, -1,
					  &fd, &err),
			 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 0);
	close(fd);
	bs_err_reset(&err);
	assert_int_equal(bs_readfile_open("/", NULL, BS_FILE_ANY, -1, &fd,
					  &err),
			 -BS_EINVAL);
	assert_string_equal(err.msg, "cannot read '/': Is a directory");
	free(fifo);
}

/* Did you mean: the edit distance, and which words are close enough. */
static void test_similar(void **state)
{
	static const struct {
		const char *a, *b;
		size_t d;
	} cases[] = {
		{"raid", "raid", 0},      {"riad", "raid", 1},
		{"raid", "rad", 1},       {"raid", "raids", 1},
		{"reprot", "report", 1},  {"machin", "machine", 1},
		{"", "abc", 3},           {"abc", "", 3},
		{"kitten", "sitting", 3}, {"ca", "abc", 3},
	};
	char big[BS_SIMILAR_MAX + 2];
	const char *best = NULL;
	size_t i, dist = (size_t)-1;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(bs_similar_distance(cases[i].a, cases[i].b),
				 cases[i].d);
		assert_int_equal(bs_similar_distance(cases[i].b, cases[i].a),
				 cases[i].d);
	}
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_true(bs_similar_distance(big, "a") == (size_t)-1);
	/* Short words allow one edit, longer ones two; never the word. */
	assert_true(bs_similar_close("raid", 1));
	assert_false(bs_similar_close("raid", 2));
	assert_true(bs_similar_close("machine", 2));
	assert_false(bs_similar_close("machine", 3));
	assert_false(bs_similar_close("raid", 0));
	bs_similar_best("riad", "cache", &best, &dist);
	bs_similar_best("riad", "raid", &best, &dist);
	bs_similar_best("riad", "riad", &best, &dist);
	bs_similar_best("riad", "rain", &best, &dist);
	assert_string_equal(best, "raid");
	assert_int_equal(dist, 1);
}

/* The pool keeps each string once, by first-seen index, its copy at one
 * address through the table's growth (past 64 slots, twice). */
static void test_intern(void **state)
{
	struct bs_intern p = BS_INTERN_INIT;
	const char *jump;
	char name[32];
	int i;

	(void)state;
	assert_int_equal(bs_intern(&p, "jump"), 0);
	assert_int_equal(bs_intern(&p, "hop"), 1);
	assert_int_equal(bs_intern(&p, "jump"), 0);
	jump = p.str[0];
	assert_string_equal(jump, "jump");
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "machine-%d", i);
		assert_int_equal(bs_intern(&p, name), (uint32_t)i + 2);
	}
	assert_int_equal(p.n, 202);
	assert_int_equal(bs_intern(&p, "machine-117"), 119);
	assert_ptr_equal(bs_intern_str(&p, "jump"), jump);
	assert_string_equal(bs_intern_str(&p, NULL), "");
	assert_ptr_equal(bs_intern_str(&p, ""), p.str[202]);
	bs_intern_release(&p);
	assert_int_equal(p.n, 0);
	assert_null(p.str);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_parse_double_as_strtod),
		cmocka_unit_test(test_parse_ints),
		cmocka_unit_test(test_fmt_double),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_fnv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_err_first_wins),
		cmocka_unit_test(test_csv_cell),
		cmocka_unit_test(test_time_parse),
		cmocka_unit_test(test_time_iso),
		cmocka_unit_test(test_time_text),
		cmocka_unit_test(test_readfile),
		cmocka_unit_test(test_readfile_open_fifo),
		cmocka_unit_test(test_similar),
		cmocka_unit_test(test_intern),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
