/*
 * report/stats.h - the statistics of a comparison, from each group's
 * count, mean and standard deviation of a metric (what the report model
 * accumulates in one pass): the interval of a mean, Welch's t-test
 * between a group and its baseline, the interval of their ratio, Holm's
 * correction across the many metrics of one page, and the verdict of a
 * cell. docs/report.md gives the formulas in a user's words.
 *
 * Distributions come from GSL (t quantiles and tails); nothing here
 * allocates or fails. NAN means "not defined for these numbers".
 */
#ifndef BS_REPORT_STATS_H
#define BS_REPORT_STATS_H

#include <stddef.h>

/* The confidence level of every interval, and the test's level. */
#define BS_STAT_LEVEL 0.95
#define BS_STAT_ALPHA 0.05
/* Runs a side needs before a test is made (fewer: not enough runs). */
#define BS_STAT_MIN_N 3
/* The default noise threshold, in percent (--noise). */
#define BS_STAT_NOISE_PCT 5.0

/* A group's numbers of one metric. */
struct bs_stat_sample {
	double n; /* runs with a number */
	double mean;
	double sd; /* sample standard deviation; NAN when n < 2 */
};

/* Half the width of the t interval of the mean (mean +- this); NAN when
 * n < 2. */
double bs_stat_mean_ci(const struct bs_stat_sample *s);

/* The median of n numbers (the middle one, or the mean of the middle
 * two), reordering v; NAN when n is 0. NANs are not allowed. */
double bs_stat_median(double *v, size_t n);

/* The coefficient of variation sd / |mean|; NAN when undefined. */
double bs_stat_cv(const struct bs_stat_sample *s);

/*
 * Welch's two-sided t-test of equal means: the p-value, with the
 * Welch-Satterthwaite degrees of freedom. NAN when a side has fewer than
 * BS_STAT_MIN_N runs. Both sides without spread: 0 when the means
 * differ, 1 when they are equal.
 */
double bs_stat_welch_p(const struct bs_stat_sample *g,
		       const struct bs_stat_sample *b);

/*
 * The interval of the ratio g.mean / b.mean, both means positive: the
 * delta method on the log of the ratio, se^2 = sd_g^2 / (n_g mean_g^2) +
 * sd_b^2 / (n_b mean_b^2), a t quantile with Welch-Satterthwaite degrees
 * of freedom, then exp(). Whether it is defined: returns 1 and sets *lo,
 * *hi; 0 when a side has fewer than 2 runs or a mean is not positive.
 */
int bs_stat_ratio_ci(const struct bs_stat_sample *g,
		     const struct bs_stat_sample *b, double *lo, double *hi);

/*
 * Holm's step-down correction of n p-values in place (NAN entries are
 * skipped and not counted): the k-th smallest becomes max over the
 * smaller ones of min(1, (m - k + 1) p). Controls the chance of any false
 * "better" or "worse" on the page at BS_STAT_ALPHA. scratch holds n
 * indexes.
 */
void bs_stat_holm(double *p, size_t n, size_t *scratch);

enum bs_verdict {
	BS_V_NONE, /* nothing claimed: a side has no number, or the metric
		      * is context (%CPU, a maximum latency, a count) */
	BS_V_BETTER,
	BS_V_WORSE,
	BS_V_NOISE,  /* within noise: under the threshold (or within the
		      * printed precision of the sources) */
	BS_V_NOTSIG, /* past the threshold, tested, not significant */
	BS_V_FEW,    /* a change past the threshold, but too few runs to test */
	/* Not compared (report/report.h, enum bs_rrel): */
	BS_V_APART,   /* different tests */
	BS_V_CANT,    /* can't tell: a deciding parameter unknown on a side */
	BS_V_RELATED, /* other implementations or tools: related only */
	BS_V_MIXGRP,  /* a group whose own runs ran different tests */
	BS_V_SCALING, /* levels of a swept factor: scaling, not better */
	BS_V_MIXED,   /* a summary's category: some better, some worse */
	BS_V_COUNT
};

/* Whether v is one of the verdicts that compare nothing (APART to
 * SCALING): no better or worse, no ratio in a summary. */
#define BS_V_UNCOMPARED(v) ((v) >= BS_V_APART && (v) <= BS_V_SCALING)

/*
 * The one table of verdicts, which every format and template reads: its
 * name for scripts (JSON, CSV, CSS class), its words for people, the
 * classes of a change the better and the worse way (colour: only
 * "better" and "worse" are green and red), the text report's mark, and
 * how the HTML page shows it (report/render.c gives the page each
 * verdict's colours and glyphs as <NAME>_COLOUR, _TINT, _BAR, _GLYPH_UP
 * and _GLYPH_DOWN: BETTER_COLOUR; templates/report.html's style reads
 * them). No colour or verdict word is written anywhere else.
 */
struct bs_verdict_info {
	const char *name;  /* "better", "worse", "noise", "few", ... */
	const char *words; /* "better", "within noise", "untested", ... */
	const char *class_up, *class_down;
	char mark;
	const char *legend; /* what it means, for a legend */
	const char *tally;  /* after a count of cells: "3 untested" */
	/* CSS colours ("" none): of a cell's and a legend's text, of a
	 * summary's category behind it, of its bar in the bar charts. */
	const char *colour, *tint, *bar;
	/* The HTML cell's glyph before a change the better and the worse
	 * way, as the hex code point of a CSS escape ("25B2": a triangle). */
	const char *glyph_up, *glyph_down;
};
extern const struct bs_verdict_info bs_verdicts[BS_V_COUNT];

/*
 * The verdict of a cell: pct is the change against the baseline in
 * percent, better +1 when higher is better, -1 when lower is, 0 when
 * neither (then BS_V_NONE: nothing is claimed); p the corrected p-value
 * (NAN when untested: BS_V_FEW); noise_pct the threshold under which a
 * change is within noise; a change past it that is not significant is
 * BS_V_NOTSIG.
 */
enum bs_verdict bs_stat_verdict(double pct, int better, double p,
				double noise_pct);

/* "better", "worse", "noise", "not_significant", "few", "apart",
 * "cant_tell", "related", "mixed_group", "scaling", "mixed", "" (the
 * JSON/CSV words: bs_verdicts[v].name). */
const char *bs_verdict_name(enum bs_verdict v);

#endif
