/*
 * ingest/bonnie_csv.c - the bonnie++ CSV formats of the registry: one
 * bonnie or bonnie++ CSV line of any version (docs/input-formats.md
 * section 1) into a struct bs_run.
 *
 * bonnie++ never quotes, so a line is split on every ','. Field 0 and the
 * field count pick the family (section 1.8): classify() says which
 * registry row a line belongs to, and that row's parse picks the layout
 * and checks it; a table per layout says which field holds what. Field
 * numbers in reasons count from 1, as awk and cut do ("field 12
 * (put_block)" is index 11 of a 1.98 line).
 *
 * Hot path: a 1.98 line is ~50 short fields, parsed without allocating;
 * the run's strings are copied only once the whole line has parsed.
 */
#include "ingest/bonnie_csv.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define QUOTE_MAX 40 /* bytes of user data quoted in a reason */

/* A line as the registry gives it: f[] and nf. */
#define field bs_field

/*
 * Where each item sits in one family's line, as a field number counted
 * from 1 (the numbering of reasons); 0 when the family does not print it.
 */
struct layout {
	const char *format; /* BS_FMT_* */
	int nfields;
	int compound; /* 1.0x: size[:chunk] and num[:max:min][/dirs] */
	int version;  /* bonnie_version */
	int name;
	int conc, seed;
	int size, chunk;
	int chunk_default; /* an empty chunk field means 8192 */
	int seeks, procs;
	int io;    /* putc; then 12 rate/cpu fields */
	int files; /* num_files */
	int fmax, fmin, fchunk, fdirs;
	int fpairs;             /* seq_create; then 12 rate/cpu fields */
	int lat;                /* putc_latency; then 12 latencies */
	int empty_lo, empty_hi; /* this range must be empty */
	int beta;
};

/* clang-format off */
/* docs/input-formats.md section 1.2: 1.00-1.04. */
static const struct layout fam_a = {
	.format = BS_FMT_CSV_1_0X, .nfields = 27, .compound = 1, .name = 1,
	.size = 2, .chunk_default = 1, .io = 3, .files = 15, .fpairs = 16,
};

/* docs/input-formats.md section 1.3: betas, as the 1.90-1.92a sources print them. */
static const struct layout fam_b1 = {       /* 1.90a-1.91: 4 file fields */
	.format = BS_FMT_CSV_BETA, .nfields = 45, .version = 2, .name = 3,
	.size = 4, .chunk = 5, .chunk_default = 1, .io = 6, .files = 18,
	.fmax = 19, .fmin = 20, .fdirs = 21, .fpairs = 22, .lat = 34,
	.beta = 1,
};
static const struct layout fam_b2 = {       /* 1.91c-1.92: 5 file fields */
	.format = BS_FMT_CSV_BETA, .nfields = 46, .version = 2, .name = 3,
	.size = 4, .chunk = 5, .chunk_default = 1, .io = 6, .files = 18,
	.fmax = 19, .fmin = 20, .fchunk = 21, .fdirs = 22, .fpairs = 23,
	.lat = 35, .beta = 1,
};
static const struct layout fam_b3 = {       /* 1.92a: and the seed */
	.format = BS_FMT_CSV_BETA, .nfields = 47, .version = 2, .name = 3,
	.seed = 4, .size = 5, .chunk = 6, .chunk_default = 1, .io = 7,
	.files = 19, .fmax = 20, .fmin = 21, .fchunk = 22, .fdirs = 23,
	.fpairs = 24, .lat = 36, .beta = 1,
};

/* docs/input-formats.md section 1.4 and 1.5: 1.92b-1.96 and 1.97. */
static const struct layout fam_c = {
	.format = BS_FMT_CSV_1_96, .nfields = 48, .version = 2, .name = 3,
	.conc = 4, .seed = 5, .size = 6, .chunk = 7, .chunk_default = 1,
	.io = 8, .files = 20, .fmax = 21, .fmin = 22, .fchunk = 23,
	.fdirs = 24, .fpairs = 25, .lat = 37,
};
static const struct layout fam_cs = {       /* the 47-field -s 0 bug */
	.format = BS_FMT_CSV_1_96S, .nfields = 47, .version = 2, .name = 3,
	.conc = 4, .seed = 5, .files = 19, .fmax = 20, .fmin = 21,
	.fchunk = 22, .fdirs = 23, .fpairs = 24, .lat = 36, .empty_lo = 6,
	.empty_hi = 18,
};
static const struct layout fam_d = {
	.format = BS_FMT_CSV_1_97, .nfields = 48, .version = 2, .name = 3,
	.conc = 4, .seed = 5, .size = 6, .chunk = 7, .chunk_default = 1,
	.io = 8, .files = 20, .fmax = 21, .fmin = 22, .fchunk = 23,
	.fdirs = 24, .fpairs = 25, .lat = 37,
};

/* docs/input-formats.md section 1.6: 1.98-2.00a; num_dirs sits in the "file_chunk_size"
 * column and the I/O chunk is never printed. */
static const struct layout fam_e = {
	.format = BS_FMT_CSV_1_98, .nfields = 50, .version = 2, .name = 3,
	.conc = 4, .seed = 5, .size = 6, .chunk = 7, .seeks = 8, .procs = 9,
	.io = 10, .files = 22, .fmax = 23, .fmin = 24, .fchunk = 25,
	.fdirs = 26, .fpairs = 27, .lat = 39,
};
/* clang-format on */

/* What a parse is working on, and where its reason goes. */
struct pctx {
	const struct bs_fline *ln;
	char *reason;
	size_t rsz;
};

static int failv(struct pctx *c, const char *fmt, va_list ap) BS_PRINTF(2, 0);
static int failv(struct pctx *c, const char *fmt, va_list ap)
{
	if (c->rsz > 0)
		vsnprintf(c->reason, c->rsz, fmt, ap);
	return -BS_EPARSE;
}

static int fail(struct pctx *c, const char *fmt, ...) BS_PRINTF(2, 3);
static int fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = failv(c, fmt, ap);
	va_end(ap);
	return rc;
}

/* Field number no (from 1). */
static const struct field *fld(const struct pctx *c, int no)
{
	return &c->ln->f[no - 1];
}

/* "field 12 (put_block): '12x4' is not a number" */
static int field_fail(struct pctx *c, int no, const char *name,
		      const char *suffix, const char *what)
{
	const struct field *f = fld(c, no);
	char q[QUOTE_MAX + 8];

	bs_err_quote(q, sizeof(q), f->s, f->len, QUOTE_MAX);
	return fail(c, "field %d (%s%s): '%s' %s", no, name, suffix, q, what);
}

static int eq(const struct field *f, const char *s)
{
	size_t n = strlen(s);

	return f->len == n && memcmp(f->s, s, n) == 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

/* bonnie++ CSV format version in field 0: "1.98", "1.93c". */
static int fmt_version_like(const struct field *f)
{
	const char *s = f->s;
	size_t n = f->len;

	if (n > 0 && is_lower(s[n - 1]))
		n--;
	return (n == 3 || n == 4) && is_digit(s[0]) && s[1] == '.' &&
	       is_digit(s[2]) && (n == 3 || is_digit(s[3]));
}

/* bonnie++ version in field 1: "2.00a", "1.97", "1.97.3". */
static int version_like(const char *s, size_t n)
{
	size_t i = 0, d;

	if (n == 0 || n >= BS_INGEST_VERSION_MAX)
		return 0;
	for (d = 0; i < n && is_digit(s[i]); i++)
		d++;
	if (d == 0 || i == n || s[i++] != '.')
		return 0;
	for (d = 0; i < n && is_digit(s[i]); i++)
		d++;
	if (d == 0)
		return 0;
	if (i < n && is_lower(s[i]))
		i++;
	if (i < n && s[i] == '.') {
		for (i++, d = 0; i < n && is_digit(s[i]); i++)
			d++;
		if (d == 0)
			return 0;
	}
	return i == n;
}

/*
 * `bstore run` writes its results as 1.98 lines with "bstore-<version>" in
 * the bonnie_version field; they read back as tool "bstore".
 */
#define OWN_PREFIX "bstore-"
#define OWN_PREFIX_LEN 7

static int own_version(const struct field *f)
{
	return f->len > OWN_PREFIX_LEN &&
	       memcmp(f->s, OWN_PREFIX, OWN_PREFIX_LEN) == 0 &&
	       version_like(f->s + OWN_PREFIX_LEN, f->len - OWN_PREFIX_LEN);
}

/* A bonnie++ 1.00 ... 1.04 version: "1.03", "1.03e". */
static int version_10x(const char *s, size_t n)
{
	if (n == 5 && is_lower(s[4]))
		n--;
	return n == 4 && s[0] == '1' && s[1] == '.' && s[2] == '0' &&
	       is_digit(s[3]);
}

static int all_plus(const struct field *f)
{
	size_t i;

	/* bonnie++ prints "+++++" and "+++"; its man page says "++++". */
	if (f->len < 3)
		return 0;
	for (i = 0; i < f->len; i++)
		if (f->s[i] != '+')
			return 0;
	return 1;
}

/*
 * A cell that could come from a 1.0x result line: empty, a +++ marker, a
 * number, a size like "2G:64k" or a files spec like "16:link/64". Used only
 * to tell a malformed result from prose that happens to hold commas.
 */
static int result_token(const struct field *f)
{
	const char *s = f->s;
	size_t n = f->len, i = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i == n || all_plus(f))
		return 1;
	if (!is_digit(s[i]))
		return 0;
	for (; i < n; i++)
		if (!is_digit(s[i]) && !strchr(".:/kKmMgGtTusliny", s[i]))
			return 0;
	return 1;
}

/* Non-negative decimal. Returns 0, -1 (not a number) or -2 (negative). */
static int parse_num(const char *s, size_t len, double *out)
{
	double v;
	size_t i;

	/* Most cells are small integers: skip strtod() for them. */
	if (len > 0 && len <= 15) {
		uint64_t u = 0;

		for (i = 0; i < len && is_digit(s[i]); i++)
			u = u * 10 + (uint64_t)(s[i] - '0');
		if (i == len) {
			*out = (double)u;
			return 0;
		}
	}
	if (bs_parse_double(s, len, &v) < 0)
		return -1;
	if (s[0] == '-')
		return -2;
	*out = v;
	return 0;
}

static int num_fail(struct pctx *c, int no, const char *name,
		    const char *suffix, int rc)
{
	return field_fail(c, no, name, suffix,
			  rc == -2 ? "is negative" : "is not a number");
}

/*
 * A value past its limit (the metric catalogue's or the parameter
 * table's; docs/formats.md "Limits"): "field 12 (put_block): '1e308' is
 * beyond any disk (at most 1000000000 KiB/s)". Rates, latencies and sizes
 * are a disk's; CPU and counts are a machine's.
 */
static int limit_fail(struct pctx *c, int no, const char *name,
		      const char *suffix, const char *whose, const char *max,
		      const char *unit)
{
	char why[128];

	snprintf(why, sizeof(why), "is beyond any %s (at most %s%s%s)", whose,
		 max, unit[0] ? " " : "", unit);
	return field_fail(c, no, name, suffix, why);
}

/* Part of a result of metric m, read from field no, past its limit. */
static int value_fail(struct pctx *c, int no, int m, enum bs_part part)
{
	static const char *const suffix[] = {
		[BS_PART_VALUE] = "",
		[BS_PART_CPU] = "_cpu",
		[BS_PART_LATENCY] = "_latency",
	};
	const char *unit;
	char max[40];

	bs_fmt_g(max, sizeof(max), bs_metric_limit(m, part, &unit));
	return limit_fail(c, no, bs_metrics[m].key, suffix[part],
			  part == BS_PART_CPU ? "machine" : "disk", max, unit);
}

/*
 * A parameter read from field no (the field of struct bs_params at
 * offset) within the parameter table's limit.
 */
static int check_param(struct pctx *c, int no, const char *name, size_t offset,
		       int64_t v)
{
	const struct bs_param_info *pi;
	char max[32];
	int i;

	if (v == BS_NONE)
		return 0;
	i = bs_param_at(offset);
	assert(i >= 0);
	if (bs_param_fits(i, v))
		return 0;
	pi = &bs_param_table[i];
	snprintf(max, sizeof(max), "%lld", (long long)pi->max);
	return limit_fail(c, no, name, "", pi->unit[0] ? "disk" : "machine",
			  max, pi->unit);
}

#define CHECK_PARAM(c, no, name, p, f)                                         \
	check_param(c, no, name, offsetof(struct bs_params, f), (p)->f)

/* A rate cell: empty (not run), "+++++" (too fast) or a number. */
static int get_rate(struct pctx *c, int no, int m, struct bs_value *v)
{
	struct field f = *fld(c, no);
	int rc;

	/* 1.00 and 1.00a print seeks with "%4.1f": " 87.5". */
	if (m == BS_M_SEEKS)
		while (f.len > 0 && f.s[0] == ' ') {
			f.s++;
			f.len--;
		}
	if (f.len == 0) {
		v->status = BS_ST_NOT_RUN;
		return 0;
	}
	/* bonnie++ prints "+++++" when a test ran too fast to time: keep it
	 * as too_fast, never as 0. */
	if (all_plus(&f)) {
		v->status = BS_ST_TOO_FAST;
		return 0;
	}
	rc = parse_num(f.s, f.len, &v->value);
	if (rc < 0)
		return num_fail(c, no, bs_metrics[m].key, "", rc);
	if (!bs_metric_fits(m, BS_PART_VALUE, v->value))
		return value_fail(c, no, m, BS_PART_VALUE);
	v->status = BS_ST_OK;
	return 0;
}

/*
 * A %CPU cell: empty, "+++" or a number. A CPU figure only means something
 * next to a rate: 1.00-1.00b print a number beside "+++++", which is
 * dropped like the "+++" of later versions.
 */
static int get_cpu(struct pctx *c, int no, int m, struct bs_value *v)
{
	const struct field *f = fld(c, no);
	double cpu;
	int rc;

	if (f->len == 0 || all_plus(f))
		return 0;
	rc = parse_num(f->s, f->len, &cpu);
	if (rc < 0)
		return num_fail(c, no, bs_metrics[m].key, "_cpu", rc);
	if (!bs_metric_fits(m, BS_PART_CPU, cpu))
		return value_fail(c, no, m, BS_PART_CPU);
	if (v->status == BS_ST_OK)
		v->cpu_pct = cpu;
	return 0;
}

/* A latency cell: empty, or an integer with us, ms or s (1.9x+). */
static int get_latency(struct pctx *c, int no, int m, struct bs_value *v)
{
	const struct field *f = fld(c, no);
	const char *key = bs_metrics[m].key;
	size_t n = f->len;
	double mult, x;
	int rc;

	if (n == 0)
		return 0;
	if (n >= 2 && f->s[n - 2] == 'u' && f->s[n - 1] == 's') {
		mult = 1;
		n -= 2;
	} else if (n >= 2 && f->s[n - 2] == 'm' && f->s[n - 1] == 's') {
		mult = 1000;
		n -= 2;
	} else if (f->s[n - 1] == 's') {
		mult = 1e6;
		n -= 1;
	} else {
		if (parse_num(f->s, n, &x) == 0)
			return field_fail(c, no, key, "_latency",
					  "has no unit (us, ms or s)");
		return field_fail(c, no, key, "_latency", "is not a latency");
	}
	rc = parse_num(f->s, n, &x);
	if (rc == -2)
		return field_fail(c, no, key, "_latency", "is negative");
	if (rc < 0)
		return field_fail(c, no, key, "_latency", "is not a latency");
	if (!bs_metric_fits(m, BS_PART_LATENCY, x * mult))
		return value_fail(c, no, m, BS_PART_LATENCY);
	v->lat_us = x * mult;
	return 0;
}

static int get_u64(const struct field *f, int64_t *out)
{
	uint64_t u;

	if (bs_parse_u64(f->s, f->len, &u) < 0 || u > INT64_MAX)
		return -1;
	*out = (int64_t)u;
	return 0;
}

/* A byte count with an optional k/m/g suffix: "65536", "64k". */
static int get_bytes(const char *s, size_t len, int64_t *out)
{
	uint64_t u;

	if (bs_parse_size(s, len, &u) < 0 || u > INT64_MAX)
		return -1;
	*out = (int64_t)u;
	return 0;
}

/* A plain integer parameter; empty leaves it unknown. */
static int get_int(struct pctx *c, int no, const char *name, int64_t *out)
{
	const struct field *f = fld(c, no);
	double d;

	if (f->len == 0)
		return 0;
	if (get_u64(f, out) == 0)
		return 0;
	return num_fail(c, no, name, "",
			parse_num(f->s, f->len, &d) == -2 ? -2 : -1);
}

/* A plain integer parameter, field f of p, within its limit. */
#define GET_INT(c, no, name, p, f)                                             \
	(get_int(c, no, name, &(p)->f) < 0 ? -BS_EPARSE                        \
					   : CHECK_PARAM(c, no, name, p, f))

/* bonnie++'s I/O chunk when a line does not say (the parameter table's
 * default), looked up once. */
static int64_t default_chunk(void)
{
	static int64_t chunk = BS_NONE;

	if (chunk == BS_NONE)
		chunk = bs_param_default("io_chunk_bytes");
	return chunk;
}

/*
 * The file size: MiB as "63G", "8196M" or bare "300" (1.00-1.00b); in
 * 1.0x lines a chunk size may follow: "2G:64k", "1G:512".
 */
static int parse_size(const char *s, size_t len, int allow_chunk, int64_t *mib,
		      int64_t *chunk)
{
	const char *colon = allow_chunk ? memchr(s, ':', len) : NULL;
	size_t n = colon ? (size_t)(colon - s) : len;
	uint64_t v, mult = 1;

	if (n > 1) {
		switch (s[n - 1]) {
		case 'M':
		case 'm':
			n--;
			break;
		case 'G':
		case 'g':
			mult = 1024;
			n--;
			break;
		case 'T':
		case 't':
			mult = 1024 * 1024;
			n--;
			break;
		default:
			break;
		}
	}
	if (bs_parse_u64(s, n, &v) < 0 || v > INT64_MAX / mult)
		return -1;
	if (colon) {
		size_t rest = len - (size_t)(colon - s) - 1;

		if (get_bytes(colon + 1, rest, chunk) < 0)
			return -1;
	}
	*mib = (int64_t)(v * mult);
	return 0;
}

/*
 * The 1.0x files spec, one field: "16", "16:100000:16", "16:100:0",
 * "16:link", "16:symlink", each optionally followed by "/<dirs>".
 */
static int parse_files_10x(const char *s, size_t len, struct bs_params *p)
{
	const char *slash = memchr(s, '/', len);
	const char *c1, *c2, *end;
	struct field num, max;

	/* What the spec does not say stays unknown, as an empty cell of a
	 * 1.9x line does: "16" has no max, min or directory count. */
	if (slash) {
		struct field d = {slash + 1, len - (size_t)(slash - s) - 1};

		if (get_u64(&d, &p->num_dirs) < 0)
			return -1;
		len = (size_t)(slash - s);
	}
	end = s + len;
	c1 = memchr(s, ':', len);
	num.s = s;
	num.len = c1 ? (size_t)(c1 - s) : len;
	if (get_u64(&num, &p->num_files) < 0)
		return -1;
	if (c1 == NULL)
		return 0;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	max.s = c1 + 1;
	max.len = (size_t)((c2 ? c2 : end) - max.s);
	if (c2 == NULL && eq(&max, "link")) {
		p->max_size = BS_SIZE_LINK;
		return 0;
	}
	if (c2 == NULL && eq(&max, "symlink")) {
		p->max_size = BS_SIZE_SYMLINK;
		return 0;
	}
	if (get_bytes(max.s, max.len, &p->max_size) < 0)
		return -1;
	if (c2 && get_bytes(c2 + 1, (size_t)(end - c2 - 1), &p->min_size) < 0)
		return -1;
	return 0;
}

/* The 1.9x+ files spec: num_files, max, min, (chunk), dirs fields. */
static int parse_files_9x(struct pctx *c, const struct layout *L,
			  struct bs_params *p)
{
	const struct field *f;

	if (GET_INT(c, L->files, "num_files", p, num_files) < 0)
		return -BS_EPARSE;
	/* An empty cell is unknown (NULL), as everywhere: bonnie++ leaves
	 * max and min empty when they are 0 and dirs when it is 1, but the
	 * line does not say so. */
	f = fld(c, L->fmax);
	if (f->len == 0)
		p->max_size = BS_NONE;
	else if (eq(f, "link"))
		p->max_size = BS_SIZE_LINK;
	else if (eq(f, "symlink"))
		p->max_size = BS_SIZE_SYMLINK;
	else if (get_bytes(f->s, f->len, &p->max_size) < 0)
		return field_fail(c, L->fmax, "max_size", "", "is not a size");
	if (CHECK_PARAM(c, L->fmax, "max_size", p, max_size) < 0)
		return -BS_EPARSE;
	f = fld(c, L->fmin);
	if (f->len == 0)
		p->min_size = BS_NONE;
	else if (get_bytes(f->s, f->len, &p->min_size) < 0)
		return field_fail(c, L->fmin, "min_size", "", "is not a size");
	if (CHECK_PARAM(c, L->fmin, "min_size", p, min_size) < 0)
		return -BS_EPARSE;
	/* Always empty in real output (a bonnie++ bug loses the file chunk
	 * size); should a build print it, keep it. */
	if (L->fchunk) {
		f = fld(c, L->fchunk);
		if (f->len > 0 &&
		    get_bytes(f->s, f->len, &p->file_chunk_bytes) < 0)
			return field_fail(c, L->fchunk, "file_chunk_size", "",
					  "is not a size");
		if (CHECK_PARAM(c, L->fchunk, "file_chunk_size", p,
				file_chunk_bytes) < 0)
			return -BS_EPARSE;
	}
	f = fld(c, L->fdirs);
	if (f->len == 0)
		p->num_dirs = BS_NONE;
	else if (GET_INT(c, L->fdirs, "num_dirs", p, num_dirs) < 0)
		return -BS_EPARSE;
	return 0;
}

static int parse_params(struct pctx *c, const struct layout *L,
			struct bs_params *p)
{
	const struct field *f;

	if (L->conc && GET_INT(c, L->conc, "concurrency", p, concurrency) < 0)
		return -BS_EPARSE;
	if (L->size && fld(c, L->size)->len > 0) {
		f = fld(c, L->size);
		if (parse_size(f->s, f->len, L->compound, &p->file_size_mib,
			       &p->io_chunk_bytes) < 0)
			return field_fail(c, L->size, "file_size", "",
					  "is not a size");
		/* The chunk is printed only when it is not the default;
		 * 1.00-1.00b (bare MiB) have no chunk at all. */
		if (L->compound && p->io_chunk_bytes == BS_NONE &&
		    !is_digit(f->s[f->len - 1]))
			p->io_chunk_bytes = default_chunk();
		if (!L->compound && L->chunk_default)
			p->io_chunk_bytes = default_chunk();
		if (CHECK_PARAM(c, L->size, "file_size", p, file_size_mib) < 0)
			return -BS_EPARSE;
		/* 1.0x: "2G:64k" holds the chunk too. */
		if (CHECK_PARAM(c, L->size, "file_size", p, io_chunk_bytes) < 0)
			return -BS_EPARSE;
	}
	if (L->chunk && fld(c, L->chunk)->len > 0) {
		f = fld(c, L->chunk);
		if (get_bytes(f->s, f->len, &p->io_chunk_bytes) < 0)
			return field_fail(c, L->chunk, "io_chunk_size", "",
					  "is not a size");
		if (CHECK_PARAM(c, L->chunk, "io_chunk_size", p,
				io_chunk_bytes) < 0)
			return -BS_EPARSE;
	}
	if (L->seeks && GET_INT(c, L->seeks, "seek_count", p, seeks) < 0)
		return -BS_EPARSE;
	if (L->procs &&
	    GET_INT(c, L->procs, "seek_proc_count", p, seek_procs) < 0)
		return -BS_EPARSE;
	if (L->compound) {
		f = fld(c, L->files);
		if (f->len > 0 && parse_files_10x(f->s, f->len, p) < 0)
			return field_fail(c, L->files, "num_files", "",
					  "is not a files spec "
					  "(num[:max:min][/dirs])");
		/* The whole spec is one field: it is named for each. */
		if (CHECK_PARAM(c, L->files, "num_files", p, num_files) < 0 ||
		    CHECK_PARAM(c, L->files, "num_files", p, max_size) < 0 ||
		    CHECK_PARAM(c, L->files, "num_files", p, min_size) < 0 ||
		    CHECK_PARAM(c, L->files, "num_files", p, num_dirs) < 0)
			return -BS_EPARSE;
		return 0;
	}
	return parse_files_9x(c, L, p);
}

static int parse_results(struct pctx *c, const struct layout *L,
			 struct bs_run *r)
{
	int m, rc;

	for (m = 0; m < BS_M_BONNIE; m++) {
		int first = m < BS_M_FIRST_FILE ? L->io : L->fpairs;
		int k = m < BS_M_FIRST_FILE ? m : m - BS_M_FIRST_FILE;

		if (first == 0)
			continue;
		rc = get_rate(c, first + 2 * k, m, &r->res[m]);
		if (rc == 0)
			rc = get_cpu(c, first + 2 * k + 1, m, &r->res[m]);
		if (rc < 0)
			return rc;
	}
	if (L->lat == 0)
		return 0;
	for (m = 0; m < BS_M_BONNIE; m++) {
		rc = get_latency(c, L->lat + m, m, &r->res[m]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static char *dup_field(const struct field *f)
{
	return xstrndup(f->s, f->len);
}

/* Fills r from a line whose layout is known. */
static int fill(struct pctx *c, const struct layout *L, const char *hint,
		struct bs_run *r)
{
	const struct field *v = L->version ? fld(c, L->version) : NULL;
	int own = v && L == &fam_e && own_version(v);
	char buf[96];
	int rc;

	if (v && !own && !version_like(v->s, v->len))
		return field_fail(c, L->version, "bonnie_version", "",
				  "is not a version");
	rc = parse_params(c, L, &r->params);
	if (rc == 0)
		rc = parse_results(c, L, r);
	if (rc < 0)
		return rc;

	r->family = BS_FAM_BONNIE;
	bs_run_set(&r->tool, own ? "bstore" : "bonnie++");
	bs_run_set(&r->format, L->format);
	free(r->tool_version);
	if (own)
		r->tool_version = xstrndup(v->s + OWN_PREFIX_LEN,
					   v->len - OWN_PREFIX_LEN);
	else if (v)
		r->tool_version = dup_field(v);
	else if (hint && version_10x(hint, strlen(hint)))
		r->tool_version = xstrdup(hint);
	else
		r->tool_version = xstrdup("1.0x");
	free(r->machine);
	r->machine = dup_field(fld(c, L->name));
	if (L->seed && fld(c, L->seed)->len > 0) {
		free(r->params.seed);
		r->params.seed = dup_field(fld(c, L->seed));
	}
	if (L->beta) {
		snprintf(buf, sizeof(buf),
			 "bonnie++ %s beta CSV layout stored best-effort",
			 r->tool_version);
		bs_run_set(&r->warning, buf);
	}
	return 1;
}

/*
 * Picks the layout of a line that classify() gave to fam, and checks its
 * field count. Returns 1, or <0 with a reason.
 */
static int pick_layout(struct pctx *c, enum bs_csv_layout fam,
		       const struct layout **out)
{
	const struct bs_fline *ln = c->ln;
	const struct field *f0 = &ln->f[0], *f1 = &ln->f[1];
	char v[BS_INGEST_VERSION_MAX + 8];
	size_t n = ln->nf;
	int i;

	/* The version quoted for a reason, only on the way to one: most
	 * lines parse. */
#define QUOTE_F0() bs_err_quote(v, sizeof(v), f0->s, f0->len, QUOTE_MAX)
	switch (fam) {
	case BS_LAYOUT_NONE:
		return fail(c, "not a bonnie++ CSV layout");
	case BS_LAYOUT_1_0X:
		if (n != 27)
			return fail(c,
				    "expected 27 fields for bonnie++ 1.0x "
				    "CSV, found %zu",
				    n);
		*out = &fam_a;
		return 1;
	case BS_LAYOUT_1_98:
		/* The newest family also answers for versions it does not
		 * know: a line of a later bonnie++ is kept as a reject. */
		if (!eq(f0, "1.98"))
			return fail(c,
				    "unsupported bonnie++ CSV format version "
				    "'%s'",
				    QUOTE_F0());
		*out = &fam_e;
		break;
	case BS_LAYOUT_1_97:
		*out = &fam_d;
		break;
	case BS_LAYOUT_1_96_S0:
		for (i = fam_cs.empty_lo; i <= fam_cs.empty_hi; i++)
			if (ln->f[i - 1].len > 0)
				return fail(c,
					    "expected 48 fields for bonnie++ %s "
					    "CSV, found 47 with I/O results",
					    QUOTE_F0());
		*out = &fam_cs;
		return 1;
	case BS_LAYOUT_1_96:
		*out = &fam_c;
		break;
	case BS_LAYOUT_BETA:
		/* Betas: the layout changed from release to release. */
		bs_err_quote(v, sizeof(v), f1->s, f1->len, QUOTE_MAX);
		if (n < 45 || n > 47)
			return fail(c,
				    "expected 45 to 47 fields for bonnie++ %s "
				    "beta CSV, found %zu",
				    v, n);
		if (n == 45 && eq(f0, "2"))
			*out = &fam_b1;
		else if (n == 46 && !eq(f0, "1.92a"))
			*out = &fam_b2;
		else if (n == 47 && (eq(f0, "1.92a") || eq(f1, "1.92a")))
			*out = &fam_b3;
		else
			return fail(c,
				    "bonnie++ %s beta CSV with %zu fields has "
				    "no known layout",
				    v, n);
		return 1;
	}
	if (n != (size_t)(*out)->nfields)
		return fail(c,
			    "expected %d fields for bonnie++ %s CSV, found %zu",
			    (*out)->nfields, QUOTE_F0(), n);
	return 1;
#undef QUOTE_F0
}

/*
 * Is this line meant as a result of the version-less 1.0x family? Mostly
 * result-like cells after a name. Text that merely holds commas is not:
 * prose, and other tools' key=value output such as fio's "issued rwts:
 * total=4108,4084,0,0 short=0,0,0,0 dropped=0,0,0,0" (bonnie++ never
 * writes a '=' after the name).
 */
static int looks_like_10x(const struct bs_fline *ln)
{
	size_t i, lim = ln->nf < BS_FLINE_FIELDS ? ln->nf : BS_FLINE_FIELDS;
	size_t good = 0, filled = 0;

	if (ln->nf < 10)
		return 0;
	for (i = 1; i < lim; i++) {
		if (memchr(ln->f[i].s, '=', ln->f[i].len))
			return 0;
		good += (size_t)result_token(&ln->f[i]);
		filled += ln->f[i].len > 0;
	}
	/* A row of bare commas (a spreadsheet's empty row) is no result. */
	if (filled == 0)
		return 0;
	return good * 4 >= (lim - 1) * 3;
}

/* "1.90b" ... "1.92a": the versions that wrote "2" in field 0. */
static int beta_version(const struct field *f)
{
	size_t n = f->len;

	if (n == 5 && is_lower(f->s[4]))
		n--;
	return n == 4 && memcmp(f->s, "1.9", 3) == 0 && f->s[3] >= '0' &&
	       f->s[3] <= '2';
}

/* Is field 0 a CSV format version, so that the line is 1.9x or later? */
static int is_versioned(const struct bs_fline *ln)
{
	const struct field *f0 = &ln->f[0], *f1 = &ln->f[1];
	int v1;

	if (ln->nf < 2)
		return 0;
	if (eq(f0, "2"))
		return beta_version(f1);
	if (!fmt_version_like(f0))
		return 0;
	v1 = version_like(f1->s, f1->len) || own_version(f1);
	/* A 1.0x machine called "1.95" still has a size in field 1. */
	if (memcmp(f0->s, "1.9", 3) == 0)
		return v1 || (ln->nf >= 45 && ln->nf <= 50);
	/* Some future format, or two numbers in a row of prose. */
	return v1 && ln->nf >= 10;
}

static int is_header(const struct bs_fline *ln)
{
	if (eq(&ln->f[0], "format_version"))
		return 1;
	return ln->nf >= 2 && eq(&ln->f[0], "name") &&
	       eq(&ln->f[1], "file_size");
}

/* Which bonnie++ CSV family a line is (section 1.8), or -1 for none. */
static int classify(const struct bs_fline *ln)
{
	const struct field *f0 = &ln->f[0];

	if (ln->nf < 2 || ln->text[0] == '#' || is_header(ln))
		return -1;
	if (!is_versioned(ln))
		return looks_like_10x(ln) ? BS_LAYOUT_1_0X : -1;
	if (eq(f0, "1.97"))
		return BS_LAYOUT_1_97;
	/* 1.92b-1.96 print 13 empty fields for -s 0 instead of 14, so the
	 * file block moves left by one. */
	if (f0->len >= 4 && memcmp(f0->s, "1.9", 3) == 0 && f0->s[3] >= '2' &&
	    f0->s[3] <= '6' && !eq(f0, "1.92") && !eq(f0, "1.92a"))
		return ln->nf == 47 ? BS_LAYOUT_1_96_S0 : BS_LAYOUT_1_96;
	if (eq(f0, "2") || eq(f0, "1.92") || eq(f0, "1.92a") ||
	    (f0->len >= 4 && memcmp(f0->s, "1.9", 3) == 0 &&
	     (f0->s[3] == '0' || f0->s[3] == '1')))
		return BS_LAYOUT_BETA;
	return BS_LAYOUT_1_98;
}

int bs_bonnie_csv_probe(const struct bs_format *f, const struct bs_fline *l)
{
	return classify(l) == *(const int *)f->arg;
}

int bs_bonnie_csv_parse(const struct bs_format *f, const struct bs_fline *l,
			struct bs_run *r, struct bs_err *err)
{
	char reason[BS_ERR_MSG_MAX];
	struct pctx c = {l, reason, sizeof(reason)};
	const struct layout *L = NULL;
	char inner[256];
	int rc;

	reason[0] = '\0';
	rc = pick_layout(&c, (enum bs_csv_layout) * (const int *)f->arg, &L);
	if (rc < 0)
		return bs_format_fail(err, rc, reason);
	if (L->beta) {
		c.reason = inner;
		c.rsz = sizeof(inner);
	}
	rc = fill(&c, L, l->hint_version, r);
	if (rc < 0) {
		bs_run_release(r);
		if (L->beta) {
			char v[BS_INGEST_VERSION_MAX + 8];

			bs_err_quote(v, sizeof(v), l->f[1].s, l->f[1].len,
				     QUOTE_MAX);
			snprintf(reason, sizeof(reason),
				 "bonnie++ %s beta CSV layout not "
				 "recognised: %s",
				 v, inner);
		}
		return bs_format_fail(err, rc, reason);
	}
	return rc;
}

int bs_ingest_text_version(const char *line, size_t len,
			   char out[BS_INGEST_VERSION_MAX])
{
	size_t i = 7, start;

	if (len < 9 || memcmp(line, "Version", 7) != 0 ||
	    (line[i] != ' ' && line[i] != '\t'))
		return 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	start = i;
	while (i < len && line[i] != ' ' && line[i] != '\t')
		i++;
	if (i == start)
		return 0;
	/* The table's title follows: "------Sequential Output------". */
	{
		size_t j = i;

		while (j < len && (line[j] == ' ' || line[j] == '\t'))
			j++;
		if (j == i || len - j < 3 || memcmp(line + j, "---", 3) != 0)
			return 0;
	}
	if (version_10x(line + start, i - start)) {
		memcpy(out, line + start, i - start);
		out[i - start] = '\0';
	} else {
		out[0] = '\0';
	}
	return 1;
}
