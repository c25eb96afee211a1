/*
 * tests/family/toy.c - a made-up tool family, "toy", added to bstore the
 * way a real one is: one family row (core/family.h) and the parser of its
 * output (ingest/format.h), and nothing else. Linked into bstore_toy, a
 * bstore with this one row more (the weak symbols bs_family_extra and
 * bs_format_extra), which tests/family/toy.sh compares, trends and pages.
 *
 * The tool prints one line a run:
 *
 *     toy 1.2: depth=4 direct=1 ops=1234.5 lat=0.81
 *
 * (operations a second and milliseconds an operation; direct may be left
 * out, and is then unknown).
 */
#include "core/families/rows.h"

#include <stdio.h>
#include <string.h>

#include "ingest/format.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	{ "ops_per_s", "Operations", "ops", "Toy", "ops/s", HI, IO, BS_MF_MAIN, PER_S, S_OPS },
	{ "lat_ms", "Latency", "lat", "Toy", "ms", LO, LAT, 0, LAT_MS, S_MS },
};

/* Its depth is the field fio's iodepth uses: a family's numbers may
 * share a field of struct bs_params under keys of their own. */
static const struct bs_param_info params[] = {
	{ "depth", P(iodepth), BS_PK_INT, NULL, "depth", "", BS_PF_DECIDES | BS_PF_SWEEP, 1, PAR },
	DIRECT_ROW("O_DIRECT"),
};

static const struct bs_param_rule rules[] = {
	{ "depth", "*", "Depth", "rates depend on the requests in flight", 1, 0,
	  NULL },
	{ "direct", "*", "O_DIRECT", "direct I/O bypasses the page cache", 1, 0,
	  NULL },
};

static const struct bs_dialect dialects[] = {
	{ "toy-text", "toy", BS_ERA_NONE, "1.x", BS_LAYOUT_NONE, BS_TABLE_NONE,
	  0, "toy-text", NULL, "toy" },
};

static const struct bs_impl impls[] = {
	{ "toy", "toy", NULL },
};
/* clang-format on */

const struct bs_family_info bs_family_extra = {
	.name = "toy",
	.label = "toy, a made-up tool",
	.metrics = metrics,
	.nmetrics = ROWS(metrics),
	.params = params,
	.nparams = ROWS(params),
	.rules = rules,
	.nrules = ROWS(rules),
	.dialects = dialects,
	.ndialects = ROWS(dialects),
	.impls = impls,
	.nimpls = ROWS(impls),
	.list_read = "ops_per_s",
};

/* The value of "KEY=" in the line's words, into v; 0 when absent. */
static int word(const struct bs_fline *l, const char *key, double *v)
{
	size_t kl = strlen(key), i;

	for (i = 0; i + kl < l->len; i++) {
		size_t e = i + kl;

		if ((i == 0 || l->text[i - 1] == ' ') &&
		    memcmp(l->text + i, key, kl) == 0) {
			while (e < l->len && l->text[e] != ' ')
				e++;
			return bs_parse_double(l->text + i + kl, e - i - kl,
					       v) == 0
				       ? 1
				       : -1;
		}
	}
	return 0;
}

static int probe(const struct bs_format *f, const struct bs_fline *l)
{
	(void)f;
	return l->len > 4 && memcmp(l->text, "toy ", 4) == 0 &&
	       memchr(l->text, ':', l->len) != NULL;
}

static int parse(const struct bs_format *f, const struct bs_fline *l,
		 struct bs_run *r, struct bs_err *err)
{
	const char *colon = memchr(l->text, ':', l->len);
	enum bs_family fam;
	double depth, direct, ops, lat;
	int m;

	(void)f;
	if (bs_family_parse("toy", &fam) < 0 || colon == NULL ||
	    word(l, "depth=", &depth) != 1 || word(l, "ops=", &ops) != 1 ||
	    word(l, "lat=", &lat) != 1 || word(l, "direct=", &direct) < 0) {
		return bs_error(err, BS_EPARSE,
				"toy line without depth, ops and lat");
	}
	r->family = fam;
	bs_run_set(&r->tool, "toy");
	bs_run_set(&r->format, "toy-text");
	r->tool_version = xstrndup(l->text + 4, (size_t)(colon - l->text - 4));
	r->params.iodepth = (int64_t)depth;
	if (word(l, "direct=", &direct) == 1)
		r->params.direct = direct != 0;
	m = bs_metric_find(fam, "ops_per_s");
	r->res[m].status = BS_ST_OK;
	r->res[m].value = ops;
	m = bs_metric_find(fam, "lat_ms");
	r->res[m].status = BS_ST_OK;
	r->res[m].value = lat;
	return 1;
}

const struct bs_format bs_format_extra = {
	"toy-text", BS_FAM_BUILTIN, "toy's one line a run (a made-up tool)",
	probe,      parse,          NULL,
	NULL,
};
