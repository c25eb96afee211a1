/*
 * tests/fuzz/fuzz_args.c - libFuzzer target for the small parsers of what
 * users type on the command line: dates (util/timefmt.h), numbers and
 * sizes (util/num.h), tags (store/store.h), bonnie++'s run options
 * (core/bench_opts.h) and report --metrics lists (report/report.h).
 *
 * An input's first byte picks the parser, (byte - 'A') modulo their
 * number: 'A' to 'M' pick the rows of parsers[] below in order, which is
 * how the seeds in corpus-args start. The rest, up to the first NUL, is
 * the argument, in a buffer of its exact size (the number parsers get no
 * NUL at all), so that a read past it is ASan's to see. Naive readers
 * here, written apart from bstore's, say what each argument means, and
 * they must agree:
 *   - every failure has the documented code and exactly the message the
 *     argument calls for, one printable line with user data as
 *     bs_err_quote() shows it, and leaves the outputs that the header or
 *     the unit tests hold unchanged (a date, -r's RAM, the run options,
 *     both tag strings NULL);
 *   - bs_parse_u64, _i64 and _size take decimal digits (i64: a sign
 *     first; size: one k, m, g or t suffix, powers of 1024) and nothing
 *     else, refuse what does not fit 64 bits, and give the naive value;
 *     bs_parse_double takes the decimal grammar only (no inf, nan, hex or
 *     spaces), refusing only a value strtod() overflows or underflows
 *     on, or text of 64 bytes and more; what it gives is strtod()'s,
 *     finite, and bs_fmt_g() of it parses back to it;
 *   - bs_time_parse takes YYYY-MM-DD, with ' ' or 'T' HH:MM[:SS], an
 *     optional 'Z', or @N, gives the naive count of seconds of the
 *     proleptic Gregorian calendar, within BS_TIME_MIN..BS_TIME_MAX, and
 *     bs_time_iso() of it is the date written back, which parses to the
 *     same value again;
 *   - bs_store_parse_tag (with and without BS_TAG_NOT_OWN) takes KEY=VALUE
 *     by the rules of store/store.h in their order; KEY, '=' and VALUE are
 *     the argument, and written as a selector (escaped) they select that
 *     tag: bs_sel_parse() reads one BS_SEL_TAG term with the same key and
 *     value, as bs_store_check_tag() promises;
 *   - bs_bench_opts_parse_s, _n, _f, _c and _ram read each part into its
 *     field within the limits core/bench_opts.c sets (a chunk, a number
 *     of seek threads or directories under 2^32...), keep the other
 *     fields, and name the part that is wrong; bs_bench_check() then
 *     passes only options within bonnie++'s ranges, and the RAM rule
 *     sizes the file as core/bench_opts.h says (twice the RAM, at least
 *     300 MiB, rounded up to a whole GiB over half of one);
 *   - bs_report_metrics_parse chooses the union of what each word of the
 *     list chooses alone: a key the report metrics of that key (one in
 *     each family that has it), a family word its metrics, and nothing
 *     else; it refuses the first empty, too long or unknown word (a
 *     list is cut after 64 words, which cost time but add nothing).
 * Leaks are LeakSanitizer's to find.
 *
 * Build with -DBSTORE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt), then:
 *   mkdir -p /tmp/corpus-args
 *   ./fuzz_args -dict=tests/fuzz/args.dict /tmp/corpus-args \
 *       tests/fuzz/corpus-args
 * fuzz_args_replay runs the same checks over files without libFuzzer.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench_opts.h"
#include "core/metric.h"
#include "core/param.h"
#include "report/report.h"
#include "store/selector.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define MIB (UINT64_C(1) << 20)

/* ---- messages ------------------------------------------------------ */

/* s as messages show it (bs_err_quote: controls as '?', cut between
 * characters after max bytes with "..."; util/text.c's own tests and
 * tests/cli/terminal.sh check that rule). */
static const char *quoted(struct bs_buf *out, const char *s, size_t max)
{
	char q[512];

	bs_buf_reset(out);
	bs_buf_adds(out, bs_err_quote(q, sizeof(q), s, strlen(s), max));
	return bs_buf_str(out);
}

/* A failure: rc and err say code, and the message is want. */
static void want_error(int rc, const struct bs_err *err, int code,
		       const char *want)
{
	size_t i, len = strlen(err->msg);

	if (rc != -code || err->code != code || strcmp(err->msg, want) != 0) {
		fprintf(stderr, "got %d (%d) '%s'\nwant %d '%s'\n", rc,
			err->code, err->msg, -code, want);
		abort();
	}
	/* One printable line, not cut, no final period. */
	CHECK(len > 0 && len + 1 < sizeof(err->msg));
	for (i = 0; i < len; i++)
		CHECK((unsigned char)err->msg[i] >= 0x20 &&
		      err->msg[i] != 0x7f);
	CHECK(err->msg[len - 1] != '.');
}

/* The same, the message made by printf. */
static void want_errorf(int rc, const struct bs_err *err, int code,
			const char *fmt, ...) BS_PRINTF(4, 5);
static void want_errorf(int rc, const struct bs_err *err, int code,
			const char *fmt, ...)
{
	char want[BS_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	want_error(rc, err, code, want);
}

static void want_ok(int rc, const struct bs_err *err, const char *arg)
{
	if (rc != 0 || err->code != 0) {
		fprintf(stderr, "'%s' refused: %d %s\n", arg, rc, err->msg);
		abort();
	}
}

/* ---- numbers ------------------------------------------------------- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Does the decimal number s (digits only) exceed max (digits, no leading
 * zeros)? By the length and then the text, as one would on paper. */
static int over(const char *s, size_t len, const char *max)
{
	size_t m = strlen(max);

	while (len > 1 && s[0] == '0') {
		s++;
		len--;
	}
	return len > m || (len == m && memcmp(s, max, m) > 0);
}

/* One or more digits, not over UINT64_MAX: 0, else -1. */
static int naive_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return -1;
	if (over(s, len, "18446744073709551615"))
		return -1;
	for (i = 0; i < len; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	*out = v;
	return 0;
}

/* An optional sign, then digits, within int64_t: 0, else -1. */
static int naive_i64(const char *s, size_t len, int64_t *out)
{
	int neg = len > 0 && s[0] == '-';
	int64_t v = 0;
	size_t i;

	if (len > 0 && (s[0] == '-' || s[0] == '+')) {
		s++;
		len--;
	}
	if (len == 0)
		return -1;
	for (i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return -1;
	if (over(s, len, neg ? "9223372036854775808" : "9223372036854775807"))
		return -1;
	/* Negative numbers are summed downward: INT64_MIN fits. */
	for (i = 0; i < len; i++)
		v = v * 10 + (neg ? -(s[i] - '0') : s[i] - '0');
	*out = v;
	return 0;
}

/* Digits with one k, m, g or t (either case) after them, x1024^n. */
static int naive_size(const char *s, size_t len, uint64_t *out)
{
	static const char suffix[] = "kKmMgGtT";
	const char *p = len > 1 ? memchr(suffix, s[len - 1], 8) : NULL;
	unsigned shift = p ? 10 * (1 + (unsigned)(p - suffix) / 2) : 0;
	uint64_t v;

	if (naive_u64(s, p ? len - 1 : len, &v) < 0 ||
	    v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

/* The decimal grammar of util/num.h: sign, digits, '.', digits (one digit
 * at least), then e, sign, digits (one at least). */
static int naive_decimal(const char *s, size_t len)
{
	size_t i = 0, digits = 0, exp_digits = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && is_digit(s[i]); i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && is_digit(s[i]); i++)
			digits++;
	if (digits == 0)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (; i < len && is_digit(s[i]); i++)
			exp_digits++;
		if (exp_digits == 0)
			return 0;
	}
	return i == len;
}

static void check_u64(const char *arg, size_t len)
{
	uint64_t v, want;
	int rc = bs_parse_u64(arg, len, &v);

	if (naive_u64(arg, len, &want) < 0) {
		CHECK(rc == -BS_EPARSE);
		return;
	}
	CHECK(rc == 0 && v == want);
}

static void check_i64(const char *arg, size_t len)
{
	int64_t v, want;
	int rc = bs_parse_i64(arg, len, &v);

	if (naive_i64(arg, len, &want) < 0) {
		CHECK(rc == -BS_EPARSE);
		return;
	}
	CHECK(rc == 0 && v == want);
}

static void check_size(const char *arg, size_t len)
{
	uint64_t v, want;
	int rc = bs_parse_size(arg, len, &v);

	if (naive_size(arg, len, &want) < 0) {
		CHECK(rc == -BS_EPARSE);
		return;
	}
	CHECK(rc == 0 && v == want);
}

static void check_double(const char *arg, size_t len)
{
	char *text = xstrndup(arg, len), *end, g[64];
	double v, want = 0, back;
	int rc = bs_parse_double(arg, len, &v), fits = 0;

	if (naive_decimal(arg, len)) {
		errno = 0;
		want = strtod(text, &end);
		CHECK(end == text + len);
		fits = errno != ERANGE && isfinite(want) && len < 64;
	}
	if (!fits) {
		CHECK(rc == -BS_EPARSE);
		goto out;
	}
	CHECK(rc == 0 && v == want && isfinite(v));
	/* Printed as bstore prints numbers, it reads back the same. */
	bs_fmt_g(g, sizeof(g), v);
	CHECK(bs_parse_double(g, strlen(g), &back) == 0 && back == v);
out:
	free(text);
}

/* ---- dates --------------------------------------------------------- */

static int leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in(int64_t y, int m)
{
	static const int d[12] = {31, 28, 31, 30, 31, 30,
				  31, 31, 30, 31, 30, 31};

	return d[m - 1] + (m == 2 && leap(y));
}

/* Days from 1970-01-01 to y-m-d, counted one year and month at a time. */
static int64_t days_since_epoch(int64_t y, int m, int d)
{
	int64_t days = 0, i;
	int j;

	for (i = 1970; i < y; i++)
		days += 365 + leap(i);
	for (i = y; i < 1970; i++)
		days -= 365 + leap(i);
	for (j = 1; j < m; j++)
		days += days_in(y, j);
	return days + d - 1;
}

enum { DATE_OK, DATE_BAD, DATE_RANGE };

/* The date s says, its fields (f[0] = 0 for @N), and whether it is one. */
static int naive_date(const char *s, int64_t *t, int f[6])
{
	/* '9' a digit, 'T' a ' ' or 'T', anything else itself; where the
	 * year, month, day, hour, minute and second start. */
	static const char form[] = "9999-99-99T99:99:99";
	static const size_t at[6] = {0, 5, 8, 11, 14, 17};
	size_t i, j, len = strlen(s);

	memset(f, 0, 6 * sizeof(*f));
	if (s[0] == '@') {
		if (naive_i64(s + 1, len - 1, t) < 0)
			return DATE_BAD;
	} else {
		if (len > 0 && s[len - 1] == 'Z')
			len--;
		if (len != 10 && len != 16 && len != 19)
			return DATE_BAD;
		for (i = 0; i < len; i++)
			if (form[i] == '9'   ? !is_digit(s[i])
			    : form[i] == 'T' ? s[i] != ' ' && s[i] != 'T'
					     : s[i] != form[i])
				return DATE_BAD;
		for (i = 0; i < 6 && at[i] < len; i++)
			for (j = at[i]; j < at[i] + (i == 0 ? 4 : 2); j++)
				f[i] = f[i] * 10 + (s[j] - '0');
		if (f[1] < 1 || f[1] > 12 || f[2] < 1 ||
		    f[2] > days_in(f[0], f[1]) || f[3] > 23 || f[4] > 59 ||
		    f[5] > 59)
			return DATE_BAD;
		*t = days_since_epoch(f[0], f[1], f[2]) * 86400 + f[3] * 3600 +
		     f[4] * 60 + f[5];
	}
	return *t < BS_TIME_MIN || *t > BS_TIME_MAX ? DATE_RANGE : DATE_OK;
}

static void check_time(const char *arg, size_t len)
{
	struct bs_err err = BS_ERR_INIT, err2 = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT;
	const int64_t untouched = INT64_MIN + 42;
	int64_t t = untouched, want = 0, back = untouched, again;
	char iso[64], fields[64];
	int f[6], f2[6], rc;

	(void)len;
	rc = bs_time_parse(arg, &t, &err);
	switch (naive_date(arg, &want, f)) {
	case DATE_BAD:
		want_errorf(rc, &err, BS_EPARSE,
			    "'%s' is not a date (YYYY-MM-DD[ HH:MM[:SS]] or "
			    "@UNIXTIME)",
			    quoted(&q, arg, 40));
		CHECK(t == untouched);
		goto out;
	case DATE_RANGE:
		want_errorf(rc, &err, BS_EPARSE,
			    "'%s' is out of range (1970-01-01 to 9999-12-31)",
			    quoted(&q, arg, 40));
		CHECK(t == untouched);
		goto out;
	}
	want_ok(rc, &err, arg);
	CHECK(t == want && t >= BS_TIME_MIN && t <= BS_TIME_MAX);
	/* Written back: the date given, which reads as the same time. */
	bs_time_iso(iso, sizeof(iso), t);
	if (arg[0] != '@') {
		snprintf(fields, sizeof(fields),
			 "%04d-%02d-%02dT%02d:%02d:%02dZ", f[0], f[1], f[2],
			 f[3], f[4], f[5]);
		CHECK(strcmp(iso, fields) == 0);
	}
	CHECK(bs_time_parse(iso, &back, &err2) == 0 && back == t);
	CHECK(naive_date(iso, &again, f2) == DATE_OK && again == t);
out:
	bs_buf_release(&q);
}

/* ---- tags ---------------------------------------------------------- */

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int starts_with(const char *s, const char *start)
{
	return strncmp(s, start, strlen(start)) == 0;
}

static void check_tag_flags(const char *arg, unsigned flags)
{
	struct bs_err err = BS_ERR_INIT, serr = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT, sel_text = BS_BUF_INIT;
	struct bs_sel sel = BS_SEL_INIT;
	const char *eq = strchr(arg, '='), *p;
	char *key = NULL, *value = NULL, *want_key = NULL;
	int rc;

	rc = bs_store_parse_tag(arg, flags, &key, &value, &err);
	if (eq == NULL || eq == arg) {
		want_errorf(rc, &err, BS_EINVAL, "'%s' is not KEY=VALUE",
			    quoted(&q, arg, 40));
		goto refused;
	}
	want_key = xstrndup(arg, (size_t)(eq - arg));
	if ((flags & BS_TAG_NOT_OWN) &&
	    (starts_with(want_key, "host.") || starts_with(want_key, "run."))) {
		want_error(rc, &err, BS_EINVAL,
			   "host.* and run.* tags are set by bstore's measuring "
			   "commands themselves");
		goto refused;
	}
	if (has_control(want_key) || has_control(eq + 1)) {
		want_errorf(rc, &err, BS_EINVAL,
			    "tag '%s' has a control character (a newline?)",
			    quoted(&q, want_key, 40));
		goto refused;
	}
	if (strpbrk(want_key, ",!~<>")) {
		want_errorf(rc, &err, BS_EINVAL,
			    "tag key '%s' has one of , = ! ~ < >",
			    quoted(&q, want_key, 40));
		goto refused;
	}
	if (want_key[0] == ' ') {
		want_errorf(rc, &err, BS_EINVAL,
			    "tag key '%s' starts with a blank (selectors "
			    "drop the blanks that start a term)",
			    quoted(&q, want_key, 40));
		goto refused;
	}
	if (bs_sel_field(want_key, strlen(want_key))) {
		want_errorf(rc, &err, BS_EINVAL,
			    "'%s' is a run field, not a tag key (selectors "
			    "read it from the run)",
			    quoted(&q, want_key, 40));
		goto refused;
	}
	want_ok(rc, &err, arg);
	CHECK(key && value && key[0]);
	CHECK(strcmp(key, want_key) == 0 && strcmp(value, eq + 1) == 0);

	/* Every tag can be selected: KEY=VALUE, escaped as selectors are,
	 * is one term for this very tag. */
	for (p = arg; *p; p++) {
		/* ',' ends a term, '|' starts an alternative (docs/
		 * selectors.md): both escaped, as the escape itself. */
		if (*p == ',' || *p == '\\' || *p == '|')
			bs_buf_addc(&sel_text, '\\');
		/* A '[' of the value opens a class: '[[]' is itself. */
		if (*p == '[' && p > eq) {
			bs_buf_adds(&sel_text, "[[]");
			continue;
		}
		bs_buf_addc(&sel_text, *p);
	}
	rc = bs_sel_parse(&sel, bs_buf_str(&sel_text), &serr);
	if (rc != 1) {
		fprintf(stderr, "tag '%s' as selector '%s': %d %s\n", arg,
			bs_buf_str(&sel_text), rc, serr.msg);
		abort();
	}
	/* A key that is a parameter too selects the tag first
	 * (store/select.c). */
	CHECK(sel.term[0].kind == BS_SEL_TAG ||
	      sel.term[0].kind == BS_SEL_PARAM);
	CHECK(strcmp(sel.term[0].key, key) == 0);
	CHECK(strchr(value, '[') || strcmp(sel.term[0].value, value) == 0);
	goto out;
refused:
	CHECK(key == NULL && value == NULL);
out:
	free(key);
	free(value);
	free(want_key);
	bs_sel_release(&sel);
	bs_buf_release(&q);
	bs_buf_release(&sel_text);
}

static void check_tag(const char *arg, size_t len)
{
	(void)len;
	check_tag_flags(arg, 0);
}

static void check_tag_not_own(const char *arg, size_t len)
{
	(void)len;
	check_tag_flags(arg, BS_TAG_NOT_OWN);
}

/* ---- bonnie++'s run options ---------------------------------------- */

/* How a part of -s or -n is spelled (core/bench_opts.h). */
enum part_kind {
	P_MIB,   /* MiB; with a suffix, bytes that make whole MiB */
	P_BYTES, /* bytes, with a suffix */
	P_COUNT, /* a count; may end in k */
	P_FILES, /* -n NUM: a count; may end in m */
	P_MAX,   /* -n MAX: bytes, or -1/link, -2/symlink */
};

/* One part of an option: its field of struct bs_params, its spelling,
 * the largest value core/bench_opts.c keeps, what a bad one is, and
 * whether the message then quotes the whole argument or the part. */
struct part {
	size_t field;
	enum part_kind kind;
	uint64_t max;
	const char *bad;
	int whole;
};

#define FIELD(f) offsetof(struct bs_params, f)

/* clang-format off */
static const struct part s_parts[] = {
	{FIELD(file_size_mib), P_MIB, UINT64_MAX, "-s: bad size", 1},
	{FIELD(io_chunk_bytes), P_BYTES, UINT32_MAX, "-s: bad chunk size", 0},
	{FIELD(seeks), P_COUNT, UINT64_MAX, "-s: bad number of seeks", 0},
	{FIELD(seek_procs), P_COUNT, UINT32_MAX,
	 "-s: bad number of seek threads", 0},
};
static const struct part n_parts[] = {
	{FIELD(num_files), P_FILES, UINT64_MAX, "-n: bad file test spec", 1},
	{FIELD(max_size), P_MAX, INT64_MAX, "-n: bad file test spec", 1},
	{FIELD(min_size), P_BYTES, INT64_MAX, "-n: bad file test spec", 1},
	{FIELD(num_dirs), P_COUNT, UINT32_MAX, "-n: bad file test spec", 1},
	{FIELD(file_chunk_bytes), P_BYTES, UINT32_MAX,
	 "-n: bad file test spec", 1},
};
/* clang-format on */

static int64_t *field_of(struct bs_bench_opts *o, size_t field)
{
	return (int64_t *)(void *)((char *)&o->p + field);
}

/* The part s (len bytes) of kind k: its value, as the field keeps it;
 * 0, 1 for -n MAX's link or symlink (no limit applies), else -1. */
static int naive_part(const char *s, size_t len, enum part_kind k, uint64_t *v)
{
	char last = len > 0 ? s[len - 1] : '\0';

	switch (k) {
	case P_MIB:
		if (len == 0)
			return -1;
		if (is_digit(last))
			return naive_u64(s, len, v);
		if (naive_size(s, len, v) < 0 || *v % MIB != 0)
			return -1;
		*v /= MIB;
		return 0;
	case P_BYTES:
		return naive_size(s, len, v);
	case P_COUNT:
		if (len > 1 && (last == 'k' || last == 'K'))
			return naive_size(s, len, v);
		return naive_u64(s, len, v);
	case P_FILES:
		if (len > 1 && (last == 'm' || last == 'M')) {
			if (naive_u64(s, len - 1, v) < 0 || *v > MIB)
				return -1;
			*v *= 1024;
			return 0;
		}
		return naive_u64(s, len, v);
	case P_MAX:
		if ((len == 2 && memcmp(s, "-1", 2) == 0) ||
		    (len == 4 && memcmp(s, "link", 4) == 0)) {
			*v = (uint64_t)BS_SIZE_LINK;
			return 1;
		}
		if ((len == 2 && memcmp(s, "-2", 2) == 0) ||
		    (len == 7 && memcmp(s, "symlink", 7) == 0)) {
			*v = (uint64_t)BS_SIZE_SYMLINK;
			return 1;
		}
		return naive_size(s, len, v);
	}
	return -1;
}

/* The options are the same, field by field (bs_param_table for p). */
static int same_opts(const struct bs_bench_opts *a,
		     const struct bs_bench_opts *b)
{
	int i;

	if (a->dir != b->dir || a->machine != b->machine ||
	    a->tool_version != b->tool_version ||
	    a->fsync_each != b->fsync_each || a->no_sync != b->no_sync ||
	    a->direct != b->direct || a->seed != b->seed)
		return 0;
	for (i = 0; i < bs_nparams; i++) {
		const char *x = (const char *)&a->p + bs_param_table[i].offset;
		const char *y = (const char *)&b->p + bs_param_table[i].offset;

		switch (bs_param_table[i].kind) {
		case BS_PK_REAL:
			if (memcmp(x, y, sizeof(double)) != 0)
				return 0;
			break;
		case BS_PK_TEXT:
			if (memcmp(x, y, sizeof(char *)) != 0)
				return 0;
			break;
		default:
			if (memcmp(x, y, sizeof(int64_t)) != 0)
				return 0;
		}
	}
	return 1;
}

static int pow2_in(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* o parsed: bs_bench_check() passes only what is in bonnie++'s ranges. */
static void check_bench(const struct bs_bench_opts *o)
{
	struct bs_err err = BS_ERR_INIT;
	int rc = bs_bench_check(o, &err);
	const struct bs_params *p = &o->p;
	size_t len = strlen(err.msg), i;

	if (rc < 0) {
		CHECK(rc == -BS_EINVAL && err.code == BS_EINVAL && len > 0);
		for (i = 0; i < len; i++)
			CHECK((unsigned char)err.msg[i] >= 0x20);
		return;
	}
	CHECK(p->file_size_mib >= 0 && p->num_files >= 0);
	CHECK(p->file_size_mib > 0 || p->num_files > 0);
	CHECK(pow2_in(p->io_chunk_bytes, 256, 1 << 20));
	CHECK(pow2_in(p->file_chunk_bytes, 256, 1 << 20));
	CHECK(p->seeks >= 0 && p->seeks < UINT32_MAX);
	CHECK(p->seek_procs >= 1 && p->seek_procs <= BS_BENCH_MAX_SEEK_PROCS);
	CHECK(p->num_dirs >= 1 && p->num_dirs <= BS_BENCH_MAX_DIRS);
	CHECK(p->num_files <= 16384);
	CHECK(p->num_files == 0 || p->num_files * 1024 >= p->num_dirs);
	CHECK(p->min_size >= 0 && p->max_size <= (1 << 30));
	CHECK(p->max_size == BS_SIZE_LINK || p->max_size == BS_SIZE_SYMLINK ||
	      p->min_size <= p->max_size);
	CHECK(p->file_size_mib == 0 ||
	      (uint64_t)p->file_size_mib * MIB >= (uint64_t)p->io_chunk_bytes);
}

typedef int (*opt_fn)(struct bs_bench_opts *o, const char *arg,
		      struct bs_err *err);

/* -s or -n: the ':'-separated parts, each read as its row says. */
static void check_parts(const char *arg, const struct part *parts,
			size_t nparts, opt_fn parse)
{
	struct bs_bench_opts o, before, want;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT, part = BS_BUF_INIT;
	const char *s = arg, *colon;
	size_t i, n = 1;
	uint64_t v;
	int rc, r;

	bs_bench_defaults(&o);
	before = want = o;
	rc = parse(&o, arg, &err);
	for (colon = arg; (colon = strchr(colon, ':')) != NULL; colon++)
		n++;
	if (n > nparts) {
		/* Too many parts: the whole argument is bad. */
		want_errorf(rc, &err, BS_EINVAL, "%s '%s'", parts[0].bad,
			    quoted(&q, arg, 64));
		CHECK(same_opts(&o, &before));
		goto out;
	}
	for (i = 0;; i++) {
		colon = strchr(s, ':');
		bs_buf_reset(&part);
		bs_buf_add(&part, s, colon ? (size_t)(colon - s) : strlen(s));
		/* An empty part keeps the field; the first must be there. */
		if (i == 0 || part.len > 0) {
			const struct part *pt = &parts[i];
			const char *text = bs_buf_str(&part);

			r = naive_part(text, part.len, pt->kind, &v);
			if (r < 0 || (r == 0 && v > pt->max)) {
				want_errorf(rc, &err, BS_EINVAL, "%s '%s'",
					    pt->bad,
					    quoted(&q, pt->whole ? arg : text,
						   64));
				CHECK(same_opts(&o, &before));
				goto out;
			}
			/* The bits of v, over INT64_MAX too. */
			*field_of(&want, pt->field) = (int64_t)v;
		}
		if (colon == NULL)
			break;
		s = colon + 1;
	}
	want_ok(rc, &err, arg);
	CHECK(same_opts(&o, &want));
	check_bench(&o);
out:
	bs_buf_release(&q);
	bs_buf_release(&part);
}

static void check_s(const char *arg, size_t len)
{
	(void)len;
	check_parts(arg, s_parts, sizeof(s_parts) / sizeof(s_parts[0]),
		    bs_bench_opts_parse_s);
}

static void check_n(const char *arg, size_t len)
{
	(void)len;
	check_parts(arg, n_parts, sizeof(n_parts) / sizeof(n_parts[0]),
		    bs_bench_opts_parse_n);
}

/* -f[SIZE]: an empty argument stands for the bare -f. */
static void check_f(const char *arg, size_t len)
{
	struct bs_bench_opts o, before, want;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT;
	uint64_t v = 0;
	int rc;

	bs_bench_defaults(&o);
	before = want = o;
	rc = bs_bench_opts_parse_f(&o, len ? arg : NULL, &err);
	if (len && naive_part(arg, len, P_MIB, &v) < 0) {
		want_errorf(rc, &err, BS_EINVAL, "-f: bad per-char size '%s'",
			    quoted(&q, arg, 64));
		CHECK(same_opts(&o, &before));
		goto out;
	}
	want_ok(rc, &err, arg);
	want.p.per_char_mib = (int64_t)v;
	CHECK(same_opts(&o, &want));
	check_bench(&o);
out:
	bs_buf_release(&q);
}

static void check_c(const char *arg, size_t len)
{
	struct bs_bench_opts o, before, want;
	struct bs_err err = BS_ERR_INIT;
	uint64_t v;
	int rc;

	bs_bench_defaults(&o);
	before = want = o;
	rc = bs_bench_opts_parse_c(&o, arg, &err);
	if (naive_u64(arg, len, &v) < 0 || v < 1 || v > 200) {
		want_error(rc, &err, BS_EINVAL,
			   "-c: concurrency must be 1 to 200");
		CHECK(same_opts(&o, &before));
		return;
	}
	want_ok(rc, &err, arg);
	want.p.concurrency = (int64_t)v;
	CHECK(same_opts(&o, &want));
	check_bench(&o);
}

/* -r RAM, then the RAM rule without -s. */
static void check_ram(const char *arg, size_t len)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT;
	const int64_t untouched = INT64_MIN + 42;
	int64_t ram = untouched;
	uint64_t v, mib, want = BS_BENCH_DEFAULT_FILE_MIB;
	int rc = bs_bench_opts_parse_ram(arg, &ram, &err);

	if (naive_part(arg, len, P_MIB, &v) < 0 || v > INT64_MAX) {
		want_errorf(rc, &err, BS_EINVAL, "-r: bad RAM size '%s'",
			    quoted(&q, arg, 64));
		CHECK(ram == untouched);
		goto out;
	}
	want_ok(rc, &err, arg);
	CHECK(ram == (int64_t)v);

	/* Without -s: twice the RAM, at least 300 MiB, rounded up to a
	 * whole GiB when over half of one; -r 0 turns the rule off. A size
	 * that cannot be rounded is far over what bs_bench_check() takes,
	 * but never less than twice the RAM. */
	bs_bench_defaults(&o);
	rc = bs_bench_opts_ram_rule(&o, 0, ram, &err);
	want_ok(rc, &err, arg);
	mib = (uint64_t)o.p.file_size_mib;
	if ((uint64_t)ram * 2 > want)
		want = (uint64_t)ram * 2;
	CHECK(mib >= want);
	if (want % 1024 > 512 && want <= UINT64_MAX - 1024)
		want += 1024 - want % 1024;
	CHECK(mib == want || want % 1024 > 512);
out:
	bs_buf_release(&q);
}

/* ---- report --metrics ---------------------------------------------- */

/* What a family word chooses, besides metrics with that kind. */
static int in_family(const char *word, int m)
{
	int t = BS_RM_TEST(m), k = BS_RM_KIND(m);

	if (strcmp(word, "all") == 0)
		return 1;
	if (strcmp(word, "rates") == 0)
		return k == BS_MK_RATE;
	if (strcmp(word, "cpu") == 0)
		return k == BS_MK_CPU;
	if (strcmp(word, "latency") == 0)
		return k == BS_MK_LAT;
	if (strcmp(word, "io") == 0)
		return bs_metrics[t].family == BS_FAM_BONNIE &&
		       t < BS_M_FIRST_FILE;
	if (strcmp(word, "files") == 0)
		return bs_metrics[t].category == BS_CAT_METADATA;
	return -1; /* not a family */
}

/* Does a report have metric m? Its rate always; its CPU and latency for
 * bonnie++'s tests. */
static int reported(int m)
{
	return BS_RM_KIND(m) == BS_MK_RATE ||
	       (bs_metrics[BS_RM_TEST(m)].flags & BS_MF_CPU_LAT);
}

/* Is word the key of report metric m? Keys are unique within a family
 * only: "putc" is bonnie++'s and getc_putc's. */
static int named(const char *word, int m)
{
	static char key[BS_RM_COUNT][32]; /* made once: this is a hot loop */

	if (key[m][0] == '\0')
		bs_report_metric_key(m, key[m], sizeof(key[m]));
	return strcmp(word, key[m]) == 0;
}

/* A --metrics list is cut after this many words: the parser reads each
 * word alike, and more of them cost time, not coverage. */
#define METRICS_WORDS_MAX 64

static void check_metrics(const char *arg, size_t len)
{
	unsigned char got[BS_RM_COUNT], alone[BS_RM_COUNT], all[BS_RM_COUNT];
	struct bs_err err = BS_ERR_INIT, err1 = BS_ERR_INIT;
	struct bs_buf q = BS_BUF_INIT, word = BS_BUF_INIT;
	const char *s, *comma;
	char *list;
	size_t i, words = 1;
	int rc, m, fam, key, any;

	for (i = 0; i < len; i++)
		if (arg[i] == ',' && ++words > METRICS_WORDS_MAX)
			break;
	s = list = xstrndup(arg, i);
	memset(got, 0, sizeof(got));
	memset(all, 0, sizeof(all));
	rc = bs_report_metrics_parse(list, got, &err);
	for (;;) {
		comma = strchr(s, ',');
		bs_buf_reset(&word);
		bs_buf_add(&word, s, comma ? (size_t)(comma - s) : strlen(s));
		if (word.len == 0 || word.len >= 64) {
			want_errorf(rc, &err, BS_EINVAL,
				    "'%s' is not a metric list",
				    quoted(&q, list, 40));
			goto out;
		}
		fam = in_family(word.data, 0) >= 0;
		for (m = key = 0; m < BS_RM_USED && !key; m++)
			key = reported(m) && named(word.data, m);
		if (!fam && !key) {
			want_errorf(rc, &err, BS_EINVAL,
				    "unknown metric '%s' (expected e.g. "
				    "put_block, put_block_cpu, "
				    "put_block_latency, rates, cpu, latency, "
				    "io, files or all)",
				    quoted(&q, word.data, 40));
			goto out;
		}
		/* The word alone: the metrics of that key, or its family. */
		memset(alone, 0, sizeof(alone));
		bs_err_reset(&err1);
		want_ok(bs_report_metrics_parse(word.data, alone, &err1), &err1,
			word.data);
		any = 0;
		for (m = 0; m < BS_RM_COUNT; m++) {
			int want = m < BS_RM_USED && reported(m) &&
				   (named(word.data, m) ||
				    (fam && in_family(word.data, m)));

			CHECK(alone[m] == want);
			any |= want;
			all[m] |= alone[m];
		}
		CHECK(any);
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	want_ok(rc, &err, list);
	CHECK(memcmp(got, all, sizeof(got)) == 0);
out:
	free(list);
	bs_buf_release(&q);
	bs_buf_release(&word);
}

/* ---- the parsers --------------------------------------------------- */

/* clang-format off */
static const struct {
	const char *name; /* of the seeds in corpus-args */
	void (*check)(const char *arg, size_t len);
	int counted;      /* takes a length: arg gets no NUL */
} parsers[] = {
	{"time", check_time, 0},           /* A: ingest --measured-at */
	{"u64", check_u64, 1},             /* B */
	{"i64", check_i64, 1},             /* C */
	{"double", check_double, 1},       /* D */
	{"size", check_size, 1},           /* E */
	{"tag", check_tag, 0},             /* F: ingest --tag, bstore tag */
	{"tag-run", check_tag_not_own, 0}, /* G: run --tag */
	{"s", check_s, 0},                 /* H: run -s */
	{"n", check_n, 0},                 /* I: run -n */
	{"f", check_f, 0},                 /* J: run -f */
	{"c", check_c, 0},                 /* K: run -c */
	{"r", check_ram, 0},               /* L: run -r */
	{"metrics", check_metrics, 0},     /* M: report --metrics */
};
/* clang-format on */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t n = sizeof(parsers) / sizeof(parsers[0]);
	const uint8_t *nul;
	size_t len, i;
	char *arg;

	if (size == 0)
		return 0;
	i = (uint8_t)(data[0] - 'A') % n;
	nul = memchr(data + 1, '\0', size - 1);
	len = nul ? (size_t)(nul - data - 1) : size - 1;
	/* Exactly the argument, and its NUL unless counted. */
	arg = xmalloc(len + !parsers[i].counted + (len == 0));
	memcpy(arg, data + 1, len);
	if (!parsers[i].counted)
		arg[len] = '\0';
	parsers[i].check(arg, len);
	free(arg);
	return 0;
}
