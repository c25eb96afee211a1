/*
 * report/changes.c - change points of every series, and the check of the
 * newest runs (report/changes.h): the runs read once into their series
 * (a machine and a test: a run's date, id and each metric's number), each
 * series ordered by date and searched (report/changept.c), then the two
 * runs at each change read again to say what differs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/metric.h"
#include "core/param.h"
#include "report/changes.h"
#include "report/tmpl/tmpl.h"
#include "store/store.h"
#include "util/csv.h"
#include "util/json.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* ---- the series key and the explanation ------------------------------- */

void bs_changes_series_key(const struct bs_run *r, struct bs_buf *out)
{
	struct bs_ident id;

	bs_buf_adds(out, r->machine ? r->machine : "");
	bs_buf_addc(out, '\x1f');
	bs_ident_of(r, &id);
	bs_ident_key(&id, out);
}

/* One fact of a run: a key and its value ("" for none). */
struct fact {
	char *key, *value;
};

struct facts {
	struct fact *f;
	size_t n, cap;
};

static void fact_add(struct facts *fs, const char *key, const char *value)
{
	xgrow((void **)&fs->f, &fs->cap, fs->n + 1, sizeof(*fs->f));
	fs->f[fs->n].key = xstrdup(key);
	fs->f[fs->n].value = xstrdup(value ? value : "");
	fs->n++;
}

static void facts_release(struct facts *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->f[i].key);
		free(fs->f[i].value);
	}
	free(fs->f);
}

static int cmp_fact(const void *a, const void *b)
{
	return strcmp(((const struct fact *)a)->key,
		      ((const struct fact *)b)->key);
}

/* What can explain a change, of one run: tool, version, the parameters
 * of its family, its tags (sorted). */
static void run_facts(const struct bs_run *r, struct facts *fs)
{
	struct bs_buf v = BS_BUF_INIT;
	size_t i, ntop;
	int p;

	fact_add(fs, "tool", r->tool);
	fact_add(fs, "version", r->tool_version);
	for (p = 0; p < bs_nparams; p++) {
		const struct bs_param_info *pi = &bs_param_table[p];

		if (pi->family != r->family || (pi->flags & BS_PF_NOCOMPARE))
			continue;
		bs_buf_reset(&v);
		bs_param_format(&r->params, p, &v);
		fact_add(fs, pi->key, bs_buf_str(&v));
	}
	ntop = fs->n;
	for (i = 0; i < r->ntags; i++)
		fact_add(fs, r->tags[i].key, r->tags[i].value);
	qsort(fs->f + ntop, fs->n - ntop, sizeof(*fs->f), cmp_fact);
	bs_buf_release(&v);
}

static const char *fact_get(const struct facts *fs, const char *key)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].key, key) == 0)
			return fs->f[i].value;
	return "";
}

size_t bs_changes_explain(const struct bs_run *a, const struct bs_run *b,
			  bs_changes_why_fn fn, void *ctx)
{
	struct facts fa = {NULL, 0, 0}, fb = {NULL, 0, 0};
	size_t i, n = 0;

	run_facts(a, &fa);
	run_facts(b, &fb);
	/* a's facts in order, then those only b has. */
	for (i = 0; i < fa.n; i++) {
		const char *to = fact_get(&fb, fa.f[i].key);

		if (strcmp(fa.f[i].value, to) != 0) {
			fn(fa.f[i].key, fa.f[i].value, to, ctx);
			n++;
		}
	}
	for (i = 0; i < fb.n; i++) {
		size_t j;

		for (j = 0; j < fa.n; j++)
			if (strcmp(fa.f[j].key, fb.f[i].key) == 0)
				break;
		if (j == fa.n && fb.f[i].value[0] != '\0') {
			fn(fb.f[i].key, "", fb.f[i].value, ctx);
			n++;
		}
	}
	facts_release(&fa);
	facts_release(&fb);
	return n;
}

/* ---- reading the runs into series ------------------------------------- */

/* The catalogue metrics of each family that have a direction. */
struct fam {
	int m[BS_M_MAX];
	int n;
};

struct series {
	char *key;  /* machine 0x1f identity */
	char *tool; /* its first run's */
	enum bs_family family;
	struct {
		int64_t t, id, stored;
	} * run;
	size_t n, cap;
	double *v;         /* n x fam.n numbers, run by run */
	unsigned char *st; /* their statuses */
	size_t vcap, stcap;
	size_t item0, nitem; /* check: its items in c->item */
	int64_t checked;     /* check: its metrics tested */
};

struct build {
	const struct bs_changes_opts *o;
	struct bs_changes *c;
	struct fam fam[BS_FAM_MAX];
	struct series *s;
	size_t ns, scap;
	size_t *hash; /* open addressing: series index + 1, 0 empty */
	size_t hcap;
	struct bs_buf key;
	int old;       /* reading a cached series' runs again */
	int64_t maxid; /* the newest run read */
};

static uint64_t fnv(const char *s)
{
	return bs_hash_fnv64_str(BS_FNV64_BASIS, s);
}

static void rehash(struct build *b)
{
	size_t i, cap = b->hcap ? 2 * b->hcap : 1024;

	free(b->hash);
	b->hash = xcalloc(cap, sizeof(*b->hash));
	b->hcap = cap;
	for (i = 0; i < b->ns; i++) {
		size_t h = (size_t)fnv(b->s[i].key) & (cap - 1);

		while (b->hash[h])
			h = (h + 1) & (cap - 1);
		b->hash[h] = i + 1;
	}
}

/* The series of key, or NULL; *slot its place in the hash either way. */
static struct series *series_find(const struct build *b, const char *key,
				  size_t *slot)
{
	size_t h;

	if (b->hcap == 0)
		return NULL;
	h = (size_t)fnv(key) & (b->hcap - 1);
	while (b->hash[h]) {
		if (strcmp(b->s[b->hash[h] - 1].key, key) == 0)
			return &b->s[b->hash[h] - 1];
		h = (h + 1) & (b->hcap - 1);
	}
	*slot = h;
	return NULL;
}

static struct series *series_of(struct build *b, const char *key,
				enum bs_family f)
{
	struct series *found;
	size_t h = 0;

	if (2 * (b->ns + 1) > b->hcap)
		rehash(b);
	if ((found = series_find(b, key, &h)) != NULL)
		return found;
	xgrow((void **)&b->s, &b->scap, b->ns + 1, sizeof(*b->s));
	memset(&b->s[b->ns], 0, sizeof(*b->s));
	b->s[b->ns].key = xstrdup(key);
	b->s[b->ns].family = f;
	b->hash[h] = ++b->ns;
	return &b->s[b->ns - 1];
}

static int take_run(const struct bs_run *r, void *ctx)
{
	struct build *b = ctx;
	const struct fam *fm;
	struct series *s;
	size_t i;
	int k;

	if (!b->old) {
		b->c->runs++;
		if (r->id > b->maxid)
			b->maxid = r->id;
	}
	if (r->measured_at == BS_NONE) {
		b->c->undated += !b->old;
		return 0;
	}
	if (!bs_family_ok(r->family))
		return 0;
	fm = &b->fam[r->family];
	bs_buf_reset(&b->key);
	bs_changes_series_key(r, &b->key);
	s = series_of(b, bs_buf_str(&b->key), r->family);
	if (s->tool == NULL)
		s->tool = xstrdup(r->tool ? r->tool : "");
	xgrow((void **)&s->run, &s->cap, s->n + 1, sizeof(*s->run));
	s->run[s->n].t = r->measured_at;
	s->run[s->n].id = r->id;
	s->run[s->n].stored = r->stored_at;
	xgrow((void **)&s->v, &s->vcap, (s->n + 1) * (size_t)fm->n,
	      sizeof(*s->v));
	xgrow((void **)&s->st, &s->stcap, (s->n + 1) * (size_t)fm->n,
	      sizeof(*s->st));
	for (k = 0; k < fm->n; k++) {
		const struct bs_value *x = &r->res[fm->m[k]];

		i = s->n * (size_t)fm->n + (size_t)k;
		s->st[i] = (unsigned char)x->status;
		s->v[i] = x->status == BS_ST_OK ? x->value : NAN;
	}
	s->n++;
	return 0;
}

/* Orders a series' runs by date, then id (their numbers with them). */
struct order {
	int64_t t, id;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void add_why(const char *key, const char *from, const char *to,
		    void *ctx)
{
	struct bs_changes_item *it = ctx;

	it->why = xrealloc(it->why, (it->nwhy + 1) * sizeof(*it->why));
	it->why[it->nwhy].key = xstrdup(key);
	it->why[it->nwhy].from = xstrdup(from);
	it->why[it->nwhy].to = xstrdup(to);
	it->nwhy++;
}

/* The least and greatest id of the runs ord[from, to). */
static void level_span(const struct order *ord, size_t from, size_t to,
		       int64_t *lo, int64_t *hi)
{
	size_t i;

	*lo = INT64_MAX;
	*hi = INT64_MIN;
	for (i = from; i < to; i++) {
		if (ord[i].id < *lo)
			*lo = ord[i].id;
		if (ord[i].id > *hi)
			*hi = ord[i].id;
	}
	if (from >= to)
		*lo = *hi = ord[from].id;
}

static void add_item(struct build *b, const struct series *s,
		     const struct order *ord, int m,
		     const struct bs_changept *cp)
{
	struct bs_changes *c = b->c;
	struct bs_changes_item *it;
	const char *sep = strchr(s->key, '\x1f');
	int better = bs_metrics[m].better;

	c->item = xrealloc(c->item, (c->n + 1) * sizeof(*c->item));
	it = &c->item[c->n++];
	memset(it, 0, sizeof(*it));
	it->machine = xstrdup(s->key);
	it->machine[sep - s->key] = '\0';
	it->identity = xstrdup(sep + 1);
	it->tool = xstrdup(s->tool);
	it->metric = m;
	it->cp = *cp;
	it->run_id = ord[cp->index].id;
	it->prev_id = ord[cp->prev].id;
	it->measured_at = ord[cp->index].t;
	it->prev_at = ord[cp->prev].t;
	it->series_runs = (int64_t)s->n;
	it->verdict = cp->direction * (better > 0 ? 1 : -1);
	level_span(ord, cp->from, cp->index, &it->lo[0], &it->hi[0]);
	level_span(ord, cp->index, cp->to < s->n ? cp->to : s->n, &it->lo[1],
		   &it->hi[1]);
}

/* Searches one series: every metric's change points, or (check) the
 * newest runs against the level before them. */
static void search(struct build *b, struct series *s)
{
	const struct fam *fm = &b->fam[s->family];
	const struct bs_changes_opts *o = b->o;
	struct order *ord = xmalloc((s->n + 1) * sizeof(*ord));
	double *v = xmalloc((s->n + 1) * sizeof(*v));
	enum bs_status *st = xmalloc((s->n + 1) * sizeof(*st));
	int64_t *t = xmalloc((s->n + 1) * sizeof(*t));
	size_t i, j, first_new = s->n;
	int64_t checked0 = b->c->checked;
	int k;

	s->item0 = b->c->n;
	for (i = 0; i < s->n; i++) {
		ord[i].t = s->run[i].t;
		ord[i].id = s->run[i].id;
		ord[i].i = i;
	}
	qsort(ord, s->n, sizeof(*ord), cmp_order);
	if (o->check) {
		/* The newest runs: from the first stored or measured since,
		 * else the last. */
		for (i = 0; i < s->n; i++) {
			size_t r = ord[i].i;

			if (o->since == BS_NONE
				    ? i + 1 == s->n
				    : (s->run[r].t >= o->since ||
				       s->run[r].stored >= o->since)) {
				first_new = i;
				break;
			}
		}
	}
	for (k = 0; k < fm->n; k++) {
		struct bs_changept *cps = NULL, one;
		size_t n, from = 0;

		for (i = 0; i < s->n; i++) {
			size_t x = ord[i].i * (size_t)fm->n + (size_t)k;

			v[i] = s->v[x];
			st[i] = (enum bs_status)s->st[x];
			t[i] = ord[i].t;
		}
		if (!o->check) {
			n = bs_changept_find(v, st, t, s->n, &o->cp, &cps);
			for (j = 0; j < n; j++)
				if (bs_metrics[fm->m[k]].better != 0)
					add_item(b, s, ord, fm->m[k], &cps[j]);
			free(cps);
			continue;
		}
		if (first_new == s->n || first_new == 0)
			continue;
		/* The level the new runs follow: since the last change
		 * point before them. */
		n = bs_changept_find(v, st, t, first_new, &o->cp, &cps);
		if (n > 0)
			from = cps[n - 1].index;
		free(cps);
		if (!bs_changept_test(v, st, t, from, first_new, s->n, 1,
				      &o->cp, &one))
			continue;
		b->c->checked++;
		/* Kept for now: the p-value is corrected once every
		 * series is checked (bs_changes_build). */
		if (one.direction * bs_metrics[fm->m[k]].better < 0 &&
		    fabs(one.pct) >= o->cp.noise_pct)
			add_item(b, s, ord, fm->m[k], &one);
	}
	s->nitem = b->c->n - s->item0;
	s->checked = b->c->checked - checked0;
	free(ord);
	free(v);
	free(st);
	free(t);
}

/* Forgets every series read. */
static void series_release(struct build *b)
{
	size_t i;

	for (i = 0; i < b->ns; i++) {
		free(b->s[i].key);
		free(b->s[i].tool);
		free(b->s[i].run);
		free(b->s[i].v);
		free(b->s[i].st);
	}
	free(b->s);
	free(b->hash);
	b->s = NULL;
	b->hash = NULL;
	b->ns = b->scap = b->hcap = 0;
}

/* ---- check's cache ------------------------------------------------------ */

/*
 * bstore check without --since or selectors keeps, in the archive's cache
 * (store/store.h, bs_store_cache_get), what it found in every series, so
 * that the next check reads only the runs added since and the series they
 * join:
 *   check.state      FORMAT TAG NOISE MAXID RUNS UNDATED: the check it
 *                    was made by, the newest run id it saw, its counts
 *   check.s.SERIES   the metrics tested, then one line per regression
 *                    candidate (the item before the Bonferroni factor)
 *   check.r.SERIES   the ids of the series' dated runs
 * The store drops the whole cache when a run is removed or changed
 * (its machine, date, parameters or numbers); tags take no part in what
 * is cached (the explanations are read from the runs each time).
 */
#define CACHE_FORMAT "check-1"

static void state_text(const struct build *b, struct bs_buf *out)
{
	bs_buf_addf(out, "%s %s %.17g", CACHE_FORMAT, b->o->cache_tag,
		    b->o->cp.noise_pct);
}

static void item_cache_text(const struct bs_changes_item *it,
			    struct bs_buf *out)
{
	const struct bs_changept *c = &it->cp;

	bs_buf_addf(out,
		    "%d %lld %lld %lld %lld %lld %d %zu %zu %lld %zu %zu "
		    "%.17g %.17g %zu %zu %.17g %.17g %.17g %d %lld %lld %lld "
		    "%lld %s\n",
		    it->metric, (long long)it->run_id, (long long)it->prev_id,
		    (long long)it->measured_at, (long long)it->prev_at,
		    (long long)it->series_runs, it->verdict, c->index, c->prev,
		    (long long)c->time, c->from, c->to, c->before, c->after,
		    c->n_before, c->n_after, c->ratio, c->pct, c->p,
		    c->direction, (long long)it->lo[0], (long long)it->hi[0],
		    (long long)it->lo[1], (long long)it->hi[1],
		    it->tool ? it->tool : "");
}

/* Reads the numbers of an item_cache_text line; 0, or -1 if it is not one. */
static int item_cache_parse(const char **sp, struct bs_changes_item *it)
{
	const char *p = *sp;
	char *end;
	long long ll[24];
	double d[24];
	const char *nl;
	int i;
	/* Which of the 24 fields are doubles. */
	static const unsigned char dbl[24] = {0, 0, 0, 0, 0, 0, 0, 0,
					      0, 0, 0, 0, 1, 1, 0, 0,
					      1, 1, 1, 0, 0, 0, 0, 0};

	for (i = 0; i < 24; i++) {
		if (dbl[i])
			d[i] = strtod(p, &end);
		else
			ll[i] = strtoll(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	/* Then " TOOL", the rest of the line. */
	if (*p != ' ')
		return -1;
	p++;
	nl = strchr(p, '\n');
	if (nl == NULL)
		nl = p + strlen(p);
	it->tool = xstrndup(p, (size_t)(nl - p));
	*sp = *nl ? nl + 1 : nl;
	it->lo[0] = ll[20];
	it->hi[0] = ll[21];
	it->lo[1] = ll[22];
	it->hi[1] = ll[23];
	if (ll[0] < 0 || ll[0] >= bs_nmetrics)
		return -1;
	it->metric = (int)ll[0];
	it->run_id = ll[1];
	it->prev_id = ll[2];
	it->measured_at = ll[3];
	it->prev_at = ll[4];
	it->series_runs = ll[5];
	it->verdict = (int)ll[6];
	it->cp.index = (size_t)ll[7];
	it->cp.prev = (size_t)ll[8];
	it->cp.time = ll[9];
	it->cp.from = (size_t)ll[10];
	it->cp.to = (size_t)ll[11];
	it->cp.before = d[12];
	it->cp.after = d[13];
	it->cp.n_before = (size_t)ll[14];
	it->cp.n_after = (size_t)ll[15];
	it->cp.ratio = d[16];
	it->cp.pct = d[17];
	it->cp.p = d[18];
	it->cp.direction = (int)ll[19];
	return 0;
}

/* ids from a check.r. value, appended. */
static void ids_parse(const char *p, struct bs_ids *ids)
{
	char *end;

	for (;;) {
		long long id = strtoll(p, &end, 10);

		if (end == p)
			break;
		xgrow((void **)&ids->id, &ids->cap, ids->n + 1,
		      sizeof(*ids->id));
		ids->id[ids->n++] = id;
		p = end;
	}
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The cache's state matches this check: reads the runs added since, and
 * the cached runs of every series they join, into b. Returns 1 when it
 * did, 0 when the cache is missing or of another check (nothing read).
 */
static int cache_read(struct build *b, struct bs_err *err)
{
	struct bs_store *st = b->o->cache;
	struct bs_buf v = BS_BUF_INIT, want = BS_BUF_INIT, k = BS_BUF_INIT;
	struct bs_ids ids = BS_IDS_INIT, newids = BS_IDS_INIT;
	long long maxid, runs, undated;
	size_t i, ns;
	char sel[40];
	int rc, found;

	rc = bs_store_cache_get(st, "check.state", &v, &found, err);
	state_text(b, &want);
	if (rc < 0 || !found || v.len <= want.len ||
	    memcmp(bs_buf_str(&v), bs_buf_str(&want), want.len) != 0 ||
	    bs_buf_str(&v)[want.len] != ' ' ||
	    sscanf(bs_buf_str(&v) + want.len, "%lld %lld %lld", &maxid, &runs,
		   &undated) != 3) {
		rc = rc < 0 ? rc : 0;
		goto out;
	}
	b->c->runs = runs;
	b->c->undated = undated;
	b->maxid = maxid;
	snprintf(sel, sizeof(sel), "id>%lld", maxid);
	rc = bs_store_select(st, sel, &newids, err);
	if (rc >= 0 && newids.n > 0)
		rc = bs_store_each(st, &newids, 0, take_run, b, err);
	/* The runs each new run's series had. */
	ns = b->ns;
	for (i = 0; i < ns && rc >= 0; i++) {
		bs_buf_reset(&k);
		bs_buf_adds(&k, "check.r.");
		bs_buf_adds(&k, b->s[i].key);
		rc = bs_store_cache_get(st, bs_buf_str(&k), &v, &found, err);
		if (rc == 0 && found)
			ids_parse(bs_buf_str(&v), &ids);
	}
	/* Those series read again whole, old and new runs in id order
	 * as a check of every run reads them (a series keeps its first
	 * run's tool); the new runs are counted already. */
	if (rc >= 0 && ns > 0) {
		qsort(ids.id, ids.n, sizeof(*ids.id), cmp_id);
		bs_ids_merge(&ids, newids.id, newids.n);
		series_release(b);
		b->old = 1;
		rc = bs_store_each(st, &ids, 0, take_run, b, err);
		b->old = 0;
	}
	if (rc >= 0)
		rc = 1;
out:
	bs_ids_release(&ids);
	bs_ids_release(&newids);
	bs_buf_release(&v);
	bs_buf_release(&want);
	bs_buf_release(&k);
	return rc;
}

/* The cached series no new run joined: their tests and candidates. */
struct unchanged {
	struct build *b;
	int64_t series;
};

static int take_cached(const char *key, const char *value, void *ctx)
{
	struct unchanged *u = ctx;
	struct build *b = u->b;
	struct bs_changes_item it;
	const char *p = value, *sep = strchr(key, '\x1f');
	size_t slot;
	char *end;
	long long checked;

	if (series_find(b, key, &slot) != NULL)
		return 0;
	u->series++;
	checked = strtoll(p, &end, 10);
	if (end == p || sep == NULL)
		return -BS_EPARSE;
	b->c->checked += checked;
	p = *end == '\n' ? end + 1 : end;
	while (*p) {
		memset(&it, 0, sizeof(it));
		if (item_cache_parse(&p, &it) < 0)
			return -BS_EPARSE;
		it.machine = xstrdup(key);
		it.machine[sep - key] = '\0';
		it.identity = xstrdup(sep + 1);
		b->c->item = xrealloc(b->c->item,
				      (b->c->n + 1) * sizeof(*b->c->item));
		b->c->item[b->c->n++] = it;
	}
	return 0;
}

/* Writes what this check found in the series it searched, and its state;
 * with whole, the cache is made again from nothing. */
static int cache_write(struct build *b, int whole, struct bs_err *err)
{
	struct bs_store *st = b->o->cache;
	struct bs_buf k = BS_BUF_INIT, v = BS_BUF_INIT;
	size_t i, j;
	int rc;

	rc = bs_store_begin(st, err);
	if (rc >= 0 && whole)
		rc = bs_store_cache_drop(st, err);
	for (i = 0; i < b->ns && rc >= 0; i++) {
		const struct series *s = &b->s[i];

		bs_buf_reset(&k);
		bs_buf_reset(&v);
		bs_buf_addf(&k, "check.s.%s", s->key);
		bs_buf_addf(&v, "%lld\n", (long long)s->checked);
		for (j = 0; j < s->nitem; j++)
			item_cache_text(&b->c->item[s->item0 + j], &v);
		rc = bs_store_cache_put(st, bs_buf_str(&k), bs_buf_str(&v),
					err);
		bs_buf_reset(&k);
		bs_buf_reset(&v);
		bs_buf_addf(&k, "check.r.%s", s->key);
		for (j = 0; j < s->n; j++)
			bs_buf_addf(&v, "%s%lld", j ? " " : "",
				    (long long)s->run[j].id);
		if (rc >= 0)
			rc = bs_store_cache_put(st, bs_buf_str(&k),
						bs_buf_str(&v), err);
	}
	if (rc >= 0) {
		bs_buf_reset(&v);
		state_text(b, &v);
		bs_buf_addf(&v, " %lld %lld %lld", (long long)b->maxid,
			    (long long)b->c->runs, (long long)b->c->undated);
		rc = bs_store_cache_put(st, "check.state", bs_buf_str(&v), err);
	}
	if (rc >= 0)
		rc = bs_store_commit(st, err);
	else
		bs_store_rollback(st);
	bs_buf_release(&k);
	bs_buf_release(&v);
	return rc;
}

static void free_item(struct bs_changes_item *it)
{
	size_t j;

	for (j = 0; j < it->nwhy; j++) {
		free(it->why[j].key);
		free(it->why[j].from);
		free(it->why[j].to);
	}
	free(it->why);
	free(it->machine);
	free(it->identity);
	free(it->tool);
}

static int cmp_item(const void *a, const void *b)
{
	const struct bs_changes_item *x = a, *y = b;
	int c;

	if (x->measured_at != y->measured_at)
		return x->measured_at > y->measured_at ? -1 : 1;
	if ((c = strcmp(x->machine, y->machine)) != 0)
		return c;
	if ((c = strcmp(x->identity, y->identity)) != 0)
		return c;
	return x->metric - y->metric;
}

int bs_changes_build(struct bs_changes **out, const struct bs_changes_opts *o,
		     const struct bs_changes_source *src, struct bs_err *err)
{
	struct build b;
	struct bs_run ra, rb;
	size_t i;
	int m, rc, cached, retried;

	memset(&b, 0, sizeof(b));
	b.o = o;
	b.c = xcalloc(1, sizeof(*b.c));
	b.c->check = o->check;
	b.c->noise_pct = o->cp.noise_pct;
	b.key = (struct bs_buf)BS_BUF_INIT;
	for (m = 0; m < bs_nmetrics; m++) {
		struct fam *f = &b.fam[bs_metrics[m].family];

		if (bs_metrics[m].better != BS_BETTER_NONE)
			f->m[f->n++] = m;
	}
	retried = 0;
again:
	cached = o->cache && !retried ? cache_read(&b, err) : 0;
	rc = cached;
	if (rc == 0)
		rc = src->src.each(src->src.ctx, 0, take_run, &b, err);
	if (rc < 0)
		goto out;
	b.c->series = (int64_t)b.ns;
	for (i = 0; i < b.ns; i++)
		search(&b, &b.s[i]);
	if (o->cache) {
		struct unchanged u = {&b, 0};

		/* The series no new run joined, as the cache has them. */
		rc = cached ? bs_store_cache_each(o->cache, "check.s.",
						  take_cached, &u, err)
			    : 0;
		if (rc == -BS_EPARSE && !retried) {
			/* Not what a check wrote: made again from the runs. */
			series_release(&b);
			for (i = 0; i < b.c->n; i++)
				free_item(&b.c->item[i]);
			b.c->n = 0;
			b.c->runs = b.c->undated = b.c->checked = 0;
			b.maxid = 0;
			retried = 1;
			goto again;
		}
		if (rc >= 0)
			rc = cache_write(&b, !cached, err);
		if (rc < 0)
			goto out;
		b.c->series += u.series;
	}
	if (o->check) {
		/* A nightly check tests every series and metric at once:
		 * Bonferroni over them keeps the chance of any false alarm
		 * in one check under alpha. */
		size_t kept = 0;

		for (i = 0; i < b.c->n; i++) {
			struct bs_changes_item *it = &b.c->item[i];

			it->cp.p = fmin(1, it->cp.p * (double)b.c->checked);
			if (bs_changept_reported(&it->cp, &o->cp))
				b.c->item[kept++] = *it;
			else
				free_item(it);
		}
		b.c->n = kept;
	}
	if (b.c->n > 1)
		qsort(b.c->item, b.c->n, sizeof(*b.c->item), cmp_item);
	/* What changed at each: the two runs read again, with tags. */
	for (i = 0; i < b.c->n && rc >= 0; i++) {
		bs_run_init(&ra);
		bs_run_init(&rb);
		rc = src->get(src->get_ctx, b.c->item[i].prev_id, &ra, err);
		if (rc >= 0)
			rc = src->get(src->get_ctx, b.c->item[i].run_id, &rb,
				      err);
		if (rc >= 0)
			bs_changes_explain(&ra, &rb, add_why, &b.c->item[i]);
		bs_run_release(&ra);
		bs_run_release(&rb);
	}
out:
	series_release(&b);
	bs_buf_release(&b.key);
	if (rc < 0) {
		bs_changes_free(b.c);
		return rc;
	}
	*out = b.c;
	return 0;
}

void bs_changes_free(struct bs_changes *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		free_item(&c->item[i]);
	free(c->item);
	free(c);
}

/* ---- output ------------------------------------------------------------ */

static const char *verdict_word(const struct bs_changes_item *it)
{
	return it->verdict > 0 ? "better" : "worse";
}

/* "18.2% lower" / "2.0x higher". */
static void shift_text(const struct bs_changes_item *it, struct bs_buf *b)
{
	double r = it->cp.ratio;

	if (!isfinite(r))
		bs_buf_adds(b, it->cp.direction > 0 ? "higher" : "lower");
	else if (r >= 2 || (r > 0 && r <= 0.5))
		bs_buf_addf(b, "%.1fx %s", r >= 1 ? r : 1 / r,
			    r >= 1 ? "higher" : "lower");
	else
		bs_buf_addf(b, "%.1f%% %s", fabs(it->cp.pct),
			    it->cp.direction > 0 ? "higher" : "lower");
}

static void why_text(const struct bs_changes_item *it, struct bs_buf *b)
{
	size_t j;

	for (j = 0; j < it->nwhy; j++)
		bs_buf_addf(b, "%s%s %s -> %s", j ? "; " : "", it->why[j].key,
			    it->why[j].from[0] ? it->why[j].from : "(none)",
			    it->why[j].to[0] ? it->why[j].to : "(none)");
}

void bs_changes_headline(const struct bs_changes_item *it, struct bs_buf *b)
{
	char d[32];

	bs_time_iso(d, sizeof(d), it->measured_at);
	d[10] = '\0';
	bs_buf_addf(b, "%s ", bs_metrics[it->metric].label);
	shift_text(it, b);
	bs_buf_addf(b, " from run %lld (%s), %s", (long long)it->run_id, d,
		    verdict_word(it));
}

void bs_changes_why_text(const struct bs_changes_item *it, struct bs_buf *b)
{
	if (it->nwhy > 0)
		why_text(it, b);
	else
		bs_buf_addf(b,
			    "nothing bstore knows of changed between runs "
			    "%lld and %lld",
			    (long long)it->prev_id, (long long)it->run_id);
}

/* A term's value in the selector language: ',' and '\\' escaped, and
 * the glob's characters as classes of themselves. */
static void sel_value(struct bs_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == '\\')
			bs_buf_addc(b, '\\');
		if (*s == '*' || *s == '?' || *s == '[')
			bs_buf_addf(b, "[%c]", *s);
		else
			bs_buf_addc(b, *s);
	}
}

void bs_changes_level_selector(const struct bs_changes_item *it, int after,
			       struct bs_buf *b)
{
	int k = after ? 1 : 0;

	if (it->lo[k] == it->hi[k])
		bs_buf_addf(b, "id=%lld", (long long)it->lo[k]);
	else
		bs_buf_addf(b, "id=%lld-%lld", (long long)it->lo[k],
			    (long long)it->hi[k]);
	if (it->machine[0]) {
		bs_buf_adds(b, ",machine=");
		sel_value(b, it->machine);
	}
	if (it->tool && it->tool[0]) {
		bs_buf_adds(b, ",tool=");
		sel_value(b, it->tool);
	}
}

size_t bs_changes_next(const struct bs_changes *c, size_t from,
		       const char *machine, const char *identity, int metric)
{
	size_t i;

	for (i = from; i < c->n; i++)
		if (c->item[i].metric == metric &&
		    strcmp(c->item[i].machine, machine ? machine : "") == 0 &&
		    strcmp(c->item[i].identity, identity) == 0)
			return i;
	return c->n;
}

void bs_changes_mark(const struct bs_changes_item *it, struct bs_tdict *d)
{
	struct bs_buf h = BS_BUF_INIT, w = BS_BUF_INIT, t = BS_BUF_INIT;
	char s[32];

	bs_changes_headline(it, &h);
	bs_changes_why_text(it, &w);
	bs_buf_addf(&t, "%s: %s", bs_buf_str(&h), bs_buf_str(&w));
	bs_tdict_set_i64(d, "RUN", it->run_id);
	bs_tdict_set_i64(d, "PREV", it->prev_id);
	bs_time_iso(s, sizeof(s), it->measured_at);
	s[10] = '\0';
	bs_tdict_set(d, "DATE", s);
	bs_tdict_set(d, "HEADLINE", bs_buf_str(&h));
	bs_tdict_set(d, "WHY", bs_buf_str(&w));
	bs_tdict_set(d, "TIP", bs_buf_str(&t));
	bs_tdict_show(d, it->verdict > 0 ? "BETTER" : "WORSE");
	bs_buf_release(&h);
	bs_buf_release(&w);
	bs_buf_release(&t);
}

/* The two levels' selectors, quoted for a POSIX shell. */
static void report_args(const struct bs_changes_item *it, struct bs_buf *b)
{
	struct bs_buf sel = BS_BUF_INIT;
	const char *p;
	int k;

	for (k = 0; k < 2; k++) {
		bs_buf_reset(&sel);
		bs_changes_level_selector(it, k, &sel);
		bs_buf_adds(b, k ? " '" : "'");
		for (p = bs_buf_str(&sel); *p; p++) {
			if (*p == '\'')
				bs_buf_adds(b, "'\\''");
			else
				bs_buf_addc(b, *p);
		}
		bs_buf_addc(b, '\'');
	}
	bs_buf_release(&sel);
}

static void item_text(const struct bs_changes_item *it, struct bs_buf *b)
{
	char v1[64], v2[64];
	int m = it->metric;

	bs_buf_addf(b, "%s, %s: ", bs_store_machine_name(it->machine),
		    it->identity);
	bs_changes_headline(it, b);
	bs_buf_addc(b, '\n');
	bs_buf_addf(b,
		    "    %s -> %s %s (medians of %zu and %zu runs), "
		    "p = %.2g\n",
		    bs_metric_fmt(v1, sizeof(v1), m, it->cp.before, 0),
		    bs_metric_fmt(v2, sizeof(v2), m, it->cp.after, 0),
		    bs_metric_unit(m, 0), it->cp.n_before, it->cp.n_after,
		    it->cp.p);
	if (it->nwhy > 0)
		bs_buf_addf(b, "    at run %lld: ", (long long)it->run_id);
	else
		bs_buf_adds(b, "    ");
	bs_changes_why_text(it, b);
	bs_buf_addc(b, '\n');
	if (!it->cp.n_after || it->series_runs == 0)
		return;
	bs_buf_adds(b, "    the two levels: bstore report ");
	report_args(it, b);
	bs_buf_addc(b, '\n');
}

static void item_json(const struct bs_changes_item *it, struct bs_buf *b)
{
	char d[32];
	size_t j;

	bs_buf_addc(b, '{');
	bs_json_key(b, "machine", 1);
	bs_json_str(b, it->machine);
	bs_json_key(b, "identity", 0);
	bs_json_str(b, it->identity);
	bs_json_key(b, "metric", 0);
	bs_json_str(b, bs_metrics[it->metric].key);
	bs_json_key(b, "run_id", 0);
	bs_json_i64(b, it->run_id);
	bs_json_key(b, "measured_at", 0);
	bs_json_str(b, bs_time_iso(d, sizeof(d), it->measured_at));
	bs_json_key(b, "prev_run_id", 0);
	bs_json_i64(b, it->prev_id);
	bs_json_key(b, "before", 0);
	bs_json_num(b, it->cp.before);
	bs_json_key(b, "after", 0);
	bs_json_num(b, it->cp.after);
	bs_json_key(b, "n_before", 0);
	bs_json_i64(b, (int64_t)it->cp.n_before);
	bs_json_key(b, "n_after", 0);
	bs_json_i64(b, (int64_t)it->cp.n_after);
	bs_json_key(b, "unit", 0);
	bs_json_str(b, bs_metrics[it->metric].unit);
	bs_json_key(b, "ratio", 0);
	bs_json_num(b, it->cp.ratio);
	bs_json_key(b, "p", 0);
	bs_json_num(b, it->cp.p);
	bs_json_key(b, "direction", 0);
	bs_json_str(b, verdict_word(it));
	bs_json_key(b, "explained_by", 0);
	bs_buf_addc(b, '[');
	for (j = 0; j < it->nwhy; j++) {
		bs_buf_adds(b, j ? ",{" : "{");
		bs_json_key(b, "key", 1);
		bs_json_str(b, it->why[j].key);
		bs_json_key(b, "from", 0);
		bs_json_str(b, it->why[j].from);
		bs_json_key(b, "to", 0);
		bs_json_str(b, it->why[j].to);
		bs_buf_addc(b, '}');
	}
	bs_buf_adds(b, "]");
	bs_json_key(b, "levels", 0);
	for (j = 0; j < 2; j++) {
		struct bs_buf sel = BS_BUF_INIT;

		bs_changes_level_selector(it, (int)j, &sel);
		bs_buf_addc(b, j ? ',' : '[');
		bs_json_str(b, bs_buf_str(&sel));
		bs_buf_release(&sel);
	}
	bs_buf_adds(b, "]}\n");
}

static void csv_str(struct bs_buf *b, const char *s, int last)
{
	bs_csv_cell(b, s, strlen(s));
	bs_buf_addc(b, last ? '\n' : ',');
}

static void csv_num(struct bs_buf *b, double v)
{
	if (isfinite(v))
		bs_buf_addf(b, "%.6g", v);
	bs_buf_addc(b, ',');
}

static void item_csv(const struct bs_changes_item *it, struct bs_buf *b)
{
	struct bs_buf w = BS_BUF_INIT;
	char d[32];

	csv_str(b, it->machine, 0);
	csv_str(b, it->identity, 0);
	csv_str(b, bs_metrics[it->metric].key, 0);
	bs_buf_addf(b, "%lld,", (long long)it->run_id);
	csv_str(b, bs_time_iso(d, sizeof(d), it->measured_at), 0);
	bs_buf_addf(b, "%lld,", (long long)it->prev_id);
	csv_num(b, it->cp.before);
	csv_num(b, it->cp.after);
	bs_buf_addf(b, "%zu,%zu,", it->cp.n_before, it->cp.n_after);
	csv_str(b, bs_metrics[it->metric].unit, 0);
	csv_num(b, it->cp.ratio);
	csv_num(b, it->cp.p);
	csv_str(b, verdict_word(it), 0);
	why_text(it, &w);
	csv_str(b, bs_buf_str(&w), 1);
	bs_buf_release(&w);
}

/* HTML: the stored strings escaped. */
static void html_esc(struct bs_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			bs_buf_adds(b, "&lt;");
			break;
		case '>':
			bs_buf_adds(b, "&gt;");
			break;
		case '&':
			bs_buf_adds(b, "&amp;");
			break;
		case '"':
			bs_buf_adds(b, "&quot;");
			break;
		case '\'':
			bs_buf_adds(b, "&#39;");
			break;
		default:
			bs_buf_addc(b, *s);
		}
	}
}

static void item_html(const struct bs_changes_item *it, struct bs_buf *b)
{
	struct bs_buf w = BS_BUF_INIT;
	char d[32], v1[64], v2[64];
	int m = it->metric;

	bs_time_iso(d, sizeof(d), it->measured_at);
	d[10] = '\0';
	bs_buf_addf(b, "<tr class=\"%s\"><td>", verdict_word(it));
	html_esc(b, d);
	bs_buf_adds(b, "</td><td>");
	html_esc(b, bs_store_machine_name(it->machine));
	bs_buf_adds(b, "</td><td>");
	html_esc(b, it->identity);
	bs_buf_adds(b, "</td><td>");
	html_esc(b, bs_metrics[m].label);
	bs_buf_adds(b, "</td><td>");
	shift_text(it, &w);
	html_esc(b, bs_buf_str(&w));
	bs_buf_addf(b, ", %s</td><td>%s &rarr; %s ", verdict_word(it),
		    bs_metric_fmt(v1, sizeof(v1), m, it->cp.before,
				  BS_SHOW_GROUP),
		    bs_metric_fmt(v2, sizeof(v2), m, it->cp.after,
				  BS_SHOW_GROUP));
	html_esc(b, bs_metric_unit(m, 0));
	bs_buf_addf(b,
		    " (%zu, %zu runs)</td><td>p&nbsp;=&nbsp;%.2g</td><td>"
		    "runs %lld &rarr; %lld</td><td>",
		    it->cp.n_before, it->cp.n_after, it->cp.p,
		    (long long)it->prev_id, (long long)it->run_id);
	bs_buf_reset(&w);
	why_text(it, &w);
	html_esc(b, bs_buf_str(&w));
	bs_buf_adds(b, "</td></tr>\n");
	bs_buf_release(&w);
}

static void summary_text(const struct bs_changes *c, struct bs_buf *b)
{
	if (c->check)
		bs_buf_addf(b,
			    "%zu regression%s in %lld series x metric "
			    "checked",
			    c->n, c->n == 1 ? "" : "s", (long long)c->checked);
	else
		bs_buf_addf(b, "%zu change point%s", c->n,
			    c->n == 1 ? "" : "s");
	bs_buf_addf(b, " (%lld series of %lld runs; noise %.3g%%",
		    (long long)c->series, (long long)(c->runs - c->undated),
		    c->noise_pct);
	if (c->undated > 0)
		bs_buf_addf(b, "; %lld runs without a date left out",
			    (long long)c->undated);
	bs_buf_adds(b, ")");
}

int bs_changes_render(const struct bs_changes *c, enum bs_report_format fmt,
		      FILE *out, struct bs_err *err)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	if (fmt == BS_REPORT_CSV)
		bs_buf_adds(&b, "machine,identity,metric,run_id,measured_at,"
				"prev_run_id,before,after,n_before,n_after,"
				"unit,ratio,p,direction,explained_by\n");
	if (fmt == BS_REPORT_HTML) {
		bs_buf_adds(&b,
			    "<!DOCTYPE html>\n<html lang=\"en\"><head>"
			    "<meta charset=\"utf-8\"><meta name=\"viewport\" "
			    "content=\"width=device-width, initial-scale=1\">"
			    "<title>");
		bs_buf_adds(&b, c->check ? "Regressions" : "Change points");
		bs_buf_adds(
			&b,
			"</title><style>body{font:14px system-ui,"
			"sans-serif;margin:1em}table{border-collapse:"
			"collapse;width:100%}td,th{border-bottom:1px "
			"solid #d0d7de;padding:4px 6px;text-align:"
			"left;vertical-align:top;overflow-wrap:anywhere}"
			"td:first-child{white-space:nowrap}tr.worse td:nth-child(5)"
			"{color:#a40e26}tr.better td:nth-child(5){color:"
			"#116329}@media(max-width:600px){tr:first-child{"
			"display:none}tr{display:block;padding:6px 0;"
			"border-bottom:1px solid #d0d7de}td{display:"
			"inline;border:0;padding:0 6px 0 0}td:nth-child(3)"
			",td:nth-child(9){display:block}}</style></head>"
			"<body><h1>");
		bs_buf_adds(&b, c->check ? "Regressions" : "Change points");
		bs_buf_adds(&b, "</h1>\n<p>");
		summary_text(c, &b);
		bs_buf_adds(&b, "</p>\n<table><tr><th>date</th><th>machine"
				"</th><th>test</th><th>metric</th><th>change"
				"</th><th>medians</th><th>p</th><th>runs</th>"
				"<th>what changed</th></tr>\n");
	}
	for (i = 0; i < c->n; i++) {
		switch (fmt) {
		case BS_REPORT_JSON:
			item_json(&c->item[i], &b);
			break;
		case BS_REPORT_CSV:
			item_csv(&c->item[i], &b);
			break;
		case BS_REPORT_HTML:
			item_html(&c->item[i], &b);
			break;
		default:
			item_text(&c->item[i], &b);
		}
	}
	if (fmt == BS_REPORT_HTML)
		bs_buf_adds(&b, "</table>\n</body></html>\n");
	if (fmt == BS_REPORT_TEXT) {
		summary_text(c, &b);
		bs_buf_addc(&b, '\n');
	}
	if (fwrite(bs_buf_str(&b), 1, b.len, out) != b.len) {
		bs_buf_release(&b);
		return bs_error(err, BS_EIO, "cannot write the output");
	}
	bs_buf_release(&b);
	return 0;
}
