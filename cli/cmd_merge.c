/* cli/cmd_merge.c - `bstore merge`: copy the runs of other archives here. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/input.h"
#include "cli/msg.h"
#include "cli/guard.h"
#include "cli/opt.h"
#include "util/text.h"
#include "util/banned.h"

static const struct bs_opt opts[] = {
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_merge = {
	"merge",
	cmd_merge,
	"copy the runs of other archives into this one",
	"OTHER.db...",
	"Copies every run of other bstore archives into this one (--db),\n"
	"with its tags, dates, source, tool version, parameters, results,\n"
	"latencies, curves and raw line, and their rejected lines; this is\n"
	"how a fleet collects per-host archives into one. The archive is\n"
	"created if missing, as by ingest. OTHER is only read, never\n"
	"changed; one made by an older bstore is refused until it has been\n"
	"upgraded (any bstore command on it does that).\n"
	"\n"
	"A run already here is not copied again, so merging twice adds\n"
	"nothing: an ingested run is here when its line is (as ingest\n"
	"finds duplicates), a run of 'bstore run' when its line and the\n"
	"time it was measured are. Of a run both archives hold, tags only\n"
	"OTHER has are added; a tag both have with different values, or a\n"
	"different measured time, is a conflict: this archive's value is\n"
	"kept and OTHER's is named in a warning.\n"
	"\n"
	"Each OTHER is merged in one transaction: a file that fails, or a\n"
	"signal, leaves nothing of it merged. Each prints\n"
	"  OTHER: N runs merged, M already here, K conflicts\n"
	"Merging the archive into itself is refused. The exit status is 1\n"
	"when an OTHER could not be merged (the others are).\n"
	"\n"
	"OTHER is not trusted: it is refused when a table merge reads is a\n"
	"view or it has a trigger, and each of its runs is checked as\n"
	"ingest checks what it stores (a known tool family, values within\n"
	"limits, statuses that agree with values, names without control\n"
	"characters); a run that fails is skipped and named in a warning\n"
	"with the reason (', N runs skipped'; exit status 1), the rest is\n"
	"merged.\n",
	opts,
	NULL,
	"bstore --db fleet.db merge host1.db host2.db",
	NULL,
	0,
	0,
};

struct conflict_ctx {
	const struct bs_cli *cli;
	const char *name;
};

static void on_conflict(const struct bs_merge_conflict *c, void *vctx)
{
	const struct conflict_ctx *x = vctx;
	const char *ours = c->our_value ? c->our_value : "unknown";
	const char *theirs = c->their_value ? c->their_value : "unknown";

	if (c->key)
		bs_cli_warn(x->cli,
			    "%s: run %lld (here %lld): tag '%s' is '%s' "
			    "there, '%s' here; kept '%s'",
			    x->name, (long long)c->theirs, (long long)c->ours,
			    c->key, theirs, ours, ours);
	else
		bs_cli_warn(x->cli,
			    "%s: run %lld (here %lld): %s is %s there, %s "
			    "here; kept %s",
			    x->name, (long long)c->theirs, (long long)c->ours,
			    c->field, theirs, ours, ours);
}

/* Merges one archive. Returns BS_EXIT_OK or BS_EXIT_FAIL. Every word
 * names it as it may be shown (a URL without its secrets). */
static int merge_one(const struct bs_cli *cli, struct bs_store *st,
		     const char *path, void *unused)
{
	(void)unused;
	struct bs_err err = BS_ERR_INIT;
	struct bs_merge_stats s;
	char *shown = bs_store_shown(path);
	struct conflict_ctx x = {cli, shown};
	struct bs_store *from = NULL;
	int rc = BS_EXIT_FAIL;

	/* The same file under any name, link or file: URI. */
	if (bs_cli_same_file(bs_store_path(st), path)) {
		bs_cli_error(cli,
			     "%s: this is the archive itself; nothing to "
			     "merge",
			     shown);
		goto out;
	}
	if (bs_store_open(&from, path, BS_STORE_READONLY | BS_STORE_NO_UPGRADE,
			  &err) < 0) {
		bs_cli_perr(cli, &err);
		goto out;
	}
	/* The same server's database and schema, under any URL. */
	if (bs_store_same(st, from)) {
		bs_cli_error(cli,
			     "%s: this is the archive itself; nothing to "
			     "merge",
			     shown);
		goto out;
	}
	bs_store_set_wait(from, BS_STORE_WAIT_MS, &bs_stop_sig);
	bs_cli_store_warnings(cli, from);
	if (bs_store_begin(st, &err) < 0 ||
	    bs_store_merge(st, from, &bs_stop_sig, on_conflict, &x, &s, &err) <
		    0 ||
	    bs_store_commit(st, &err) < 0) {
		bs_store_rollback(st);
		if (err.code == BS_EINTR || bs_stop_sig)
			bs_cli_error(cli,
				     "%s: interrupted; nothing merged "
				     "from this archive",
				     shown);
		else
			bs_cli_error(cli, "%s; nothing merged from '%s'",
				     err.msg, shown);
		goto out;
	}
	/* Some of OTHER refused, as ingest's rejected lines: status 1. */
	rc = s.skipped > 0 ? BS_EXIT_FAIL : BS_EXIT_OK;
	if (cli->quiet)
		goto out;
	bs_text_put(stdout, shown, 0);
	printf(": %lld run%s merged, %lld already here, %lld conflict%s",
	       (long long)s.merged, s.merged == 1 ? "" : "s",
	       (long long)s.present, (long long)s.conflicts,
	       s.conflicts == 1 ? "" : "s");
	if (s.tags_added > 0)
		printf(", %lld tag%s added", (long long)s.tags_added,
		       s.tags_added == 1 ? "" : "s");
	if (s.rejects > 0)
		printf(", %lld rejected line%s", (long long)s.rejects,
		       s.rejects == 1 ? "" : "s");
	if (s.skipped > 0)
		printf(", %lld run%s skipped", (long long)s.skipped,
		       s.skipped == 1 ? "" : "s");
	putchar('\n');
out:
	bs_store_close(from);
	free(shown);
	return rc;
}

int cmd_merge(struct bs_cli *cli, int argc, char **argv)
{
	struct bs_store *st = NULL;
	int rc;

	if (bs_opt_parse(cli, &bs_cmd_merge, argc, argv, NULL, NULL, &rc) ==
	    BS_OPT_EXIT)
		return rc;
	if (optind >= argc)
		return bs_cli_usage_error(cli, "which archives? give OTHER.db");
	if (bs_cli_open_store(cli, 0, &st) != 0)
		return BS_EXIT_FAIL;
	rc = bs_cli_each_input(cli, st, argv + optind, argc - optind, "archive",
			       "not merged", merge_one, NULL);
	bs_store_close(st);
	return rc;
}
