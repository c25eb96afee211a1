/*
 * core/identity.c - a run's test identity (core/identity.h), read from its
 * family's row: the implementation its dialect names, and the deciding
 * parameters of the family's rules, each normalised by its row's
 * reading (enum bs_pnorm).
 */
#include "core/identity.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dialect.h"
#include "core/metric.h"
#include "core/param.h"
#include "core/result.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/banned.h"

/* Per family, worked out once: the deciding parameter rows in the order
 * of the rules, and for each the catalogue rows its rules are about. */
static struct {
	pthread_once_t once;
	int n[BS_FAM_MAX];
	int param[BS_FAM_MAX][BS_IDENT_KEYS];
	uint64_t covers[BS_FAM_MAX][BS_IDENT_KEYS][BS_M_MAX / 64];
} deciding = {PTHREAD_ONCE_INIT};

static void derive(void)
{
	int r, j, n, k[8], f, i, m;

	for (r = 0; r < bs_nparam_rules; r++) {
		const struct bs_param_rule *pr = &bs_param_rules[r];

		if (!pr->decides)
			continue;
		f = pr->family;
		n = bs_param_rule_keys(pr, k, 8);
		for (j = 0; j < n; j++) {
			for (i = 0; i < deciding.n[f]; i++)
				if (deciding.param[f][i] == k[j])
					break;
			if (i == deciding.n[f]) {
				if (i == BS_IDENT_KEYS)
					BS_BUG("a family has more deciding "
					       "parameters than BS_IDENT_KEYS");
				deciding.param[f][deciding.n[f]++] = k[j];
			}
			for (m = 0; m < bs_nmetrics; m++)
				if (bs_param_rule_covers(pr, m))
					deciding.covers[f][i][m / 64] |=
						UINT64_C(1) << (m % 64);
		}
	}
}

static int covers(enum bs_family f, int i, int m)
{
	return (deciding.covers[f][i][m / 64] >> (m % 64)) & 1;
}

/* ---- normalising values -------------------------------------------- */

/* Sets v's text to s[0..len), or to its start and a digest of the whole
 * when it does not fit. */
static void set_text(struct bs_ident_val *v, const char *s, size_t len)
{
	struct bs_sha256 h;
	uint8_t d[32];
	size_t i, keep = BS_IDENT_TEXT - 1 - 1 - 16;

	if (len < BS_IDENT_TEXT) {
		memcpy(v->text, s, len);
		v->text[len] = '\0';
		return;
	}
	bs_sha256_init(&h);
	bs_sha256_update(&h, s, len);
	bs_sha256_final(&h, d);
	memcpy(v->text, s, keep);
	v->text[keep] = '#';
	for (i = 0; i < 8; i++)
		snprintf(v->text + keep + 1 + 2 * i, 3, "%02x", d[i]);
}

/* A size as fio, sysbench and bonnie++ print and take one: digits, then
 * k, m, g or t (powers of 1024) with an optional "i" and "B": "4k",
 * "4096B", "4KiB", "4kb". */
static int read_size(const char *s, size_t len, int64_t *out)
{
	uint64_t v;

	while (len && s[0] == ' ')
		s++, len--;
	while (len && s[len - 1] == ' ')
		len--;
	if (len > 1 && (s[len - 1] == 'b' || s[len - 1] == 'B'))
		len--;
	if (len > 2 && (s[len - 1] == 'i' || s[len - 1] == 'I'))
		len--;
	if (bs_parse_size(s, len, &v) < 0 || v > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/*
 * Sizes, lists and ranges of them as bytes: "4k" -> 4096, "4k,8k" ->
 * "4096,8192", "4096B-4096B" -> 4096, fio's "(R) 4k" -> 4096; a list of
 * one value repeated is that value. Returns -1 when a part is no size.
 */
static int norm_size(const char *s, struct bs_ident_val *v)
{
	struct bs_buf b = BS_BUF_INIT;
	int64_t first = -1, lo, hi;
	int same = 1, rc = 0;
	const char *p = s;

	while (*p && rc == 0) {
		size_t len = strcspn(p, ",");
		const char *q = p, *dash;
		size_t ql = len;

		/* fio's "(R) 4096B-4096B, (W) ..." */
		while (ql && *q == ' ')
			q++, ql--;
		if (ql > 4 && q[0] == '(' && q[2] == ')')
			q += 3, ql -= 3;
		dash = memchr(q, '-', ql);
		if (dash) {
			if (read_size(q, (size_t)(dash - q), &lo) < 0 ||
			    read_size(dash + 1, ql - (size_t)(dash - q) - 1,
				      &hi) < 0)
				rc = -1;
		} else if (read_size(q, ql, &lo) < 0) {
			rc = -1;
		} else {
			hi = lo;
		}
		if (rc == 0) {
			if (b.len)
				bs_buf_addc(&b, ',');
			if (lo == hi)
				bs_buf_addf(&b, "%" PRId64, lo);
			else
				bs_buf_addf(&b, "%" PRId64 "-%" PRId64, lo, hi);
			if (first < 0)
				first = lo;
			if (lo != hi || lo != first)
				same = 0;
		}
		p += len + (p[len] == ',');
	}
	if (rc == 0 && first < 0)
		rc = -1;
	if (rc == 0) {
		if (same) {
			v->num = first;
			bs_buf_reset(&b);
			bs_buf_addf(&b, "%" PRId64, first);
		} else {
			v->num = BS_NONE;
		}
		set_text(v, bs_buf_str(&b), b.len);
	}
	bs_buf_release(&b);
	return rc;
}

/* Whether a flag word asks for O_DIRECT: "direct", sysbench 1.0's
 * "directio", dd's "oflag=direct". */
static int direct_word(const char *w, size_t len)
{
	const char *eq = memchr(w, '=', len);

	if (eq) {
		len -= (size_t)(eq + 1 - w);
		w = eq + 1;
	}
	return (len == 6 && memcmp(w, "direct", 6) == 0) ||
	       (len == 8 && memcmp(w, "directio", 8) == 0);
}

/* Calls fn for each word of open flags: tokens split at blanks and ',',
 * "oflag=direct,dsync" as "oflag=direct" and "oflag=dsync". */
static void each_word(const char *s, void (*fn)(const char *, size_t, void *),
		      void *ctx)
{
	char w[128];

	while (*s) {
		size_t tl, pre = 0, vl;
		const char *t, *eq, *val;

		s += strspn(s, " \t,");
		tl = strcspn(s, " \t");
		if (tl == 0)
			break;
		t = s;
		s += tl;
		eq = memchr(t, '=', tl);
		if (eq)
			pre = (size_t)(eq + 1 - t);
		val = t + pre;
		while (val < t + tl) {
			vl = strcspn(val, ",");
			if (val + vl > t + tl)
				vl = (size_t)(t + tl - val);
			if (vl > 0 && pre + vl < sizeof(w)) {
				memcpy(w, t, pre);
				memcpy(w + pre, val, vl);
				fn(w, pre + vl, ctx);
			}
			val += vl + 1;
		}
	}
}

struct words {
	char w[16][48];
	int n, direct;
};

static void add_word(const char *w, size_t len, void *ctx)
{
	struct words *x = ctx;
	int i;

	if (direct_word(w, len)) {
		x->direct = 1;
		return;
	}
	if (x->n == 16 || len >= sizeof(x->w[0]))
		return;
	memcpy(x->w[x->n], w, len);
	x->w[x->n][len] = '\0';
	for (i = 0; i < x->n; i++)
		if (strcmp(x->w[i], x->w[x->n]) == 0)
			return;
	x->n++;
}

static int cmp_word(const void *a, const void *b)
{
	return strcmp(a, b);
}

int bs_flags_direct(const char *flags)
{
	struct words x;

	if (flags == NULL)
		return 0;
	memset(&x, 0, sizeof(x));
	each_word(flags, add_word, &x);
	return x.direct;
}

/* Open flags as sorted words without O_DIRECT's (the parameter direct
 * says it): "oflag=direct conv=fdatasync" -> "conv=fdatasync". */
static void norm_words(const char *s, struct bs_ident_val *v)
{
	struct bs_buf b = BS_BUF_INIT;
	struct words x;
	int i;

	memset(&x, 0, sizeof(x));
	each_word(s, add_word, &x);
	qsort(x.w, (size_t)x.n, sizeof(x.w[0]), cmp_word);
	for (i = 0; i < x.n; i++) {
		if (i)
			bs_buf_addc(&b, ',');
		bs_buf_adds(&b, x.w[i]);
	}
	set_text(v, bs_buf_str(&b), b.len);
	bs_buf_release(&b);
}

/* fio's rw: its aliases as one, case as fio ignores it. */
static void norm_fio_rw(const char *s, struct bs_ident_val *v)
{
	static const struct {
		const char *alias, *is;
	} aliases[] = {
		{"readwrite", "rw"},
		{"randreadwrite", "randrw"},
	};
	char low[BS_IDENT_TEXT];
	size_t i, len = strlen(s);

	for (i = 0; i < len && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	if (len >= sizeof(low)) {
		set_text(v, s, len);
		return;
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(low, aliases[i].alias) == 0)
			snprintf(low, sizeof(low), "%s", aliases[i].is);
	set_text(v, low, strlen(low));
}

int bs_ident_is_size(const char *text)
{
	struct bs_ident_val v;

	memset(&v, 0, sizeof(v));
	return text[0] != '\0' && norm_size(text, &v) == 0;
}

/* A text value by its row's reading (any text is one). */
static int norm_text(int k, const char *s, struct bs_ident_val *v)
{
	v->num = BS_NONE;
	switch (bs_param_table[k].norm) {
	case BS_PN_SIZE:
		if (norm_size(s, v) == 0)
			return 0;
		/* Not a size fio would take: kept as printed. */
		set_text(v, s, strlen(s));
		return 0;
	case BS_PN_WORDS:
		norm_words(s, v);
		return 0;
	case BS_PN_FIO_RW:
		norm_fio_rw(s, v);
		return 0;
	case BS_PN_AS_IS:
		break;
	}
	set_text(v, s, strlen(s));
	return 0;
}

int bs_ident_norm(const struct bs_params *p, int k, struct bs_ident_val *v)
{
	char num[64];

	memset(v, 0, sizeof(*v));
	v->param = k;
	v->num = BS_NONE;
	if (!bs_param_known(p, k))
		return 0;
	v->known = 1;
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		norm_text(k, bs_param_get_text(p, k), v);
		break;
	case BS_PK_REAL:
		bs_fmt_g(num, sizeof(num), bs_param_get_real(p, k));
		set_text(v, num, strlen(num));
		break;
	default:
		v->num = bs_param_get_i64(p, k);
		break;
	}
	return 1;
}

int bs_ident_norm_text(int k, const char *text, struct bs_ident_val *v)
{
	const struct bs_param_info *pi = &bs_param_table[k];
	int64_t n;
	double d;
	char num[64];

	memset(v, 0, sizeof(*v));
	v->param = k;
	v->num = BS_NONE;
	v->known = 1;
	switch (pi->kind) {
	case BS_PK_TEXT:
		return norm_text(k, text, v);
	case BS_PK_REAL:
		if (bs_parse_double(text, strlen(text), &d) < 0)
			return -BS_EINVAL;
		bs_fmt_g(num, sizeof(num), d);
		set_text(v, num, strlen(num));
		return 0;
	case BS_PK_BOOL:
		if (strcmp(text, "1") == 0 || strcmp(text, "on") == 0 ||
		    strcmp(text, "yes") == 0 || strcmp(text, "true") == 0)
			v->num = 1;
		else if (strcmp(text, "0") == 0 || strcmp(text, "off") == 0 ||
			 strcmp(text, "no") == 0 || strcmp(text, "false") == 0)
			v->num = 0;
		else
			return -BS_EINVAL;
		return 0;
	case BS_PK_FSIZE:
		if (strcmp(text, "link") == 0) {
			v->num = BS_SIZE_LINK;
			return 0;
		}
		if (strcmp(text, "symlink") == 0) {
			v->num = BS_SIZE_SYMLINK;
			return 0;
		}
		/* fall through */
	case BS_PK_INT:
		/* A size parameter takes a size: bs_bytes=1m, and one in MiB
		 * takes bonnie++'s -s sizes (a plain number is MiB). */
		if (strcmp(pi->unit, "bytes") == 0 || pi->kind == BS_PK_FSIZE) {
			if (read_size(text, strlen(text), &n) < 0)
				return -BS_EINVAL;
		} else if (strcmp(pi->unit, "MiB") == 0 &&
			   strpbrk(text, "kKmMgGtT")) {
			if (read_size(text, strlen(text), &n) < 0)
				return -BS_EINVAL;
			n /= 1024 * 1024;
		} else if (bs_parse_i64(text, strlen(text), &n) < 0) {
			return -BS_EINVAL;
		}
		v->num = n;
		return 0;
	}
	return -BS_EINVAL;
}

/* ---- identities ----------------------------------------------------- */

/* The value the implementation fixes for parameter row k, into v:
 * "direct=0" in its row. Returns whether it fixes one. */
static int impl_fixed(const struct bs_impl *im, int k, struct bs_ident_val *v)
{
	const char *p = im ? im->fixed : NULL;
	const char *key = bs_param_table[k].key;
	size_t kl = strlen(key);
	char val[64];

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len > kl && memcmp(p, key, kl) == 0 && p[kl] == '=') {
			snprintf(val, sizeof(val), "%.*s", (int)(len - kl - 1),
				 p + kl + 1);
			if (bs_ident_norm_text(k, val, v) < 0)
				BS_BUG("an implementation fixes a value its "
				       "parameter cannot hold");
			v->fixed = 1;
			return 1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* A run whose reader did not set direct (one stored before direct was a
 * parameter of its family) still has its open flags: they tell it. */
static void direct_from_flags(const struct bs_run *r, struct bs_ident_val *v)
{
	int j, first = bs_cat->param0[r->family];

	for (j = first; j < first + bs_family(r->family)->nparams; j++) {
		if (bs_param_table[j].norm != BS_PN_WORDS ||
		    !bs_param_known(&r->params, j))
			continue;
		v->known = 1;
		v->num = bs_flags_direct(bs_param_get_text(&r->params, j));
	}
}

void bs_ident_of(const struct bs_run *r, struct bs_ident *id)
{
	const struct bs_dialect *d = bs_dialect_of(r);
	enum bs_family f = r->family;
	int i;

	pthread_once(&deciding.once, derive);
	id->family = f;
	id->n = 0;
	if (!bs_family_ok(f)) {
		id->impl = NULL;
		return;
	}
	/* The dialect's implementation, unless the run's tool is another:
	 * bstore run's CSV line is a bonnie++ 1.98 line, read back. */
	id->impl = d->impl ? bs_family_impl(f, d->impl, NULL) : NULL;
	if (id->impl == NULL ||
	    (r->tool && strcmp(id->impl->tool, r->tool) != 0))
		id->impl = bs_family_impl(f, NULL, r->tool);
	for (i = 0; i < deciding.n[f]; i++) {
		struct bs_ident_val *v = &id->v[id->n++];
		int k = deciding.param[f][i];

		if (impl_fixed(id->impl, k, v))
			continue;
		if (!bs_ident_norm(&r->params, k, v) &&
		    strcmp(bs_param_table[k].key, "direct") == 0)
			direct_from_flags(r, v);
	}
}

int bs_ident_value(const struct bs_run *r, int k, struct bs_ident_val *v)
{
	struct bs_ident id;
	const struct bs_ident_val *x;

	bs_ident_of(r, &id);
	x = bs_ident_get(&id, k);
	if (x) {
		*v = *x;
		return v->known;
	}
	if (impl_fixed(id.impl, k, v))
		return 1;
	if (!bs_ident_norm(&r->params, k, v) &&
	    strcmp(bs_param_table[k].key, "direct") == 0 &&
	    bs_family_ok(r->family))
		direct_from_flags(r, v);
	return v->known;
}

int bs_ident_val_cmp(const struct bs_ident_val *a, const struct bs_ident_val *b)
{
	double x, y;

	if (a->num != BS_NONE && b->num != BS_NONE)
		return (a->num > b->num) - (a->num < b->num);
	if (bs_param_table[a->param].kind == BS_PK_REAL &&
	    bs_parse_double(a->text, strlen(a->text), &x) == 0 &&
	    bs_parse_double(b->text, strlen(b->text), &y) == 0)
		return (x > y) - (x < y);
	return a->num == b->num && strcmp(a->text, b->text) == 0
		       ? 0
		       : BS_IDENT_UNORDERED;
}

void bs_ident_val_word(const struct bs_ident_val *v, struct bs_buf *out)
{
	if (bs_param_table[v->param].kind == BS_PK_FSIZE &&
	    (v->num == BS_SIZE_LINK || v->num == BS_SIZE_SYMLINK))
		bs_buf_adds(out, v->num == BS_SIZE_LINK ? "link" : "symlink");
	else if (v->num != BS_NONE)
		bs_buf_addf(out, "%" PRId64, v->num);
	else
		bs_buf_adds(out, v->text);
}

static int val_same(const struct bs_ident_val *a, const struct bs_ident_val *b)
{
	if (a->known != b->known)
		return 0;
	if (!a->known)
		return 1;
	return a->num == b->num && strcmp(a->text, b->text) == 0;
}

int bs_ident_decides(const struct bs_ident *id, int j, int m)
{
	pthread_once(&deciding.once, derive);
	return j >= 0 && j < id->n && m >= 0 && m < bs_nmetrics &&
	       covers(id->family, j, m);
}

const struct bs_ident_val *bs_ident_get(const struct bs_ident *id, int k)
{
	int i;

	for (i = 0; i < id->n; i++)
		if (id->v[i].param == k)
			return &id->v[i];
	return NULL;
}

/* Whether "KEY=VALUE,..." (an equivalence's when) holds for id: 1 yes,
 * 0 no, -1 a value it names is unknown (*param says which). */
static int holds(const struct bs_ident *id, const char *when, int *param)
{
	const char *p = when;
	char key[64];
	int rc = 1;

	while (p && *p) {
		size_t len = strcspn(p, ","), kl = strcspn(p, "=");
		struct bs_ident_val want;
		const struct bs_ident_val *have;
		int k;

		if (kl >= len)
			BS_BUG("an equivalence's condition is not KEY=VALUE");
		snprintf(key, sizeof(key), "%.*s", (int)kl, p);
		k = bs_param_find_in(id->family, key);
		snprintf(key, sizeof(key), "%.*s", (int)(len - kl - 1),
			 p + kl + 1);
		if (k < 0 || bs_ident_norm_text(k, key, &want) < 0 ||
		    (have = bs_ident_get(id, k)) == NULL)
			BS_BUG("an equivalence names no deciding parameter");
		if (!have->known) {
			*param = k;
			return -1;
		}
		if (!val_same(have, &want))
			rc = 0;
		p += len + (p[len] == ',');
	}
	return rc;
}

enum bs_ident_holds bs_ident_holds(const struct bs_ident *id, const char *when)
{
	int param, h = holds(id, when, &param);

	return h > 0 ? BS_HOLDS_YES : h < 0 ? BS_HOLDS_UNKNOWN : BS_HOLDS_NO;
}

/* Whether a catalogue key list ("*", "put_block,rewrite") holds row m. */
static int lists(const char *list, int m)
{
	const char *key = bs_metrics[m].key, *p = list;
	size_t kl = strlen(key);

	if (strcmp(list, "*") == 0)
		return 1;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == kl && memcmp(p, key, kl) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Implementations a and b on row m: SAME when one, or declared alike at
 * their methods; RELATED, or UNKNOWN when a method that decides it is
 * unknown. */
static enum bs_ident_rel impls(const struct bs_ident *a,
			       const struct bs_ident *b, int m, int *param)
{
	const struct bs_family_info *row = bs_family(a->family);
	int i, unknown = -1;

	if (a->impl == b->impl)
		return BS_ID_SAME;
	if (a->impl == NULL || b->impl == NULL)
		return BS_ID_RELATED;
	for (i = 0; i < row->nequiv; i++) {
		const struct bs_equiv *e = &row->equiv[i];
		int ha, hb, pa = -1, pb = -1;

		if (!((strcmp(e->a, a->impl->name) == 0 &&
		       strcmp(e->b, b->impl->name) == 0) ||
		      (strcmp(e->a, b->impl->name) == 0 &&
		       strcmp(e->b, a->impl->name) == 0)))
			continue;
		ha = holds(a, e->when, &pa);
		hb = holds(b, e->when, &pb);
		if (ha == 0 || hb == 0)
			continue;
		if (ha < 0 || hb < 0) {
			if (lists(e->metrics, m) && unknown < 0)
				unknown = ha < 0 ? pa : pb;
			continue;
		}
		if (lists(e->metrics, m))
			return BS_ID_SAME;
	}
	if (unknown >= 0) {
		*param = unknown;
		return BS_ID_UNKNOWN;
	}
	return BS_ID_RELATED;
}

enum bs_ident_rel bs_ident_cmp(const struct bs_ident *a,
			       const struct bs_ident *b, int m, int ignore,
			       int *param)
{
	enum bs_ident_rel rel;
	int i, unknown = -1;

	*param = -1;
	if (a->family != b->family)
		return BS_ID_RELATED;
	rel = impls(a, b, m, param);
	if (rel == BS_ID_RELATED)
		return rel;
	if (rel == BS_ID_UNKNOWN)
		unknown = *param;
	*param = -1;
	for (i = 0; i < a->n && i < b->n; i++) {
		const struct bs_ident_val *x = &a->v[i], *y = &b->v[i];

		if (x->param == ignore || !covers(a->family, i, m) ||
		    val_same(x, y))
			continue;
		if (x->known && y->known) {
			*param = x->param;
			return BS_ID_DIFFER;
		}
		if (unknown < 0)
			unknown = x->param;
	}
	if (unknown >= 0) {
		*param = unknown;
		return BS_ID_UNKNOWN;
	}
	return BS_ID_SAME;
}

int bs_ident_equal(const struct bs_ident *a, const struct bs_ident *b)
{
	int i;

	if (a->family != b->family || a->impl != b->impl || a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!val_same(&a->v[i], &b->v[i]))
			return 0;
	return 1;
}

/* A number in decimal, as "%" PRId64 writes it. */
static void add_i64(struct bs_buf *out, int64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--n] = '-';
	bs_buf_add(out, tmp + n, sizeof(tmp) - n);
}

/* Without printf: bstore changes makes a key for every run it reads. */
void bs_ident_key(const struct bs_ident *id, struct bs_buf *out)
{
	int i;

	bs_buf_adds(out, bs_family_name(id->family));
	bs_buf_addc(out, '|');
	bs_buf_adds(out, id->impl ? id->impl->name : "?");
	for (i = 0; i < id->n; i++) {
		const struct bs_ident_val *v = &id->v[i];

		bs_buf_addc(out, '|');
		bs_buf_adds(out, bs_param_table[v->param].key);
		bs_buf_addc(out, '=');
		if (!v->known)
			bs_buf_addc(out, '?');
		else if (v->num != BS_NONE && v->text[0] == '\0')
			add_i64(out, v->num);
		else
			bs_buf_adds(out, v->text);
	}
}

/* Bytes for people: "4 KiB", "1 GiB", "4097 B". */
static void add_bytes(struct bs_buf *out, int64_t b)
{
	static const char *const unit[] = {"B",   "KiB", "MiB",
					   "GiB", "TiB", "PiB"};
	int u = 0;

	while (u < 5 && b != 0 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	bs_buf_addf(out, "%" PRId64 " %s", b, unit[u]);
}

void bs_ident_val_text(const struct bs_ident_val *v, struct bs_buf *out)
{
	const struct bs_param_info *pi = &bs_param_table[v->param];
	const char *p;

	if (!v->known) {
		bs_buf_adds(out, "unknown");
		return;
	}
	switch (pi->kind) {
	case BS_PK_TEXT:
		if (pi->norm != BS_PN_SIZE) {
			bs_buf_adds(out, v->text[0] ? v->text : "none");
			return;
		}
		if (v->num != BS_NONE) {
			add_bytes(out, v->num);
			return;
		}
		/* An empty text reads as a word, as every other does: a
		 * list that says nothing would lose its clause ("4k and "). */
		if (v->text[0] == '\0') {
			bs_buf_adds(out, "none");
			return;
		}
		/* A list or a range of sizes: each for people. */
		for (p = v->text; *p;) {
			size_t len = strspn(p, "0123456789");
			int64_t n = 0;

			if (len && bs_parse_i64(p, len, &n) == 0)
				add_bytes(out, n);
			else
				len = 1, bs_buf_add(out, p, 1);
			p += len;
		}
		return;
	case BS_PK_REAL:
		bs_buf_adds(out, v->text);
		return;
	case BS_PK_BOOL:
		bs_buf_adds(out, v->num ? "on" : "off");
		return;
	case BS_PK_FSIZE:
		if (v->num == BS_SIZE_LINK) {
			bs_buf_adds(out, "link");
			return;
		}
		if (v->num == BS_SIZE_SYMLINK) {
			bs_buf_adds(out, "symlink");
			return;
		}
		add_bytes(out, v->num);
		return;
	case BS_PK_INT:
		break;
	}
	if (strcmp(pi->unit, "bytes") == 0)
		add_bytes(out, v->num);
	else if (strcmp(pi->unit, "MiB") == 0)
		add_bytes(out, v->num * 1024 * 1024);
	else
		bs_buf_addf(out, "%" PRId64 "%s%s", v->num,
			    pi->unit[0] ? " " : "", pi->unit);
}

/* Whether word is one of list's (joined by ','). */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len;
	}
	return 0;
}

int bs_ident_measures(const struct bs_ident *id, int m)
{
	const struct bs_family_info *row;
	int j;

	if (!bs_family_ok(id->family) || bs_metrics[m].family != id->family)
		return 1;
	row = bs_family(id->family);
	for (j = 0; j < row->nunmeasured; j++) {
		const struct bs_unmeasured *u = &row->unmeasured[j];
		const struct bs_ident_val *v =
			bs_ident_get(id, bs_param_find_in(id->family, u->key));

		if (v && v->known && in_list(u->values, v->text) &&
		    in_list(u->metrics, bs_metrics[m].key))
			return 0;
	}
	return 1;
}

/* One word of a name: w's fmt with v's value; nothing for a boolean
 * that is off or a value that is unknown. "1 threads" is "1 thread". */
static void title_word(const struct bs_title_word *w,
		       const struct bs_ident_val *v, int *nwords,
		       struct bs_buf *out)
{
	struct bs_buf val = BS_BUF_INIT;
	const char *pct = strstr(w->fmt, "%s");

	if (!v->known ||
	    (bs_param_table[v->param].kind == BS_PK_BOOL && v->num == 0)) {
		bs_buf_release(&val);
		return;
	}
	bs_buf_adds(out, (*nwords)++ ? ", " : " ");
	if (pct == NULL) {
		bs_buf_adds(out, w->fmt);
		bs_buf_release(&val);
		return;
	}
	bs_ident_val_text(v, &val);
	bs_buf_add(out, w->fmt, (size_t)(pct - w->fmt));
	bs_buf_adds(out, bs_buf_str(&val));
	if (strcmp(bs_buf_str(&val), "1") == 0 && pct[2] == ' ' &&
	    pct[strlen(pct) - 1] == 's')
		bs_buf_add(out, pct + 2, strlen(pct + 2) - 1);
	else
		bs_buf_adds(out, pct + 2);
	bs_buf_release(&val);
}

/* The short name: the implementation and its family's title words. */
static void short_name(const struct bs_ident *id, struct bs_buf *out)
{
	const struct bs_family_info *row;
	int j, nwords = 0;

	bs_buf_adds(out,
		    id->impl ? id->impl->name : bs_family_name(id->family));
	if (!bs_family_ok(id->family))
		return;
	row = bs_family(id->family);
	for (j = 0; j < row->ntitle; j++) {
		const struct bs_ident_val *v =
			bs_ident_get(id, bs_param_find_in(id->family,
							  row->title[j].key));

		if (v)
			title_word(&row->title[j], v, &nwords, out);
	}
}

/* Sorting a set's indices by their short names. */
struct named {
	size_t i;
	char *name;
};

static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

void bs_ident_names(const struct bs_ident *set, size_t n, char **out)
{
	struct named *x = xcalloc(n ? n : 1, sizeof(*x));
	struct bs_buf b = BS_BUF_INIT;
	size_t i, j, k;
	int v;

	for (i = 0; i < n; i++) {
		bs_buf_reset(&b);
		short_name(&set[i], &b);
		x[i].i = i;
		x[i].name = bs_buf_detach(&b, NULL);
	}
	qsort(x, n, sizeof(*x), cmp_named);
	/* Each run of one short name: the values in which its tests do not
	 * all agree are said by every one of them, each its own, so that
	 * no two names are one. */
	for (i = 0; i < n; i = j) {
		const struct bs_ident *a = &set[x[i].i];

		for (j = i + 1; j < n && strcmp(x[j].name, x[i].name) == 0; j++)
			;
		for (k = i; k < j; k++) {
			bs_buf_reset(&b);
			bs_buf_adds(&b, x[k].name);
			for (v = 0; j - i > 1 && v < a->n; v++) {
				const struct bs_ident *c = &set[x[k].i];
				size_t q;
				int all = 1;

				for (q = i + 1; q < j && all; q++) {
					const struct bs_ident *o = &set[x[q].i];

					all = o->family == a->family &&
					      o->n == a->n &&
					      val_same(&o->v[v], &a->v[v]);
				}
				if (all || v >= c->n)
					continue;
				bs_buf_addf(&b, ", %s ",
					    bs_param_table[c->v[v].param].label);
				bs_ident_val_text(&c->v[v], &b);
			}
			out[x[k].i] = bs_buf_detach(&b, NULL);
		}
	}
	for (i = 0; i < n; i++)
		free(x[i].name);
	free(x);
	bs_buf_release(&b);
}
