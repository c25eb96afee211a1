/*
 * store/merge.c - copies the runs of another archive into this one (bstore
 * merge). Rows are copied column by column as SQLite holds them, with the
 * column lists read from the schema itself (PRAGMA table_info), and the
 * tables that hang off a run found from their foreign keys: nothing here
 * names a parameter, a metric or a child table, so a column or table added
 * to schema.sql is merged with no change here.
 *
 * The same run: a run ingested is stored once per SHA-256 of its line
 * (store/write.c), so a run of the other archive whose digest is here
 * already is here. A run measured by `bstore run` is stored even when its
 * line repeats (bs_store_put_new), so it is the same run only with the
 * same digest and measured_at, and the k-th such run of the other archive
 * pairs with the k-th here: merging keeps as many as the archive with more
 * of them has, and merging again adds none.
 *
 * The other archive is untrusted (docs/schema.md, "Merging archives"):
 * the tables read from it must be plain tables (not views, virtual
 * tables or tables with generated columns) and it may have no trigger,
 * so that reading it runs nothing but the reads; each of its runs is read
 * back whole and checked by the rule ingest's runs pass (core/validate.h)
 * and the store's rule for tags; and a run this archive's constraints
 * refuse is rolled back alone. A run that fails is skipped and named.
 */
#include "store/internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Copies rows of one table from one connection to another. */
struct copier {
	sqlite3_stmt *sel; /* on the source: the columns, WHERE key = ?1 */
	sqlite3_stmt *ins; /* here: INSERT of the same columns */
	int ncol;
	int key; /* the column given the new run's id, or -1 */
};

static void copier_release(struct copier *c)
{
	sqlite3_finalize(c->sel);
	sqlite3_finalize(c->ins);
	c->sel = c->ins = NULL;
}

/*
 * Prepares a copier of table: every column of this archive's table but
 * skip (its own rowid, or NULL), selected from the source WHERE where =
 * ?1 (or every row when where is NULL); the column key_col (or NULL) is
 * then given the new run's id. conflict is added to the INSERT.
 */
static int copier_init(struct bs_store *st, struct bs_store *from,
		       struct copier *c, const char *table, const char *skip,
		       const char *where, const char *key_col,
		       const char *conflict, struct bs_err *err)
{
	struct bs_buf cols = BS_BUF_INIT, sql = BS_BUF_INIT;
	sqlite3_stmt *info = NULL;
	int rc = 0, i;

	memset(c, 0, sizeof(*c));
	c->key = -1;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT name FROM pragma_table_info(?1) "
			       "ORDER BY cid",
			       -1, &info, NULL) != SQLITE_OK) {
		rc = bs_store_db_error(st, err, "cannot read the schema");
		goto out;
	}
	sqlite3_bind_text(info, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(info)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(info, 0);
		if (skip && strcmp(name, skip) == 0)
			continue;
		if (key_col && strcmp(name, key_col) == 0)
			c->key = c->ncol;
		bs_buf_addf(&cols, "%s\"%s\"", c->ncol ? ", " : "", name);
		c->ncol++;
	}
	if (rc != SQLITE_DONE || c->ncol == 0) {
		rc = bs_store_db_error(st, err, "cannot read the schema");
		goto out;
	}
	bs_buf_addf(&sql, "SELECT %s FROM main.\"%s\"", bs_buf_str(&cols),
		    table);
	if (where)
		bs_buf_addf(&sql, " WHERE \"%s\" = ?1", where);
	if (sqlite3_prepare_v2(from->db, bs_buf_str(&sql), -1, &c->sel,
			       NULL) != SQLITE_OK) {
		rc = bs_error(err, BS_EDB,
			      "%s: its table '%s' is not as this bstore "
			      "makes it: %s",
			      from->path, table, sqlite3_errmsg(from->db));
		goto out;
	}
	bs_buf_reset(&sql);
	bs_buf_addf(&sql, "INSERT INTO main.\"%s\" (%s) VALUES (?", table,
		    bs_buf_str(&cols));
	for (i = 1; i < c->ncol; i++)
		bs_buf_adds(&sql, ", ?");
	bs_buf_addf(&sql, ")%s", conflict ? conflict : "");
	if (sqlite3_prepare_v2(st->db, bs_buf_str(&sql), -1, &c->ins, NULL) !=
	    SQLITE_OK) {
		rc = bs_store_db_error(st, err, "cannot prepare the merge");
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(info);
	bs_buf_release(&cols);
	bs_buf_release(&sql);
	if (rc < 0)
		copier_release(c);
	return rc;
}

/*
 * Copies the rows the copier selects with key (when it has a WHERE) into
 * this archive, its key column set to new_id. Returns the rows inserted.
 */
static int copier_run(struct bs_store *st, struct bs_store *from,
		      struct copier *c, int64_t key, int64_t new_id,
		      int64_t *inserted, struct bs_err *err)
{
	int rc, i;

	if (sqlite3_bind_parameter_count(c->sel) > 0)
		sqlite3_bind_int64(c->sel, 1, key);
	while ((rc = sqlite3_step(c->sel)) == SQLITE_ROW) {
		for (i = 0; i < c->ncol; i++) {
			if (i == c->key)
				sqlite3_bind_int64(c->ins, i + 1, new_id);
			else
				sqlite3_bind_value(c->ins, i + 1,
						   sqlite3_column_value(c->sel,
									i));
		}
		rc = sqlite3_step(c->ins);
		sqlite3_reset(c->ins);
		if (rc != SQLITE_DONE) {
			rc = bs_store_db_error(st, err, "cannot merge a row");
			goto out;
		}
		if (inserted)
			*inserted += sqlite3_changes(st->db);
	}
	if (rc != SQLITE_DONE) {
		rc = bs_error(err, BS_EDB, "%s: cannot read: %s", from->path,
			      sqlite3_errmsg(from->db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_reset(c->sel);
	return rc;
}

/* Everything bs_store_merge prepares, released together. */
struct merge {
	struct bs_store *st, *from;
	struct copier run;
	struct {
		char *table, *col; /* the table, its column of the run id */
		struct copier copy;
	} child[16];
	int nchild;
	sqlite3_stmt *their_runs; /* id, sha256, measured_at, format */
	sqlite3_stmt *nth_there;  /* earlier runs like it in the source */
	sqlite3_stmt *same_here;  /* the run here paired with it */
	sqlite3_stmt *their_tags;
	sqlite3_stmt *our_tag;
	sqlite3_stmt *add_tag;
};

/* The statements of struct merge: where each lives, on which archive
 * (here, or the source there) and its SQL. */
static const struct query {
	size_t slot; /* offsetof(struct merge, ...) */
	int there;
	const char *sql;
} queries[] = {
	{offsetof(struct merge, their_runs), 1,
	 "SELECT id, sha256, measured_at, format = ?1 FROM runs ORDER BY id"},
	/* The expressions match the index runs_sha256_prefix. */
	{offsetof(struct merge, nth_there), 1,
	 "SELECT count(*) FROM runs WHERE substr(sha256, 1, 8) = "
	 "substr(?1, 1, 8) AND sha256 = ?1 AND measured_at IS ?2 AND "
	 "format = ?3 AND id < ?4"},
	{offsetof(struct merge, same_here), 0,
	 "SELECT id FROM runs WHERE substr(sha256, 1, 8) = substr(?1, 1, 8) "
	 "AND sha256 = ?1 AND (?2 = 0 OR measured_at IS ?3) ORDER BY id "
	 "LIMIT 1 OFFSET ?4"},
	{offsetof(struct merge, their_tags), 1,
	 "SELECT key, value FROM tags WHERE run_id = ?1 ORDER BY key"},
	{offsetof(struct merge, our_tag), 0,
	 "SELECT value FROM tags WHERE run_id = ?1 AND key = ?2"},
	{offsetof(struct merge, add_tag), 0,
	 "INSERT INTO tags (run_id, key, value) VALUES (?1, ?2, ?3)"},
};

#define NQUERIES (sizeof(queries) / sizeof(queries[0]))

static sqlite3_stmt **query_slot(struct merge *m, const struct query *q)
{
	return (sqlite3_stmt **)(void *)((char *)m + q->slot);
}

static void merge_release(struct merge *m)
{
	int i;

	copier_release(&m->run);
	for (i = 0; i < m->nchild; i++) {
		copier_release(&m->child[i].copy);
		free(m->child[i].table);
		free(m->child[i].col);
	}
	for (i = 0; i < (int)NQUERIES; i++)
		sqlite3_finalize(*query_slot(m, &queries[i]));
}

static int prep(struct bs_store *db, const char *sql, sqlite3_stmt **out,
		struct bs_err *err)
{
	if (sqlite3_prepare_v2(db->db, sql, -1, out, NULL) != SQLITE_OK)
		return bs_error(err, BS_EDB, "%s: cannot prepare the merge: %s",
				db->path, sqlite3_errmsg(db->db));
	return 0;
}

/* The tables whose rows belong to a run (a foreign key to runs), with the
 * column that holds the run's id. */
static int find_children(struct merge *m, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	rc = prep(m->st,
		  "SELECT t.name, f.\"from\" FROM sqlite_schema AS t, "
		  "pragma_foreign_key_list(t.name) AS f WHERE t.type = 'table' "
		  "AND f.\"table\" = 'runs' ORDER BY t.name",
		  &s, err);
	while (rc == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		const char *col = (const char *)sqlite3_column_text(s, 1);
		if (m->nchild == (int)(sizeof(m->child) / sizeof(m->child[0])))
			BS_BUG("more tables refer to runs than merge handles");
		m->child[m->nchild].table = xstrdup(t);
		m->child[m->nchild].col = xstrdup(col);
		m->nchild++;
		rc = 0;
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = bs_store_db_error(m->st, err, "cannot read the schema");
	sqlite3_finalize(s);
	return rc;
}

/* The children's copiers, once the source was checked. */
static int prepare_children(struct merge *m, struct bs_err *err)
{
	int k, rc = 0;

	for (k = 0; rc == 0 && k < m->nchild; k++)
		rc = copier_init(m->st, m->from, &m->child[k].copy,
				 m->child[k].table, NULL, m->child[k].col,
				 m->child[k].col, NULL, err);
	return rc;
}

static int step_one(struct bs_store *db, sqlite3_stmt *s, struct bs_err *err);

/* The tables read from the source besides runs and its children. */
static const char *const other_tables[] = {"metrics", "params", "rejects"};

/*
 * Whether the source's table is what a bstore archive has there: a plain
 * table (a view could run any query, a recursive one forever), with no
 * generated column (computed when read). runs' id must be its rowid.
 */
static int check_table(struct bs_store *from, const char *table,
		       struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	const char *type, *sql;
	int rc;

	rc = prep(from,
		  "SELECT type, sql, (SELECT count(*) FROM "
		  "pragma_table_xinfo(?1) WHERE hidden <> 0), (SELECT count(*) "
		  "FROM pragma_table_info(?1) WHERE name = 'id' AND pk = 1 AND "
		  "upper(type) = 'INTEGER') FROM main.sqlite_schema WHERE name "
		  "= ?1 COLLATE NOCASE AND type IN ('table', 'view')",
		  &s, err);
	if (rc < 0)
		return rc;
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	rc = step_one(from, s, err);
	if (rc == 0)
		rc = bs_error(err, BS_EDB, "%s: it has no table '%s'",
			      from->path, table);
	if (rc < 0)
		goto out;
	type = (const char *)sqlite3_column_text(s, 0);
	sql = (const char *)sqlite3_column_text(s, 1);
	if (type == NULL || strcmp(type, "table") != 0)
		rc = bs_error(err, BS_EDB,
			      "%s: its '%s' is a view, not the table a bstore "
			      "archive has",
			      from->path, table);
	else if (sql == NULL || sqlite3_strnicmp(sql, "CREATE TABLE", 12) != 0)
		rc = bs_error(err, BS_EDB,
			      "%s: its '%s' is a virtual table, not the table "
			      "a bstore archive has",
			      from->path, table);
	else if (sqlite3_column_int(s, 2) != 0)
		rc = bs_error(err, BS_EDB,
			      "%s: its table '%s' has generated columns, which "
			      "a bstore archive has not",
			      from->path, table);
	else if (strcmp(table, "runs") == 0 && sqlite3_column_int(s, 3) != 1)
		rc = bs_error(err, BS_EDB,
			      "%s: its table 'runs' has no INTEGER PRIMARY KEY "
			      "'id'",
			      from->path);
	else
		rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

/* The source's schema objects that merge reads are what they should be,
 * and it has no trigger. */
static int check_source(struct merge *m, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, k;

	rc = check_table(m->from, "runs", err);
	for (k = 0; rc == 0 && k < m->nchild; k++)
		rc = check_table(m->from, m->child[k].table, err);
	for (i = 0; rc == 0 && i < sizeof(other_tables) / sizeof(*other_tables);
	     i++)
		rc = check_table(m->from, other_tables[i], err);
	if (rc == 0)
		rc = prep(m->from,
			  "SELECT name FROM main.sqlite_schema WHERE type = "
			  "'trigger' ORDER BY name LIMIT 1",
			  &s, err);
	if (rc == 0 && (rc = step_one(m->from, s, err)) > 0) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		char q[48];

		rc = bs_error(err, BS_EDB,
			      "%s: it has a trigger '%s', which a bstore "
			      "archive has not",
			      m->from->path,
			      bs_err_quote(q, sizeof(q), name ? name : "",
					   name ? strlen(name) : 0, 32));
	}
	sqlite3_finalize(s);
	return rc;
}

static int merge_prepare(struct merge *m, struct bs_err *err)
{
	size_t i;
	int rc;

	rc = find_children(m, err);
	if (rc == 0)
		rc = check_source(m, err);
	if (rc == 0)
		rc = copier_init(m->st, m->from, &m->run, "runs", "id", "id",
				 NULL, NULL, err);
	if (rc == 0)
		rc = prepare_children(m, err);
	for (i = 0; rc == 0 && i < NQUERIES; i++)
		rc = prep(queries[i].there ? m->from : m->st, queries[i].sql,
			  query_slot(m, &queries[i]), err);
	return rc;
}

/* One step of a query that returns at most one row: 1 row, 0 none. */
static int step_one(struct bs_store *db, sqlite3_stmt *s, struct bs_err *err)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return bs_error(err, BS_EDB, "%s: %s", db->path,
			sqlite3_errmsg(db->db));
}

/*
 * The run here that is the source's run (the current row of their_runs),
 * in *ours, or 0 when there is none.
 */
static int pair(struct merge *m, int64_t *ours, struct bs_err *err)
{
	sqlite3_stmt *r = m->their_runs;
	int made = sqlite3_column_int(r, 3), rc;
	int64_t nth = 0;

	*ours = 0;
	if (made) {
		sqlite3_bind_value(m->nth_there, 1, sqlite3_column_value(r, 1));
		sqlite3_bind_value(m->nth_there, 2, sqlite3_column_value(r, 2));
		sqlite3_bind_text(m->nth_there, 3, BS_FMT_BSTORE_RUN, -1,
				  SQLITE_STATIC);
		sqlite3_bind_int64(m->nth_there, 4, sqlite3_column_int64(r, 0));
		rc = step_one(m->from, m->nth_there, err);
		if (rc > 0)
			nth = sqlite3_column_int64(m->nth_there, 0);
		sqlite3_reset(m->nth_there);
		if (rc < 0)
			return rc;
	}
	sqlite3_bind_value(m->same_here, 1, sqlite3_column_value(r, 1));
	sqlite3_bind_int(m->same_here, 2, made);
	sqlite3_bind_value(m->same_here, 3, sqlite3_column_value(r, 2));
	sqlite3_bind_int64(m->same_here, 4, nth);
	rc = step_one(m->st, m->same_here, err);
	if (rc > 0)
		*ours = sqlite3_column_int64(m->same_here, 0);
	sqlite3_reset(m->same_here);
	return rc < 0 ? rc : 0;
}

/* Copies a run that is not here with every row that belongs to it. */
static int copy_run(struct merge *m, int64_t theirs, struct bs_err *err)
{
	int64_t id;
	int rc, i;

	rc = copier_run(m->st, m->from, &m->run, theirs, 0, NULL, err);
	if (rc < 0)
		return rc;
	id = sqlite3_last_insert_rowid(m->st->db);
	for (i = 0; i < m->nchild && rc == 0; i++)
		rc = copier_run(m->st, m->from, &m->child[i].copy, theirs, id,
				NULL, err);
	return rc;
}

/* When run id was measured, as UTC text, in *out (NULL if unknown). */
static int measured(struct bs_store *db, int64_t id, char **out,
		    struct bs_err *err)
{
	sqlite3_stmt *q = NULL;
	const char *t;
	int rc;

	*out = NULL;
	rc = prep(db,
		  "SELECT datetime(measured_at, 'unixepoch') FROM runs "
		  "WHERE id = ?1",
		  &q, err);
	if (rc == 0) {
		sqlite3_bind_int64(q, 1, id);
		rc = step_one(db, q, err);
		if (rc > 0 && (t = (const char *)sqlite3_column_text(q, 0)))
			*out = xstrdup(t);
	}
	sqlite3_finalize(q);
	return rc < 0 ? rc : 0;
}

/*
 * A run both archives hold: tags only the source has are added, a tag
 * whose value differs keeps ours, and so does measured_at; each
 * difference goes to fn. Returns 1 if there was one, 0 if not.
 */
static int reconcile(struct merge *m, int64_t theirs, int64_t ours,
		     bs_merge_conflict_fn fn, void *ctx,
		     struct bs_merge_stats *stats, struct bs_err *err)
{
	struct bs_merge_conflict c;
	char *ta = NULL, *tb = NULL;
	int rc, found = 0;

	memset(&c, 0, sizeof(c));
	c.ours = ours;
	c.theirs = theirs;
	rc = measured(m->st, ours, &ta, err);
	if (rc == 0)
		rc = measured(m->from, theirs, &tb, err);
	if (rc == 0 && !((ta == NULL && tb == NULL) ||
			 (ta && tb && strcmp(ta, tb) == 0))) {
		c.field = "measured_at";
		c.our_value = ta;
		c.their_value = tb;
		fn(&c, ctx);
		found = 1;
	}
	free(ta);
	free(tb);
	if (rc < 0)
		return rc;
	c.field = "tag";
	sqlite3_bind_int64(m->their_tags, 1, theirs);
	while ((rc = sqlite3_step(m->their_tags)) == SQLITE_ROW) {
		sqlite3_value *key = sqlite3_column_value(m->their_tags, 0);
		sqlite3_value *val = sqlite3_column_value(m->their_tags, 1);
		sqlite3_bind_int64(m->our_tag, 1, ours);
		sqlite3_bind_value(m->our_tag, 2, key);
		rc = step_one(m->st, m->our_tag, err);
		if (rc == 0) {
			sqlite3_reset(m->our_tag);
			sqlite3_bind_int64(m->add_tag, 1, ours);
			sqlite3_bind_value(m->add_tag, 2, key);
			sqlite3_bind_value(m->add_tag, 3, val);
			rc = sqlite3_step(m->add_tag);
			sqlite3_reset(m->add_tag);
			if (rc != SQLITE_DONE) {
				rc = bs_store_db_error(m->st, err,
						       "cannot merge a tag");
				break;
			}
			stats->tags_added++;
			continue;
		}
		if (rc < 0)
			break;
		c.key = (const char *)sqlite3_column_text(m->their_tags, 0);
		c.their_value =
			(const char *)sqlite3_column_text(m->their_tags, 1);
		c.our_value = (const char *)sqlite3_column_text(m->our_tag, 0);
		if (strcmp(c.our_value, c.their_value) != 0) {
			fn(&c, ctx);
			found = 1;
		}
		sqlite3_reset(m->our_tag);
	}
	sqlite3_reset(m->our_tag);
	sqlite3_reset(m->their_tags);
	if (rc != SQLITE_DONE && rc >= 0)
		rc = bs_error(err, BS_EDB, "%s: cannot read tags: %s",
			      m->from->path, sqlite3_errmsg(m->from->db));
	return rc < 0 ? rc : found;
}

/* Names a run of the source that is not merged, and why. */
static void skip(struct merge *m, int64_t theirs, const char *why,
		 struct bs_merge_stats *stats)
{
	struct bs_buf msg = BS_BUF_INIT;

	stats->skipped++;
	if (m->from->warn == NULL)
		return;
	bs_buf_addf(&msg, "%s: run %lld: %s; not merged", m->from->path,
		    (long long)theirs, why);
	m->from->warn(bs_buf_str(&msg), m->from->warn_ctx);
	bs_buf_release(&msg);
}

/*
 * Whether the source's run is one this archive may hold: read back whole,
 * it passes the rule every run from outside passes (core/validate.h) and
 * the store's rule for tags. 1 yes, 0 no (why says why), <0 an error.
 */
static int check_run(struct merge *m, int64_t theirs, struct bs_err *why,
		     struct bs_err *err)
{
	struct bs_run r;
	size_t i;
	int rc;

	rc = bs_store_read(m->from, theirs, BS_LOAD_ALL, &r, why);
	if (rc == -BS_EPARSE)
		return 0;
	if (rc < 0)
		return bs_error(err, why->code, "%s", why->msg);
	rc = bs_run_check(&r, why) == 0;
	for (i = 0; rc == 1 && i < r.ntags; i++)
		if (bs_store_check_tag(r.tags[i].key, r.tags[i].value, why) <
		    0)
			rc = 0;
	bs_run_release(&r);
	return rc;
}

/* SQLite's codes for a row this archive's schema refuses (a CHECK, a
 * type, a size): the run is skipped, not the merge failed. */
static int refused(int code)
{
	code &= 0xff;
	return code == SQLITE_CONSTRAINT || code == SQLITE_MISMATCH ||
	       code == SQLITE_TOOBIG;
}

/*
 * Merges the source's run theirs (the current row of their_runs): copied
 * when not here, reconciled when it is. In a savepoint of its own, so
 * that a run this archive refuses leaves nothing behind and is skipped.
 */
static int merge_run(struct merge *m, int64_t theirs,
		     bs_merge_conflict_fn fn, void *ctx,
		     struct bs_merge_stats *stats, struct bs_err *err)
{
	struct bs_err why = BS_ERR_INIT;
	int64_t ours;
	int rc;

	rc = check_run(m, theirs, &why, err);
	if (rc <= 0) {
		if (rc == 0)
			skip(m, theirs, why.msg, stats);
		return rc;
	}
	rc = pair(m, &ours, err);
	if (rc < 0)
		return rc;
	rc = bs_store_exec(m->st, "SAVEPOINT merge_run", err);
	if (rc < 0)
		return rc;
	m->st->code = 0;
	if (ours == 0)
		rc = copy_run(m, theirs, &why);
	else
		rc = reconcile(m, theirs, ours, fn, ctx, stats, &why);
	if (rc < 0 && refused(m->st->code)) {
		struct bs_buf msg = BS_BUF_INIT;

		bs_buf_addf(&msg, "this archive refuses it: %s",
			    sqlite3_errmsg(m->st->db));
		sqlite3_exec(m->st->db, "ROLLBACK TO merge_run", NULL, NULL,
			     NULL);
		skip(m, theirs, bs_buf_str(&msg), stats);
		bs_buf_release(&msg);
		rc = 0;
	} else if (rc < 0) {
		return bs_error(err, why.code, "%s", why.msg);
	} else if (ours == 0) {
		stats->merged++;
	} else {
		stats->present++;
		if (rc > 0)
			stats->conflicts++;
	}
	return bs_store_exec(m->st, "RELEASE merge_run", err);
}

/* Rows of a table that are not per run: rows already here stay. */
static int copy_table(struct merge *m, const char *table, const char *skip,
		      int64_t *inserted, struct bs_err *err)
{
	struct copier c;
	int rc;

	rc = copier_init(m->st, m->from, &c, table, skip, NULL, NULL,
			 " ON CONFLICT DO NOTHING", err);
	if (rc == 0)
		rc = copier_run(m->st, m->from, &c, 0, 0, inserted, err);
	copier_release(&c);
	return rc;
}

int bs_store_merge(struct bs_store *st, struct bs_store *from,
		   const volatile sig_atomic_t *cancel,
		   bs_merge_conflict_fn fn, void *ctx,
		   struct bs_merge_stats *stats, struct bs_err *err)
{
	struct merge m;
	int rc;

	memset(&m, 0, sizeof(m));
	memset(stats, 0, sizeof(*stats));
	m.st = st;
	m.from = from;
	if (st->put == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
				st->path);
	/* Each run is merged in a savepoint, which keeps the pages it
	 * changes in a statement journal: in memory, not a temporary file
	 * written for every run. */
	rc = bs_store_exec(st, "PRAGMA temp_store = MEMORY", err);
	if (rc < 0)
		return rc;
	/* One read transaction: the source as it was at one moment. */
	rc = bs_store_exec(from, "BEGIN", err);
	if (rc < 0)
		return rc;
	rc = merge_prepare(&m, err);
	if (rc == 0)
		sqlite3_bind_text(m.their_runs, 1, BS_FMT_BSTORE_RUN, -1,
				  SQLITE_STATIC);
	while (rc == 0 && (rc = sqlite3_step(m.their_runs)) == SQLITE_ROW) {
		int64_t theirs = sqlite3_column_int64(m.their_runs, 0);

		if (cancel && *cancel) {
			rc = bs_error(err, BS_EINTR, "interrupted");
			break;
		}
		rc = merge_run(&m, theirs, fn, ctx, stats, err);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = bs_error(err, BS_EDB, "%s: cannot read runs: %s",
			      from->path, sqlite3_errmsg(from->db));
	/* The catalogue rows a newer bstore wrote into the source, and the
	 * lines it could not parse (kept once per source, line and digest). */
	if (rc == 0)
		rc = copy_table(&m, "metrics", NULL, NULL, err);
	if (rc == 0)
		rc = copy_table(&m, "params", NULL, NULL, err);
	if (rc == 0)
		rc = copy_table(&m, "rejects", "id", &stats->rejects, err);
	merge_release(&m);
	sqlite3_exec(from->db, "COMMIT", NULL, NULL, NULL);
	sqlite3_exec(st->db, "PRAGMA temp_store = DEFAULT", NULL, NULL, NULL);
	return rc;
}
