/*
 * store/selector.c - parses the selector language (store/selector.h) into
 * terms; store/select.c makes SQL of them. No SQLite here, so that the
 * parser can be tested and fuzzed alone.
 */
#include "store/selector.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* One row a run field; the rest of the store and the docs follow it. */
const struct bs_sel_field bs_sel_fields[] = {
    {"machine", "machine", 0},
    {"name", "machine", 0}, /* bonnie++'s CSV and -m call it the name */
    {"family", "family", 0}, /* bonnie, sysbench, zcav, fio, dd, ... */
    {"tool", "tool", 0},
    {"version", "tool_version", 0},
    {"format", "format", 0},
    {"source", "source", 0},
    {"id", "id", 1},
};
const size_t bs_sel_nfields = sizeof(bs_sel_fields) / sizeof(bs_sel_fields[0]);

const struct bs_sel_field *bs_sel_field(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < bs_sel_nfields; i++)
		if (strlen(bs_sel_fields[i].key) == len &&
		    memcmp(bs_sel_fields[i].key, key, len) == 0)
			return &bs_sel_fields[i];
	return NULL;
}

const char *bs_store_run_column(const char *key, size_t len)
{
	const struct bs_sel_field *f = bs_sel_field(key, len);

	return f ? f->column : NULL;
}

void bs_sel_release(struct bs_sel *sel)
{
	free(sel->term);
	free(sel->text);
	sel->term = NULL;
	sel->n = 0;
	sel->cap = 0;
	sel->text = NULL;
}

/*
 * Copies a selector with its escapes undone ('\,' is a comma inside a
 * value, '\\' a backslash) and each separating ',' replaced by a NUL,
 * so that terms can be read one after the other. Returns the copy's
 * length.
 */
static size_t unescape(const char *sel, char *out)
{
	size_t n = 0;

	for (; *sel; sel++) {
		if (*sel == '\\' && (sel[1] == ',' || sel[1] == '\\'))
			out[n++] = *++sel;
		else
			out[n++] = *sel == ',' ? '\0' : *sel;
	}
	out[n] = '\0';
	return n;
}

/* An id (12) or a range (12-15) into t; -1 if it is neither. */
static int parse_ids(const char *s, size_t len, struct bs_sel_term *t)
{
	const char *dash = len > 1 ? memchr(s + 1, '-', len - 1) : NULL;
	int64_t a, z;

	if (dash) {
		size_t alen = (size_t)(dash - s);

		if (bs_parse_i64(s, alen, &a) < 0 ||
		    bs_parse_i64(dash + 1, len - alen - 1, &z) < 0 || a < 1 ||
		    z < a)
			return -1;
		t->kind = BS_SEL_RANGE;
	} else {
		if (bs_parse_i64(s, len, &a) < 0 || a < 1)
			return -1;
		z = a;
		t->kind = BS_SEL_ID;
	}
	t->lo = a;
	t->hi = z;
	return 0;
}

static int not_a_selector(struct bs_err *err, const char *s, size_t len)
{
	char q[64];

	return bs_error(err, BS_EINVAL,
	                "'%s' is not a selector (expected an id, a range "
	                "like 12-15, 'last', 'all' or key=value)",
	                bs_err_quote(q, sizeof(q), s, len, 40));
}

/*
 * Parses the term of len bytes at s (a NUL follows it) into t. May write
 * a NUL over the '=' of a key=value term, whose key and value then point
 * into s.
 */
static int parse_term(char *s, size_t len, struct bs_sel_term *t,
                      struct bs_err *err)
{
	char *eq = memchr(s, '=', len);
	char q[64];

	memset(t, 0, sizeof(*t));
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty selector term");
	if (eq) {
		const char *val = eq + 1;
		size_t klen = (size_t)(eq - s), vlen = len - klen - 1;
		const struct bs_sel_field *f = bs_sel_field(s, klen);

		if (klen == 0)
			return bs_error(err, BS_EINVAL,
			                "selector '%s' has no key before '='",
			                bs_err_quote(q, sizeof(q), s, len, 40));
		/* id=12 and id=12-15 only: not id=last, id=raid=5. A bad
		 * value alone is named once it starts like a number. */
		if (f && f->is_id) {
			if (vlen == 0 || val[0] < '0' || val[0] > '9' ||
			    memchr(val, '=', vlen))
				return not_a_selector(err, s, len);
			if (parse_ids(val, vlen, t) < 0)
				return not_a_selector(err, val, vlen);
			return 0;
		}
		*eq = '\0';
		t->kind = f ? BS_SEL_FIELD : BS_SEL_TAG;
		t->field = f;
		t->key = s;
		t->value = val;
		return 0;
	}
	if (len == 3 && memcmp(s, "all", 3) == 0) {
		t->kind = BS_SEL_ALL;
		return 0;
	}
	if (len == 4 && memcmp(s, "last", 4) == 0) {
		t->kind = BS_SEL_LAST;
		t->n = 1;
		return 0;
	}
	if (len > 5 && memcmp(s, "last:", 5) == 0) {
		if (bs_parse_i64(s + 5, len - 5, &t->n) < 0 || t->n < 1)
			return bs_error(err, BS_EINVAL,
			                "'%s': expected last:N with N >= 1",
			                bs_err_quote(q, sizeof(q), s, len, 40));
		t->kind = BS_SEL_LAST;
		return 0;
	}
	if (parse_ids(s, len, t) < 0)
		return not_a_selector(err, s, len);
	return 0;
}

int bs_sel_parse(struct bs_sel *sel, const char *text, struct bs_err *err)
{
	struct bs_sel_term t;
	char *p, *end;
	size_t total;
	int rc;

	bs_sel_release(sel);
	sel->text = xmalloc(strlen(text) + 1);
	total = unescape(text, sel->text);
	for (p = sel->text;; p = end + 1) {
		end = p + strlen(p);
		if (sel->n == BS_SEL_MAX_TERMS) {
			rc = bs_error(err, BS_EINVAL,
			              "selector has too many terms");
			goto fail;
		}
		rc = parse_term(p, (size_t)(end - p), &t, err);
		if (rc < 0)
			goto fail;
		xgrow((void **)&sel->term, &sel->cap, sel->n + 1,
		      sizeof(*sel->term));
		sel->term[sel->n++] = t;
		if (end == sel->text + total)
			break;
	}
	return (int)sel->n;
fail:
	bs_sel_release(sel);
	return rc;
}

/* Writes s so that unescape() gives it back and no ',' splits it. */
static int add_escaped(struct bs_buf *out, const char *s)
{
	int rc = 0;

	for (; *s && rc == 0; s++) {
		if (*s == ',' || *s == '\\')
			rc = bs_buf_addc(out, '\\');
		if (rc == 0)
			rc = bs_buf_addc(out, *s);
	}
	return rc;
}

int bs_sel_print(const struct bs_sel *sel, struct bs_buf *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sel->n && rc == 0; i++) {
		const struct bs_sel_term *t = &sel->term[i];

		if (i > 0)
			rc = bs_buf_addc(out, ',');
		if (rc < 0)
			break;
		switch (t->kind) {
		case BS_SEL_ID:
			rc = bs_buf_addf(out, "%" PRId64, t->lo);
			break;
		case BS_SEL_RANGE:
			rc = bs_buf_addf(out, "%" PRId64 "-%" PRId64, t->lo,
			                 t->hi);
			break;
		case BS_SEL_LAST:
			rc = bs_buf_addf(out, "last:%" PRId64, t->n);
			break;
		case BS_SEL_ALL:
			rc = bs_buf_adds(out, "all");
			break;
		case BS_SEL_FIELD:
		case BS_SEL_TAG:
			rc = add_escaped(out, t->key);
			if (rc == 0)
				rc = bs_buf_addc(out, '=');
			if (rc == 0)
				rc = add_escaped(out, t->value);
			break;
		}
	}
	return rc;
}
