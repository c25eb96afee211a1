/*
 * store/selector.c - parses the selector language (store/selector.h) into
 * terms; store/select.c makes SQL of them. No SQLite here, so that the
 * parser can be tested and fuzzed alone.
 */
#include "store/selector.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/param.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* One row a run field; the rest of the store and the docs follow it. */
const struct bs_sel_field bs_sel_fields[] = {
	{"machine", "machine", BS_SEL_TEXT},
	{"name", "machine", BS_SEL_TEXT}, /* bonnie++'s CSV and -m call it so */
	{"family", "family",
	 BS_SEL_TEXT}, /* bonnie, sysbench, zcav, fio, ... */
	{"tool", "tool", BS_SEL_TEXT},
	{"version", "tool_version", BS_SEL_TEXT},
	{"format", "format", BS_SEL_TEXT},
	{"source", "source", BS_SEL_TEXT},
	{"id", "id", BS_SEL_IDS},
	{"date", "measured_at", BS_SEL_DATE},
	/* bonnie++, Bonnie, bstore run, sysbench, bstore fileio, ...: the
     * names of the family rows' implementations (core/family.h), read
     * from the run's test identity: no column. */
	{"impl", NULL, BS_SEL_TEXT},
};
const size_t bs_sel_nfields = sizeof(bs_sel_fields) / sizeof(bs_sel_fields[0]);

#define ORDERED (BS_SEL_IDS | BS_SEL_DATE | BS_SEL_ORDER)
#define ANY (BS_SEL_TEXT | BS_SEL_IDS | BS_SEL_DATE)

/* clang-format off */
const struct bs_sel_op_info bs_sel_ops[] = {
    {"!=", BS_OP_NE, ANY, "not =: runs without the tag, or with no date, "
                         "too (raid!=10)"},
    {"!~", BS_OP_INE, BS_SEL_TEXT, "not ~ (array!~emc*)"},
    {"<=", BS_OP_LE, ORDERED, "up to the end of (date<=2024: all of "
                             "2024)"},
    {">=", BS_OP_GE, ORDERED, "from the start of (id>=100, "
                             "date>=2024-01-01)"},
    {"=", BS_OP_EQ, ANY, "equal; on text a glob: * any text, ? one "
                        "character, [abc] one of them, [*] a '*' "
                        "(array=EMC*); a date is the whole span it "
                        "names (date=2004-03: March 2004)"},
    {"~", BS_OP_IEQ, BS_SEL_TEXT, "= ignoring ASCII case (array~emc*)"},
    {"<", BS_OP_LT, ORDERED, "before (date<2025)"},
    {">", BS_OP_GT, ORDERED, "after the end of (date>2004-03: from "
                            "April 2004)"},
};
/* clang-format on */
const size_t bs_sel_nops = sizeof(bs_sel_ops) / sizeof(bs_sel_ops[0]);

const struct bs_sel_op_info *bs_sel_op(enum bs_sel_op op)
{
	size_t i;

	for (i = 0; i < bs_sel_nops; i++)
		if (bs_sel_ops[i].op == op)
			return &bs_sel_ops[i];
	return NULL;
}

/* The row whose spelling starts at s, or NULL. */
static const struct bs_sel_op_info *op_at(const char *s)
{
	size_t i;

	for (i = 0; i < bs_sel_nops; i++)
		if (strncmp(s, bs_sel_ops[i].text,
			    strlen(bs_sel_ops[i].text)) == 0)
			return &bs_sel_ops[i];
	return NULL;
}

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
 * Stands for a '|' that separates alternatives once escapes are undone: a
 * control character, which bs_sel_parse() refuses in a selector itself.
 */
#define ALT '\x1f'

/*
 * Copies a selector with its escapes undone ('\,' is a comma inside a
 * value, '\|' a bar, '\\' a backslash), each separating ',' replaced by
 * a NUL, so that terms can be read one after the other, and each other
 * '|' by ALT. Returns the copy's length.
 */
static size_t unescape(const char *sel, char *out)
{
	size_t n = 0;

	for (; *sel; sel++) {
		if (*sel == '\\' &&
		    (sel[1] == ',' || sel[1] == '\\' || sel[1] == '|'))
			out[n++] = *++sel;
		else
			out[n++] = *sel == ','   ? '\0'
				   : *sel == '|' ? ALT
						 : *sel;
	}
	out[n] = '\0';
	return n;
}

/* bs_err_quote() of the len bytes at s, each ALT shown as the '|' the
 * user wrote. */
static const char *quote(char *q, size_t qsz, const char *s, size_t len)
{
	char tmp[48];
	size_t i, n = len < sizeof(tmp) ? len : sizeof(tmp);

	/* A NUL inside a term is an ALT that parse_term() cut at. */
	for (i = 0; i < n; i++)
		tmp[i] = s[i] == ALT || s[i] == '\0' ? '|' : s[i];
	return bs_err_quote(q, qsz, tmp, n, 40);
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
			quote(q, sizeof(q), s, len));
}

/* Unix seconds of the date in text, or -1 (out of range too). */
static int64_t time_of(const char *text)
{
	struct bs_err ignored = BS_ERR_INIT;
	int64_t t;

	return bs_time_parse(text, &t, &ignored) < 0 ? -1 : t;
}

/*
 * The seconds a date spans, [lo, hi]: a year (2004), a month (2004-03),
 * or what bs_time_parse() reads, a day, a minute or a second. -1 if
 * v is none of them.
 */
static int parse_date(const char *v, int64_t *lo, int64_t *hi)
{
	size_t len = strlen(v), i;
	char s[32], e[32];
	int y, m, n = 0;
	int64_t end;

	if (len == 4 || len == 7) {
		for (i = 0; i < len; i++)
			if (i == 4 ? v[i] != '-' : (v[i] < '0' || v[i] > '9'))
				return -1;
		y = (v[0] - '0') * 1000 + (v[1] - '0') * 100 +
		    (v[2] - '0') * 10 + (v[3] - '0');
		m = len == 7 ? (v[5] - '0') * 10 + (v[6] - '0') : 1;
		if (m < 1 || m > 12)
			return -1;
		snprintf(s, sizeof(s), "%04d-%02d-01", y, m);
		if (len == 4 || m == 12)
			snprintf(e, sizeof(e), "%04d-01-01", y + 1);
		else
			snprintf(e, sizeof(e), "%04d-%02d-01", y, m + 1);
		*lo = time_of(s);
		/* 9999 ends where bstore's dates do. */
		end = y == 9999 && (len == 4 || m == 12) ? BS_TIME_MAX + 1
							 : time_of(e);
		if (*lo < 0 || end < 0)
			return -1;
		*hi = end - 1;
		return 0;
	}
	*lo = time_of(v);
	if (*lo < 0)
		return -1;
	if (v[0] == '@')
		n = 1;
	else if (len > 0 && v[len - 1] == 'Z')
		len--;
	if (n == 0)
		n = len == 10 ? 86400 : len == 16 ? 60 : 1;
	*hi = *lo + n - 1 > BS_TIME_MAX ? BS_TIME_MAX : *lo + n - 1;
	return 0;
}

/* "=, !=, ~ or !~": the operators of a type, for a message, in the
 * order of enum bs_sel_op. */
static void ops_of(unsigned type, char *out, size_t outsz)
{
	const struct bs_sel_op_info *o;
	size_t k = 0, n = 0, len = 0;
	int op;

	for (op = BS_OP_EQ; op <= BS_OP_GE; op++)
		n += (bs_sel_op((enum bs_sel_op)op)->types & type) != 0;
	out[0] = '\0';
	for (op = BS_OP_EQ; op <= BS_OP_GE && len < outsz; op++) {
		o = bs_sel_op((enum bs_sel_op)op);
		if (!(o->types & type))
			continue;
		k++;
		len += (size_t)snprintf(out + len, outsz - len, "%s%s",
					k == 1   ? ""
					: k == n ? " or "
						 : ", ",
					o->text);
	}
}

/* Appends t to sel, within BS_SEL_MAX_TERMS. */
static int add_term(struct bs_sel *sel, const struct bs_sel_term *t,
		    struct bs_err *err)
{
	if (sel->n == BS_SEL_MAX_TERMS)
		return bs_error(err, BS_EINVAL, "selector has too many terms");
	xgrow((void **)&sel->term, &sel->cap, sel->n + 1, sizeof(*sel->term));
	sel->term[sel->n++] = *t;
	return 0;
}

/* Whether v is a number or a size that parameter key's row in some
 * family reads as one (core/identity.h): what an ordered operator
 * compares. */
static int ordered_value(const char *key, const char *v)
{
	struct bs_ident_val iv;
	int k;

	for (k = 0; k < bs_nparams; k++)
		if (strcmp(bs_param_table[k].key, key) == 0 &&
		    bs_ident_norm_text(k, v, &iv) == 0 &&
		    (iv.num != BS_NONE || bs_param_table[k].kind == BS_PK_REAL))
			return 1;
	return 0;
}

/* The class at open as a message shows it: up to its ']' or the end. */
static int class_len(const char *open)
{
	const char *p = open + 1 + (open[1] == '^');
	const char *end = strchr(p + (*p == ']'), ']');

	return (int)(end ? end + 1 - open : (ptrdiff_t)strlen(open));
}

int bs_sel_check_glob(const char *glob, struct bs_err *err)
{
	const char *p = glob, *open, *at = NULL;
	char q[64], qc[64];
	const char *why = NULL;

	while (why == NULL && (p = strchr(p, '[')) != NULL) {
		const char *q0;
		uint32_t prev = 0;
		int ranged = 0, prior = 0;

		open = p++;
		if (*p == '^')
			p++;
		/* As SQLite reads a class (store/db.c's regular expression
		 * too): ']' first is a member; a '-' between a member and
		 * another is a range, but first, last or after that ']' it
		 * is a '-'. */
		for (q0 = p; *p && (*p != ']' || p == q0);) {
			if (*p == '-' && p[1] != ']' && p[1] &&
			    (prior || ranged)) {
				uint32_t hi;
				p++;
				hi = bs_text_glob_char(&p);
				if (ranged)
					why = "chains ranges (a-c-e): write "
					      "each range apart, a '-' last";
				else if (hi < prev)
					why = "has a range that goes down "
					      "(z-a): write it low to high";
				if (why) {
					at = open;
					break;
				}
				ranged = 1;
				prior = 0;
				continue;
			}
			prior = !(*p == ']' && p == q0);
			prev = bs_text_glob_char(&p);
			ranged = 0;
		}
		if (why == NULL && *p != ']') {
			why = "is not closed by ']' (a '[' itself is "
			      "written '[[]')";
			at = open;
		}
		if (*p)
			p++;
	}
	if (why == NULL)
		return 0;
	return bs_error(err, BS_EINVAL, "glob '%s': the class '%s' %s",
			bs_err_quote(q, sizeof(q), glob, strlen(glob), 40),
			bs_err_quote(qc, sizeof(qc), at, (size_t)class_len(at),
				     40),
			why);
}

/*
 * The value of one alternative at val of a KEY OP VALUE term whose
 * start, key and operator t holds, into t; s, len: the whole term.
 */
static int parse_value(char *s, size_t len, char *val, unsigned type,
		       const char *key, struct bs_sel_term *t,
		       struct bs_err *err)
{
	size_t vlen = strlen(val);
	char q[64];

	/* id=12 and id=12-15 only: not id=last, id=raid=5. A bad value
	 * alone is named once it starts like a number. */
	if (type == BS_SEL_IDS) {
		if (vlen == 0 || val[0] < '0' || val[0] > '9' ||
		    strpbrk(val, BS_SEL_OP_CHARS))
			return not_a_selector(err, s, len);
		if (parse_ids(val, vlen, t) < 0)
			return not_a_selector(err, val, vlen);
		return 0;
	}
	if (type == BS_SEL_DATE && parse_date(val, &t->lo, &t->hi) < 0)
		return bs_error(err, BS_EINVAL,
				"selector '%s': expected a date from "
				"1970 to 9999 (YYYY, YYYY-MM, YYYY-MM-DD"
				"[ HH:MM[:SS]] or @UNIXTIME)",
				quote(q, sizeof(q), s, len));
	if (t->kind == BS_SEL_PARAM &&
	    !(bs_sel_op(t->op)->types & BS_SEL_TEXT) &&
	    !ordered_value(key, val))
		return bs_error(err, BS_EINVAL,
				"selector '%s': %s takes a number or a size "
				"after '%s'",
				quote(q, sizeof(q), s, len), key,
				bs_sel_op(t->op)->text);
	/* A glob both engines read alike, or a usage error. */
	if (type == BS_SEL_TEXT) {
		int rc = bs_sel_check_glob(val, err);

		if (rc < 0)
			return rc;
	}
	t->value = val;
	return 0;
}

/*
 * Parses the term of len bytes at s (a NUL follows it) into sel, one
 * term an alternative. May write NULs over the operator of a key=value
 * term and its ALTs; keys and values then point into s.
 */
static int parse_term(char *s, size_t len, struct bs_sel *sel,
		      struct bs_err *err)
{
	size_t klen = strcspn(s, BS_SEL_OP_CHARS);
	char q[64], ops[64];
	struct bs_sel_term t;
	int rc;

	memset(&t, 0, sizeof(t));
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty selector term");
	if (klen < len) {
		const struct bs_sel_op_info *op = op_at(s + klen);
		const struct bs_sel_field *f = bs_sel_field(s, klen);
		unsigned type = f ? f->type : BS_SEL_TEXT;
		char *val, *alt, *key;
		int param;

		if (op == NULL || memchr(s, ALT, klen))
			return not_a_selector(err, s, len);
		if (klen == 0)
			return bs_error(err, BS_EINVAL,
					"selector '%s' has no key before '%s'",
					quote(q, sizeof(q), s, len), op->text);
		s[klen] = '\0';
		param = f == NULL && bs_param_find(s) >= 0;
		s[klen] = op->text[0];
		if (param)
			type = BS_SEL_TEXT | BS_SEL_ORDER;
		if (!(op->types & type)) {
			ops_of(f ? type : BS_SEL_TEXT, ops, sizeof(ops));
			quote(q, sizeof(q), s, len);
			if (f == NULL)
				return bs_error(err, BS_EINVAL,
						"selector '%s': a tag takes %s, "
						"not '%s'",
						q, ops, op->text);
			return bs_error(err, BS_EINVAL,
					"selector '%s': %s takes %s, not '%s'",
					q, f->key, ops, op->text);
		}
		t.op = op->op;
		t.kind = f ? BS_SEL_FIELD : param ? BS_SEL_PARAM : BS_SEL_TAG;
		t.field = f;
		t.key = s;
		val = s + klen + strlen(op->text);
		key = xstrndup(s, klen);
		for (;; val = alt + 1) {
			struct bs_sel_term one = t;

			alt = strchr(val, ALT);
			if (alt)
				*alt = '\0';
			rc = parse_value(s, len, val, type, key, &one, err);
			if (rc < 0)
				break;
			if (type == BS_SEL_IDS)
				one.field = NULL, one.key = NULL;
			one.or_next = alt != NULL;
			rc = add_term(sel, &one, err);
			if (rc < 0 || alt == NULL)
				break;
		}
		free(key);
		s[klen] = '\0';
		return rc;
	}
	if (len == 3 && memcmp(s, "all", 3) == 0) {
		t.kind = BS_SEL_ALL;
		return add_term(sel, &t, err);
	}
	if (len == 4 && memcmp(s, "last", 4) == 0) {
		t.kind = BS_SEL_LAST;
		t.n = 1;
		return add_term(sel, &t, err);
	}
	if (len > 5 && memcmp(s, "last:", 5) == 0) {
		if (bs_parse_i64(s + 5, len - 5, &t.n) < 0 || t.n < 1)
			return bs_error(err, BS_EINVAL,
					"'%s': expected last:N with N >= 1",
					quote(q, sizeof(q), s, len));
		t.kind = BS_SEL_LAST;
		return add_term(sel, &t, err);
	}
	/* 21|25-26: alternatives of ids and ranges. */
	for (;;) {
		char *alt = memchr(s, ALT, len);
		size_t one = alt ? (size_t)(alt - s) : len;

		t.op = BS_OP_EQ;
		if (parse_ids(s, one, &t) < 0)
			return not_a_selector(err, s, one);
		t.or_next = alt != NULL;
		rc = add_term(sel, &t, err);
		if (rc < 0 || alt == NULL)
			return rc;
		len -= one + 1;
		s = alt + 1;
	}
}

size_t bs_sel_clause(const struct bs_sel *sel, size_t i)
{
	size_t n = 1;

	while (i + n - 1 < sel->n && sel->term[i + n - 1].or_next)
		n++;
	return n;
}

int bs_sel_parse(struct bs_sel *sel, const char *text, struct bs_err *err)
{
	char *p, *end;
	size_t total;
	int rc;

	bs_sel_release(sel);
	if (strchr(text, ALT))
		return bs_error(err, BS_EINVAL,
				"selector has a control character (0x1f)");
	sel->text = xmalloc(strlen(text) + 1);
	total = unescape(text, sel->text);
	for (p = sel->text;; p = end + 1) {
		end = p + strlen(p);
		/* "raid=10, cache=on": a label's terms, as typed back. */
		while (*p == ' ')
			p++;
		if (sel->n == BS_SEL_MAX_TERMS) {
			rc = bs_error(err, BS_EINVAL,
				      "selector has too many terms");
			goto fail;
		}
		rc = parse_term(p, (size_t)(end - p), sel, err);
		if (rc < 0)
			goto fail;
		if (end == sel->text + total)
			break;
	}
	return (int)sel->n;
fail:
	bs_sel_release(sel);
	return rc;
}

/* Writes s so that unescape() gives it back and no ',' splits it nor '|'
 * makes alternatives of it. */
static int add_escaped(struct bs_buf *out, const char *s)
{
	int rc = 0;

	for (; *s && rc == 0; s++) {
		if (*s == ',' || *s == '\\' || *s == '|')
			rc = bs_buf_addc(out, '\\');
		if (rc == 0)
			rc = bs_buf_addc(out, *s);
	}
	return rc;
}

void bs_sel_add_literal(struct bs_buf *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '*' || *text == '?' || *text == '[')
			bs_buf_addf(out, "[%c]", *text);
		else if (*text == ',' || *text == '\\' || *text == '|')
			bs_buf_addf(out, "\\%c", *text);
		else
			bs_buf_addc(out, *text);
	}
}

/* The value of t alone: what follows its operator. */
static int print_value(struct bs_buf *out, const struct bs_sel_term *t)
{
	int rc = 0;

	switch (t->kind) {
	case BS_SEL_ID:
	case BS_SEL_RANGE:
		rc = bs_buf_addf(out, "%" PRId64, t->lo);
		if (rc == 0 && t->kind == BS_SEL_RANGE)
			rc = bs_buf_addf(out, "-%" PRId64, t->hi);
		return rc;
	default:
		return add_escaped(out, t->value);
	}
}

int bs_sel_print(const struct bs_sel *sel, struct bs_buf *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sel->n && rc == 0; i++) {
		const struct bs_sel_term *t = &sel->term[i];

		if (i > 0)
			rc = bs_buf_addc(out,
					 sel->term[i - 1].or_next ? '|' : ',');
		if (rc < 0)
			break;
		/* An alternative after the first: its value alone. */
		if (i > 0 && sel->term[i - 1].or_next) {
			rc = print_value(out, t);
			continue;
		}
		switch (t->kind) {
		case BS_SEL_ID:
		case BS_SEL_RANGE:
			if (t->op != BS_OP_EQ)
				rc = bs_buf_addf(out, "id%s",
						 bs_sel_op(t->op)->text);
			if (rc == 0)
				rc = print_value(out, t);
			break;
		case BS_SEL_LAST:
			rc = bs_buf_addf(out, "last:%" PRId64, t->n);
			break;
		case BS_SEL_ALL:
			rc = bs_buf_adds(out, "all");
			break;
		case BS_SEL_FIELD:
		case BS_SEL_TAG:
		case BS_SEL_PARAM:
			rc = add_escaped(out, t->key);
			if (rc == 0)
				rc = bs_buf_adds(out, bs_sel_op(t->op)->text);
			if (rc == 0)
				rc = print_value(out, t);
			break;
		}
	}
	return rc;
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

int bs_sel_term_same(const struct bs_sel_term *a, const struct bs_sel_term *b)
{
	if (a->kind != b->kind || a->or_next != b->or_next)
		return 0;
	switch (a->kind) {
	case BS_SEL_ID:
	case BS_SEL_RANGE:
		return a->op == b->op && a->lo == b->lo && a->hi == b->hi;
	case BS_SEL_LAST:
		return a->n == b->n;
	case BS_SEL_ALL:
		return 1;
	default:
		return a->op == b->op && a->field == b->field &&
		       a->lo == b->lo && a->hi == b->hi &&
		       same_text(a->key, b->key) &&
		       same_text(a->value, b->value);
	}
}
