/* cli/main.c - the command table, global flags and exit status. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/similar.h"
#include "util/banned.h"

struct cmd {
	const char *name;
	bs_cmd_fn fn;
	const char *summary;
};

static const struct cmd commands[] = {
	/* keep sorted */
	{"compare", cmd_compare, "compare two groups of runs side by side"},
	{"export", cmd_export, "write runs as bonnie++ CSV, JSON or CSV"},
	{"fileio", cmd_fileio, "run sysbench's fileio test and store it"},
	{"ingest", cmd_ingest, "import benchmark results into the archive"},
	{"list", cmd_list, "list stored runs, one line each"},
	{"merge", cmd_merge, "copy the runs of other archives into this one"},
	{"report", cmd_report, "render a comparison of stored runs"},
	{"rm", cmd_rm, "delete runs from the archive"},
	{"run", cmd_run, "run the built-in disk benchmark and store it"},
	{"show", cmd_show, "show one run in bonnie++'s table layout"},
	{"set", cmd_set, "change a stored run's machine or date"},
	{"site", cmd_site, "write a static web site of the archive"},
	{"tag", cmd_tag, "add or remove key=value tags on runs"},
	{"trend", cmd_trend, "chart metrics of runs over the time they were measured"},
	{"zcav", cmd_zcav, "measure throughput by position, as zcav, and store it"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("Usage: bstore [--db PATH] COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "A results database and report toolkit for disk and file-system\n"
	      "benchmarks (bonnie, bonnie++).\n"
	      "\n"
	      "Commands:\n",
	      f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n"
	      "Global options:\n"
	      "  --db PATH    the archive (default: $BSTORE_DB, else\n"
	      "               $XDG_DATA_HOME/bstore/bstore.db, i.e.\n"
	      "               ~/.local/share/bstore/bstore.db); ingest,\n"
	      "               run and merge create it, the other commands\n"
	      "               need it\n"
	      "  -q, --quiet  no progress lines or summaries\n"
	      "  -h, --help   this help; 'bstore COMMAND --help' for a command\n"
	      "  --version    print the version\n"
	      "\n"
	      "Exit status: 0 success, 1 failure (including rejected input),\n"
	      "2 usage error.\n",
	      f);
}

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	char q[BS_CLI_QUOTE_SIZE];
	size_t i, best = (size_t)-1;
	const char *guess = NULL;

	for (i = 0; i < NCOMMANDS; i++)
		bs_similar_best(name, commands[i].name, &guess, &best);
	bs_cli_quote(q, name);
	if (guess)
		fprintf(stderr,
			"bstore: '%s' is not a bstore command. "
			"Did you mean '%s'?\n",
			q, guess);
	else
		fprintf(stderr,
			"bstore: '%s' is not a bstore command. "
			"See 'bstore --help'.\n",
			q);
	return BS_EXIT_USAGE;
}

/*
 * Output that could not be written (a full disk, a closed standard
 * output) fails the command: said here, once, for every command.
 */
static int finish_output(const struct bs_cli *cli, int rc)
{
	int e;

	/* errno is the flush's, or when an earlier write failed and left
	 * nothing to flush, most likely still that write's. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		e = errno ? errno : EIO;
		bs_cli_error(cli, "cannot write output: %s", strerror(e));
		return BS_EXIT_FAIL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"quiet", no_argument, NULL, 'q'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct bs_cli cli = {NULL, NULL, 0};
	const struct cmd *cmd;
	int c, rc;

	/* A closed pipe (bstore list | head) ends output quietly. */
	signal(SIGPIPE, SIG_DFL);
	/* '+': stop at the command name; its options are its own. Errors
	 * are printed here, in bstore's form, not by getopt. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hq", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			/* SQLite would open a temporary database for "". */
			if (optarg[0] == '\0')
				return bs_cli_usage_error(
					&cli, "--db needs a path, not ''");
			cli.db_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return finish_output(&cli, BS_EXIT_OK);
		case 'q':
			cli.quiet = 1;
			break;
		case 'V':
			puts("bstore " BSTORE_VERSION);
			return finish_output(&cli, BS_EXIT_OK);
		default:
			return bs_cli_bad_option(&cli, argv, "+hq", opts);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return BS_EXIT_USAGE;
	}
	cmd = find_command(argv[optind]);
	if (cmd == NULL)
		return unknown_command(argv[optind]);
	cli.cmd = cmd->name;
	argc -= optind;
	argv += optind;
	optind = 0; /* glibc: 0 re-initialises getopt for the command */
	opterr = 1; /* commands that print their own errors turn it off */
	rc = cmd->fn(&cli, argc, argv);
	return finish_output(&cli, rc);
}
