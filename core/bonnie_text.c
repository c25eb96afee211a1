/*
 * core/bonnie_text.c - bonnie++'s printing rules, its CSV line (1.98 and
 * 1.03 layouts, docs/input-formats.md sections 1.2 and 1.6) and its text
 * tables (sections 2.1 and 2.3). Formatting only; nothing is printed here.
 */
#include "core/bonnie_text.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "util/num.h"
#include "util/banned.h"

/* ---- numbers --------------------------------------------------------- */

static int is_kib(int m)
{
	return (bs_metrics[m].flags & BS_MF_KIB) != 0;
}

/* A whole number without snprintf (reports format millions of them);
 * returns its length, 0 when it does not fit (buf is then ""). */
static size_t int_text(char *buf, size_t size, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;
	size_t n = 0, k = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (size < n + 2) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	if (v < 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

static const char *fmt_int(char *buf, size_t size, long long v)
{
	int_text(buf, size, v);
	return buf;
}

/*
 * "%.1f" of v without snprintf (reports print a million of them): the
 * same text, "465.7", "-12.0". Returns NULL when it cannot be sure to round
 * as printf does: a value too large, or one so near a half that the
 * multiplication by 10 may have moved it.
 */
static const char *fast_dec1(char *buf, size_t size, double v)
{
	double t = v * 10.0, r = nearbyint(t);
	char tmp[32];
	unsigned long long u;
	size_t n = 0, k = 0;

	/* t is within 1e-7 of v * 10 for |t| < 1e9; away from a half, its
	 * nearest integer is the one printf rounds the exact v to. */
	if (!(fabs(t) < 1e9) || fabs(fabs(t - r) - 0.5) < 1e-6 || size < 24)
		return NULL;
	u = (unsigned long long)(v < 0 ? -r : r);
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
		if (n == 1)
			tmp[n++] = '.';
	} while (u);
	if (n == 2)
		tmp[n++] = '0';
	if (v < 0 && r != 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return buf;
}

/* "%.1f" of v, fast when it can be. */
static const char *fmt_dec1(char *buf, size_t size, double v)
{
	if (fast_dec1(buf, size, v) == NULL)
		snprintf(buf, size, "%.1f", v);
	return buf;
}

/* v rounded to a whole number ("%.0f"); "-0" prints as "0". */
static const char *fmt_whole(char *buf, size_t size, double v)
{
	double r = nearbyint(v);

	if (fabs(r) < 1e18)
		return fmt_int(buf, size, (long long)r);
	snprintf(buf, size, "%.0f", r);
	return buf;
}

/* Drops a trailing ".0" ("3144.0" -> "3144") or trailing zeros. */
static void strip_zeros(char *buf)
{
	char *dot = strchr(buf, '.');
	size_t n;

	if (dot == NULL)
		return;
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	/* "-0" reads as a negative change: print "0". */
	if (strcmp(buf, "-0") == 0)
		memmove(buf, buf + 1, 2);
}

/* Seeks as bonnie++ 1.9x+ prints them: "%.0f" from 1000 up, else "%.1f". */
/* "%.*f" of v and a unit letter (or nothing): through bs_fmt_double,
 * whose text is printf's for the values a rate takes (it prints a
 * negative zero unsigned; those keep printf's). */
static const char *fixed(char *buf, size_t size, double v, int dec,
			 const char *unit)
{
	size_t n;

	if (v >= 0)
		bs_fmt_double(buf, size, v, dec);
	else
		snprintf(buf, size, "%.*f", dec, v);
	n = strlen(buf);
	if (n + strlen(unit) < size)
		memcpy(buf + n, unit, strlen(unit) + 1);
	return buf;
}

static const char *fmt_seeks(char *buf, size_t size, double v)
{
	return fixed(buf, size, v, fabs(v) >= 1000 ? 0 : 1, "");
}

double bs_bonnie_round(int m, double v)
{
	char buf[64];

	assert(m >= 0 && m < BS_M_BONNIE);
	if (isnan(v))
		return v;
	if (m == BS_M_SEEKS)
		return strtod(fmt_seeks(buf, sizeof(buf), v), NULL);
	return trunc(v);
}

double bs_bonnie_round_cpu(double pct)
{
	return trunc(pct);
}

double bs_bonnie_round_latency(double us)
{
	/* bonnie++: over 99.999999 s in s, over 0.099999 s in ms. */
	if (isnan(us))
		return us;
	if (us > 99999999)
		return trunc(us / 1e6) * 1e6;
	if (us > 99999)
		return trunc(us / 1e3) * 1e3;
	return trunc(us);
}

void bs_bonnie_round_run(struct bs_run *r)
{
	int m;

	for (m = 0; m < BS_M_BONNIE; m++) {
		struct bs_value *v = &r->res[m];
		v->value = bs_bonnie_round(m, v->value);
		v->cpu_pct = bs_bonnie_round_cpu(v->cpu_pct);
		v->lat_us = bs_bonnie_round_latency(v->lat_us);
	}
}

const char *bs_bonnie_fmt_value(char *buf, size_t size, int m, double v)
{
	assert(m >= 0 && m < BS_M_BONNIE && size > 0);
	if (isnan(v)) {
		buf[0] = '\0';
		return buf;
	}
	if (m == BS_M_SEEKS) {
		fmt_dec1(buf, size, v);
		strip_zeros(buf);
		return buf;
	}
	return fmt_whole(buf, size, v);
}

const char *bs_bonnie_fmt_mib(char *buf, size_t size, double kib_s)
{
	fmt_dec1(buf, size, kib_s / 1024);
	if (strcmp(buf, "-0.0") == 0)
		memmove(buf, buf + 1, 4);
	return buf;
}

const char *bs_bonnie_fmt_kib(char *buf, size_t size, double kib_s)
{
	double mib = kib_s / 1024, gib = mib / 1024;

	if (kib_s >= 0 && kib_s < 9999.5)
		fixed(buf, size, trunc(kib_s), 0, "k");
	else if (kib_s < 9999.5)
		snprintf(buf, size, "%lldk", (long long)kib_s);
	else if (mib < 99.95)
		fixed(buf, size, mib, 1, "m");
	else if (mib < 999.5)
		fixed(buf, size, mib, 0, "m");
	else if (gib < 99.95)
		fixed(buf, size, gib, 1, "g");
	else
		fixed(buf, size, gib, 0, "g");
	return buf;
}

const char *bs_bonnie_fmt_rate(char *buf, size_t size, int m, double v)
{
	if (isnan(v)) {
		buf[0] = '\0';
		return buf;
	}
	if (is_kib(m))
		return bs_bonnie_fmt_kib(buf, size, v);
	if (m == BS_M_SEEKS)
		return fmt_seeks(buf, size, v);
	return fmt_whole(buf, size, v);
}

const char *bs_bonnie_fmt_cpu(char *buf, size_t size, double pct)
{
	if (isnan(pct)) {
		buf[0] = '\0';
		return buf;
	}
	return fmt_whole(buf, size, pct);
}

const char *bs_bonnie_fmt_latency(char *buf, size_t size, double us)
{
	const char *unit = "us";
	double a = fabs(us), v, r;
	size_t n, ulen = 2;

	if (isnan(us)) {
		buf[0] = '\0';
		return buf;
	}
	/* As bonnie++, at most five digits in a unit; the unit is chosen
	 * on the rounded value, so 99999.7 us is "100ms", never
	 * "100000us". */
	if (a >= 99999.5e3) {
		v = a / 1e6;
		unit = "s";
		ulen = 1;
	} else if (a >= 99999.5) {
		v = a / 1e3;
		unit = "ms";
	} else {
		v = a;
	}
	/* fmt_whole's text, its length known (the measure key formats
	 * twelve of these a run). */
	r = nearbyint(us < 0 ? -v : v);
	if (fabs(r) < 1e18) {
		n = int_text(buf, size, (long long)r);
	} else {
		snprintf(buf, size, "%.0f", r);
		n = strlen(buf);
	}
	if (n + 3 <= size)
		memcpy(buf + n, unit, ulen + 1);
	return buf;
}

const char *bs_bonnie_fmt_size(char *buf, size_t size, int64_t mib)
{
	size_t n;

	/* bonnie++ prints no size for -s 0. */
	buf[0] = '\0';
	if (mib == BS_NONE || mib <= 0 || size < 24)
		return buf;
	if (mib % 1024 == 0)
		fmt_int(buf, size, mib / 1024);
	else
		fmt_int(buf, size, mib);
	n = strlen(buf);
	buf[n] = mib % 1024 == 0 ? 'G' : 'M';
	buf[n + 1] = '\0';
	return buf;
}

const char *bs_bonnie_fmt_bytes(char *buf, size_t size, int64_t v)
{
	if (v >= (1 << 20) && v % (1 << 20) == 0)
		snprintf(buf, size, "%lldm", (long long)(v >> 20));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, size, "%lldk", (long long)(v >> 10));
	else
		snprintf(buf, size, "%lld", (long long)v);
	return buf;
}

const char *bs_bonnie_fmt_files(char *buf, size_t size,
				const struct bs_params *p)
{
	size_t n;

	buf[0] = '\0';
	if (p->num_files == BS_NONE)
		return buf;
	snprintf(buf, size, "%lld", (long long)p->num_files);
	n = strlen(buf);
	/* bonnie++'s spelling: num[:max[:min]][/dirs], max when not 0. */
	if (p->max_size == BS_SIZE_LINK)
		snprintf(buf + n, size - n, ":link");
	else if (p->max_size == BS_SIZE_SYMLINK)
		snprintf(buf + n, size - n, ":symlink");
	else if (p->max_size != BS_NONE && p->max_size != 0)
		snprintf(buf + n, size - n, ":%lld:%lld",
			 (long long)p->max_size,
			 (long long)(p->min_size == BS_NONE ? 0 : p->min_size));
	n = strlen(buf);
	if (p->num_dirs != BS_NONE && p->num_dirs > 1)
		snprintf(buf + n, size - n, "/%lld", (long long)p->num_dirs);
	return buf;
}

const char *bs_value_fmt(char *buf, size_t size, int m, double v)
{
	return bs_metric_fmt(buf, size, m, v, 0);
}

/* ---- the CSV line ---------------------------------------------------- */

static int ran(const struct bs_value *v)
{
	return v->status != BS_ST_NOT_RUN;
}

static int any_ran(const struct bs_run *r, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (ran(&r->res[i]))
			return 1;
	return 0;
}

/* Did the run have the I/O part (-s > 0) / the file part (-n > 0)? */
static int io_part(const struct bs_run *r)
{
	if (r->params.file_size_mib != BS_NONE)
		return r->params.file_size_mib > 0;
	return any_ran(r, 0, BS_M_FIRST_FILE);
}

static int file_part(const struct bs_run *r)
{
	if (r->params.num_files != BS_NONE)
		return r->params.num_files > 0;
	return any_ran(r, BS_M_FIRST_FILE, BS_M_BONNIE);
}

static void add_size(struct bs_buf *out, int64_t mib)
{
	char b[32];

	bs_buf_adds(out, bs_bonnie_fmt_size(b, sizeof(b), mib));
}

static void add_bytes(struct bs_buf *out, int64_t v)
{
	char b[32];

	bs_buf_adds(out, bs_bonnie_fmt_bytes(b, sizeof(b), v));
}

static int chunk_is_default(const struct bs_run *r)
{
	return r->params.io_chunk_bytes == BS_NONE ||
	       r->params.io_chunk_bytes == bs_param_default("io_chunk_bytes");
}

/* Rate and CPU cells: "712,99", "+++++,+++" or ",". 1.0x lines print
 * seeks with one decimal always. */
static void add_pair(struct bs_buf *out, const struct bs_run *r, int m,
		     int seeks_one)
{
	const struct bs_value *v = &r->res[m];
	char b[64];

	switch (v->status) {
	case BS_ST_OK:
		bs_buf_addc(out, ',');
		if (m == BS_M_SEEKS && isnan(v->value))
			;
		else if (m == BS_M_SEEKS && seeks_one)
			bs_buf_addf(out, "%.1f", v->value);
		else if (m == BS_M_SEEKS)
			bs_buf_adds(out, fmt_seeks(b, sizeof(b), v->value));
		else
			bs_buf_adds(out, bs_bonnie_fmt_value(
						 b, sizeof(b), m,
						 bs_bonnie_round(m, v->value)));
		bs_buf_addc(out, ',');
		bs_buf_adds(out,
			    bs_bonnie_fmt_cpu(b, sizeof(b),
					      bs_bonnie_round_cpu(v->cpu_pct)));
		break;
	case BS_ST_TOO_FAST:
		bs_buf_adds(out, ",+++++,+++");
		break;
	case BS_ST_NOT_RUN:
		bs_buf_adds(out, ",,");
		break;
	}
}

/* A latency cell: empty when the test did not run or bonnie++ measured
 * nothing (it prints nothing for 0). */
static void add_latency(struct bs_buf *out, const struct bs_value *v)
{
	char b[32];

	bs_buf_addc(out, ',');
	if (ran(v) && v->lat_us > 0)
		bs_buf_adds(out, bs_bonnie_fmt_latency(b, sizeof(b),
						       bs_bonnie_round_latency(
							       v->lat_us)));
}

/* Field 1: the version, "bstore-0.1.0" for a tool other than bonnie++. */
static void add_version(struct bs_buf *out, const struct bs_run *r)
{
	const char *v = r->tool_version ? r->tool_version : "";

	if (r->tool && strcmp(r->tool, "bonnie++") != 0)
		bs_buf_addf(out, "%s-%s", r->tool, v);
	else
		bs_buf_adds(out, v);
}

static void csv_198(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	int i;

	bs_buf_adds(out, "1.98,");
	add_version(out, r);
	bs_buf_addf(out, ",%s,%lld,%s", r->machine ? r->machine : "",
		    (long long)(p->concurrency == BS_NONE ? 1 : p->concurrency),
		    p->seed ? p->seed : "");
	if (io_part(r)) {
		bs_buf_addc(out, ',');
		add_size(out, p->file_size_mib);
		bs_buf_addc(out, ',');
		if (!chunk_is_default(r))
			add_bytes(out, p->io_chunk_bytes);
		bs_buf_addc(out, ',');
		if (p->seeks != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->seeks);
		bs_buf_addc(out, ',');
		if (p->seek_procs != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->seek_procs);
		for (i = 0; i < BS_M_FIRST_FILE; i++)
			add_pair(out, r, i, 0);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,,,,");
	}
	if (file_part(r)) {
		bs_buf_addc(out, ',');
		if (p->num_files != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->num_files);
		bs_buf_addc(out, ',');
		if (p->max_size == BS_SIZE_LINK)
			bs_buf_adds(out, "link");
		else if (p->max_size == BS_SIZE_SYMLINK)
			bs_buf_adds(out, "symlink");
		else if (p->max_size != BS_NONE && p->max_size != 0)
			bs_buf_addf(out, "%lld", (long long)p->max_size);
		bs_buf_addc(out, ',');
		if (p->min_size != BS_NONE && p->min_size != 0)
			bs_buf_addf(out, "%lld", (long long)p->min_size);
		/* Field 24 stays empty and 25 holds the directories, as in
		 * 2.00a, so that Debian's tools and old parsers agree. */
		bs_buf_adds(out, ",,");
		if (p->num_dirs != BS_NONE && p->num_dirs > 1)
			bs_buf_addf(out, "%lld", (long long)p->num_dirs);
		for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
			add_pair(out, r, i, 0);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,,,,,");
	}
	for (i = 0; i < BS_M_BONNIE; i++)
		add_latency(out, &r->res[i]);
}

static void csv_103(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	char b[96];
	int i;

	bs_buf_adds(out, r->machine ? r->machine : "");
	if (io_part(r)) {
		bs_buf_addc(out, ',');
		add_size(out, p->file_size_mib);
		if (!chunk_is_default(r)) {
			bs_buf_addc(out, ':');
			add_bytes(out, p->io_chunk_bytes);
		}
		for (i = 0; i < BS_M_FIRST_FILE; i++)
			add_pair(out, r, i, 1);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,");
	}
	if (file_part(r)) {
		bs_buf_addc(out, ',');
		bs_buf_adds(out, bs_bonnie_fmt_files(b, sizeof(b), p));
		for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
			add_pair(out, r, i, 1);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,");
	}
}

/* The layouts: --csv-format's name, and the input format whose lines
 * are in that layout already. */
static const struct {
	const char *name;
	enum bs_csv_format fmt;
	const char *input;
} csv_formats[] = {
	{"1.98", BS_CSV_1_98, BS_FMT_CSV_1_98},
	{"1.03", BS_CSV_1_03, BS_FMT_CSV_1_0X},
};

int bs_csv_format_is_input(enum bs_csv_format fmt, const char *format)
{
	size_t i;

	for (i = 0; i < sizeof(csv_formats) / sizeof(csv_formats[0]); i++)
		if (csv_formats[i].fmt == fmt)
			return format &&
			       strcmp(format, csv_formats[i].input) == 0;
	return 0;
}

int bs_format_is_csv_line(const char *format)
{
	const struct bs_dialect *d = bs_dialect_find(format);

	return d && d->csv != BS_LAYOUT_NONE;
}

int bs_csv_format_parse(const char *name, enum bs_csv_format *out,
			struct bs_err *err)
{
	char q[64];
	size_t i;

	for (i = 0; i < sizeof(csv_formats) / sizeof(csv_formats[0]); i++)
		if (strcmp(name, csv_formats[i].name) == 0) {
			*out = csv_formats[i].fmt;
			return 0;
		}
	return bs_error(err, BS_EINVAL, "expected %s, got '%s'",
			bs_csv_format_names(),
			bs_err_quote(q, sizeof(q), name, strlen(name), 40));
}

const char *bs_csv_format_name(enum bs_csv_format fmt)
{
	size_t i;

	for (i = 0; i < sizeof(csv_formats) / sizeof(csv_formats[0]); i++)
		if (csv_formats[i].fmt == fmt)
			return csv_formats[i].name;
	return "?";
}

const char *bs_csv_format_names(void)
{
	static char names[64];
	size_t i, n = sizeof(csv_formats) / sizeof(csv_formats[0]);

	/* "1.98 or 1.03", from the table. */
	names[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t len = strlen(names);
		snprintf(names + len, sizeof(names) - len, "%s%s",
			 i == 0       ? ""
			 : i + 1 == n ? " or "
				      : ", ",
			 csv_formats[i].name);
	}
	return names;
}

/* What a line may leave out, bs_bonnie_csv_drops()'s mask. */
enum {
	DROP_LATENCY = 1,
	DROP_SEED = 2,
	DROP_CONCURRENCY = 4,
	DROP_SEEKS = 8,
	DROP_SEEK_PROCS = 16,
};

static const struct {
	unsigned bit;
	const char *name;
} drop_names[] = {
	{DROP_LATENCY, "latencies"},         {DROP_SEED, "seed"},
	{DROP_CONCURRENCY, "concurrency"},   {DROP_SEEKS, "seek count"},
	{DROP_SEEK_PROCS, "seek processes"},
};

unsigned bs_bonnie_csv_drops(const struct bs_run *r, enum bs_csv_format fmt)
{
	const struct bs_params *p = &r->params;
	unsigned mask = 0;
	int i;

	if (fmt == BS_CSV_1_98)
		return 0;
	for (i = 0; i < BS_M_BONNIE; i++)
		if (ran(&r->res[i]) && r->res[i].lat_us > 0)
			mask |= DROP_LATENCY;
	if (p->seed && p->seed[0])
		mask |= DROP_SEED;
	if (p->concurrency != BS_NONE && p->concurrency != 1)
		mask |= DROP_CONCURRENCY;
	if (p->seeks != BS_NONE)
		mask |= DROP_SEEKS;
	if (p->seek_procs != BS_NONE)
		mask |= DROP_SEEK_PROCS;
	return mask;
}

void bs_bonnie_csv_drops_names(unsigned mask, struct bs_buf *out)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(drop_names) / sizeof(drop_names[0]); i++)
		if (mask & drop_names[i].bit)
			bs_buf_addf(out, "%s%s", n++ ? ", " : "",
				    drop_names[i].name);
}

void bs_bonnie_csv(const struct bs_run *r, enum bs_csv_format fmt,
		   struct bs_buf *out)
{
	if (fmt == BS_CSV_1_03)
		csv_103(r, out);
	else
		csv_198(r, out);
}

/* ---- the text tables ------------------------------------------------- */

/* Pads the buffer with spaces up to column col of the current line. */
static void pad_to(struct bs_buf *out, size_t line_start, size_t col)
{
	while (out->len - line_start < col)
		bs_buf_addc(out, ' ');
}

static void version_label(struct bs_buf *out, const struct bs_run *r)
{
	size_t start = out->len;
	const char *v = r->tool_version ? r->tool_version : "";

	if (r->tool == NULL || strcmp(r->tool, "bonnie++") == 0)
		bs_buf_addf(out, "Version %s", v);
	else
		bs_buf_addf(out, "%s %s", r->tool, v);
	pad_to(out, start, 19);
	bs_buf_addc(out, ' ');
}

/*
 * One " %5s %3s" cell pair, or ten blanks for a test that did not run.
 * 2.00a's style prints I/O rates as k/m/g, 1.03's and 1.9x's as plain
 * K/sec.
 */
static void table_cell(struct bs_buf *out, const struct bs_run *r, int m,
		       enum bs_table_style style)
{
	const struct bs_value *v = &r->res[m];
	char rate[32] = "", cpu[16] = "";

	switch (v->status) {
	case BS_ST_NOT_RUN:
		bs_buf_adds(out, "          ");
		return;
	case BS_ST_TOO_FAST:
		bs_buf_adds(out, " +++++ +++");
		return;
	case BS_ST_OK:
		break;
	}
	/* Written as bonnie++ writes: quantized, then printed. */
	if (style != BS_TABLE_2 && m != BS_M_SEEKS)
		bs_bonnie_fmt_value(rate, sizeof(rate), m,
				    bs_bonnie_round(m, v->value));
	else
		bs_bonnie_fmt_rate(rate, sizeof(rate), m,
				   bs_bonnie_round(m, v->value));
	bs_bonnie_fmt_cpu(cpu, sizeof(cpu), bs_bonnie_round_cpu(v->cpu_pct));
	bs_buf_addf(out, " %5s %3s", rate, cpu);
}

static void latency_row(struct bs_buf *out, const struct bs_run *r, int from,
			int to)
{
	char b[32];
	int i;

	bs_buf_adds(out, "Latency          ");
	for (i = from; i < to; i++) {
		if (ran(&r->res[i]) && r->res[i].lat_us > 0)
			bs_bonnie_fmt_latency(b, sizeof(b),
					      bs_bonnie_round_latency(
						      r->res[i].lat_us));
		else
			b[0] = '\0';
		bs_buf_addf(out, " %9s", b);
	}
	bs_buf_addc(out, '\n');
}

/* "64M", or "8M:4k:2:100:3": size[:chunk][:concurrency][:seeks][:procs]. */
static void size_label(struct bs_buf *out, const struct bs_run *r)
{
	const struct bs_params *p = &r->params;
	size_t keep;

	add_size(out, p->file_size_mib);
	bs_buf_addc(out, ':');
	if (!chunk_is_default(r))
		add_bytes(out, p->io_chunk_bytes);
	bs_buf_addc(out, ':');
	if (p->concurrency != BS_NONE && p->concurrency != 1)
		bs_buf_addf(out, "%lld", (long long)p->concurrency);
	bs_buf_addc(out, ':');
	if (p->seeks != BS_NONE && p->seeks != bs_param_default("seeks"))
		bs_buf_addf(out, "%lld", (long long)p->seeks);
	bs_buf_addc(out, ':');
	if (p->seek_procs != BS_NONE &&
	    p->seek_procs != bs_param_default("seek_procs"))
		bs_buf_addf(out, "%lld", (long long)p->seek_procs);
	keep = out->len;
	while (keep > 0 && out->data[keep - 1] == ':')
		keep--;
	bs_buf_trim(out, out->len - keep);
}

static void io_table_2(const struct bs_run *r, struct bs_buf *out)
{
	struct bs_buf label = BS_BUF_INIT;
	const char *name = r->machine ? r->machine : "";
	size_t start, room, nlen = strlen(name);
	int i;

	version_label(out, r);
	bs_buf_adds(out, "------Sequential Output------ --Sequential Input- "
			 "--Random-\n"
			 "                    -Per Chr- --Block-- -Rewrite- "
			 "-Per Chr- --Block-- --Seeks--\n"
			 "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  "
			 "/sec %CP  /sec %CP  /sec %CP\n");
	/* The name is cut so that name, a space and the label fit 19. */
	size_label(&label, r);
	room = label.len < 18 ? 18 - label.len : 0;
	if (nlen > room)
		nlen = room;
	start = out->len;
	bs_buf_add(out, name, nlen);
	pad_to(out, start, label.len < 19 ? 19 - label.len : nlen + !!nlen);
	bs_buf_adds(out, bs_buf_str(&label));
	for (i = 0; i < BS_M_FIRST_FILE; i++)
		table_cell(out, r, i, BS_TABLE_2);
	bs_buf_addc(out, '\n');
	latency_row(out, r, 0, BS_M_FIRST_FILE);
	bs_buf_release(&label);
}

/* "files:max:min", "files:max" or "files", right-aligned in 19. */
static void files_head(struct bs_buf *out, const struct bs_params *p)
{
	if (p->max_size != BS_NONE && p->max_size > 0)
		bs_buf_adds(out, "files:max:min      ");
	else if (p->max_size == BS_SIZE_LINK || p->max_size == BS_SIZE_SYMLINK)
		bs_buf_adds(out, "files:max          ");
	else
		bs_buf_adds(out, "              files");
	bs_buf_adds(out, "  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
			 "/sec %CP\n");
}

static void file_rows(const struct bs_run *r, struct bs_buf *out,
		      enum bs_table_style style)
{
	char spec[96];
	int i;

	files_head(out, &r->params);
	bs_buf_addf(out, "%19s",
		    bs_bonnie_fmt_files(spec, sizeof(spec), &r->params));
	for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
		table_cell(out, r, i, style);
	bs_buf_addc(out, '\n');
}

/* The file tests' second head line: the machine in 19 columns, then the
 * six tests (bonnie++ 1.9x and 2.00a). */
static void file_heads_row(struct bs_buf *out, const struct bs_run *r)
{
	size_t start = out->len;

	bs_buf_addf(out, "%.19s", r->machine ? r->machine : "");
	pad_to(out, start, 19);
	bs_buf_adds(out, " -Create-- --Read--- -Delete-- -Create-- --Read--- "
			 "-Delete--\n");
}

static void file_table_2(const struct bs_run *r, struct bs_buf *out)
{
	version_label(out, r);
	bs_buf_adds(out, "------Sequential Create------ --------Random "
			 "Create--------\n");
	file_heads_row(out, r);
	file_rows(r, out, BS_TABLE_2);
	latency_row(out, r, BS_M_FIRST_FILE, BS_M_BONNIE);
}

/* "Version  1.03       ...": bonnie++ 1.0x and 1.9x print the version
 * in five columns. */
static void version_5(struct bs_buf *out, const struct bs_run *r,
		      const char *heads)
{
	bs_buf_addf(out, "Version %5s       %s\n",
		    r->tool_version ? r->tool_version : "", heads);
}

/*
 * The K/sec header line and the I/O row of bonnie++ 1.0x and 1.9x:
 * "Machine        Size K/sec %CP ...", then name and size (with the chunk
 * when it is not the default) in 19 columns, a long name cut, and the
 * cells as plain K/sec.
 */
static void io_row_k(const struct bs_run *r, struct bs_buf *out,
		     enum bs_table_style style)
{
	const char *name = r->machine ? r->machine : "";
	char size[48], label[64];
	int i, nl;

	bs_bonnie_fmt_size(size, sizeof(size), r->params.file_size_mib);
	if (!chunk_is_default(r)) {
		size_t n = strlen(size);
		size[n] = ':';
		bs_bonnie_fmt_bytes(size + n + 1, sizeof(size) - n - 1,
				    r->params.io_chunk_bytes);
	}
	bs_buf_addf(out,
		    "Machine   %s K/sec %%CP K/sec %%CP K/sec "
		    "%%CP K/sec %%CP K/sec %%CP  /sec %%CP\n",
		    strchr(size, ':') ? "Size:chnk" : "     Size");
	nl = 19 - (int)strlen(size) - 1;
	if (nl < 1)
		nl = 1;
	snprintf(label, sizeof(label), "%-*.*s %s", nl, nl, name, size);
	bs_buf_addf(out, "%19s", label);
	for (i = 0; i < BS_M_FIRST_FILE; i++)
		table_cell(out, r, i, style);
	bs_buf_adds(out, "\n");
}

static const char io_heads[] =
	"------Sequential Output------ --Sequential Input- --Random-";
static const char file_heads[] =
	"------Sequential Create------ --------Random Create--------";

/* bonnie++ 1.9x (1.96, 1.97): each section under its own Version line,
 * a Concurrency line, K/sec cells, and Latency rows. */
static void table_19(const struct bs_run *r, struct bs_buf *out, int io, int fs)
{
	const struct bs_params *p = &r->params;

	if (io) {
		version_5(out, r, io_heads);
		bs_buf_addf(out,
			    "Concurrency %3lld     -Per Chr- --Block-- "
			    "-Rewrite- -Per Chr- --Block-- --Seeks--\n",
			    (long long)(p->concurrency != BS_NONE
						? p->concurrency
						: 1));
		io_row_k(r, out, BS_TABLE_19);
		latency_row(out, r, 0, BS_M_FIRST_FILE);
	}
	if (fs) {
		version_5(out, r, file_heads);
		file_heads_row(out, r);
		file_rows(r, out, BS_TABLE_19);
		latency_row(out, r, BS_M_FIRST_FILE, BS_M_BONNIE);
	}
}

/* Tim Bray's Bonnie 1.x: "%-8.8s %4d" name and MB, then " %5d %4.1f"
 * (seeks " %5.1f %4.1f") per test; it has no file tests. */
static void table_bonnie(const struct bs_run *r, struct bs_buf *out)
{
	char size[32] = "", rate[32], cpu[32];
	int i;

	bs_buf_adds(out, "              -------Sequential Output-------- "
			 "---Sequential Input-- --Random--\n"
			 "              -Per Char- --Block--- -Rewrite-- "
			 "-Per Char- --Block--- --Seeks---\n"
			 "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU "
			 "K/sec %CPU K/sec %CPU  /sec %CPU\n");
	if (r->params.file_size_mib != BS_NONE)
		snprintf(size, sizeof(size), "%lld",
			 (long long)r->params.file_size_mib);
	bs_buf_addf(out, "%-8.8s %4s", r->machine ? r->machine : "", size);
	for (i = 0; i < BS_M_FIRST_FILE; i++) {
		const struct bs_value *v = &r->res[i];

		rate[0] = cpu[0] = '\0';
		if (v->status == BS_ST_TOO_FAST)
			snprintf(rate, sizeof(rate), "+++++");
		else if (v->status == BS_ST_OK)
			bs_fmt_double(rate, sizeof(rate), v->value,
				      i == BS_M_SEEKS ? 1 : 0);
		if (v->status == BS_ST_OK && !isnan(v->cpu_pct))
			bs_fmt_double(cpu, sizeof(cpu), v->cpu_pct, 1);
		bs_buf_addf(out, " %5s %4s", rate, cpu);
	}
	bs_buf_addc(out, '\n');
}

/* bonnie++ 1.03: K/sec columns, no latency rows (section 2.1). */
static void table_1(const struct bs_run *r, struct bs_buf *out, int io, int fs)
{
	const char *name = r->machine ? r->machine : "";

	if (io) {
		version_5(out, r, io_heads);
		bs_buf_adds(out, "                    -Per Chr- --Block-- "
				 "-Rewrite- -Per Chr- --Block-- --Seeks--\n");
		io_row_k(r, out, BS_TABLE_1);
	}
	if (fs) {
		if (!io) {
			version_5(out, r, file_heads);
			bs_buf_addf(out,
				    "%-19.19s -Create-- --Read--- -Delete-- "
				    "-Create-- --Read--- -Delete--\n",
				    name);
		} else {
			bs_buf_adds(out, "                    ------Sequential "
					 "Create------ --------Random "
					 "Create--------\n");
			bs_buf_adds(out,
				    "                    -Create-- --Read--- "
				    "-Delete-- -Create-- --Read--- "
				    "-Delete--\n");
		}
		file_rows(r, out, BS_TABLE_1);
	}
}

void bs_bonnie_table(const struct bs_run *r, enum bs_table_style style,
		     struct bs_buf *out)
{
	int io = io_part(r), fs = file_part(r);

	switch (style) {
	case BS_TABLE_1:
		table_1(r, out, io, fs);
		break;
	case BS_TABLE_19:
		table_19(r, out, io, fs);
		break;
	case BS_TABLE_BONNIE:
		table_bonnie(r, out);
		break;
	case BS_TABLE_2:
		if (io)
			io_table_2(r, out);
		if (fs)
			file_table_2(r, out);
		break;
	case BS_TABLE_NONE:
		break;
	}
}
