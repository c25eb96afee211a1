/*
 * tests/unit/test_schema.c - the tables that describe the domain, held
 * against the archive's schema and against each other: the parameter
 * table against the columns of runs (PRAGMA table_info), the metric
 * catalogue against the runs columns and the metrics table, the format
 * registry against the formats the parsers write, and a run of every
 * family written and read back through the same functions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/bonnie_text.h"
#include "core/result.h"
#include "core/run_json.h"
#include "ingest/format.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"

static char *new_archive(const char *name)
{
	const char *dir = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;

	if (dir == NULL)
		dir = ".";
	mkdir(dir, 0700);
	bs_buf_addf(&b, "%s/test_schema_%s.db", dir, name);
	unlink(bs_buf_str(&b));
	assert_int_equal(bs_store_open(&st, bs_buf_str(&b), 0, &err), 0);
	bs_store_close(st);
	return bs_buf_detach(&b, NULL);
}

/* The columns of runs: name and declared type, in order. */
struct cols {
	char name[128][40];
	char type[128][16];
	int n;
};

static void runs_columns(const char *path, struct cols *c)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;

	memset(c, 0, sizeof(*c));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT name, type FROM "
					    "pragma_table_info('runs')",
					    -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		assert_true(c->n < 128);
		snprintf(c->name[c->n], sizeof(c->name[0]), "%s",
			 (const char *)sqlite3_column_text(s, 0));
		snprintf(c->type[c->n], sizeof(c->type[0]), "%s",
			 (const char *)sqlite3_column_text(s, 1));
		c->n++;
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static int find_col(const struct cols *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	return -1;
}

/* Columns of runs that are neither a parameter nor a result. */
static const char *const own_cols[] = {
	"id",
	"family",
	"tool",
	"tool_version",
	"format",
	"machine",
	"measured_at",
	"stored_at",
	"raw",
	"sha256",
	"source",
	"source_line",
	"parser_version",
	"warning",
	"measure_key",
	"supplied",
};

static void test_params_are_the_runs_columns(void **state)
{
	char *path = new_archive("params");
	static const char *const sfx[] = {"", "_status", "_cpu", "_lat_us"};
	unsigned char used[128];
	struct cols c;
	char name[64];
	size_t k;
	int i, m;

	(void)state;
	runs_columns(path, &c);
	memset(used, 0, sizeof(used));
	for (k = 0; k < sizeof(own_cols) / sizeof(own_cols[0]); k++) {
		i = find_col(&c, own_cols[k]);
		if (i < 0)
			fail_msg("runs has no column %s", own_cols[k]);
		used[i] = 1;
	}
	/* Every parameter with a column has it, with its kind's type. */
	for (k = 0; k < (size_t)bs_nparams; k++) {
		const struct bs_param_info *p = &bs_param_table[k];
		const char *want;
		if (p->column == NULL) {
			assert_true(p->family != BS_FAM_BONNIE);
			continue;
		}
		i = find_col(&c, p->column);
		if (i < 0)
			fail_msg("parameter %s: runs has no column %s", p->key,
				 p->column);
		want = p->kind == BS_PK_TEXT   ? "TEXT"
		       : p->kind == BS_PK_REAL ? "REAL"
					       : "INTEGER";
		if (strcmp(c.type[i], want) != 0)
			fail_msg("column %s is %s, parameter %s wants %s",
				 p->column, c.type[i], p->key, want);
		assert_false(used[i]);
		used[i] = 1;
	}
	/* Every metric stored in columns has its four. */
	for (m = 0; m < bs_nmetrics; m++) {
		if (!(bs_metrics[m].flags & BS_MF_COLUMN))
			continue;
		for (k = 0; k < 4; k++) {
			snprintf(name, sizeof(name), "%s%s", bs_metrics[m].key,
				 sfx[k]);
			i = find_col(&c, name);
			if (i < 0)
				fail_msg("metric %s: runs has no column %s",
					 bs_metrics[m].key, name);
			assert_false(used[i]);
			used[i] = 1;
		}
	}
	/* And nothing else: a column is one of the tables' or the run's. */
	for (i = 0; i < c.n; i++)
		if (!used[i])
			fail_msg("runs column %s is in no table", c.name[i]);
	free(path);
}

static void test_catalogue(void **state)
{
	static const char *const bonnie[] = {
		"putc",      "put_block",  "rewrite",    "getc",
		"get_block", "seeks",      "seq_create", "seq_stat",
		"seq_del",   "ran_create", "ran_stat",   "ran_del",
	};
	int m, k;

	(void)state;
	assert_true(bs_nmetrics <= BS_M_MAX);
	/* bonnie++'s tests are the first rows, in its column order. */
	for (m = 0; m < BS_M_BONNIE; m++) {
		assert_string_equal(bs_metrics[m].key, bonnie[m]);
		assert_int_equal(bs_metrics[m].family, BS_FAM_BONNIE);
		assert_true(bs_metrics[m].flags & BS_MF_COLUMN);
	}
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_metric_info *x = &bs_metrics[m];
		assert_non_null(x->key);
		assert_non_null(x->label);
		assert_non_null(x->title);
		assert_non_null(x->section);
		assert_non_null(x->unit);
		/* Keys are unique within a family; a family is consecutive
		 * rows (the report walks it as a range). */
		assert_int_equal(bs_metric_find(x->family, x->key), m);
		if (m > 0 && bs_metrics[m - 1].family != x->family)
			for (k = 0; k < m; k++)
				assert_int_not_equal(bs_metrics[k].family,
						     x->family);
		/* Only the bonnie family lives in runs' columns. */
		assert_int_equal((x->flags & BS_MF_COLUMN) != 0,
				 x->family == BS_FAM_BONNIE);
		/* Latencies are lower-is-better, rates higher. */
		if (x->category == BS_CAT_LATENCY)
			assert_int_equal(x->better, BS_BETTER_LOWER);
		if (strstr(x->unit, "/s"))
			assert_int_equal(x->better, BS_BETTER_HIGHER);
	}
	/* The keys docs/formats.md promises for each tool. */
	assert_true(bs_metric_find(BS_FAM_SYSBENCH, "reads_per_s") >= 0);
	assert_true(bs_metric_find(BS_FAM_SYSBENCH, "latency_p95_ms") >= 0);
	assert_true(bs_metric_find(BS_FAM_ZCAV, "read_mib_s") >= 0);
	assert_true(bs_metric_find(BS_FAM_FIO, "write_clat_p99_9_us") >= 0);
	assert_true(bs_metric_find(BS_FAM_DD, "write_kib_s") >= 0);
	assert_true(bs_metric_find(BS_FAM_GETC_PUTC, "putc_unlocked") >= 0);
	assert_int_equal(bs_metric_find(BS_FAM_BONNIE, "reads_per_s"), -1);
	for (k = 0; k < bs_nparams; k++)
		assert_int_equal(bs_param_find_in(bs_param_table[k].family,
						  bs_param_table[k].key),
				 k);
}

/* Every metric and parameter has a limit, and a tool's defaults and
 * bonnie++'s own values are within it. */
static void test_limits(void **state)
{
	const char *unit;
	int m, k;

	(void)state;
	for (m = 0; m < bs_nmetrics; m++) {
		assert_true(isfinite(bs_metrics[m].max));
		assert_true(bs_metrics[m].max >= 1000);
		assert_true(bs_metric_fits(m, BS_PART_VALUE, 0));
		assert_true(
			bs_metric_fits(m, BS_PART_VALUE, bs_metrics[m].max));
		assert_false(bs_metric_fits(m, BS_PART_VALUE, -1));
		assert_false(bs_metric_fits(m, BS_PART_VALUE, NAN));
		assert_false(bs_metric_fits(m, BS_PART_VALUE, INFINITY));
		assert_true(bs_metric_limit(m, BS_PART_VALUE, &unit) ==
			    bs_metrics[m].max);
		assert_string_equal(unit, bs_metrics[m].unit);
	}
	/* bonnie++'s seek test prints %CPU far over 100 (2046 is real). */
	assert_true(bs_metric_fits(BS_M_SEEKS, BS_PART_CPU, 2046));
	assert_false(bs_metric_fits(BS_M_SEEKS, BS_PART_CPU, 1e308));
	assert_true(bs_metric_limit(BS_M_PUTC, BS_PART_LATENCY, &unit) ==
		    BS_LAT_US_MAX);
	assert_string_equal(unit, "us");
	for (k = 0; k < bs_nparams; k++) {
		const struct bs_param_info *pi = &bs_param_table[k];

		/* Families share the field of a key ("direct"). */
		assert_string_equal(bs_param_table[bs_param_at(pi->offset)].key,
				    pi->key);
		if (pi->kind == BS_PK_TEXT) {
			assert_true(pi->max == BS_NONE);
			continue;
		}
		assert_true(pi->max >= 1);
		if (pi->kind == BS_PK_BOOL)
			assert_true(pi->max == 1);
		if (pi->kind == BS_PK_REAL) {
			assert_true(bs_param_fits_real(k, (double)pi->max));
			assert_false(bs_param_fits_real(k, NAN));
			assert_false(bs_param_fits_real(k, -0.5));
			continue;
		}
		assert_true(bs_param_fits(k, 0));
		assert_true(bs_param_fits(k, pi->max));
		assert_false(bs_param_fits(k, pi->max + 1));
		assert_false(bs_param_fits(k, -3));
		if (pi->dflt != BS_NONE)
			assert_true(bs_param_fits(k, pi->dflt));
	}
	assert_true(bs_param_fits(bs_param_find("max_size"), BS_SIZE_LINK));
	assert_true(bs_param_fits(bs_param_find("max_size"), BS_SIZE_SYMLINK));
	assert_int_equal(bs_param_at(1), -1);
}

/* The metrics and params tables hold the catalogue, row for row. */
static void test_catalogue_tables(void **state)
{
	char *path = new_archive("tables");
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int n = 0;

	(void)state;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT family, key, label, unit, "
					    "ifnull(better, ''), category, "
					    "cpu_latency FROM metrics ORDER "
					    "BY position",
					    -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const struct bs_metric_info *x = &bs_metrics[n++];
		const char *b = bs_better_name(x->better);
		assert_string_equal(sqlite3_column_text(s, 0),
				    bs_family_name(x->family));
		assert_string_equal(sqlite3_column_text(s, 1), x->key);
		assert_string_equal(sqlite3_column_text(s, 2), x->label);
		assert_string_equal(sqlite3_column_text(s, 3), x->unit);
		assert_string_equal(sqlite3_column_text(s, 4), b ? b : "");
		assert_string_equal(sqlite3_column_text(s, 5),
				    bs_category_name(x->category));
		assert_int_equal(sqlite3_column_int(s, 6),
				 (x->flags & BS_MF_CPU_LAT) != 0);
	}
	assert_int_equal(n, bs_nmetrics);
	sqlite3_finalize(s);
	n = 0;
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT key, family, "
					    "ifnull(runs_column, '') FROM "
					    "params ORDER BY position",
					    -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const struct bs_param_info *p = &bs_param_table[n++];
		assert_string_equal(sqlite3_column_text(s, 0), p->key);
		assert_string_equal(sqlite3_column_text(s, 1),
				    bs_family_name(p->family));
		assert_string_equal(sqlite3_column_text(s, 2),
				    p->column ? p->column : "");
	}
	assert_int_equal(n, bs_nparams);
	sqlite3_finalize(s);
	/* The results view gives bonnie++'s twelve keys for its runs:
	 * checked on an empty archive through the view's text. */
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT sql FROM sqlite_schema "
					    "WHERE name = 'results'",
					    -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	for (n = 0; n < BS_M_BONNIE; n++) {
		char want[64];
		snprintf(want, sizeof(want), "'%s' AS metric",
			 bs_metrics[n].key);
		if (strstr((const char *)sqlite3_column_text(s, 0), want) ==
		    NULL)
			fail_msg("the results view lacks %s", want);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	free(path);
}

/*
 * A run of each family with every parameter and metric set goes through
 * the store and comes back equal; its JSON names every key of its family.
 */
static void fill_family(struct bs_run *r, enum bs_family f, int salt)
{
	char raw[64];
	int k, m;

	bs_run_init(r);
	r->family = f;
	bs_run_set(&r->tool, bs_family_name(f));
	bs_run_set(&r->tool_version, "9.9");
	/* bonnie's is bstore run's: the one with latency distributions. */
	bs_run_set(&r->format, f == BS_FAM_BONNIE ? BS_FMT_BSTORE_RUN : "test");
	bs_run_set(&r->machine, "m");
	snprintf(raw, sizeof(raw), "family %s %d", bs_family_name(f), salt);
	bs_run_set(&r->raw, raw);
	bs_run_set(&r->source, "t");
	bs_run_set(&r->parser_version, "test");
	for (k = 0; k < bs_nparams; k++) {
		if (bs_param_table[k].family != f)
			continue;
		switch (bs_param_table[k].kind) {
		case BS_PK_TEXT:
			bs_run_set(bs_param_text(&r->params, k),
				   bs_param_table[k].key);
			break;
		case BS_PK_REAL:
			*bs_param_real(&r->params, k) = 1.5 + k;
			break;
		case BS_PK_BOOL:
			*bs_param_i64(&r->params, k) = k & 1;
			break;
		default:
			*bs_param_i64(&r->params, k) = 1000 + k;
			break;
		}
	}
	for (m = 0; m < bs_nmetrics; m++) {
		struct bs_value *v = &r->res[m];
		if (bs_metrics[m].family != f)
			continue;
		v->status = m % 5 == 1 ? BS_ST_TOO_FAST : BS_ST_OK;
		if (v->status == BS_ST_OK)
			v->value = 10.25 * (m + 1);
		if (bs_metrics[m].flags & BS_MF_CPU_LAT) {
			v->cpu_pct = v->status == BS_ST_OK ? 5 : NAN;
			v->lat_us = 1000 + m;
		}
		if (f == BS_FAM_BONNIE) {
			v->lat_mean_us = 100.5 + m;
			v->lat_p50_us = 90 + m;
			v->lat_p99_us = 900 + m;
		}
	}
	if (f == BS_FAM_ZCAV) {
		struct bs_series *s =
			bs_run_series_add(r, bs_metric_find(f, "read_mib_s"),
					  "offset_gib");
		bs_series_point(s, 0, 160.3, 3.194);
		bs_series_point(s, 0.5, NAN, 0.004);
		bs_series_point(s, 1.0, 150.25, 3.4);
	}
}

/* A run read back: its JSON, and its raw text, which JSON leaves out. */
static int take(const struct bs_run *r, void *ctx)
{
	struct bs_buf *got = ctx;

	bs_buf_reset(got);
	bs_run_json(r, got);
	bs_buf_addf(got, "\nraw: %s", r->raw);
	return 0;
}

static void test_every_family_round_trips(void **state)
{
	char *path = new_archive("families");
	struct bs_buf want = BS_BUF_INIT, got = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_run r;
	int f, m;

	(void)state;
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	for (f = 0; f < BS_FAM_COUNT; f++) {
		fill_family(&r, (enum bs_family)f, f);
		assert_int_equal(bs_store_begin(st, &err), 0);
		assert_int_equal(bs_store_put(st, &r, NULL, &err), 0);
		assert_int_equal(bs_store_commit(st, &err), 0);
		bs_buf_reset(&want);
		bs_run_json(&r, &want);
		bs_buf_addf(&want, "\nraw: %s", r.raw);
		ids.n = 0;
		assert_int_equal(bs_store_select(st, "last", &ids, &err), 0);
		assert_int_equal(bs_store_each(st, &ids, BS_LOAD_ALL, take,
					       &got, &err),
				 0);
		assert_string_equal(bs_buf_str(&got), bs_buf_str(&want));
		/* Every key of the family, and no other family's. */
		for (m = 0; m < bs_nmetrics; m++) {
			char key[64];
			snprintf(key, sizeof(key), "\"%s\":{\"value\"",
				 bs_metrics[m].key);
			/* A metric that is only a series (fio's
			 * histograms) has no result to export. */
			if ((int)bs_metrics[m].family == f &&
			    (bs_metrics[m].flags & BS_MF_NOVALUE))
				assert_null(strstr(bs_buf_str(&got), key));
			else if ((int)bs_metrics[m].family == f)
				assert_non_null(strstr(bs_buf_str(&got), key));
			else if (bs_metric_find((enum bs_family)f,
						bs_metrics[m].key) < 0)
				assert_null(strstr(bs_buf_str(&got), key));
		}
		/* Its params object (flat) holds no other family's. */
		{
			const char *p;
			char *obj;

			p = strstr(bs_buf_str(&got), "\"params\":{");
			assert_non_null(p);
			obj = xstrndup(p, strcspn(p, "}"));
			for (m = 0; m < bs_nparams; m++) {
				char key[64];
				snprintf(key, sizeof(key),
					 "\"%s\":", bs_param_table[m].key);
				if (bs_param_find_in((enum bs_family)f,
						     bs_param_table[m].key) >=
				    0)
					assert_non_null(strstr(obj, key));
				else
					assert_null(strstr(obj, key));
			}
			free(obj);
		}
		/* bstore run's latency distributions came back. */
		if (f == BS_FAM_BONNIE)
			assert_non_null(strstr(bs_buf_str(&got),
					       "\"latency_mean_us\":100.5,"
					       "\"latency_p50_us\":90,"
					       "\"latency_p99_us\":900"));
		/* A zcav curve keeps its too-fast block as null. */
		if (f == BS_FAM_ZCAV)
			assert_non_null(strstr(bs_buf_str(&got),
					       "{\"offset_gib\":0.5,\"mib_s\":"
					       "null,\"seconds\":0.004}"));
		bs_run_release(&r);
	}
	bs_ids_release(&ids);
	bs_store_close(st);
	bs_buf_release(&want);
	bs_buf_release(&got);
	free(path);
}

/* The registry: names unique, and what bonnie++ writes is in it. */
static void test_registry(void **state)
{
	int i, k;

	(void)state;
	for (i = 0; i < bs_nformats; i++) {
		assert_ptr_equal(bs_format_find(bs_formats[i].name),
				 &bs_formats[i]);
		for (k = 0; k < i; k++)
			assert_string_not_equal(bs_formats[k].name,
						bs_formats[i].name);
		/* A line format has a probe and a parse; a block format
		 * its ops, whole, and neither. */
		if (bs_formats[i].block) {
			assert_null(bs_formats[i].probe);
			assert_null(bs_formats[i].parse);
			assert_non_null(bs_formats[i].block->start);
			assert_non_null(bs_formats[i].block->more);
			assert_non_null(bs_formats[i].block->parse);
		} else {
			assert_non_null(bs_formats[i].probe);
			assert_non_null(bs_formats[i].parse);
		}
		assert_true(strlen(bs_formats[i].about) > 10);
	}
	assert_non_null(bs_format_find(BS_FMT_CSV_1_98));
	assert_non_null(bs_format_find(BS_FMT_CSV_1_0X));
	assert_null(bs_format_find("bonnie++-csv-9.99"));
}

/* Whether one line of text holds both `name` and the number num (not
 * as a part of a longer number). */
static int line_states(const char *text, const char *name, const char *num)
{
	char want[80];
	const char *line = text;

	snprintf(want, sizeof(want), "`%s`", name);
	while (*line) {
		size_t len = strcspn(line, "\n");
		const char *p = line, *end = line + len;
		int named = 0, numbered = 0;

		for (; p < end; p++) {
			size_t n = strlen(num);

			if (strncmp(p, want, strlen(want)) == 0 &&
			    p + strlen(want) <= end)
				named = 1;
			if (strncmp(p, num, n) == 0 && p + n <= end &&
			    (p == line || p[-1] < '0' || p[-1] > '9') &&
			    (p[n] < '0' || p[n] > '9'))
				numbered = 1;
		}
		if (named && numbered)
			return 1;
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* docs/formats.md, the contract users' scripts read, into text. */
static void read_formats_md(struct bs_buf *text)
{
	struct bs_buf path = BS_BUF_INIT;
	const char *src = getenv("SRC");
	char buf[4096];
	FILE *f;
	size_t n;

	assert_non_null(src);
	bs_buf_addf(&path, "%s/docs/formats.md", src);
	f = fopen(bs_buf_str(&path), "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		bs_buf_add(text, buf, n);
	fclose(f);
	bs_buf_release(&path);
}

/* docs/formats.md's "Limits" states each limit as the tables have it:
 * a metric's on a line naming its unit (or key), a parameter's on a line
 * naming its key. */
static void test_docs_state_every_limit(void **state)
{
	struct bs_buf text = BS_BUF_INIT;
	char num[64];
	const char *sec, *end;
	char *limits;
	int i;

	(void)state;
	read_formats_md(&text);
	sec = strstr(bs_buf_str(&text), "\n## Limits");
	assert_non_null(sec);
	end = strstr(sec + 1, "\n## ");
	limits = xstrndup(sec, end ? (size_t)(end - sec) : strlen(sec));
	for (i = 0; i < bs_nmetrics; i++) {
		const struct bs_metric_info *x = &bs_metrics[i];

		snprintf(num, sizeof(num), "%.0f", x->max);
		if (!(x->unit[0] && line_states(limits, x->unit, num)) &&
		    !line_states(limits, x->key, num))
			fail_msg("docs/formats.md's Limits do not give %s "
				 "(%s) at most %s",
				 x->key, x->unit, num);
	}
	snprintf(num, sizeof(num), "%.0f", BS_CPU_PCT_MAX);
	assert_true(line_states(limits, "cpu_pct", num));
	snprintf(num, sizeof(num), "%.0f", BS_LAT_US_MAX);
	assert_true(line_states(limits, "latency_us", num));
	for (i = 0; i < bs_nparams; i++) {
		const struct bs_param_info *pi = &bs_param_table[i];

		if (pi->kind == BS_PK_TEXT)
			continue;
		snprintf(num, sizeof(num), "%lld", (long long)pi->max);
		if (!line_states(limits, pi->key, num))
			fail_msg("docs/formats.md's Limits do not give %s at "
				 "most %s",
				 pi->key, num);
	}
	free(limits);
	bs_buf_release(&text);
}

/* docs/formats.md, the contract users' scripts read, names every key. */
static void test_docs_name_every_key(void **state)
{
	struct bs_buf text = BS_BUF_INIT;
	char want[80];
	int i;

	(void)state;
	read_formats_md(&text);
	for (i = 0; i < bs_nmetrics; i++) {
		snprintf(want, sizeof(want), "`%s`", bs_metrics[i].key);
		if (strstr(bs_buf_str(&text), want) == NULL)
			fail_msg("docs/formats.md does not name the metric %s",
				 want);
	}
	for (i = 0; i < bs_nparams; i++) {
		snprintf(want, sizeof(want), "`%s`", bs_param_table[i].key);
		if (strstr(bs_buf_str(&text), want) == NULL)
			fail_msg("docs/formats.md does not name the parameter "
				 "%s",
				 want);
	}
	for (i = 0; i < BS_FAM_COUNT; i++) {
		snprintf(want, sizeof(want), "`%s`",
			 bs_family_name((enum bs_family)i));
		assert_non_null(strstr(bs_buf_str(&text), want));
	}
	bs_buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_are_the_runs_columns),
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_catalogue_tables),
		cmocka_unit_test(test_every_family_round_trips),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_docs_name_every_key),
		cmocka_unit_test(test_docs_state_every_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
