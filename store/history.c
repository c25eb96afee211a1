/*
 * store/history.c - changing what a stored run says about itself (its
 * machine and when it was measured, bstore set) with a row of run_history
 * for every change, so that no old value is lost; reading that history;
 * and the words a mistyped selector is compared with (did you mean).
 */
#include "store/internal.h"

#include <string.h>

#include "util/buf.h"
#include "util/banned.h"

/* clang-format off */
const struct bs_set_field bs_set_fields[] = {
	{"machine", "machine", 0},
	{"measured_at", "measured_at", 1},
};
/* clang-format on */
const size_t bs_set_nfields = sizeof(bs_set_fields) / sizeof(bs_set_fields[0]);

const struct bs_set_field *bs_set_field(const char *key)
{
	size_t i;

	for (i = 0; i < bs_set_nfields; i++)
		if (strcmp(bs_set_fields[i].key, key) == 0)
			return &bs_set_fields[i];
	return NULL;
}

/* Binds a field's value: text, or seconds (BS_NONE: NULL). */
static void bind_value(struct bs_db_stmt *s, int i, const struct bs_set *set)
{
	if (!set->field->is_date)
		bs_db_bind_text(s, i, set->text ? set->text : "", -1);
	else if (set->when == BS_NONE)
		bs_db_bind_null(s, i);
	else
		bs_db_bind_int64(s, i, set->when);
}

/* The measure key holds the machine (store/dedup.c): made again. */
static int rekey(struct bs_store *st, int64_t id, struct bs_err *err)
{
	struct bs_db_stmt *s = NULL;
	struct bs_run r;
	int64_t key;
	int rc = bs_store_get(st, id, 0, &r, err);

	if (rc < 0)
		return rc;
	key = bs_store_measure_key(&r);
	bs_run_release(&r);
	if (bs_db_prepare(st->db,
			  "UPDATE runs SET measure_key = ? WHERE id = ?",
			  0, &s) < 0)
		return bs_store_db_error(st, err, "cannot change runs");
	if (key)
		bs_db_bind_int64(s, 1, key);
	else
		bs_db_bind_null(s, 1);
	bs_db_bind_int64(s, 2, id);
	rc = bs_db_step(s) == BS_DB_DONE
		     ? 0
		     : bs_store_db_error(st, err, "cannot change runs");
	bs_db_finalize(s);
	return rc;
}

int bs_store_set(struct bs_store *st, const struct bs_ids *ids,
		 const struct bs_set *set, int64_t *changed,
		 struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *hist = NULL, *upd = NULL;
	size_t i;
	int rc = 0;

	*changed = 0;
	/* A run's values and machine make its measure key (seen.c). */
	if ((rc = bs_store_seen_end(st, err)) < 0)
		return rc;
	/*
	 * The history row first, with the old value read from the run
	 * itself; a run that has the value already gets neither.
	 */
	bs_buf_addf(&sql,
		    "INSERT INTO run_history (run_id, field, old_value, "
		    "new_value, changed_at) SELECT id, ?2, %s, ?3, ?4 FROM "
		    "runs WHERE id = ?1 AND %s IS DISTINCT FROM ?3",
		    set->field->column, set->field->column);
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &hist) < 0) {
		rc = bs_store_db_error(st, err, "cannot change runs");
		goto out;
	}
	bs_buf_reset(&sql);
	bs_buf_addf(&sql, "UPDATE runs SET %s = ?2 WHERE id = ?1",
		    set->field->column);
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &upd) < 0) {
		rc = bs_store_db_error(st, err, "cannot change runs");
		goto out;
	}
	for (i = 0; i < ids->n; i++) {
		bs_db_bind_int64(hist, 1, ids->id[i]);
		bs_db_bind_text(hist, 2, set->field->key, -1);
		bind_value(hist, 3, set);
		bs_db_bind_int64(hist, 4, bs_store_now());
		rc = bs_db_step(hist);
		bs_db_reset(hist);
		if (rc != BS_DB_DONE) {
			rc = bs_store_db_error(st, err, "cannot change runs");
			goto out;
		}
		rc = 0;
		if (bs_db_changes(st->db) == 0)
			continue;
		bs_db_bind_int64(upd, 1, ids->id[i]);
		bind_value(upd, 2, set);
		rc = bs_db_step(upd);
		bs_db_reset(upd);
		if (rc != BS_DB_DONE) {
			rc = bs_store_db_error(st, err, "cannot change runs");
			goto out;
		}
		rc = 0;
		(*changed)++;
		if (strcmp(set->field->column, "machine") == 0)
			rc = rekey(st, ids->id[i], err);
		if (rc < 0)
			goto out;
	}
out:
	bs_db_finalize(hist);
	bs_db_finalize(upd);
	bs_buf_release(&sql);
	return rc;
}

/* A history value: text for text fields, seconds for dates. */
static void column_value(struct bs_db_stmt *s, int i, int is_date,
			 const char **text, int64_t *when)
{
	int null = bs_db_column_type(s, i) == BS_DB_NULL;

	*text = NULL;
	*when = BS_NONE;
	if (is_date && !null)
		*when = bs_db_column_int64(s, i);
	else if (!is_date)
		*text = null ? "" : bs_db_column_text(s, i);
}

int bs_store_each_change(struct bs_store *st, int64_t run_id,
			 bs_change_fn fn, void *ctx, struct bs_err *err)
{
	struct bs_db_stmt *s = NULL;
	struct bs_change c;
	int rc, step;

	if (bs_db_prepare(st->db, "SELECT field, old_value, new_value, "
			       "changed_at FROM run_history WHERE run_id = ? "
			       "ORDER BY id", 0, &s) < 0)
		return bs_store_db_error(st, err, "cannot read history");
	bs_db_bind_int64(s, 1, run_id);
	rc = 0;
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		const struct bs_set_field *f =
			bs_set_field(bs_db_column_text(s, 0));

		if (f == NULL)
			continue; /* a newer bstore's field */
		memset(&c, 0, sizeof(c));
		c.run_id = run_id;
		c.field = f;
		column_value(s, 1, f->is_date, &c.old_text, &c.old_when);
		column_value(s, 2, f->is_date, &c.new_text, &c.new_when);
		c.changed_at = bs_db_column_int64(s, 3);
		rc = fn(&c, ctx);
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot read history");
	bs_db_finalize(s);
	return rc;
}

int bs_store_words(struct bs_store *st, const char *key, bs_word_fn fn,
		   void *ctx, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	const char *col = key ? bs_store_run_column(key, strlen(key)) : NULL;
	struct bs_db_stmt *s = NULL;
	int rc = 0, step;

	if (key == NULL)
		bs_buf_adds(&sql, "SELECT DISTINCT key FROM tags ORDER BY 1");
	else if (col && strcmp(col, "id") != 0 &&
		 strcmp(col, "measured_at") != 0)
		bs_buf_addf(&sql, "SELECT DISTINCT %s FROM runs ORDER BY 1",
			    col);
	else if (col)
		goto out; /* ids and dates are no words */
	else
		bs_buf_adds(&sql, "SELECT DISTINCT value FROM tags WHERE "
				  "key = ? ORDER BY 1");
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s) < 0) {
		rc = bs_store_db_error(st, err, "cannot read the archive");
		goto out;
	}
	if (key && !col)
		bs_db_bind_text(s, 1, key, -1);
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		const char *w = bs_db_column_text(s, 0);
		rc = fn(w ? w : "", ctx);
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot read the archive");
out:
	bs_db_finalize(s);
	bs_buf_release(&sql);
	return rc;
}
