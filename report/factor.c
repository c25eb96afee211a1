/*
 * report/factor.c - splits runs into the groups of a factor comparison
 * by the values of one tag, once per value of another
 * (report/factor.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/factor.h"
#include "core/identity.h"
#include "core/param.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* One run's values of the two tags, as indexes into the value lists. */
struct frun {
	int64_t id;
	size_t v, w;
};

/* Distinct strings, in the order first seen (sorted afterwards). */
struct vals {
	char **s;
	size_t n, cap;
};

struct collect {
	const char *by, *within;
	struct vals v, w;
	struct frun *run;
	size_t n, cap, skipped;
	int sweep;     /* a run's value of by came from a sweep parameter */
	int not_sweep; /* a run's value of by came from a tag or another */
};

static size_t val_index(struct vals *x, const char *s)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (strcmp(x->s[i], s) == 0)
			return i;
	xgrow((void **)&x->s, &x->cap, x->n + 1, sizeof(*x->s));
	x->s[x->n] = xstrdup(s);
	return x->n++;
}

static const char *tag_of(const struct bs_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].key, key) == 0)
			return r->tags[i].value;
	return NULL;
}

/*
 * The value of key for run r: its tag, else the parameter of that key
 * (core/param.h) when the run's family has it ("--by mode" splits
 * sysbench runs by test mode), written into buf; NULL when neither. A
 * parameter is the value its test identity reads, as a selector's value
 * (bs_ident_val_word: "4k" and "4096B" are bs=4096, zcav's fixed page
 * cache direct=0), so that each group's label selects it; *sweep says
 * when it is a number people sweep (BS_PF_SWEEP).
 */
static const char *value_of(const struct bs_run *r, const char *key,
			    struct bs_buf *buf, int *sweep)
{
	const char *t = tag_of(r, key);
	struct bs_ident_val v;
	int k;

	*sweep = 0;
	if (t)
		return t;
	k = bs_param_find_in(r->family, key);
	if (k < 0 || !bs_ident_value(r, k, &v))
		return NULL;
	bs_buf_reset(buf);
	bs_ident_val_word(&v, buf);
	if ((bs_param_table[k].flags & BS_PF_SWEEP) && v.num != BS_NONE)
		*sweep = 1;
	return bs_buf_str(buf);
}

/* KEY=VALUE as a selector term that selects exactly value. */
static void add_term(struct bs_buf *b, const char *key, const char *value)
{
	bs_buf_addf(b, "%s=", key);
	bs_sel_add_literal(b, value);
}

static int collect_run(const struct bs_run *r, void *ctx)
{
	struct collect *c = ctx;
	struct bs_buf vb = BS_BUF_INIT, wb = BS_BUF_INIT;
	int sv, sw;
	const char *v = value_of(r, c->by, &vb, &sv);
	const char *w = c->within ? value_of(r, c->within, &wb, &sw) : "";

	if (v == NULL || w == NULL) {
		c->skipped++;
		goto out;
	}
	xgrow((void **)&c->run, &c->cap, c->n + 1, sizeof(*c->run));
	if (sv)
		c->sweep = 1;
	else
		c->not_sweep = 1;
	c->run[c->n].id = r->id;
	c->run[c->n].v = val_index(&c->v, v);
	c->run[c->n].w = val_index(&c->w, w);
	c->n++;
out:
	bs_buf_release(&vb);
	bs_buf_release(&wb);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The levels of a sweep: by number (1, 4, 16, not 1, 16, 4). */
static int cmp_num(const void *a, const void *b)
{
	long long x = strtoll(*(char *const *)a, NULL, 10);
	long long y = strtoll(*(char *const *)b, NULL, 10);

	return x < y ? -1 : x > y;
}

/* rank[i]: the place of value i once the values are sorted (by number
 * when numeric: a sweep's levels). */
static size_t *sort_vals(struct vals *x, int numeric)
{
	char **old = xmalloc((x->n ? x->n : 1) * sizeof(*old));
	size_t *rank = xmalloc((x->n ? x->n : 1) * sizeof(*rank));
	size_t i, j;

	memcpy(old, x->s, x->n * sizeof(*old));
	qsort(x->s, x->n, sizeof(*x->s), numeric ? cmp_num : cmp_str);
	for (i = 0; i < x->n; i++)
		for (j = 0; j < x->n; j++)
			if (x->s[j] == old[i])
				rank[i] = j;
	free(old);
	return rank;
}

static void vals_release(struct vals *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->s[i]);
	free(x->s);
}

int bs_report_factor_split(struct bs_report_factor *f,
			   const struct bs_report_source *src,
			   const char *prefix, const char *by,
			   const char *within, const char *base_value,
			   struct bs_err *err)
{
	struct collect c;
	struct bs_buf b = BS_BUF_INIT;
	size_t *vr = NULL, *wr = NULL, *cell = NULL, w, v, k, first;
	int rc;

	memset(f, 0, sizeof(*f));
	memset(&c, 0, sizeof(c));
	c.by = by;
	c.within = within;
	rc = src->each(src->ctx, 0, collect_run, &c, err);
	if (rc < 0)
		goto out;
	f->skipped = c.skipped;
	if (c.n == 0) {
		rc = within ? bs_error(err, BS_ENOTFOUND,
				       "no run has both tags (or parameters) "
				       "'%s' and '%s'",
				       by, within)
			    : bs_error(err, BS_ENOTFOUND,
				       "no run has the tag (or parameter) "
				       "'%s'",
				       by);
		goto out;
	}
	/* Every run's value a number people sweep: a sweep (report.h's
	 * opts.sweep), its levels in order. */
	f->sweep = c.sweep && !c.not_sweep;
	vr = sort_vals(&c.v, f->sweep);
	wr = sort_vals(&c.w, 0);
	/* cell[w * nv + v]: the group of that pair + 1 (0: no run). */
	cell = xcalloc(c.w.n * c.v.n, sizeof(*cell));
	f->selector = xcalloc(c.w.n * c.v.n, sizeof(*f->selector));
	f->label = xcalloc(c.w.n * c.v.n, sizeof(*f->label));
	f->base = xcalloc(c.w.n * c.v.n, sizeof(*f->base));
	f->ids = xcalloc(c.w.n * c.v.n, sizeof(*f->ids));
	for (k = 0; k < c.n; k++)
		cell[wr[c.run[k].w] * c.v.n + vr[c.run[k].v]] = 1;
	for (w = 0; w < c.w.n; w++) {
		first = f->n;
		f->base[first] = (size_t)-1;
		for (v = 0; v < c.v.n; v++) {
			if (!cell[w * c.v.n + v])
				continue;
			cell[w * c.v.n + v] = f->n + 1;
			/* A label is a selector of its group's values
			 * ("threads=4, mode=rndrd"), the selector the same
			 * after what chose the runs. */
			bs_buf_reset(&b);
			add_term(&b, by, c.v.s[v]);
			if (within) {
				bs_buf_adds(&b, ", ");
				add_term(&b, within, c.w.s[w]);
			}
			f->label[f->n] = xstrdup(bs_buf_str(&b));
			bs_buf_reset(&b);
			if (prefix)
				bs_buf_addf(&b, "%s,", prefix);
			add_term(&b, by, c.v.s[v]);
			if (within) {
				bs_buf_addc(&b, ',');
				add_term(&b, within, c.w.s[w]);
			}
			f->selector[f->n] = xstrdup(bs_buf_str(&b));
			if (base_value && strcmp(c.v.s[v], base_value) == 0)
				f->base[first] = f->n;
			f->n++;
		}
		if (f->base[first] == (size_t)-1) {
			if (base_value) {
				rc = within ? bs_error(err, BS_ENOTFOUND,
						       "no run with %s=%s has "
						       "%s=%s",
						       within, c.w.s[w], by,
						       base_value)
					    : bs_error(err, BS_ENOTFOUND,
						       "no run has %s=%s", by,
						       base_value);
				goto out;
			}
			f->base[first] = first;
		}
		for (k = first; k < f->n; k++)
			f->base[k] = f->base[first];
	}
	/* The runs of each group, ascending as the store gave them. */
	for (k = 0; k < c.n; k++) {
		struct bs_ids *x =
			&f->ids[cell[wr[c.run[k].w] * c.v.n + vr[c.run[k].v]] -
				1];

		xgrow((void **)&x->id, &x->cap, x->n + 1, sizeof(*x->id));
		x->id[x->n++] = c.run[k].id;
	}
	bs_buf_reset(&b);
	if (prefix)
		bs_buf_addf(&b, "%s: ", prefix);
	bs_buf_addf(&b, "%s ", by);
	for (v = 0; v < c.v.n; v++)
		bs_buf_addf(&b, "%s%s", v ? " vs " : "", c.v.s[v]);
	if (within)
		bs_buf_addf(&b, ", for each %s", within);
	f->title = bs_buf_detach(&b, NULL);
	rc = 0;
out:
	free(cell);
	free(vr);
	free(wr);
	vals_release(&c.v);
	vals_release(&c.w);
	free(c.run);
	bs_buf_release(&b);
	return rc;
}

void bs_report_factor_release(struct bs_report_factor *f)
{
	size_t i;

	if (f->selector == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->selector[i]);
		free(f->label[i]);
		bs_ids_release(&f->ids[i]);
	}
	free(f->selector);
	free(f->label);
	free(f->base);
	free(f->ids);
	free(f->title);
	memset(f, 0, sizeof(*f));
}
