/*
 * cli/cmd_ingest.c - `bstore ingest`: connects the parser to the store,
 * one transaction per input file, so an interrupted or failed file leaves
 * the archive as it was before that file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/cmd_ingest.h"
#include "cli/help.h"
#include "cli/input.h"
#include "cli/msg.h"
#include "core/validate.h"
#include "cli/opt.h"
#include "core/supply.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/readfile.h"
#include "util/similar.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* A fio run this command stored or found stored: where its log files
 * go (ingest_log). */
struct fio_job {
	int64_t id;
	char *jobname;  /* or NULL */
	char *prefixes; /* its BS_INGEST_FIO_LOG_TAG, or NULL */
	int job;        /* its number in its file: fio's N of _lat.N.log */
	double lat_div; /* its logs' latencies to us (lat_div()) */
};

struct ingest_opts {
	const struct bs_format *format; /* --format, or NULL */
	int64_t run_id; /* --run: the run fio's log files go to, or 0 */
	struct fio_job *jobs;
	size_t njobs, jobs_cap;
	char **tag_key;
	char **tag_val;
	size_t ntags;
	char **param_key; /* --param KEY=VALUE, in order */
	const char **param_val;
	size_t nparams;
	const char *machine;
	int64_t measured_at;
	int strict;
	int dry_run;
	int list_formats; /* --formats */
	/* bs_cli_ingest_fd's caller's last word on each run. */
	void (*adjust)(struct bs_run *r, void *ctx);
	void *adjust_ctx;
};

struct file_ctx {
	const struct bs_cli *cli;
	const struct ingest_opts *o;
	struct bs_store *st;
	const char *name;
	long long stored, dups, rejected;
	long long unnamed;              /* stored with no machine name */
	int64_t unnamed_lo, unnamed_hi; /* their ids */
	struct bs_err err;
	int failed;       /* a store error stopped the file */
	int fio_jobs;     /* fio runs of this file so far */
	int rejects_only; /* --strict after a reject: keep only rejects */
	int tty;          /* progress lines on stderr */
	/* When standard input or another input that can stall (a pipe)
	 * was read to its end: the date of its runs that have none;
	 * BS_NONE for a file named on the command line. */
	int64_t read_at;
	int shown_progress;
	double last_progress;
};

/*
 * A run stored already is kept as it was: a --measured-at or --machine
 * that says otherwise is not applied, and the warning says how to change
 * it (bstore set, which keeps the old value in the run's history).
 */
static int kept_as_it_was(struct file_ctx *c, const struct bs_run *r)
{
	struct bs_run old;
	struct bs_buf how = BS_BUF_INIT, was = BS_BUF_INIT;
	char t[48];
	int rc;

	size_t i;

	if (c->o->measured_at == BS_NONE && c->o->machine == NULL &&
	    c->o->nparams == 0)
		return 0;
	rc = bs_store_get(c->st, r->id, 0, &old, &c->err);
	if (rc < 0) {
		c->failed = 1;
		return rc;
	}
	if (c->o->measured_at != BS_NONE &&
	    old.measured_at != c->o->measured_at) {
		bs_buf_addf(&how, " measured_at=%s",
			    bs_time_iso(t, sizeof(t), c->o->measured_at));
		bs_buf_addf(&was, "measured at %s",
			    old.measured_at == BS_NONE
				    ? "an unknown date"
				    : bs_time_iso(t, sizeof(t),
						  old.measured_at));
	}
	if (c->o->machine &&
	    strcmp(old.machine ? old.machine : "", c->o->machine) != 0) {
		bs_buf_adds(&how, " machine=");
		bs_buf_adds(&how, c->o->machine);
		bs_buf_addf(&was, "%son %s", was.len ? ", " : "",
			    old.machine && old.machine[0]
				    ? old.machine
				    : "an " BS_STORE_NO_MACHINE);
	}
	/* A --param the stored run lacks (checked on the new one). */
	for (i = 0; i < c->o->nparams; i++) {
		struct bs_err no = BS_ERR_INIT;
		enum bs_supply_outcome how_old;

		if (bs_supply(&old, c->o->param_key[i], c->o->param_val[i],
			      &how_old, &no) < 0 ||
		    how_old != BS_SUPPLY_CHANGED)
			continue;
		bs_buf_addf(&how, " %s=%s", c->o->param_key[i],
			    c->o->param_val[i]);
		bs_buf_addf(&was, "%s%s unknown", was.len ? ", " : "",
			    c->o->param_key[i]);
	}
	if (how.len)
		bs_cli_warn(c->cli,
			    "%s:%lld: run %lld is stored already and kept as "
			    "it was (%s); 'bstore set %lld%s' changes it",
			    c->name, (long long)r->source_line,
			    (long long)r->id, bs_buf_str(&was),
			    (long long)r->id, bs_buf_str(&how));
	bs_run_release(&old);
	bs_buf_release(&how);
	bs_buf_release(&was);
	return 0;
}

/* fio 3 logs latencies in ns, fio 2 in us: the divisor to us. */
static double lat_div(const struct bs_run *r)
{
	const char *v = r->tool_version;

	return v && (v[0] == '1' || v[0] == '2') && v[1] == '.' ? 1 : 1000;
}

/* Forgets the fio runs noted for their logs. */
static void jobs_release(struct ingest_opts *o)
{
	size_t i;

	for (i = 0; i < o->njobs; i++) {
		free(o->jobs[i].jobname);
		free(o->jobs[i].prefixes);
	}
	free(o->jobs);
	o->jobs = NULL;
	o->njobs = o->jobs_cap = 0;
}

/* Notes fio run r (stored, or found stored: r->id) for its logs. */
static void note_fio_job(struct file_ctx *c, const struct bs_run *r)
{
	struct ingest_opts *o = (struct ingest_opts *)c->o;
	const char *pre = bs_run_tag_get(r, BS_INGEST_FIO_LOG_TAG);
	struct fio_job *j;

	c->fio_jobs++;
	xgrow((void **)&o->jobs, &o->jobs_cap, o->njobs + 1,
	      sizeof(o->jobs[0]));
	j = &o->jobs[o->njobs++];
	j->id = r->id;
	j->jobname = r->params.jobname ? xstrdup(r->params.jobname) : NULL;
	j->prefixes = pre ? xstrdup(pre) : NULL;
	j->job = c->fio_jobs;
	j->lat_div = lat_div(r);
}

static int on_run(struct bs_run *r, void *vctx)
{
	struct file_ctx *c = vctx;
	size_t i;
	enum bs_store_outcome how;
	int rc;

	if (c->o->machine)
		bs_run_set(&r->machine, c->o->machine);
	if (c->o->measured_at != BS_NONE)
		r->measured_at = c->o->measured_at;
	else if (r->measured_at == BS_NONE && c->read_at != BS_NONE) {
		/* A run piped in as the tool ends: dated by when it was
		 * read, marked so (core/result.h: no part in dedup). */
		r->measured_at = c->read_at;
		bs_run_tag(r, BS_DATE_SOURCE_TAG, BS_DATE_INGESTED);
	}
	if (c->rejects_only)
		return 0;
	/* --param: where the output left the parameter out (core/supply.h). */
	for (i = 0; i < c->o->nparams; i++) {
		struct bs_err why = BS_ERR_INIT;
		enum bs_supply_outcome given;

		if (bs_supply(r, c->o->param_key[i], c->o->param_val[i], &given,
			      &why) == 0)
			continue;
		c->failed = 1;
		return bs_error(&c->err, BS_EINVAL, "line %lld: --param %s",
				(long long)r->source_line, why.msg);
	}
	for (i = 0; i < c->o->ntags; i++)
		bs_run_tag(r, c->o->tag_key[i], c->o->tag_val[i]);
	if (c->o->adjust)
		c->o->adjust(r, c->o->adjust_ctx);
	rc = bs_store_put(c->st, r, &how, &c->err);
	if (rc < 0) {
		c->failed = 1;
		return rc;
	}
	if (r->family == BS_FAM_FIO)
		note_fio_job(c, r);
	if (how == BS_STORE_STORED) {
		c->stored++;
		if (r->machine == NULL || r->machine[0] == '\0') {
			if (c->unnamed++ == 0)
				c->unnamed_lo = r->id;
			c->unnamed_hi = r->id;
		}
		return 0;
	}
	c->dups++;
	if (how == BS_STORE_SAME_RUN && !c->cli->quiet) {
		bs_text_put(stdout, c->name, 0);
		printf(":%lld: duplicate of run %lld (the same measurement, "
		       "read from other text)\n",
		       (long long)r->source_line, (long long)r->id);
	}
	if (how == BS_STORE_REPLACED && !c->cli->quiet) {
		bs_text_put(stdout, c->name, 0);
		printf(":%lld: duplicate of run %lld (the same measurement, "
		       "read from other text: this CSV line's exact numbers "
		       "replace its table's)\n",
		       (long long)r->source_line, (long long)r->id);
	}
	if (how == BS_STORE_REPLACED)
		return 0;
	return kept_as_it_was(c, r);
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *vctx)
{
	struct file_ctx *c = vctx;
	int rc;

	c->rejected++;
	bs_cli_error(c->cli, "%s:%lld: %s", c->name, (long long)line, reason);
	/* --strict: no run of this file is stored, but its rejected lines
	 * are kept like any others. Drop the runs stored so far and keep
	 * only rejects from here on. */
	if (c->o->strict && !c->rejects_only) {
		c->rejects_only = 1;
		c->stored = c->dups = 0;
		bs_store_rollback(c->st);
		if (bs_store_begin(c->st, &c->err) < 0) {
			c->failed = 1;
			return -1;
		}
	}
	rc = bs_store_reject(c->st, c->name, line, raw, len, truncated, reason,
			     NULL, &c->err);
	if (rc < 0) {
		c->failed = 1;
		return rc;
	}
	return 0;
}

static void on_warn(int64_t line, const char *msg, void *vctx)
{
	struct file_ctx *c = vctx;

	bs_cli_warn(c->cli, "%s:%lld: %s", c->name, (long long)line, msg);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* On a terminal, a live line for inputs that take more than a second. */
static void progress(struct file_ctx *c, struct bs_ingest *p, int done)
{
	struct bs_ingest_stats s;
	double t = now_s();

	if (!c->tty || (!done && t - c->last_progress < 1.0))
		return;
	if (done && !c->shown_progress)
		return;
	c->last_progress = t;
	c->shown_progress = 1;
	bs_ingest_stats(p, &s);
	fprintf(stderr, "\r%s: %lld lines, %lld runs, %lld rejected%s", c->name,
		(long long)s.lines, (long long)s.runs, (long long)s.rejects,
		done ? "\n" : "");
	fflush(stderr);
}

/*
 * An input that can stall (a pipe, a FIFO, a socket, a terminal: anything
 * but a regular file) is read whole before the archive's lock is taken,
 * so that a writer that waits for its input (a benchmark piped in, a
 * stalled pipe) holds no lock while it waits: the lock is held while the
 * buffered text is parsed and stored, one transaction, then released. An
 * input larger than this is stored while it is read. A regular file
 * cannot stall: it is read as it is parsed, inside the transaction, in
 * the parser's own bounded memory (docs/team.md).
 */
#define INGEST_BUFFER_MAX ((size_t)64 << 20)

/* Can a read of fd wait on a writer? Everything but a regular file. */
static int may_stall(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode);
}

/*
 * Reads fd into in until its end (*more = 0) or until in holds
 * INGEST_BUFFER_MAX bytes (*more = 1). A stop signal ends the wait.
 */
static int read_input(int fd, struct bs_buf *in, struct file_ctx *c, int *more)
{
	static char chunk[1 << 16];
	ssize_t n;

	*more = 0;
	for (;;) {
		if (bs_stop_sig)
			return bs_error(&c->err, BS_EINTR, "interrupted");
		if (in->len >= INGEST_BUFFER_MAX) {
			*more = 1;
			return 0;
		}
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return bs_error(&c->err, BS_EIO, "cannot read '%s': %s",
					c->name, strerror(errno));
		}
		if (n == 0)
			return 0;
		bs_buf_add(in, chunk, (size_t)n);
	}
}

/* Feeds the parser len bytes of data, a chunk at a time (progress lines
 * and a stop signal in between). */
static int feed(struct bs_ingest *p, struct file_ctx *c, const char *data,
		size_t len)
{
	size_t off, n;
	int rc;

	for (off = 0; off < len; off += n) {
		progress(c, p, 0);
		if (bs_stop_sig)
			return bs_error(&c->err, BS_EINTR, "interrupted");
		n = len - off < ((size_t)1 << 16) ? len - off : (size_t)1 << 16;
		rc = bs_ingest_feed(p, data + off, n, &c->err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Parses the buffered input and, when it was larger than the buffer, the
 * rest of fd as it comes. */
static int parse_all(int fd, struct bs_ingest *p, struct file_ctx *c,
		     const struct bs_buf *in, int more)
{
	static char chunk[1 << 16];
	ssize_t n;
	int rc;

	c->last_progress = now_s();
	rc = feed(p, c, in->data ? in->data : "", in->len);
	while (rc == 0 && more) {
		if (bs_stop_sig)
			return bs_error(&c->err, BS_EINTR, "interrupted");
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return bs_error(&c->err, BS_EIO, "cannot read '%s': %s",
					c->name, strerror(errno));
		}
		if (n == 0)
			break;
		rc = feed(p, c, chunk, (size_t)n);
	}
	if (rc < 0)
		return rc;
	rc = bs_ingest_finish(p, &c->err);
	progress(c, p, 1);
	return rc;
}

/* "FILE: 3 runs stored, 0 duplicates, 0 rejected (bonnie++-csv-1.0x: 3)":
 * the runs read per format, stored or duplicate. */
static void summary(const struct file_ctx *c, const struct ingest_opts *o,
		    const struct bs_ingest_stats *s)
{
	int i, n = 0;

	bs_text_put(stdout, c->name, 0);
	printf(": %lld run%s %s, %lld duplicate%s, %lld rejected", c->stored,
	       c->stored == 1 ? "" : "s",
	       o->dry_run ? "would be stored" : "stored", c->dups,
	       c->dups == 1 ? "" : "s", c->rejected);
	for (i = 0; i < bs_nformats; i++)
		if (s->by_format[i] > 0)
			printf("%s%s: %lld", n++ ? ", " : " (",
			       bs_formats[i].name, (long long)s->by_format[i]);
	puts(n ? ")" : "");
}

/* "no results found (none of the 18 formats ...)". */
static void nothing_found(const struct bs_cli *cli, const struct file_ctx *c,
			  const struct ingest_opts *o,
			  const struct bs_ingest_stats *s)
{
	if (s->blocked > 0) {
		bs_cli_warn(cli,
			    "%s: no results in it (recognised output that "
			    "measures nothing, such as sysbench's prepare "
			    "or cleanup)",
			    c->name);
		return;
	}
	if (o->format)
		bs_cli_warn(cli, "%s: no results found (tried %s only)",
			    c->name, o->format->name);
	else
		bs_cli_warn(cli,
			    "%s: no results found (none of the %d formats "
			    "matched; 'bstore ingest --formats' lists "
			    "them)",
			    c->name, bs_nformats);
}

/*
 * Runs stored with no machine name (sysbench, fio, dd and zcav print
 * none): how many, and how to name them.
 */
static void unnamed(const struct bs_cli *cli, const struct file_ctx *c,
		    const struct ingest_opts *o)
{
	char sel[48];

	if (c->unnamed_lo == c->unnamed_hi)
		snprintf(sel, sizeof(sel), "%lld", (long long)c->unnamed_lo);
	else
		snprintf(sel, sizeof(sel), "%lld-%lld",
			 (long long)c->unnamed_lo, (long long)c->unnamed_hi);
	if (o->dry_run) {
		bs_cli_warn(cli,
			    "%s: %lld run%s would be stored with no machine "
			    "name (the output names none): ingest with -m "
			    "NAME names %s",
			    c->name, c->unnamed, c->unnamed == 1 ? "" : "s",
			    c->unnamed == 1 ? "it" : "them");
		return;
	}
	bs_cli_warn(cli,
		    "%s: %lld run%s stored with no machine name (the output "
		    "names none): 'bstore set %s machine=NAME' names %s, or "
		    "ingest with -m NAME",
		    c->name, c->unnamed, c->unnamed == 1 ? "" : "s", sel,
		    c->unnamed == 1 ? "it" : "them");
}

/* --formats: every format of the registry, as --help lists them. */
static void list_formats(void)
{
	bs_cli_help(stdout, "@FORMATS@\n");
}

/*
 * Commits one file's runs. A commit that fails (a full disk, an I/O
 * error) stores nothing of the file: it says so, naming the file.
 */
static int commit_file(const struct bs_cli *cli, struct bs_store *st,
		       struct file_ctx *c)
{
	if (bs_store_commit(st, &c->err) == 0)
		return 0;
	bs_store_rollback(st);
	bs_cli_error(cli,
		     "%s: cannot store its runs: %s; nothing stored "
		     "from this file",
		     c->name, c->err.msg);
	return -1;
}

/* Ingests what fd holds, called name in messages and records. */
static int ingest_fd(const struct bs_cli *cli, struct bs_store *st, int fd,
		     const char *name, const struct ingest_opts *o)
{
	struct file_ctx c;
	struct bs_ingest_cb cb;
	struct bs_ingest *p = NULL;
	struct bs_ingest_stats stats;
	struct bs_buf in = BS_BUF_INIT;
	int rc, more = 0;

	memset(&c, 0, sizeof(c));
	c.cli = cli;
	c.o = o;
	c.st = st;
	c.name = name;
	c.tty = !cli->quiet && isatty(STDERR_FILENO);
	cb.run = on_run;
	cb.reject = on_reject;
	cb.warn = on_warn;
	cb.ctx = &c;
	p = bs_ingest_new(c.name, &cb, o->format);
	/* An input that can stall first, without the lock; then the lock,
	 * the batch, the commit. A regular file is read inside. */
	rc = 0;
	more = 1;
	/* Standard input, a file redirected too, is the nightly job's
	 * tool just ended: its runs without a date are dated now. */
	c.read_at = fd == STDIN_FILENO ? bs_store_now() : BS_NONE;
	if (may_stall(fd)) {
		rc = read_input(fd, &in, &c, &more);
		c.read_at = bs_store_now();
	}
	if (rc == 0)
		rc = bs_store_begin(st, &c.err);
	if (rc == 0)
		rc = parse_all(fd, p, &c, &in, more);
	if (rc < 0) {
		bs_store_rollback(st);
		/* A signal also ends a wait for the archive's lock. */
		if (c.err.code == BS_EINTR || bs_stop_sig)
			bs_cli_error(cli,
				     "%s: interrupted; nothing stored "
				     "from this file",
				     c.name);
		else if (c.err.code == BS_EPARSE)
			bs_cli_error(cli, "%s: %s; nothing stored", c.name,
				     c.err.msg);
		else
			bs_cli_error(cli,
				     "%s: %s; nothing stored from this "
				     "file",
				     c.name, c.err.msg);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	bs_ingest_stats(p, &stats);
	if (o->strict && c.rejected > 0) {
		if (o->dry_run)
			bs_store_rollback(st);
		else if (commit_file(cli, st, &c) < 0) {
			rc = BS_EXIT_FAIL;
			goto out;
		}
		bs_cli_error(cli,
			     "%s: %lld line%s rejected; no run stored from "
			     "this file (--strict)%s",
			     c.name, c.rejected, c.rejected == 1 ? "" : "s",
			     o->dry_run ? ""
					: "; the rejected lines are kept "
					  "(bstore list --rejects)");
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (o->dry_run) {
		bs_store_rollback(st);
	} else if (commit_file(cli, st, &c) < 0) {
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (!cli->quiet && stats.lines > 0)
		summary(&c, o, &stats);
	rc = c.rejected > 0 ? BS_EXIT_FAIL : BS_EXIT_OK;
	if (c.unnamed > 0)
		unnamed(cli, &c, o);
	/* An empty input is a mistake (a command that printed nothing, the
	 * wrong file); one that holds no result is not: a capture may hold
	 * only sysbench's prepare, say. */
	if (stats.lines == 0) {
		bs_cli_error(cli, "%s: empty input; nothing stored", c.name);
		rc = BS_EXIT_FAIL;
	} else if (stats.runs == 0 && stats.rejects == 0) {
		nothing_found(cli, &c, o, &stats);
	}
out:
	bs_ingest_free(p);
	bs_buf_release(&in);
	return rc;
}

/* ---- fio's log files --------------------------------------------------- */

/* Whether the space-separated list holds the word w. */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	while (list && *list) {
		size_t k = strcspn(list, " ");

		if (k == n && memcmp(list, w, n) == 0)
			return 1;
		list += k + (list[k] == ' ');
	}
	return 0;
}

/*
 * The run a log named ln goes to: among this command's fio runs, those
 * of the log's prefix (the job's name, or its --write_*_log); of those
 * the one whose number in its file is the log's N, else the only one.
 * 0 when none or several fit (*fits says how many).
 */
static int64_t find_job(const struct ingest_opts *o,
			const struct bs_fio_log_name *ln, size_t *fits,
			double *div)
{
	int64_t one = 0;
	size_t i;

	*fits = 0;
	for (i = 0; i < o->njobs; i++) {
		const struct fio_job *j = &o->jobs[i];

		if (!(j->jobname && strcmp(j->jobname, ln->prefix) == 0) &&
		    !has_word(j->prefixes, ln->prefix))
			continue;
		if (ln->job > 0 && j->job == ln->job) {
			*div = j->lat_div;
			return j->id;
		}
		if (one != j->id) {
			one = j->id;
			*div = j->lat_div;
			(*fits)++;
		}
	}
	return *fits == 1 ? one : 0;
}

/* The exact summary of a log's direction, as its run's tag says it. */
static void log_summary(struct bs_buf *b, const char *path, int m,
			const struct bs_fio_log_sum *sum, size_t points)
{
	char a[32], c[32], d[32];
	const char *base = strrchr(path, '/');

	bs_buf_addf(b, "%lld entries of %s: min %s, mean %s, max %s %s; ",
		    (long long)sum->entries, base ? base + 1 : path,
		    bs_fmt_g(a, sizeof(a), sum->min),
		    bs_fmt_g(c, sizeof(c), sum->mean),
		    bs_fmt_g(d, sizeof(d), sum->max), bs_metrics[m].unit);
	if (sum->per_point > 1)
		bs_buf_addf(b,
			    "stored as %zu points, each the mean of %lld "
			    "entries",
			    points, (long long)sum->per_point);
	else
		bs_buf_addf(b, "stored whole (%zu points)", points);
}

/* Reads all of fd into in. */
static int read_all(int fd, struct bs_buf *in)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR && !bs_stop_sig)
			continue;
		if (n < 0)
			return -1;
		bs_buf_add(in, buf, (size_t)n);
	}
	return 0;
}

/*
 * Attaches fio log path (named ln) to its run: one transaction, and a
 * log that has no run to go to, or does not parse, stores nothing.
 */
static int ingest_log(const struct bs_cli *cli, struct bs_store *st,
		      const char *path, const struct bs_fio_log_name *ln,
		      struct ingest_opts *o)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf in = BS_BUF_INIT, tag = BS_BUF_INIT, said = BS_BUF_INIT;
	struct bs_fio_log_sum sum[3];
	struct bs_run r, logs;
	struct bs_ids ids = BS_IDS_INIT;
	int64_t id = o->run_id, n;
	size_t fits = 0, i, kept = 0;
	double div = 1000;
	int fd = -1, rc = BS_EXIT_FAIL, found = 0;

	bs_run_init(&r);
	bs_run_init(&logs);
	logs.family = BS_FAM_FIO;
	if (id == 0 && (id = find_job(o, ln, &fits, &div)) != 0)
		found = 1;
	if (id == 0) {
		if (fits > 1)
			bs_cli_error(cli,
				     "%s: %zu fio runs of this command are of "
				     "job '%s'; 'bstore ingest --run ID "
				     "%s' says which; nothing stored from "
				     "this file",
				     path, fits, ln->prefix, path);
		else
			bs_cli_error(cli,
				     "%s: no fio run to attach this log to: "
				     "no job '%s' among the fio runs of this "
				     "command (ingest the log with its job's "
				     "JSON or text output, or with --run ID); "
				     "nothing stored from this file",
				     path, ln->prefix);
		goto out;
	}
	/* A dry run stored its runs in transactions it rolled back: the
	 * log is read and checked all the same. */
	if (o->dry_run && found)
		goto read;
	if (bs_store_get(st, id, 0, &r, &err) < 0) {
		bs_cli_error(cli, "%s: %s; nothing stored from this file", path,
			     err.msg);
		goto out;
	}
	div = lat_div(&r);
	if (r.family != BS_FAM_FIO) {
		bs_cli_error(cli,
			     "%s: run %lld is a %s run, not fio's; nothing "
			     "stored from this file",
			     path, (long long)id, r.tool ? r.tool : "?");
		goto out;
	}
read:
	if (bs_readfile_open(path, NULL, BS_FILE_ANY, -1, &fd, &err) < 0) {
		bs_cli_perr(cli, &err);
		goto out;
	}
	if (read_all(fd, &in) < 0) {
		bs_cli_error(cli, "%s: cannot read: %s; nothing stored", path,
			     strerror(errno));
		goto out;
	}
	n = bs_fio_log_parse(path, in.data ? in.data : "", in.len, ln->kind,
			     div, &logs, sum, &err);
	if (n < 0) {
		bs_cli_error(cli, "%s; nothing stored from this file", err.msg);
		goto out;
	}
	if (n == 0) {
		/* fio writes an empty slat log for a synchronous engine. */
		bs_cli_warn(cli, "%s: no entries; nothing stored", path);
		rc = BS_EXIT_OK;
		goto out;
	}
	if (o->dry_run && found) {
		rc = BS_EXIT_OK;
		if (!cli->quiet) {
			bs_text_put(stdout, path, 0);
			printf(": %lld entr%s would be attached to the run of "
			       "job '%s'\n",
			       (long long)n, n == 1 ? "y" : "ies", ln->prefix);
		}
		goto out;
	}
	if (bs_store_begin(st, &err) < 0) {
		bs_cli_error(cli, "%s: %s; nothing stored from this file", path,
			     err.msg);
		goto out;
	}
	bs_ids_merge(&ids, &id, 1);
	for (i = 0; i < logs.nseries; i++) {
		const struct bs_series *c = &logs.series[i];
		int d = strncmp(bs_metrics[c->metric].key, "read", 4) == 0 ? 0
			: strncmp(bs_metrics[c->metric].key, "write", 5) == 0
				? 1
				: 2;
		enum bs_store_outcome how = BS_STORE_STORED;
		int k = bs_store_add_series(st, id, c, &how, &err);

		if (k == 0 && how == BS_STORE_STORED) {
			bs_buf_reset(&tag);
			log_summary(&tag, path, c->metric, &sum[d], c->n);
			bs_buf_reset(&said);
			bs_buf_addf(&said, "fio.log.%s",
				    bs_metrics[c->metric].key);
			k = bs_store_tag(st, &ids, bs_buf_str(&said),
					 bs_buf_str(&tag), &err);
		} else if (k == 0) {
			kept++; /* BS_STORE_DUPLICATE: a curve of it kept */
		}
		if (k < 0) {
			bs_store_rollback(st);
			bs_cli_error(cli,
				     "%s: %s; nothing stored from this "
				     "file",
				     path, err.msg);
			goto out;
		}
	}
	if (o->dry_run) {
		bs_store_rollback(st);
	} else if (bs_store_commit(st, &err) < 0) {
		bs_store_rollback(st);
		bs_cli_error(cli,
			     "%s: cannot store its series: %s; nothing "
			     "stored from this file",
			     path, err.msg);
		goto out;
	}
	rc = BS_EXIT_OK;
	if (cli->quiet)
		goto out;
	bs_text_put(stdout, path, 0);
	printf(": %lld entr%s attached to run %lld:", (long long)n,
	       n == 1 ? "y" : "ies", (long long)id);
	for (i = 0; i < logs.nseries; i++)
		printf(" %s (%zu points)",
		       bs_metrics[logs.series[i].metric].key, logs.series[i].n);
	if (kept)
		printf("; %zu kept as %s was (the run has %s already)", kept,
		       kept == 1 ? "it" : "they", kept == 1 ? "it" : "them");
	printf("\n");
out:
	if (fd >= 0)
		close(fd);
	bs_ids_release(&ids);
	bs_run_release(&r);
	bs_run_release(&logs);
	bs_buf_release(&in);
	bs_buf_release(&tag);
	bs_buf_release(&said);
	return rc;
}

static int ingest_one(const struct bs_cli *cli, struct bs_store *st,
		      const char *path, void *vo)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_fio_log_name ln;
	int fd = -1, rc;

	if (strcmp(path, "-") == 0)
		return ingest_fd(cli, st, STDIN_FILENO, "<stdin>", vo);
	if (bs_fio_log_name(path, &ln))
		return ingest_log(cli, st, path, &ln, vo);
	/* Anything but a directory is read as a stream: a FIFO or
	 * <(command) is waited on as long as its writer takes (a signal
	 * ends the wait), /dev/stdin may be a terminal. */
	rc = bs_readfile_open(path, NULL, BS_FILE_ANY, -1, &fd, &err);
	if (rc == -BS_EINTR) {
		bs_cli_error(cli,
			     "%s: interrupted; nothing stored from this "
			     "file",
			     path);
		return BS_EXIT_FAIL;
	}
	if (rc < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	rc = ingest_fd(cli, st, fd, path, vo);
	close(fd);
	return rc;
}

int bs_cli_ingest_fd(const struct bs_cli *cli, struct bs_store *st, int fd,
		     const char *name, const struct bs_cli_ingest_args *a)
{
	struct ingest_opts o;
	size_t i;
	int rc;

	memset(&o, 0, sizeof(o));
	o.machine = a->machine;
	o.measured_at = a->measured_at;
	o.ntags = a->ntags;
	o.tag_key = xcalloc(a->ntags + 1, sizeof(char *));
	o.tag_val = xcalloc(a->ntags + 1, sizeof(char *));
	for (i = 0; i < a->ntags; i++) {
		o.tag_key[i] = a->tags[i].key;
		o.tag_val[i] = a->tags[i].value;
	}
	o.adjust = a->adjust;
	o.adjust_ctx = a->ctx;
	rc = ingest_fd(cli, st, fd, name, &o);
	jobs_release(&o);
	free(o.tag_key);
	free(o.tag_val);
	return rc;
}

/* --tag K=V: any key but a run's own fields (host.* included). */
static int set_tag(const struct bs_cli *cli, const struct bs_opt *opt,
		   const char *arg, void *field)
{
	struct ingest_opts *o = field;
	struct bs_err err = BS_ERR_INIT;

	(void)opt;
	if (bs_store_parse_tag(arg, 0, &o->tag_key[o->ntags],
			       &o->tag_val[o->ntags], &err) < 0)
		return bs_cli_usage_error(cli, "--tag: %s", err.msg);
	o->ntags++;
	return 0;
}

/* --param KEY=VALUE: KEY a parameter of some family; its value is read
 * by the run's family's row when a run is read (core/supply.h). */
static int set_param(const struct bs_cli *cli, const struct bs_opt *opt,
		     const char *arg, void *field)
{
	struct ingest_opts *o = field;
	const char *eq = strchr(arg, '=');
	const char *best = NULL;
	size_t dist = (size_t)-1;
	char *key;
	int k, rc;

	(void)opt;
	if (eq == NULL || eq == arg)
		return bs_cli_usage_error(cli, "--param: '%s' is not KEY=VALUE",
					  arg);
	key = xstrndup(arg, (size_t)(eq - arg));
	if (bs_param_find(key) >= 0) {
		o->param_key[o->nparams] = key;
		o->param_val[o->nparams++] = eq + 1;
		return 0;
	}
	for (k = 0; k < bs_nparams; k++)
		bs_similar_best(key, bs_param_table[k].key, &best, &dist);
	if (best)
		rc = bs_cli_usage_error(cli,
					"--param: '%s' is not a "
					"parameter; did you mean '%s'?",
					key, best);
	else
		rc = bs_cli_usage_error(cli,
					"--param: '%s' is not a "
					"parameter of any tool (bstore "
					"show lists a run's)",
					key);
	free(key);
	return rc;
}

static int set_machine(const struct bs_cli *cli, const struct bs_opt *opt,
		       const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)opt;
	if (bs_name_check("machine", arg, &err) < 0)
		return bs_cli_usage_error(cli, "--machine: %s", err.msg);
	*(const char **)field = arg;
	return 0;
}

static int set_measured_at(const struct bs_cli *cli, const struct bs_opt *opt,
			   const char *arg, void *field)
{
	struct bs_err err = BS_ERR_INIT;

	(void)opt;
	if (bs_time_parse(arg, field, &err) < 0)
		return bs_cli_usage_error(cli, "--measured-at: %s", err.msg);
	return 0;
}

static int set_run(const struct bs_cli *cli, const struct bs_opt *opt,
		   const char *arg, void *field)
{
	int64_t v;

	(void)opt;
	if (bs_parse_i64(arg, strlen(arg), &v) < 0 || v <= 0)
		return bs_cli_usage_error(cli, "--run: '%s' is not a run id",
					  arg);
	*(int64_t *)field = v;
	return 0;
}

static int set_format(const struct bs_cli *cli, const struct bs_opt *opt,
		      const char *arg, void *field)
{
	const struct bs_format **f = field;

	(void)opt;
	*f = bs_format_find(arg);
	if (*f == NULL)
		return bs_cli_usage_error(cli,
					  "unknown format '%s' (bstore ingest "
					  "--formats lists them)",
					  arg);
	return 0;
}

#define O(f) offsetof(struct ingest_opts, f)
static const struct bs_opt opts[] = {
	{'t', "tag", "K=V", BS_OPT_MULTI, set_tag, 0,
	 "label every run (repeatable), e.g. raid=10", NULL, 0, 0, 0},
	{'p', "param", "KEY=VALUE", BS_OPT_MULTI, set_param, 0,
	 "a parameter of every run where its output leaves it out "
	 "(repeatable), e.g. direct=1; kept as supplied, and refused where "
	 "the output printed another value",
	 NULL, 0, 0, 0},
	{'m', "machine", "NAME", 0, set_machine, O(machine),
	 "the machine of every run of the files, for outputs that name none "
	 "(sysbench, fio, dd, zcav) or to replace the name they give",
	 NULL, 0, 0, 0},
	{0, "measured-at", "DATE", 0, set_measured_at, O(measured_at),
	 "when the runs were measured: YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]' "
	 "(UTC) or @UNIXTIME, from 1970-01-01 to 9999-12-31",
	 NULL, 0, 0, 0},
	{0, "strict", NULL, 0, bs_opt_flag, O(strict),
	 "store no run from a file with a rejected line (its rejected lines "
	 "are still kept)",
	 NULL, 0, 0, 0},
	{'n', "dry-run", NULL, 0, bs_opt_flag, O(dry_run),
	 "parse and report, store nothing", NULL, 0, 0, 0},
	{0, "run", "ID", 0, set_run, O(run_id),
	 "attach the fio log files given (NAME_lat.N.log, _clat, _slat, _bw, "
	 "_iops) to stored run ID, instead of to the run of their job among "
	 "the files given",
	 NULL, 0, 0, 0},
	{'f', "format", "NAME", 0, set_format, O(format),
	 "read every result line as format NAME (when detection guesses "
	 "wrong)",
	 NULL, 0, 0, 0},
	{0, "formats", NULL, 0, bs_opt_flag, O(list_formats),
	 "list the formats bstore reads, and exit", NULL, 0, 0, 0},
	BS_OPT_END,
};
#undef O

const struct bs_opt_cmd bs_cmd_ingest = {
	"ingest",
	cmd_ingest,
	"import benchmark results into the archive",
	"[OPTIONS] [FILE...]",
	"Stores benchmark results in the archive: bonnie++ CSV lines of any\n"
	"version and its text tables, Tim Bray's Bonnie, sysbench fileio,\n"
	"zcav, fio (JSON, terse, text), dd, getc_putc and bstore's own JSON\n"
	"export, alone or inside captured output or pasted text (mail\n"
	"quotes, numbered lists; a mail's Date: header dates the results\n"
	"below it); --formats lists every format read. Reads standard input\n"
	"when no FILE is given or FILE is '-'. A run already stored (same\n"
	"text) is stored once, and so is a bonnie++ run read from its CSV\n"
	"line and from its table (bonnie++ -q's stdout and stderr): the\n"
	"second is a \"duplicate of run N\". Each file is one transaction,\n"
	"taken once a pipe or FIFO has been read (a writer waiting for its\n"
	"input holds no lock); an empty one is an error. Runs whose output\n"
	"names no machine are counted on stderr, with how to name them (-m,\n"
	"bstore set).\n",
	opts,
	"Formats (--format NAME):\n"
	"  @FORMATS@\n"
	"\n"
	"Lines that look like results but do not parse are reported as\n"
	"FILE:LINE: reason and kept verbatim in the archive's rejects table;\n"
	"the rest of the file is stored. The exit status is then 1.\n",
	"bonnie++ -q -d /mnt/test -m box | bstore ingest --tag raid=10",
	NULL,
	0,
	0,
};

int cmd_ingest(struct bs_cli *cli, int argc, char **argv)
{
	struct ingest_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *dflt[] = {(char *)"-"};
	char **files, **order = NULL;
	struct bs_fio_log_name ln;
	int nfiles, i, k, rc = BS_EXIT_OK;

	memset(&o, 0, sizeof(o));
	o.measured_at = BS_NONE;
	o.tag_key = xcalloc((size_t)argc, sizeof(char *));
	o.tag_val = xcalloc((size_t)argc, sizeof(char *));
	o.param_key = xcalloc((size_t)argc, sizeof(char *));
	o.param_val = xcalloc((size_t)argc, sizeof(char *));
	if (bs_opt_parse(cli, &bs_cmd_ingest, argc, argv, &o, NULL, &rc) ==
	    BS_OPT_EXIT)
		goto out;
	rc = BS_EXIT_OK;
	if (o.list_formats) {
		list_formats();
		goto out;
	}
	files = argv + optind;
	nfiles = argc - optind;
	if (nfiles == 0) {
		files = dflt;
		nfiles = 1;
	}
	if (o.dry_run) {
		/* A dry run works in a transaction it rolls back; on an
		 * archive that does not exist yet it must not create one. */
		struct bs_cli mem = *cli;
		char *path = bs_store_default_path(&err);
		const char *want = cli->db_path ? cli->db_path : path;
		int flags = 0;

		if (want == NULL ||
		    (!bs_store_is_url(want) && access(want, F_OK) != 0)) {
			mem.db_path = ":memory:";
			flags = BS_STORE_SCRATCH;
		}
		free(path);
		if (bs_cli_open_store(&mem, flags, &st) != 0) {
			rc = BS_EXIT_FAIL;
			goto out;
		}
	} else if (bs_cli_open_store(cli, 0, &st) != 0) {
		rc = BS_EXIT_FAIL;
		goto out;
	}
	/* fio's log files after the rest: they go to runs the others
	 * store. */
	order = xcalloc((size_t)nfiles, sizeof(char *));
	for (i = 0, k = 0; i < nfiles; i++)
		if (!bs_fio_log_name(files[i], &ln))
			order[k++] = files[i];
	for (i = 0; i < nfiles; i++)
		if (bs_fio_log_name(files[i], &ln))
			order[k++] = files[i];
	rc = bs_cli_each_input(cli, st, order, nfiles, "file", "not read",
			       ingest_one, &o);
out:
	free(order);
	jobs_release(&o);
	bs_store_close(st);
	for (i = 0; i < (int)o.ntags; i++) {
		free(o.tag_key[i]);
		free(o.tag_val[i]);
	}
	free(o.tag_key);
	free(o.tag_val);
	for (i = 0; i < (int)o.nparams; i++)
		free(o.param_key[i]);
	free(o.param_key);
	free(o.param_val);
	return rc;
}
