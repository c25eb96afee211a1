/*
 * store/merge.c - copies the runs of another archive into this one (bstore
 * merge), of the same engine or another (a SQLite file into a PostgreSQL
 * archive, and back): the source is read with its own statements and this
 * archive written with its own, through store/db.h. Rows are copied column
 * by column with their types, with the column lists read from the tables
 * themselves (a statement's column names), and the tables that hang off a
 * run found from their foreign keys (bs_db_ops.referrers): nothing here
 * names a parameter, a metric or a child table, so a column or table added
 * to the schema is merged with no change here.
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
 * its engine checks that the tables read from it are plain tables (for
 * SQLite: not views, virtual tables or tables with generated columns) and
 * that it has no trigger, so that reading it runs nothing but the reads
 * (bs_db_ops.check_untrusted); each of its runs is read
 * back whole and checked by the rule ingest's runs pass (core/validate.h)
 * and the store's rule for tags; and a run this archive's constraints
 * refuse is rolled back alone. A run that fails is skipped and named.
 */
#include "store/internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/validate.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Copies rows of one table from one connection to another. */
struct copier {
	struct bs_db_stmt *sel; /* on the source: the columns, WHERE key = ? */
	struct bs_db_stmt *ins; /* here: INSERT of the same columns */
	int ncol;
	int key;     /* the column given the new run's id, or -1 */
	int where;   /* sel has its one parameter */
	int refused; /* its last failure: this archive refused a row */
};

static void copier_release(struct copier *c)
{
	bs_db_finalize(c->sel);
	bs_db_finalize(c->ins);
	c->sel = c->ins = NULL;
}

/* Whether the failure of a write here is a row this archive's schema
 * refuses (a CHECK, a type, a size): the run is skipped, not the merge
 * failed. */
static int refused(struct bs_store *st)
{
	return bs_db_errkind(st->db) == BS_DB_ECONSTRAINT;
}

/*
 * Prepares a copier of table: every column of this archive's table but
 * skip (its own id, or NULL), selected from the source WHERE where = ?
 * (or every row when where is NULL); the column key_col (or NULL) is then
 * given the new run's id. tail is added to the INSERT (a conflict clause,
 * RETURNING id).
 */
static int copier_init(struct bs_store *st, struct bs_store *from,
		       struct copier *c, const char *table, const char *skip,
		       const char *where, const char *key_col, const char *tail,
		       struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf cols = BS_BUF_INIT, sql = BS_BUF_INIT;
	struct bs_db_stmt *info = NULL;
	int rc = 0, i, n;

	memset(c, 0, sizeof(*c));
	c->key = -1;
	bs_buf_addf(&sql, "SELECT * FROM \"%s\" LIMIT 0", table);
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &info, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot read the schema", &dbe);
		goto out;
	}
	n = bs_db_column_count(info);
	for (i = 0; i < n; i++) {
		const char *name = bs_db_column_name(info, i);
		if (name == NULL || (skip && strcmp(name, skip) == 0))
			continue;
		if (key_col && strcmp(name, key_col) == 0)
			c->key = c->ncol;
		bs_buf_addf(&cols, "%s\"%s\"", c->ncol ? ", " : "", name);
		c->ncol++;
	}
	if (c->ncol == 0) {
		rc = bs_error(err, BS_EDB,
			      "%s: cannot read the schema: '%s' has no columns",
			      st->path, table);
		goto out;
	}
	bs_buf_reset(&sql);
	bs_buf_addf(&sql, "SELECT %s FROM \"%s\"", bs_buf_str(&cols), table);
	if (where)
		bs_buf_addf(&sql, " WHERE \"%s\" = ?", where);
	c->where = where != NULL;
	if (bs_db_prepare(from->db, bs_buf_str(&sql), 0, &c->sel, &dbe) < 0) {
		rc = bs_error(err, dbe.code,
			      "%s: its table '%s' is not as this bstore "
			      "makes it: %s",
			      from->path, table, dbe.msg);
		goto out;
	}
	bs_buf_reset(&sql);
	bs_buf_addf(&sql, "INSERT INTO \"%s\" (%s) VALUES (?", table,
		    bs_buf_str(&cols));
	for (i = 1; i < c->ncol; i++)
		bs_buf_adds(&sql, ", ?");
	bs_buf_addf(&sql, ")%s", tail ? tail : "");
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &c->ins, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot prepare the merge",
				      &dbe);
		goto out;
	}
	rc = 0;
out:
	bs_db_finalize(info);
	bs_buf_release(&cols);
	bs_buf_release(&sql);
	if (rc < 0)
		copier_release(c);
	return rc;
}

/*
 * Copies the rows the copier selects with key (when it has a WHERE) into
 * this archive, its key column set to new_id. Adds the rows inserted to
 * *inserted, and sets *id (when not NULL) to what the INSERT returned.
 */
static int copier_run(struct bs_store *st, struct bs_store *from,
		      struct copier *c, int64_t key, int64_t new_id,
		      int64_t *inserted, int64_t *id, struct bs_err *err)
{
	int rc, i;

	c->refused = 0;
	if (c->where)
		bs_db_bind_int64(c->sel, 1, key);
	while ((rc = bs_db_step(c->sel)) == BS_DB_ROW) {
		for (i = 0; i < c->ncol; i++) {
			if (i == c->key)
				bs_db_bind_int64(c->ins, i + 1, new_id);
			else
				bs_db_bind_column(c->ins, i + 1, c->sel, i);
		}
		rc = bs_db_step(c->ins);
		if (rc == BS_DB_ROW && id)
			*id = bs_db_column_int64(c->ins, 0);
		bs_db_reset(c->ins);
		if (rc < 0) {
			c->refused = refused(st);
			rc = bs_store_db_error(st, err, "cannot merge a row");
			goto out;
		}
		if (inserted)
			*inserted += bs_db_changes(st->db);
	}
	if (rc != BS_DB_DONE) {
		rc = bs_store_db_error(from, err, "cannot read");
		goto out;
	}
	rc = 0;
out:
	bs_db_reset(c->sel);
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
	int refused; /* the run's failure: this archive refused a row */
	struct bs_db_stmt *their_runs; /* id, sha256, measured_at, format */
	struct bs_db_stmt *nth_there;  /* earlier runs like it in the source */
	struct bs_db_stmt *same_here;  /* the run here paired with it */
	struct bs_db_stmt *their_tags;
	struct bs_db_stmt *our_tag;
	struct bs_db_stmt *add_tag;
	struct bs_db_stmt *their_date; /* measured_at of one run */
	struct bs_db_stmt *our_date;
};

/* The statements of struct merge: where each lives, on which archive
 * (here, or the source there) and its SQL. */
static const struct query {
	size_t slot; /* offsetof(struct merge, ...) */
	int there;
	const char *sql;
} queries[] = {
	{offsetof(struct merge, their_runs), 1,
	 "SELECT id, sha256, measured_at, format FROM runs ORDER BY id"},
	/* The expressions match the index runs_sha256_prefix. */
	{offsetof(struct merge, nth_there), 1,
	 "SELECT count(*) FROM runs WHERE substr(sha256, 1, 8) = "
	 "substr(?1, 1, 8) AND sha256 = ?1 AND measured_at IS NOT DISTINCT "
	 "FROM ?2 AND format = ?3 AND id < ?4"},
	{offsetof(struct merge, same_here), 0,
	 "SELECT id FROM runs WHERE substr(sha256, 1, 8) = substr(?1, 1, 8) "
	 "AND sha256 = ?1 AND (?2 = 0 OR measured_at IS NOT DISTINCT FROM "
	 "?3) ORDER BY id LIMIT 1 OFFSET ?4"},
	{offsetof(struct merge, their_tags), 1,
	 "SELECT key, value FROM tags WHERE run_id = ? ORDER BY key"},
	{offsetof(struct merge, our_tag), 0,
	 "SELECT value FROM tags WHERE run_id = ? AND key = ?"},
	{offsetof(struct merge, add_tag), 0,
	 "INSERT INTO tags (run_id, key, value) VALUES (?, ?, ?)"},
	{offsetof(struct merge, their_date), 1,
	 "SELECT measured_at FROM runs WHERE id = ?"},
	{offsetof(struct merge, our_date), 0,
	 "SELECT measured_at FROM runs WHERE id = ?"},
};

#define NQUERIES (sizeof(queries) / sizeof(queries[0]))

static struct bs_db_stmt **query_slot(struct merge *m, const struct query *q)
{
	return (struct bs_db_stmt **)(void *)((char *)m + q->slot);
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
		bs_db_finalize(*query_slot(m, &queries[i]));
}

static int prep(struct bs_store *db, const char *sql, struct bs_db_stmt **out,
		struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_prepare(db->db, sql, 0, out, &dbe) < 0)
		return bs_store_db_fail(db, err, "cannot prepare the merge",
					&dbe);
	return 0;
}

static int add_child(const char *table, const char *col, void *ctx)
{
	struct merge *m = ctx;

	if (m->nchild == (int)(sizeof(m->child) / sizeof(m->child[0])))
		BS_BUG("more tables refer to runs than merge handles");
	m->child[m->nchild].table = xstrdup(table);
	m->child[m->nchild].col = xstrdup(col);
	m->nchild++;
	return 0;
}

/* The tables whose rows belong to a run (a foreign key to runs), with the
 * column that holds the run's id. */
static int find_children(struct merge *m, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	/* add_child never stops the walk: a failure is the engine's. */
	if (bs_db_referrers(m->st->db, "runs", add_child, m, &dbe) < 0)
		return bs_store_db_fail(m->st, err, "cannot read the schema",
					&dbe);
	return 0;
}

/* The children's copiers, once the source was checked. A child's own id
 * (run_history's) is not copied: this archive numbers its rows. */
static int prepare_children(struct merge *m, struct bs_err *err)
{
	int k, rc = 0;

	for (k = 0; rc == 0 && k < m->nchild; k++)
		rc = copier_init(m->st, m->from, &m->child[k].copy,
				 m->child[k].table, "id", m->child[k].col,
				 m->child[k].col, NULL, err);
	return rc;
}

/* The tables read from the source besides runs and its children. */
static const char *const other_tables[] = {"metrics", "params", "rejects"};

/* The source's tables that merge reads are what they should be, and it
 * has nothing that runs when read (its engine's check). */
static int check_source(struct merge *m, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	const char *tables[1 + 16 + 3];
	size_t n = 0, i;
	int k;

	tables[n++] = "runs";
	for (k = 0; k < m->nchild; k++)
		tables[n++] = m->child[k].table;
	for (i = 0; i < sizeof(other_tables) / sizeof(*other_tables); i++)
		tables[n++] = other_tables[i];
	if (bs_db_check_untrusted(m->from->db, tables, n, &dbe) < 0)
		return bs_store_db_fail(m->from, err, NULL, &dbe);
	return 0;
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
				 NULL, " RETURNING id", err);
	if (rc == 0)
		rc = prepare_children(m, err);
	for (i = 0; rc == 0 && i < NQUERIES; i++)
		rc = prep(queries[i].there ? m->from : m->st, queries[i].sql,
			  query_slot(m, &queries[i]), err);
	return rc;
}

/* One step of a query that returns at most one row: 1 row, 0 none. */
static int step_one(struct bs_store *db, struct bs_db_stmt *s,
		    struct bs_err *err)
{
	int rc = bs_db_step(s);

	if (rc == BS_DB_ROW)
		return 1;
	if (rc == BS_DB_DONE)
		return 0;
	return bs_store_db_error(db, err, NULL);
}

/* Whether the source's run (the current row of their_runs) was measured
 * by `bstore run`. */
static int made_here(struct merge *m)
{
	const char *format = bs_db_column_text(m->their_runs, 3);

	return format && strcmp(format, BS_FMT_BSTORE_RUN) == 0;
}

/*
 * The run here that is the source's run (the current row of their_runs),
 * in *ours, or 0 when there is none.
 */
static int pair(struct merge *m, int64_t *ours, struct bs_err *err)
{
	struct bs_db_stmt *r = m->their_runs;
	int made = made_here(m), rc;
	int64_t nth = 0;

	*ours = 0;
	if (made) {
		bs_db_bind_column(m->nth_there, 1, r, 1);
		bs_db_bind_column(m->nth_there, 2, r, 2);
		bs_db_bind_text(m->nth_there, 3, BS_FMT_BSTORE_RUN, -1);
		bs_db_bind_int64(m->nth_there, 4, bs_db_column_int64(r, 0));
		rc = step_one(m->from, m->nth_there, err);
		if (rc > 0)
			nth = bs_db_column_int64(m->nth_there, 0);
		bs_db_reset(m->nth_there);
		if (rc < 0)
			return rc;
	}
	bs_db_bind_column(m->same_here, 1, r, 1);
	bs_db_bind_int64(m->same_here, 2, made);
	bs_db_bind_column(m->same_here, 3, r, 2);
	bs_db_bind_int64(m->same_here, 4, nth);
	rc = step_one(m->st, m->same_here, err);
	if (rc > 0)
		*ours = bs_db_column_int64(m->same_here, 0);
	bs_db_reset(m->same_here);
	return rc < 0 ? rc : 0;
}

/* Copies a run that is not here with every row that belongs to it. */
static int copy_run(struct merge *m, int64_t theirs, struct bs_err *err)
{
	int64_t id = 0;
	int rc, i;

	rc = copier_run(m->st, m->from, &m->run, theirs, 0, NULL, &id, err);
	m->refused = m->run.refused;
	for (i = 0; i < m->nchild && rc == 0; i++) {
		rc = copier_run(m->st, m->from, &m->child[i].copy, theirs, id,
				NULL, NULL, err);
		m->refused = m->child[i].copy.refused;
	}
	return rc;
}

/*
 * When the run was measured, as UTC text ("YYYY-MM-DD HH:MM:SS", as
 * SQLite's datetime() writes it), in *out: NULL if unknown or outside
 * the years 0 to 9999. q selects measured_at of the run whose id it is
 * given.
 */
static int measured(struct bs_store *db, struct bs_db_stmt *q, int64_t id,
		    char **out, struct bs_err *err)
{
	enum bs_db_type type;
	int rc;

	*out = NULL;
	bs_db_bind_int64(q, 1, id);
	rc = step_one(db, q, err);
	type = rc > 0 ? bs_db_column_type(q, 0) : BS_DB_NULL;
	if (type == BS_DB_INT || type == BS_DB_FLOAT) {
		int64_t t = type == BS_DB_INT
				    ? bs_db_column_int64(q, 0)
				    : (int64_t)bs_db_column_double(q, 0);
		time_t tt = (time_t)t;
		struct tm tm;
		char buf[80];

		if (t >= -62167219200LL && t <= 253402300799LL &&
		    gmtime_r(&tt, &tm)) {
			snprintf(buf, sizeof(buf),
				 "%04d-%02d-%02d %02d:%02d:%02d",
				 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
				 tm.tm_hour, tm.tm_min, tm.tm_sec);
			*out = xstrdup(buf);
		}
	}
	bs_db_reset(q);
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
	rc = measured(m->st, m->our_date, ours, &ta, err);
	if (rc == 0)
		rc = measured(m->from, m->their_date, theirs, &tb, err);
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
	bs_db_bind_int64(m->their_tags, 1, theirs);
	while ((rc = bs_db_step(m->their_tags)) == BS_DB_ROW) {
		bs_db_bind_int64(m->our_tag, 1, ours);
		bs_db_bind_column(m->our_tag, 2, m->their_tags, 0);
		rc = step_one(m->st, m->our_tag, err);
		if (rc == 0) {
			bs_db_reset(m->our_tag);
			bs_db_bind_int64(m->add_tag, 1, ours);
			bs_db_bind_column(m->add_tag, 2, m->their_tags, 0);
			bs_db_bind_column(m->add_tag, 3, m->their_tags, 1);
			rc = bs_db_step(m->add_tag);
			bs_db_reset(m->add_tag);
			if (rc != BS_DB_DONE) {
				m->refused = refused(m->st);
				rc = bs_store_db_error(m->st, err,
						       "cannot merge a tag");
				break;
			}
			stats->tags_added++;
			continue;
		}
		if (rc < 0)
			break;
		c.key = bs_db_column_text(m->their_tags, 0);
		c.their_value = bs_db_column_text(m->their_tags, 1);
		c.our_value = bs_db_column_text(m->our_tag, 0);
		if (strcmp(c.our_value ? c.our_value : "",
			   c.their_value ? c.their_value : "") != 0) {
			fn(&c, ctx);
			found = 1;
		}
		bs_db_reset(m->our_tag);
	}
	bs_db_reset(m->our_tag);
	bs_db_reset(m->their_tags);
	if (rc != BS_DB_DONE && rc >= 0)
		rc = bs_store_db_error(m->from, err, "cannot read tags");
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
		if (bs_store_check_tag(r.tags[i].key, r.tags[i].value, why) < 0)
			rc = 0;
	bs_run_release(&r);
	return rc;
}

/*
 * Merges the source's run theirs (the current row of their_runs): copied
 * when not here, reconciled when it is. In a savepoint of its own, so
 * that a run this archive refuses leaves nothing behind and is skipped.
 */
static int merge_run(struct merge *m, int64_t theirs, bs_merge_conflict_fn fn,
		     void *ctx, struct bs_merge_stats *stats,
		     struct bs_err *err)
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
	m->refused = 0;
	if (ours == 0)
		rc = copy_run(m, theirs, &why);
	else
		rc = reconcile(m, theirs, ours, fn, ctx, stats, &why);
	if (rc < 0 && m->refused) {
		struct bs_buf msg = BS_BUF_INIT;

		bs_buf_addf(&msg, "this archive refuses it: %s",
			    bs_store_db_reason(m->st));
		bs_db_exec(m->st->db, "ROLLBACK TO merge_run", NULL);
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
		rc = copier_run(m->st, m->from, &c, 0, 0, inserted, NULL, err);
	copier_release(&c);
	return rc;
}

int bs_store_merge(struct bs_store *st, struct bs_store *from,
		   const volatile sig_atomic_t *cancel, bs_merge_conflict_fn fn,
		   void *ctx, struct bs_merge_stats *stats, struct bs_err *err)
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
	/* Each run is merged in a savepoint of its own. */
	bs_db_bulk(st->db, 1);
	/* One read transaction: the source as it was at one moment. */
	rc = bs_store_exec(from, "BEGIN", err);
	if (rc < 0) {
		bs_db_bulk(st->db, 0);
		return rc;
	}
	rc = merge_prepare(&m, err);
	while (rc == 0 && (rc = bs_db_step(m.their_runs)) == BS_DB_ROW) {
		int64_t theirs = bs_db_column_int64(m.their_runs, 0);

		if (cancel && *cancel) {
			rc = bs_error(err, BS_EINTR, "interrupted");
			break;
		}
		rc = merge_run(&m, theirs, fn, ctx, stats, err);
	}
	if (rc == BS_DB_DONE)
		rc = 0;
	else if (rc > 0)
		rc = bs_store_db_error(from, err, "cannot read runs");
	/* The catalogue rows a newer bstore wrote into the source, and the
	 * lines it could not parse (kept once per source, line and digest). */
	if (rc == 0)
		rc = copy_table(&m, "metrics", NULL, NULL, err);
	if (rc == 0)
		rc = copy_table(&m, "params", NULL, NULL, err);
	if (rc == 0)
		rc = copy_table(&m, "rejects", "id", &stats->rejects, err);
	merge_release(&m);
	bs_db_exec(from->db, "COMMIT", NULL);
	bs_db_bulk(st->db, 0);
	return rc;
}
