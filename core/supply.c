/* core/supply.c - parameters the user supplies (core/supply.h). */
#include "core/supply.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/family.h"
#include "core/identity.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/similar.h"
#include "util/text.h"
#include "util/banned.h"

_Static_assert(BS_P_MAX <= 64, "bs_run.supplied has a bit a parameter row");

int bs_supply_find(enum bs_family f, const char *key, struct bs_err *err)
{
	struct bs_buf all = BS_BUF_INIT;
	const char *best = NULL;
	size_t dist = (size_t)-1;
	int k = bs_param_find_in(f, key), j, first, rc;

	if (k >= 0)
		return k;
	first = bs_cat->param0[f];
	for (j = first; j < first + bs_family(f)->nparams; j++) {
		bs_similar_best(key, bs_param_table[j].key, &best, &dist);
		bs_buf_addf(&all, "%s%s", j > first ? ", " : "",
			    bs_param_table[j].key);
	}
	if (best)
		rc = bs_error(err, BS_EINVAL,
			      "'%s' is not a parameter of %s runs; did you "
			      "mean '%s'?",
			      key, bs_family_name(f), best);
	else
		rc = bs_error(err, BS_EINVAL,
			      "'%s' is not a parameter of %s runs (they have "
			      "%s)",
			      key, bs_family_name(f), bs_buf_str(&all));
	bs_buf_release(&all);
	return rc;
}

/*
 * text as a value of row k into p, as people spell it
 * (bs_param_set_text, the one reading), with what identity's normaliser
 * needs besides: a text size (fio's bs) must read as one. 0, or BS_EINVAL.
 */
static int read_value(int k, const char *text, struct bs_params *p,
		      struct bs_err *err)
{
	const struct bs_param_info *pi = &bs_param_table[k];
	struct bs_err why = BS_ERR_INIT;

	if (bs_text_has_control(text))
		return bs_error(err, BS_EINVAL,
				"%s: '%.64s' has a control character (a "
				"newline?)",
				pi->key, text);
	if (pi->kind == BS_PK_TEXT && pi->norm == BS_PN_SIZE &&
	    !bs_ident_is_size(text))
		return bs_error(err, BS_EINVAL,
				"%s: '%.64s' is not a size such as 4k or "
				"4096B",
				pi->key, text);
	if (bs_param_set_text(p, k, text, &why) < 0)
		return bs_error(err, BS_EINVAL, "%s", why.msg);
	return 0;
}

/* Whether row k holds one value in a and b, as identity reads them. */
static int same_value(const struct bs_params *a, const struct bs_params *b,
		      int k)
{
	struct bs_ident_val va, vb;
	int ka = bs_ident_norm(a, k, &va), kb = bs_ident_norm(b, k, &vb);

	return ka == kb && va.num == vb.num && strcmp(va.text, vb.text) == 0;
}

/* Makes row k of p unknown. */
static void forget(struct bs_params *p, int k)
{
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		free(*bs_param_text(p, k));
		*bs_param_text(p, k) = NULL;
		break;
	case BS_PK_REAL:
		*bs_param_real(p, k) = NAN;
		break;
	default:
		*bs_param_i64(p, k) = BS_NONE;
		break;
	}
}

/*
 * What identity knows of row k without the run's params (core/identity.h):
 * a value its implementation fixes (zcav never opens O_DIRECT) or its open
 * flags imply (direct from sysbench's or dd's flags). 0 when nothing; 1
 * when next's value is that one; BS_EINVAL when it is another.
 */
static int told(const struct bs_run *r, int k, const struct bs_params *next,
		struct bs_err *err)
{
	const struct bs_ident_val *v;
	struct bs_ident_val w;
	struct bs_ident id;
	struct bs_buf was = BS_BUF_INIT;
	int rc;

	bs_ident_of(r, &id);
	v = bs_ident_get(&id, k);
	if (v == NULL || !v->known)
		return 0;
	bs_ident_norm(next, k, &w);
	if (v->num == w.num && strcmp(v->text, w.text) == 0)
		return 1;
	bs_ident_val_text(v, &was);
	rc = bs_error(err, BS_EINVAL,
		      "%s: the run's %s says %s; a value the tool gave is not "
		      "replaced",
		      bs_param_table[k].key,
		      v->fixed ? "implementation" : "open flags",
		      bs_buf_str(&was));
	bs_buf_release(&was);
	return rc;
}

/* bs_supply's work: 1 when r's value changed, 0 when not, or -BS_EINVAL. */
static int supply(struct bs_run *r, const char *key, const char *text,
		  struct bs_err *err)
{
	struct bs_params next;
	struct bs_buf was = BS_BUF_INIT;
	int k = bs_supply_find(r->family, key, err), printed, rc;

	if (k < 0)
		return k;
	printed = bs_param_known(&r->params, k) && !bs_supplied(r, k);
	if (text[0] == '\0') {
		if (printed) {
			bs_param_format(&r->params, k, &was);
			rc = bs_error(err, BS_EINVAL,
				      "%s: the run's output says %s; a value "
				      "the output printed is kept",
				      key, bs_buf_str(&was));
			bs_buf_release(&was);
			return rc;
		}
		if (!bs_supplied(r, k))
			return 0;
		forget(&r->params, k);
		r->supplied &= ~((uint64_t)1 << k);
		return 1;
	}
	bs_params_init(&next);
	rc = read_value(k, text, &next, err);
	if (rc == 0 && !bs_param_known(&r->params, k) &&
	    (rc = told(r, k, &next, err)) != 0) {
		/* the implementation or the flags said it (rc 1: alike) */
		rc = rc > 0 ? 0 : rc;
	} else if (rc == 0 && same_value(&r->params, &next, k)) {
		rc = 0; /* printed or supplied already */
	} else if (rc == 0 && printed) {
		bs_param_format(&r->params, k, &was);
		rc = bs_error(err, BS_EINVAL,
			      "%s: the run's output says %s; a value the "
			      "output printed is not replaced",
			      key, bs_buf_str(&was));
	} else if (rc == 0) {
		forget(&r->params, k);
		read_value(k, text, &r->params, err);
		r->supplied |= (uint64_t)1 << k;
		rc = 1;
	}
	bs_params_release(&next);
	bs_buf_release(&was);
	return rc;
}

int bs_supply(struct bs_run *r, const char *key, const char *text,
	      enum bs_supply_outcome *how, struct bs_err *err)
{
	int rc = supply(r, key, text, err);

	*how = rc == 1 ? BS_SUPPLY_CHANGED : BS_SUPPLY_SAME;
	return rc < 0 ? rc : 0;
}

void bs_supplied_keys(const struct bs_run *r, struct bs_buf *out)
{
	int k, n = 0;

	for (k = 0; k < bs_nparams; k++)
		if (bs_supplied(r, k) && bs_param_table[k].family == r->family)
			bs_buf_addf(out, "%s%s", n++ ? "," : "",
				    bs_param_table[k].key);
}

void bs_supplied_parse(struct bs_run *r, const char *keys)
{
	char key[64];

	r->supplied = 0;
	while (keys && *keys) {
		size_t len = strcspn(keys, ",");
		int k;

		if (len < sizeof(key)) {
			memcpy(key, keys, len);
			key[len] = '\0';
			k = bs_param_find_in(r->family, key);
			if (k >= 0)
				r->supplied |= (uint64_t)1 << k;
		}
		keys += len + (keys[len] == ',');
	}
}
