/*
 * cli/cmd_zcav.c - `bstore zcav`: zcav 2.00a's options, its printout on
 * stdout (or -l's log), progress on stderr, and one stored run (the
 * measuring is core/zcav.h's).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/msg.h"
#include "cli/guard.h"
#include "cli/opt.h"
#include "core/host.h"
#include "core/scratch.h"
#include "core/zcav.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

struct zcav_args {
	struct bs_zcav_opts o;
	int64_t r_first_mib, r_last_mib;
	int r_given;
	const char *r_arg; /* -r, read once -b is known */
	const char *log;
	int no_store;
	struct bs_cli_tags tags; /* --tag */
	char hostname[256];
};

static int set_block(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_zcav_parse_b(field, arg, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	return 0;
}

static int set_file(const struct bs_cli *cli, const struct bs_opt *o,
		    const char *arg, void *field)
{
	const char **path = field;

	(void)o;
	if (*path)
		return bs_cli_usage_error(cli,
					  "only one file or device at a time");
	*path = arg;
	return 0;
}

#define O(f) offsetof(struct zcav_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_GROUP("Options (spelled as zcav spells them):"),
	{'b', NULL, "BLOCK[:CHUNK]", 0, set_block, O(o),
	 "block size in MiB (default 512), each block read in accesses of "
	 "CHUNK MiB (default 1)",
	 NULL, 0, 0, 0},
	{'c', NULL, "COUNT", 0, bs_opt_i64, O(o.passes),
	 "read everything COUNT times; each block's row is the mean of its "
	 "times without the fastest and slowest thirds",
	 NULL, 1, 1000000, 0},
	{'r', NULL, "[FIRST:]LAST", 0, bs_opt_str, O(r_arg),
	 "only the range from FIRST to LAST MiB (rounded down to blocks); LAST "
	 "alone starts at 0",
	 NULL, 0, 0, 0},
	{'s', NULL, "SKIP", 0, bs_opt_i64, O(o.skip),
	 "read every SKIP-th block (2 to 20) and skip the others", NULL, 2,
	 BS_ZCAV_SKIP_MAX, 0},
	{'w', NULL, NULL, 0, bs_opt_flag, O(o.write),
	 "write zeros instead of reading: destroys the data! Only on a regular "
	 "file (which is never made longer unless -r asks for more), or on a "
	 "block device with --yes-destroy-data (a file that backs a loop "
	 "device counts as the device); never on the archive, nor on a device "
	 "that is mounted (or a partition of it), in use, or holding a file "
	 "system, swap, LUKS or partition table signature. Every chunk ends "
	 "with fsync(), as in zcav",
	 NULL, 0, 0, 0},
	{0, "yes-destroy-data", NULL, 0, bs_opt_flag, O(o.yes_destroy_data),
	 "allow -w on a block device", NULL, 0, 0, 0},
	{'l', NULL, "LOG", 0, bs_opt_str, O(log),
	 "write the table to LOG instead of stdout (\"-\": stdout); never the "
	 "archive or the file being measured",
	 NULL, 0, 0, 0},
	{'f', NULL, "FILE", 0, set_file, O(o.path),
	 "the file or device (the same as naming it last)", NULL, 0, 0, 0},
	{'m', NULL, "NAME", 0, bs_opt_str, O(o.machine),
	 "machine name (default: the host name), as bstore run's -m", NULL, 0,
	 0, 0},
	BS_OPT_TAG(struct zcav_args, tags, "run"),
	BS_OPT_NO_STORE(struct zcav_args, no_store),
	{0, "no-direct", NULL, 0, bs_opt_flag, O(o.no_direct),
	 "never use O_DIRECT: read through the page cache, each block dropped "
	 "from it first (what zcav measures from a cold cache)",
	 NULL, 0, 0, 0},
	{0, "min-time", "SECONDS", 0, bs_opt_real, O(o.min_time_s),
	 "a block read faster than this is ++++ (zcav's rule; a disk faster "
	 "than the block size per second needs bigger blocks or a lower "
	 "limit); stored as the tag zcav.min_time_s when not 1",
	 "1", 0, 3600, 0},
	BS_OPT_END,
};
#undef O

/* clang-format off */
const struct bs_opt_cmd bs_cmd_zcav = {
"zcav", cmd_zcav,
"measure throughput by position, as zcav, and store it",
"@OPTS@ FILE|DEVICE",
"Measures throughput by position, as bonnie++ 2.00a's zcav does: reads\n"
"FILE or DEVICE from the start in blocks, times every block, and prints\n"
"zcav's table (offset GiB, MiB/s, seconds; a block read in under a\n"
"second shows as ++++, too fast to time). The run is stored (family\n"
"zcav, tool bstore) with its curve as a series and the host's kernel,\n"
"file system, disk model, RAM and CPU as host.* tags.\n"
"\n"
"bstore reads with O_DIRECT when the file or device allows it, so the\n"
"page cache does not answer the reads; otherwise it drops each block\n"
"from the cache before reading it. The first line of the printout says\n"
"which.\n",
	opts,
"Stored: read_mib_s (write_mib_s with -w), the mean over the timed\n"
"blocks (too_fast when none was timed), its curve under the same key\n"
"(axis offset_gib), params block_mib, passes and skip; zcav.direct and\n"
"zcav.target tags. `bstore ingest` reads the printout back to the same\n"
"values. Progress goes to stderr: a live line on a terminal, else zcav's\n"
"'# Finished loop N' lines. SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE\n"
"stop the measurement: nothing is stored, and the exit status is 128 +\n"
"the signal (130 for SIGINT). zcav's -u and -g, and several files at\n"
"once, are not supported.\n",
"bstore zcav -b 256 /dev/sdb", NULL, 12, 0,
};
/* clang-format on */

static int parse_args(struct bs_cli *cli, int argc, char **argv,
		      struct zcav_args *a, int *done)
{
	struct bs_err err = BS_ERR_INIT;
	char q[BS_CLI_QUOTE_SIZE];
	const char *r_arg;
	int rc;

	*done = 0;
	bs_zcav_defaults(&a->o);
	a->o.machine = bs_cli_host_name(a->hostname, sizeof(a->hostname));
	if (bs_opt_parse(cli, &bs_cmd_zcav, argc, argv, a, NULL, &rc) ==
	    BS_OPT_EXIT) {
		*done = rc == BS_EXIT_OK;
		return rc;
	}
	r_arg = a->r_arg;
	if (optind < argc) {
		if (a->o.path || optind + 1 < argc)
			return bs_cli_usage_error(
				cli,
				"only one file or device at a time, got "
				"'%s' too",
				bs_cli_quote(q, argv[argc - 1]));
		a->o.path = argv[optind];
	}
	if (a->o.path == NULL)
		return bs_cli_usage_error(cli, "no file or device given");
	if (a->o.yes_destroy_data && !a->o.write)
		return bs_cli_usage_error(
			cli, "--yes-destroy-data goes with -w only");
	/* -r is in MiB, rounded down to blocks: known once -b is. */
	if (r_arg) {
		if (bs_zcav_parse_r(r_arg, &a->r_first_mib, &a->r_last_mib,
				    &err) < 0)
			return bs_cli_usage_error(cli, "%s", err.msg);
		a->o.first_block = a->r_first_mib / a->o.block_mib;
		a->o.last_block = a->r_last_mib / a->o.block_mib;
		if (a->o.last_block <= a->o.first_block)
			return bs_cli_usage_error(
				cli, "-r: %s holds no whole block of %lld MiB",
				bs_cli_quote(q, r_arg),
				(long long)a->o.block_mib);
		a->r_given = 1;
	}
	return 0;
}

/* Progress on stderr, the printout, and the run for the driver
 * (cli/cli.h, bs_cli_measure). */
struct progress {
	const struct bs_cli *cli;
	struct bs_cli_progress line;
	FILE *out;
	FILE *log; /* -l's file, or NULL */
	int out_errno;
	int64_t passes;
	const char *path;
	struct zcav_args *a;
	struct bs_zcav_target t;
	struct bs_zcav_cb cb;
};

static void on_line(const char *text, void *ctx)
{
	struct progress *p = ctx;

	/* Line by line, as zcav prints: a reader sees each block when it
	 * is done, and stderr's lines fall in place between them. */
	if (fprintf(p->out, "%s\n", text) < 0 || fflush(p->out) != 0) {
		if (!p->out_errno)
			p->out_errno = errno ? errno : EIO;
	}
}

static void on_block(int64_t pass, int64_t index, int64_t nblocks,
		     double offset_gib, double seconds, void *ctx)
{
	struct progress *p = ctx;
	char total[32] = "";

	if (p->cli->quiet || !p->line.tty)
		return;
	if (nblocks > 0)
		snprintf(total, sizeof(total), "/%lld", (long long)nblocks);
	fprintf(stderr,
		"\rpass %lld/%lld  block %lld%s  at %.2f GiB  %.3f s\033[K",
		(long long)pass, (long long)p->passes, (long long)index + 1,
		total, offset_gib, seconds);
	p->line.open_line = 1;
	fflush(stderr);
}

static void on_pass_done(int64_t pass, void *ctx)
{
	struct progress *p = ctx;
	struct tm tm;
	time_t now = time(NULL);

	if (p->cli->quiet)
		return;
	if (p->line.tty) {
		if (p->line.open_line)
			fputs("\r\033[K", stderr);
		p->line.open_line = 0;
	}
	/* zcav's own line: bstore ingest keeps it with the run. */
	localtime_r(&now, &tm);
	fprintf(stderr, "# Finished loop %lld, on device %s at %d:%02d:%02d\n",
		(long long)pass, p->path, tm.tm_hour, tm.tm_min, tm.tm_sec);
	fflush(stderr);
}

static void tag_run(const struct zcav_args *a, const struct bs_host *h,
		    const struct bs_zcav_target *t, struct bs_run *r)
{
	size_t i;

	bs_host_tag(h, r);
	/* The tag as older bstores kept it; direct is the parameter. */
	r->params.direct = t->direct ? 1 : 0;
	bs_run_tag(r, "zcav.direct", t->direct ? "1" : "0");
	bs_run_tag(r, "zcav.target", a->o.path);
	if (a->o.min_time_s != BS_ZCAV_MIN_TIME_S) {
		char num[32];

		snprintf(num, sizeof(num), "%g", a->o.min_time_s);
		bs_run_tag(r, "zcav.min_time_s", num);
	}
	for (i = 0; i < a->tags.n; i++)
		bs_run_tag(r, a->tags.tag[i].key, a->tags.tag[i].value);
}

/* The log (-l) and the printout's first line, once the archive is open. */
static int prepare(const struct bs_cli *cli, void *ctx)
{
	struct progress *p = ctx;
	const struct zcav_args *a = p->a;

	if (a->log && strcmp(a->log, "-") != 0) {
		/* Nor is the log, or the target: asked once the archive is
		 * open, when its -wal and -shm files exist. */
		if (bs_cli_guard(cli, a->log, a->o.path) != 0)
			return BS_EXIT_FAIL;
		p->log = fopen(a->log, "w");
		if (p->log == NULL) {
			bs_cli_error(cli, "cannot open '%s': %s", a->log,
				     strerror(errno));
			return BS_EXIT_FAIL;
		}
	}
	p->out = p->log ? p->log : stdout;
	/* Not part of zcav's layout: a comment line that ingest skips. */
	fprintf(p->out, "# bstore %s zcav: %s '%s' in %lld MiB accesses, %s\n",
		BSTORE_VERSION, a->o.write ? "writing" : "reading", a->o.path,
		(long long)a->o.chunk_mib,
		p->t.direct ? "O_DIRECT"
		: a->o.no_direct
			? "through the page cache (--no-direct), each "
			  "block dropped from it first"
			: "through the page cache (no O_DIRECT here), each "
			  "block dropped from it first");
	fflush(p->out);
	return 0;
}

static int measure(const struct bs_cli *cli, void *ctx, uint64_t it,
		   struct bs_run *r, struct bs_err *err)
{
	struct progress *p = ctx;

	(void)cli;
	(void)it;
	return bs_zcav_run(&p->a->o, &p->t, &p->cb, r, err);
}

static int to_run(const struct bs_cli *cli, void *ctx,
		  const struct bs_host *host, struct bs_run *r)
{
	struct progress *p = ctx;
	/* Storage too fast for the block: say what to pass. */
	struct bs_buf hint = BS_BUF_INIT;

	tag_run(p->a, host, &p->t, r);
	if (bs_zcav_hint(&p->a->o, &p->t, r, &hint))
		bs_cli_warn(cli, "%s", bs_buf_str(&hint));
	bs_buf_release(&hint);
	return BS_EXIT_OK;
}

static int stored(const struct bs_cli *cli, void *ctx,
		  const struct bs_store *st, int rc)
{
	struct progress *p = ctx;

	if (rc == 0 && p->out_errno) {
		bs_cli_error(cli, "cannot write %s: %s%s",
			     p->log ? "the log" : "output",
			     strerror(p->out_errno),
			     st ? " (the results are stored)" : "");
		rc = BS_EXIT_FAIL;
	}
	return rc;
}

int cmd_zcav(struct bs_cli *cli, int argc, char **argv)
{
	struct zcav_args a;
	struct progress prog = {.t = BS_ZCAV_TARGET_INIT};
	struct bs_cli_measuring m = {0};
	struct bs_err err = BS_ERR_INIT;
	int rc, done;

	memset(&a, 0, sizeof(a));
	rc = parse_args(cli, argc, argv, &a, &done);
	if (rc != 0 || done)
		goto out;
	a.o.tool_version = BSTORE_VERSION;
	rc = BS_EXIT_FAIL;
	if (bs_zcav_open(&a.o, &prog.t, &err) < 0) {
		bs_cli_perr(cli, &err);
		goto out;
	}
	/* -w's target is never the archive (cli/guard.h). */
	if (a.o.write && bs_cli_guard(cli, a.o.path, NULL) != 0)
		goto out;

	prog.cli = cli;
	bs_cli_progress_init(&prog.line, cli, 0);
	prog.passes = a.o.passes;
	prog.path = a.o.path;
	prog.a = &a;
	prog.cb = (struct bs_zcav_cb){.line = on_line,
				      .block = on_block,
				      .pass_done = on_pass_done,
				      .ctx = &prog};
	m = (struct bs_cli_measuring){.dir = a.o.path,
				      .store = !a.no_store,
				      .count = 1,
				      .progress = &prog.line,
				      .ctx = &prog,
				      .prepare = prepare,
				      .measure = measure,
				      .to_run = to_run,
				      .stored = stored};
	rc = bs_cli_measure(cli, &m);
out:
	if (prog.out_errno && !prog.log)
		clearerr(stdout);
	if (prog.log && fclose(prog.log) != 0 && rc == 0) {
		bs_cli_error(cli, "cannot write '%s': %s", a.log,
			     strerror(errno));
		rc = BS_EXIT_FAIL;
	}
	bs_zcav_close(&prog.t);
	bs_cli_tags_release(&a.tags);
	return rc;
}
