/*
 * core/supply.h - a run parameter the user supplies where the tool's
 * output leaves it out (fio's normal text prints no direct, its terse line
 * none of rw, bs, iodepth, ioengine, direct): `bstore ingest --param
 * KEY=VALUE` and `bstore set SELECTOR KEY=VALUE` go through this one rule
 * (docs/ingest.md, "Parameters the output leaves out").
 *
 * The key is a parameter of the run's family (its row, core/param.h); the
 * value is read as the row's kind and normaliser read it: integers and
 * sizes as numbers (bytes take "4k"), booleans 0/1/on/off/yes/no/
 * true/false, text sizes as sizes ("4k", "4096B"), other text as given. A
 * value the tool's output printed is never replaced: the run's text is the
 * evidence, and a supplied value that says otherwise is refused. Supplied
 * values are marked in r->supplied (bit k for parameter row k), which the
 * store keeps (supplied_params), and show, export and merge carry.
 */
#ifndef BS_CORE_SUPPLY_H
#define BS_CORE_SUPPLY_H

#include "core/result.h"
#include "util/err.h"

/* Whether r's parameter row k was supplied by the user. */
static inline int bs_supplied(const struct bs_run *r, int k)
{
	return k >= 0 && k < 64 && (r->supplied >> k & 1) != 0;
}

/*
 * The row of key among family f's parameters, or BS_EINVAL with err
 * saying "'drect' is not a parameter of fio runs; did you mean 'direct'?"
 * (or listing the family's parameters when none is close).
 */
int bs_supply_find(enum bs_family f, const char *key, struct bs_err *err);

/* What bs_supply did to the run. */
enum bs_supply_outcome {
	BS_SUPPLY_SAME = 0, /* r had that value already (printed or supplied) */
	BS_SUPPLY_CHANGED,  /* r's value changed */
};

/*
 * Gives r the parameter key=text, *how saying whether its value changed.
 * Returns 0, or -BS_EINVAL: key is no parameter of r's family, text no
 * value of it, or the output printed another value. An empty text makes
 * a supplied value unknown again (a printed one cannot be).
 */
int bs_supply(struct bs_run *r, const char *key, const char *text,
	      enum bs_supply_outcome *how, struct bs_err *err);

/*
 * r's supplied parameters as the store keeps them (runs.supplied) and
 * export writes them: their keys in the family's order, joined by ','
 * ("rw,bs,iodepth,ioengine,direct"); nothing when none.
 * bs_supplied_parse reads such a list back into r->supplied (r's family
 * set), skipping keys its family does not have (a newer bstore's).
 */
void bs_supplied_keys(const struct bs_run *r, struct bs_buf *out);
void bs_supplied_parse(struct bs_run *r, const char *keys);

#endif
