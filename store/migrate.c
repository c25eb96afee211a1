/*
 * store/migrate.c - the archive's schema (its version kept by the engine,
 * bs_db_ops.get_version): creating it in a new archive from schema.sql
 * (as the engine runs it, store/db_schema.c), upgrading an archive of an
 * older version in one transaction, refusing a newer one, and keeping the
 * catalogue tables (metrics, params) equal to bstore's own catalogue.
 *
 * Upgrades keep every run, tag, reject and raw line byte for byte
 * (tests/unit/test_migrate.c checks it on a committed version 1 archive).
 * Objects that schema.sql defines and an older archive lacks are created
 * from schema.sql itself, so an upgrade does not restate the schema.
 */
#include "store/internal.h"
#include "store/selector.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/dist.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/banned.h"

extern const struct bs_embedded bs_schema_files[];

static int user_version(struct bs_store *st, int *out, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	/* The first read of the archive: fails with "file is not a
	 * database" on a file that is not SQLite. */
	if (bs_db_get_version(st->db, out, &dbe) < 0)
		return bs_store_open_error(st, err, &dbe);
	return 0;
}

/* How many tables, indexes and views the archive holds (*n), or
 * "cannot open archive" and -BS_E*. */
static int count_schema(struct bs_store *st, int *n, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	*n = bs_db_count_objects(st->db, &dbe);
	return *n < 0 ? bs_store_open_error(st, err, &dbe) : 0;
}

/* Refuses an archive of another schema version; v is not ours. */
static int wrong_version(struct bs_store *st, int v, int n, struct bs_err *err)
{
	if (v > BS_SCHEMA_VERSION)
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': it was made by a "
				"newer bstore (schema version %d, this one "
				"knows %d); upgrade bstore",
				st->path, v, BS_SCHEMA_VERSION);
	if (v == 0) {
		if (n > 0)
			return bs_error(err, BS_EDB,
					"cannot open archive '%s': not a bstore "
					"archive (it has other tables)%s",
					st->path,
					/* merge's sources are not --db */
					st->no_upgrade ? ""
						       : "; use another --db");
		if (n == 0)
			return bs_error(err, BS_EDB,
					"cannot open archive '%s': not a bstore "
					"archive (an empty database)",
					st->path);
	}
	return bs_error(err, BS_EDB,
			"cannot open archive '%s': not a bstore archive "
			"(schema version %d)",
			st->path, v);
}

/* ---- schema.sql, statement by statement ------------------------------ */

enum obj_kind { OBJ_TABLE = 1, OBJ_INDEX = 2, OBJ_VIEW = 4 };

/*
 * The kind and name of a "CREATE TABLE|INDEX|VIEW name ..." statement
 * (after any leading comment lines); 0 for other statements.
 */
static int created_object(const char *sql, char *name, size_t namesz)
{
	static const struct {
		const char *prefix;
		int kind;
	} kinds[] = {
		{"CREATE TABLE ", OBJ_TABLE},
		{"CREATE INDEX ", OBJ_INDEX},
		{"CREATE VIEW ", OBJ_VIEW},
	};
	const char *p = sql;
	size_t i, n;

	for (;;) {
		p += strspn(p, " \t\n");
		if (strncmp(p, "--", 2) != 0)
			break;
		p += strcspn(p, "\n");
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t pl = strlen(kinds[i].prefix);
		if (strncmp(p, kinds[i].prefix, pl) != 0)
			continue;
		p += pl;
		n = strcspn(p, " \t\n(");
		if (n == 0 || n >= namesz)
			return 0;
		memcpy(name, p, n);
		name[n] = '\0';
		return kinds[i].kind;
	}
	return 0;
}

static int object_exists(struct bs_store *st, const char *name, int *exists,
			 struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_has_object(st->db, name, exists, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot read the schema",
					&dbe);
	return 0;
}

/*
 * Whether sql ends with a whole statement: its last character outside
 * quotes and comments is ';' (schema.sql has no trigger, whose body
 * would hold more).
 */
static int complete(const char *sql)
{
	char quote = 0, last = 0;
	const char *p;

	for (p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			last = *p;
		} else if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			if (*p == '\0')
				break;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (e == NULL)
				return 0;
			p = e + 1;
		} else if (*p != ' ' && *p != '\t' && *p != '\n' &&
			   *p != '\r') {
			last = *p;
		}
	}
	return !quote && last == ';';
}

/*
 * Runs every statement of schema.sql that creates an object of the kinds
 * asked for which the archive does not have yet.
 */
static int create_missing(struct bs_store *st, int kinds, struct bs_err *err)
{
	const struct bs_embedded *schema;
	struct bs_buf stmt = BS_BUF_INIT, text = BS_BUF_INIT;
	const char *p, *end;
	char name[64];
	int kind, exists = 0, rc = 0;

	schema = bs_embed_find(bs_schema_files, bs_db_schema_file(st->db));
	if (schema == NULL)
		BS_BUG("the engine's schema file is not embedded");
	bs_db_schema(bs_db_ops_of(st->db), schema->text, schema->len, &text);
	p = bs_buf_str(&text);
	end = p + text.len;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		bs_buf_add(&stmt, p, (size_t)(next - p));
		p = next;
		if (!complete(bs_buf_str(&stmt)))
			continue;
		kind = created_object(bs_buf_str(&stmt), name, sizeof(name));
		if (kind & kinds) {
			rc = object_exists(st, name, &exists, err);
			if (rc == 0 && !exists)
				rc = bs_store_exec(st, bs_buf_str(&stmt), err);
		}
		bs_buf_reset(&stmt);
	}
	bs_buf_release(&stmt);
	bs_buf_release(&text);
	return rc;
}

/* ---- the catalogue tables --------------------------------------------- */

static const char *const pkind_names[] = {"int", "size", "bool", "real",
					  "text"};

/* A fingerprint of everything the catalogue tables hold. */
static void fingerprint(char out[17])
{
	uint64_t h = BS_FNV64_BASIS;
	char num[32];
	int i;

	for (i = 0; i < bs_nmetrics; i++) {
		const struct bs_metric_info *m = &bs_metrics[i];
		snprintf(num, sizeof(num), "%d %d %u", (int)m->better,
			 (int)m->category, m->flags);
		h = bs_hash_fnv64_field(h, bs_family_name(m->family));
		h = bs_hash_fnv64_field(h, m->key);
		h = bs_hash_fnv64_field(h, m->label);
		h = bs_hash_fnv64_field(h, m->unit);
		h = bs_hash_fnv64_field(h, num);
	}
	for (i = 0; i < bs_nparams; i++) {
		const struct bs_param_info *p = &bs_param_table[i];
		h = bs_hash_fnv64_field(h, p->key);
		h = bs_hash_fnv64_field(h, bs_family_name(p->family));
		h = bs_hash_fnv64_field(h, pkind_names[p->kind]);
		h = bs_hash_fnv64_field(h, p->label);
		h = bs_hash_fnv64_field(h, p->unit);
		h = bs_hash_fnv64_field(h, p->column ? p->column : "-");
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static int step_stmt(struct bs_store *st, struct bs_db_stmt *s,
		     struct bs_err *err)
{
	return bs_store_step_done(st, s, "cannot fill the catalogue", err);
}

/*
 * Writes bstore's catalogue into metrics and params, and the fingerprint
 * (inside a transaction). Rows are replaced or added, never removed: a
 * row another bstore wrote (a newer one's metric) stays.
 */
static int fill_catalogue(struct bs_store *st, const char *fp,
			  struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *m = NULL, *p = NULL, *f = NULL;
	int i, rc = 0;

	if (bs_db_prepare(st->db,
			  "INSERT INTO metrics (family, key, position, label, "
			  "unit, better, category, cpu_latency, in_runs) "
			  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
			  "(family, key) DO UPDATE SET position = "
			  "excluded.position, label = excluded.label, unit = "
			  "excluded.unit, better = excluded.better, category "
			  "= excluded.category, cpu_latency = "
			  "excluded.cpu_latency, in_runs = excluded.in_runs",
			  0, &m, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "INSERT INTO params (key, family, position, kind, "
			  "label, unit, runs_column) VALUES (?, ?, ?, ?, ?, "
			  "?, ?) ON CONFLICT (family, key) DO UPDATE SET "
			  "position = excluded.position, "
			  "kind = excluded.kind, label = excluded.label, unit "
			  "= excluded.unit, runs_column = excluded.runs_column",
			  0, &p, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "INSERT INTO meta (key, value) VALUES ('catalogue', "
			  "?) ON CONFLICT (key) DO UPDATE SET value = "
			  "excluded.value",
			  0, &f, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot fill the catalogue",
				      &dbe);
		goto out;
	}
	for (i = 0; i < bs_nmetrics && rc == 0; i++) {
		const struct bs_metric_info *x = &bs_metrics[i];
		bs_db_bind_text(m, 1, bs_family_name(x->family), -1);
		bs_db_bind_text(m, 2, x->key, -1);
		bs_db_bind_int64(m, 3, i);
		bs_db_bind_text(m, 4, x->label, -1);
		bs_db_bind_text(m, 5, x->unit, -1);
		if (bs_better_name(x->better))
			bs_db_bind_text(m, 6, bs_better_name(x->better), -1);
		else
			bs_db_bind_null(m, 6);
		bs_db_bind_text(m, 7, bs_category_name(x->category), -1);
		bs_db_bind_int64(m, 8, (x->flags & BS_MF_CPU_LAT) != 0);
		bs_db_bind_int64(m, 9, (x->flags & BS_MF_COLUMN) != 0);
		rc = step_stmt(st, m, err);
	}
	for (i = 0; i < bs_nparams && rc == 0; i++) {
		const struct bs_param_info *x = &bs_param_table[i];
		bs_db_bind_text(p, 1, x->key, -1);
		bs_db_bind_text(p, 2, bs_family_name(x->family), -1);
		bs_db_bind_int64(p, 3, i);
		bs_db_bind_text(p, 4, pkind_names[x->kind], -1);
		bs_db_bind_text(p, 5, x->label, -1);
		bs_db_bind_text(p, 6, x->unit, -1);
		if (x->column)
			bs_db_bind_text(p, 7, x->column, -1);
		else
			bs_db_bind_null(p, 7);
		rc = step_stmt(st, p, err);
	}
	if (rc == 0) {
		bs_db_bind_text(f, 1, fp, -1);
		rc = step_stmt(st, f, err);
	}
out:
	bs_db_finalize(m);
	bs_db_finalize(p);
	bs_db_finalize(f);
	return rc;
}

/* The fingerprint the archive's catalogue tables were filled with. */
static int stored_fingerprint(struct bs_store *st, char out[17],
			      struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	int rc;

	out[0] = '\0';
	if (bs_db_prepare(st->db,
			  "SELECT value FROM meta WHERE key = 'catalogue'", 0,
			  &s, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot read the catalogue",
					&dbe);
	rc = bs_db_step(s);
	if (rc == BS_DB_ROW && bs_db_column_text(s, 0))
		snprintf(out, 17, "%s", bs_db_column_text(s, 0));
	bs_db_finalize(s);
	if (rc != BS_DB_ROW && rc != BS_DB_DONE)
		return bs_store_db_error(st, err, "cannot read the catalogue");
	return 0;
}

/* ---- version 1 to 2 --------------------------------------------------- */

/*
 * bonnie++ 1.9x+ never prints a 0 max or min file size or a directory
 * count of 1: those cells were empty, which version 1 stored as 0, 0 and
 * 1. 1.0x lines print ":max:min" only when max is not 0 and "/dirs" only
 * when dirs > 1. Empty cells are unknown (NULL) from version 2 on, as
 * everywhere else.
 */
static const char fix_file_spec[] =
	"UPDATE runs SET num_dirs = NULL WHERE num_dirs = 1 AND "
	"format LIKE 'bonnie++-csv-%';"
	"UPDATE runs SET min_size = NULL WHERE min_size = 0 AND "
	"format LIKE 'bonnie++-csv-%' AND (format <> 'bonnie++-csv-1.0x' "
	"OR max_size IS NULL OR max_size <= 0);"
	"UPDATE runs SET max_size = NULL WHERE max_size = 0 AND "
	"format LIKE 'bonnie++-csv-%';";

/*
 * Version 1 kept bstore run's measurements unrounded, so a run's record
 * and its CSV line disagreed (200812.93 against 200812). From version 2
 * the record is what the line says (core/bonnie_text.h); round the old
 * runs the same way.
 */
static int round_bstore_runs(struct bs_store *st, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	static const char *const sfx[] = BS_STORE_METRIC_SUFFIXES;
	struct bs_buf q = BS_BUF_INIT, u = BS_BUF_INIT;
	struct bs_db_stmt *sel = NULL, *upd = NULL;
	int m, k, c, step, rc = 0;

	bs_buf_adds(&q, "SELECT id");
	bs_buf_adds(&u, "UPDATE runs SET id = id");
	for (m = 0; m < BS_M_BONNIE; m++) {
		for (k = 0; k < BS_STORE_METRIC_NCOLS; k++) {
			if (k == 1)
				continue; /* the status */
			bs_buf_addf(&q, ", %s%s", bs_metrics[m].key, sfx[k]);
			bs_buf_addf(&u, ", %s%s = ?", bs_metrics[m].key,
				    sfx[k]);
		}
	}
	bs_buf_addf(&q, " FROM runs WHERE format = '%s'", BS_FMT_BSTORE_RUN);
	bs_buf_adds(&u, " WHERE id = ?");
	if (bs_db_prepare(st->db, bs_buf_str(&q), 0, &sel, &dbe) < 0 ||
	    bs_db_prepare(st->db, bs_buf_str(&u), 0, &upd, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot upgrade bstore runs",
				      &dbe);
		goto out;
	}
	while ((step = bs_db_step(sel)) == BS_DB_ROW) {
		c = 1;
		for (m = 0; m < BS_M_BONNIE; m++) {
			for (k = 0; k < 3; k++, c++) {
				double v;
				if (bs_db_column_type(sel, c) == BS_DB_NULL) {
					bs_db_bind_null(upd, c);
					continue;
				}
				v = bs_db_column_double(sel, c);
				v = k == 0   ? bs_bonnie_round(m, v)
				    : k == 1 ? bs_bonnie_round_cpu(v)
					     : bs_bonnie_round_latency(v);
				bs_db_bind_double(upd, c, v);
			}
		}
		bs_db_bind_int64(upd, c, bs_db_column_int64(sel, 0));
		step = bs_db_step(upd);
		bs_db_reset(upd);
		if (step != BS_DB_DONE)
			break;
	}
	if (step != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot upgrade bstore runs");
out:
	bs_db_finalize(sel);
	bs_db_finalize(upd);
	bs_buf_release(&q);
	bs_buf_release(&u);
	return rc;
}

/*
 * A tag whose key became a run field (version 2 added "family" and "id")
 * could no longer be selected: a selector reads the field. Such a tag is
 * kept as "tag.KEY". The rename skips a run that has "tag.KEY" already,
 * which then keeps its old tag as it was.
 */
static int rename_field_tags(struct bs_store *st, struct bs_err *err)
{
	struct bs_buf q = BS_BUF_INIT;
	size_t i;
	int rc;

	bs_buf_adds(&q, "UPDATE OR IGNORE tags SET key = 'tag.' || key "
			"WHERE key IN (");
	for (i = 0; i < bs_sel_nfields; i++)
		bs_buf_addf(&q, "%s'%s'", i ? ", " : "", bs_sel_fields[i].key);
	bs_buf_adds(&q, ")");
	rc = bs_store_exec(st, bs_buf_str(&q), err);
	bs_buf_release(&q);
	return rc;
}

/*
 * Version 1: bonnie++ only. Version 2 adds runs.family, run_results,
 * run_params, series, the catalogue tables with a family column (the old
 * metrics table held bonnie++'s twelve tests, and latency referred to
 * it), meta, and views whose rate columns are numbers only.
 */
static int upgrade_1_2(struct bs_store *st, struct bs_err *err)
{
	int rc;

	rc = bs_store_exec(st,
			   "DROP VIEW bonnie; DROP VIEW results;"
			   "ALTER TABLE runs ADD COLUMN family TEXT NOT NULL "
			   "DEFAULT 'bonnie';"
			   /* version 4's, before its index is created */
			   "ALTER TABLE runs ADD COLUMN measure_key INTEGER;"
			   "ALTER TABLE latency RENAME TO latency_v1;"
			   "ALTER TABLE metrics RENAME TO metrics_v1;",
			   err);
	if (rc == 0)
		rc = create_missing(st, OBJ_TABLE | OBJ_INDEX, err);
	if (rc == 0)
		rc = bs_store_exec(
			st,
			"INSERT INTO latency (run_id, metric, "
			"mean_us, p50_us, p99_us) SELECT run_id, "
			"metric, mean_us, p50_us, p99_us FROM "
			"latency_v1 WHERE run_id IN (SELECT id "
			"FROM runs);"
			"DROP TABLE latency_v1; DROP TABLE metrics_v1;",
			err);
	if (rc == 0)
		rc = bs_store_exec(st, fix_file_spec, err);
	if (rc == 0)
		rc = rename_field_tags(st, err);
	if (rc == 0)
		rc = round_bstore_runs(st, err);
	return rc;
}

/*
 * Version 3 adds saved_reports and saved_report_args (bstore report
 * --save): new tables only, which build() creates from schema.sql.
 */

/*
 * Version 4 adds run_history (bstore set; a new table, created from
 * schema.sql) and runs.measure_key with its index, filled here for the
 * runs stored before, so that a table ingested after its CSV line (or
 * the other way round) is found as the same measurement.
 */
struct fill_ctx {
	struct bs_store *st;
	struct bs_db_stmt *upd;
};

static int fill_key(const struct bs_run *r, void *vctx)
{
	struct fill_ctx *c = vctx;
	int64_t key = bs_store_measure_key(r);
	int rc;

	if (key == 0)
		return 0;
	bs_db_bind_int64(c->upd, 1, key);
	bs_db_bind_int64(c->upd, 2, r->id);
	rc = bs_db_step(c->upd);
	bs_db_reset(c->upd);
	return rc == BS_DB_DONE ? 0 : -BS_EDB;
}

static int fill_measure_keys(struct bs_store *st, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct fill_ctx c = {st, NULL};
	int rc;

	if (bs_db_prepare(st->db,
			  "UPDATE runs SET measure_key = ? WHERE id = ?", 0,
			  &c.upd, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot upgrade runs", &dbe);
	rc = bs_store_each(st, NULL, 0, fill_key, &c, err);
	if (rc < 0 && err->code == 0)
		rc = bs_store_db_error(st, err, "cannot upgrade runs");
	bs_db_finalize(c.upd);
	return rc;
}

/*
 * Version 5: O_DIRECT and bonnie++'s -b are parameters (direct, fsync),
 * which every view's test identity reads (core/identity.h). bstore run
 * and bstore zcav recorded them as tags (run.direct=1, run.fsync=1,
 * zcav.direct=0 or 1), and bstore run always knew them: its runs without
 * the tag ran without. The tags stay, as every tag does.
 */
static int method_params(struct bs_store *st, struct bs_err *err)
{
	static const char *const sql[] = {
		"UPDATE runs SET direct = 1 WHERE id IN (SELECT run_id FROM "
		"tags WHERE key = 'run.direct' AND value = '1')",
		"UPDATE runs SET fsync = 1 WHERE id IN (SELECT run_id FROM "
		"tags WHERE key = 'run.fsync' AND value = '1')",
		"UPDATE runs SET direct = 0 WHERE format = 'bstore-run' AND "
		"direct IS NULL",
		"UPDATE runs SET fsync = 0 WHERE format = 'bstore-run' AND "
		"fsync IS NULL",
		"INSERT INTO run_params (run_id, key, value) SELECT run_id, "
		"'direct', 1 FROM tags WHERE key = 'zcav.direct' AND value = "
		"'1' ON CONFLICT DO NOTHING",
		"INSERT INTO run_params (run_id, key, value) SELECT run_id, "
		"'direct', 0 FROM tags WHERE key = 'zcav.direct' AND value = "
		"'0' ON CONFLICT DO NOTHING",
	};
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]) && rc == 0; i++)
		rc = bs_store_exec(st, sql[i], err);
	return rc;
}

/* ---- version 6 to 7: distributions ------------------------------------ */

/*
 * Moves every histogram kept as series rows (one a bin: fio json+'s
 * "<dir>_<kind>_hist", sysbench's and bstore fileio's latency_histogram)
 * into its one row of distributions, bins packed losslessly (core/dist.h),
 * and removes those series rows. A row whose metric the catalogue does not
 * know for its run's family stays in series.
 */
static int flush_dist(struct bs_store *st, struct bs_db_stmt *ins, int64_t id,
		      struct bs_series *s, struct bs_err *err)
{
	int rc = 0;

	if (s->metric >= 0 && s->n > 0)
		rc = bs_store_put_dist(st, ins, id, s, err);
	s->n = 0;
	s->metric = -1;
	return rc;
}

static int move_distributions(struct bs_store *st, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *q = NULL, *ins = NULL;
	struct bs_series s;
	char *key = NULL;
	int64_t id = -1;
	int i, n = 0, rc = 0, step;

	memset(&s, 0, sizeof(s));
	s.metric = -1;
	bs_buf_adds(&sql, "SELECT s.run_id, r.family, s.metric, s.axis, s.x, "
			  "s.y, s.seconds FROM series s JOIN runs r ON r.id = "
			  "s.run_id WHERE s.metric IN (");
	for (i = 0; i < bs_nmetrics; i++) {
		if (!bs_dist_metric(i))
			continue;
		bs_buf_addf(&sql, "%s'%s'", n++ ? ", " : "", bs_metrics[i].key);
	}
	bs_buf_adds(&sql, ") ORDER BY s.run_id, s.metric, s.seq");
	if (n == 0)
		goto out;
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &q, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "INSERT INTO distributions (run_id, metric, "
			  "direction, kind, scheme, axis, nbins, bins) VALUES "
			  "(?, ?, ?, ?, ?, ?, ?, ?)",
			  0, &ins, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot move distributions",
				      &dbe);
		goto out;
	}
	while (rc == 0 && (step = bs_db_step(q)) == BS_DB_ROW) {
		int64_t rid = bs_db_column_int64(q, 0);
		const char *fam = bs_db_column_text(q, 1);
		const char *k = bs_db_column_text(q, 2);
		const char *axis = bs_db_column_text(q, 3);
		enum bs_family f;
		int m = -1;

		if (rid != id || key == NULL || k == NULL || strcmp(k, key)) {
			rc = flush_dist(st, ins, id, &s, err);
			id = rid;
			free(key);
			key = xstrdup(k ? k : "");
			if (fam && bs_family_parse(fam, &f) == 0 && k)
				m = bs_metric_find(f, k);
			if (bs_dist_metric(m)) {
				s.metric = m;
				free(s.axis);
				s.axis = xstrdup(axis ? axis : "");
			}
		}
		if (s.metric >= 0)
			bs_series_point(&s, bs_db_column_double(q, 4),
					bs_db_column_type(q, 5) == BS_DB_NULL
						? NAN
						: bs_db_column_double(q, 5),
					bs_db_column_type(q, 6) == BS_DB_NULL
						? NAN
						: bs_db_column_double(q, 6));
	}
	if (rc == 0 && step != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot move distributions");
	if (rc == 0)
		rc = flush_dist(st, ins, id, &s, err);
	bs_db_finalize(q);
	q = NULL;
	if (rc == 0)
		rc = bs_store_exec(st,
				   "DELETE FROM series WHERE EXISTS (SELECT 1 "
				   "FROM distributions d WHERE d.run_id = "
				   "series.run_id AND d.metric = series.metric)",
				   err);
out:
	bs_db_finalize(q);
	bs_db_finalize(ins);
	free(key);
	free(s.axis);
	free(s.pt);
	bs_buf_release(&sql);
	return rc;
}

/* ---- opening ---------------------------------------------------------- */

/* Brings a version v archive (0: new and empty) to BS_SCHEMA_VERSION
 * inside the caller's write transaction. */
static int build(struct bs_store *st, int v, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	char fp[17];
	int rc = 0;

	/* A user's own view over bonnie, results or latency stays as it
	 * is (the SQLite row's before_upgrade saw to it). */
	if (v == 1) {
		rc = upgrade_1_2(st, err);
	} else if (v == 2 || v == 3) {
		rc = bs_store_exec(st,
				   "ALTER TABLE runs ADD COLUMN measure_key "
				   "INTEGER",
				   err);
	}
	/* Version 5 keys params by family and key (refilled below), and
	 * runs has the bonnie family's direct and fsync. */
	if (rc == 0 && v >= 1 && v < 5)
		rc = bs_store_exec(st, "DROP TABLE params", err);
	if (rc == 0 && v >= 1 && v < 5)
		rc = bs_store_exec(st,
				   "ALTER TABLE runs ADD COLUMN direct "
				   "INTEGER",
				   err);
	if (rc == 0 && v >= 1 && v < 5)
		rc = bs_store_exec(st,
				   "ALTER TABLE runs ADD COLUMN fsync "
				   "INTEGER",
				   err);
	/* Version 6: which parameters the user supplied (core/supply.h);
	 * every value stored before was the tool's. */
	if (rc == 0 && v >= 1 && v < 6)
		rc = bs_store_exec(st,
				   "ALTER TABLE runs ADD COLUMN supplied "
				   "TEXT",
				   err);
	if (rc == 0)
		rc = create_missing(st, OBJ_TABLE | OBJ_INDEX | OBJ_VIEW, err);
	if (rc == 0 && v >= 1 && v < 4)
		rc = fill_measure_keys(st, err);
	if (rc == 0 && v >= 1 && v < 5)
		rc = method_params(st, err);
	/* Version 7: histograms from series rows into distributions. */
	if (rc == 0 && v >= 1 && v < 7)
		rc = move_distributions(st, err);
	/* What a cache (store/cache.c) kept was computed by the old schema's
	 * bstore. */
	if (rc == 0 && v >= 1)
		rc = bs_store_cache_drop(st, err);
	fingerprint(fp);
	if (rc == 0)
		rc = fill_catalogue(st, fp, err);
	if (rc == 0 && bs_db_set_version(st->db, BS_SCHEMA_VERSION, &dbe) < 0)
		rc = bs_store_db_fail(st, err,
				      "cannot record the schema "
				      "version",
				      &dbe);
	return rc;
}

/*
 * Before an archive of version v (older) is upgraded: the engine says
 * whether it may be, and keeps what it keeps of the old one (SQLite: a
 * copy, PATH.vV.bak).
 */
static int before_upgrade(struct bs_store *st, int v, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_before_upgrade(st->db, v, &dbe) == 0)
		return 0;
	return bs_store_open_error(st, err, &dbe);
}

/* Whether the catalogue tables are bstore's current catalogue. */
static int catalogue_current(struct bs_store *st, int *current,
			     struct bs_err *err)
{
	char want[17], have[17];
	int rc;

	fingerprint(want);
	rc = stored_fingerprint(st, have, err);
	*current = rc == 0 && strcmp(want, have) == 0;
	return rc;
}

/*
 * The schema version, and for version 0 how many objects the file holds,
 * read in one transaction: a reader racing the writer that creates a new
 * archive sees it before or after, never a version 0 file with tables.
 */
static int read_version(struct bs_store *st, int *v, int *n, struct bs_err *err)
{
	int rc;

	*n = 0;
	rc = bs_store_exec(st, "BEGIN", err);
	if (rc == 0)
		rc = user_version(st, v, err);
	if (rc == 0 && *v == 0)
		rc = count_schema(st, n, err);
	bs_db_exec(st->db, "COMMIT", NULL);
	return rc;
}

/* A role that may write rows but owns nothing (docs/team.md's hosts')
 * cannot make the schema (v 0) or upgrade it: said so, with who can. */
static void no_privilege(struct bs_store *st, int v, struct bs_err *err)
{
	char why[BS_ERR_MSG_MAX];

	snprintf(why, sizeof(why), "%s", bs_store_db_reason(st));
	bs_err_reset(err);
	bs_error(err, BS_EDB,
		 "cannot %s archive '%s': %s; the archive's owner does, with "
		 "its first command that writes (docs/team.md)",
		 v == 0 ? "make the tables of" : "upgrade", st->path, why);
}

int bs_store_schema(struct bs_store *st, int readonly, struct bs_err *err)
{
	int v, n, rc, current = 1;

	rc = read_version(st, &v, &n, err);
	if (rc < 0)
		return rc;
	if (v == BS_SCHEMA_VERSION && !readonly)
		rc = catalogue_current(st, &current, err);
	if (rc < 0 || (v == BS_SCHEMA_VERSION && current))
		return rc;
	if (v > BS_SCHEMA_VERSION || (v == 0 && readonly))
		return wrong_version(st, v, n, err);
	if (v > 0 && v < BS_SCHEMA_VERSION && st->no_upgrade)
		return bs_error(err, BS_EDB,
				"cannot read archive '%s': it was made by an "
				"older bstore (schema version %d, this one "
				"writes %d) and is read here without being "
				"changed; upgrade it first by opening it once "
				"(bstore --db '%s' list)",
				st->path, v, BS_SCHEMA_VERSION, st->path);
	if (v > 0 && v < BS_SCHEMA_VERSION) {
		rc = before_upgrade(st, v, err);
		if (rc < 0)
			return rc;
	}
	/* Two processes may open a new archive at once: the first to get
	 * the write lock creates the schema, the other then finds it
	 * there. */
	rc = bs_store_exec_wait(st, bs_db_begin_write_sql(st->db), err);
	if (rc < 0)
		return rc;
	rc = user_version(st, &v, err);
	if (rc < 0)
		goto out;
	if (v == BS_SCHEMA_VERSION) {
		rc = catalogue_current(st, &current, err);
		if (rc == 0 && !current) {
			char fp[17];
			fingerprint(fp);
			rc = fill_catalogue(st, fp, err);
		}
	} else if (v == 0) {
		/* Version 0 with tables in it is somebody else's database. */
		rc = count_schema(st, &n, err);
		if (rc == 0 && n != 0)
			rc = wrong_version(st, v, n, err);
		else if (rc == 0)
			rc = build(st, 0, err);
	} else if (v < BS_SCHEMA_VERSION) {
		rc = build(st, v, err);
		if (rc == 0)
			st->upgraded_from = v;
	} else {
		rc = wrong_version(st, v, 0, err);
	}
	if (rc < 0 && bs_db_errkind(st->db) == BS_DB_EREADONLY)
		no_privilege(st, v, err);
	if (rc == 0)
		rc = bs_store_exec(st, "COMMIT", err);
out:
	if (rc < 0)
		bs_db_exec(st->db, "ROLLBACK", NULL);
	return rc;
}
