/*
 * cli/opt.h - the option table of a command, in the manner of git's
 * parse-options and fio's option table: each option is one row (short
 * and long name, argument, what it sets or calls, help, default), and
 * one walker (cli/opt.c) makes from the rows getopt_long's shortopts and
 * longopts, the --help text, the option errors in bstore's form and the
 * man page's sections (cli/man.c). Adding an option to a command is
 * adding a row.
 *
 * A row's value goes to the command's own struct of arguments: set()
 * gets the address args + offset (offset 0 with a callback of the
 * command's: the whole struct). -h/--help is every command's, added by
 * the walker. Rows that several commands share are written once, as the
 * BS_OPT_* macros below.
 */
#ifndef BS_CLI_OPT_H
#define BS_CLI_OPT_H

#include <getopt.h> /* optind: the first operand after bs_opt_parse */
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"

struct bs_opt;

/*
 * What a row does with its argument (NULL for an option that takes none,
 * or an optional one left out): 0, or the usage error's exit status
 * after saying it (bs_cli_usage_error).
 */
typedef int (*bs_opt_fn)(const struct bs_cli *cli, const struct bs_opt *o,
			 const char *arg, void *field);

enum {
	BS_OPT_OPTARG = 1, /* the argument may be left out: -f[SIZE], --x[=V] */
	BS_OPT_EQ = 2,     /* shown as --name=ARG (sysbench's spelling) */
	BS_OPT_MULTI = 4,  /* repeatable: "..." in the synopsis */
	BS_OPT_KEEP = 8,   /* the command's own mark (report: kept by --save) */
};

struct bs_opt {
	int short_name;        /* 'f', or 0 */
	const char *long_name; /* "format", or NULL */
	const char *arg;       /* "FMT"; NULL: takes no argument */
	unsigned flags;        /* BS_OPT_* */
	bs_opt_fn set;         /* what it calls; NULL on a heading row */
	size_t offset;         /* of its field in the command's arguments */
	const char *help;      /* one paragraph, wrapped by the walker; '\n'
				 * breaks a line (@METRICS@ and the like on
				 * a line of their own, cli/help.c) */
	const char *dflt;      /* shown as "(default: X)", or NULL */
	double min, max;       /* bs_opt_u64, bs_opt_real: the range */
	int data;              /* for set(): a value, a row of a table */
};

/*
 * A heading row (git's OPT_GROUP): the rows after it are listed under
 * its text ("sysbench's options (...):") instead of "Options:".
 */
/* clang-format off */
#define BS_OPT_GROUP(text) {0, NULL, NULL, 0, NULL, 0, (text), NULL, 0, 0, 0}
/* The end of a table. */
#define BS_OPT_END {0, NULL, NULL, 0, NULL, 0, NULL, NULL, 0, 0, 0}
/* clang-format on */

/* The setters of plain rows. */
int bs_opt_flag(const struct bs_cli *cli, const struct bs_opt *o,
		const char *arg, void *field); /* int field = 1 */
int bs_opt_str(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field); /* const char *field = arg */
/* uint64_t field: a whole number from o->min to o->max. */
int bs_opt_u64(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field);
/* int64_t field: a whole number from o->min to o->max. */
int bs_opt_i64(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field);
/* double field: a number from o->min to o->max. */
int bs_opt_real(const struct bs_cli *cli, const struct bs_opt *o,
		const char *arg, void *field);
/* struct bs_cli_tags field: a measuring command's --tag K=V. */
int bs_opt_tag(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field);

/*
 * A command (or bstore itself, named ""): its name, its one-line summary
 * (bstore --help, the man page), its synopsis (lines after "bstore NAME ",
 * '\n' between them; "@OPTS@" is every option of the table, bracketed, as
 * bonnie++ lists them), the text before the options, its table, the text
 * after it and its examples (command lines, one a line). Texts may name
 * bstore's tables as bs_cli_help() reads them.
 */
struct bs_opt_cmd {
	const char *name;
	bs_cmd_fn fn;
	const char *summary;
	const char *usage;
	const char *about;
	const struct bs_opt *opts;
	const char *after;
	const char *examples;
	/* Rows made at run time from a table elsewhere (fileio's, in
	 * core/), spliced in after opts: a table ending with BS_OPT_END,
	 * or NULL. */
	const struct bs_opt *(*more)(void);
	size_t col_max; /* help: left columns wider go on a line of their
			 * own (0: 20) */
	unsigned flags; /* BS_OPT_CMD_* */
};

enum {
	/* Options end at the first operand (bstore's own, before the
	 * command's name): getopt's '+'. */
	BS_OPT_CMD_FIRST = 1,
};

/*
 * Calls seen(args, row, arg) after each option the command line sets,
 * when not NULL: report keeps its BS_OPT_KEEP rows for --save.
 */
typedef void (*bs_opt_seen_fn)(void *args, const struct bs_opt *o,
			       const char *arg);

/* What bs_opt_parse found: whether the command goes on. */
enum bs_opt_next {
	BS_OPT_GO_ON, /* options read, optind at the first operand */
	BS_OPT_EXIT,  /* --help printed, or a usage error said: the
			 * command exits with *status */
};

/*
 * Parses argv's options (getopt_long, argv[0] being the command; the
 * caller has reset optind) into args through cmd's rows. Returns
 * BS_OPT_GO_ON (*status BS_EXIT_OK), or BS_OPT_EXIT with *status
 * BS_EXIT_OK after printing --help, or the usage error's exit status
 * after saying it: an unknown option, a missing or unwanted argument, a
 * bad value (a row's set()).
 */
enum bs_opt_next bs_opt_parse(struct bs_cli *cli, const struct bs_opt_cmd *cmd,
			      int argc, char **argv, void *args,
			      bs_opt_seen_fn seen, int *status);

/* The --help text of cmd onto f, with bstore's tables filled in. */
void bs_opt_help(FILE *f, const struct bs_opt_cmd *cmd);

/*
 * The rows of cmd in order, -h/--help last, headings included: calls
 * fn for each; for the man page (cli/man.c).
 */
void bs_opt_each(const struct bs_opt_cmd *cmd,
		 void (*fn)(const struct bs_opt *o, void *ctx), void *ctx);

/* "-f, --format FMT" as --help shows a row's names (no indent). */
void bs_opt_names(const struct bs_opt *o, struct bs_buf *out);

/* A row's help with its default ("(default: X)"), unwrapped. */
void bs_opt_help_text(const struct bs_opt *o, struct bs_buf *out);

/*
 * The synopsis lines of cmd, "@OPTS@" expanded, without "Usage: ". The
 * blanks inside one option's item ("[-d DIR]") are BS_OPT_NBSP, so that
 * wrapping never splits it: the caller makes them blanks.
 */
#define BS_OPT_NBSP '\x1f'
void bs_opt_usage(const struct bs_opt_cmd *cmd, struct bs_buf *out);

/* ---- rows several commands share, each written once ---------------- */

/* A measuring command's --tag (run, zcav, fileio): bs_cli_tags_release. */
struct bs_cli_tags {
	struct bs_tag *tag;
	size_t n, cap;
};
void bs_cli_tags_release(struct bs_cli_tags *t);

/* clang-format off */
#define BS_OPT_TAG(type, member, what)                                       \
	{0, "tag", "KEY=VALUE", BS_OPT_MULTI, bs_opt_tag,                    \
	 offsetof(type, member), "add a tag to the stored " what            \
	 " (repeatable)", NULL, 0, 0, 0}
#define BS_OPT_NO_STORE(type, member)                                        \
	{0, "no-store", NULL, 0, bs_opt_flag, offsetof(type, member),        \
	 "measure and print, but store nothing", NULL, 0, 0, 0}

/* report's and trend's -f and -o (struct bs_cli_dest, cli/cli.h). */
int bs_opt_dest_format(const struct bs_cli *cli, const struct bs_opt *o,
		       const char *arg, void *field);
int bs_opt_dest_output(const struct bs_cli *cli, const struct bs_opt *o,
		       const char *arg, void *field);
#define BS_OPT_DEST(type, member)                                            \
	{'f', "format", "FMT", 0, bs_opt_dest_format,                        \
	 offsetof(type, member), "text, html, csv or json; given, it wins "  \
	 "over the extension of -o, with a warning when they disagree",      \
	 "from the -o file's extension, else text", 0, 0, 0},               \
	{'o', "output", "FILE", 0, bs_opt_dest_output,                       \
	 offsetof(type, member), "write to FILE (replaced when complete); "  \
	 "its extension names the format: .txt .text, .html .htm, .csv, "    \
	 ".json .jsonl .ndjson; another is refused unless -f is given",     \
	 NULL, 0, 0, 0}

/* report's and trend's -u (enum bs_report_units). */
int bs_opt_units(const struct bs_cli *cli, const struct bs_opt *o,
		 const char *arg, void *field);
#define BS_OPT_UNITS(type, member, flags)                                    \
	{'u', "units", "UNIT", (flags), bs_opt_units, offsetof(type, member),\
	 "KiB/s rates in auto (each metric's unit, as every command shows "  \
	 "it: MiB/s), kib (as stored) or mib; mb: every byte rate in "      \
	 "decimal MB/s (10^6 bytes), as fio and dd print them", "auto", 0,  \
	 0, 0}

/* report's and trend's -m (bool want[BS_M_MAX], report/report.h). */
int bs_opt_metrics(const struct bs_cli *cli, const struct bs_opt *o,
		   const char *arg, void *field);
#define BS_OPT_METRICS(type, member, flags, help)                            \
	{'m', "metrics", "LIST", (flags), bs_opt_metrics,                    \
	 offsetof(type, member), (help), NULL, 0, 0, 0}

/* report's and trend's -t and --template-dir. */
#define BS_OPT_TITLE(type, member, flags, help, dflt)                        \
	{'t', "title", "TITLE", (flags), bs_opt_str, offsetof(type, member), \
	 (help), (dflt), 0, 0, 0}
#define BS_OPT_TEMPLATE_DIR(type, member, files)                             \
	{0, "template-dir", "DIR", 0, bs_opt_str, offsetof(type, member),    \
	 "take " files " from DIR when there", NULL, 0, 0, 0}
/* clang-format on */

/*
 * For getopt_long's '?' and ':' (bs_opt_parse, cli/opt.h, sets opterr =
 * 0 and calls it):
 * prints "unknown option '--x'", "option '--x' needs an argument" or
 * "option '--x' takes no argument" as a usage error and returns
 * BS_EXIT_USAGE. shortopts and longopts are what getopt_long was given.
 */
struct option;
int bs_cli_bad_option(const struct bs_cli *cli, char **argv,
		      const char *shortopts, const struct option *longopts);

#endif
