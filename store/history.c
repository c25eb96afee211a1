/*
 * store/history.c - changing what a stored run says about itself (its
 * machine and when it was measured, bstore set) with a row of run_history
 * for every change, so that no old value is lost; reading that history;
 * and the words a mistyped selector is compared with (did you mean).
 */
#include "store/internal.h"

#include <string.h>

#include "core/supply.h"
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
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	struct bs_run r;
	int64_t key;
	int rc = bs_store_get(st, id, 0, &r, err);

	if (rc < 0)
		return rc;
	key = bs_store_measure_key(&r);
	bs_run_release(&r);
	if (bs_db_prepare(st->db,
			  "UPDATE runs SET measure_key = ? WHERE id = ?", 0, &s,
			  &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot change runs", &dbe);
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

/* Binds parameter k of p (NULL when unknown). */
static void bind_param(struct bs_db_stmt *s, int i, const struct bs_params *p,
		       int k)
{
	if (!bs_param_known(p, k))
		bs_db_bind_null(s, i);
	else if (bs_param_table[k].kind == BS_PK_TEXT)
		bs_db_bind_text(s, i, bs_param_get_text(p, k), -1);
	else if (bs_param_table[k].kind == BS_PK_REAL)
		bs_db_bind_double(s, i, bs_param_get_real(p, k));
	else
		bs_db_bind_int64(s, i, bs_param_get_i64(p, k));
}

/* Runs one statement of set_param's; 0 or the store's error. */
static int param_step(struct bs_store *st, struct bs_db_stmt *s,
		      struct bs_err *err)
{
	int rc = bs_db_step(s) == BS_DB_DONE
			 ? 0
			 : bs_store_db_error(st, err, "cannot change runs");

	bs_db_finalize(s);
	return rc;
}

/* Writes parameter k of r where the store keeps it, and r's supplied. */
static int write_param(struct bs_store *st, const struct bs_run *r, int k,
		       struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	const struct bs_param_info *pi = &bs_param_table[k];
	struct bs_buf sql = BS_BUF_INIT, keys = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int rc = 0;

	if (pi->column) {
		bs_buf_addf(&sql, "UPDATE runs SET %s = ? WHERE id = ?",
			    pi->column);
		if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s, &dbe) < 0)
			rc = bs_store_db_fail(st, err, "cannot change runs",
					      &dbe);
		if (rc == 0) {
			bind_param(s, 1, &r->params, k);
			bs_db_bind_int64(s, 2, r->id);
			rc = param_step(st, s, err);
		}
	} else {
		if (bs_db_prepare(st->db,
				  "DELETE FROM run_params WHERE "
				  "run_id = ? AND key = ?",
				  0, &s, &dbe) < 0)
			rc = bs_store_db_fail(st, err, "cannot change runs",
					      &dbe);
		if (rc == 0) {
			bs_db_bind_int64(s, 1, r->id);
			bs_db_bind_text(s, 2, pi->key, -1);
			rc = param_step(st, s, err);
		}
		if (rc == 0 && bs_param_known(&r->params, k)) {
			if (bs_db_prepare(st->db,
					  "INSERT INTO run_params (run_id, "
					  "key, value) VALUES (?, ?, ?)",
					  0, &s, &dbe) < 0)
				rc = bs_store_db_fail(st, err,
						      "cannot change runs",
						      &dbe);
			if (rc == 0) {
				bs_db_bind_int64(s, 1, r->id);
				bs_db_bind_text(s, 2, pi->key, -1);
				bind_param(s, 3, &r->params, k);
				rc = param_step(st, s, err);
			}
		}
	}
	bs_supplied_keys(r, &keys);
	if (rc == 0 && bs_db_prepare(st->db,
				     "UPDATE runs SET supplied = ? "
				     "WHERE id = ?",
				     0, &s, &dbe) < 0)
		rc = bs_store_db_fail(st, err, "cannot change runs", &dbe);
	if (rc == 0) {
		bs_db_bind_text(s, 1, keys.len ? bs_buf_str(&keys) : NULL, -1);
		bs_db_bind_int64(s, 2, r->id);
		rc = param_step(st, s, err);
	}
	bs_buf_release(&sql);
	bs_buf_release(&keys);
	return rc;
}

/* bs_store_set of a parameter: run by run, as core/supply.h's rule says. */
static int set_param(struct bs_store *st, const struct bs_ids *ids,
		     const struct bs_set *set, int64_t *changed,
		     struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf was = BS_BUF_INIT, now = BS_BUF_INIT;
	struct bs_db_stmt *hist = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; i < ids->n && rc == 0; i++) {
		struct bs_err why = BS_ERR_INIT;
		enum bs_supply_outcome how = BS_SUPPLY_SAME;
		struct bs_run r;
		int k;

		rc = bs_store_get(st, ids->id[i], 0, &r, err);
		if (rc < 0)
			break;
		k = bs_param_find_in(r.family, set->param);
		bs_buf_reset(&was);
		bs_buf_reset(&now);
		if (k >= 0)
			bs_param_format(&r.params, k, &was);
		rc = bs_supply(&r, set->param, set->text, &how, &why);
		if (rc < 0)
			rc = bs_error(err, BS_EINVAL, "run %lld: %s",
				      (long long)r.id, why.msg);
		if (rc == 0 && how == BS_SUPPLY_CHANGED) {
			bs_param_format(&r.params, k, &now);
			rc = write_param(st, &r, k, err);
			if (rc == 0 &&
			    bs_db_prepare(st->db,
					  "INSERT INTO run_history (run_id, "
					  "field, old_value, new_value, "
					  "changed_at) VALUES (?, ?, ?, ?, ?)",
					  0, &hist, &dbe) < 0)
				rc = bs_store_db_fail(st, err,
						      "cannot change runs",
						      &dbe);
			if (rc == 0) {
				bs_db_bind_int64(hist, 1, r.id);
				bs_db_bind_text(hist, 2, set->param, -1);
				bs_db_bind_text(hist, 3, bs_buf_str(&was), -1);
				bs_db_bind_text(hist, 4, bs_buf_str(&now), -1);
				bs_db_bind_int64(hist, 5, bs_store_now());
				rc = param_step(st, hist, err);
			}
			if (rc == 0)
				(*changed)++;
		}
		bs_run_release(&r);
	}
	bs_buf_release(&was);
	bs_buf_release(&now);
	return rc < 0 ? rc : 0;
}

int bs_store_set(struct bs_store *st, const struct bs_ids *ids,
		 const struct bs_set *set, int64_t *changed, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *hist = NULL, *upd = NULL;
	size_t i;
	int rc = 0;

	*changed = 0;
	/* A run's values and machine make its measure key (seen.c). */
	if ((rc = bs_store_seen_end(st, err)) < 0)
		return rc;
	if ((rc = bs_store_cache_drop(st, err)) < 0)
		return rc;
	if (set->param)
		return set_param(st, ids, set, changed, err);
	/*
	 * The history row first, with the old value read from the run
	 * itself; a run that has the value already gets neither.
	 */
	bs_buf_addf(&sql,
		    "INSERT INTO run_history (run_id, field, old_value, "
		    "new_value, changed_at) SELECT id, ?2, %s, ?3, ?4 FROM "
		    "runs WHERE id = ?1 AND %s IS DISTINCT FROM ?3",
		    set->field->column, set->field->column);
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &hist, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot change runs", &dbe);
		goto out;
	}
	bs_buf_reset(&sql);
	bs_buf_addf(&sql, "UPDATE runs SET %s = ?2 WHERE id = ?1",
		    set->field->column);
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &upd, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot change runs", &dbe);
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

int bs_store_each_change(struct bs_store *st, int64_t run_id, bs_change_fn fn,
			 void *ctx, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	struct bs_change c;
	int rc, step;

	if (bs_db_prepare(st->db,
			  "SELECT field, old_value, new_value, "
			  "changed_at FROM run_history WHERE run_id = ? "
			  "ORDER BY id",
			  0, &s, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot read history", &dbe);
	bs_db_bind_int64(s, 1, run_id);
	rc = 0;
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		const char *name = bs_db_column_text(s, 0);
		const struct bs_set_field *f = name ? bs_set_field(name) : NULL;

		/* Else a parameter (bstore set KEY=VALUE), or a newer
		 * bstore's field. */
		if (f == NULL && (name == NULL || bs_param_find(name) < 0))
			continue;
		memset(&c, 0, sizeof(c));
		c.run_id = run_id;
		c.field = f;
		c.param = f ? NULL : name;
		column_value(s, 1, f && f->is_date, &c.old_text, &c.old_when);
		column_value(s, 2, f && f->is_date, &c.new_text, &c.new_when);
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
	struct bs_err dbe = BS_ERR_INIT;
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
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot read the archive", &dbe);
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
