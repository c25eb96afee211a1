/*
 * store/select.c - runs a selector (store/store.h): the terms that
 * store/selector.c parses become one SELECT over runs and tags.
 */
#include "store/internal.h"
#include "store/selector.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/family.h"
#include "core/identity.h"
#include "core/param.h"
#include "core/result.h"
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
	struct bs_db *db; /* the engine's glob */
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
		bs_buf_addf(&c, "lower(%s%s)", col, bs_db_lower_ascii(b->db));
	else
		bs_buf_adds(&c, col);
	bs_db_glob(b->db, sql, bs_buf_str(&c), pattern, &v);
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
/* A parameter term binds its key twice, a pattern and each family's name:
 * the most of any term. */
_Static_assert((3 + BS_FAM_MAX) * BS_SEL_MAX_TERMS + 1 <= 999,
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

/* Whether op is != or !~: a clause of it joins its alternatives with
 * AND, and it selects what its positive operator does not. */
static int negated(enum bs_sel_op op)
{
	return op == BS_OP_NE || op == BS_OP_INE;
}

/* Appends "EXISTS (the run has tag t->key[ matching t])". */
static void tag_exists_sql(const struct bs_sel_term *t, int match,
			   struct bs_buf *sql, struct binds *b)
{
	bs_buf_adds(sql, "EXISTS (SELECT 1 FROM tags AS t WHERE t.run_id = "
			 "r.id AND t.key = ?");
	bind_text(b, xstrdup(t->key));
	if (match) {
		struct bs_sel_term pos = *t;

		if (t->op == BS_OP_NE)
			pos.op = BS_OP_EQ;
		else if (t->op == BS_OP_INE)
			pos.op = BS_OP_IEQ;
		bs_buf_adds(sql, " AND ");
		compare_sql(&pos, "t.value", 0, sql, b);
	}
	bs_buf_adds(sql, ")");
}

/*
 * A parameter term (store/selector.h, BS_SEL_PARAM) as far as SQL can
 * tell it: a run with the tag is decided by the tag here (an ordered
 * operator never selects it); one without, of a family with the
 * parameter, is a candidate that param_filter() decides.
 */
static void param_sql(const struct bs_sel_term *t, struct bs_buf *sql,
		      struct binds *b)
{
	const struct bs_sel_op_info *o = bs_sel_op(t->op);
	int f, n = 0;

	if (negated(t->op)) {
		bs_buf_adds(sql, "NOT ");
		tag_exists_sql(t, 1, sql, b);
		return;
	}
	bs_buf_adds(sql, "(");
	if (o->types & BS_SEL_TEXT) {
		tag_exists_sql(t, 1, sql, b);
		bs_buf_adds(sql, " OR ");
	}
	bs_buf_adds(sql, "(NOT ");
	tag_exists_sql(t, 0, sql, b);
	bs_buf_adds(sql, " AND r.family IN (");
	for (f = 0; f < BS_FAM_COUNT; f++) {
		if (bs_param_find_in((enum bs_family)f, t->key) < 0)
			continue;
		bs_buf_adds(sql, n++ ? ", ?" : "?");
		bind_text(b, xstrdup(bs_family_name((enum bs_family)f)));
	}
	if (n == 0)
		bs_buf_adds(sql, "NULL");
	bs_buf_adds(sql, ")))");
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
		/* impl: the run's identity, which param_filter() reads. */
		if (t->field->column == NULL) {
			bs_buf_adds(sql, "TRUE");
			break;
		}
		snprintf(col, sizeof(col), "r.%s", t->field->column);
		compare_sql(t, col, t->field->type != BS_SEL_TEXT, sql, b);
		break;
	case BS_SEL_PARAM:
		param_sql(t, sql, b);
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

/* ---- what SQL cannot tell: parameters, implementations ----------- */

/* s matches glob pattern (SQLite's GLOB, whose "[^" is fnmatch's "[!");
 * icase: ASCII case ignored. */
static int glob_match(const char *pattern, const char *s, int icase)
{
	struct bs_buf p = BS_BUF_INIT, v = BS_BUF_INIT;
	const char *c;
	int m;

	for (c = pattern; *c; c++) {
		char ch = *c;

		if (icase && ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch == '^' && c > pattern && c[-1] == '[')
			ch = '!';
		/* fnmatch's '\' escapes; GLOB's is a character. */
		if (ch == '\\')
			bs_buf_adds(&p, "[\\]");
		else
			bs_buf_addc(&p, ch);
	}
	for (c = s; *c; c++)
		bs_buf_addc(&v, icase && *c >= 'A' && *c <= 'Z'
					? (char)(*c - 'A' + 'a')
					: *c);
	m = fnmatch(bs_buf_str(&p), bs_buf_str(&v), 0) == 0;
	bs_buf_release(&p);
	bs_buf_release(&v);
	return m;
}

/* Whether run r's value of parameter t->key compares with t's value as
 * t's positive operator says (store/selector.h, BS_SEL_PARAM). */
static int param_match(const struct bs_run *r, const struct bs_sel_term *t)
{
	struct bs_ident_val have, want;
	struct bs_buf w = BS_BUF_INIT;
	int k = bs_param_find_in(r->family, t->key), c, m = 0;
	int icase = t->op == BS_OP_IEQ || t->op == BS_OP_INE;

	if (k < 0 || !bs_ident_value(r, k, &have))
		return 0;
	if (!(bs_sel_op(t->op)->types & BS_SEL_TEXT) ||
	    strpbrk(t->value, "*?[") == NULL) {
		if (bs_ident_norm_text(k, t->value, &want) < 0)
			return 0;
		if (icase)
			return have.num == want.num &&
			       strcasecmp(have.text, want.text) == 0;
		c = bs_ident_val_cmp(&have, &want);
		switch (t->op) {
		case BS_OP_LT:
			return c == -1;
		case BS_OP_LE:
			return c == -1 || c == 0;
		case BS_OP_GT:
			return c == 1;
		case BS_OP_GE:
			return c == 1 || c == 0;
		default:
			return c == 0;
		}
	}
	bs_ident_val_word(&have, &w);
	m = glob_match(t->value, bs_buf_str(&w), icase);
	bs_buf_release(&w);
	return m;
}

/* Whether term t (one alternative) selects r, as far as SQL could not
 * tell; negated operators as their positive ones. */
static int term_match(const struct bs_run *r, const struct bs_sel_term *t)
{
	struct bs_ident id;

	if (t->kind == BS_SEL_PARAM)
		return param_match(r, t);
	bs_ident_of(r, &id);
	return id.impl != NULL &&
	       glob_match(t->value, id.impl->name,
			  t->op == BS_OP_IEQ || t->op == BS_OP_INE);
}

struct pfilter {
	const struct bs_sel *sel;
	int64_t *keep; /* the runs that pass, in order, over the candidates */
	size_t n;
};

/*
 * Keeps r when every parameter and impl clause selects it. SQL has
 * decided a parameter clause for a run with the tag of its key.
 */
static int param_filter(const struct bs_run *r, void *vctx)
{
	struct pfilter *pf = vctx;
	const struct bs_sel *sel = pf->sel;
	size_t i, j, nc;

	for (i = 0; i < sel->n; i += nc) {
		const struct bs_sel_term *t = &sel->term[i];
		int neg = negated(t->op), any = 0;

		nc = bs_sel_clause(sel, i);
		if (!(t->kind == BS_SEL_PARAM ||
		      (t->kind == BS_SEL_FIELD && t->field->column == NULL)))
			continue;
		if (t->kind == BS_SEL_PARAM && bs_run_tag_get(r, t->key))
			continue;
		for (j = i; j < i + nc && !any; j++)
			any = term_match(r, &sel->term[j]);
		if (any == neg)
			return 0;
	}
	pf->keep[pf->n++] = r->id;
	return 0;
}

int bs_store_select(struct bs_store *st, const char *selector,
		    struct bs_ids *out, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf sql = BS_BUF_INIT;
	struct binds b = {st->db, NULL, 0, 0};
	int64_t limit = 0, *found = NULL;
	size_t i, k, nfound = 0, capfound = 0;
	struct bs_db_stmt *s = NULL;
	int rc, step, filter = 0;

	rc = bs_sel_parse(&sel, selector, err);
	if (rc < 0)
		goto out;
	bs_buf_adds(&sql, "SELECT r.id FROM runs AS r WHERE ");
	for (i = 0; i < sel.n; i += k) {
		size_t j, nc = bs_sel_clause(&sel, i);

		k = nc;
		bs_buf_adds(&sql, i > 0 ? " AND (" : "(");
		for (j = i; j < i + nc; j++) {
			if (j > i)
				bs_buf_adds(&sql, negated(sel.term[j].op)
							  ? " AND "
							  : " OR ");
			term_sql(&sel.term[j], &sql, &b, &limit);
			if (sel.term[j].kind == BS_SEL_PARAM ||
			    (sel.term[j].kind == BS_SEL_FIELD &&
			     sel.term[j].field->column == NULL))
				filter = 1;
		}
		bs_buf_adds(&sql, ")");
	}
	/* 'last' picks the newest runs among those the other terms match.
	 * Like every value from the user, N is a bound parameter; after
	 * param_filter() when it has the last word. */
	if (limit > 0 && !filter) {
		bs_buf_adds(&sql, " ORDER BY r.id DESC LIMIT ?");
		bind_num(&b, limit);
	} else {
		bs_buf_adds(&sql, " ORDER BY r.id");
	}
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot select runs", &dbe);
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
	bs_db_finalize(s);
	s = NULL;
	if (filter && nfound) {
		struct bs_ids cand = {found, nfound, capfound};
		struct pfilter pf = {&sel, NULL, 0};

		pf.keep = xmalloc(nfound * sizeof(*pf.keep));
		rc = bs_store_each(st, &cand, BS_LOAD_TAGS, param_filter, &pf,
				   err);
		if (rc < 0) {
			free(pf.keep);
			goto out;
		}
		memcpy(found, pf.keep, pf.n * sizeof(*found));
		free(pf.keep);
		nfound = pf.n;
		if (limit > 0 && nfound > (size_t)limit) {
			memmove(found, found + nfound - (size_t)limit,
				(size_t)limit * sizeof(*found));
			nfound = (size_t)limit;
		}
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
