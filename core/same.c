/*
 * core/same.c - one measurement, one run (core/same.h): whether two runs
 * are the same measurement printed twice. Which dialects print rounded
 * is the dialect table's (core/dialect.h); how they round decides when
 * two values agree (agree()). docs/ingest.md, "One measurement, one
 * run", says the rule for people.
 */
#include "core/same.h"

#include <math.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/metric.h"
#include "core/param.h"
#include "util/banned.h"

static int rounded(const struct bs_run *r)
{
	return bs_dialect_of(r)->rounded;
}

static int same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* A version that says only its era ("1.0x" of a 27-field CSV line
 * without a table above) or none matches any. */
static int same_version(const char *a, const char *b)
{
	if (a == NULL || b == NULL || strchr(a, 'x') || strchr(b, 'x'))
		return 1;
	return strcmp(a, b) == 0;
}

/* fio's text prints three significant figures ("12.8k", "49.9MiB/s"),
 * and its percentiles in whole us where the terse line cuts them (31
 * against 30, 2.192 against 2): half a percent, or 1. */
static int agree_fio(double a, double b)
{
	double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= 0.005 * big + 1;
}

/* Whether the values of metric m agree as the rounded output printed
 * them: bonnie++'s as its 2.00a table prints a cell (exact tables print
 * the same text too). */
static int agree(enum bs_family fam, int m, double a, double b, int part)
{
	char x[32], y[32];

	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (fam == BS_FAM_FIO)
		return agree_fio(a, b);
	if (fam != BS_FAM_BONNIE)
		return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b));
	if (part == 1)
		return strcmp(bs_bonnie_fmt_cpu(x, sizeof(x), a),
			      bs_bonnie_fmt_cpu(y, sizeof(y), b)) == 0;
	if (part == 2)
		return strcmp(bs_bonnie_fmt_latency(x, sizeof(x), a),
			      bs_bonnie_fmt_latency(y, sizeof(y), b)) == 0;
	return strcmp(bs_bonnie_fmt_rate(x, sizeof(x), m, a),
		      bs_bonnie_fmt_rate(y, sizeof(y), m, b)) == 0;
}

static int same_params(const struct bs_run *a, const struct bs_run *b)
{
	int i;

	for (i = 0; i < bs_nparams; i++) {
		const struct bs_param_info *p = &bs_param_table[i];

		if (p->family != a->family || !bs_param_known(&a->params, i) ||
		    !bs_param_known(&b->params, i))
			continue;
		switch (p->kind) {
		case BS_PK_TEXT:
			if (!same_text(bs_param_get_text(&a->params, i),
				       bs_param_get_text(&b->params, i)))
				return 0;
			break;
		case BS_PK_REAL: {
			double x = bs_param_get_real(&a->params, i);
			double y = bs_param_get_real(&b->params, i);

			if (fabs(x - y) > 1e-9 * (fabs(x) + fabs(y)))
				return 0;
			break;
		}
		default:
			if (bs_param_get_i64(&a->params, i) !=
			    bs_param_get_i64(&b->params, i))
				return 0;
		}
	}
	return 1;
}

/* A rounded print may cut the machine name (bonnie++'s table cuts it to
 * fit beside the size): its name is a beginning of the other's. It may
 * cut it whole (bonnie++ 2.00's row " 64M:4k::1000000:10" of a run with
 * -n 0), and a paste may name the machine in one form only: a name on
 * one side only is no difference when everything else agrees. */
static int same_machine(const struct bs_run *a, const struct bs_run *b)
{
	const char *x = a->machine ? a->machine : "";
	const char *y = b->machine ? b->machine : "";

	if (strcmp(x, y) == 0 || x[0] == '\0' || y[0] == '\0')
		return 1;
	if (rounded(a) && x[0] && strncmp(x, y, strlen(x)) == 0)
		return 1;
	return rounded(b) && y[0] && strncmp(x, y, strlen(y)) == 0;
}

int bs_run_same(const struct bs_run *a, const struct bs_run *b)
{
	int m, ra = rounded(a), rb = rounded(b);

	/* A rounded print and an exact one: two lines, or two tables, of
	 * equal values are two runs that measured alike. */
	if (ra == rb)
		return 0;
	if (a->family != b->family || !same_text(a->tool, b->tool) ||
	    !same_version(a->tool_version, b->tool_version) ||
	    !same_machine(a, b) || !same_params(a, b))
		return 0;
	/* A date bstore gave (measured_at.source=ingested) is no evidence. */
	if (bs_run_date_known(a) != BS_NONE &&
	    bs_run_date_known(b) != BS_NONE &&
	    bs_run_date_known(a) != bs_run_date_known(b))
		return 0;
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *x = &a->res[m], *y = &b->res[m];

		if (bs_metrics[m].family != a->family)
			continue;
		/* A rounded print leaves out what it cannot print right
		 * (bonnie++ 2.00a's table, its file-test rates). */
		if ((ra && x->status == BS_ST_NOT_RUN) ||
		    (rb && y->status == BS_ST_NOT_RUN))
			continue;
		if (x->status != y->status)
			return 0;
		if (x->status == BS_ST_OK &&
		    !agree(a->family, m, x->value, y->value, 0))
			return 0;
		/* A part one output lacks (fio's terse line has no
		 * latency max) is not a difference. */
		if (!isnan(x->cpu_pct) && !isnan(y->cpu_pct) &&
		    !agree(a->family, m, x->cpu_pct, y->cpu_pct, 1))
			return 0;
		if (!isnan(x->lat_us) && !isnan(y->lat_us) &&
		    !agree(a->family, m, x->lat_us, y->lat_us, 2))
			return 0;
	}
	return 1;
}
