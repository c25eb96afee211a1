/*
 * cli/cmd_run.c - `bstore run`: bonnie++-style options (their syntax and
 * limits are core/bench_opts.h's), progress on stderr, the result table
 * and CSV line, and one stored run per iteration (core/bench.h does the
 * measuring).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/bench.h"
#include "core/bench_opts.h"
#include "core/bonnie_text.h"
#include "core/host.h"
#include "core/scratch.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

/* clang-format off */
static void usage(FILE *f)
{
	fputs(
"Usage: bstore run [-d DIR] [-s SIZE[:CHUNK[:SEEKS[:PROCS]]]]\n"
"                  [-n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]] [-m NAME] [-r RAM]\n"
"                  [-x COUNT] [-f[SIZE]] [-b] [-D] [-z SEED] [-q] [-c N]\n"
"                  [--tag KEY=VALUE]... [--no-store] [--no-sync]\n"
"                  [--csv-format 1.98|1.03]\n"
"\n"
"Runs bonnie++ 2.00a's disk benchmark the way bonnie++ measures it, prints\n"
"bonnie++'s result table and CSV line, and stores every iteration in the\n"
"archive with the host's kernel, file system, mount options, disk model,\n"
"RAM and CPU as host.* tags.\n"
"\n"
"Options (spelled as bonnie++ spells them; sizes take k/m/g suffixes):\n"
"  -d DIR      directory to test (default: the current one); bstore works\n"
"              in a private subdirectory it creates and always removes\n"
"  -s SIZE[:CHUNK[:SEEKS[:PROCS]]]\n"
"              I/O test file size in MiB (default: twice the RAM, at least\n"
"              300M; 0 skips the I/O tests), chunk size in bytes (power of\n"
"              2, 256 to 1m, default 8k), number of random seeks (default\n"
"              8192) and seek threads (default 5)\n"
"  -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]\n"
"              file tests: NUM x 1024 files (default 16; 0 skips them),\n"
"              of MIN to MAX bytes (default 0: empty; MAX -1 makes hard\n"
"              links, -2 symbolic links), in DIRS directories, written in\n"
"              CHUNK-byte pieces (default 8k)\n"
"  -m NAME     machine name (default: the host name)\n"
"  -r RAM      RAM in MiB for the size check (default: detected); the I/O\n"
"              file must be twice the RAM, or reads come from the page\n"
"              cache; -r 0 turns the check off\n"
"  -x COUNT    run the whole suite COUNT times; each is stored as a run\n"
"  -f[SIZE]    -f skips the per-char tests; -fSIZE (attached) sets their\n"
"              size in MiB (default 3)\n"
"  -b          fsync after every write (and directory fsync for files)\n"
"  -D          O_DIRECT for block write, rewrite, block read and seeks\n"
"  -z SEED     random seed (default: a new one for each iteration)\n"
"  -q          quiet: only the CSV line on stdout (the table goes to\n"
"              stderr)\n"
"  -c N        concurrency: recorded only, as bonnie++ 2.00a does (it\n"
"              never runs tests concurrently), so results compare\n"
"  --tag KEY=VALUE\n"
"              add a tag to the stored runs (repeatable)\n"
"  --no-store  measure and print, but store nothing\n"
"  --no-sync   for tests of the output only: no fsync or syncfs at all, so\n"
"              the results measure the page cache, not the disk; stored\n"
"              runs are tagged run.no_sync=1\n"
"  --csv-format 1.98|1.03\n"
"              CSV layout printed and stored (default 1.98, as bonnie++\n"
"              2.00a; 1.03 is the 27-field layout of bonnie++ 1.0x)\n"
"  -h, --help  this help\n"
"\n"
"Progress goes to stderr. A test under 0.5 s shows as +++++ (too fast to\n"
"measure). SIGINT, SIGTERM, SIGHUP, SIGQUIT, or SIGPIPE (output piped\n"
"into a reader that quit) stop the run: scratch files are removed, the\n"
"unfinished iteration is not stored, and the exit status is 128 + the\n"
"signal (130 for SIGINT, 143 for SIGTERM, 141 for SIGPIPE).\n",
		f);
}
/* clang-format on */

/* What the options say, before they become struct bs_bench_opts. */
struct run_args {
	struct bs_bench_opts o;
	int size_given;
	int64_t ram_mib;      /* -r; -1: detect */
	uint64_t count;       /* -x */
	int seed_given;
	int quiet_csv;        /* -q */
	int no_store;
	enum bs_csv_format csv;
	struct bs_tag *tags;  /* from --tag, owned */
	size_t ntags, tags_cap;
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

enum {
	OPT_TAG = 256,
	OPT_NO_STORE,
	OPT_NO_SYNC,
	OPT_CSV_FORMAT,
};

static int parse_args(struct bs_cli *cli, int argc, char **argv,
		      struct run_args *a, int *done)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{"tag", required_argument, NULL, OPT_TAG},
		{"no-store", no_argument, NULL, OPT_NO_STORE},
		{"no-sync", no_argument, NULL, OPT_NO_SYNC},
		{"csv-format", required_argument, NULL, OPT_CSV_FORMAT},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = ":d:s:n:m:r:x:f::bDz:qc:h";
	struct bs_err err = BS_ERR_INIT;
	struct utsname u;
	char q[BS_CLI_QUOTE_SIZE];
	int c;

	*done = 0;
	bs_bench_defaults(&a->o);
	a->ram_mib = -1;
	a->count = 1;
	a->csv = BS_CSV_1_98;
	if (uname(&u) == 0)
		snprintf(a->hostname, sizeof(a->hostname), "%s", u.nodename);
	a->o.machine = a->hostname;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			a->o.dir = optarg;
			break;
		case 's':
			if (bs_bench_opts_parse_s(&a->o, optarg, &err) < 0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			a->size_given = 1;
			break;
		case 'n':
			if (bs_bench_opts_parse_n(&a->o, optarg, &err) < 0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case 'm':
			if (!clean_text(optarg))
				return bs_cli_usage_error(
					cli,
					"-m: a machine name must not contain "
					"',' or control characters (it would "
					"break the CSV line)");
			a->o.machine = optarg;
			break;
		case 'r':
			if (bs_bench_opts_parse_ram(optarg, &a->ram_mib, &err) <
			    0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case 'x':
			if (bs_parse_u64(optarg, strlen(optarg), &a->count) <
				    0 ||
			    a->count < 1)
				return bs_cli_usage_error(
					cli, "-x: bad count '%s'",
					bs_cli_quote(q, optarg));
			break;
		case 'f':
			if (bs_bench_opts_parse_f(&a->o, optarg, &err) < 0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case 'b':
			a->o.fsync_each = 1;
			break;
		case 'D':
			a->o.direct = 1;
			break;
		case 'z':
			if (bs_parse_u64(optarg, strlen(optarg), &a->o.seed) <
			    0)
				return bs_cli_usage_error(
					cli, "-z: bad seed '%s'",
					bs_cli_quote(q, optarg));
			a->seed_given = 1;
			break;
		case 'q':
			a->quiet_csv = 1;
			break;
		case 'c':
			if (bs_bench_opts_parse_c(&a->o, optarg, &err) < 0)
				return bs_cli_usage_error(cli, "%s", err.msg);
			break;
		case OPT_TAG:
			if (bs_cli_tag_arg(cli, optarg, &a->tags, &a->ntags,
					   &a->tags_cap) != 0)
				return BS_EXIT_USAGE;
			break;
		case OPT_NO_STORE:
			a->no_store = 1;
			break;
		case OPT_NO_SYNC:
			a->o.no_sync = 1;
			break;
		case OPT_CSV_FORMAT:
			if (bs_csv_format_parse(optarg, &a->csv) < 0)
				return bs_cli_usage_error(
					cli, "--csv-format: expected %s, got '%s'",
					bs_csv_format_names(),
					bs_cli_quote(q, optarg));
			break;
		case 'h':
			usage(stdout);
			*done = 1;
			return BS_EXIT_OK;
		default: /* '?' and ':' */
			return bs_cli_bad_option(cli, argv, shortopts, opts);
		}
	}
	if (optind < argc)
		return bs_cli_usage_error(cli, "unexpected argument '%s'",
					  bs_cli_quote(q, argv[optind]));
	return 0;
}

/* Progress on stderr. */
struct progress {
	int tty;        /* a live line, else bonnie++'s "...done" lines */
	int quiet;      /* --quiet: nothing */
	int open_line;  /* a line is started and not ended */
	uint32_t procs; /* for "start 'em...done...done..." */
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
	if (p->quiet)
		return;
	if (p->tty)
		fprintf(stderr, "\r%-16s    0.0 s\033[K", bs_metrics[m].label);
	else
		fputs(bonnie_label(m), stderr);
	p->open_line = 1;
	fflush(stderr);
}

static void on_progress(enum bs_metric m, uint64_t done, uint64_t total,
			double elapsed_s, void *ctx)
{
	struct progress *p = ctx;
	char rate[48];
	double amount = (double)done;

	if (p->quiet || !p->tty || elapsed_s <= 0)
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

	if (p->quiet)
		return;
	if (p->tty) {
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
	p->open_line = 0;
	fflush(stderr);
}

static void end_line(struct progress *p)
{
	if (p->open_line) {
		fputc('\n', stderr);
		p->open_line = 0;
	}
}

static void tag_run(const struct run_args *a, const struct bs_host *h,
		    struct bs_run *r)
{
	size_t i;

	bs_host_tag(h, r);
	if (a->o.direct)
		bs_run_tag(r, "run.direct", "1");
	if (a->o.fsync_each)
		bs_run_tag(r, "run.fsync", "1");
	/* Not a measurement of the disk: the archive must say so. */
	if (a->o.no_sync)
		bs_run_tag(r, "run.no_sync", "1");
	for (i = 0; i < a->ntags; i++)
		bs_run_tag(r, a->tags[i].key, a->tags[i].value);
}

int cmd_run(struct bs_cli *cli, int argc, char **argv)
{
	struct run_args a;
	struct progress prog;
	struct bs_bench_cb cb;
	struct bs_host host;
	struct bs_store *st = NULL;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;
	struct bs_buf out = BS_BUF_INIT;
	struct stat sb;
	uint64_t it;
	int rc, done, sig, e, out_failed = 0;
	size_t i;

	memset(&a, 0, sizeof(a));
	bs_run_init(&r);
	rc = parse_args(cli, argc, argv, &a, &done);
	if (rc != 0 || done)
		goto out;
	a.o.tool_version = BSTORE_VERSION;
	/* bonnie++'s RAM rule; -r 0 turns it off. */
	if (bs_bench_opts_ram_rule(&a.o, a.size_given,
				   a.ram_mib < 0 ? bs_host_ram_mib()
						 : a.ram_mib,
				   &err) < 0 ||
	    bs_bench_check(&a.o, &err) < 0) {
		rc = bs_cli_usage_error(cli, "%s", err.msg);
		goto out;
	}
	e = stat(a.o.dir, &sb) != 0 ? errno
	    : !S_ISDIR(sb.st_mode)  ? ENOTDIR
				    : 0;
	if (e != 0) {
		bs_cli_error(cli, "cannot use directory '%s': %s", a.o.dir,
			     strerror(e));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (access(a.o.dir, W_OK | X_OK) != 0) {
		bs_cli_error(cli, "cannot write in directory '%s': %s",
			     a.o.dir, strerror(errno));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	/* Open the archive first: a bad --db should not cost a run. */
	if (!a.no_store) {
		rc = bs_cli_open_measure_store(cli, &st);
		if (rc != 0)
			goto out;
	}
	if (bs_host_probe(a.o.dir, &host, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}

	memset(&prog, 0, sizeof(prog));
	prog.tty = isatty(STDERR_FILENO);
	prog.quiet = cli->quiet;
	prog.procs = (uint32_t)a.o.p.seek_procs;
	cb.start = on_start;
	cb.progress = on_progress;
	cb.done = on_done;
	cb.ctx = &prog;

	bs_signals_install();
	for (it = 0; it < a.count; it++) {
		if (!a.seed_given)
			a.o.seed = new_seed();
		if (a.count > 1 && !cli->quiet)
			fprintf(stderr, "Iteration %llu of %llu\n",
				(unsigned long long)it + 1,
				(unsigned long long)a.count);
		bs_run_release(&r);
		bs_err_reset(&err);
		rc = bs_bench_run(&a.o, &cb, &r, &err);
		end_line(&prog);
		sig = bs_signal_pending();
		if (sig) {
			bs_cli_error(cli,
				     "stopped by %s; scratch files removed, "
				     "iteration %llu not stored",
				     bs_cli_signal_name(sig),
				     (unsigned long long)it + 1);
			if (rc < 0 && err.code != BS_EINTR)
				bs_cli_perr(cli, &err);
			rc = 128 + sig;
			goto out;
		}
		if (rc < 0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		if (a.csv != BS_CSV_1_98) {
			bs_buf_reset(&out);
			bs_bonnie_csv(&r, a.csv, &out);
			bs_run_set(&r.raw, bs_buf_str(&out));
		}
		bs_buf_reset(&out);
		bs_bonnie_table(&r, BS_TABLE_2, &out);
		fputs(bs_buf_str(&out), a.quiet_csv ? stderr : stdout);
		printf("%s\n", r.raw);
		/* A full or closed stdout loses the printout, not the run:
		 * keep errno (it is gone by the end), store, then say it. */
		e = fflush(stdout) != 0 ? errno : 0;
		tag_run(&a, &host, &r);
		rc = st ? bs_cli_store_new(cli, st, &r) : 0;
		if (e != 0 && !out_failed) {
			bs_cli_error(cli, "cannot write output: %s%s",
				     strerror(e),
				     st && rc == 0 ? " (the results are stored)"
						   : "");
			out_failed = 1;
		}
		sig = bs_signal_pending();
		if (rc != 0 && sig) {
			bs_cli_error(cli,
				     "stopped by %s while waiting for the "
				     "archive; iteration %llu not stored",
				     bs_cli_signal_name(sig),
				     (unsigned long long)it + 1);
			rc = 128 + sig;
		}
		if (rc != 0)
			goto out;
	}
	rc = out_failed ? BS_EXIT_FAIL : BS_EXIT_OK;
out:
	/* Reported above: main() would name a stale errno. */
	if (out_failed)
		clearerr(stdout);
	bs_signals_restore();
	bs_store_close(st);
	bs_run_release(&r);
	bs_buf_release(&out);
	for (i = 0; i < a.ntags; i++) {
		free(a.tags[i].key);
		free(a.tags[i].value);
	}
	free(a.tags);
	return rc;
}
