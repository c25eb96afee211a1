/*
 * cli/report_io.c - what the commands that render stored runs through
 * templates (report, compare, trend) share: their --format and --units
 * words, the format an -o file's name asks for, the archive as the
 * source of their groups' runs, and writing to -o FILE (cli/cli.h).
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "util/banned.h"

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

enum bs_report_format bs_cli_format_for(const char *path)
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

static int units_parse(const char *s, enum bs_report_units *out)
{
	if (strcmp(s, "auto") == 0)
		*out = BS_UNITS_AUTO;
	else if (strcmp(s, "kib") == 0)
		*out = BS_UNITS_KIB;
	else if (strcmp(s, "mib") == 0)
		*out = BS_UNITS_MIB;
	else
		return -1;
	return 0;
}

int bs_cli_format_arg(const struct bs_cli *cli, const char *s,
		      enum bs_report_format *out)
{
	if (format_parse(s, out) < 0)
		return bs_cli_usage_error(
			cli, "unknown format '%s' (text, html, csv or json)", s);
	return 0;
}

int bs_cli_units_arg(const struct bs_cli *cli, const char *s,
		     enum bs_report_units *out)
{
	if (units_parse(s, out) < 0)
		return bs_cli_usage_error(
			cli, "unknown unit '%s' (auto, kib or mib)", s);
	return 0;
}

/* Groups this large are worth a count(*) to spot "every run". */
#define ALL_CHECK_MIN 4096

int bs_cli_src_each(void *ctx, size_t group, bs_report_run_fn fn,
		    void *fn_ctx, struct bs_err *err)
{
	struct bs_cli_src *s = ctx;
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
