/*
 * cli/report_io.h - what report, compare, trend, changes and check
 * share (cli/report_io.c): --format, --units, -o, dates, the source of
 * runs, rendering onto a file.
 */
#ifndef BS_CLI_REPORT_IO_H
#define BS_CLI_REPORT_IO_H

#include <stdint.h>
#include <stdio.h>
#include "cli/cli.h"
#include "report/report.h"
#include "store/store.h"

/*
 * What report, compare and trend share (cli/report_io.c). --format's
 * words (text or txt, html, csv, json) and --units' (auto, kib, mib):
 * 0, or the usage error's exit status after saying it.
 */
int bs_cli_format_arg(const struct bs_cli *cli, const char *s,
		      enum bs_report_format *out);
int bs_cli_units_arg(const struct bs_cli *cli, const char *s,
		     enum bs_report_units *out);

/*
 * -o means what it says, for every command that takes it: the format the
 * extension of -o path names, from the one table of extensions
 * (cli/report_io.c: .txt .text text, .html .htm html, .csv csv, .json
 * .jsonl .ndjson json), among the command's format words (NULL-ended).
 * *out is that word, or NULL when path names none (no path, "-", no
 * extension: /dev/stdout, out): the command's default. given is -f's
 * word, or NULL: given, it wins (*out = given), with a warning when the
 * extension names another format. An extension the table lacks, or
 * whose format the command does not write, is a usage error naming the
 * extensions it knows (report -o x.pdf). Returns 0 or the exit status.
 */
int bs_cli_out_format(const struct bs_cli *cli, const char *path,
		      const char *const *words, const char *given,
		      const char **out);

/*
 * A --since or --until DATE (trend, check): the first (end 0) or last
 * (end 1) second of the span it names, as a selector's date does
 * (store/selector.h). 0, or the usage error's exit status, naming opt.
 */
int bs_cli_date_arg(const struct bs_cli *cli, const char *opt, const char *s,
		    int end, int64_t *out);

/* Where report and trend write: -f FMT and -o FILE. */
struct bs_cli_dest {
	enum bs_report_format fmt; /* text unless -f or -o's name says */
	int have_fmt;              /* -f was given */
	const char *path;          /* -o, or NULL: standard output */
};

/* Takes option c, 'f' or 'o', with its argument into d: 0, or the usage
 * error's exit status after saying it. */
int bs_cli_dest_opt(const struct bs_cli *cli, int c, const char *arg,
		    struct bs_cli_dest *d);
/* After the options: the format -o's file name asks for, unless -f said
 * (bs_cli_out_format): 0, or the usage error's exit status. */
int bs_cli_dest_done(const struct bs_cli *cli, struct bs_cli_dest *d);

/*
 * The runs of each group, read from the archive: a report's source
 * (report/report.h) with bs_cli_src_each as each() and a struct
 * bs_cli_src as its ctx. ids[g] are group g's runs (ids NULL: one group
 * of every run); load is what bs_store_each loads besides the columns
 * (BS_LOAD_*); nruns is -1 until counted.
 */
struct bs_cli_src {
	struct bs_store *st;
	struct bs_ids *ids;
	int64_t nruns;
	int load;
};
int bs_cli_src_each(void *ctx, size_t group, bs_report_run_fn fn, void *fn_ctx,
		    struct bs_err *err);

/*
 * Calls fn to write onto -o path (bs_cli_out_open: replaced when
 * complete), or onto standard output when path is NULL or "-". fn prints
 * its errors but those of writing out, for which it sets *write_failed
 * (said once: here for a file, by main() for standard output), and
 * returns the exit status, which this returns unless closing the file
 * fails.
 */
typedef int (*bs_cli_render_fn)(const struct bs_cli *cli, void *ctx, FILE *out,
				int *write_failed);
int bs_cli_render_out(const struct bs_cli *cli, const char *path,
		      bs_cli_render_fn fn, void *ctx);

#endif
