/*
 * cli/report_io.c - what the commands that render stored runs through
 * templates (report, compare, trend) share: their --format and --units
 * words, the format an -o file's name asks for, the archive as the
 * source of their groups' runs, and writing to -o FILE (cli/cli.h).
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/out.h"
#include "cli/report_io.h"
#include "cli/opt.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/banned.h"

/* The words of --format and --units, and what each means. */
struct word {
	const char *word;
	int value;
};
static const struct word formats[] = {
	{"text", BS_REPORT_TEXT}, {"txt", BS_REPORT_TEXT},
	{"html", BS_REPORT_HTML}, {"csv", BS_REPORT_CSV},
	{"json", BS_REPORT_JSON}, {NULL, 0},
};
static const struct word units[] = {
	{"auto", BS_UNITS_AUTO},
	{"kib", BS_UNITS_KIB},
	{"mib", BS_UNITS_MIB},
	{"mb", BS_UNITS_MB},
	{NULL, 0},
};

/* The value of word s in table t, or -1. */
static int word_value(const struct word *t, const char *s)
{
	for (; t->word; t++)
		if (strcmp(t->word, s) == 0)
			return t->value;
	return -1;
}

/*
 * The format each extension of an -o file names, one row an extension:
 * every command that takes -o walks this table (bs_cli_out_format).
 */
static const struct {
	const char *ext;
	const char *format;
} exts[] = {
	{"txt", "text"},   {"text", "text"},   {"html", "html"},
	{"htm", "html"},   {"csv", "csv"},     {"json", "json"},
	{"jsonl", "json"}, {"ndjson", "json"},
};
#define NEXTS (sizeof(exts) / sizeof(exts[0]))

/* The extension of path's last name ("pdf"), or NULL: none, or a name
 * that starts with its only dot (".report"). */
static const char *extension(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && dot != base && dot[1] ? dot + 1 : NULL;
}

static int has_word(const char *const *words, const char *w)
{
	for (; *words; words++)
		if (strcmp(*words, w) == 0)
			return 1;
	return 0;
}

int bs_cli_out_format(const struct bs_cli *cli, const char *path,
		      const char *const *words, const char *given,
		      const char **out)
{
	struct bs_buf known = BS_BUF_INIT;
	const char *ext = path ? extension(path) : NULL, *named = NULL;
	size_t i;
	int rc;

	*out = NULL;
	if (ext == NULL || strcmp(path, "-") == 0)
		return 0;
	for (i = 0; i < NEXTS && named == NULL; i++)
		if (strcmp(exts[i].ext, ext) == 0 &&
		    has_word(words, exts[i].format))
			named = exts[i].format;
	if (given) {
		/* -f wins; a name that asks for another format is said. */
		if (named && strcmp(named, given) != 0)
			bs_cli_warn(cli,
				    "writing %s to '%s' as -f says (its name "
				    "asks for %s)",
				    given, path, named);
		*out = given;
		return 0;
	}
	if (named) {
		*out = named;
		return 0;
	}
	for (i = 0; i < NEXTS; i++)
		if (has_word(words, exts[i].format))
			bs_buf_addf(&known, "%s.%s", known.len ? ", " : "",
				    exts[i].ext);
	bs_buf_adds(&known, "; or give -f ");
	for (i = 0; words[i]; i++)
		bs_buf_addf(&known, "%s%s", i ? "|" : "", words[i]);
	rc = bs_cli_usage_error(cli,
				"-o '%s': '.%s' names no format %s writes "
				"(%s)",
				path, ext, cli->cmd, bs_buf_str(&known));
	bs_buf_release(&known);
	return rc;
}

int bs_cli_format_arg(const struct bs_cli *cli, const char *s,
		      enum bs_report_format *out)
{
	int v = word_value(formats, s);

	if (v < 0)
		return bs_cli_usage_error(
			cli, "unknown format '%s' (text, html, csv or json)",
			s);
	*out = (enum bs_report_format)v;
	return 0;
}

int bs_cli_units_arg(const struct bs_cli *cli, const char *s,
		     enum bs_report_units *out)
{
	int v = word_value(units, s);

	if (v < 0)
		return bs_cli_usage_error(cli,
					  "unknown unit '%s' (auto, kib or mib)",
					  s);
	*out = (enum bs_report_units)v;
	return 0;
}

int bs_cli_dest_opt(const struct bs_cli *cli, int c, const char *arg,
		    struct bs_cli_dest *d)
{
	if (c == 'o') {
		d->path = arg;
		return 0;
	}
	d->have_fmt = 1;
	return bs_cli_format_arg(cli, arg, &d->fmt);
}

int bs_cli_dest_done(const struct bs_cli *cli, struct bs_cli_dest *d)
{
	static const char *const words[] = {"text", "html", "csv", "json",
					    NULL};
	const char *w;
	int rc;

	/* "txt" is text: the warning compares the canonical word. */
	rc = bs_cli_out_format(cli, d->path, words,
			       d->have_fmt
				       ? words[d->fmt == BS_REPORT_HTML   ? 1
					       : d->fmt == BS_REPORT_CSV  ? 2
					       : d->fmt == BS_REPORT_JSON ? 3
									  : 0]
				       : NULL,
			       &w);
	if (rc == 0 && w && !d->have_fmt)
		d->fmt = (enum bs_report_format)word_value(formats, w);
	return rc;
}

/* ---- the setters of the rows report and trend share (cli/opt.h) ---- */

int bs_opt_dest_format(const struct bs_cli *cli, const struct bs_opt *o,
		       const char *arg, void *field)
{
	(void)o;
	return bs_cli_dest_opt(cli, 'f', arg, field);
}

int bs_opt_dest_output(const struct bs_cli *cli, const struct bs_opt *o,
		       const char *arg, void *field)
{
	(void)o;
	return bs_cli_dest_opt(cli, 'o', arg, field);
}

int bs_opt_units(const struct bs_cli *cli, const struct bs_opt *o,
		 const char *arg, void *field)
{
	(void)o;
	return bs_cli_units_arg(cli, arg, field);
}

int bs_opt_metrics(const struct bs_cli *cli, const struct bs_opt *o,
		   const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_report_metrics_parse(arg, field, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	return 0;
}

/* Groups this large are worth a count(*) to spot "every run". */
#define ALL_CHECK_MIN 4096

int bs_cli_src_each(void *ctx, size_t group, bs_report_run_fn fn, void *fn_ctx,
		    struct bs_err *err)
{
	struct bs_cli_src *s = ctx;
	const struct bs_ids *ids = s->ids ? &s->ids[group] : NULL;
	int64_t nrejects;
	int rc;

	/*
	 * A group of every run is read in one pass over the table, in the
	 * same id order, rather than one lookup per id (ids are unique).
	 */
	if (ids && ids->n >= ALL_CHECK_MIN) {
		if (s->nruns < 0) {
			rc = bs_store_count(s->st, &s->nruns, &nrejects, err);
			if (rc < 0)
				return rc;
		}
		if ((int64_t)ids->n == s->nruns)
			ids = NULL;
	}
	return bs_store_each(s->st, ids, s->load, fn, fn_ctx, err);
}

int bs_cli_render_out(const struct bs_cli *cli, const char *path,
		      bs_cli_render_fn fn, void *ctx)
{
	struct bs_cli_out o = {NULL, NULL, NULL, 0};
	int rc, crc, write_failed = 0;

	if (path == NULL || strcmp(path, "-") == 0)
		return fn(cli, ctx, stdout, &write_failed);
	rc = bs_cli_out_open(cli, path, &o);
	if (rc != 0)
		return rc;
	rc = fn(cli, ctx, o.f, &write_failed);
	/* Output that could not be written is said once: by
	 * bs_cli_out_close() for -o FILE, by main() for standard output. */
	if (write_failed)
		o.write_errno = errno;
	crc = bs_cli_out_close(cli, &o, rc == 0 || write_failed);
	return crc != 0 ? crc : rc;
}

/*
 * A --since or --until DATE: the first (since) or last (until) second of
 * the span it names, as a selector's date does (store/selector.h).
 */
int bs_cli_date_arg(const struct bs_cli *cli, const char *opt, const char *s,
		    int end, int64_t *out)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	char q[BS_CLI_QUOTE_SIZE];
	int rc = 0;

	bs_buf_addf(&b, "date=%s", s);
	if (strchr(s, ',') != NULL ||
	    bs_sel_parse(&sel, bs_buf_str(&b), &err) != 1 ||
	    sel.term[0].kind != BS_SEL_FIELD || sel.term[0].field == NULL ||
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
