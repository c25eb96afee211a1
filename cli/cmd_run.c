/*
 * cli/cmd_run.c - `bstore run`: bonnie++-style options (their syntax and
 * limits are core/bench_opts.h's), progress on stderr, the result table
 * and CSV line, and one stored run per iteration (core/bench.h does the
 * measuring).
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/msg.h"
#include "cli/opt.h"
#include "core/bench.h"
#include "core/bench_opts.h"
#include "core/bonnie_text.h"
#include "core/host.h"
#include "core/scratch.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

/* What the options say, before they become struct bs_bench_opts. */
struct run_args {
	struct bs_bench_opts o;
	int size_given;
	int64_t ram_mib; /* -r; -1: detect */
	uint64_t count;  /* -x */
	int seed_given;
	int quiet_csv; /* -q */
	int no_store;
	enum bs_csv_format csv;
	struct bs_cli_tags tags; /* --tag */
	char hostname[256];
};

/* Names and tags go into a comma-separated line: keep them clean. */
static int clean_text(const char *s)
{
	return strchr(s, ',') == NULL && !bs_text_has_control(s);
}

static uint64_t new_seed(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
		v = (uint32_t)time(NULL) ^ (uint32_t)getpid();
	return v;
}

/* bonnie++'s -s, -n, -f, -r and -c, as core/bench_opts.h parses them. */
static int set_bench(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	struct run_args *a = field;
	struct bs_err err = BS_ERR_INIT;
	int rc;

	switch (o->short_name) {
	case 's':
		rc = bs_bench_opts_parse_s(&a->o, arg, &err);
		a->size_given = 1;
		break;
	case 'n':
		rc = bs_bench_opts_parse_n(&a->o, arg, &err);
		break;
	case 'f':
		rc = bs_bench_opts_parse_f(&a->o, arg, &err);
		break;
	case 'r':
		rc = bs_bench_opts_parse_ram(arg, &a->ram_mib, &err);
		break;
	default:
		assert(o->short_name == 'c');
		rc = bs_bench_opts_parse_c(&a->o, arg, &err);
		break;
	}
	return rc < 0 ? bs_cli_usage_error(cli, "%s", err.msg) : 0;
}

static int set_machine(const struct bs_cli *cli, const struct bs_opt *o,
		       const char *arg, void *field)
{
	(void)o;
	if (!clean_text(arg))
		return bs_cli_usage_error(cli,
					  "-m: a machine name must not contain "
					  "',' or control characters (it would "
					  "break the CSV line)");
	*(const char **)field = arg;
	return 0;
}

static int set_seed(const struct bs_cli *cli, const struct bs_opt *o,
		    const char *arg, void *field)
{
	struct run_args *a = field;
	int rc = bs_opt_u64(cli, o, arg, &a->o.seed);

	a->seed_given = rc == 0;
	return rc;
}

static int set_csv_format(const struct bs_cli *cli, const struct bs_opt *o,
			  const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_csv_format_parse(arg, field, &err) < 0)
		return bs_cli_usage_error(cli, "--csv-format: %s", err.msg);
	return 0;
}

#define O(f) offsetof(struct run_args, f)
#define U64_MAX_D 18446744073709551615.0
static const struct bs_opt opts[] = {
	BS_OPT_GROUP("Options (spelled as bonnie++ spells them; sizes take "
		     "k/m/g suffixes):"),
	{'d', NULL, "DIR", 0, bs_opt_str, O(o.dir),
	 "directory to test (default: the current one); bstore works in a "
	 "private subdirectory it creates and always removes",
	 NULL, 0, 0, 0},
	{'s', NULL, "SIZE[:CHUNK[:SEEKS[:PROCS]]]", 0, set_bench, 0,
	 "I/O test file size in MiB (default: twice the RAM, at least 300M; 0 "
	 "skips the I/O tests), chunk size in bytes (power of 2, 256 to 1m, "
	 "default 8k), number of random seeks (default 8192) and seek threads "
	 "(default 5)",
	 NULL, 0, 0, 0},
	{'n', NULL, "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]", 0, set_bench, 0,
	 "file tests: NUM x 1024 files (default 16; 0 skips them), of MIN to "
	 "MAX bytes (default 0: empty; MAX -1 makes hard links, -2 symbolic "
	 "links), in DIRS directories, written in CHUNK-byte pieces (default "
	 "8k)",
	 NULL, 0, 0, 0},
	{'m', NULL, "NAME", 0, set_machine, O(o.machine),
	 "machine name (default: the host name)", NULL, 0, 0, 0},
	{'r', NULL, "RAM", 0, set_bench, 0,
	 "RAM in MiB for the size check (default: detected); the I/O file must "
	 "be twice the RAM, or reads come from the page cache; -r 0 turns the "
	 "check off",
	 NULL, 0, 0, 0},
	{'x', NULL, "COUNT", 0, bs_opt_u64, O(count),
	 "run the whole suite COUNT times; each is stored as a run", NULL, 1,
	 U64_MAX_D, 0},
	{'f', NULL, "SIZE", BS_OPT_OPTARG, set_bench, 0,
	 "-f skips the per-char tests; -fSIZE (attached) sets their size in "
	 "MiB (default 3)",
	 NULL, 0, 0, 0},
	{'b', NULL, NULL, 0, bs_opt_flag, O(o.fsync_each),
	 "fsync after every write (and directory fsync for files)", NULL, 0, 0,
	 0},
	{'D', NULL, NULL, 0, bs_opt_flag, O(o.direct),
	 "O_DIRECT for block write, rewrite, block read and seeks", NULL, 0, 0,
	 0},
	{'z', NULL, "SEED", 0, set_seed, 0,
	 "random seed (default: a new one for each iteration)", NULL, 0,
	 U64_MAX_D, 0},
	{'q', NULL, NULL, 0, bs_opt_flag, O(quiet_csv),
	 "quiet: only the CSV line on stdout (the table goes to stderr)", NULL,
	 0, 0, 0},
	{'c', NULL, "N", 0, set_bench, 0,
	 "concurrency: recorded only, as bonnie++ 2.00a does (it never runs "
	 "tests concurrently), so results compare",
	 NULL, 0, 0, 0},
	BS_OPT_TAG(struct run_args, tags, "runs"),
	BS_OPT_NO_STORE(struct run_args, no_store),
	{0, "no-sync", NULL, 0, bs_opt_flag, O(o.no_sync),
	 "for tests of the output only: no fsync or syncfs at all, so the "
	 "results measure the page cache, not the disk; stored runs are "
	 "tagged run.no_sync=1",
	 NULL, 0, 0, 0},
	{0, "csv-format", "1.98|1.03", 0, set_csv_format, O(csv),
	 "CSV layout printed and stored (default 1.98, as bonnie++ 2.00a; 1.03 "
	 "is the 27-field layout of bonnie++ 1.0x)",
	 NULL, 0, 0, 0},
	BS_OPT_END,
};
#undef U64_MAX_D
#undef O

const struct bs_opt_cmd bs_cmd_run = {
	"run",
	cmd_run,
	"run the built-in disk benchmark and store it",
	"@OPTS@",
	"Runs bonnie++ 2.00a's disk benchmark the way bonnie++ measures it, "
	"prints\n"
	"bonnie++'s result table and CSV line, and stores every iteration in "
	"the\n"
	"archive with the host's kernel, file system, mount options, disk "
	"model,\n"
	"RAM and CPU as host.* tags.\n",
	opts,
	"Progress goes to stderr. A test under 0.5 s shows as +++++ (too fast "
	"to\n"
	"measure). SIGINT, SIGTERM, SIGHUP, SIGQUIT, or SIGPIPE (output piped\n"
	"into a reader that quit) stop the run: scratch files are removed, "
	"the\n"
	"unfinished iteration is not stored, and the exit status is 128 + the\n"
	"signal (130 for SIGINT, 143 for SIGTERM, 141 for SIGPIPE).\n",
	"bstore run -d /mnt/test -s 16g -n 16 --tag raid=10",
	NULL,
	10,
	0,
};

static int parse_args(struct bs_cli *cli, int argc, char **argv,
		      struct run_args *a, int *done)
{
	char q[BS_CLI_QUOTE_SIZE];
	int rc;

	*done = 0;
	bs_bench_defaults(&a->o);
	a->ram_mib = -1;
	a->count = 1;
	a->csv = BS_CSV_1_98;
	a->o.machine = bs_cli_host_name(a->hostname, sizeof(a->hostname));
	if (bs_opt_parse(cli, &bs_cmd_run, argc, argv, a, NULL, &rc) ==
	    BS_OPT_EXIT) {
		*done = rc == BS_EXIT_OK;
		return rc;
	}
	if (optind < argc)
		return bs_cli_usage_error(cli, "unexpected argument '%s'",
					  bs_cli_quote(q, argv[optind]));
	return 0;
}

/* One run's state for the driver (cli/cli.h, bs_cli_measure). */
struct progress {
	/* tty: a live line, else bonnie++'s "...done" lines */
	struct bs_cli_progress line;
	uint32_t procs; /* for "start 'em...done...done..." */
	struct run_args *a;
	struct bs_bench_cb cb;
	struct bs_buf out;
	int out_errno;  /* of this iteration's printout */
	int out_failed; /* a printout was lost and said so */
};

static const char *bonnie_label(enum bs_metric m)
{
	static const char *const labels[BS_M_BONNIE] = {
		"Writing a byte at a time...",
		"Writing intelligently...",
		"Rewriting...",
		"Reading a byte at a time...",
		"Reading intelligently...",
		"start 'em...",
		"Create files in sequential order...",
		"Stat files in sequential order...",
		"Delete files in sequential order...",
		"Create files in random order...",
		"Stat files in random order...",
		"Delete files in random order...",
	};

	return labels[m];
}

/* "245m/s", "8123/s", "1512 files/s" for a live line. */
static void rate_text(char *buf, size_t size, enum bs_metric m, double v)
{
	char r[32];

	bs_bonnie_fmt_rate(r, sizeof(r), m, v);
	if (bs_metrics[m].flags & BS_MF_KIB)
		snprintf(buf, size, "%s/s", r);
	else
		snprintf(buf, size, "%s %s", r, bs_metrics[m].unit);
}

static void on_start(enum bs_metric m, uint64_t total, void *ctx)
{
	struct progress *p = ctx;

	(void)total;
	if (p->line.quiet)
		return;
	if (p->line.tty)
		fprintf(stderr, "\r%-16s    0.0 s\033[K", bs_metrics[m].label);
	else
		fputs(bonnie_label(m), stderr);
	p->line.open_line = 1;
	fflush(stderr);
}

static void on_progress(enum bs_metric m, uint64_t done, uint64_t total,
			double elapsed_s, void *ctx)
{
	struct progress *p = ctx;
	char rate[48];
	double amount = (double)done;

	if (p->line.quiet || !p->line.tty || elapsed_s <= 0)
		return;
	if (bs_metrics[m].flags & BS_MF_KIB)
		amount /= 1024;
	rate_text(rate, sizeof(rate), m, amount / elapsed_s);
	fprintf(stderr, "\r%-16s %6.1f s  %-16s %3.0f%%\033[K",
		bs_metrics[m].label, elapsed_s, rate,
		total ? 100.0 * (double)done / (double)total : 0.0);
	fflush(stderr);
}

static void on_done(enum bs_metric m, const struct bs_value *v,
		    double elapsed_s, void *ctx)
{
	struct progress *p = ctx;
	char rate[48];
	uint32_t i;

	if (p->line.quiet)
		return;
	if (p->line.tty) {
		if (v->status == BS_ST_OK)
			rate_text(rate, sizeof(rate), m, v->value);
		else
			snprintf(rate, sizeof(rate), "too fast (+++++)");
		fprintf(stderr, "\r%-16s %6.2f s  %s\033[K\n",
			bs_metrics[m].label, elapsed_s, rate);
	} else if (m == BS_M_SEEKS) {
		for (i = 0; i < p->procs; i++)
			fputs("done...", stderr);
		fputc('\n', stderr);
	} else if (m >= BS_M_FIRST_FILE) {
		fputs("done.\n", stderr);
	} else {
		fputs("done\n", stderr);
	}
	p->line.open_line = 0;
	fflush(stderr);
}

static void tag_run(const struct run_args *a, const struct bs_host *h,
		    struct bs_run *r)
{
	size_t i;

	bs_host_tag(h, r);
	/* How it measured: parameters, which identity reads (the tags as
	 * older bstores kept them too). */
	r->params.direct = a->o.direct ? 1 : 0;
	r->params.fsync = a->o.fsync_each ? 1 : 0;
	if (a->o.direct)
		bs_run_tag(r, "run.direct", "1");
	if (a->o.fsync_each)
		bs_run_tag(r, "run.fsync", "1");
	/* Not a measurement of the disk: the archive must say so. */
	if (a->o.no_sync)
		bs_run_tag(r, "run.no_sync", "1");
	for (i = 0; i < a->tags.n; i++)
		bs_run_tag(r, a->tags.tag[i].key, a->tags.tag[i].value);
}

/* Usage errors, the RAM rule and the directory: 0 or an exit status. */
static int check_args(struct bs_cli *cli, struct run_args *a)
{
	struct bs_err err = BS_ERR_INIT;
	struct stat sb;
	int e;

	a->o.tool_version = BSTORE_VERSION;
	/* bonnie++'s RAM rule; -r 0 turns it off. */
	if (bs_bench_opts_ram_rule(&a->o, a->size_given,
				   a->ram_mib < 0 ? bs_host_ram_mib()
						  : a->ram_mib,
				   &err) < 0 ||
	    bs_bench_check(&a->o, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	e = stat(a->o.dir, &sb) != 0 ? errno
	    : !S_ISDIR(sb.st_mode)   ? ENOTDIR
				     : 0;
	if (e != 0) {
		bs_cli_error(cli, "cannot use directory '%s': %s", a->o.dir,
			     strerror(e));
		return BS_EXIT_FAIL;
	}
	if (access(a->o.dir, W_OK | X_OK) != 0) {
		bs_cli_error(cli, "cannot write in directory '%s': %s",
			     a->o.dir, strerror(errno));
		return BS_EXIT_FAIL;
	}
	return 0;
}

static int measure(const struct bs_cli *cli, void *ctx, uint64_t it,
		   struct bs_run *r, struct bs_err *err)
{
	struct progress *p = ctx;

	(void)cli;
	(void)it;
	if (!p->a->seed_given)
		p->a->o.seed = new_seed();
	return bs_bench_run(&p->a->o, &p->cb, r, err);
}

/* Prints the table and the CSV line, and tags the run. */
static int to_run(const struct bs_cli *cli, void *ctx,
		  const struct bs_host *host, struct bs_run *r)
{
	struct progress *p = ctx;

	(void)cli;
	if (p->a->csv != BS_CSV_1_98) {
		bs_buf_reset(&p->out);
		bs_bonnie_csv(r, p->a->csv, &p->out);
		bs_run_set(&r->raw, bs_buf_str(&p->out));
	}
	bs_buf_reset(&p->out);
	bs_bonnie_table(r, BS_TABLE_2, &p->out);
	fputs(bs_buf_str(&p->out), p->a->quiet_csv ? stderr : stdout);
	printf("%s\n", r->raw);
	/* A full or closed stdout loses the printout, not the run: keep
	 * errno (it is gone by the end), store, then say it. */
	p->out_errno = fflush(stdout) != 0 ? errno : 0;
	tag_run(p->a, host, r);
	return BS_EXIT_OK;
}

static int stored(const struct bs_cli *cli, void *ctx,
		  const struct bs_store *st, int rc)
{
	struct progress *p = ctx;

	if (p->out_errno != 0 && !p->out_failed) {
		bs_cli_error(cli, "cannot write output: %s%s",
			     strerror(p->out_errno),
			     st && rc == 0 ? " (the results are stored)" : "");
		p->out_failed = 1;
	}
	return rc;
}

int cmd_run(struct bs_cli *cli, int argc, char **argv)
{
	struct run_args a;
	struct progress prog;
	struct bs_cli_measuring m;
	int rc, done;

	memset(&a, 0, sizeof(a));
	memset(&prog, 0, sizeof(prog));
	rc = parse_args(cli, argc, argv, &a, &done);
	if (rc == 0 && !done)
		rc = check_args(cli, &a);
	if (rc != 0 || done)
		goto out;

	bs_cli_progress_init(&prog.line, cli, 0);
	prog.procs = (uint32_t)a.o.p.seek_procs;
	prog.a = &a;
	prog.cb.start = on_start;
	prog.cb.progress = on_progress;
	prog.cb.done = on_done;
	prog.cb.ctx = &prog;
	memset(&m, 0, sizeof(m));
	m.dir = a.o.dir;
	m.store = !a.no_store;
	m.count = a.count;
	m.scratch = 1;
	m.noun = "iteration";
	m.progress = &prog.line;
	m.ctx = &prog;
	m.measure = measure;
	m.to_run = to_run;
	m.stored = stored;
	rc = bs_cli_measure(cli, &m);
	if (rc == BS_EXIT_OK && prog.out_failed)
		rc = BS_EXIT_FAIL;
	/* Reported above: main() would name a stale errno. */
	if (prog.out_failed)
		clearerr(stdout);
out:
	bs_buf_release(&prog.out);
	bs_cli_tags_release(&a.tags);
	return rc;
}
