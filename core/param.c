/*
 * core/param.c - the parameter table (core/param.h): finding a
 * parameter, reading and writing its field, and its value for people and
 * scripts. The rows, and the rules on which of them decide a family's
 * numbers, are the family rows' (core/families/, core/family.h); the
 * keys are the contract of docs/formats.md (a test checks that it names
 * each); the bonnie family's rows name their column of runs.
 */
#include "core/param.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/err.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

int bs_param_find(const char *key)
{
	int i;

	for (i = 0; i < bs_nparams; i++)
		if (strcmp(bs_param_table[i].key, key) == 0)
			return i;
	return -1;
}

int bs_param_find_in(enum bs_family f, const char *key)
{
	int i, first;

	if (!bs_family_ok(f))
		return -1;
	first = bs_cat->param0[f];
	for (i = first; i < first + bs_family(f)->nparams; i++)
		if (strcmp(bs_param_table[i].key, key) == 0)
			return i;
	return -1;
}

int bs_param_rule_keys(const struct bs_param_rule *r, int *k, int max)
{
	const char *p = r->keys;
	char key[64];
	int n = 0;

	while (*p && n < max) {
		size_t len = strcspn(p, ",");
		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		k[n] = bs_param_find_in(r->family, key);
		if (k[n] < 0)
			BS_BUG("a parameter rule names an unknown key");
		n++;
		p += len + (p[len] == ',');
	}
	return n;
}

/* The catalogue row of the len bytes at key, a metric of family f. */
static int metric_at(enum bs_family f, const char *key, size_t len)
{
	char k[64];

	snprintf(k, sizeof(k), "%.*s", (int)len, key);
	return bs_metric_find(f, k);
}

int bs_param_rule_covers(const struct bs_param_rule *r, int m)
{
	const char *p = r->metrics;

	if (m < 0 || m >= bs_nmetrics || bs_metrics[m].family != r->family)
		return 0;
	if (strcmp(p, "*") == 0)
		return 1;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *dash = memchr(p, '-', len);
		int a, b;

		if (dash) {
			a = metric_at(r->family, p, (size_t)(dash - p));
			b = metric_at(r->family, dash + 1,
				      len - (size_t)(dash - p) - 1);
		} else {
			a = b = metric_at(r->family, p, len);
		}
		if (a < 0 || b < a)
			BS_BUG("a parameter rule names metrics not in its "
			       "family");
		if (m >= a && m <= b)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int bs_param_fits(int i, int64_t v)
{
	assert(i >= 0 && i < bs_nparams && bs_param_table[i].max != BS_NONE);
	if (bs_param_table[i].kind == BS_PK_FSIZE &&
	    (v == BS_SIZE_LINK || v == BS_SIZE_SYMLINK))
		return 1;
	return v >= 0 && v <= bs_param_table[i].max;
}

int bs_param_fits_real(int i, double v)
{
	assert(i >= 0 && i < bs_nparams && bs_param_table[i].max != BS_NONE);
	/* NaN compares false both ways: it does not fit. */
	return v >= 0 && v <= (double)bs_param_table[i].max;
}

static void *field(const struct bs_params *p, int i)
{
	assert(i >= 0 && i < bs_nparams);
	return (char *)p + bs_param_table[i].offset;
}

/* The accessors check that the caller reads a field as its kind. */
#define is_i64(i)                                                              \
	(bs_param_table[i].kind != BS_PK_REAL &&                               \
	 bs_param_table[i].kind != BS_PK_TEXT)

int64_t *bs_param_i64(struct bs_params *p, int i)
{
	assert(is_i64(i));
	return field(p, i);
}

double *bs_param_real(struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_REAL);
	return field(p, i);
}

char **bs_param_text(struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_TEXT);
	return field(p, i);
}

int64_t bs_param_get_i64(const struct bs_params *p, int i)
{
	assert(is_i64(i));
	return *(const int64_t *)field(p, i);
}

double bs_param_get_real(const struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_REAL);
	return *(const double *)field(p, i);
}

const char *bs_param_get_text(const struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_TEXT);
	return *(char *const *)field(p, i);
}

int bs_param_known(const struct bs_params *p, int i)
{
	switch (bs_param_table[i].kind) {
	case BS_PK_REAL:
		return !isnan(bs_param_get_real(p, i));
	case BS_PK_TEXT:
		return bs_param_get_text(p, i) != NULL;
	default:
		return bs_param_get_i64(p, i) != BS_NONE;
	}
}

/*
 * What the table says, worked out once: a struct with every parameter
 * unknown, the rows that hold text, and the row of each field's offset
 * (plus one; 0 for none). Initialising, checking and releasing
 * parameters runs for every ingested line.
 */
static struct {
	pthread_once_t once;
	struct bs_params blank;
	int text[BS_P_MAX];
	int ntext;
	unsigned char row_at[sizeof(struct bs_params)];
} derived = {PTHREAD_ONCE_INIT};

_Static_assert(BS_P_MAX < 255, "row_at holds a row plus one in a byte");

static void derive(void)
{
	struct bs_params *p = &derived.blank;
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < bs_nparams; i++) {
		/* Families may share a field ("direct"), never a text one:
		 * releasing frees each text row's field once. */
		if (derived.row_at[bs_param_table[i].offset] &&
		    bs_param_table[i].kind == BS_PK_TEXT)
			BS_BUG("two parameter rows share a text field");
		if (!derived.row_at[bs_param_table[i].offset])
			derived.row_at[bs_param_table[i].offset] =
				(unsigned char)(i + 1);
		switch (bs_param_table[i].kind) {
		case BS_PK_REAL:
			*bs_param_real(p, i) = NAN;
			break;
		case BS_PK_TEXT:
			derived.text[derived.ntext++] = i;
			break; /* NULL from memset */
		default:
			*bs_param_i64(p, i) = BS_NONE;
			break;
		}
	}
}

int bs_param_at(size_t offset)
{
	pthread_once(&derived.once, derive);
	if (offset >= sizeof(derived.row_at))
		return -1;
	return derived.row_at[offset] - 1;
}

void bs_params_init(struct bs_params *p)
{
	pthread_once(&derived.once, derive);
	*p = derived.blank;
}

void bs_params_defaults(struct bs_params *p, enum bs_family f)
{
	int i;

	for (i = 0; i < bs_nparams; i++)
		if (bs_param_table[i].family == f &&
		    bs_param_table[i].dflt != BS_NONE)
			*bs_param_i64(p, i) = bs_param_table[i].dflt;
}

int64_t bs_param_default(const char *key)
{
	int k = bs_param_find(key);

	if (k < 0)
		BS_BUG("the default of an unknown parameter");
	return bs_param_table[k].dflt;
}

void bs_params_release(struct bs_params *p)
{
	int i;

	pthread_once(&derived.once, derive);
	for (i = 0; i < derived.ntext; i++)
		free(*bs_param_text(p, derived.text[i]));
	*p = derived.blank;
}

void bs_params_copy(struct bs_params *dst, const struct bs_params *src)
{
	char **text, *copy;
	int i;

	if (dst == src)
		return;
	for (i = 0; i < bs_nparams; i++) {
		switch (bs_param_table[i].kind) {
		case BS_PK_REAL:
			*bs_param_real(dst, i) = bs_param_get_real(src, i);
			break;
		case BS_PK_TEXT:
			copy = xstrdup(bs_param_get_text(src, i));
			text = bs_param_text(dst, i);
			free(*text);
			*text = copy;
			break;
		default:
			*bs_param_i64(dst, i) = bs_param_get_i64(src, i);
			break;
		}
	}
}

void bs_param_format(const struct bs_params *p, int i, struct bs_buf *out)
{
	char num[64];
	int64_t v;

	if (!bs_param_known(p, i))
		return;
	switch (bs_param_table[i].kind) {
	case BS_PK_TEXT:
		bs_buf_adds(out, bs_param_get_text(p, i));
		return;
	case BS_PK_REAL:
		bs_buf_adds(out, bs_fmt_g(num, sizeof(num),
					  bs_param_get_real(p, i)));
		return;
	case BS_PK_BOOL:
		bs_buf_adds(out, bs_param_get_i64(p, i) ? "on" : "off");
		return;
	case BS_PK_FSIZE:
		v = bs_param_get_i64(p, i);
		if (v == BS_SIZE_LINK) {
			bs_buf_adds(out, "link");
			return;
		}
		if (v == BS_SIZE_SYMLINK) {
			bs_buf_adds(out, "symlink");
			return;
		}
		break;
	case BS_PK_INT:
		break;
	}
	bs_buf_addf(out, "%lld", (long long)bs_param_get_i64(p, i));
}

void bs_param_describe(const struct bs_params *p, int i, struct bs_buf *out)
{
	const struct bs_param_info *pi = &bs_param_table[i];
	size_t start = out->len;

	if (!bs_param_known(p, i)) {
		bs_buf_adds(out, "unknown");
		return;
	}
	bs_param_format(p, i, out);
	if (pi->kind == BS_PK_FSIZE && bs_param_get_i64(p, i) < 0)
		bs_buf_adds(out, bs_param_get_i64(p, i) == BS_SIZE_LINK
					 ? " (hard links)"
					 : " (symbolic links)");
	else if (pi->unit[0] && out->len > start)
		bs_buf_addf(out, " %s", pi->unit);
	/* A byte count people read in binary units beside the exact one:
	 * "134217728 bytes (128 MiB)", "100000000 bytes (95.4 MiB)". */
	if (pi->kind == BS_PK_INT && strcmp(pi->unit, "bytes") == 0 &&
	    bs_param_get_i64(p, i) >= 1024) {
		static const char *const units[] = {"KiB", "MiB", "GiB", "TiB",
						    "PiB"};
		double v = (double)bs_param_get_i64(p, i) / 1024;
		int u = 0;

		while (u < 4 && v >= 1024) {
			v /= 1024;
			u++;
		}
		if (v == floor(v))
			bs_buf_addf(out, " (%.0f %s)", v, units[u]);
		else
			bs_buf_addf(out, " (%.1f %s)", v, units[u]);
	}
}

void bs_param_json(const struct bs_params *p, int i, struct bs_buf *out)
{
	if (!bs_param_known(p, i)) {
		bs_buf_adds(out, "null");
		return;
	}
	switch (bs_param_table[i].kind) {
	case BS_PK_TEXT:
		bs_json_str(out, bs_param_get_text(p, i));
		return;
	case BS_PK_REAL:
		bs_json_num(out, bs_param_get_real(p, i));
		return;
	case BS_PK_BOOL:
		bs_buf_adds(out, bs_param_get_i64(p, i) ? "true" : "false");
		return;
	case BS_PK_FSIZE:
		if (bs_param_get_i64(p, i) < 0) {
			bs_buf_addc(out, '"');
			bs_param_format(p, i, out);
			bs_buf_addc(out, '"');
			return;
		}
		break;
	case BS_PK_INT:
		break;
	}
	bs_json_i64(out, bs_param_get_i64(p, i));
}

int bs_param_set_text(struct bs_params *p, int i, const char *text,
		      struct bs_err *err)
{
	const struct bs_param_info *pi = &bs_param_table[i];
	static const char *const yes[] = {"1", "on", "yes", "true"};
	static const char *const no[] = {"0", "off", "no", "false"};
	size_t len = strlen(text), k;
	uint64_t u;
	int64_t v;
	double d;

	switch (pi->kind) {
	case BS_PK_BOOL:
		for (k = 0; k < sizeof(yes) / sizeof(yes[0]); k++) {
			if (strcasecmp(text, yes[k]) == 0) {
				*bs_param_i64(p, i) = 1;
				return 0;
			}
			if (strcasecmp(text, no[k]) == 0) {
				*bs_param_i64(p, i) = 0;
				return 0;
			}
		}
		return bs_error(err, BS_EPARSE, "%s: '%s' is not on or off",
				pi->key, text);
	case BS_PK_INT:
	case BS_PK_FSIZE:
		if (strcmp(pi->unit, "bytes") == 0 || pi->kind == BS_PK_FSIZE) {
			if (bs_parse_size(text, len, &u) < 0 || u > INT64_MAX)
				return bs_error(err, BS_EPARSE,
						"%s: '%s' is not a size (a "
						"number of bytes, 4k, 1m)",
						pi->key, text);
			v = (int64_t)u;
		} else if (bs_parse_i64(text, len, &v) < 0) {
			return bs_error(err, BS_EPARSE,
					"%s: '%s' is not a whole number",
					pi->key, text);
		}
		if (!bs_param_fits(i, v))
			return bs_error(err, BS_EPARSE,
					"%s: %s is out of range", pi->key,
					text);
		*bs_param_i64(p, i) = v;
		return 0;
	case BS_PK_REAL:
		if (bs_parse_double(text, len, &d) < 0 ||
		    !bs_param_fits_real(i, d))
			return bs_error(err, BS_EPARSE,
					"%s: '%s' is not a number in range",
					pi->key, text);
		*bs_param_real(p, i) = d;
		return 0;
	case BS_PK_TEXT:
		free(*bs_param_text(p, i));
		*bs_param_text(p, i) = xstrdup(text);
		return 0;
	}
	return bs_error(err, BS_EPARSE, "%s: no such kind", pi->key);
}
