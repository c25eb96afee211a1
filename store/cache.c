/*
 * store/cache.c - what a command keeps between runs to avoid reading the
 * whole archive again (bstore check: report/changes.c): rows of the table
 * meta whose key starts with "cache.", dropped whole by every change to a
 * stored run's machine, date, parameters or numbers (bs_store_rm,
 * bs_store_set, a CSV line replacing its table's run) and by an upgrade
 * of the schema. Runs added (ingest, merge) do not drop it: a cache knows
 * the newest run id it saw, and ids are never reused.
 */
#include "store/internal.h"

#include <string.h>

#include "util/buf.h"
#include "util/banned.h"

#define PREFIX "cache."

int bs_store_cache_get(struct bs_store *st, const char *key, struct bs_buf *out,
		       int *found, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf k = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int rc;

	*found = 0;
	bs_buf_reset(out);
	bs_buf_adds(&k, PREFIX);
	bs_buf_adds(&k, key);
	if (bs_db_prepare(st->db, "SELECT value FROM meta WHERE key = ?", 0, &s,
			  &dbe) < 0) {
		bs_buf_release(&k);
		return bs_store_db_fail(st, err, "cannot read the cache", &dbe);
	}
	bs_db_bind_text(s, 1, bs_buf_str(&k), (ptrdiff_t)k.len);
	rc = bs_db_step(s);
	if (rc == BS_DB_ROW && bs_db_column_text(s, 0))
		bs_buf_adds(out, bs_db_column_text(s, 0));
	bs_db_finalize(s);
	bs_buf_release(&k);
	if (rc != BS_DB_ROW && rc != BS_DB_DONE)
		return bs_store_db_error(st, err, "cannot read the cache");
	*found = rc == BS_DB_ROW;
	return 0;
}

int bs_store_cache_each(struct bs_store *st, const char *prefix, bs_cache_fn fn,
			void *ctx, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf k = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int rc, frc = 0;

	bs_buf_adds(&k, PREFIX);
	bs_buf_adds(&k, prefix);
	if (bs_db_prepare(st->db,
			  "SELECT key, value FROM meta WHERE "
			  "substr(key, 1, CAST(?1 AS INTEGER)) = ?2",
			  0, &s, &dbe) < 0) {
		bs_buf_release(&k);
		return bs_store_db_fail(st, err, "cannot read the cache", &dbe);
	}
	bs_db_bind_int64(s, 1, (int64_t)k.len);
	bs_db_bind_text(s, 2, bs_buf_str(&k), (ptrdiff_t)k.len);
	while ((rc = bs_db_step(s)) == BS_DB_ROW) {
		const char *key = bs_db_column_text(s, 0);
		const char *value = bs_db_column_text(s, 1);

		frc = fn(key + k.len, value ? value : "", ctx);
		if (frc < 0)
			break;
	}
	bs_buf_release(&k);
	if (frc < 0) {
		bs_db_finalize(s);
		return frc;
	}
	if (rc != BS_DB_DONE) {
		rc = bs_store_db_error(st, err, "cannot read the cache");
		bs_db_finalize(s);
		return rc;
	}
	bs_db_finalize(s);
	return 0;
}

int bs_store_cache_put(struct bs_store *st, const char *key, const char *value,
		       struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf k = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int rc;

	bs_buf_adds(&k, PREFIX);
	bs_buf_adds(&k, key);
	if (bs_db_prepare(st->db,
			  "INSERT INTO meta (key, value) VALUES "
			  "(?1, ?2) ON CONFLICT (key) DO UPDATE SET "
			  "value = ?2",
			  0, &s, &dbe) < 0) {
		bs_buf_release(&k);
		return bs_store_db_fail(st, err, "cannot write the cache",
					&dbe);
	}
	bs_db_bind_text(s, 1, bs_buf_str(&k), (ptrdiff_t)k.len);
	bs_db_bind_text(s, 2, value, -1);
	rc = bs_db_step(s);
	bs_db_finalize(s);
	bs_buf_release(&k);
	if (rc != BS_DB_DONE)
		return bs_store_db_error(st, err, "cannot write the cache");
	return 0;
}

int bs_store_cache_drop(struct bs_store *st, struct bs_err *err)
{
	return bs_store_exec(st,
			     "DELETE FROM meta WHERE substr(key, 1, 6) "
			     "= '" PREFIX "'",
			     err);
}
