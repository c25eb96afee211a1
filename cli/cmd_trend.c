/*
 * cli/cmd_trend.c - `bstore trend`: metrics of groups of stored runs over
 * the time they were measured, as text, HTML, CSV or JSON
 * (report/trend.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/param.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

static const char trend_usage[] =
	"Usage: bstore trend [OPTIONS] SELECTOR...\n"
	"\n"
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
	"an error (exit status 1).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT      text, html, csv or json (default: from the\n"
	"                        -o file's extension, else text); given, it\n"
	"                        wins over the extension, with a warning\n"
	"                        when they disagree\n"
	"  -o, --output FILE     write to FILE (replaced when complete); its\n"
	"                        extension names the format: .txt .text,\n"
	"                        .html .htm, .csv, .json .jsonl .ndjson;\n"
	"                        another is refused unless -f is given\n"
	"  -e, --every PERIOD    a point per run, day, week (Monday to\n"
	"                        Sunday), month, quarter or year, UTC; auto\n"
	"                        (default): each run while no line has more\n"
	"                        than 60, else the smallest period that gives\n"
	"                        no line more than 60 points\n"
	"      --since DATE      only runs measured from DATE on\n"
	"      --until DATE      only runs measured up to the end of DATE\n"
	"                        (DATE: 2004, 2004-03, 2004-03-15,\n"
	"                        '2004-03-15 10:30[:05]' or @UNIXTIME, UTC;\n"
	"                        a year or month is the whole of it)\n"
	"  -m, --metrics LIST    metrics to draw, comma-separated, as 'bstore\n"
	"                        report --metrics' takes them; default: the\n"
	"                        main metrics of the tools the runs come from:\n"
	"                        @MAIN_METRICS@\n"
	"                        Every key:\n"
	"                        @METRICS@\n"
	"  -u, --units UNIT      KiB/s rates in auto, kib or mib (default auto:\n"
	"                        each metric's unit, as every command shows\n"
	"                        it: MiB/s; kib: as stored)\n"
	"  -t, --title TITLE     the page's title (default: 'Trend: ' and the\n"
	"                        selectors)\n"
	"      --template-dir DIR  take trend.html, trend.txt, trend.csv,\n"
	"                        trend.json from DIR when there\n"
	"  -h, --help            this help\n"
	"\n"
	"The same archive and command give the same bytes.\n";

/* What the command line asked for. */
struct trend_args {
	struct bs_trend_opts to;
	struct bs_cli_dest dest; /* -f, -o */
	const char *tdir;
	char **sel;
	int nsel;
};

/*
 * A --since or --until DATE: the first (since) or last (until) second of
 * the span it names, as a selector's date does (store/selector.h).
 */
static int date_arg(const struct bs_cli *cli, const char *opt, const char *s,
		    int end, int64_t *out)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	char q[BS_CLI_QUOTE_SIZE];
	int rc = 0;

	bs_buf_addf(&b, "date=%s", s);
	if (strchr(s, ',') != NULL || bs_sel_parse(&sel, bs_buf_str(&b), &err) != 1 ||
	    sel.term[0].kind != BS_SEL_FIELD ||
	    sel.term[0].field == NULL ||
	    !(sel.term[0].field->type & BS_SEL_DATE))
		rc = bs_cli_usage_error(
			cli,
			"%s: '%s' is not a date (2004, 2004-03, 2004-03-15, "
			"'2004-03-15 10:30[:05]' or @UNIXTIME)",
			opt, bs_cli_quote(q, s));
	else
		*out = end ? sel.term[0].hi : sel.term[0].lo;
	bs_sel_release(&sel);
	bs_buf_release(&b);
	return rc;
}

/* Parses the options and selectors into a. Returns -1 to go on, else the
 * exit status (after --help, or a usage error). */
static int parse_args(const struct bs_cli *cli, int argc, char **argv,
		      struct trend_args *a)
{
	enum { OPT_TEMPLATE_DIR = 256, OPT_SINCE, OPT_UNTIL };
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"every", required_argument, NULL, 'e'},
		{"since", required_argument, NULL, OPT_SINCE},
		{"until", required_argument, NULL, OPT_UNTIL},
		{"metrics", required_argument, NULL, 'm'},
		{"units", required_argument, NULL, 'u'},
		{"title", required_argument, NULL, 't'},
		{"template-dir", required_argument, NULL, OPT_TEMPLATE_DIR},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "f:o:e:m:u:t:h";
	struct bs_err err = BS_ERR_INIT;
	int c, rc;

	a->to.units = BS_UNITS_AUTO;
	a->to.every = BS_EVERY_AUTO;
	a->to.since = a->to.until = BS_NONE;
	a->dest.fmt = BS_REPORT_TEXT;
	opterr = 0; /* bs_cli_bad_option says it in bstore's form */
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'f':
		case 'o':
			rc = bs_cli_dest_opt(cli, c, optarg, &a->dest);
			if (rc != 0)
				return rc;
			break;
		case 'e':
			if (bs_trend_every_parse(optarg, &a->to.every) < 0)
				return bs_cli_usage_error(
					cli,
					"unknown period '%s' (auto, run, day, "
					"week, month, quarter or year)",
					optarg);
			break;
		case OPT_SINCE:
			rc = date_arg(cli, "--since", optarg, 0, &a->to.since);
			if (rc != 0)
				return rc;
			break;
		case OPT_UNTIL:
			rc = date_arg(cli, "--until", optarg, 1, &a->to.until);
			if (rc != 0)
				return rc;
			break;
		case 'm':
			if (bs_report_metrics_parse(optarg, a->to.want, &err) <
			    0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case 'u':
			rc = bs_cli_units_arg(cli, optarg, &a->to.units);
			if (rc != 0)
				return rc;
			break;
		case 't':
			a->to.title = optarg;
			break;
		case OPT_TEMPLATE_DIR:
			a->tdir = optarg;
			break;
		case 'h':
			bs_cli_help(stdout, trend_usage);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, shortopts, opts);
		}
	}
	a->sel = argv + optind;
	a->nsel = argc - optind;
	if (a->nsel == 0)
		return bs_cli_usage_error(cli, "trend wants a selector: a line "
					       "each (e.g. machine=db1, all)");
	if (a->to.since != BS_NONE && a->to.until != BS_NONE &&
	    a->to.since > a->to.until)
		return bs_cli_usage_error(cli, "--since is after --until");
	rc = bs_cli_dest_done(cli, &a->dest);
	if (rc != 0)
		return rc;
	return -1;
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
	int i, rc = 0;

	*write_failed = 0;
	src.ids = xcalloc((size_t)a->nsel, sizeof(*src.ids));
	for (i = 0; i < a->nsel; i++) {
		/* Each line needs runs: one that matches nothing fails. */
		rc = bs_cli_select(cli, st, &a->sel[i], 1, BS_SEL_NEED_MATCH,
				   &src.ids[i]);
		if (rc != 0)
			goto out;
	}
	if (bs_trend_build(&tr, &a->to, (const char *const *)a->sel,
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
	rc = parse_args(cli, argc, argv, &a);
	if (rc >= 0)
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
