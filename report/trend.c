/*
 * report/trend.c - the trend model (report/trend.h): the runs of each
 * group read once through a report, their numbers kept with their dates,
 * put into periods, and each period summed up (n, median, mean, sd, min,
 * max).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/changes.h"
#include "report/internal.h"
#include "report/trend.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* Each period: its name and its calendar step (util/timefmt.h); each run
 * has none (k 0). */
/* clang-format off */
static const struct every_info {
	const char *name;
	const char *text;
	enum bs_time_unit unit;
	int k;
} every_table[BS_EVERY_COUNT] = {
	[BS_EVERY_AUTO] = {"auto", "", BS_TU_DAY, 0},
	[BS_EVERY_RUN] = {"run", "each run", BS_TU_DAY, 0},
	[BS_EVERY_DAY] = {"day", "per day", BS_TU_DAY, 1},
	[BS_EVERY_WEEK] = {"week", "per week (Monday to Sunday)", BS_TU_WEEK, 1},
	[BS_EVERY_MONTH] = {"month", "per month", BS_TU_MONTH, 1},
	[BS_EVERY_QUARTER] = {"quarter", "per quarter", BS_TU_MONTH, 3},
	[BS_EVERY_YEAR] = {"year", "per year", BS_TU_YEAR, 1},
};
/* clang-format on */

const char *bs_trend_every_name(enum bs_trend_every e)
{
	return (unsigned)e < BS_EVERY_COUNT ? every_table[e].name : "?";
}

const char *bs_trend_every_text(enum bs_trend_every e)
{
	return (unsigned)e < BS_EVERY_COUNT ? every_table[e].text : "?";
}

int64_t bs_trend_period_len(enum bs_trend_every e, int64_t start)
{
	const struct every_info *x = &every_table[e];

	assert((unsigned)e < BS_EVERY_COUNT);
	return x->k ? bs_time_add(start, x->unit, x->k) - start : 0;
}

int bs_trend_every_parse(const char *s, enum bs_trend_every *out,
			 struct bs_err *err)
{
	int e;

	for (e = 0; e < BS_EVERY_COUNT; e++) {
		if (strcmp(s, every_table[e].name) == 0) {
			*out = (enum bs_trend_every)e;
			return 0;
		}
	}
	return bs_error(err, BS_EINVAL,
			"unknown period '%s' (auto, run, day, week, month, "
			"quarter or year)",
			s);
}

int64_t bs_trend_period(enum bs_trend_every e, int64_t t)
{
	const struct every_info *x = &every_table[e];

	assert((unsigned)e < BS_EVERY_COUNT);
	return x->k ? bs_time_floor(t, x->unit, x->k) : t;
}

const char *bs_trend_period_label(enum bs_trend_every e, int64_t start,
				  char *out, size_t outsz)
{
	struct tm tm;
	time_t tt = (time_t)start;

	if (gmtime_r(&tt, &tm) == NULL) {
		snprintf(out, outsz, "@%lld", (long long)start);
		return out;
	}
	switch (e) {
	case BS_EVERY_YEAR:
		strftime(out, outsz, "%Y", &tm);
		break;
	case BS_EVERY_QUARTER:
		snprintf(out, outsz, "%04d-Q%d", tm.tm_year + 1900,
			 tm.tm_mon / 3 + 1);
		break;
	case BS_EVERY_MONTH:
		strftime(out, outsz, "%Y-%m", &tm);
		break;
	case BS_EVERY_DAY:
	case BS_EVERY_WEEK:
		strftime(out, outsz, "%Y-%m-%d", &tm);
		break;
	default:
		strftime(out, outsz, "%Y-%m-%d %H:%M:%S", &tm);
		break;
	}
	return out;
}

/* ---- reading the runs ------------------------------------------------ */

struct svec {
	struct bs_trend_sample *s;
	size_t n, cap;
};

/* A series while the runs are read: its numbers by report metric. */
struct ser {
	size_t group;
	char *machine, *key;
	struct bs_ident id;
	struct svec *vec; /* BS_RM_COUNT */
};

/*
 * The source the report reads: the caller's, through a filter that
 * keeps the runs with a date in since..until (counting the others) and
 * their numbers, each in its series.
 */
struct acc {
	struct bs_trend *tr;
	const struct bs_trend_opts *opts;
	const struct bs_report_source *src;
	const char *const *selectors;
	struct ser *ser;
	size_t nser, capser;
	size_t *hash, caph;              /* series_of's table */
	struct bs_buf key;               /* scratch */
	unsigned char cand[BS_RM_COUNT]; /* metrics to keep */
	size_t group;
	int64_t kept;
	bs_report_run_fn fn; /* the report's */
	void *fn_ctx;
};

/* FNV-1a of a series' group, machine and key. */
static size_t ser_hash(size_t group, const char *machine, const char *key)
{
	uint64_t h = bs_hash_fnv64_field(BS_FNV64_BASIS ^ group, machine);

	return (size_t)bs_hash_fnv64_str(h, key);
}

/* The series of r in group a->group, made when it is the first run: a
 * table of index + 1 into a->ser, open addressing, at most half full. */
static struct ser *series_of(struct acc *a, const struct bs_run *r)
{
	const char *machine = r->machine ? r->machine : "";
	struct bs_ident id;
	struct ser *x;
	size_t i, k, mask;

	bs_ident_of(r, &id);
	bs_buf_reset(&a->key);
	bs_ident_key(&id, &a->key);
	if (2 * (a->nser + 1) > a->caph) {
		size_t cap = a->caph ? 2 * a->caph : 64;
		size_t *t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < a->nser; k++) {
			x = &a->ser[k];
			for (i = ser_hash(x->group, x->machine, x->key) &
				 (cap - 1);
			     t[i]; i = (i + 1) & (cap - 1))
				;
			t[i] = k + 1;
		}
		free(a->hash);
		a->hash = t;
		a->caph = cap;
	}
	mask = a->caph - 1;
	for (i = ser_hash(a->group, machine, bs_buf_str(&a->key)) & mask;
	     a->hash[i]; i = (i + 1) & mask) {
		x = &a->ser[a->hash[i] - 1];
		if (x->group == a->group && strcmp(x->machine, machine) == 0 &&
		    strcmp(x->key, bs_buf_str(&a->key)) == 0)
			return x;
	}
	xgrow((void **)&a->ser, &a->capser, a->nser + 1, sizeof(*a->ser));
	x = &a->ser[a->nser];
	x->group = a->group;
	x->machine = xstrdup(machine);
	x->key = xstrdup(bs_buf_str(&a->key));
	x->id = id;
	x->vec = xcalloc(BS_RM_COUNT, sizeof(*x->vec));
	a->hash[i] = ++a->nser;
	return x;
}

static int filter_run(const struct bs_run *r, void *ctx)
{
	struct acc *a = ctx;
	const struct bs_trend_opts *o = a->opts;
	struct ser *x;
	double v;
	int m;

	if (r->measured_at == BS_NONE) {
		a->tr->undated[a->group]++;
		return 0;
	}
	if ((o->since != BS_NONE && r->measured_at < o->since) ||
	    (o->until != BS_NONE && r->measured_at > o->until)) {
		a->tr->outside[a->group]++;
		return 0;
	}
	a->kept++;
	x = series_of(a, r);
	for (m = 0; m < BS_RM_USED; m++) {
		struct svec *sv = &x->vec[m];
		if (!a->cand[m] ||
		    bs_metrics[BS_RM_TEST(m)].family != r->family ||
		    bs_rmetric(r, m, &v) != BS_ST_OK || !isfinite(v) ||
		    !bs_ident_measures(&x->id, BS_RM_TEST(m)))
			continue;
		xgrow((void **)&sv->s, &sv->cap, sv->n + 1, sizeof(*sv->s));
		sv->s[sv->n].t = r->measured_at;
		sv->s[sv->n].id = r->id;
		sv->s[sv->n].v = v;
		sv->n++;
	}
	return a->fn(r, a->fn_ctx);
}

/* "before 2004-02-01", "after ...", "outside ... to ...". */
static void range_text(const struct bs_trend *tr, struct bs_buf *b)
{
	char lo[32], hi[32];

	if (tr->since != BS_NONE)
		bs_time_iso(lo, sizeof(lo), tr->since);
	if (tr->until != BS_NONE)
		bs_time_iso(hi, sizeof(hi), tr->until);
	if (tr->since != BS_NONE && tr->until != BS_NONE)
		bs_buf_addf(b, "outside %s to %s", lo, hi);
	else if (tr->since != BS_NONE)
		bs_buf_addf(b, "before %s", lo);
	else
		bs_buf_addf(b, "after %s", hi);
}

static int filter_each(void *ctx, size_t group, bs_report_run_fn fn,
		       void *fn_ctx, struct bs_err *err)
{
	struct acc *a = ctx;
	struct bs_buf b = BS_BUF_INIT;
	char q[64];
	int rc;

	a->group = group;
	a->fn = fn;
	a->fn_ctx = fn_ctx;
	a->kept = 0;
	a->tr->undated[group] = a->tr->outside[group] = 0;
	rc = a->src->each(a->src->ctx, group, filter_run, a, err);
	if (rc < 0 || a->kept > 0 ||
	    a->tr->undated[group] + a->tr->outside[group] == 0)
		return rc;
	/* Runs, but none to draw: say why rather than "matches no runs". */
	bs_err_quote(q, sizeof(q), a->selectors[group],
		     strlen(a->selectors[group]), 40);
	if (a->tr->outside[group] == 0) {
		rc = bs_error(err, BS_ENOTFOUND,
			      "selector '%s' has no run with a date (%lld "
			      "without one; ingest --measured-at DATE dates "
			      "runs whose text has none)",
			      q, (long long)a->tr->undated[group]);
	} else {
		range_text(a->tr, &b);
		rc = bs_error(err, BS_ENOTFOUND,
			      "selector '%s' has no run with a date in the "
			      "range (%lld measured %s, %lld without a date)",
			      q, (long long)a->tr->outside[group],
			      bs_buf_str(&b), (long long)a->tr->undated[group]);
	}
	bs_buf_release(&b);
	return rc;
}

/* ---- periods and points ------------------------------------------- */

int bs_trend_sample_cmp(const void *pa, const void *pb)
{
	const struct bs_trend_sample *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* The periods of e that the samples (sorted by date) fall in. */
static size_t count_periods(const struct svec *sv, enum bs_trend_every e)
{
	size_t i, n = 0;
	int64_t last = 0;

	for (i = 0; i < sv->n; i++) {
		int64_t p = bs_trend_period(e, sv->s[i].t);
		if (i == 0 || p != last)
			n++;
		last = p;
	}
	return n;
}

/* auto: the smallest period that gives no line more points than
 * BS_TREND_AUTO_POINTS; a year when none does. */
static enum bs_trend_every choose_every(const struct svec *vec, size_t nvec)
{
	int e;
	size_t i;

	for (e = BS_EVERY_RUN; e < BS_EVERY_YEAR; e++) {
		for (i = 0; i < nvec; i++)
			if (count_periods(&vec[i], (enum bs_trend_every)e) >
			    BS_TREND_AUTO_POINTS)
				break;
		if (i == nvec)
			return (enum bs_trend_every)e;
	}
	return BS_EVERY_YEAR;
}

/* The point of samples s[0..n), which share a period starting at start;
 * v is scratch for n numbers. */
static void make_point(const struct bs_trend_sample *s, size_t n, int64_t start,
		       double *v, struct bs_trend_point *p)
{
	double sum = 0, ss = 0;
	size_t i;

	p->start = start;
	p->run = n == 1 ? s[0].id : BS_NONE;
	p->n = (int64_t)n;
	p->min = p->max = s[0].v;
	for (i = 0; i < n; i++) {
		v[i] = s[i].v;
		sum += s[i].v;
		if (s[i].v < p->min)
			p->min = s[i].v;
		if (s[i].v > p->max)
			p->max = s[i].v;
	}
	p->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i].v - p->mean) * (s[i].v - p->mean);
	/* The sample standard deviation, as the report's groups have it. */
	p->sd = n >= 2 ? sqrt(ss / (double)(n - 1)) : NAN;
	p->median = bs_stat_median(v, n);
}

static void make_line(const struct svec *sv, enum bs_trend_every e,
		      double *scratch, struct bs_trend_line *l)
{
	size_t i, j;

	l->runs = (int64_t)sv->n;
	l->pt = xcalloc(count_periods(sv, e) + 1, sizeof(*l->pt));
	for (i = 0; i < sv->n; i = j) {
		int64_t p = bs_trend_period(e, sv->s[i].t);
		for (j = i + 1;
		     j < sv->n && bs_trend_period(e, sv->s[j].t) == p; j++)
			;
		make_point(&sv->s[i], j - i, p, scratch, &l->pt[l->n++]);
	}
}

/*
 * A candidate metric m that no line has a point of, when its runs had it
 * (too fast to time, every one): named in b with the reason, so that a
 * trend says what it left out ("Block read: every run too fast to time
 * (+++++)").
 */
static void left_out(const struct bs_report *rep, int m, int cand,
		     struct bs_buf *b)
{
	int64_t too_fast = 0, ok = 0;
	char label[96];
	size_t g;

	if (!cand)
		return;
	for (g = 0; g < rep->ngroups; g++) {
		too_fast += rep->groups[g].cell[m].too_fast;
		ok += rep->groups[g].cell[m].ok;
	}
	if (too_fast + ok == 0)
		return;
	bs_buf_addf(b, "%s%s of %s: ", b->len ? "; " : "",
		    bs_rm_label(m, label, sizeof(label)),
		    bs_family_name(bs_metrics[BS_RM_TEST(m)].family));
	if (ok == 0)
		bs_buf_addf(b,
			    "every run too fast to time (%lld %s, no "
			    "number)",
			    (long long)too_fast,
			    too_fast == 1 ? "run" : "runs");
	else
		bs_buf_adds(b, "no number that can be drawn");
}

static void add_note(struct bs_trend *tr, const char *text)
{
	tr->notes = xrealloc(tr->notes, (tr->nnotes + 1) * sizeof(*tr->notes));
	tr->notes[tr->nnotes++] = xstrdup(text);
}

static void make_notes(struct bs_trend *tr, const char *left_out)
{
	const struct bs_report *rep = tr->rep;
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	if (left_out[0]) {
		bs_buf_addf(&b, "Left out: %s", left_out);
		add_note(tr, bs_buf_str(&b));
	}
	for (i = 0; i < rep->ngroups; i++) {
		const char *label = rep->groups[i].label;
		if (tr->undated[i]) {
			bs_buf_reset(&b);
			bs_buf_addf(&b,
				    "[%zu] %s: %lld run%s without a date "
				    "(measured_at) left out",
				    i + 1, label, (long long)tr->undated[i],
				    tr->undated[i] == 1 ? "" : "s");
			add_note(tr, bs_buf_str(&b));
		}
		if (tr->outside[i]) {
			bs_buf_reset(&b);
			bs_buf_addf(&b, "[%zu] %s: %lld run%s measured ", i + 1,
				    label, (long long)tr->outside[i],
				    tr->outside[i] == 1 ? "" : "s");
			range_text(tr, &b);
			bs_buf_adds(&b, " left out");
			add_note(tr, bs_buf_str(&b));
		}
	}
	for (i = 0; i < rep->nnotes; i++)
		add_note(tr, rep->notes[i]);
	bs_buf_release(&b);
}

/* Series in order: group, machine, identity key. */
static int cmp_ser(const void *pa, const void *pb)
{
	const struct ser *a = pa, *b = pb;
	int c;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	c = strcmp(a->machine, b->machine);
	return c ? c : strcmp(a->key, b->key);
}

/* "Block write" reads "block write" after a test's name; "IOPS" stays. */
static void add_lower(struct bs_buf *b, const char *s)
{
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z') {
		bs_buf_addc(b, (char)(s[0] - 'A' + 'a'));
		s++;
	}
	bs_buf_adds(b, s);
}

/* The trend's series from the ones read: names, labels, in order. */
static void name_series(struct bs_trend *tr, struct acc *a)
{
	struct bs_ident *ids = xcalloc(a->nser + 1, sizeof(*ids));
	size_t *which = xcalloc(a->nser + 1, sizeof(*which));
	char **names = xcalloc(a->nser + 1, sizeof(*names));
	struct bs_buf b = BS_BUF_INIT;
	size_t i, j, nids = 0;

	qsort(a->ser, a->nser, sizeof(*a->ser), cmp_ser);
	for (i = 0; i < a->nser; i++) {
		for (j = 0; j < i && strcmp(a->ser[j].key, a->ser[i].key); j++)
			;
		if (j == i)
			ids[nids++] = a->ser[i].id;
		which[i] = j == i ? nids - 1 : which[j];
	}
	bs_ident_names(ids, nids, names);
	tr->series = xcalloc(a->nser + 1, sizeof(*tr->series));
	tr->nseries = a->nser;
	for (i = 0; i < a->nser; i++) {
		struct bs_trend_series *t = &tr->series[i];
		const struct ser *x = &a->ser[i];
		int machines = 0;

		t->group = x->group;
		t->machine = xstrdup(x->machine);
		t->key = xstrdup(x->key);
		t->test = xstrdup(names[which[i]]);
		/* The machine is said when the group has several. */
		for (j = 0; j < a->nser; j++)
			machines += a->ser[j].group == x->group &&
				    (j == 0 ||
				     a->ser[j - 1].group != x->group ||
				     strcmp(a->ser[j - 1].machine,
					    a->ser[j].machine) != 0);
		bs_buf_reset(&b);
		bs_buf_addf(&b, "[%zu] %s", x->group + 1,
			    tr->rep->groups[x->group].label);
		if (machines > 1)
			bs_buf_addf(&b, ", %s",
				    bs_store_machine_name(x->machine));
		t->label = bs_buf_detach(&b, NULL);
	}
	for (i = 0; i < nids; i++)
		free(names[i]);
	free(names);
	free(which);
	free(ids);
	bs_buf_release(&b);
}

/* The chart of metric m of the test of series s0 (a->ser[s0]): a line
 * per series of that test with numbers of m. */
static void make_chart(struct bs_trend *tr, struct acc *a, size_t s0, int m,
		       double *scratch)
{
	struct bs_trend_metric *tm;
	struct bs_buf b = BS_BUF_INIT;
	char label[96];
	size_t i, k;

	tr->metric =
		xrealloc(tr->metric, (tr->nmetric + 1) * sizeof(*tr->metric));
	tm = &tr->metric[tr->nmetric++];
	memset(tm, 0, sizeof(*tm));
	tm->m = m;
	tm->test = tr->series[s0].test;
	bs_buf_addf(&b, "%s: ", tm->test);
	add_lower(&b, bs_rm_label(m, label, sizeof(label)));
	tm->title = bs_buf_detach(&b, NULL);
	tm->line = xcalloc(a->nser, sizeof(*tm->line));
	tm->tmin = INT64_MAX;
	tm->tmax = INT64_MIN;
	tm->ymax = 0;
	for (i = 0; i < a->nser; i++) {
		struct bs_trend_line *l;

		if (a->ser[i].vec[m].n == 0 ||
		    strcmp(a->ser[i].key, a->ser[s0].key) != 0)
			continue;
		l = &tm->line[tm->nline++];
		l->group = a->ser[i].group;
		l->series = i;
		make_line(&a->ser[i].vec[m], tr->every, scratch, l);
		for (k = 0; k < l->n; k++) {
			const struct bs_trend_point *p = &l->pt[k];
			if (p->start < tm->tmin)
				tm->tmin = p->start;
			if (p->start > tm->tmax)
				tm->tmax = p->start;
			if (p->max > tm->ymax)
				tm->ymax = p->max;
			if (!isnan(p->sd) && p->mean + p->sd > tm->ymax)
				tm->ymax = p->mean + p->sd;
		}
	}
}

/* ---- change points ---------------------------------------------------- */

/* One group's runs in since..until, as group 0 of a source: what
 * bs_changes_build searches. */
struct cp_src {
	const struct bs_trend_opts *opts;
	const struct bs_report_source *src;
	size_t group;
	bs_report_run_fn fn;
	void *fn_ctx;
};

static int cp_run(const struct bs_run *r, void *ctx)
{
	struct cp_src *c = ctx;
	const struct bs_trend_opts *o = c->opts;

	if (r->measured_at != BS_NONE &&
	    ((o->since != BS_NONE && r->measured_at < o->since) ||
	     (o->until != BS_NONE && r->measured_at > o->until)))
		return 0;
	return c->fn(r, c->fn_ctx);
}

static int cp_each(void *ctx, size_t group, bs_report_run_fn fn, void *fn_ctx,
		   struct bs_err *err)
{
	struct cp_src *c = ctx;

	(void)group;
	c->fn = fn;
	c->fn_ctx = fn_ctx;
	return c->src->each(c->src->ctx, c->group, cp_run, c, err);
}

/* Each group's change points, with the default method and noise. */
static int find_changes(struct bs_trend *tr, const struct bs_trend_opts *opts,
			const struct bs_report_source *src, size_t ngroups,
			struct bs_err *err)
{
	struct bs_changes_opts co;
	struct cp_src c;
	struct bs_changes_source cs;
	size_t g;
	int rc = 0;

	memset(&co, 0, sizeof(co));
	bs_changept_opts_init(&co.cp);
	co.since = BS_NONE;
	c.opts = opts;
	c.src = src;
	cs.src.each = cp_each;
	cs.src.ctx = &c;
	cs.get = opts->get;
	cs.get_ctx = opts->get_ctx;
	tr->changes = xcalloc(ngroups ? ngroups : 1, sizeof(*tr->changes));
	for (g = 0; g < ngroups && rc >= 0; g++) {
		c.group = g;
		rc = bs_changes_build(&tr->changes[g], &co, &cs, err);
	}
	return rc;
}

int bs_trend_build(struct bs_trend **out, const struct bs_trend_opts *opts,
		   const char *const *selectors, size_t ngroups,
		   const struct bs_report_source *src, struct bs_err *err)
{
	struct bs_trend *tr = xcalloc(1, sizeof(*tr));
	struct bs_report_opts ro;
	struct bs_report_source fsrc;
	struct bs_buf left = BS_BUF_INIT; /* the metrics left out, why */
	struct acc a;
	struct ser **tests = NULL; /* a series of each test, by key */
	size_t i, t, nvec = 0, ntests = 0, most = 1;
	double *scratch = NULL;
	int m, want_any = 0, rc;

	*out = NULL;
	memset(&a, 0, sizeof(a));
	memset(&ro, 0, sizeof(ro));
	tr->since = opts->since;
	tr->until = opts->until;
	tr->undated = xcalloc(ngroups ? ngroups : 1, sizeof(*tr->undated));
	tr->outside = xcalloc(ngroups ? ngroups : 1, sizeof(*tr->outside));
	a.tr = tr;
	a.opts = opts;
	a.src = src;
	a.selectors = selectors;
	for (m = 0; m < BS_RM_USED; m++)
		want_any |= opts->want[m];
	/* By default the rates of the catalogue's main metrics, and the
	 * tail latencies it names for trends (fio's clat p99). */
	for (m = 0; m < BS_RM_USED; m++)
		a.cand[m] = want_any
				    ? opts->want[m]
				    : BS_RM_KIND(m) == BS_MK_RATE &&
					      (bs_metrics[BS_RM_TEST(m)].flags &
					       (BS_MF_MAIN | BS_MF_TREND));
	ro.units = opts->units;
	ro.no_by = 1; /* trend has no --by */
	fsrc.each = filter_each;
	fsrc.ctx = &a;
	rc = bs_report_build(&tr->rep, &ro, selectors, ngroups, &fsrc, err);
	if (rc < 0)
		goto out;
	name_series(tr, &a);
	if (opts->get) {
		rc = find_changes(tr, opts, src, ngroups, err);
		if (rc < 0)
			goto out;
	}

	for (i = 0; i < a.nser; i++) {
		for (m = 0; m < BS_RM_USED; m++) {
			struct svec *sv = &a.ser[i].vec[m];
			if (sv->n == 0)
				continue;
			qsort(sv->s, sv->n, sizeof(*sv->s),
			      bs_trend_sample_cmp);
			if (sv->n > most)
				most = sv->n;
		}
	}
	/* auto: looks at every line with numbers. */
	tr->every = opts->every;
	if (tr->every == BS_EVERY_AUTO) {
		struct svec *lines = xcalloc(a.nser * (size_t)BS_RM_USED + 1,
					     sizeof(*lines));
		for (i = 0; i < a.nser; i++)
			for (m = 0; m < BS_RM_USED; m++)
				if (a.ser[i].vec[m].n)
					lines[nvec++] = a.ser[i].vec[m];
		tr->every = choose_every(lines, nvec);
		tr->auto_every = 1;
		free(lines);
	}
	scratch = xcalloc(most, sizeof(*scratch));
	/* The charts: each test's, in the order of their first series
	 * (the first group, machine and key that has it), each in catalogue
	 * order. */
	tests = xcalloc(a.nser + 1, sizeof(*tests));
	for (i = 0; i < a.nser; i++) {
		for (t = 0; t < ntests && strcmp(tests[t]->key, a.ser[i].key);
		     t++)
			;
		if (t == ntests)
			tests[ntests++] = &a.ser[i];
	}
	for (t = 0; t < ntests; t++) {
		for (m = 0; m < BS_RM_USED; m++) {
			int any = 0;
			for (i = 0; i < a.nser && !any; i++)
				any = a.ser[i].vec[m].n > 0 &&
				      strcmp(a.ser[i].key, tests[t]->key) == 0;
			if (any)
				make_chart(tr, &a, (size_t)(tests[t] - a.ser),
					   m, scratch);
		}
	}
	for (m = 0; m < BS_RM_USED; m++) {
		int any = 0;
		for (i = 0; i < a.nser && !any; i++)
			any = a.ser[i].vec[m].n > 0;
		if (!any)
			left_out(tr->rep, m, a.cand[m], &left);
	}
	if (tr->nmetric == 0) {
		rc = bs_error(err, BS_ENOTFOUND, "%s%s%s%s",
			      want_any
				      ? "no run has a number of the metrics "
					"asked (--metrics)"
				      : "no run has a number of a main metric: "
					"ask for others with --metrics",
			      left.len ? "; left out: " : "", bs_buf_str(&left),
			      "");
		goto out;
	}
	if (opts->title)
		tr->title = xstrdup(opts->title);
	else {
		struct bs_buf b = BS_BUF_INIT;
		bs_buf_addf(&b, "Trend: %s", tr->rep->title);
		tr->title = bs_buf_detach(&b, NULL);
	}
	make_notes(tr, bs_buf_str(&left));
out:
	bs_buf_release(&left);
	for (i = 0; i < a.nser; i++) {
		for (m = 0; m < BS_RM_COUNT; m++)
			free(a.ser[i].vec[m].s);
		free(a.ser[i].vec);
		free(a.ser[i].machine);
		free(a.ser[i].key);
	}
	free(a.ser);
	free(a.hash);
	free(tests);
	bs_buf_release(&a.key);
	free(scratch);
	if (rc < 0) {
		bs_trend_free(tr);
		return rc;
	}
	*out = tr;
	return 0;
}

void bs_trend_free(struct bs_trend *tr)
{
	size_t i, g;

	if (tr == NULL)
		return;
	for (i = 0; i < tr->nmetric; i++) {
		for (g = 0; g < tr->metric[i].nline; g++)
			free(tr->metric[i].line[g].pt);
		free(tr->metric[i].line);
		free(tr->metric[i].title);
	}
	free(tr->metric);
	for (i = 0; i < tr->nseries; i++) {
		free(tr->series[i].machine);
		free(tr->series[i].key);
		free(tr->series[i].test);
		free(tr->series[i].label);
	}
	free(tr->series);
	for (i = 0; i < tr->nnotes; i++)
		free(tr->notes[i]);
	free(tr->notes);
	for (i = 0; tr->changes && i < tr->rep->ngroups; i++)
		bs_changes_free(tr->changes[i]);
	free(tr->changes);
	free(tr->undated);
	free(tr->outside);
	free(tr->title);
	bs_report_free(tr->rep);
	free(tr);
}
