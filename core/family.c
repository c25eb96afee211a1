/*
 * core/family.c - the family table (core/family.h) and the catalogues
 * read from it: bs_metrics[], bs_param_table[], bs_param_rules[] and
 * bs_dialects[] hold the family rows' own rows, family by family, each
 * with its family filled in, put together once when the program starts
 * (before main, so that every reader sees them whole and nothing locks).
 */
#include "core/family.h"

#include <string.h>

#include "core/dialect.h"
#include "core/metric.h"
#include "core/param.h"
#include "util/err.h"
#include "util/banned.h"

extern const struct bs_family_info bs_family_bonnie, bs_family_sysbench,
	bs_family_zcav, bs_family_fio, bs_family_dd, bs_family_getc_putc;

static const struct bs_family_info *const builtin[BS_FAM_BUILTIN] = {
	[BS_FAM_BONNIE] = &bs_family_bonnie,
	[BS_FAM_SYSBENCH] = &bs_family_sysbench,
	[BS_FAM_ZCAV] = &bs_family_zcav,
	[BS_FAM_FIO] = &bs_family_fio,
	[BS_FAM_DD] = &bs_family_dd,
	[BS_FAM_GETC_PUTC] = &bs_family_getc_putc,
};

/* The built-in rows, then the program's own (bs_family_extra). */
static const struct bs_family_info *rows[BS_FAM_MAX];

/* Room for the rules and dialects of every family. */
#define RULES_MAX 64
#define DIALECTS_MAX 64

static struct bs_metric_info metric_rows[BS_M_MAX];
static struct bs_param_info param_rows[BS_P_MAX];
static struct bs_param_rule rule_rows[RULES_MAX];
static struct bs_dialect dialect_rows[DIALECTS_MAX];
static struct bs_catalogue cat;

const struct bs_metric_info *const bs_metrics = metric_rows;
const struct bs_param_info *const bs_param_table = param_rows;
const struct bs_param_rule *const bs_param_rules = rule_rows;
const struct bs_dialect *const bs_dialects = dialect_rows;
const struct bs_catalogue *const bs_cat = &cat;

/* Appends n rows of size sz from src to dst (holding *used of max),
 * setting each copy's family field (at family_off) to f. */
static void append(void *dst, int *used, int max, const void *src, int n,
		   size_t sz, size_t family_off, enum bs_family f)
{
	int i;

	if (n < 0 || *used + n > max)
		BS_BUG("a family row outgrew its catalogue (core/family.c)");
	for (i = 0; i < n; i++) {
		char *row = (char *)dst + (size_t)(*used + i) * sz;

		memcpy(row, (const char *)src + (size_t)i * sz, sz);
		memcpy(row + family_off, &f, sizeof(f));
	}
	*used += n;
}

__attribute__((constructor)) static void assemble(void)
{
	int f;

	for (f = 0; f < BS_FAM_BUILTIN; f++)
		rows[cat.nfamilies++] = builtin[f];
	if (&bs_family_extra != NULL)
		rows[cat.nfamilies++] = &bs_family_extra;
	for (f = 0; f < cat.nfamilies; f++) {
		const struct bs_family_info *row = rows[f];

		if (row == NULL || row->name == NULL)
			BS_BUG("a family without its row (core/family.c)");
		cat.metric0[f] = cat.nmetrics;
		append(metric_rows, &cat.nmetrics, BS_M_MAX, row->metrics,
		       row->nmetrics, sizeof(*row->metrics),
		       offsetof(struct bs_metric_info, family),
		       (enum bs_family)f);
		cat.param0[f] = cat.nparams;
		append(param_rows, &cat.nparams, BS_P_MAX, row->params,
		       row->nparams, sizeof(*row->params),
		       offsetof(struct bs_param_info, family),
		       (enum bs_family)f);
		cat.rule0[f] = cat.nrules;
		append(rule_rows, &cat.nrules, RULES_MAX, row->rules,
		       row->nrules, sizeof(*row->rules),
		       offsetof(struct bs_param_rule, family),
		       (enum bs_family)f);
		cat.dialect0[f] = cat.ndialects;
		append(dialect_rows, &cat.ndialects, DIALECTS_MAX,
		       row->dialects, row->ndialects, sizeof(*row->dialects),
		       offsetof(struct bs_dialect, family), (enum bs_family)f);
	}
	/* bonnie++'s twelve tests are the catalogue's first rows (enum
	 * bs_metric). */
	if (cat.nmetrics < BS_M_BONNIE ||
	    strcmp(metric_rows[BS_M_RAN_DEL].key, "ran_del") != 0)
		BS_BUG("bonnie++'s tests are not the catalogue's first rows");
}

const struct bs_family_info *bs_family(enum bs_family f)
{
	if (!bs_family_ok(f))
		BS_BUG("no such tool family");
	return rows[f];
}

const char *bs_family_name(enum bs_family f)
{
	return bs_family_ok(f) ? rows[f]->name : "?";
}

int bs_family_parse(const char *s, enum bs_family *out)
{
	int f;

	for (f = 0; f < BS_FAM_COUNT; f++) {
		if (strcmp(s, rows[f]->name) == 0) {
			*out = (enum bs_family)f;
			return 0;
		}
	}
	return -BS_EINVAL;
}

const struct bs_impl *bs_family_impl(enum bs_family f, const char *name,
				     const char *tool)
{
	const struct bs_family_info *row;
	int i;

	if (!bs_family_ok(f))
		return NULL;
	row = rows[f];
	for (i = 0; i < row->nimpls; i++) {
		const struct bs_impl *im = &row->impls[i];

		if (name ? strcmp(im->name, name) == 0
			 : tool && strcmp(im->tool, tool) == 0)
			return im;
	}
	return NULL;
}

const struct bs_exec_prog *bs_exec_prog_find(const char *program,
					     enum bs_family *f)
{
	int i, k;

	for (i = 0; i < BS_FAM_COUNT; i++)
		for (k = 0; k < rows[i]->nprogs; k++)
			if (strcmp(rows[i]->progs[k].program, program) == 0) {
				*f = (enum bs_family)i;
				return &rows[i]->progs[k];
			}
	return NULL;
}
