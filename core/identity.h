/*
 * core/identity.h - a run's test identity: what it measured, decided in
 * one place from its family's row (core/family.h), so that report,
 * compare, trend, the site and change-point detection agree on whether
 * two runs ran the same test (docs/report.md, "Test identity").
 *
 * An identity is
 *   - the implementation that produced the run (bonnie++, bonnie++ 1.0x,
 *     Bonnie, bstore run; sysbench, bstore fileio; zcav, bstore zcav;
 *     fio; dd; getc_putc): the run's dialect names it;
 *   - the value of every parameter that a deciding rule of the family
 *     names, method flags among them (O_DIRECT is the parameter "direct"
 *     in every family, sync modes), each normalised: sizes in bytes
 *     ("4k", "4096B" and "4KiB" are 4096), fio's rw aliases as one, open
 *     flags as sorted words. A value the run's output did not carry is
 *     unknown, never the tool's default; what the implementation fixes
 *     (zcav never opens O_DIRECT) is known from its row.
 *
 * Two runs ran the same test of metric m when their implementations are
 * one, or the family row declares m alike for the two at their methods;
 * and every deciding parameter of a rule about m has one value on both,
 * or is unknown on both. A parameter known on one side only leaves it
 * open ("can't tell"); implementations m is not declared alike for are
 * related only.
 */
#ifndef BS_CORE_IDENTITY_H
#define BS_CORE_IDENTITY_H

#include <stdint.h>

#include "core/family.h"
#include "util/buf.h"

struct bs_run;
struct bs_params;

/* Deciding parameters of one family, at most. */
#define BS_IDENT_KEYS 16
/* Room for a normalised text value; a longer one keeps its start and a
 * hash of the whole, so that two different values never read alike. */
#define BS_IDENT_TEXT 64

struct bs_ident_val {
	int param; /* parameter row (core/param.h) */
	unsigned char known;
	unsigned char fixed;      /* from the implementation's row */
	int64_t num;              /* integer kinds, and a single size */
	char text[BS_IDENT_TEXT]; /* the normalised text of text kinds */
};

struct bs_ident {
	enum bs_family family;
	const struct bs_impl *impl; /* NULL when no row names it */
	int n;                      /* values in v */
	/* The family's deciding parameters, in the order of its rules. */
	struct bs_ident_val v[BS_IDENT_KEYS];
};

/* Computes r's identity. */
void bs_ident_of(const struct bs_run *r, struct bs_ident *id /* OUT */);

/* How two identities compare on one metric. */
enum bs_ident_rel {
	BS_ID_SAME,    /* the same test */
	BS_ID_DIFFER,  /* a deciding parameter differs: different tests */
	BS_ID_UNKNOWN, /* known on one side only: can't tell */
	BS_ID_RELATED, /* other implementations, m not declared alike */
};

/*
 * a and b (of one family) on catalogue row m, leaving parameter row
 * ignore aside (a --by factor; -1 for none). *param is the parameter
 * that decided DIFFER or UNKNOWN (-1 otherwise). DIFFER wins over
 * UNKNOWN; RELATED is told first.
 */
enum bs_ident_rel bs_ident_cmp(const struct bs_ident *a,
			       const struct bs_ident *b, int m, int ignore,
			       int *param /* OUT */);

/* Whether two identities are one, on every metric (implementation and
 * every value alike, unknown only where both are). */
int bs_ident_equal(const struct bs_ident *a, const struct bs_ident *b);

/* Whether id's value j (of id->v) decides catalogue row m: a deciding
 * rule names its parameter and is about m. */
int bs_ident_decides(const struct bs_ident *id, int j, int m);

/* Whether id's method values are as when says ("direct=1,fsync=0", a
 * family's equivalence; NULL always): yes, a value is unknown, or no.
 * The values are a score: the sum of two sides' tells which equivalence
 * holds best (report/ident.c). */
enum bs_ident_holds {
	BS_HOLDS_NO = -1,
	BS_HOLDS_UNKNOWN = 0,
	BS_HOLDS_YES = 1,
};
enum bs_ident_holds bs_ident_holds(const struct bs_ident *id, const char *when);

/* The value of parameter row k in id, or NULL when k does not decide. */
const struct bs_ident_val *bs_ident_get(const struct bs_ident *id, int k);

/*
 * Appends the identity as stable text, the key of a series: "fio|fio|
 * rw=randread|bs=4096|...", "?" for an unknown value.
 */
void bs_ident_key(const struct bs_ident *id, struct bs_buf *out);

/* Appends a value for people: "4 KiB", "randread", "on", "unknown". */
void bs_ident_val_text(const struct bs_ident_val *v, struct bs_buf *out);

/*
 * The names for people of the tests of set[0..n), into out[i] (each
 * the caller frees): a test's implementation and the title words of its
 * family row ("sysbench rndrw, 4 threads", "bonnie++ -D"), then, where
 * tests of the set read alike so far, each deciding value in which they
 * do not all agree ("bonnie++, file size 1 GiB" and "..., 2 GiB",
 * "O_DIRECT unknown"), so that no two tests of the set (distinct
 * identities) share a name. Trends and the site title their charts with
 * them. O(n log n) and the values of same-named tests.
 */
void bs_ident_names(const struct bs_ident *set, size_t n, char **out);

/* Whether the test of id measures catalogue row m: 0 when its family row
 * says its tool prints a 0 there that is absent (sysbench seqwr's read
 * rate, core/family.h's struct bs_unmeasured). */
int bs_ident_measures(const struct bs_ident *id, int m);

/*
 * Parameter k's value of params p, normalised as identity reads it
 * (for selectors: a value a user typed goes through bs_ident_norm_text).
 * Returns whether it is known.
 */
int bs_ident_norm(const struct bs_params *p, int k,
		  struct bs_ident_val *v /* OUT */);
/* A value of parameter row k as typed ("4k", "randread", "1"),
 * normalised; returns 0, or -BS_EINVAL when it cannot be one of k's
 * values (the caller, which knows where the text came from, words it). */
int bs_ident_norm_text(int k, const char *text,
		       struct bs_ident_val *v /* OUT */);

/* Whether text is a size, a list or a range of sizes as BS_PN_SIZE reads
 * them ("4k", "4096B", "4k-64k", "4k,8k"). */
int bs_ident_is_size(const char *text);

/*
 * The value identity reads for parameter row k of run r (of k's family):
 * what the implementation fixes, O_DIRECT from the open flags of a run
 * that did not record direct, else bs_ident_norm() of its parameters.
 * Selectors (store/select.c) and --by groups (report/factor.c) read
 * parameters through it. Returns whether the value is known.
 */
int bs_ident_value(const struct bs_run *r, int k,
		   struct bs_ident_val *v /* OUT */);

/* bs_ident_val_cmp's answer for two values with no order (texts). */
#define BS_IDENT_UNORDERED 2
/*
 * Two known values of one parameter row: 0 when they are one value, -1
 * or 1 as a is below or above b (numbers: sizes, counts, reals), else
 * BS_IDENT_UNORDERED.
 */
int bs_ident_val_cmp(const struct bs_ident_val *a,
		     const struct bs_ident_val *b);

/*
 * Appends a known value as a selector's value that bs_ident_norm_text()
 * reads back to it: "4096" for 4k, "randrw", "link"; the labels of --by
 * groups use it.
 */
void bs_ident_val_word(const struct bs_ident_val *v, struct bs_buf *out);

/*
 * Whether open flags as a tool printed them ("sync,direct", dd's
 * "oflag=direct conv=fdatasync") ask for O_DIRECT. Readers that keep the
 * flags set the parameter direct by it.
 */
int bs_flags_direct(const char *flags);

#endif
