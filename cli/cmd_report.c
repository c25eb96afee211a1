/*
 * cli/cmd_report.c - `bstore report` and `bstore compare`: a comparison of
 * groups of stored runs as text, HTML, CSV or JSON (report/report.h).
 * `compare` is `report` with exactly two groups (cli/cmd_compare.c).
 */
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/cmd_report.h"
#include "cli/msg.h"
#include "cli/report_io.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "report/factor.h"
#include "report/report.h"
#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* What the command line asked for. */
struct report_args {
	struct bs_report_opts ro;
	struct bs_cli_dest dest; /* -f, -o */
	const char *tdir, *save, *forget;
	const char *by, *within, *base_value; /* --by, --within, ... */
	int have_base, have_sel;
	uint64_t base;
	char **sel;
	int nsel;
	const char **labels; /* --label, in order */
	size_t nlabels, caplabels;
	/* What --save keeps: the options that shape the comparison, in long
	 * form, then "--" and the selectors. */
	const char **keep;
	size_t nkeep, capkeep;
	char **owned; /* the "--name" words of keep */
	size_t nowned, capowned;
};

static void release_args(struct report_args *a)
{
	size_t i;

	for (i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->keep);
	free(a->labels);
}

static void keep_arg(struct report_args *a, const char *opt, const char *arg)
{
	xgrow((void **)&a->keep, &a->capkeep, a->nkeep + 2, sizeof(*a->keep));
	a->keep[a->nkeep++] = opt;
	if (arg)
		a->keep[a->nkeep++] = arg;
}

/* ---- the options: one table for report and compare ----------------- */

static int set_baseline(const struct bs_cli *cli, const struct bs_opt *o,
			const char *arg, void *field)
{
	struct report_args *a = field;
	int rc = bs_opt_u64(cli, o, arg, &a->base);

	a->have_base = rc == 0;
	return rc;
}

static int set_noise(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	struct report_args *a = field;
	int rc = bs_opt_real(cli, o, arg, &a->ro.noise_pct);

	a->ro.noise_set = rc == 0;
	return rc;
}

static int add_label(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	struct report_args *a = field;

	(void)cli;
	(void)o;
	xgrow((void **)&a->labels, &a->caplabels, a->nlabels + 1,
	      sizeof(*a->labels));
	a->labels[a->nlabels++] = arg;
	return 0;
}

static int set_save(const struct bs_cli *cli, const struct bs_opt *o,
		    const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_store_check_report_name(arg, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	*(const char **)field = arg;
	return 0;
}

#define O(f) offsetof(struct report_args, f)
#define KEEP BS_OPT_KEEP /* --save keeps it (in long form) */
static const struct bs_opt opts[] = {
	BS_OPT_DEST(struct report_args, dest),
	{'b', "baseline", "N", KEEP, set_baseline, 0,
	 "group N (from 1) is the baseline", "1", 1, 18446744073709551615.0, 0},
	BS_OPT_UNITS(struct report_args, ro.units, KEEP),
	{'n', "noise", "PCT", KEEP, set_noise, 0,
	 "a change under PCT percent is within noise, never better or worse",
	 "5", 0, 1000, 0},
	BS_OPT_METRICS(struct report_args, ro.want, KEEP,
		       "metrics to show, comma-separated: keys such as "
		       "put_block, put_block_cpu, put_block_latency, or rates, "
		       "cpu, latency, io, files, all (default all). The "
		       "keys:\n@METRICS@"),
	BS_OPT_TITLE(struct report_args, ro.title, KEEP, "the report's title",
		     "the labels"),
	{0, "by", "KEY", KEEP, bs_opt_str, O(by),
	 "factor comparison: the runs the selectors choose (no SELECTOR: all) "
	 "in a group per value of tag KEY (sorted), the first the baseline; "
	 "KEY may be a parameter too ('--by mode': sysbench runs by test "
	 "mode)",
	 NULL, 0, 0, 0},
	{0, "within", "KEY2", KEEP, bs_opt_str, O(within),
	 "with --by: once per value of tag KEY2, each block with its own "
	 "baseline ('--by raid --within cache': RAID10 against RAID5 for "
	 "cache=off, then for cache=on)",
	 NULL, 0, 0, 0},
	{0, "baseline-value", "V", KEEP, bs_opt_str, O(base_value),
	 "with --by: the group of KEY=V is each block's baseline", NULL, 0, 0,
	 0},
	{'l', "label", "TEXT", KEEP | BS_OPT_MULTI, add_label, 0,
	 "a group's short label, once per group in order (default: its "
	 "selector without the terms every selector has: 'raid=10' for "
	 "array=emc,raid=10 against array=emc,raid=5)",
	 NULL, 0, 0, 0},
	{0, "cdf", NULL, KEEP, bs_opt_flag, O(ro.cdf),
	 "also each fio run's completion latency CDF (the share of its I/Os "
	 "at or under each latency, from its json+ bins): in HTML a chart "
	 "with a table of the share under each power of ten, in text and "
	 "JSON that table",
	 NULL, 0, 0, 0},
	BS_OPT_TEMPLATE_DIR(struct report_args, tdir,
			    "report.html, report.txt, report.csv, report.json"),
	{'s', "save", "NAME", 0, set_save, O(save),
	 "also keep this comparison (its selectors and the options above but "
	 "-f, -o and --template-dir) under NAME in the archive: 'bstore site' "
	 "renders it as compare/NAME.html, again from the runs the selectors "
	 "match then. NAME: letters, digits, '.', '_', '-'; saving a NAME "
	 "again replaces it",
	 NULL, 0, 0, 0},
	{0, "forget", "NAME", 0, bs_opt_str, O(forget),
	 "remove the saved comparison NAME, render nothing", NULL, 0, 0, 0},
	BS_OPT_END,
};
#undef KEEP
#undef O

/* What report and compare say of their selectors, after their own text. */
#define SELECTORS_ABOUT                                                        \
	"\n"                                                                   \
	"@SELECTORS@\n"                                                        \
	"\n"                                                                   \
	"A group whose SELECTOR matches nothing is an error (exit status "     \
	"1).\n"
#define SAME_BYTES "The same archive and command give the same bytes.\n"

const struct bs_opt_cmd bs_cmd_report = {
	"report",
	cmd_report,
	"render a comparison of stored runs",
	"[OPTIONS] [SELECTOR...]",
	"Compares groups of stored runs: each SELECTOR is one group (no\n"
	"SELECTOR: one group of every run). A group of several runs shows\n"
	"their mean, standard deviation (and its share of the mean, CV),\n"
	"median (from 3 runs), minimum, maximum and count; from 3 runs the\n"
	"charts draw the mean's 95% interval. Against the baseline group\n"
	"every other group gets, for each metric:\n"
	"  diff   group - baseline        ratio  group / baseline\n"
	"  change (ratio - 1) in percent, with a verdict: better or worse\n"
	"         when the change is at least the noise threshold and\n"
	"         Welch's t-test finds it significant (p < 0.05, Holm-\n"
	"         corrected over the page; 3 runs a side or more), within\n"
	"         noise when not, untested with fewer runs. Rates are better\n"
	"         higher, CPU % and latency lower.\n"
	"A summary per group gives the geometric mean of its rates against\n"
	"the baseline per category (sequential, random, metadata, ...).\n"
	"Tests bonnie++ could not time (+++++) or did not run say so and take\n"
	"no part in the arithmetic. Notes above the tables say when groups\n"
	"differ in what makes numbers incomparable (file size, chunk size,\n"
	"bonnie++ 1.0x against 1.9x+, the file-test spec).\n" SELECTORS_ABOUT,
	opts,
	SAME_BYTES,
	"bstore report -o cmp.html raid=10 raid=5\n"
	"bstore report --by raid --within cache 'array=EMC*'",
	NULL,
	22,
	0,
};

const struct bs_opt_cmd bs_cmd_compare = {
	"compare",
	cmd_compare,
	"compare two groups of runs side by side",
	"[OPTIONS] SELECTOR_A SELECTOR_B",
	"Compares two groups of stored runs side by side: 'bstore report'\n"
	"with exactly two groups, A being the baseline unless --baseline 2.\n"
	"diff is B - A, ratio B / A (with --baseline 2: A - B and A / B).\n" SELECTORS_ABOUT,
	opts,
	SAME_BYTES,
	"bstore compare 3 7",
	NULL,
	22,
	0,
};

/* --save keeps the options that shape the comparison, as they were
 * given, in long form. */
static void seen(void *args, const struct bs_opt *o, const char *arg)
{
	struct report_args *a = args;
	char *name;

	if (!(o->flags & BS_OPT_KEEP))
		return;
	name = xmalloc(strlen(o->long_name) + 3);
	memcpy(name, "--", 2);
	memcpy(name + 2, o->long_name, strlen(o->long_name) + 1);
	xgrow((void **)&a->owned, &a->capowned, a->nowned + 1,
	      sizeof(*a->owned));
	a->owned[a->nowned++] = name;
	keep_arg(a, name, arg);
}

/*
 * Parses the options and selectors of report or compare into a:
 * BS_OPT_GO_ON, or BS_OPT_EXIT with the exit status in *status (after
 * --help, or a usage error said).
 */
static enum bs_opt_next parse_args(struct bs_cli *cli, int argc, char **argv,
				   int compare, struct report_args *a,
				   int *status)
{
	static char all[] = "all";
	static char *all_sel[] = {all};
	int c, rc;

	a->ro.units = BS_UNITS_AUTO;
	a->dest.fmt = BS_REPORT_TEXT;
	a->base = 1;
	if (bs_opt_parse(cli, compare ? &bs_cmd_compare : &bs_cmd_report, argc,
			 argv, a, seen, status) == BS_OPT_EXIT)
		return BS_OPT_EXIT;
	a->sel = argv + optind;
	a->nsel = argc - optind;
	if (a->forget && (a->save || a->nsel > 0 || a->dest.path)) {
		*status = bs_cli_usage_error(cli, "--forget takes no selector, "
						  "--save or --output");
		return BS_OPT_EXIT;
	}
	if (a->forget) {
		*status = BS_EXIT_OK;
		return BS_OPT_GO_ON;
	}
	if ((a->within || a->base_value) && !a->by) {
		*status = bs_cli_usage_error(cli,
					     "--within and --baseline-value "
					     "go with --by");
		return BS_OPT_EXIT;
	}
	if (a->by && (compare || a->have_base)) {
		*status = bs_cli_usage_error(cli,
					     "--by picks each block's "
					     "baseline: use --baseline-value, "
					     "not --baseline or compare");
		return BS_OPT_EXIT;
	}
	if (compare && a->nsel != 2) {
		*status =
			bs_cli_usage_error(cli,
					   "compare wants two selectors, got %d",
					   a->nsel);
		return BS_OPT_EXIT;
	}
	keep_arg(a, "--", NULL);
	for (c = 0; c < a->nsel; c++)
		keep_arg(a, a->sel[c], NULL);
	a->have_sel = a->nsel > 0;
	if (a->nsel == 0) {
		a->sel = all_sel;
		a->nsel = 1;
	}
	if (!a->by && a->base > (uint64_t)a->nsel) {
		*status =
			bs_cli_usage_error(cli,
					   "--baseline %llu: there %s only %d "
					   "group%s",
					   (unsigned long long)a->base,
					   a->nsel == 1 ? "is" : "are", a->nsel,
					   a->nsel == 1 ? "" : "s");
		return BS_OPT_EXIT;
	}
	a->ro.baseline = (size_t)a->base - 1;
	if (!a->by && a->nlabels > 0 && a->nlabels != (size_t)a->nsel) {
		*status = bs_cli_usage_error(cli,
					     "%zu --label for %d group%s: give "
					     "one per group, in order",
					     a->nlabels, a->nsel,
					     a->nsel == 1 ? "" : "s");
		return BS_OPT_EXIT;
	}
	a->ro.labels = a->nlabels ? a->labels : NULL;
	rc = bs_cli_dest_done(cli, &a->dest);
	if (rc != 0) {
		*status = rc;
		return BS_OPT_EXIT;
	}
	a->ro.list_runs = a->dest.fmt == BS_REPORT_HTML;
	*status = BS_EXIT_OK;
	return BS_OPT_GO_ON;
}

/*
 * No run has the --by (or --within) tag: err's message, and the tag key
 * closest to each that no run has ("did you mean 'raid'?").
 */
static void no_factor(const struct bs_cli *cli, struct bs_store *st,
		      const struct report_args *a, const struct bs_err *err)
{
	const char *keys[2] = {a->by, a->within};
	struct bs_buf dym = BS_BUF_INIT;
	char *best;
	int i;

	for (i = 0; i < 2 && err->code == BS_ENOTFOUND; i++) {
		if (keys[i] == NULL)
			continue;
		best = bs_cli_closest_tag(st, keys[i], 0);
		if (best)
			bs_buf_addf(&dym, "%s'%s'", dym.len ? " and " : "",
				    best);
		free(best);
	}
	if (dym.len)
		bs_cli_error(cli, "%s; did you mean %s?", err->msg,
			     bs_buf_str(&dym));
	else
		bs_cli_perr(cli, err);
	bs_buf_release(&dym);
}

/*
 * The groups of a factor comparison (--by, --within) into f, and the
 * options that go with them into ro: each group's baseline, the labels
 * (--label, one per group, else the factor's), the title. Prints errors;
 * returns 0 or the exit status.
 */
static int factor(const struct bs_cli *cli, struct bs_store *st,
		  const struct report_args *a, struct bs_report_factor *f,
		  struct bs_report_opts *ro)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_buf prefix = BS_BUF_INIT;
	/* Every run when no selector: one pass over the table. */
	struct bs_cli_src src = {NULL, NULL, -1, BS_LOAD_TAGS};
	struct bs_report_source source = {bs_cli_src_each, &src};
	char q[BS_CLI_QUOTE_SIZE], q2[BS_CLI_QUOTE_SIZE];
	int i, rc = 0;

	if (a->have_sel) {
		rc = bs_cli_select(cli, st, a->sel, a->nsel, BS_SEL_NEED_MATCH,
				   &ids);
		if (rc != 0)
			goto out;
		for (i = 0; i < a->nsel; i++)
			bs_buf_addf(&prefix, "%s%s", i ? " or " : "",
				    a->sel[i]);
	}
	src.st = st;
	src.ids = a->have_sel ? &ids : NULL;
	if (bs_report_factor_split(f, &source,
				   a->have_sel ? bs_buf_str(&prefix) : NULL,
				   a->by, a->within, a->base_value, &err) < 0) {
		no_factor(cli, st, a, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (f->skipped && !cli->quiet)
		bs_cli_warn(cli,
			    "%zu run%s without the tag%s '%s'%s%s%s left "
			    "out",
			    f->skipped, f->skipped == 1 ? "" : "s",
			    a->within ? "s" : "", bs_cli_quote(q, a->by),
			    a->within ? " or '" : "",
			    a->within ? bs_cli_quote(q2, a->within) : "",
			    a->within ? "'" : "");
	if (a->nlabels > 0 && a->nlabels != f->n) {
		bs_cli_error(cli,
			     "%zu --label for %zu groups: give one per "
			     "group, in order",
			     a->nlabels, f->n);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	ro->bases = f->base;
	/* --by threads, iodepth, bs...: the levels of a sweep. */
	ro->sweep = f->sweep ? a->by : NULL;
	ro->labels = a->nlabels ? a->labels : (const char *const *)f->label;
	if (ro->title == NULL)
		ro->title = f->title;
out:
	bs_ids_release(&ids);
	bs_buf_release(&prefix);
	return rc;
}

/*
 * Selects each group's runs in st, builds the comparison and renders it
 * onto out with ts. Prints errors but those of writing out, which set
 * *write_failed (said once, by whoever owns out). Returns the exit
 * status.
 */
static int produce(const struct bs_cli *cli, struct bs_store *st,
		   const struct report_args *a, const struct bs_tmpl_set *ts,
		   FILE *out, int *write_failed)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_report *rep = NULL;
	/* Curves too: the report draws zcav's (report/report.h). */
	struct bs_cli_src src = {st, NULL, -1, BS_LOAD_TAGS | BS_LOAD_SERIES};
	struct bs_report_source source = {bs_cli_src_each, &src};
	const char **labels = NULL;
	struct bs_report_factor f;
	struct bs_report_opts ro = a->ro;
	size_t ngroups = 0;
	int i, rc = 0;

	memset(&f, 0, sizeof(f));

	*write_failed = 0;
	if (a->by) {
		rc = factor(cli, st, a, &f, &ro);
		if (rc != 0)
			goto out;
		src.ids = f.ids;
		labels = (const char **)f.selector;
		ngroups = f.n;
	} else {
		src.ids = xcalloc((size_t)a->nsel, sizeof(*src.ids));
		labels = xcalloc((size_t)a->nsel, sizeof(*labels));
		for (i = 0; i < a->nsel; i++) {
			labels[i] = a->sel[i];
			/* Each group needs runs: one that matches nothing
			 * fails. */
			rc = bs_cli_select(cli, st, &a->sel[i], 1,
					   BS_SEL_NEED_MATCH, &src.ids[i]);
			if (rc != 0)
				goto out;
		}
		ngroups = (size_t)a->nsel;
	}
	if (bs_report_build(&rep, &ro, labels, ngroups, &source, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (bs_report_render(rep, ts, a->dest.fmt, &source, out, &err) < 0) {
		rc = BS_EXIT_FAIL;
		if (ferror(out))
			*write_failed = 1;
		else
			bs_cli_perr(cli, &err);
	}
out:
	if (a->by) {
		bs_report_factor_release(&f);
	} else {
		for (i = 0; src.ids && i < a->nsel; i++)
			bs_ids_release(&src.ids[i]);
		free(src.ids);
		free(labels);
	}
	bs_report_free(rep);
	return rc;
}

static int forget(const struct bs_cli *cli, const char *name)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char q[BS_CLI_QUOTE_SIZE];
	int rc, found;

	rc = bs_cli_open_store(cli, BS_STORE_EXISTING, &st);
	if (rc != 0)
		return rc;
	rc = bs_store_forget_report(st, name, &found, &err);
	if (rc < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	} else if (!found) {
		bs_cli_error(cli, "there is no saved comparison '%s'",
			     bs_cli_quote(q, name));
		rc = BS_EXIT_FAIL;
	} else {
		if (!cli->quiet)
			fprintf(stderr, "bstore: %s: forgot comparison '%s'\n",
				cli->cmd, bs_cli_quote(q, name));
		rc = BS_EXIT_OK;
	}
	bs_store_close(st);
	return rc;
}

int bs_cli_report_saved(const struct bs_cli *cli, struct bs_store *st,
			const char *const *args, size_t nargs, FILE *out)
{
	struct bs_cli own;
	struct report_args a;
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	char **argv = xcalloc(nargs + 2, sizeof(*argv));
	int rc, write_failed = 0;
	size_t i;

	memset(&a, 0, sizeof(a));
	argv[0] = xstrdup("report");
	for (i = 0; i < nargs; i++)
		argv[i + 1] = xstrdup(args[i]);
	optind = 0; /* glibc: 0 re-initialises getopt */
	/* A saved report's own -q is no quieter site: a copy takes it. */
	own = *cli;
	if (parse_args(&own, (int)nargs + 1, argv, 0, &a, &rc) == BS_OPT_EXIT) {
		rc = BS_EXIT_FAIL; /* --help or a bad option: not a report */
		goto out;
	}
	a.dest.fmt = BS_REPORT_HTML;
	a.ro.list_runs = 1;
	/* A page of the site stays under 1 MiB (docs/site.md). */
	a.ro.list_max = BS_CLI_SAVED_LIST_MAX;
	if (bs_report_templates_load(&ts, NULL, a.dest.fmt, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	rc = produce(cli, st, &a, ts, out, &write_failed);
out:
	bs_tmpl_set_free(ts);
	for (i = 0; i < nargs + 1; i++)
		free(argv[i]);
	free(argv);
	release_args(&a);
	return rc;
}

/* What produce() needs, for bs_cli_render_out. */
struct render_ctx {
	struct bs_store *st;
	const struct report_args *a;
	const struct bs_tmpl_set *ts;
};

static int render(const struct bs_cli *cli, void *ctx, FILE *out,
		  int *write_failed)
{
	struct render_ctx *r = ctx;

	return produce(cli, r->st, r->a, r->ts, out, write_failed);
}

int cmd_report(struct bs_cli *cli, int argc, char **argv)
{
	int compare = cli->cmd && strcmp(cli->cmd, "compare") == 0;
	struct report_args a;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_tmpl_set *ts = NULL;
	struct render_ctx rctx;
	int rc;

	memset(&a, 0, sizeof(a));
	if (parse_args(cli, argc, argv, compare, &a, &rc) == BS_OPT_EXIT)
		goto out;
	if (a.forget) {
		rc = forget(cli, a.forget);
		goto out;
	}
	/* The template first: a broken one fails before any work. */
	if (bs_report_templates_load(&ts, a.tdir, a.dest.fmt, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	rc = bs_cli_open_store(cli,
			       a.save ? BS_STORE_EXISTING : BS_STORE_READONLY,
			       &st);
	if (rc != 0)
		goto out;
	rctx.st = st;
	rctx.a = &a;
	rctx.ts = ts;
	rc = bs_cli_render_out(cli, a.dest.path, render, &rctx);
	/* Saved once the comparison is known to work. */
	if (rc == 0 && a.save) {
		/* Kept: the options, then "--" and the selectors, so that a
		 * selector is never read back as an option. */
		assert(a.nkeep >= 1 + (size_t)(a.have_sel ? a.nsel : 0));
		if (bs_store_save_report(st, a.save, a.keep, a.nkeep, &err) <
		    0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
		}
	}
out:
	release_args(&a);
	bs_tmpl_set_free(ts);
	bs_store_close(st);
	return rc;
}
