/*
 * cli/cmd_fileio.c - `bstore fileio`: sysbench 1.0.20's fileio test
 * (core/fileio.h measures; core/fileio_opts.c holds the options), its
 * text on stdout, progress on stderr, and the run stored with the host's
 * facts.
 */
#define _GNU_SOURCE /* O_PATH */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/msg.h"
#include "cli/guard.h"
#include "cli/opt.h"
#include "core/fileio.h"
#include "core/host.h"
#include "core/scratch.h"
#include "util/mem.h"
#include "util/banned.h"

enum step { STEP_ALL, STEP_PREPARE, STEP_RUN, STEP_CLEANUP };

struct fileio_args {
	struct bs_fileio_opts o;
	enum step step;
	const char *dir;
	const char *machine;
	int no_store;
	struct bs_cli_tags tags; /* --tag */
	char hostname[256];
};

/*
 * sysbench's options are core/fileio_opts.c's table (core/fileio.h): it
 * parses their values, sets their defaults and names their words for the
 * benchmark itself, and core/ knows nothing of the command line. Its rows
 * become rows of this command's table here, one each, and an alias is a
 * row that warns first.
 */
static int set_sysbench(const struct bs_cli *cli, const struct bs_opt *o,
			const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	if (bs_fileio_option_set(field, o->data, arg, &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	return 0;
}

static int set_alias(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	const struct bs_fileio_alias *al = &bs_fileio_aliases[o->data];
	struct bs_opt real = *o;

	/* As sysbench 1.0.20 says it. */
	bs_cli_warn(cli, "--%s is deprecated, use --%s instead", al->name,
		    al->option);
	real.data = bs_fileio_option_find(al->option);
	assert(real.data >= 0);
	return set_sysbench(cli, &real, arg, field);
}

static const struct bs_opt *sysbench_rows(void)
{
	static struct bs_opt rows[80];
	static char alias_help[8][80];
	static int n;
	const struct bs_fileio_option *fo;
	int i;

	if (n > 0)
		return rows;
	if (bs_fileio_noptions + bs_fileio_naliases + 2 >
		    (int)(sizeof(rows) / sizeof(rows[0])) ||
	    bs_fileio_naliases > 8)
		BS_BUG("the fileio option table outgrew its rows");
	rows[n++] = (struct bs_opt)BS_OPT_GROUP(
		"sysbench's options (sizes take k, m, g, t suffixes, "
		"1024-based):");
	for (i = 0; i < bs_fileio_noptions; i++) {
		fo = &bs_fileio_options[i];
		rows[n++] = (struct bs_opt){0,
					    fo->name,
					    fo->arg,
					    BS_OPT_EQ | (fo->kind == BS_FK_BOOL
								 ? BS_OPT_OPTARG
								 : 0),
					    set_sysbench,
					    offsetof(struct fileio_args, o),
					    fo->help,
					    fo->dflt,
					    0,
					    0,
					    i};
	}
	for (i = 0; i < bs_fileio_naliases; i++) {
		fo = &bs_fileio_options[bs_fileio_option_find(
			bs_fileio_aliases[i].option)];
		snprintf(alias_help[i], sizeof(alias_help[i]),
			 "deprecated alias for --%s", fo->name);
		rows[n++] = (struct bs_opt){0,
					    bs_fileio_aliases[i].name,
					    fo->arg,
					    BS_OPT_EQ,
					    set_alias,
					    offsetof(struct fileio_args, o),
					    alias_help[i],
					    NULL,
					    0,
					    0,
					    i};
	}
	rows[n] = (struct bs_opt)BS_OPT_END;
	return rows;
}

#define O(f) offsetof(struct fileio_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_GROUP("bstore's options:"),
	{'d', NULL, "DIR", 0, bs_opt_str, O(dir),
	 "the directory of the files (default: the current one)", NULL, 0, 0,
	 0},
	{'m', NULL, "NAME", 0, bs_opt_str, O(machine),
	 "machine name (default: the host name)", NULL, 0, 0, 0},
	BS_OPT_TAG(struct fileio_args, tags, "run"),
	BS_OPT_NO_STORE(struct fileio_args, no_store),
	BS_OPT_END,
};
#undef O

/* clang-format off */
const struct bs_opt_cmd bs_cmd_fileio = {
"fileio", cmd_fileio, "run sysbench's fileio test and store it",
"[-d DIR] [OPTIONS] prepare|run|cleanup\n-d DIR [OPTIONS]",
"Runs sysbench 1.0.20's fileio test the way sysbench runs it, prints\n"
"sysbench's report (bstore ingest reads it back) and stores the run with\n"
"the host's kernel, file system, mount options, disk model, RAM and CPU\n"
"as host.* tags.\n"
"\n"
"prepare, run and cleanup are sysbench's steps, on test_file.0 ... in the\n"
"current directory or DIR. Without a step, bstore prepares, runs and\n"
"cleans up in a private directory it creates inside DIR and always\n"
"removes, on success, failure or a signal.\n",
	opts,
"Latencies print with 4 decimals (sysbench prints 2, and 3 in its\n"
"--histogram rows). --file-io-mode=async uses Linux native AIO, with\n"
"--file-async-backlog requests in flight per thread; a request's latency\n"
"is the time to submit it (and, with the backlog full, to reap at least\n"
"one), as sysbench measures it.\n"
"The latency histogram is stored with every run. --rand-type is\n"
"uniform unless asked: sysbench 1.0.20's fileio draws its offsets\n"
"uniformly whatever --rand-type says; bstore honours it. A total size\n"
"under twice the RAM (without direct) measures the page cache: bstore\n"
"says so. SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE stop a run: nothing\n"
"is stored, scratch files are removed, and the exit status is 128 + the\n"
"signal.\n",
"bstore fileio -d /mnt/test --file-test-mode=rndrw --threads=4",
	sysbench_rows, 26, 0,
};
/* clang-format on */

static int parse_args(struct bs_cli *cli, int argc, char **argv,
		      struct fileio_args *a, int *done)
{
	static const char *const steps[] = {"prepare", "run", "cleanup"};
	char q[BS_CLI_QUOTE_SIZE];
	int i, rc;

	*done = 0;
	bs_fileio_defaults(&a->o);
	a->dir = ".";
	a->machine = bs_cli_host_name(a->hostname, sizeof(a->hostname));
	if (bs_opt_parse(cli, &bs_cmd_fileio, argc, argv, a, NULL, &rc) ==
	    BS_OPT_EXIT) {
		*done = rc == BS_EXIT_OK;
		return rc;
	}
	rc = 0;
	bs_fileio_settle(&a->o);
	a->step = STEP_ALL;
	if (optind < argc) {
		for (i = 0; i < 3; i++)
			if (strcmp(argv[optind], steps[i]) == 0)
				a->step = (enum step)(i + 1);
		if (a->step == STEP_ALL) {
			rc = bs_cli_usage_error(
				cli,
				"'%s' is not a step: expected prepare, run or "
				"cleanup",
				bs_cli_quote(q, argv[optind]));
			goto out;
		}
		optind++;
	}
	if (optind < argc) {
		rc = bs_cli_usage_error(cli, "unexpected argument '%s'",
					bs_cli_quote(q, argv[optind]));
		goto out;
	}
out:
	return rc;
}

/* Progress on stderr (a live line on a terminal, else nothing), and the
 * step's state for the driver (cli/cli.h, bs_cli_measure). */
struct progress {
	struct bs_cli_progress line; /* erased when it ends */
	const char *what;            /* "prepare", "run" */
	struct bs_buf *text;         /* the run's text, for the interval rows */
	const struct bs_fileio_opts *o;
	struct fileio_args *a;
	const struct bs_cli *cli;
	struct bs_fileio_cb cb;
	struct bs_fileio_dir d;
	struct bs_fileio_result res;
	struct bs_scratch scratch;
	int opened; /* scratch is open */
	int dirfd;
	int ran; /* a run was measured, to be stored */
	int64_t measured_at;
};

static void end_line(struct progress *p)
{
	bs_cli_progress_end(&p->line);
}

static void on_progress(double elapsed_s, uint64_t done, uint64_t total,
			void *ctx)
{
	struct progress *p = ctx;

	if (p->line.quiet || !p->line.tty)
		return;
	if (strcmp(p->what, "prepare") == 0)
		fprintf(stderr, "\rprepare: %6.1f s  %.1f of %.1f MiB\033[K",
			elapsed_s, (double)done / 1048576.0,
			(double)total / 1048576.0);
	else if (p->o->time_s)
		fprintf(stderr, "\rrun: %6.1f s of %llu  %llu events\033[K",
			elapsed_s, (unsigned long long)p->o->time_s,
			(unsigned long long)done);
	else
		fprintf(stderr, "\rrun: %6.1f s  %llu of %llu events\033[K",
			elapsed_s, (unsigned long long)done,
			(unsigned long long)total);
	p->line.open_line = 1;
	fflush(stderr);
}

static void on_interval(const struct bs_fileio_interval *iv, void *ctx)
{
	struct progress *p = ctx;
	size_t at = p->text->len;

	end_line(p);
	bs_fileio_text_interval(p->o, iv, p->text);
	fputs(bs_buf_str(p->text) + at, stdout);
	fflush(stdout);
}

/* prepare's lines: stdout for the step, stderr in the one-shot form. */
static void on_line_out(const char *text, void *ctx)
{
	struct progress *p = ctx;

	end_line(p);
	printf("%s\n", text);
}

static void on_line_err(const char *text, void *ctx)
{
	struct progress *p = ctx;

	end_line(p);
	if (!p->line.quiet)
		fprintf(stderr, "%s\n", text);
}

static int check_dir(struct bs_cli *cli, const char *dir)
{
	struct stat sb;
	int e = stat(dir, &sb) != 0    ? errno
		: !S_ISDIR(sb.st_mode) ? ENOTDIR
				       : 0;

	if (e == 0 && access(dir, W_OK | X_OK) != 0)
		e = errno;
	if (e != 0) {
		bs_cli_error(cli, "cannot use directory '%s': %s", dir,
			     strerror(e));
		return BS_EXIT_FAIL;
	}
	return 0;
}

/* The page cache rule of bonnie++ (bstore run), as a warning. */
static void ram_rule(struct bs_cli *cli, const struct bs_fileio_opts *o)
{
	int64_t ram = bs_host_ram_mib();

	if (ram <= 0 || (o->extra_flags & BS_FILEIO_F_DIRECT))
		return;
	if (o->total_size / 1048576 < (uint64_t)ram * 2)
		bs_cli_warn(cli,
			    "--file-total-size %llu MiB is less than twice "
			    "the RAM (%lld MiB): reads and writes may be "
			    "served by the page cache, not the disk; use "
			    "--file-total-size=%lldM or more, or "
			    "--file-extra-flags=direct",
			    (unsigned long long)(o->total_size / 1048576),
			    (long long)ram, (long long)ram * 2);
}

/*
 * prepare, run and cleanup write and remove test_file.N in DIR, files
 * bstore did not make itself: none may be the archive or a volume in use
 * (cli/guard.h).
 */
static int guard_files(const struct bs_cli *cli, const struct fileio_args *a)
{
	struct bs_buf path = BS_BUF_INIT;
	char name[32];
	uint64_t i;
	int rc = 0;

	for (i = 0; i < a->o.file_num && rc == 0; i++) {
		bs_fileio_file_name(name, sizeof(name), i);
		bs_buf_reset(&path);
		bs_buf_addf(&path, "%s/%s", a->dir, name);
		rc = bs_cli_guard(cli, bs_buf_str(&path), NULL);
	}
	bs_buf_release(&path);
	return rc;
}

/* Checks before the archive opens: 0 or an exit status. */
static int check_args(struct bs_cli *cli, struct fileio_args *a)
{
	struct bs_err err = BS_ERR_INIT;
	int rc;

	if (bs_fileio_check(&a->o, a->step == STEP_ALL || a->step == STEP_RUN,
			    &err) < 0)
		return bs_cli_usage_error(cli, "%s", err.msg);
	if (a->step == STEP_ALL && a->o.mode == BS_FILEIO_NOMODE)
		return bs_cli_usage_error(cli, "missing --file-test-mode");
	rc = check_dir(cli, a->dir);
	if (rc == 0 && a->step != STEP_ALL)
		rc = guard_files(cli, a);
	if (rc == 0 && (a->step == STEP_ALL || a->step == STEP_RUN))
		ram_rule(cli, &a->o);
	return rc;
}

/* The directory the files go in: a new scratch (no step), or DIR. */
static int open_dir(struct progress *p, struct bs_err *err)
{
	memset(&p->d, 0, sizeof(p->d));
	p->d.fd = -1;
	p->d.path = p->a->dir;
	if (p->a->step == STEP_ALL) {
		int rc = bs_scratch_open(&p->scratch, p->a->dir, err);

		if (rc < 0)
			return rc;
		p->opened = 1;
		p->d.scratch = &p->scratch;
		p->d.path = p->scratch.path;
		return 0;
	}
	p->dirfd = open(p->a->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd < 0)
		return bs_error(err, BS_EIO, "cannot use directory '%s': %s",
				p->a->dir, strerror(errno));
	p->d.fd = p->dirfd;
	return 0;
}

/* sysbench's prepare: its lines, then the files. */
static int prepare_files(struct progress *p, struct bs_err *err)
{
	const struct bs_fileio_opts *o = &p->a->o;
	int rc;

	p->what = "prepare";
	bs_buf_reset(p->text);
	bs_fileio_text_prepare(o, p->text);
	p->text->data[--p->text->len] = '\0'; /* cb.line adds it */
	p->cb.line(bs_buf_str(p->text), p);
	p->cb.line("Creating files for the test...", p);
	bs_buf_reset(p->text);
	bs_buf_adds(p->text, "Extra file open flags: ");
	if (o->extra_flags == 0)
		bs_buf_adds(p->text, "(none)");
	else
		bs_fileio_flags_text(o->extra_flags, p->text);
	p->cb.line(bs_buf_str(p->text), p);
	rc = bs_fileio_prepare(o, &p->d, &p->cb, err);
	end_line(p);
	return rc;
}

/* sysbench's run: its head, the intervals and the summary on stdout. */
static int run_test(const struct bs_cli *cli, struct progress *p,
		    struct bs_err *err)
{
	struct fileio_args *a = p->a;
	size_t at;
	int rc;

	p->what = "run";
	bs_buf_reset(p->text);
	if (a->o.rand_seed == 0)
		a->o.rand_seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	bs_fileio_text_head(&a->o, BSTORE_VERSION, a->o.rand_seed, p->text);
	fputs(bs_buf_str(p->text), stdout);
	fflush(stdout);
	p->measured_at = (int64_t)time(NULL);
	rc = bs_fileio_run(&a->o, &p->d, &p->cb, &p->res, err);
	end_line(p);
	if (rc < 0)
		return rc;
	at = p->text->len;
	bs_fileio_text_summary(&a->o, &p->res, p->text);
	fputs(bs_buf_str(p->text) + at, stdout);
	if (fflush(stdout) != 0)
		bs_cli_error(cli, "cannot write output: %s", strerror(errno));
	return 0;
}

/* The step asked for, in its scratch or DIR; the scratch goes before the
 * store: a failure to remove it is a failure of the run. */
static int measure(const struct bs_cli *cli, void *ctx, uint64_t it,
		   struct bs_run *r, struct bs_err *err)
{
	struct progress *p = ctx;
	struct bs_err cerr = BS_ERR_INIT;
	enum step step = p->a->step;
	int rc;

	(void)it;
	(void)r;
	rc = open_dir(p, err);
	if (rc == 0 && (step == STEP_PREPARE || step == STEP_CLEANUP))
		printf("bstore %s fileio (sysbench %s layout)\n\n",
		       BSTORE_VERSION, BS_FILEIO_SYSBENCH);
	if (rc == 0 && step == STEP_CLEANUP) {
		printf("Removing test files...\n");
		return bs_fileio_cleanup(&p->a->o, &p->d, err);
	}
	if (rc == 0 && (step == STEP_PREPARE ||
			(step == STEP_ALL && p->a->o.mode != BS_FILEIO_SEQWR)))
		rc = prepare_files(p, err);
	if (rc == 0 && step != STEP_PREPARE)
		rc = run_test(cli, p, err);
	if (rc == 0 && p->opened)
		rc = bs_scratch_close(&p->scratch, err);
	if (rc < 0) {
		end_line(p);
		if (p->opened && bs_scratch_close(&p->scratch, &cerr) < 0)
			bs_cli_perr(cli, &cerr);
	}
	p->opened = 0;
	p->ran = rc == 0 && step != STEP_PREPARE;
	return rc;
}

static int to_run(const struct bs_cli *cli, void *ctx,
		  const struct bs_host *host, struct bs_run *r)
{
	struct progress *p = ctx;
	const struct fileio_args *a = p->a;
	struct bs_buf *text = p->text;
	size_t i;

	(void)cli;
	if (!p->ran || a->no_store)
		return BS_EXIT_OK;
	/* The stored text ends at the last line, as ingest's. */
	while (text->len > 0 && text->data[text->len - 1] == '\n')
		text->data[--text->len] = '\0';
	bs_fileio_to_run(&a->o, &p->res, BSTORE_VERSION, a->machine,
			 p->measured_at, bs_buf_str(text), r);
	bs_host_tag(host, r);
	if (a->o.rand_type != BS_FILEIO_RAND_UNIFORM)
		bs_run_tag(r, "fileio.rand_type",
			   bs_fileio_word("rand-type", a->o.rand_type));
	if (a->o.validate)
		bs_run_tag(r, "fileio.validate", "1");
	for (i = 0; i < a->tags.n; i++)
		bs_run_tag(r, a->tags.tag[i].key, a->tags.tag[i].value);
	return BS_EXIT_OK;
}

int cmd_fileio(struct bs_cli *cli, int argc, char **argv)
{
	struct fileio_args a;
	struct progress prog;
	struct bs_cli_measuring m;
	struct bs_buf text = BS_BUF_INIT;
	int rc, done;

	memset(&a, 0, sizeof(a));
	memset(&prog, 0, sizeof(prog));
	prog.scratch = (struct bs_scratch)BS_SCRATCH_INIT;
	prog.dirfd = -1;
	rc = parse_args(cli, argc, argv, &a, &done);
	if (rc == 0 && !done)
		rc = check_args(cli, &a);
	if (rc != 0 || done)
		goto out;

	bs_cli_progress_init(&prog.line, cli, 1);
	prog.text = &text;
	prog.o = &a.o;
	prog.a = &a;
	prog.cli = cli;
	prog.cb.progress = on_progress;
	prog.cb.interval = on_interval;
	prog.cb.line = a.step == STEP_ALL ? on_line_err : on_line_out;
	prog.cb.ctx = &prog;
	memset(&m, 0, sizeof(m));
	m.dir = a.dir;
	m.store = !a.no_store && (a.step == STEP_ALL || a.step == STEP_RUN);
	m.count = 1;
	m.scratch = a.step == STEP_ALL;
	m.progress = &prog.line;
	m.ctx = &prog;
	m.measure = measure;
	m.to_run = to_run;
	rc = bs_cli_measure(cli, &m);
out:
	if (prog.dirfd >= 0)
		close(prog.dirfd);
	bs_fileio_result_release(&prog.res);
	bs_buf_release(&text);
	bs_cli_tags_release(&a.tags);
	return rc;
}
