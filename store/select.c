/*
 * store/select.c - the selector language (store/store.h): each selector
 * becomes one SELECT over runs and tags.
 */
#include "store/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* ---- selection ---------------------------------------------------- */

void bs_ids_release(struct bs_ids *ids)
{
	free(ids->id);
	ids->id = NULL;
	ids->n = 0;
	ids->cap = 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Merges sorted new ids into out, keeping it sorted and unique. */
static void ids_merge(struct bs_ids *out, const int64_t *add, size_t n)
{
	size_t i, j = 0;

	xgrow((void **)&out->id, &out->cap, out->n + n, sizeof(*out->id));
	memcpy(out->id + out->n, add, n * sizeof(*add));
	out->n += n;
	qsort(out->id, out->n, sizeof(*out->id), cmp_id);
	for (i = 0; i < out->n; i++)
		if (j == 0 || out->id[j - 1] != out->id[i])
			out->id[j++] = out->id[i];
	out->n = j;
}

/* Columns a key=value term may name; anything else is a tag key. */
const char *bs_store_run_column(const char *key, size_t len)
{
	static const struct {
		const char *key;
		const char *col;
	} cols[] = {
	    {"machine", "machine"}, {"name", "machine"},
	    {"tool", "tool"},       {"version", "tool_version"},
	    {"format", "format"},   {"source", "source"},
	};
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (strlen(cols[i].key) == len &&
		    memcmp(cols[i].key, key, len) == 0)
			return cols[i].col;
	return NULL;
}

struct term_binds {
	const char *text[16];
	size_t len[16];
	int64_t num[16];
	int is_num[16];
	int n;
};

static int add_bind_text(struct term_binds *b, const char *s, size_t len)
{
	if (b->n >= 16)
		return -1;
	b->text[b->n] = s;
	b->len[b->n] = len;
	b->is_num[b->n] = 0;
	b->n++;
	return 0;
}

static int add_bind_num(struct term_binds *b, int64_t v)
{
	if (b->n >= 16)
		return -1;
	b->num[b->n] = v;
	b->is_num[b->n] = 1;
	b->n++;
	return 0;
}

/* Appends the SQL condition for one term of a selector. */
static int term_sql(const char *t, size_t len, struct bs_buf *sql,
                    struct term_binds *b, int64_t *limit, struct bs_err *err)
{
	const char *eq = memchr(t, '=', len);
	const char *dash;
	int64_t a, z;
	char q[64];

	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty selector term");
	if (eq) {
		const char *key = t, *val = eq + 1;
		size_t klen = (size_t)(eq - t), vlen = len - klen - 1;
		const char *col = bs_store_run_column(key, klen);

		if (klen == 0)
			return bs_error(err, BS_EINVAL,
			                "selector '%s' has no key before '='",
			                bs_err_quote(q, sizeof(q), t, len, 40));
		/* id=12 and id=12-15 only: not id=last, id=raid=5. */
		if (klen == 2 && memcmp(key, "id", 2) == 0) {
			if (vlen == 0 || val[0] < '0' || val[0] > '9' ||
			    memchr(val, '=', vlen))
				goto bad;
			return term_sql(val, vlen, sql, b, limit, err);
		}
		if (col) {
			bs_buf_addf(sql, "r.%s = ?", col);
			if (add_bind_text(b, val, vlen) < 0)
				goto too_many;
		} else {
			bs_buf_adds(sql, "EXISTS (SELECT 1 FROM tags AS t "
			                 "WHERE t.run_id = r.id AND t.key = ? "
			                 "AND t.value = ?)");
			if (add_bind_text(b, key, klen) < 0 ||
			    add_bind_text(b, val, vlen) < 0)
				goto too_many;
		}
		return 0;
	}
	if (len == 3 && memcmp(t, "all", 3) == 0) {
		bs_buf_adds(sql, "1");
		return 0;
	}
	if (len == 4 && memcmp(t, "last", 4) == 0) {
		*limit = 1;
		bs_buf_adds(sql, "1");
		return 0;
	}
	if (len > 5 && memcmp(t, "last:", 5) == 0) {
		if (bs_parse_i64(t + 5, len - 5, &a) < 0 || a < 1)
			return bs_error(err, BS_EINVAL,
			                "'%s': expected last:N with N >= 1",
			                bs_err_quote(q, sizeof(q), t, len, 40));
		*limit = a;
		bs_buf_adds(sql, "1");
		return 0;
	}
	dash = len > 1 ? memchr(t + 1, '-', len - 1) : NULL;
	if (dash) {
		if (bs_parse_i64(t, (size_t)(dash - t), &a) < 0 ||
		    bs_parse_i64(dash + 1, len - (size_t)(dash - t) - 1, &z) <
		        0 ||
		    a < 1 || z < a)
			goto bad;
		bs_buf_adds(sql, "r.id BETWEEN ? AND ?");
		if (add_bind_num(b, a) < 0 || add_bind_num(b, z) < 0)
			goto too_many;
		return 0;
	}
	if (bs_parse_i64(t, len, &a) == 0 && a >= 1) {
		bs_buf_adds(sql, "r.id = ?");
		if (add_bind_num(b, a) < 0)
			goto too_many;
		return 0;
	}
bad:
	return bs_error(err, BS_EINVAL,
	                "'%s' is not a selector (expected an id, a range "
	                "like 12-15, 'last', 'all' or key=value)",
	                bs_err_quote(q, sizeof(q), t, len, 40));
too_many:
	return bs_error(err, BS_EINVAL, "selector has too many terms");
}

/*
 * Copies a selector with its escapes undone ('\,' is a comma inside a
 * value, '\\' a backslash) and each separating ',' replaced by a NUL,
 * so that terms can be read one after the other. Returns the copy's
 * length.
 */
static size_t unescape_selector(const char *sel, char *out)
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

int bs_store_select(struct bs_store *st, const char *selector,
                    struct bs_ids *out, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	struct term_binds b;
	/* The copy outlives the statement: values are bound from it. */
	char *terms = xmalloc(strlen(selector) + 1);
	const char *p = terms, *end;
	size_t total = unescape_selector(selector, terms);
	int64_t limit = 0, *found = NULL;
	size_t nfound = 0, capfound = 0;
	sqlite3_stmt *s = NULL;
	int i, rc = 0, step;

	memset(&b, 0, sizeof(b));
	bs_buf_adds(&sql, "SELECT r.id FROM runs AS r WHERE ");
	for (;;) {
		end = p + strlen(p);
		if (p != terms)
			bs_buf_adds(&sql, " AND ");
		rc = term_sql(p, (size_t)(end - p), &sql, &b, &limit, err);
		if (rc < 0)
			goto out;
		if (end == terms + total)
			break;
		p = end + 1;
	}
	/* 'last' picks the newest runs among those the other terms match.
	 * Like every value from the user, N is a bound parameter. */
	if (limit > 0) {
		bs_buf_adds(&sql, " ORDER BY r.id DESC LIMIT ?");
		if (add_bind_num(&b, limit) < 0) {
			rc = bs_error(err, BS_EINVAL,
			              "selector has too many terms");
			goto out;
		}
	} else {
		bs_buf_adds(&sql, " ORDER BY r.id");
	}
	if (sqlite3_prepare_v2(st->db, bs_buf_str(&sql), -1, &s, NULL) !=
	    SQLITE_OK) {
		rc = bs_store_db_error(st, err, "cannot select runs");
		goto out;
	}
	for (i = 0; i < b.n; i++) {
		if (b.is_num[i])
			sqlite3_bind_int64(s, i + 1, b.num[i]);
		else
			sqlite3_bind_text(s, i + 1, b.text[i], (int)b.len[i],
			                  SQLITE_STATIC);
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		xgrow((void **)&found, &capfound, nfound + 1, sizeof(*found));
		found[nfound++] = sqlite3_column_int64(s, 0);
	}
	if (step != SQLITE_DONE) {
		rc = bs_store_db_error(st, err, "cannot select runs");
		goto out;
	}
	if (nfound)
		ids_merge(out, found, nfound);
	rc = 0;
out:
	sqlite3_finalize(s);
	free(found);
	free(terms);
	bs_buf_release(&sql);
	return rc;
}
