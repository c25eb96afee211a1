/*
 * tests/unit/test_report_curves.c - zcav's curves in reports: runs with
 * curves stored through the store and read back by selector, the curves
 * the model keeps (their summaries against numbers worked out here from
 * the points), the bounds and how groups share them, and each format's
 * content: the text summary tables, the CSV and JSON points, the HTML
 * chart (its lines inside the plot, a gap for a block too fast to time,
 * a style per group, everything escaped).
 */
#include <float.h>
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
#include <jansson.h>

#include "core/bonnie_text.h"
#include "core/result.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/tmpl/tmpl.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/banned.h"

/* ---- an archive of zcav runs ----------------------------------------- */

/* One run: its curves are made from these numbers by curve_y(). */
struct zrun {
	const char *machine, *raid;
	int write; /* a -w run: write_mib_s, else read_mib_s */
	int npoints;
	double top;   /* MiB/s at offset 0 */
	int too_fast; /* index of a "++++" block, or -1 */
};

/* clang-format off */
static const struct zrun zruns[] = {
	{ "box1", "10", 0, 40, 210, 3 },
	{ "box1", "10", 0, 40, 205, -1 },
	{ "<b>box2</b>", "5", 0, 24, 160, 0 },
	{ "<b>box2</b>", "5", 1, 24, 150, -1 },
};
/* clang-format on */
#define NZRUNS (sizeof(zruns) / sizeof(zruns[0]))
#define BLOCK_MIB 512.0

/* A disk slows towards its inner tracks; a little noise on top. */
static double curve_y(const struct zrun *z, int i)
{
	if (i == z->too_fast)
		return NAN;
	return z->top - 2.75 * i + 3.0 * sin(i * 1.7);
}

static double curve_x(int i)
{
	return i * BLOCK_MIB / 1024.0;
}

static double curve_s(const struct zrun *z, int i)
{
	double y = curve_y(z, i);

	return isnan(y) ? 0.213 : BLOCK_MIB / y;
}

static void make_zrun(struct bs_run *r, const struct zrun *z, int k)
{
	struct bs_series *s;
	struct bs_buf raw = BS_BUF_INIT;
	double sum = 0;
	int i, n = 0;
	int t = bs_metric_find(BS_FAM_ZCAV,
			       z->write ? "write_mib_s" : "read_mib_s");

	assert_true(t >= 0);
	bs_run_init(r);
	r->family = BS_FAM_ZCAV;
	bs_run_set(&r->tool, "zcav");
	bs_run_set(&r->tool_version, "1.03e");
	bs_run_set(&r->format, "zcav");
	bs_run_set(&r->machine, z->machine);
	bs_run_set(&r->source, "zcav.txt");
	bs_run_set(&r->parser_version, "test");
	bs_run_tag(r, "raid", z->raid);
	s = bs_run_series_add(r, t, "offset_gib");
	bs_buf_addf(&raw, "#loops: 1, version: 1.03e run %d", k);
	for (i = 0; i < z->npoints; i++) {
		double y = curve_y(z, i);
		bs_series_point(s, curve_x(i), y, curve_s(z, i));
		bs_buf_addf(&raw, "\n%.2f %.2f", curve_x(i), y);
		if (!isnan(y)) {
			sum += y;
			n++;
		}
	}
	r->res[t].status = BS_ST_OK;
	r->res[t].value = sum / n;
	bs_run_set(&r->raw, bs_buf_str(&raw));
	bs_buf_release(&raw);
}

static char *scratch_path(const char *name)
{
	const char *dir = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;

	if (dir == NULL)
		dir = ".";
	mkdir(dir, 0700);
	bs_buf_addf(&b, "%s/test_report_curves_%s.db", dir, name);
	unlink(bs_buf_str(&b));
	bs_buf_adds(&b, "-wal");
	unlink(bs_buf_str(&b));
	bs_buf_trim(&b, 4);
	return bs_buf_detach(&b, NULL);
}

/* The groups of a report: one selector each, read from the archive. */
struct store_src {
	struct bs_store *st;
	struct bs_ids ids[4];
};

static int store_each(void *ctx, size_t g, bs_report_run_fn fn, void *fn_ctx,
		      struct bs_err *err)
{
	struct store_src *s = ctx;

	return bs_store_each(s->st, &s->ids[g], BS_LOAD_TAGS | BS_LOAD_SERIES,
			     fn, fn_ctx, err);
}

struct fixture {
	struct store_src src;
	struct bs_report *rep;
	int64_t id[NZRUNS];
};

static const char *const labels[] = {"raid=10", "raid=5"};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct bs_report_source src = {store_each, &f->src};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report_opts o;
	struct bs_run r;
	char *path = scratch_path("zcav");
	size_t k;

	assert_int_equal(bs_store_open(&f->src.st, path, 0, &err), 0);
	free(path);
	assert_int_equal(bs_store_begin(f->src.st, &err), 0);
	for (k = 0; k < NZRUNS; k++) {
		make_zrun(&r, &zruns[k], (int)k);
		assert_int_equal(bs_store_put(f->src.st, &r, NULL, &err), 0);
		f->id[k] = r.id;
		bs_run_release(&r);
	}
	assert_int_equal(bs_store_commit(f->src.st, &err), 0);
	for (k = 0; k < 2; k++)
		assert_int_equal(bs_store_select(f->src.st, labels[k],
						 &f->src.ids[k], &err),
				 0);
	memset(&o, 0, sizeof(o));
	if (bs_report_build(&f->rep, &o, labels, 2, &src, &err) < 0)
		fail_msg("build: %s", err.msg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	size_t k;

	bs_report_free(f->rep);
	for (k = 0; k < 4; k++)
		bs_ids_release(&f->src.ids[k]);
	bs_store_close(f->src.st);
	free(f);
	return 0;
}

static char *render(const struct fixture *f, enum bs_report_format fmt)
{
	struct bs_report_source src = {store_each, (void *)&f->src};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	assert_int_equal(bs_report_templates_load(&ts, NULL, fmt, &err), 0);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	if (bs_report_render(f->rep, ts, fmt, &src, out, &err) < 0)
		fail_msg("render: %s", err.msg);
	fclose(out);
	bs_tmpl_set_free(ts);
	return text;
}

/* What a curve's summary should be, worked out from zruns[k]. */
struct want {
	double first, last, min, mean, max;
	int ok, n;
};

static void want_of(const struct zrun *z, struct want *w)
{
	double sum = 0, y;
	int i;

	memset(w, 0, sizeof(*w));
	w->n = z->npoints;
	w->first = NAN;
	for (i = 0; i < z->npoints; i++) {
		y = curve_y(z, i);
		if (isnan(y))
			continue;
		if (w->ok++ == 0)
			w->first = w->min = w->max = y;
		w->min = fmin(w->min, y);
		w->max = fmax(w->max, y);
		w->last = y;
		sum += y;
	}
	w->mean = sum / w->ok;
}

/* The kept curve of run id for metric key, or NULL. */
static const struct bs_report_curve *curve_of(const struct bs_report *rep,
					      int64_t id, const char *key)
{
	size_t i;

	for (i = 0; i < rep->ncurves; i++)
		if (rep->curves[i].id == id &&
		    strcmp(bs_metrics[rep->curves[i].test].key, key) == 0)
			return &rep->curves[i];
	return NULL;
}

static const char *key_of(const struct zrun *z)
{
	return z->write ? "write_mib_s" : "read_mib_s";
}

/* ---- the model ------------------------------------------------------- */

static void test_model(void **state)
{
	const struct fixture *f = *state;
	const struct bs_report *rep = f->rep;
	size_t k, npoints = 0, i;
	struct want w;

	assert_int_equal(rep->ncurves, NZRUNS);
	assert_null(rep->curves_note);
	for (k = 0; k < NZRUNS; k++) {
		const struct bs_report_curve *c =
			curve_of(rep, f->id[k], key_of(&zruns[k]));
		assert_non_null(c);
		want_of(&zruns[k], &w);
		assert_int_equal(c->group, strcmp(zruns[k].raid, "10") ? 1 : 0);
		assert_string_equal(c->machine, zruns[k].machine);
		assert_int_equal(c->n, w.n);
		assert_int_equal(c->ok, w.ok);
		assert_true(c->first == w.first && c->last == w.last);
		assert_true(c->min == w.min && c->max == w.max);
		assert_true(fabs(c->mean - w.mean) < 1e-9);
		/* The points as stored, in their order. */
		for (i = 0; i < c->n; i++) {
			double y = curve_y(&zruns[k], (int)i);
			assert_true(c->pt[i].x == curve_x((int)i));
			assert_true(isnan(y) ? isnan(c->pt[i].y)
					     : c->pt[i].y == y);
			assert_true(c->pt[i].seconds ==
				    curve_s(&zruns[k], (int)i));
		}
		npoints += c->n;
	}
	assert_int_equal(rep->npoints, npoints);
	/* By group, then in the order of the group's runs. */
	for (i = 1; i < rep->ncurves; i++)
		assert_true(rep->curves[i - 1].group < rep->curves[i].group ||
			    (rep->curves[i - 1].group == rep->curves[i].group &&
			     rep->curves[i - 1].id <= rep->curves[i].id));
	assert_int_equal(rep->groups[0].curves_seen, 2);
	assert_int_equal(rep->groups[1].curves_kept, 2);
}

/* --metrics picks the curves too. */
static void test_metrics_choose_curves(void **state)
{
	const struct fixture *f = *state;
	struct bs_report_source src = {store_each, (void *)&f->src};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;
	size_t i;

	memset(&o, 0, sizeof(o));
	assert_int_equal(bs_report_metrics_parse("write_mib_s", o.want, &err),
			 0);
	assert_int_equal(bs_report_build(&rep, &o, labels, 2, &src, &err), 0);
	assert_int_equal(rep->ncurves, 1);
	assert_string_equal(bs_metrics[rep->curves[0].test].key, "write_mib_s");
	for (i = 0; i < 2; i++)
		assert_int_equal(rep->groups[i].curves_seen,
				 rep->groups[i].curves_kept);
	bs_report_free(rep);
}

/* ---- the formats ----------------------------------------------------- */

/* Squeezes runs of spaces, so a table row can be matched as words. */
static char *squeeze(const char *s)
{
	struct bs_buf b = BS_BUF_INIT;

	for (; *s; s++)
		if (!(*s == ' ' && b.len && b.data[b.len - 1] == ' '))
			bs_buf_addc(&b, *s);
	return bs_buf_detach(&b, NULL);
}

static void test_text(void **state)
{
	const struct fixture *f = *state;
	char *text = render(f, BS_REPORT_TEXT), *sq = squeeze(text);
	struct bs_buf row = BS_BUF_INIT;
	char v[5][64];
	struct want w;
	size_t k;
	int t;

	assert_non_null(strstr(sq, "\nRead by position, MiB/s: a row per run "
				   "(zcav)\nGroup Run Machine First Last Min "
				   "Mean Max Blocks Too fast\n"));
	assert_non_null(strstr(sq, "\nWrite by position, MiB/s"));
	for (k = 0; k < NZRUNS; k++) {
		want_of(&zruns[k], &w);
		t = bs_metric_find(BS_FAM_ZCAV, key_of(&zruns[k]));
		bs_value_fmt(v[0], sizeof(v[0]), t, w.first);
		bs_value_fmt(v[1], sizeof(v[1]), t, w.last);
		bs_value_fmt(v[2], sizeof(v[2]), t, w.min);
		bs_value_fmt(v[3], sizeof(v[3]), t, w.mean);
		bs_value_fmt(v[4], sizeof(v[4]), t, w.max);
		bs_buf_reset(&row);
		bs_buf_addf(&row,
			    "\n[%d] raid=%s %lld %s %s %s %s %s %s %d %d\n",
			    strcmp(zruns[k].raid, "10") ? 2 : 1, zruns[k].raid,
			    (long long)f->id[k], zruns[k].machine, v[0], v[1],
			    v[2], v[3], v[4], w.n, w.n - w.ok);
		if (strstr(sq, bs_buf_str(&row)) == NULL)
			fail_msg("no row '%s' in:\n%s", bs_buf_str(&row), text);
	}
	bs_buf_release(&row);
	free(sq);
	free(text);
}

static void test_csv(void **state)
{
	const struct fixture *f = *state;
	char *csv = render(f, BS_REPORT_CSV);
	const char *points;
	struct bs_buf line = BS_BUF_INIT;
	char n[3][64];
	size_t k, lines = 0;
	const char *p, *end;
	int i;

	points = strstr(csv, "\n\ngroup,run,machine,metric,offset_gib,mib_s,"
			     "seconds\n");
	assert_non_null(points);
	/* The metric rows come first, unchanged: the zcav means. */
	assert_non_null(strstr(csv, "\n\"raid=10\",2,\"read_mib_s\","
				    "\"MiB/s\","));
	/* The points table ends where the title and notes begin. */
	end = strstr(points + 2, "\n\nkind,text\n\"title\",");
	assert_non_null(end);
	for (p = points + 2; (p = strchr(p, '\n')) != NULL && p < end; p++)
		lines += p[1] != '\0';
	for (k = 0; k < NZRUNS; k++) {
		for (i = 0; i < zruns[k].npoints; i++) {
			bs_buf_reset(&line);
			bs_buf_addc(&line, '\n');
			bs_csv_cell(&line,
				    labels[strcmp(zruns[k].raid, "10") ? 1 : 0],
				    strlen(zruns[k].raid) + 5);
			bs_buf_addf(&line, ",%lld,", (long long)f->id[k]);
			bs_csv_cell(&line, zruns[k].machine,
				    strlen(zruns[k].machine));
			bs_buf_addc(&line, ',');
			bs_csv_cell(&line, key_of(&zruns[k]),
				    strlen(key_of(&zruns[k])));
			bs_buf_addf(&line, ",%s,%s,%s\n",
				    bs_rfmt_raw(curve_x(i), n[0], sizeof(n[0])),
				    bs_rfmt_raw(curve_y(&zruns[k], i), n[1],
						sizeof(n[1])),
				    bs_rfmt_raw(curve_s(&zruns[k], i), n[2],
						sizeof(n[2])));
			if (strstr(points, bs_buf_str(&line)) == NULL)
				fail_msg("no point '%s'", bs_buf_str(&line));
		}
		lines -= (size_t)zruns[k].npoints;
	}
	/* Every point once, nothing else. */
	assert_int_equal(lines, 0);
	/* A "++++" block has no rate: an empty cell, never 0. */
	assert_non_null(strstr(points, ",1.5,,0.213\n"));
	bs_buf_release(&line);
	free(csv);
}

/* a is b as a report prints it for scripts: six significant digits. */
static int near6(double a, double b)
{
	return fabs(a - b) <= 5e-6 * fabs(b) + 1e-12;
}

static void test_json(void **state)
{
	const struct fixture *f = *state;
	char *text = render(f, BS_REPORT_JSON);
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr), *curves, *m, *run, *pts;
	size_t i, j, k, seen = 0;
	struct want w;

	if (root == NULL)
		fail_msg("not JSON: %s at line %d", jerr.text, jerr.line);
	assert_true(json_is_null(json_object_get(root, "curves_note")));
	curves = json_object_get(root, "curves");
	assert_int_equal(json_array_size(curves), 2);
	json_array_foreach(curves, i, m) {
		const char *key =
			json_string_value(json_object_get(m, "metric"));
		assert_string_equal(json_string_value(
					    json_object_get(m, "axis")),
				    "offset_gib");
		assert_string_equal(json_string_value(
					    json_object_get(m, "unit")),
				    "MiB/s");
		json_array_foreach(json_object_get(m, "runs"), j, run) {
			int64_t id =
				json_integer_value(json_object_get(run, "run"));
			const struct zrun *z = NULL;
			for (k = 0; k < NZRUNS; k++)
				if (f->id[k] == id)
					z = &zruns[k];
			assert_non_null(z);
			assert_string_equal(key, key_of(z));
			assert_string_equal(json_string_value(
						    json_object_get(run,
								    "machine")),
					    z->machine);
			assert_int_equal(json_integer_value(
						 json_object_get(run, "group")),
					 strcmp(z->raid, "10") ? 2 : 1);
			want_of(z, &w);
			/* Numbers for scripts carry 6 significant digits. */
			assert_true(
				near6(json_number_value(
					      json_object_get(run, "first")),
				      w.first));
			assert_true(near6(json_number_value(
						  json_object_get(run, "max")),
					  w.max));
			assert_true(near6(json_number_value(
						  json_object_get(run, "mean")),
					  w.mean));
			assert_int_equal(json_integer_value(
						 json_object_get(run,
								 "too_fast")),
					 w.n - w.ok);
			pts = json_object_get(run, "points");
			assert_int_equal(json_array_size(pts), z->npoints);
			for (k = 0; k < json_array_size(pts); k++) {
				json_t *p = json_array_get(pts, k);
				double y = curve_y(z, (int)k);
				assert_true(
					near6(json_number_value(json_object_get(
						      p, "offset_gib")),
					      curve_x((int)k)));
				if (isnan(y))
					assert_true(json_is_null(
						json_object_get(p, "mib_s")));
				else
					assert_true(
						near6(json_number_value(
							      json_object_get(
								      p,
								      "mib_s")),
						      y));
				assert_true(
					near6(json_number_value(json_object_get(
						      p, "seconds")),
					      curve_s(z, (int)k)));
			}
			seen++;
		}
	}
	assert_int_equal(seen, NZRUNS);
	json_decref(root);
	free(text);
}

/* The numbers of an SVG path, "M x y L x y M ...": each pair, and how many
 * pieces (M) it has. */
static int path_check(const char *d, double x0, double y0, double x1, double y1,
		      int *pieces, int *pairs)
{
	char *end;
	double x, y;

	*pieces = *pairs = 0;
	while (*d) {
		while (*d == ' ')
			d++;
		if (*d == 'M')
			(*pieces)++;
		else if (*d != 'L')
			return -1;
		d++;
		x = strtod(d, &end);
		if (end == d)
			return -1;
		y = strtod(end, &end);
		d = end;
		if (x < x0 || x > x1 || y < y0 || y > y1)
			return -1;
		(*pairs)++;
	}
	return 0;
}

static void test_html(void **state)
{
	const struct fixture *f = *state;
	char *html = render(f, BS_REPORT_HTML), *paths, *p, *q;
	char colour[2][16], dash[2][16];
	int npath = 0, pieces, pairs, k;
	double x0, y0, w, h;

	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<b>box2</b>"));
	assert_non_null(strstr(html, "&lt;b&gt;box2&lt;/b&gt;"));
	assert_non_null(strstr(html, "<figcaption>Read, MiB/s by position"));
	assert_non_null(strstr(html, "<figcaption>Write, MiB/s by position"));
	/* The charts are in the section of their metrics. */
	p = strstr(html, "<h2>Throughput by position</h2>");
	assert_non_null(p);
	assert_true(strstr(html, "<svg class=\"curve\"") > p);
	assert_true(strstr(p, "</section>") >
		    strstr(p, "<svg class=\"curve\""));
	p = strstr(html, "<rect class=\"frame\" x=\"");
	assert_non_null(p);
	assert_int_equal(sscanf(p,
				"<rect class=\"frame\" x=\"%lf\" y=\"%lf\" "
				"width=\"%lf\" height=\"%lf\"",
				&x0, &y0, &w, &h),
			 4);
	/* Each path: within the plot, a piece more per gap. */
	paths = xstrdup(html);
	for (p = paths; (p = strstr(p, "<path d=\"")) != NULL; p = q) {
		p += strlen("<path d=\"");
		q = strchr(p, '"');
		assert_non_null(q);
		*q++ = '\0';
		assert_int_equal(path_check(p, x0, y0, x0 + w, y0 + h, &pieces,
					    &pairs),
				 0);
		if (npath == 0) {
			/* Run 1 of raid=10: a gap at block 3. */
			assert_int_equal(pieces, 2);
			assert_true(pairs == zruns[0].npoints - 1);
			/* Offset 0 is the plot's left edge. */
			if (strtod(p + 1, NULL) != x0)
				fail_msg("path starts at '%.20s', not x %g", p,
					 x0);
		}
		if (npath == 2)
			/* raid=5's first block was too fast: one piece. */
			assert_int_equal(pieces, 1);
		assert_int_equal(sscanf(q,
					" stroke=\"%15[^\"]\" "
					"stroke-dasharray=\"%15[^\"]\"",
					colour[npath == 0 ? 0 : 1],
					dash[npath == 0 ? 0 : 1]),
				 2);
		if (npath == 2) {
			/* Another group: another colour and dashes. */
			assert_string_not_equal(colour[0], colour[1]);
			assert_string_not_equal(dash[0], dash[1]);
		}
		npath++;
	}
	assert_int_equal(npath, NZRUNS);
	free(paths);
	/* Legend rows: group, run, machine. */
	for (k = 0; k < (int)NZRUNS; k++) {
		char row[160];
		snprintf(row, sizeof(row),
			 "[%d] raid=%s</th><td>%lld</td><td class=\"m\">%s",
			 strcmp(zruns[k].raid, "10") ? 2 : 1, zruns[k].raid,
			 (long long)f->id[k],
			 k < 2 ? "box1" : "&lt;b&gt;box2&lt;/b&gt;");
		if (strstr(html, row) == NULL)
			fail_msg("no legend row '%s'", row);
	}
	free(html);
}

/* A lone timed block between blocks too fast to time is a short dash,
 * inside the plot even at its right edge. */
static int lone_each(void *ctx, size_t g, bs_report_run_fn fn, void *fn_ctx,
		     struct bs_err *err)
{
	static const double lone_y[] = {100, NAN, 90, 80, NAN, 70};
	static const double wild_x[] = {-1e300, 0, 1e300, 1e-300, DBL_MAX, 5};
	static const double wild_y[] = {1e300, -1e300, 0, DBL_MAX, 1, -5};
	const int wild = ctx != NULL;
	const double *y = wild ? wild_y : lone_y;
	struct bs_series *sr;
	struct bs_run r;
	size_t i;
	int rc, t = bs_metric_find(BS_FAM_ZCAV, "read_mib_s");

	(void)ctx;
	(void)g;
	(void)err;
	bs_run_init(&r);
	r.family = BS_FAM_ZCAV;
	r.id = 1;
	r.res[t].status = BS_ST_OK;
	r.res[t].value = 85;
	sr = bs_run_series_add(&r, t, "offset_gib");
	for (i = 0; i < 6; i++)
		bs_series_point(sr, wild ? wild_x[i] : 2.0 * (double)i, y[i],
				1);
	rc = fn(&r, fn_ctx);
	bs_run_release(&r);
	return rc;
}

static void test_html_lone_blocks(void **state)
{
	struct bs_report_source src = {lone_each, NULL};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;
	const char *name = "lone";
	char *html = NULL, *p, *q;
	size_t len = 0;
	double x0, y0, w, h;
	int pieces, pairs;
	FILE *out;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(bs_report_build(&rep, &o, &name, 1, &src, &err), 0);
	assert_int_equal(bs_report_templates_load(&ts, NULL, BS_REPORT_HTML,
						  &err),
			 0);
	out = open_memstream(&html, &len);
	assert_int_equal(bs_report_render(rep, ts, BS_REPORT_HTML, &src, out,
					  &err),
			 0);
	fclose(out);
	p = strstr(html, "<rect class=\"frame\" x=\"");
	assert_non_null(p);
	assert_int_equal(sscanf(p,
				"<rect class=\"frame\" x=\"%lf\" y=\"%lf\" "
				"width=\"%lf\" height=\"%lf\"",
				&x0, &y0, &w, &h),
			 4);
	p = strstr(html, "<path d=\"");
	assert_non_null(p);
	p += strlen("<path d=\"");
	q = strchr(p, '"');
	*q = '\0';
	/* [100], [90, 80], [70]: three pieces of two points each, the last
	 * block (at the right edge) drawn leftwards. */
	assert_int_equal(path_check(p, x0, y0, x0 + w, y0 + h, &pieces, &pairs),
			 0);
	assert_int_equal(pieces, 3);
	assert_int_equal(pairs, 6);
	free(html);
	bs_tmpl_set_free(ts);
	bs_report_free(rep);
}

/* Numbers no disk gives still make a page, with a handful of ticks. */
static void test_html_wild_numbers(void **state)
{
	int wild = 1;
	struct bs_report_source src = {lone_each, &wild};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;
	const char *name = "wild";
	char *html = NULL;
	const char *p;
	size_t len = 0;
	int ticks = 0;
	FILE *out;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(bs_report_build(&rep, &o, &name, 1, &src, &err), 0);
	assert_int_equal(bs_report_templates_load(&ts, NULL, BS_REPORT_HTML,
						  &err),
			 0);
	out = open_memstream(&html, &len);
	assert_int_equal(bs_report_render(rep, ts, BS_REPORT_HTML, &src, out,
					  &err),
			 0);
	fclose(out);
	for (p = html; (p = strstr(p, "<line class=\"grid\"")) != NULL; p++)
		ticks++;
	assert_true(ticks > 0 && ticks < 40);
	/* The path: numbers only, no "nan" or "inf". */
	p = strstr(html, "<path d=\"M");
	assert_non_null(p);
	p += strlen("<path d=\"");
	assert_true(strspn(p, "ML0123456789.- ") == strcspn(p, "\""));
	free(html);
	bs_tmpl_set_free(ts);
	bs_report_free(rep);
}

/* ---- bounds ---------------------------------------------------------- */

/* A source of groups of synthetic zcav runs: runs[g] of npoints[g]. */
struct synth_src {
	int runs[4], npoints[4];
};

static int synth_each(void *ctx, size_t g, bs_report_run_fn fn, void *fn_ctx,
		      struct bs_err *err)
{
	struct synth_src *s = ctx;
	struct zrun z = {"m", "x", 0, 0, 200, -1};
	struct bs_run r;
	int k, rc;

	(void)err;
	z.npoints = s->npoints[g];
	for (k = 0; k < s->runs[g]; k++) {
		make_zrun(&r, &z, k);
		r.id = (int64_t)(g * 1000 + (size_t)k + 1);
		rc = fn(&r, fn_ctx);
		bs_run_release(&r);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* What must hold of the curves kept, whatever the groups. */
static void check_bounds(const struct bs_report *rep, const struct synth_src *s)
{
	size_t i, g, npoints = 0;
	int64_t kept[4] = {0}, most = 0, least = INT64_MAX;

	assert_true(rep->ncurves <= BS_REPORT_CURVES_MAX);
	for (i = 0; i < rep->ncurves; i++) {
		const struct bs_report_curve *c = &rep->curves[i];
		npoints += c->n;
		/* Each group keeps its first runs, in order. */
		assert_true(c->id ==
			    (int64_t)(c->group * 1000) + ++kept[c->group]);
	}
	assert_true(npoints == rep->npoints && npoints <= BS_REPORT_POINTS_MAX);
	for (g = 0; g < rep->ngroups; g++) {
		const struct bs_report_group *x = &rep->groups[g];
		assert_int_equal(kept[g], x->curves_kept);
		/* Left short, though its curves would fit alone. */
		if (x->curves_kept < x->curves_seen &&
		    s->npoints[g] <= BS_REPORT_POINTS_MAX)
			least = kept[g] < least ? kept[g] : least;
		most = kept[g] > most ? kept[g] : most;
	}
	/* A group left short keeps at most one less than any other. */
	if (least != INT64_MAX && most - least > 1) {
		for (g = 0; g < rep->ngroups; g++)
			print_message("group %zu: kept %lld of %lld\n", g,
				      (long long)kept[g],
				      (long long)rep->groups[g].curves_seen);
		fail_msg("groups kept %lld and %lld curves", (long long)most,
			 (long long)least);
	}
}

static struct bs_report *synth_build(struct synth_src *s, size_t ngroups)
{
	static const char *const names[] = {"a", "b", "c", "d"};
	struct bs_report_source src = {synth_each, s};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;

	memset(&o, 0, sizeof(o));
	assert_int_equal(bs_report_build(&rep, &o, names, ngroups, &src, &err),
			 0);
	check_bounds(rep, s);
	return rep;
}

/* One run's curve for a page of its own (bs_report_run_curve): the
 * report's chart, its axis a position on the disk for a device, a log
 * scale never (one curve), the summary in the catalogue's format. */
static void test_run_curve(void **state)
{
	static const char tpl[] =
		"{{CAPTION}}|{{X_TITLE}}|{{Y_TITLE}}|{{#LINE}}{{FIRST}} "
		"{{MEAN}} {{MAX}} {{POINTS}} {{TOO_FAST}} {{RUN}}"
		"{{#DRAWN}} drawn{{/DRAWN}}{{/LINE}}|{{#YTICK}}y{{/YTICK}}";
	const struct bs_embedded def[] = {{"t.txt", tpl, sizeof(tpl) - 1},
					  {NULL, NULL, 0}};
	const char *const names[] = {"t.txt"};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_tdict *d = NULL;
	struct bs_buf out = BS_BUF_INIT;
	struct bs_series *s;
	struct bs_run r;
	int m = bs_metric_find(BS_FAM_ZCAV, "read_mib_s");

	(void)state;
	bs_run_init(&r);
	r.family = BS_FAM_ZCAV;
	r.id = 7;
	r.params.target = xstrdup("device");
	assert_int_equal(bs_tdict_new(&d, &err), 0);
	/* No curve: nothing. */
	assert_int_equal(bs_report_run_curve(&r, m, d), 0);
	s = bs_run_series_add(&r, m, "offset_gib");
	bs_series_point(s, 0, NAN, 0.2);
	bs_series_point(s, 0.5, 1290.5, 0.397);
	bs_series_point(s, 1.0, 1210.25, 0.423);
	assert_int_equal(bs_report_run_curve(&r, m, d), 1);
	assert_int_equal(bs_tmpl_set_load(&ts, def, names, 1, NULL, &err), 0);
	assert_int_equal(bs_tmpl_expand_buf(ts, "t.txt", d, &out, &err), 0);
	assert_string_equal(bs_buf_str(&out),
			    "Read, MiB/s by position|position on the disk, "
			    "GiB|MiB/s|1,290.50 1,250.38 1,290.50 3 1 7 "
			    "drawn|yyyy");
	bs_buf_release(&out);
	bs_tmpl_set_free(ts);
	bs_tdict_free(d);
	bs_run_release(&r);
}

static void test_bounds(void **state)
{
	/* clang-format off */
	static const struct { int ng, runs[4], npoints[4]; } cases[] = {
		{ 1, {10},            {100} },               /* all fit */
		{ 1, {40},            {10} },                /* 32 curves */
		{ 3, {40, 5, 30},     {10, 10, 10} },        /* shared */
		{ 2, {5, 2},          {30000, 30000} },      /* by points */
		{ 2, {1, 3},          {BS_REPORT_POINTS_MAX + 1, 10} },
		{ 4, {3, 40, 40, 1},  {10, 10, 2000, 10} },
	};
	/* clang-format on */
	struct bs_report *rep;
	size_t i, g;
	int64_t seen, kept;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct synth_src s;
		memset(&s, 0, sizeof(s));
		memcpy(s.runs, cases[i].runs, sizeof(s.runs));
		memcpy(s.npoints, cases[i].npoints, sizeof(s.npoints));
		rep = synth_build(&s, (size_t)cases[i].ng);
		seen = kept = 0;
		for (g = 0; g < rep->ngroups; g++) {
			assert_int_equal(rep->groups[g].curves_seen, s.runs[g]);
			seen += rep->groups[g].curves_seen;
			kept += rep->groups[g].curves_kept;
		}
		assert_true(kept == (int64_t)rep->ncurves);
		if (seen == kept) {
			assert_null(rep->curves_note);
		} else {
			char head[96];
			assert_non_null(rep->curves_note);
			snprintf(head, sizeof(head),
				 "%lld of %lld curves are "
				 "drawn",
				 (long long)kept, (long long)seen);
			assert_true(strncmp(rep->curves_note, head,
					    strlen(head)) == 0);
		}
		bs_report_free(rep);
	}
	/* The shared case in numbers: b keeps its 5, a and c split the rest
	 * as evenly as they can, a (first) the extra one. */
	{
		struct synth_src s = {{40, 5, 30, 0}, {10, 10, 10, 0}};
		rep = synth_build(&s, 3);
		assert_int_equal(rep->groups[1].curves_kept, 5);
		assert_int_equal(rep->groups[0].curves_kept +
					 rep->groups[2].curves_kept,
				 BS_REPORT_CURVES_MAX - 5);
		assert_true(rep->groups[0].curves_kept -
				    rep->groups[2].curves_kept ==
			    1);
		assert_non_null(strstr(rep->curves_note, "[1] 26 of 40"));
		assert_non_null(strstr(rep->curves_note, "[3] 17 of 30"));
		assert_null(strstr(rep->curves_note, "[2]"));
		bs_report_free(rep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_metrics_choose_curves),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_html),
	};
	const struct CMUnitTest alone[] = {
		cmocka_unit_test(test_html_lone_blocks),
		cmocka_unit_test(test_html_wild_numbers),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_run_curve),
	};
	int rc;

	rc = cmocka_run_group_tests(tests, setup, teardown);
	return rc + cmocka_run_group_tests(alone, NULL, NULL);
}
