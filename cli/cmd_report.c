/*
 * cli/cmd_report.c - `bstore report` and `bstore compare`: a comparison of
 * groups of stored runs as text, HTML, CSV or JSON (report/report.h).
 * `compare` is `report` with exactly two groups (cli/cmd_compare.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/tmpl.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

static const char report_usage[] =
	"Usage: bstore report [OPTIONS] [SELECTOR...]\n"
	"\n"
	"Compares groups of stored runs: each SELECTOR is one group (no\n"
	"SELECTOR: one group of every run). A group of several runs shows\n"
	"their mean, standard deviation, minimum, maximum and count. Against\n"
	"the baseline group every other group gets, for each metric:\n"
	"  diff   group - baseline        ratio  group / baseline\n"
	"  change (ratio - 1) in percent, marked better or worse: rates are\n"
	"         better higher, CPU % and latency lower\n"
	"Tests bonnie++ could not time (+++++) or did not run say so and take\n"
	"no part in the arithmetic. Notes above the tables say when groups\n"
	"differ in what makes numbers incomparable (file size, chunk size,\n"
	"bonnie++ 1.0x against 1.9x+, the file-test spec).\n";

static const char compare_usage[] =
	"Usage: bstore compare [OPTIONS] SELECTOR_A SELECTOR_B\n"
	"\n"
	"Compares two groups of stored runs side by side: 'bstore report'\n"
	"with exactly two groups, A being the baseline unless --baseline 2.\n"
	"diff is B - A, ratio B / A (with --baseline 2: A - B and A / B).\n";

static const char options_usage[] =
	"\n"
	"@SELECTORS@\n"
	"\n"
	"A group whose SELECTOR matches nothing is an error (exit status 1).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT      text, html, csv or json (default: from the\n"
	"                        -o file's extension, else text)\n"
	"  -o, --output FILE     write to FILE (replaced when complete)\n"
	"  -b, --baseline N      group N (from 1) is the baseline (default 1)\n"
	"  -u, --units UNIT      I/O rates in auto, kib or mib (default auto:\n"
	"                        KiB/s, MiB/s from 1000000 KiB/s on)\n"
	"  -m, --metrics LIST    metrics to show, comma-separated: keys such\n"
	"                        as put_block, put_block_cpu,\n"
	"                        put_block_latency, or rates, cpu, latency,\n"
	"                        io, files, all (default all). The keys:\n"
	"                        @METRICS@\n"
	"  -t, --title TITLE     the report's title (default: the selectors)\n"
	"      --template-dir DIR  take report.html, report.txt, report.csv,\n"
	"                        report.json from DIR when there\n"
	"  -h, --help            this help\n"
	"\n"
	"The same archive and command give the same bytes.\n";

/* Runs of each group, read from the archive. */
struct store_src {
	struct bs_store *st;
	struct bs_ids *ids;
	int64_t nruns; /* in the archive; -1 until counted */
};

/* Groups this large are worth a count(*) to spot "every run". */
#define ALL_CHECK_MIN 4096

static int store_each(void *ctx, size_t group, bs_report_run_fn fn,
		      void *fn_ctx, struct bs_err *err)
{
	struct store_src *s = ctx;
	const struct bs_ids *ids = &s->ids[group];
	int64_t nrejects;
	int rc;

	/*
	 * A group of every run is read in one pass over the table, in the
	 * same id order, rather than one lookup per id (ids are unique).
	 */
	if (ids->n >= ALL_CHECK_MIN) {
		if (s->nruns < 0) {
			rc = bs_store_count(s->st, &s->nruns, &nrejects, err);
			if (rc < 0)
				return rc;
		}
		if ((int64_t)ids->n == s->nruns)
			ids = NULL;
	}
	/* Curves too: the report draws zcav's (report/report.h). */
	return bs_store_each(s->st, ids, BS_LOAD_TAGS | BS_LOAD_SERIES, fn,
			     fn_ctx, err);
}

static int format_parse(const char *s, enum bs_report_format *out)
{
	if (strcmp(s, "text") == 0 || strcmp(s, "txt") == 0)
		*out = BS_REPORT_TEXT;
	else if (strcmp(s, "html") == 0)
		*out = BS_REPORT_HTML;
	else if (strcmp(s, "csv") == 0)
		*out = BS_REPORT_CSV;
	else if (strcmp(s, "json") == 0)
		*out = BS_REPORT_JSON;
	else
		return -1;
	return 0;
}

/* The format a file name asks for: "x.html" -> html; text otherwise. */
static enum bs_report_format format_for(const char *path)
{
	enum bs_report_format f = BS_REPORT_TEXT;
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (dot && strchr(dot, '/') == NULL) {
		if (strcmp(dot, ".htm") == 0)
			return BS_REPORT_HTML;
		if (format_parse(dot + 1, &f) < 0)
			f = BS_REPORT_TEXT;
	}
	return f;
}

int cmd_report(struct bs_cli *cli, int argc, char **argv)
{
	enum { OPT_TEMPLATE_DIR = 256 };
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"baseline", required_argument, NULL, 'b'},
		{"units", required_argument, NULL, 'u'},
		{"metrics", required_argument, NULL, 'm'},
		{"title", required_argument, NULL, 't'},
		{"template-dir", required_argument, NULL, OPT_TEMPLATE_DIR},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int compare = cli->cmd && strcmp(cli->cmd, "compare") == 0;
	struct bs_report_opts ro;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_report *rep = NULL;
	struct bs_tmpl_set *ts = NULL;
	struct store_src src = {NULL, NULL, -1};
	struct bs_report_source source = {store_each, &src};
	struct bs_cli_out o = {NULL, NULL, NULL, 0};
	enum bs_report_format fmt = BS_REPORT_TEXT;
	const char *path = NULL, *tdir = NULL;
	static char all[] = "all";
	char *all_sel[] = {all};
	const char **labels = NULL;
	char **sel;
	int c, rc = 0, nsel, have_fmt = 0, write_failed = 0, i;
	uint64_t base = 1;
	FILE *out = stdout;

	memset(&ro, 0, sizeof(ro));
	ro.units = BS_UNITS_AUTO;
	opterr = 0; /* bs_cli_bad_option says it in bstore's form */
	while ((c = getopt_long(argc, argv, "f:o:b:u:m:t:h", opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'f':
			if (format_parse(optarg, &fmt) < 0)
				return bs_cli_usage_error(
					cli,
					"unknown format '%s' (text, html, csv "
					"or json)",
					optarg);
			have_fmt = 1;
			break;
		case 'o':
			path = optarg;
			break;
		case 'b':
			if (bs_parse_u64(optarg, strlen(optarg), &base) < 0 ||
			    base < 1)
				return bs_cli_usage_error(
					cli, "--baseline wants a group number "
					     "from 1, not '%s'",
					optarg);
			break;
		case 'u':
			if (strcmp(optarg, "auto") == 0)
				ro.units = BS_UNITS_AUTO;
			else if (strcmp(optarg, "kib") == 0)
				ro.units = BS_UNITS_KIB;
			else if (strcmp(optarg, "mib") == 0)
				ro.units = BS_UNITS_MIB;
			else
				return bs_cli_usage_error(
					cli,
					"unknown unit '%s' (auto, kib or mib)",
					optarg);
			break;
		case 'm':
			if (bs_report_metrics_parse(optarg, ro.want, &err) < 0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case 't':
			ro.title = optarg;
			break;
		case OPT_TEMPLATE_DIR:
			tdir = optarg;
			break;
		case 'h':
			bs_cli_help(stdout, compare ? compare_usage
						    : report_usage);
			bs_cli_help(stdout, options_usage);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, "f:o:b:u:m:t:h",
						 opts);
		}
	}
	sel = argv + optind;
	nsel = argc - optind;
	if (compare && nsel != 2)
		return bs_cli_usage_error(cli,
					  "compare wants two selectors, got %d",
					  nsel);
	if (nsel == 0) {
		sel = all_sel;
		nsel = 1;
	}
	if (base > (uint64_t)nsel)
		return bs_cli_usage_error(cli,
					  "--baseline %llu: there %s only %d "
					  "group%s",
					  (unsigned long long)base,
					  nsel == 1 ? "is" : "are", nsel,
					  nsel == 1 ? "" : "s");
	ro.baseline = (size_t)base - 1;
	if (!have_fmt && path)
		fmt = format_for(path);
	ro.list_runs = fmt == BS_REPORT_HTML;

	/* The template first: a broken one fails before any work. */
	if (bs_report_templates_load(&ts, tdir, fmt, &err) < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	rc = bs_cli_open_store(cli, BS_STORE_READONLY, &st);
	if (rc != 0)
		goto out;
	src.st = st;
	src.ids = xcalloc((size_t)nsel, sizeof(*src.ids));
	labels = xcalloc((size_t)nsel, sizeof(*labels));
	for (i = 0; i < nsel; i++) {
		labels[i] = sel[i];
		/* Each group needs runs: one that matches nothing fails. */
		rc = bs_cli_select(cli, st, &sel[i], 1, BS_SEL_NEED_MATCH,
				   &src.ids[i]);
		if (rc != 0)
			goto out;
	}
	if (bs_report_build(&rep, &ro, labels, (size_t)nsel, &source, &err) <
	    0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (path && strcmp(path, "-") != 0) {
		rc = bs_cli_out_open(cli, path, &o);
		if (rc != 0)
			goto out;
		out = o.f;
	}
	if (bs_report_render(rep, ts, fmt, &source, out, &err) < 0) {
		rc = BS_EXIT_FAIL;
		/* Output that could not be written is said once: by
		 * bs_cli_out_close() for -o FILE, by main() for standard
		 * output. */
		if (ferror(out))
			write_failed = 1;
		else
			bs_cli_perr(cli, &err);
	}
	if (o.f) {
		int crc;

		if (write_failed)
			o.write_errno = errno;
		crc = bs_cli_out_close(cli, &o, rc == 0 || write_failed);
		if (crc != 0)
			rc = crc;
	}
out:
	if (src.ids)
		for (i = 0; i < nsel; i++)
			bs_ids_release(&src.ids[i]);
	free(src.ids);
	free(labels);
	bs_report_free(rep);
	bs_tmpl_set_free(ts);
	bs_store_close(st);
	return rc;
}
