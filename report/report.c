/*
 * report/report.c - groups of runs -> statistics, comparisons against the
 * baseline, shading and the notes on what does not compare.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* An I/O rate from this many KiB/s on is shown in MiB/s (--units auto). */

int bs_report_metrics_parse(const char *list, unsigned char want[BS_RM_COUNT],
			    struct bs_err *err)
{
	const char *p = list, *end;
	char word[64], key[32], q[64];
	size_t len;
	int m, t, k, any;

	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0 || len >= sizeof(word))
			return bs_error(err, BS_EINVAL,
					"'%s' is not a metric list",
					bs_err_quote(q, sizeof(q), list,
						     strlen(list), 40));
		memcpy(word, p, len);
		word[len] = '\0';
		any = 0;
		for (m = 0; m < BS_RM_USED; m++) {
			t = BS_RM_TEST(m);
			k = BS_RM_KIND(m);
			if (k != BS_MK_RATE &&
			    !(bs_metrics[t].flags & BS_MF_CPU_LAT))
				continue;
			if (strcmp(word, "all") == 0 ||
			    (strcmp(word, "rates") == 0 && k == BS_MK_RATE) ||
			    (strcmp(word, "cpu") == 0 && k == BS_MK_CPU) ||
			    (strcmp(word, "latency") == 0 && k == BS_MK_LAT) ||
			    (strcmp(word, "io") == 0 &&
			     bs_metrics[t].family == BS_FAM_BONNIE &&
			     t < BS_M_FIRST_FILE) ||
			    (strcmp(word, "files") == 0 &&
			     bs_metrics[t].category == BS_CAT_METADATA) ||
			    strcmp(word, bs_report_metric_key(m, key,
							      sizeof(key))) ==
				    0) {
				want[m] = 1;
				any = 1;
			}
		}
		if (!any)
			return bs_error(err, BS_EINVAL,
					"unknown metric '%s' (expected e.g. "
					"put_block, put_block_cpu, "
					"put_block_latency, rates, cpu, "
					"latency, io, files or all)",
					bs_err_quote(q, sizeof(q), word, len,
						     40));
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

/* ---- accumulating runs --------------------------------------------- */

struct acc {
	struct bs_report *rep;
	struct bs_report_group *g;
	double m2[BS_RM_COUNT]; /* Welford's sums of squares */
	/* Every number of each metric, for its median (8 bytes a number:
	 * 29 MB for 100,000 runs of bonnie++'s 36 metrics). */
	double *vals[BS_RM_COUNT];
	size_t vals_cap[BS_RM_COUNT];
	size_t ids_cap;
	int tags_set;           /* g->tags holds the first run's tags */
	int want_any;           /* opts.want chooses the metrics */
	int64_t assume[BS_P_MAX]; /* see assumed_values() */
};

/*
 * Keeps the BS_REPORT_LIST smallest distinct strings seen, sorted, so the
 * list does not depend on the order runs come in.
 */
static void list_add(char ***list, size_t *n, int *more, const char *s)
{
	size_t i, pos = 0;
	int c = 1;

	if (*list == NULL)
		*list = xcalloc(BS_REPORT_LIST, sizeof(**list));
	for (pos = 0; pos < *n; pos++) {
		c = strcmp(s, (*list)[pos]);
		if (c <= 0)
			break;
	}
	if (pos < *n && c == 0)
		return;
	if (*n == BS_REPORT_LIST) {
		*more = 1;
		if (pos == BS_REPORT_LIST)
			return;
		free((*list)[BS_REPORT_LIST - 1]);
		(*n)--;
	}
	for (i = *n; i > pos; i--)
		(*list)[i] = (*list)[i - 1];
	(*list)[pos] = xstrdup(s);
	(*n)++;
}

/* Keeps in g->tags only the tags r has too. */
static void tags_keep_common(struct bs_report_group *g, const struct bs_run *r,
			     int first)
{
	size_t i, j, k = 0;

	if (first) {
		g->tags = xcalloc(r->ntags ? r->ntags : 1, sizeof(*g->tags));
		for (i = 0; i < r->ntags; i++) {
			struct bs_buf b = BS_BUF_INIT;
			bs_buf_addf(&b, "%s=%s", r->tags[i].key,
				    r->tags[i].value);
			g->tags[g->ntags++] = bs_buf_detach(&b, NULL);
		}
		return;
	}
	for (i = 0; i < g->ntags; i++) {
		int found = 0;
		for (j = 0; j < r->ntags && !found; j++) {
			size_t kl = strlen(r->tags[j].key);
			found = strncmp(g->tags[i], r->tags[j].key, kl) == 0 &&
				g->tags[i][kl] == '=' &&
				strcmp(g->tags[i] + kl + 1,
				       r->tags[j].value) == 0;
		}
		if (found)
			g->tags[k++] = g->tags[i];
		else
			free(g->tags[i]);
	}
	g->ntags = k;
}

/* Counts r's tags in g->mix (struct bs_report_tagmix). */
static void mix_add(struct bs_report_group *g, const struct bs_run *r)
{
	size_t i, j, v;

	for (i = 0; i < r->ntags; i++) {
		struct bs_report_tagmix *x = NULL;

		for (j = 0; j < g->nmix && x == NULL; j++)
			if (strcmp(g->mix[j].key, r->tags[i].key) == 0)
				x = &g->mix[j];
		if (x == NULL) {
			if (g->nmix == BS_REPORT_MIX_KEYS)
				continue;
			if (g->mix == NULL)
				g->mix = xcalloc(BS_REPORT_MIX_KEYS,
						 sizeof(*g->mix));
			x = &g->mix[g->nmix++];
			x->key = xstrdup(r->tags[i].key);
		}
		x->seen++;
		for (v = 0; v < x->nval; v++)
			if (strcmp(x->val[v], r->tags[i].value) == 0)
				break;
		if (v < x->nval) {
			x->cnt[v]++;
		} else if (x->nval < BS_REPORT_LIST) {
			x->val[x->nval] = xstrdup(r->tags[i].value);
			x->cnt[x->nval++] = 1;
		} else {
			x->other++;
		}
	}
}

/* Which runs a parameter row is compared over: the integer and real kinds
 * and text; not the ones marked not to compare (seeds). */
static int compared(int k)
{
	return !(bs_param_table[k].flags & BS_PF_NOCOMPARE);
}

/* What an unknown value of each parameter is taken to be, from the rules
 * (bs_param_rules), worked out once per report. */
static void assumed_values(int64_t assume[BS_P_MAX])
{
	int i, j, n, k[8];

	for (j = 0; j < bs_nparams; j++)
		assume[j] = BS_NONE;
	for (i = 0; i < bs_nparam_rules; i++) {
		if (!bs_param_rules[i].assume_default)
			continue;
		n = bs_param_rule_keys(&bs_param_rules[i], k, 8);
		for (j = 0; j < n; j++)
			assume[k[j]] = bs_param_table[k[j]].dflt;
	}
}

static void param_add_i64(struct bs_report_param *p, int64_t v, int first)
{
	if (first) {
		p->value = p->lo = p->hi = v;
		p->mixed = 0;
		return;
	}
	if (v == BS_NONE)
		return;
	if (p->lo == BS_NONE) {
		p->value = p->lo = p->hi = v;
		return;
	}
	if (v < p->lo)
		p->lo = v;
	if (v > p->hi)
		p->hi = v;
	if (p->lo != p->hi) {
		p->mixed = 1;
		p->value = BS_NONE;
	}
}

static void param_add_real(struct bs_report_param *p, double v, int first)
{
	if (first) {
		p->rvalue = p->rlo = p->rhi = v;
		p->mixed = 0;
		return;
	}
	if (isnan(v))
		return;
	if (isnan(p->rlo)) {
		p->rvalue = p->rlo = p->rhi = v;
		return;
	}
	if (v < p->rlo)
		p->rlo = v;
	if (v > p->rhi)
		p->rhi = v;
	if (p->rlo != p->rhi) {
		p->mixed = 1;
		p->rvalue = NAN;
	}
}

static void param_add_text(struct bs_report_param *p, const char *v)
{
	if (v == NULL)
		return;
	if (p->text == NULL)
		p->text = xstrdup(v);
	else if (strcmp(p->text, v) != 0)
		p->mixed = 1;
}

/* Counts a known value of parameter k (of the run's family) in p->vals;
 * t, i or r by its kind. */
static void param_count(struct bs_report_param *p, int k, const char *t,
			int64_t i, double r)
{
	enum bs_pkind kind = bs_param_table[k].kind;
	size_t j;

	for (j = 0; j < p->nvals; j++) {
		const struct bs_report_pval *x = &p->vals[j];
		if (kind == BS_PK_TEXT ? strcmp(x->t, t) == 0
		    : kind == BS_PK_REAL ? x->r == r
					 : x->i == i) {
			p->vals[j].n++;
			return;
		}
	}
	if (p->nvals == BS_REPORT_LIST) {
		p->vother++;
		return;
	}
	p->vals[p->nvals].t = kind == BS_PK_TEXT ? xstrdup(t) : NULL;
	p->vals[p->nvals].i = i;
	p->vals[p->nvals].r = r;
	p->vals[p->nvals++].n = 1;
}

/* Adds r's parameters to the group's summary of them. */
static void params_add(struct bs_report_group *g, const struct bs_run *r,
		       int first, const int64_t *assume)
{
	const char *t;
	int64_t v;
	double x;
	int k, own;

	for (k = 0; k < bs_nparams; k++) {
		if (!compared(k))
			continue;
		own = bs_param_table[k].family == r->family;
		switch (bs_param_table[k].kind) {
		case BS_PK_TEXT:
			t = bs_param_get_text(&r->params, k);
			param_add_text(&g->param[k], t);
			if (own && t)
				param_count(&g->param[k], k, t, 0, 0);
			break;
		case BS_PK_REAL:
			x = bs_param_get_real(&r->params, k);
			param_add_real(&g->param[k], x, first);
			if (own && !isnan(x))
				param_count(&g->param[k], k, NULL, 0, x);
			break;
		default:
			v = bs_param_get_i64(&r->params, k);
			if (v == BS_NONE && own)
				v = assume[k];
			param_add_i64(&g->param[k], v, first);
			if (own && v != BS_NONE)
				param_count(&g->param[k], k, NULL, v, 0);
			break;
		}
	}
}

/* Value j of parameter k of a group for people, with its unit: "rndrw",
 * "16384 bytes", "on". */
static const char *pval_text(int k, const struct bs_report_pval *x,
			     char *out, size_t outsz)
{
	struct bs_params p;
	struct bs_buf b = BS_BUF_INIT;

	bs_params_init(&p);
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		*bs_param_text(&p, k) = x->t;
		break;
	case BS_PK_REAL:
		*bs_param_real(&p, k) = x->r;
		break;
	default:
		*bs_param_i64(&p, k) = x->i;
		break;
	}
	bs_param_describe(&p, k, &b);
	/* An empty text (no extra flags) is a value too. */
	snprintf(out, outsz, "%s", b.len ? bs_buf_str(&b) : "none");
	bs_buf_release(&b);
	return out;
}

void bs_rparam_values(const struct bs_report_group *g, int k,
		      struct bs_buf *b)
{
	const struct bs_report_param *p = &g->param[k];
	/* Runs of other tools do not have it: not unknown, not counted. */
	int64_t runs = g->fam_runs[bs_param_table[k].family];
	int64_t known = p->vother;
	char v[96];
	size_t j;

	for (j = 0; j < p->nvals; j++)
		known += p->vals[j].n;
	if (p->nvals == 1 && known == runs) {
		bs_buf_adds(b, pval_text(k, &p->vals[0], v, sizeof(v)));
		return;
	}
	for (j = 0; j < p->nvals; j++)
		bs_buf_addf(b, "%s%s (%lld %s)",
			    j == 0				  ? ""
			    : j + 1 == p->nvals && !p->vother &&
					  known == runs
				    ? " and "
				    : ", ",
			    pval_text(k, &p->vals[j], v, sizeof(v)),
			    (long long)p->vals[j].n,
			    p->vals[j].n == 1 ? "run" : "runs");
	if (p->vother)
		bs_buf_addf(b, "%s%lld more with other values",
			    known == runs ? " and " : ", ",
			    (long long)p->vother);
	if (known < runs)
		bs_buf_addf(b, " and %lld unknown",
			    (long long)(runs - known));
}

void bs_rparams_deciding(const struct bs_report_group *g, struct bs_buf *b)
{
	const struct bs_param_rule *spec = NULL;
	int r, k, n, kk[8];
	char v[96];
	size_t start;

	for (r = 0; r < bs_nparam_rules && spec == NULL; r++)
		if (bs_param_rules[r].filespec)
			spec = &bs_param_rules[r];
	for (k = 0; k < bs_nparams; k++) {
		const struct bs_param_info *pi = &bs_param_table[k];

		if (!(pi->flags & BS_PF_DECIDES) ||
		    !((g->families >> pi->family) & 1))
			continue;
		start = b->len;
		bs_buf_addf(b, "%s%s ", start ? ", " : "", pi->label);
		/* The -n spec stands for its rule's parameters. */
		n = spec ? bs_param_rule_keys(spec, kk, 8) : 0;
		if (n && kk[0] == k) {
			bs_buf_adds(b, bs_rfmt_files(g, v, sizeof(v)));
		} else if (g->param[k].mixed || g->param[k].nvals > 1) {
			bs_rparam_values(g, k, b);
		} else if (pi->kind == BS_PK_TEXT && g->param[k].text &&
			   !g->param[k].text[0]) {
			bs_buf_adds(b, "none"); /* no flags given */
		} else {
			bs_rfmt_param(g, k, v, sizeof(v));
			if (v[0] && pi->unit[0] && strcmp(pi->unit, "MiB") != 0)
				bs_buf_addf(b, "%s %s", v, pi->unit);
			else
				bs_buf_adds(b, v);
		}
		/* Unknown or empty (no extra flags): left out. */
		if (bs_buf_str(b)[b->len - 1] == ' ')
			bs_buf_trim(b, b->len - start);
	}
}

/* Do groups a and b have the same one value of parameter k (or neither
 * know it)? */
static int pvals_same(const struct bs_report_group *a,
		      const struct bs_report_group *b, int k)
{
	const struct bs_report_param *x = &a->param[k], *y = &b->param[k];

	if (x->nvals + (size_t)(x->vother > 0) > 1 ||
	    y->nvals + (size_t)(y->vother > 0) > 1)
		return 0;
	if (x->nvals == 0 || y->nvals == 0)
		return 1; /* unknown on a side: nothing says they differ */
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		return strcmp(x->vals[0].t, y->vals[0].t) == 0;
	case BS_PK_REAL:
		return x->vals[0].r == y->vals[0].r;
	default:
		return x->vals[0].i == y->vals[0].i;
	}
}

/* The generation of r's dialect (core/dialect.h). */
static unsigned gen_of(const struct bs_run *r)
{
	switch (bs_dialect_of(r)->era) {
	case BS_ERA_1_0X:
		return BS_GEN_1_0X;
	case BS_ERA_1_9X:
	case BS_ERA_1_98:
		return BS_GEN_1_9X;
	default:
		return 0;
	}
}

enum bs_status bs_rmetric(const struct bs_run *r, int m, double *v)
{
	const struct bs_value *x = &r->res[BS_RM_TEST(m)];

	*v = NAN;
	if (BS_RM_KIND(m) != BS_MK_RATE &&
	    !(bs_metrics[BS_RM_TEST(m)].flags & BS_MF_CPU_LAT))
		return BS_ST_NOT_RUN;
	switch (BS_RM_KIND(m)) {
	case BS_MK_RATE:
		if (x->status == BS_ST_OK && !isnan(x->value)) {
			*v = x->value;
			return BS_ST_OK;
		}
		return x->status == BS_ST_TOO_FAST ? BS_ST_TOO_FAST
						   : BS_ST_NOT_RUN;
	case BS_MK_CPU:
		if (x->status == BS_ST_OK && !isnan(x->cpu_pct)) {
			*v = x->cpu_pct;
			return BS_ST_OK;
		}
		return x->status == BS_ST_TOO_FAST ? BS_ST_TOO_FAST
						   : BS_ST_NOT_RUN;
	default:
		/* bonnie++ prints a latency even for a "+++++" test. */
		if (!isnan(x->lat_us)) {
			*v = x->lat_us;
			return BS_ST_OK;
		}
		return BS_ST_NOT_RUN;
	}
}

/* ---- the kept list of runs ------------------------------------------- */

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The index of s in the pool, adding it when new. */
static uint32_t intern(struct bs_rruns *rr, const char *s)
{
	size_t i, k;

	if (rr->nstr * 2 >= rr->nslot) {
		size_t n = rr->nslot ? rr->nslot * 2 : 64;
		uint32_t *slot = xcalloc(n, sizeof(*slot));
		for (k = 0; k < rr->nstr; k++) {
			i = hash_str(rr->str[k]) & (n - 1);
			while (slot[i])
				i = (i + 1) & (n - 1);
			slot[i] = (uint32_t)k + 1;
		}
		free(rr->slot);
		rr->slot = slot;
		rr->nslot = n;
	}
	i = hash_str(s) & (rr->nslot - 1);
	while (rr->slot[i]) {
		if (strcmp(rr->str[rr->slot[i] - 1], s) == 0)
			return rr->slot[i] - 1;
		i = (i + 1) & (rr->nslot - 1);
	}
	xgrow((void **)&rr->str, &rr->capstr, rr->nstr + 1, sizeof(*rr->str));
	rr->str[rr->nstr] = xstrdup(s);
	rr->slot[i] = (uint32_t)rr->nstr + 1;
	return (uint32_t)rr->nstr++;
}

/* Does the list of runs show catalogue row t? */
static int listed(int t)
{
	return bs_metrics[t].family == BS_FAM_BONNIE
		       ? t < BS_M_BONNIE
		       : (bs_metrics[t].flags & BS_MF_MAIN) != 0;
}

int bs_rlist_slot(int t)
{
	int t0, t1, k, n = 0;

	if (!listed(t))
		return -1;
	bs_metric_rows(bs_metrics[t].family, &t0, &t1);
	for (k = t0; k < t; k++)
		n += listed(k);
	return n < BS_M_BONNIE ? n : -1;
}

void bs_rrow_fill(struct bs_rruns *rr, const struct bs_run *r, uint32_t group,
		  struct bs_rrow *row)
{
	int t, t0, t1, n = 0;

	row->id = r->id;
	row->size_mib = r->params.file_size_mib;
	row->group = group;
	row->family = (unsigned char)r->family;
	row->machine = intern(rr, bs_store_machine_name(r->machine));
	row->version = intern(rr, r->tool_version ? r->tool_version : "");
	bs_metric_rows(r->family, &t0, &t1);
	for (t = t0; t < t1 && n < BS_M_BONNIE; t++) {
		if (!listed(t))
			continue;
		row->status[n] = (unsigned char)r->res[t].status;
		bs_rmetric(r, BS_RM(t, BS_MK_RATE), &row->rate[n++]);
	}
	for (; n < BS_M_BONNIE; n++) {
		row->status[n] = BS_ST_NOT_RUN;
		row->rate[n] = NAN;
	}
}

void bs_rruns_free(struct bs_rruns *rr)
{
	size_t i;

	if (rr == NULL)
		return;
	for (i = 0; i < rr->nstr; i++)
		free(rr->str[i]);
	free(rr->str);
	free(rr->slot);
	free(rr->row);
	free(rr);
}

static void keep_run(struct bs_rruns *rr, const struct bs_run *r,
		     uint32_t group)
{
	if (rr->dropped)
		return;
	if ((rr->n + 1) * sizeof(*rr->row) > BS_REPORT_KEEP_MAX) {
		/* Too many to keep: the renderer reads them again. */
		free(rr->row);
		rr->row = NULL;
		rr->n = rr->cap = 0;
		rr->dropped = 1;
		return;
	}
	xgrow((void **)&rr->row, &rr->cap, rr->n + 1, sizeof(*rr->row));
	bs_rrow_fill(rr, r, group, &rr->row[rr->n++]);
}

/* "bonnie++ 1.03" into out (without snprintf: this runs for every run). */
static void version_of(const struct bs_run *r, char *out, size_t outsz)
{
	const char *t = r->tool ? r->tool : "?";
	const char *v = r->tool_version ? r->tool_version : "?";
	size_t lt = strlen(t), lv = strlen(v);

	if (lt + lv + 2 > outsz) {
		lt = lt < outsz / 2 ? lt : outsz / 2 - 1;
		lv = outsz - lt - 2;
	}
	memcpy(out, t, lt);
	out[lt] = ' ';
	memcpy(out + lt + 1, v, lv);
	out[lt + 1 + lv] = '\0';
}

static int add_run(const struct bs_run *r, void *ctx)
{
	struct acc *a = ctx;
	struct bs_report_group *g = a->g;
	struct bs_report *rep = a->rep;
	int first = g->nruns == 0, m, t0, t1;
	double v, d;
	char ver[128];

	if (rep->runs)
		keep_run(rep->runs, r, (uint32_t)(g - rep->groups));
	xgrow((void **)&g->ids, &a->ids_cap, (size_t)g->nruns + 1,
	      sizeof(*g->ids));
	g->ids[g->nruns++] = r->id;
	list_add(&g->machines, &g->nmachines, &g->more_machines,
		 bs_store_machine_name(r->machine));
	version_of(r, ver, sizeof(ver));
	list_add(&g->versions, &g->nversions, &g->more_versions, ver);
	tags_keep_common(g, r, first);
	mix_add(g, r);
	g->gens |= gen_of(r);
	g->families |= 1u << r->family;
	g->fam_runs[r->family]++;
	params_add(g, r, first, a->assume);
	if (r->nseries)
		bs_rcurves_add(rep, (size_t)(g - rep->groups), r, a->want_any);
	/* The metrics of the run's family: consecutive catalogue rows. */
	bs_metric_rows(r->family, &t0, &t1);
	for (m = BS_RM(t0, 0); m < BS_RM(t1, 0); m++) {
		struct bs_report_cell *c = &g->cell[m];
		switch (bs_rmetric(r, m, &v)) {
		case BS_ST_OK:
			c->ok++;
			/* Welford: stable mean and variance in one pass. */
			d = v - c->mean;
			c->mean += d / (double)c->ok;
			a->m2[m] += d * (v - c->mean);
			xgrow((void **)&a->vals[m], &a->vals_cap[m],
			      (size_t)c->ok, sizeof(*a->vals[m]));
			a->vals[m][c->ok - 1] = v;
			if (c->ok == 1 || v < c->min)
				c->min = v;
			if (c->ok == 1 || v > c->max)
				c->max = v;
			if (isnan(rep->run_best[m]) ||
			    (bs_rm_better(m) > 0 ? v > rep->run_best[m]
						 : v < rep->run_best[m]))
				rep->run_best[m] = v;
			if (isnan(rep->run_worst[m]) ||
			    (bs_rm_better(m) > 0 ? v < rep->run_worst[m]
						 : v > rep->run_worst[m]))
				rep->run_worst[m] = v;
			break;
		case BS_ST_TOO_FAST:
			c->too_fast++;
			break;
		default:
			c->not_run++;
			break;
		}
	}
	return 0;
}

/* ---- after the runs ------------------------------------------------ */

static void finish_cells(struct bs_report_group *g, struct acc *a)
{
	int m;

	for (m = 0; m < BS_RM_USED; m++) {
		struct bs_report_cell *c = &g->cell[m];
		c->diff = c->ratio = c->pct = NAN;
		c->shade = -1;
		if (c->ok > 0) {
			c->status = BS_ST_OK;
			c->sd = c->ok > 1 ? sqrt(a->m2[m] /
						 (double)(c->ok - 1))
					  : NAN;
			c->median = bs_stat_median(a->vals[m], (size_t)c->ok);
			continue;
		}
		c->status = c->too_fast > 0 ? BS_ST_TOO_FAST : BS_ST_NOT_RUN;
		c->mean = c->sd = c->min = c->max = c->median = NAN;
	}
}

static void acc_release(struct acc *a)
{
	int m;

	for (m = 0; m < BS_RM_COUNT; m++)
		free(a->vals[m]);
}

int bs_rblock_start(const struct bs_report *rep, size_t i)
{
	return rep->multi_base && i > 0 &&
	       rep->groups[i].base != rep->groups[i - 1].base;
}

double bs_report_noise(const struct bs_report *rep)
{
	return rep->opts.noise_set ? rep->opts.noise_pct : BS_STAT_NOISE_PCT;
}

static struct bs_stat_sample sample_of(const struct bs_report_cell *c)
{
	struct bs_stat_sample x = {(double)c->ok, c->mean, c->sd};

	return x;
}

/* Does group g have a number or a "+++++" for any test in [t0, t1]? */
static int has_tests(const struct bs_report_group *g, int t0, int t1)
{
	int t;

	for (t = t0; t <= t1; t++)
		if (g->cell[BS_RM(t, BS_MK_RATE)].status != BS_ST_NOT_RUN)
			return 1;
	return 0;
}

/* The catalogue rows [*t0, *t1] a rule is about. */
static void rule_rows(const struct bs_param_rule *pr, int k0, int *t0,
		      int *t1)
{
	*t0 = bs_metric_find(bs_param_table[k0].family, pr->first);
	*t1 = bs_metric_find(bs_param_table[k0].family, pr->last);
	if (*t0 < 0 || *t1 < *t0)
		BS_BUG("a parameter rule names metrics not in the catalogue");
}

/*
 * Each group against its baseline: the rows of every rule with apart
 * whose parameters the two do not share one value of (struct
 * bs_report_group's apart, apart_why).
 */
static void mark_apart(struct bs_report *rep)
{
	struct bs_buf why = BS_BUF_INIT;
	int r, j, n, k[8], t, t0, t1, also;
	size_t i;

	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_group *b = &rep->groups[g->base];

		if (i == g->base)
			continue;
		bs_buf_reset(&why);
		also = 0;
		for (r = 0; r < bs_nparam_rules; r++) {
			const struct bs_param_rule *pr = &bs_param_rules[r];
			int differ = 0;

			if (!pr->apart)
				continue;
			n = bs_param_rule_keys(pr, k, 8);
			rule_rows(pr, k[0], &t0, &t1);
			if (!has_tests(g, t0, t1) || !has_tests(b, t0, t1))
				continue;
			for (j = 0; j < n; j++) {
				if (pvals_same(g, b, k[j]))
					continue;
				differ = 1;
				/* The first with its values, the others
				 * named: the notes have their values. */
				if (why.len) {
					bs_buf_addf(&why, "%s%s",
						    also++ ? ", " : "; also ",
						    bs_param_table[k[j]].label);
					continue;
				}
				bs_buf_addf(&why, "%s ",
					    bs_param_table[k[j]].label);
				bs_rparam_values(g, k[j], &why);
				bs_buf_adds(&why, " against ");
				bs_rparam_values(b, k[j], &why);
			}
			for (t = t0; differ && t <= t1; t++)
				g->apart[t] = 1;
		}
		if (why.len)
			g->apart_why = xstrdup(bs_buf_str(&why));
	}
	bs_buf_release(&why);
}

/*
 * Every group against the baseline: diff, ratio and change; the ratio's
 * interval and Welch's test, the p-values corrected together over the
 * page (Holm), then each cell's verdict (report/stats.h).
 */
static void compare(struct bs_report *rep)
{
	double noise = bs_report_noise(rep);
	size_t i, n = rep->ngroups * (size_t)BS_RM_USED, *scratch;
	double *p = xmalloc(n * sizeof(*p));
	int m;

	scratch = xmalloc(n * sizeof(*scratch));
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_group *b = &rep->groups[g->base];

		for (m = 0; m < BS_RM_USED; m++) {
			struct bs_report_cell *c = &g->cell[m];
			const struct bs_report_cell *bc = &b->cell[m];
			struct bs_stat_sample gs = sample_of(c);
			struct bs_stat_sample bs = sample_of(bc);

			p[i * (size_t)BS_RM_USED + (size_t)m] = NAN;
			c->ci = c->status == BS_ST_OK ? bs_stat_mean_ci(&gs)
						      : NAN;
			c->ratio_lo = c->ratio_hi = c->p = NAN;
			c->verdict = BS_V_NONE;
			if (i == g->base ||
			    c->status != BS_ST_OK || bc->status != BS_ST_OK)
				continue;
			c->diff = c->mean - bc->mean;
			if (bc->mean != 0) {
				c->ratio = c->mean / bc->mean;
				/* Not (ratio - 1) * 100: 6 / 30 gives 20.0. */
				c->pct = c->diff * 100.0 / bc->mean;
			}
			/* +1 when the change goes the better way. */
			if (c->mean != bc->mean)
				c->better = (c->mean > bc->mean ? 1 : -1) *
					    bs_rm_better(m);
			if (bs_stat_ratio_ci(&gs, &bs, &c->ratio_lo,
					     &c->ratio_hi) < 0)
				c->ratio_lo = c->ratio_hi = NAN;
			/* Different tests: no side is better, and no test
			 * is counted in Holm's correction. */
			if (g->apart[BS_RM_TEST(m)]) {
				c->better = 0;
				continue;
			}
			p[i * (size_t)BS_RM_USED + (size_t)m] =
				bs_stat_welch_p(&gs, &bs);
		}
	}
	bs_stat_holm(p, n, scratch);
	for (i = 0; i < rep->ngroups; i++) {
		for (m = 0; m < BS_RM_USED; m++) {
			struct bs_report_cell *c = &rep->groups[i].cell[m];

			if (i == rep->groups[i].base || isnan(c->pct))
				continue;
			c->p = p[i * (size_t)BS_RM_USED + (size_t)m];
			c->verdict = rep->groups[i].apart[BS_RM_TEST(m)]
					     ? BS_V_APART
					     : bs_stat_verdict(c->pct,
							       bs_rm_better(m),
							       c->p, noise);
		}
	}
	free(p);
	free(scratch);
}

/* Marks the best group per metric and shades the others against it. */
static void shade(struct bs_report *rep)
{
	size_t i;
	int m, distinct;
	double best, first;

	for (m = 0; m < BS_RM_USED; m++) {
		best = first = NAN;
		distinct = 0;
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			if (c->status != BS_ST_OK)
				continue;
			if (isnan(first))
				first = c->mean;
			else if (c->mean != first)
				distinct = 1;
			if (isnan(best) || (bs_rm_better(m) > 0
						    ? c->mean > best
						    : c->mean < best))
				best = c->mean;
		}
		/* One number, or all equal, or no better side: nothing to
		 * rank. */
		if (!distinct || bs_rm_better(m) == 0)
			continue;
		for (i = 0; i < rep->ngroups; i++) {
			struct bs_report_cell *c = &rep->groups[i].cell[m];
			if (c->status != BS_ST_OK)
				continue;
			c->best = c->mean == best;
			c->shade = bs_rshade(bs_rm_better(m), c->mean, best);
		}
	}
}

static void add_note(struct bs_report *rep, struct bs_buf *b)
{
	rep->notes = xrealloc(rep->notes,
			      (rep->nnotes + 1) * sizeof(*rep->notes));
	rep->notes[rep->nnotes++] = bs_buf_detach(b, NULL);
}

/*
 * A note for one of bs_param_rules when the groups that ran its metrics
 * disagree on its parameters (or one of them mixes values).
 */
static void param_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	struct bs_buf b = BS_BUF_INIT;
	char first[512], cur[512];
	int k[8], np = bs_param_rule_keys(pr, k, 8), j, differ = 0, known = 0;
	int t0, t1;
	size_t i;

	rule_rows(pr, k[0], &t0, &t1);
	first[0] = '\0';
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		if (!has_tests(g, t0, t1))
			continue;
		if (pr->filespec) {
			bs_rfmt_files(g, cur, sizeof(cur));
		} else {
			cur[0] = '\0';
			for (j = 0; j < np; j++) {
				char v[64];
				size_t n = strlen(cur);
				bs_rfmt_param(g, k[j], v, sizeof(v));
				/* Text has no range: its values, counted. */
				if (g->param[k[j]].mixed &&
				    bs_param_table[k[j]].kind == BS_PK_TEXT) {
					struct bs_buf vb = BS_BUF_INIT;
					bs_rparam_values(g, k[j], &vb);
					snprintf(v, sizeof(v), "%s",
						 bs_buf_str(&vb));
					bs_buf_release(&vb);
				}
				snprintf(cur + n, sizeof(cur) - n, "%s%s",
					 j ? "/" : "", v[0] ? v : "?");
			}
		}
		for (j = 0; j < np; j++)
			if (g->param[k[j]].mixed)
				differ = 1;
		if (strcmp(cur, "") == 0 || strspn(cur, "?/") == strlen(cur))
			continue;
		if (known++ == 0)
			snprintf(first, sizeof(first), "%s", cur);
		else if (strcmp(first, cur) != 0)
			differ = 1;
		bs_buf_addf(&b, "%s[%zu] %s", known > 1 ? ", " : "", i + 1,
			    cur);
	}
	if (differ) {
		struct bs_buf n = BS_BUF_INIT;
		bs_buf_addf(&n, "%s differs: %s; %s%s", pr->what,
			    bs_buf_str(&b), pr->why,
			    pr->apart ? ": different tests, given no verdict "
					"and no ratio in the summary"
				      : "");
		add_note(rep, &n);
	}
	bs_buf_release(&b);
}

static void gen_note(struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	unsigned all = 0;
	size_t i, k;
	int n = 0;

	for (i = 0; i < rep->ngroups; i++)
		if (has_tests(&rep->groups[i], BS_M_PUTC, BS_M_SEEKS))
			all |= rep->groups[i].gens;
	if (all != (BS_GEN_1_0X | BS_GEN_1_9X))
		return;
	bs_buf_adds(&b, "bonnie++ 1.0x and 1.9x or later measure per-char "
			"I/O and seeks differently (stdio putc/getc over the "
			"whole file against 1-byte system calls over the -f "
			"size; 3 seek processes against 5 threads), so putc, "
			"getc and seeks do not compare:");
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		if (!has_tests(g, BS_M_PUTC, BS_M_SEEKS))
			continue;
		bs_buf_addf(&b, "%s [%zu] ", n++ ? "," : "", i + 1);
		for (k = 0; k < g->nversions; k++)
			bs_buf_addf(&b, "%s%s", k ? ", " : "", g->versions[k]);
		if (g->more_versions)
			bs_buf_adds(&b, ", ...");
	}
	add_note(rep, &b);
}

/*
 * Tests two tools measure alike (bs_metric_same): when the report holds
 * runs of both tools, a group without a number in the second's row gets
 * the first's (dd's write rate in bonnie++'s Block write row), so the
 * two compare, and a note says which groups and how the tests differ.
 */
static void same_tests(struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	unsigned fams = 0;
	size_t i;
	int k;

	for (i = 0; i < rep->ngroups; i++)
		fams |= rep->groups[i].families;
	for (k = 0; k < bs_nmetric_same; k++) {
		const struct bs_metric_same *s = &bs_metric_same[k];
		int from = bs_metric_find(s->from, s->from_key);
		int to = bs_metric_find(s->to, s->to_key), n = 0;
		int fm = BS_RM(from, BS_MK_RATE), tm = BS_RM(to, BS_MK_RATE);

		if (from < 0 || to < 0)
			BS_BUG("bs_metric_same names a metric not in the "
			       "catalogue");
		if (!((fams >> s->from) & 1) || !((fams >> s->to) & 1))
			continue;
		for (i = 0; i < rep->ngroups; i++) {
			struct bs_report_group *g = &rep->groups[i];
			struct bs_report_cell *fc = &g->cell[fm];

			if (g->cell[tm].ok + g->cell[tm].too_fast > 0 ||
			    fc->ok + fc->too_fast == 0)
				continue;
			g->cell[tm] = *fc;
			if (fc->ok > 0) {
				if (isnan(rep->run_best[tm]) ||
				    fc->max > rep->run_best[tm])
					rep->run_best[tm] = fc->max;
				if (isnan(rep->run_worst[tm]) ||
				    fc->min < rep->run_worst[tm])
					rep->run_worst[tm] = fc->min;
			}
			if (n++ == 0)
				bs_buf_addf(&b, "%s %s and %s are different "
						"tools (%s); their rates (%s) "
						"share the %s row for",
					    bs_family_name(s->from),
					    bs_metrics[from].label,
					    bs_metrics[to].label, s->why,
					    bs_metrics[to].unit,
					    bs_metrics[to].label);
			bs_buf_addf(&b, "%s [%zu]", n > 1 ? "," : "", i + 1);
		}
		if (n > 0)
			add_note(rep, &b);
	}
	bs_buf_release(&b);
}

static const char *runs_word(int64_t n)
{
	return n == 1 ? "run" : "runs";
}

/*
 * A note per group whose runs are unlike: they differ in a tag (host
 * facts are tags host.*), the tool's version, or a parameter of
 * bs_param_rules.
 */
static void mix_note(struct bs_report *rep, size_t i)
{
	const struct bs_report_group *g = &rep->groups[i];
	struct bs_buf b = BS_BUF_INIT;
	size_t j, v, parts = 0;
	int r, k[8], n, kk, seen[BS_P_MAX] = {0}, split = -1;

	for (j = 0; j < g->nmix; j++) {
		const struct bs_report_tagmix *x = &g->mix[j];

		if (x->nval < 2 && x->seen == g->nruns)
			continue;
		bs_buf_adds(&b, parts++ ? "; " : "");
		for (v = 0; v < x->nval; v++)
			bs_buf_addf(&b, "%s%s=%s (%lld %s)",
				    v == 0			     ? ""
				    : v + 1 == x->nval && !x->other &&
						  x->seen == g->nruns
					    ? " and "
					    : ", ",
				    x->key, x->val[v], (long long)x->cnt[v],
				    runs_word(x->cnt[v]));
		if (x->other)
			bs_buf_addf(&b, "%s%lld more %s with other values",
				    x->seen == g->nruns ? " and " : ", ",
				    (long long)x->other, runs_word(x->other));
		if (x->seen < g->nruns)
			bs_buf_addf(&b, " and %lld without %s",
				    (long long)(g->nruns - x->seen), x->key);
	}
	if (g->nversions > 1) {
		bs_buf_adds(&b, parts++ ? "; " : "");
		for (v = 0; v < g->nversions; v++)
			bs_buf_addf(&b, "%s%s",
				    v == 0 ? ""
				    : v + 1 == g->nversions && !g->more_versions
					    ? " and "
					    : ", ",
				    g->versions[v]);
		if (g->more_versions)
			bs_buf_adds(&b, " and more");
	}
	for (r = 0; r < bs_nparam_rules; r++) {
		n = bs_param_rule_keys(&bs_param_rules[r], k, 8);
		for (kk = 0; kk < n; kk++) {
			if (seen[k[kk]] || !g->param[k[kk]].mixed)
				continue;
			seen[k[kk]] = 1;
			bs_buf_addf(&b, "%s%s ", parts++ ? "; " : "",
				    bs_param_table[k[kk]].label);
			bs_rparam_values(g, k[kk], &b);
			/* Different tests in one group: say how to split
			 * them (report/factor.h takes parameters). */
			if (bs_param_rules[r].apart && split < 0)
				split = k[kk];
		}
	}
	if (parts) {
		struct bs_buf t = BS_BUF_INIT;

		bs_buf_addf(&t, "[%zu] mixes %s; its means average unlike "
				"runs",
			    i + 1, bs_buf_str(&b));
		if (split >= 0)
			bs_buf_addf(&t, " (--by %s splits them)",
				    bs_param_table[split].key);
		add_note(rep, &t);
	}
	bs_buf_release(&b);
}

/*
 * A note per group whose size parameter of a rule with ram_tag is under
 * twice the RAM its runs' common tag says: the page cache may hold the
 * files, so rates may be the memory's.
 */
static void ram_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	size_t i, j, tl = strlen(pr->ram_tag);
	int k[8], t0, t1;
	int64_t ram_mib;
	char v[96];

	bs_param_rule_keys(pr, k, 8);
	rule_rows(pr, k[0], &t0, &t1);
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_param *p = &g->param[k[0]];
		struct bs_buf b = BS_BUF_INIT;
		const char *ram = NULL;

		if (!has_tests(g, t0, t1) || p->nvals != 1)
			continue;
		for (j = 0; j < g->ntags && ram == NULL; j++)
			if (strncmp(g->tags[j], pr->ram_tag, tl) == 0 &&
			    g->tags[j][tl] == '=')
				ram = g->tags[j] + tl + 1;
		if (ram == NULL ||
		    bs_parse_i64(ram, strlen(ram), &ram_mib) < 0 ||
		    ram_mib <= 0 || p->vals[0].i >= ram_mib * 2 * 1048576)
			continue;
		bs_buf_addf(&b, "[%zu] %s %s is under twice the host's RAM "
				"(%s=%s): the page cache may hold the files, "
				"so its rates may be the memory's",
			    i + 1, bs_param_table[k[0]].label,
			    pval_text(k[0], &p->vals[0], v, sizeof(v)),
			    pr->ram_tag, ram);
		add_note(rep, &b);
	}
}

static void notes(struct bs_report *rep)
{
	size_t i;

	gen_note(rep);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		param_note(rep, &bs_param_rules[i]);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		if (bs_param_rules[i].ram_tag)
			ram_note(rep, &bs_param_rules[i]);
	for (i = 0; i < rep->ngroups; i++)
		mix_note(rep, i);
}

/* The comma that ends the selector term at p, or NULL: a "\," inside a
 * value is not one (docs/selectors.md). */
static const char *term_end(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == ',')
			return p;
	}
	return NULL;
}

/* Is the term [t, t + len) one of the comma-separated terms of sel? */
static int has_term(const char *sel, const char *t, size_t len)
{
	const char *p = sel, *end;

	for (;;) {
		end = term_end(p);
		if ((end ? (size_t)(end - p) : strlen(p)) == len &&
		    memcmp(p, t, len) == 0)
			return 1;
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

/*
 * The terms of selector i that every selector has (common) or not (the
 * rest), each separated by ", " in selector order.
 */
static void split_terms(const char *const *sel, size_t n, size_t i,
			struct bs_buf *common, struct bs_buf *rest)
{
	const char *p = sel[i], *end;
	size_t len, j;
	int all;

	for (;;) {
		end = term_end(p);
		len = end ? (size_t)(end - p) : strlen(p);
		for (all = 1, j = 0; j < n && all; j++)
			all = has_term(sel[j], p, len);
		/* ", " between terms: a label wraps between them. */
		if (all && common)
			bs_buf_addf(common, "%s%.*s", common->len ? ", " : "",
				    (int)len, p);
		if (!all && rest)
			bs_buf_addf(rest, "%s%.*s", rest->len ? ", " : "",
				    (int)len, p);
		if (end == NULL)
			return;
		p = end + 1;
	}
}

/* The labels (opts.labels, else the terms that differ) and the title. */
static void make_labels(struct bs_report *rep,
			const struct bs_report_opts *opts,
			const char *const *sel)
{
	struct bs_buf b = BS_BUF_INIT, common = BS_BUF_INIT;
	size_t i, n = rep->ngroups;

	if (n > 1)
		split_terms(sel, n, 0, &common, NULL);
	for (i = 0; i < n; i++) {
		struct bs_report_group *g = &rep->groups[i];

		g->selector = xstrdup(sel[i]);
		bs_buf_reset(&b);
		if (opts->labels && opts->labels[i]) {
			bs_buf_adds(&b, opts->labels[i]);
			g->label_whole = strcmp(opts->labels[i], sel[i]) == 0;
		} else {
			if (n > 1)
				split_terms(sel, n, i, NULL, &b);
			/* No term left out: every term, or the selector. */
			g->label_whole = common.len == 0 || b.len == 0;
		}
		g->label = xstrdup(b.len ? bs_buf_str(&b) : sel[i]);
	}
	bs_buf_reset(&b);
	if (opts->title) {
		rep->title = xstrdup(opts->title);
		goto out;
	}
	if (opts->labels == NULL && common.len)
		bs_buf_addf(&b, "%s: ", bs_buf_str(&common));
	for (i = 0; i < n; i++)
		bs_buf_addf(&b, "%s%s", i ? " vs " : "", rep->groups[i].label);
	rep->title = bs_buf_detach(&b, NULL);
out:
	bs_buf_release(&b);
	bs_buf_release(&common);
}

int bs_report_build(struct bs_report **out, const struct bs_report_opts *opts,
		    const char *const *selectors, size_t ngroups,
		    const struct bs_report_source *src, struct bs_err *err)
{
	struct bs_report *rep;
	struct acc a;
	size_t i;
	int m, rc = 0, want_any = 0;
	char q[64];

	*out = NULL;
	if (ngroups == 0)
		return bs_error(err, BS_EINVAL, "a report needs a group");
	if (opts->baseline >= ngroups)
		return bs_error(err, BS_EINVAL,
				"baseline %zu is not a group (1 to %zu)",
				opts->baseline + 1, ngroups);
	for (i = 0; opts->bases && i < ngroups; i++)
		if (opts->bases[i] >= ngroups ||
		    opts->bases[opts->bases[i]] != opts->bases[i])
			return bs_error(err, BS_EINVAL,
					"group %zu's baseline %zu is not a "
					"baseline group",
					i + 1, opts->bases[i] + 1);
	rep = xcalloc(1, sizeof(*rep));
	rep->opts = *opts;
	/* The caller's; rep->title and the groups' labels are copies. */
	rep->opts.title = NULL;
	rep->opts.labels = NULL;
	rep->opts.bases = NULL;
	rep->ngroups = ngroups;
	rep->groups = xcalloc(ngroups, sizeof(*rep->groups));
	for (i = 0; i < ngroups; i++) {
		rep->groups[i].base =
			opts->bases ? opts->bases[i] : opts->baseline;
		if (rep->groups[i].base != rep->groups[0].base)
			rep->multi_base = 1;
	}
	if (opts->list_runs)
		rep->runs = xcalloc(1, sizeof(*rep->runs));
	for (m = 0; m < BS_RM_USED; m++) {
		rep->run_best[m] = rep->run_worst[m] = NAN;
		want_any |= opts->want[m];
	}
	make_labels(rep, opts, selectors);
	for (i = 0; i < ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		memset(&a, 0, sizeof(a));
		a.rep = rep;
		a.g = g;
		a.want_any = want_any;
		assumed_values(a.assume);
		rc = src->each(src->ctx, i, add_run, &a, err);
		if (rc < 0) {
			acc_release(&a);
			goto fail;
		}
		if (g->nruns == 0) {
			rc = bs_error(err, BS_ENOTFOUND,
				      "selector '%s' matches no runs",
				      bs_err_quote(q, sizeof(q), selectors[i],
						   strlen(selectors[i]), 40));
			goto fail;
		}
		rep->nruns += g->nruns;
		finish_cells(g, &a);
		acc_release(&a);
	}
	same_tests(rep);
	for (m = 0; m < BS_RM_USED; m++) {
		if (want_any && !opts->want[m])
			continue;
		for (i = 0; i < ngroups; i++)
			if (rep->groups[i].cell[m].status != BS_ST_NOT_RUN)
				rep->shown[m] = 1;
	}
	if (opts->units == BS_UNITS_MIB)
		rep->show = BS_SHOW_MIB;
	else if (opts->units == BS_UNITS_KIB)
		rep->show = BS_SHOW_KIB;
	mark_apart(rep);
	compare(rep);
	bs_report_summarise(rep);
	shade(rep);
	notes(rep);
	bs_rcurves_finish(rep);
	*out = rep;
	return 0;
fail:
	bs_report_free(rep);
	return rc;
}

static void free_list(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static void free_list2(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
}

void bs_report_free(struct bs_report *rep)
{
	size_t i, j;
	int k;

	if (rep == NULL)
		return;
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		free(g->label);
		free(g->selector);
		free(g->sum.sentence);
		free(g->apart_why);
		free(g->ids);
		free_list(g->machines, g->nmachines);
		free_list(g->versions, g->nversions);
		free_list(g->tags, g->ntags);
		for (j = 0; j < g->nmix; j++) {
			free(g->mix[j].key);
			free_list2(g->mix[j].val, g->mix[j].nval);
		}
		free(g->mix);
		for (k = 0; k < bs_nparams; k++) {
			free(g->param[k].text);
			for (j = 0; j < g->param[k].nvals; j++)
				free(g->param[k].vals[j].t);
		}
	}
	free(rep->groups);
	bs_rruns_free(rep->runs);
	bs_rcurves_free(rep);
	free_list(rep->notes, rep->nnotes);
	free(rep->title);
	free(rep);
}
