/*
 * store/select.c - runs a selector (store/store.h): the terms that
 * store/selector.c parses become one SELECT over runs and tags.
 */
#include "store/internal.h"
#include "store/selector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
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

void bs_ids_merge(struct bs_ids *out, const int64_t *add, size_t n)
{
	size_t i, j = 0;

	if (n == 0)
		return; /* add may be NULL */
	xgrow((void **)&out->id, &out->cap, out->n + n, sizeof(*out->id));
	memcpy(out->id + out->n, add, n * sizeof(*add));
	out->n += n;
	qsort(out->id, out->n, sizeof(*out->id), cmp_id);
	for (i = 0; i < out->n; i++)
		if (j == 0 || out->id[j - 1] != out->id[i])
			out->id[j++] = out->id[i];
	out->n = j;
}

/* A value bound to the next '?' of the query. */
struct bind {
	char *text; /* NULL: num */
	int64_t num;
};

struct binds {
	const struct bs_db_ops *ops; /* the engine's glob */
	struct bind *v;
	size_t n, cap;
};

/* Takes ownership of s. */
static void bind_text(struct binds *b, char *s)
{
	xgrow((void **)&b->v, &b->cap, b->n + 1, sizeof(*b->v));
	b->v[b->n].text = s;
	b->v[b->n].num = 0;
	b->n++;
}

static void bind_num(struct binds *b, int64_t v)
{
	xgrow((void **)&b->v, &b->cap, b->n + 1, sizeof(*b->v));
	b->v[b->n].text = NULL;
	b->v[b->n].num = v;
	b->n++;
}

/* col matches the glob pattern, as the engine writes it; icase: ASCII
 * case ignored, as SQLite's lower() ignores it, on every engine (col is
 * lowered in SQL, lower_ascii, the pattern here). */
static void glob_sql(struct binds *b, const char *col, const char *pattern,
		     int icase, struct bs_buf *sql)
{
	struct bs_buf c = BS_BUF_INIT, v = BS_BUF_INIT;
	char *p;

	if (icase)
		bs_buf_addf(&c, "lower(%s%s)", col, b->ops->lower_ascii);
	else
		bs_buf_adds(&c, col);
	b->ops->glob(sql, bs_buf_str(&c), pattern, &v);
	p = bs_buf_detach(&v, NULL);
	if (icase) {
		char *q;
		for (q = p; *q; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q = (char)(*q - 'A' + 'a');
	}
	bind_text(b, p);
	bs_buf_release(&c);
}

/* The query's placeholders stay within SQLite's smallest limit. */
_Static_assert(2 * BS_SEL_MAX_TERMS + 1 <= 999,
               "a selector's bound values must fit in 999 parameters");

/*
 * How each operator compares (store/selector.h): a column against an
 * interval [lo, hi] (ids, dates), or text against a glob pattern (the
 * engine's bs_db_ops.glob: SQLite's GLOB, a regular expression...). A
 * negated row is the complement of its positive one, so that NULL
 * columns and runs without the tag are among what it selects.
 */
enum { LO = 1, HI = 2 };
static const struct {
	enum bs_sel_op op;
	const char *interval; /* after the column; binds lo, hi as flagged */
	unsigned binds;
	int icase;  /* text: lower(column) matches lower(pattern) */
	int negate; /* NOT of the comparison, which NULL makes true */
} op_sql[] = {
    {BS_OP_EQ, " BETWEEN ? AND ?", LO | HI, 0, 0},
    {BS_OP_NE, " BETWEEN ? AND ?", LO | HI, 0, 1},
    {BS_OP_IEQ, NULL, 0, 1, 0},
    {BS_OP_INE, NULL, 0, 1, 1},
    {BS_OP_LT, " < ?", LO, 0, 0},
    {BS_OP_LE, " <= ?", HI, 0, 0},
    {BS_OP_GT, " > ?", HI, 0, 0},
    {BS_OP_GE, " >= ?", LO, 0, 0},
};

/* Appends the comparison of col by t's operator, and its values to b. */
static void compare_sql(const struct bs_sel_term *t, const char *col,
                        int interval, struct bs_buf *sql, struct binds *b)
{
	size_t i;

	for (i = 0; i < sizeof(op_sql) / sizeof(op_sql[0]); i++) {
		if (op_sql[i].op != t->op)
			continue;
		if (op_sql[i].negate)
			bs_buf_adds(sql, "NOT COALESCE(");
		if (interval) {
			bs_buf_addf(sql, "%s%s", col, op_sql[i].interval);
			if (op_sql[i].binds & LO)
				bind_num(b, t->lo);
			if (op_sql[i].binds & HI)
				bind_num(b, t->hi);
		} else {
			glob_sql(b, col, t->value, op_sql[i].icase, sql);
		}
		if (op_sql[i].negate)
			bs_buf_adds(sql, ", FALSE)");
		return;
	}
	BS_BUG("an operator without SQL");
}

/* Appends the SQL condition for one term, and its values to b. */
static void term_sql(const struct bs_sel_term *t, struct bs_buf *sql,
                     struct binds *b, int64_t *limit)
{
	char col[64];

	switch (t->kind) {
	case BS_SEL_ID:
	case BS_SEL_RANGE:
		compare_sql(t, "r.id", 1, sql, b);
		break;
	case BS_SEL_LAST:
		/* The last one written wins: last:5,last:2 is last:2. */
		*limit = t->n;
		bs_buf_adds(sql, "TRUE");
		break;
	case BS_SEL_ALL:
		bs_buf_adds(sql, "TRUE");
		break;
	case BS_SEL_FIELD:
		snprintf(col, sizeof(col), "r.%s", t->field->column);
		compare_sql(t, col, t->field->type != BS_SEL_TEXT, sql, b);
		break;
	case BS_SEL_TAG:
		/* raid!=10: no raid tag of 10, not a raid tag of another
		 * value: the complement of raid=10. */
		if (t->op == BS_OP_NE || t->op == BS_OP_INE)
			bs_buf_adds(sql, "NOT ");
		bs_buf_adds(sql, "EXISTS (SELECT 1 FROM tags AS t "
		                 "WHERE t.run_id = r.id AND t.key = ? AND ");
		bind_text(b, xstrdup(t->key));
		if (t->op == BS_OP_NE || t->op == BS_OP_INE) {
			struct bs_sel_term pos = *t;

			pos.op = t->op == BS_OP_NE ? BS_OP_EQ : BS_OP_IEQ;
			compare_sql(&pos, "t.value", 0, sql, b);
		} else {
			compare_sql(t, "t.value", 0, sql, b);
		}
		bs_buf_adds(sql, ")");
		break;
	}
}

int bs_store_select(struct bs_store *st, const char *selector,
                    struct bs_ids *out, struct bs_err *err)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf sql = BS_BUF_INIT;
	struct binds b = {st->db->ops, NULL, 0, 0};
	int64_t limit = 0, *found = NULL;
	size_t i, nfound = 0, capfound = 0;
	struct bs_db_stmt *s = NULL;
	int rc, step;

	rc = bs_sel_parse(&sel, selector, err);
	if (rc < 0)
		goto out;
	bs_buf_adds(&sql, "SELECT r.id FROM runs AS r WHERE ");
	for (i = 0; i < sel.n; i++) {
		if (i > 0)
			bs_buf_adds(&sql, " AND ");
		term_sql(&sel.term[i], &sql, &b, &limit);
	}
	/* 'last' picks the newest runs among those the other terms match.
	 * Like every value from the user, N is a bound parameter. */
	if (limit > 0) {
		bs_buf_adds(&sql, " ORDER BY r.id DESC LIMIT ?");
		bind_num(&b, limit);
	} else {
		bs_buf_adds(&sql, " ORDER BY r.id");
	}
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s) < 0) {
		rc = bs_store_db_error(st, err, "cannot select runs");
		goto out;
	}
	for (i = 0; i < b.n; i++) {
		if (b.v[i].text)
			bs_db_bind_text(s, (int)i + 1, b.v[i].text, -1);
		else
			bs_db_bind_int64(s, (int)i + 1, b.v[i].num);
	}
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		xgrow((void **)&found, &capfound, nfound + 1, sizeof(*found));
		found[nfound++] = bs_db_column_int64(s, 0);
	}
	if (step != BS_DB_DONE) {
		rc = bs_store_db_error(st, err, "cannot select runs");
		goto out;
	}
	if (nfound)
		bs_ids_merge(out, found, nfound);
	rc = 0;
out:
	bs_db_finalize(s);
	free(found);
	for (i = 0; i < b.n; i++)
		free(b.v[i].text);
	free(b.v);
	bs_sel_release(&sel);
	bs_buf_release(&sql);
	return rc;
}
