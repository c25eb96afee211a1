/*
 * cli/cmd_trend.c - `bstore trend`: metrics of groups of stored runs over
 * the time they were measured, as text, HTML, CSV or JSON
 * (report/trend.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/msg.h"
#include "cli/report_io.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "core/param.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* What the command line asked for. */
struct trend_args {
	struct bs_trend_opts to;
	struct bs_cli_dest dest; /* -f, -o */
	const char *tdir;
	char **sel;
	int nsel;
};

/* A --since or --until DATE. */
static int set_date(const struct bs_cli *cli, const struct bs_opt *o,
		    const char *arg, void *field)
{
	return bs_cli_date_arg(cli, o->data ? "--until" : "--since", arg,
			       o->data, field);
}

static int set_every(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_trend_every_parse(arg, field, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	return 0;
}

#define O(f) offsetof(struct trend_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_DEST(struct trend_args, dest),
	{'e', "every", "PERIOD", 0, set_every, O(to.every),
	 "a point per run, day, week (Monday to Sunday), month, quarter or "
	 "year, UTC; auto (default): each run while no line has more than 60, "
	 "else the smallest period that gives no line more than 60 points",
	 NULL, 0, 0, 0},
	{0, "since", "DATE", 0, set_date, O(to.since),
	 "only runs measured from DATE on", NULL, 0, 0, 0},
	{0, "until", "DATE", 0, set_date, O(to.until),
	 "only runs measured up to the end of DATE (DATE: 2004, 2004-03, "
	 "2004-03-15, '2004-03-15 10:30[:05]' or @UNIXTIME, UTC; a year or "
	 "month is the whole of it)",
	 NULL, 0, 0, 1},
	BS_OPT_METRICS(
		struct trend_args, to.want, 0,
		"metrics to draw, comma-separated, as 'bstore report "
		"--metrics' takes them; default: the main metrics and tail "
		"latencies (fio's clat p99) of "
		"the tools the runs come from:\n@MAIN_METRICS@\n"
		"Every key:\n@METRICS@"),
	BS_OPT_UNITS(struct trend_args, to.units, 0),
	BS_OPT_TITLE(struct trend_args, to.title, 0, "the page's title",
		     "'Trend: ' and the selectors"),
	BS_OPT_TEMPLATE_DIR(struct trend_args, tdir,
			    "trend.html, trend.txt, trend.csv, trend.json"),
	BS_OPT_END,
};
#undef O

const struct bs_opt_cmd bs_cmd_trend = {
	"trend",
	cmd_trend,
	"chart metrics of runs over the time they were measured",
	"[OPTIONS] SELECTOR...",
	"Shows metrics over the time the runs were measured (their date,\n"
	"measured_at): each SELECTOR is a line of every metric's chart. A\n"
	"line's runs are put into periods (--every), and each period is a\n"
	"point: its runs' count n, median, mean, standard deviation (sd,\n"
	"from 2 runs on), least and greatest number. The chart joins the\n"
	"medians and draws each point's spread; the change is a median's\n"
	"against the line's first, in percent. Runs without a date, or\n"
	"outside --since and --until, are left out and counted in a note.\n"
	"\n"
	"@SELECTORS@\n"
	"\n"
	"A SELECTOR that matches nothing, or only runs without a date, is\n"
	"an error (exit status 1).\n",
	opts,
	"The same archive and command give the same bytes.\n",
	"bstore trend -o jump.html --every month machine=jump machine=db1",
	NULL,
	0,
	0,
};

/* Parses the options and selectors into a: BS_OPT_GO_ON, or BS_OPT_EXIT
 * with the exit status in *status (after --help, or a usage error). */
static enum bs_opt_next parse_args(struct bs_cli *cli, int argc, char **argv,
				   struct trend_args *a, int *status)
{
	int rc;

	a->to.units = BS_UNITS_AUTO;
	a->to.every = BS_EVERY_AUTO;
	a->to.since = a->to.until = BS_NONE;
	a->dest.fmt = BS_REPORT_TEXT;
	if (bs_opt_parse(cli, &bs_cmd_trend, argc, argv, a, NULL, status) ==
	    BS_OPT_EXIT)
		return BS_OPT_EXIT;
	a->sel = argv + optind;
	a->nsel = argc - optind;
	if (a->nsel == 0) {
		*status = bs_cli_usage_error(cli,
					     "trend wants a selector: a line "
					     "each (e.g. machine=db1, all)");
		return BS_OPT_EXIT;
	}
	if (a->to.since != BS_NONE && a->to.until != BS_NONE &&
	    a->to.since > a->to.until) {
		*status = bs_cli_usage_error(cli, "--since is after --until");
		return BS_OPT_EXIT;
	}
	rc = bs_cli_dest_done(cli, &a->dest);
	if (rc != 0) {
		*status = rc;
		return BS_OPT_EXIT;
	}
	*status = BS_EXIT_OK;
	return BS_OPT_GO_ON;
}

static int get_run(void *ctx, int64_t id, struct bs_run *r, struct bs_err *err)
{
	return bs_store_get(ctx, id, BS_LOAD_TAGS, r, err);
}

/* What produce() works with. */
struct job {
	struct bs_store *st;
	const struct trend_args *a;
	const struct bs_tmpl_set *ts;
};

/*
 * A bs_cli_render_fn: selects each line's runs in the archive, builds
 * the trend and renders it onto out with the job's templates. Prints
 * errors but those of writing out, which set *write_failed. Returns the
 * exit status.
 */
static int produce(const struct bs_cli *cli, void *ctx, FILE *out,
		   int *write_failed)
{
	const struct job *job = ctx;
	const struct trend_args *a = job->a;
	struct bs_store *st = job->st;
	struct bs_err err = BS_ERR_INIT;
	struct bs_trend *tr = NULL;
	struct bs_cli_src src = {st, NULL, -1, BS_LOAD_TAGS};
	struct bs_report_source source = {bs_cli_src_each, &src};
	struct bs_trend_opts to = a->to;
	int i, rc = 0;

	*write_failed = 0;
	/* The charts mark each line's change points. */
	if (a->dest.fmt == BS_REPORT_HTML) {
		to.get = get_run;
		to.get_ctx = st;
	}
	src.ids = xcalloc((size_t)a->nsel, sizeof(*src.ids));
	for (i = 0; i < a->nsel; i++) {
		/* Each line needs runs: one that matches nothing fails. */
		rc = bs_cli_select(cli, st, &a->sel[i], 1, BS_SEL_NEED_MATCH,
				   &src.ids[i]);
		if (rc != 0)
			goto out;
	}
	if (bs_trend_build(&tr, &to, (const char *const *)a->sel,
			   (size_t)a->nsel, &source, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (bs_trend_render(tr, job->ts, a->dest.fmt, out, &err) < 0) {
		rc = BS_EXIT_FAIL;
		if (ferror(out))
			*write_failed = 1;
		else
			bs_cli_perr(cli, &err);
	}
out:
	for (i = 0; i < a->nsel; i++)
		bs_ids_release(&src.ids[i]);
	free(src.ids);
	bs_trend_free(tr);
	return rc;
}

int cmd_trend(struct bs_cli *cli, int argc, char **argv)
{
	struct trend_args a;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_tmpl_set *ts = NULL;
	struct job job;
	int rc;

	memset(&a, 0, sizeof(a));
	if (parse_args(cli, argc, argv, &a, &rc) == BS_OPT_EXIT)
		return rc;
	/* The template first: a broken one fails before any work. */
	if (bs_trend_templates_load(&ts, a.tdir, a.dest.fmt, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	rc = bs_cli_open_store(cli, BS_STORE_READONLY, &st);
	if (rc != 0)
		goto out;
	job.st = st;
	job.a = &a;
	job.ts = ts;
	rc = bs_cli_render_out(cli, a.dest.path, produce, &job);
out:
	bs_tmpl_set_free(ts);
	bs_store_close(st);
	return rc;
}
