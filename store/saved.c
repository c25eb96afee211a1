/*
 * store/saved.c - saved comparisons (bstore report --save NAME): a
 * report's arguments kept under a name, which bstore site renders again.
 */
#include "store/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

int bs_store_check_report_name(const char *name, struct bs_err *err)
{
	size_t len = strlen(name), i;
	char q[64];

	bs_err_quote(q, sizeof(q), name, len, 40);
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty comparison name");
	if (len > BS_REPORT_NAME_MAX)
		return bs_error(err, BS_EINVAL,
				"comparison name '%s' is longer than %d bytes",
				q, BS_REPORT_NAME_MAX);
	/* The name becomes compare/NAME.html: a file name in any file
	 * system and a URL path that needs no escaping. */
	for (i = 0; i < len; i++) {
		char c = name[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return bs_error(err, BS_EINVAL,
					"comparison name '%s' may hold only "
					"letters, digits, '.', '_' and '-', "
					"and starts with a letter or digit",
					q);
	}
	return 0;
}

int bs_store_save_report(struct bs_store *st, const char *name,
			 const char *const *args, size_t nargs,
			 struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	size_t i;
	int rc;

	rc = bs_store_check_report_name(name, err);
	if (rc < 0)
		return rc;
	rc = bs_store_begin(st, err);
	if (rc < 0)
		return rc;
	if (bs_db_prepare(st->db,
			  "INSERT INTO saved_reports (name, saved_at) "
			  "VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE "
			  "SET saved_at = ?2",
			  0, &s, &dbe) < 0)
		goto prep;
	bs_db_bind_text(s, 1, name, -1);
	bs_db_bind_int64(s, 2, bs_store_now());
	if (bs_db_step(s) != BS_DB_DONE)
		goto fail;
	bs_db_finalize(s);
	s = NULL;
	if (bs_db_prepare(st->db,
			  "DELETE FROM saved_report_args WHERE report = ?", 0,
			  &s, &dbe) < 0)
		goto prep;
	bs_db_bind_text(s, 1, name, -1);
	if (bs_db_step(s) != BS_DB_DONE)
		goto fail;
	bs_db_finalize(s);
	s = NULL;
	if (bs_db_prepare(st->db,
			  "INSERT INTO saved_report_args (report, "
			  "position, arg) VALUES (?, ?, ?)",
			  0, &s, &dbe) < 0)
		goto prep;
	for (i = 0; i < nargs; i++) {
		bs_db_reset(s);
		bs_db_bind_text(s, 1, name, -1);
		bs_db_bind_int64(s, 2, (int64_t)i);
		bs_db_bind_text(s, 3, args[i], -1);
		if (bs_db_step(s) != BS_DB_DONE)
			goto fail;
	}
	bs_db_finalize(s);
	return bs_store_commit(st, err);
prep:
	rc = bs_store_db_fail(st, err, "cannot save comparison", &dbe);
	goto out;
fail:
	rc = bs_store_db_error(st, err, "cannot save comparison");
out:
	bs_db_finalize(s);
	bs_store_rollback(st);
	return rc;
}

int bs_store_forget_report(struct bs_store *st, const char *name, int *found,
			   struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	int rc;

	*found = 0;
	if (bs_db_prepare(st->db, "DELETE FROM saved_reports WHERE name = ?", 0,
			  &s, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot forget comparison",
					&dbe);
	bs_db_bind_text(s, 1, name, -1);
	if (bs_db_step(s) != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot forget comparison");
	else
		rc = 0, *found = bs_db_changes(st->db) > 0;
	bs_db_finalize(s);
	return rc;
}

/*
 * Whether a name read from the archive may be used: the rule it was
 * saved under (bs_store_check_report_name), checked again on read, for
 * the archive is not trusted (an owner may have dropped the CHECK, or
 * written the row by hand): it becomes a file name. One that fails is
 * named in a warning and skipped.
 */
static int readable_name(struct bs_store *st, const char *name)
{
	struct bs_err why = BS_ERR_INIT;
	struct bs_buf msg = BS_BUF_INIT;

	if (bs_store_check_report_name(name, &why) == 0)
		return 1;
	if (st->warn) {
		bs_buf_addf(&msg, "%s: saved %s; skipped (never a file name)",
			    st->path, why.msg);
		st->warn(bs_buf_str(&msg), st->warn_ctx);
	}
	bs_buf_release(&msg);
	bs_err_reset(&why);
	return 0;
}

/* Calls fn with the arguments gathered for one name (when its name may be
 * used); frees them. */
static int flush_one(struct bs_store *st, char *name, char **args, size_t nargs,
		     bs_saved_report_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	if (name && fn && readable_name(st, name))
		rc = fn(name, (const char *const *)args, nargs, ctx);
	for (i = 0; i < nargs; i++)
		free(args[i]);
	free(name);
	return rc;
}

int bs_store_each_saved(struct bs_store *st, bs_saved_report_fn fn, void *ctx,
			struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	char *name = NULL, **args = NULL;
	size_t nargs = 0, cap = 0;
	int step, rc = 0;

	/* A name saved without arguments (report of every run) has no
	 * rows in saved_report_args: hence the LEFT JOIN. */
	if (bs_db_prepare(st->db,
			  "SELECT r.name, a.arg FROM saved_reports AS r LEFT "
			  "JOIN saved_report_args AS a ON a.report = r.name "
			  "ORDER BY r.name, a.position",
			  0, &s, &dbe) < 0)
		return bs_store_db_fail(st, err,
					"cannot read saved comparisons", &dbe);
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		const char *n = bs_db_column_text(s, 0);
		const char *a = bs_db_column_text(s, 1);

		if (name == NULL || strcmp(name, n) != 0) {
			rc = flush_one(st, name, args, nargs, fn, ctx);
			name = xstrdup(n);
			nargs = 0;
			if (rc < 0)
				break;
		}
		if (a) {
			xgrow((void **)&args, &cap, nargs + 1, sizeof(*args));
			args[nargs++] = xstrdup(a);
		}
	}
	if (rc == 0 && step != BS_DB_DONE)
		rc = bs_store_db_error(st, err,
				       "cannot read saved comparisons");
	if (rc == 0)
		rc = flush_one(st, name, args, nargs, fn, ctx);
	else
		flush_one(st, name, args, nargs, NULL, NULL);
	name = NULL;
	free(args);
	bs_db_finalize(s);
	return rc;
}
