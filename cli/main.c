/* cli/main.c - the command table, global flags and exit status. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/msg.h"
#include "cli/man.h"
#include "cli/opt.h"
#include "util/buf.h"
#include "util/similar.h"
#include "util/banned.h"

/* Every command's table (cli/opt.h), sorted by name. */
static const struct bs_opt_cmd *const commands[] = {
	&bs_cmd_changes, &bs_cmd_check,  &bs_cmd_compare, &bs_cmd_exec,
	&bs_cmd_export,  &bs_cmd_fileio, &bs_cmd_ingest,  &bs_cmd_list,
	&bs_cmd_merge,   &bs_cmd_report, &bs_cmd_rm,      &bs_cmd_run,
	&bs_cmd_set,     &bs_cmd_show,   &bs_cmd_site,    &bs_cmd_tag,
	&bs_cmd_trend,   &bs_cmd_zcav,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* What bstore's own options say. */
struct main_args {
	struct bs_cli cli;
	int version; /* --version */
	int man;     /* --man */
};

static int set_db(const struct bs_cli *cli, const struct bs_opt *o,
		  const char *arg, void *field)
{
	(void)o;
	/* SQLite would open a temporary database for "". */
	if (arg[0] == '\0')
		return bs_cli_usage_error(cli, "--db needs a path, not ''");
	*(const char **)field = arg;
	return 0;
}

#define O(f) offsetof(struct main_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_GROUP("Global options:"),
	{0, "db", "PATH|URL", 0, set_db, O(cli.db_path),
	 "the archive: a SQLite file, or a PostgreSQL database named "
	 "postgresql://[USER@]HOST[:PORT]/DBNAME (docs/team.md) "
	 "(default: $BSTORE_DB, else "
	 "$XDG_DATA_HOME/bstore/bstore.db, i.e. "
	 "~/.local/share/bstore/bstore.db); "
	 "ingest, run and merge create it, the other commands need it",
	 NULL, 0, 0, 0},
	{'q', "quiet", NULL, 0, bs_opt_flag, O(cli.quiet),
	 "no progress lines or summaries", NULL, 0, 0, 0},
	{0, "version", NULL, 0, bs_opt_flag, O(version), "print the version",
	 NULL, 0, 0, 0},
	{0, "man", NULL, 0, bs_opt_flag, O(man),
	 "print the bstore(1) man page (roff), made from the commands' option "
	 "tables",
	 NULL, 0, 0, 0},
	BS_OPT_END,
};
#undef O

/* bstore itself, as a command of the walker; its about text lists the
 * commands (made once, in main()). */
static struct bs_opt_cmd bstore = {
	"",
	NULL,
	"results database and report toolkit for disk benchmarks",
	"[--db PATH|URL] COMMAND [OPTIONS] [ARGS]",
	NULL,
	opts,
	"'bstore COMMAND --help' shows a command's options.\n"
	"\n"
	"Exit status: 0 success, 1 failure (including rejected input),\n"
	"2 usage error.\n",
	NULL,
	NULL,
	0,
	BS_OPT_CMD_FIRST,
};

/* The about text of bstore's --help: what it is, then its commands. */
static char *about_text(void)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	bs_buf_adds(&b, "A results database and report toolkit for disk and "
			"file-system\nbenchmarks, of every tool family it "
			"reads: @FAMILIES@.\n"
			"\nCommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		bs_buf_addf(&b, "  %-9s %s\n", commands[i]->name,
			    commands[i]->summary);
	return bs_buf_detach(&b, NULL);
}

static const struct bs_opt_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	char q[BS_CLI_QUOTE_SIZE];
	size_t i, best = (size_t)-1;
	const char *guess = NULL;

	for (i = 0; i < NCOMMANDS; i++)
		bs_similar_best(name, commands[i]->name, &guess, &best);
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
	struct main_args a;
	const struct bs_opt_cmd *cmd;
	char *about;
	size_t i;
	enum bs_opt_next next;
	int rc;

	memset(&a, 0, sizeof(a));
	/* The table must stay sorted: --help and the man page list it so,
	 * and a command out of order is a row pasted in the wrong place. */
	for (i = 1; i < NCOMMANDS; i++)
		assert(strcmp(commands[i - 1]->name, commands[i]->name) < 0);
	/* A closed pipe (bstore list | head) ends output quietly. */
	bs_stop_pipe_default();
	about = about_text();
	bstore.about = about;
	/* BS_OPT_CMD_FIRST: stop at the command name; its options are its
	 * own. */
	next = bs_opt_parse(&a.cli, &bstore, argc, argv, &a, NULL, &rc);
	if (next == BS_OPT_GO_ON && a.version) {
		puts("bstore " BSTORE_VERSION);
		next = BS_OPT_EXIT;
	} else if (next == BS_OPT_GO_ON && a.man) {
		bs_cli_man(stdout, BSTORE_VERSION, &bstore, commands,
			   NCOMMANDS);
		next = BS_OPT_EXIT;
	}
	if (next == BS_OPT_GO_ON && optind >= argc) {
		bs_opt_help(stderr, &bstore);
		rc = BS_EXIT_USAGE;
		next = BS_OPT_EXIT;
	}
	free(about);
	bstore.about = NULL;
	if (next == BS_OPT_EXIT)
		return finish_output(&a.cli, rc);
	cmd = find_command(argv[optind]);
	if (cmd == NULL)
		return unknown_command(argv[optind]);
	a.cli.cmd = cmd->name;
	argc -= optind;
	argv += optind;
	optind = 0; /* glibc: 0 re-initialises getopt for the command */
	rc = cmd->fn(&a.cli, argc, argv);
	return bs_cli_guard_end(finish_output(&a.cli, rc));
}
