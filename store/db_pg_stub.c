/*
 * store/db_pg_stub.c - the PostgreSQL row of the engines' table
 * (store/db.h) in a bstore built without libpq: opening a postgresql://
 * archive fails and says so. store/db_pg.c replaces it when libpq is
 * there.
 */
#include "store/db.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

struct stub_db {
	struct bs_db base;
	char *name;
};

/* Without libpq nothing reads a URL as libpq would: of one, only its
 * scheme is shown (a password may stand anywhere after it). */
char *bs_db_shown(const char *name)
{
	const char *scheme = strstr(name, "://");
	char *s;

	if (!bs_db_is_url(name) || scheme == NULL)
		return xstrdup(name);
	s = xmalloc((size_t)(scheme + 3 - name) + sizeof("..."));
	memcpy(s, name, (size_t)(scheme + 3 - name));
	memcpy(s + (scheme + 3 - name), "...", sizeof("..."));
	return s;
}

static void stub_close(struct bs_db *db)
{
	struct stub_db *d = (struct stub_db *)(void *)db;

	if (d == NULL)
		return;
	free(d->name);
	free(d);
}

static const char *stub_errmsg(struct bs_db *db);

static int stub_open(struct bs_db **out, const char *name, int flags,
		     int (*busy)(void *ctx, int count), void *ctx,
		     struct bs_err *err)
{
	(void)name;
	(void)flags;
	(void)busy;
	(void)ctx;
	*out = NULL;
	return bs_error(err, BS_EDB, "%s", stub_errmsg(NULL));
}

static const char *stub_display(const struct bs_db *db)
{
	return ((const struct stub_db *)(const void *)db)->name;
}

static const char *stub_errmsg(struct bs_db *db)
{
	(void)db;
	return "bstore was built without PostgreSQL support";
}

static enum bs_db_errkind stub_errkind(struct bs_db *db)
{
	(void)db;
	return BS_DB_EOTHER;
}

/* Only open is ever called: it fails, and no connection is made. */
const struct bs_db_ops bs_db_pg = {
	.name = "postgresql",
	.schema_file = "schema.sql",
	.schema_rewrites = bs_db_pg_schema,
	.open = stub_open,
	.close = stub_close,
	.display = stub_display,
	.errmsg = stub_errmsg,
	.errkind = stub_errkind,
	.begin_write_sql = "BEGIN",
	.writer = BS_DB_WRITE_DIRECT,
};
