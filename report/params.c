/*
 * report/params.c - a group's parameters: each run's values added to the
 * group's summary of them (struct bs_report_param), and those values for
 * people.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Which runs a parameter row is compared over: the integer and real kinds
 * and text; not the ones marked not to compare (seeds). */
static int compared(int k)
{
	return !(bs_param_table[k].flags & BS_PF_NOCOMPARE);
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
		if (kind == BS_PK_TEXT   ? strcmp(x->t, t) == 0
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
void bs_rparams_add(struct bs_report_group *g, const struct bs_run *r,
		    int first)
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
			param_add_i64(&g->param[k], v, first);
			if (own && v != BS_NONE)
				param_count(&g->param[k], k, NULL, v, 0);
			break;
		}
	}
}

/* Value j of parameter k of a group for people, with its unit: "rndrw",
 * "16384 bytes", "on". */
const char *bs_rpval_text(int k, const struct bs_report_pval *x, char *out,
			  size_t outsz)
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

void bs_rparam_values(const struct bs_report_group *g, int k, struct bs_buf *b)
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
		bs_buf_adds(b, bs_rpval_text(k, &p->vals[0], v, sizeof(v)));
		return;
	}
	for (j = 0; j < p->nvals; j++)
		bs_buf_addf(b, "%s%s (%lld %s)",
			    j == 0 ? ""
			    : j + 1 == p->nvals && !p->vother && known == runs
				    ? " and "
				    : ", ",
			    bs_rpval_text(k, &p->vals[j], v, sizeof(v)),
			    (long long)p->vals[j].n,
			    p->vals[j].n == 1 ? "run" : "runs");
	if (p->vother)
		bs_buf_addf(b, "%s%lld more with other values",
			    known == runs ? " and " : ", ",
			    (long long)p->vother);
	if (known < runs)
		bs_buf_addf(b, " and %lld unknown", (long long)(runs - known));
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
