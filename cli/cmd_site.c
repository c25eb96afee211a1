/*
 * cli/cmd_site.c - `bstore site`: a static web site of the archive
 * (report/site.h) written into a directory, incrementally: a page is
 * written (through a temporary file renamed over it) only when its bytes
 * changed, and the pages of runs that are gone are removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_report.h"
#include "cli/msg.h"
#include "cli/out.h"
#include "cli/report_io.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "report/changes.h"
#include "report/site.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* What the options say. */
struct site_args {
	const char *dir; /* -o */
};

static const struct bs_opt opts[] = {
	{'o', "output", "DIR", 0, bs_opt_str, offsetof(struct site_args, dir),
	 "the site's directory (required)", NULL, 0, 0, 0},
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_site = {
	"site",
	cmd_site,
	"write a static web site of the archive",
	"-o DIR [SELECTOR...]",
	"Writes a static web site of the archive (or of the runs the\n"
	"SELECTORs choose) into DIR:\n"
	"  index.html          each machine's latest results, the newest\n"
	"                      runs, the saved comparisons, the tag keys with\n"
	"                      their values, the tools\n"
	"  run/ID-DIGEST.html  one page per run (DIGEST: the first 8 hex\n"
	"                      digits of its SHA-256): identity, tags,\n"
	"                      parameters, every result, a zcav curve, the\n"
	"                      original text\n"
	"  machine/, tag/, tool/  one page per machine, tag value and tool\n"
	"                      listing its runs, with a trend chart of the\n"
	"                      main results when they were measured on\n"
	"                      several days\n"
	"  compare/NAME.html   each comparison saved with 'bstore report\n"
	"                      --save NAME', rendered again as 'bstore\n"
	"                      report' would (from every run of the archive)\n"
	"  site.css            the style sheet\n"
	"Links are relative and there are no scripts: the site works from\n"
	"file:// and from any static web server. Rebuilding writes only the\n"
	"pages whose bytes changed and removes the pages in DIR's run/,\n"
	"machine/, tag/, tool/ and compare/ that the archive no longer has\n"
	"(files of other names are left alone, and a symbolic link in DIR\n"
	"is refused, never followed); a summary says how many. On a\n"
	"terminal, a site of more than 2,000 pages shows its progress on\n"
	"stderr. Lists go on in pages of 500 runs, so that no page passes\n"
	"1 MiB. DIR is created when missing; an existing DIR must be empty\n"
	"or a site bstore wrote (it keeps a file .bstore-site there).\n"
	"\n"
	"Selectors as in 'bstore list --help'; a SELECTOR that matches\n"
	"nothing is named on stderr, and when none matches any run the exit\n"
	"status is 1. A saved comparison that no longer renders (its\n"
	"selectors match nothing) is named, left out, and makes the exit\n"
	"status 1; the other pages are written.\n",
	opts,
	NULL,
	"bstore site -o ~/public_html/bench",
	NULL,
	0,
	0,
};

/* Marks a directory as a site bstore wrote: rebuilding may remove pages
 * there. */
#define MARKER ".bstore-site"

struct writer {
	const struct bs_cli *cli;
	const char *dir;
	struct bs_buf full, old;
	char **made; /* pages of this build, relative to dir */
	size_t nmade, capmade;
	long written, unchanged, removed;
	int failed; /* a page could not be written: said already */
	int tty;    /* progress lines on stderr */
	int shown_progress;
	time_t last_progress;
};

/* A site of more than PROGRESS_PAGES pages says how far it is, on a
 * terminal (as ingest does), once a second. */
#define PROGRESS_PAGES 2000

static void progress(struct writer *w, int done)
{
	time_t now = time(NULL);

	if (!w->tty || w->written + w->unchanged < PROGRESS_PAGES ||
	    (!done && now == w->last_progress) || (done && !w->shown_progress))
		return;
	w->last_progress = now;
	w->shown_progress = 1;
	fprintf(stderr, "\rsite: %ld pages, %ld written%s",
		w->written + w->unchanged, w->written, done ? "\n" : "");
	fflush(stderr);
}

/* Whether the file at path holds exactly data. */
static int same_bytes(const char *path, const char *data, size_t len,
		      struct bs_buf *old)
{
	struct stat sb;
	char chunk[65536];
	ssize_t n;
	int fd, same;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size != len) {
		close(fd);
		return 0;
	}
	bs_buf_reset(old);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		bs_buf_add(old, chunk, (size_t)n);
	close(fd);
	same = n == 0 && old->len == len &&
	       memcmp(old->data ? old->data : "", data, len) == 0;
	return same;
}

/* Whether name in the site's directory dir ("" the root) is one of the
 * files a build writes. */
static int own_file(const char *dir, const char *name)
{
	return bs_site_own_name(dir, name) ||
	       (dir[0] == '\0' && (strcmp(name, "index.html") == 0 ||
				   strcmp(name, "site.css") == 0 ||
				   strcmp(name, "changes.html") == 0 ||
				   strcmp(name, "changes.xml") == 0));
}

/* Whether path (relative to the site's root) is one of its own files, in
 * one of its own directories: no name read from the archive (a saved
 * comparison's, a slug) makes a page outside the site. */
static int own_path(const char *path)
{
	const char *slash = strchr(path, '/');
	char dir[16];
	size_t i;

	if (slash == NULL)
		return own_file("", path);
	if ((size_t)(slash - path) >= sizeof(dir))
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	for (i = 0; i < bs_site_ndirs; i++)
		if (strcmp(dir, bs_site_dirs[i]) == 0)
			return own_file(dir, slash + 1);
	return 0;
}

static int put_page(void *ctx, const char *path, const char *data, size_t len,
		    struct bs_err *err)
{
	struct writer *w = ctx;
	struct bs_cli_out o;
	struct stat sb;
	const char *full;

	if (!own_path(path)) {
		char q[BS_CLI_QUOTE_SIZE];
		w->failed = 1;
		return bs_error(err, BS_EINVAL,
				"refusing to write '%s': not a name of the "
				"site's own files (a name from the archive?)",
				bs_cli_quote(q, path));
	}
	xgrow((void **)&w->made, &w->capmade, w->nmade + 1, sizeof(*w->made));
	w->made[w->nmade++] = xstrdup(path);
	bs_buf_reset(&w->full);
	bs_buf_addf(&w->full, "%s/%s", w->dir, path);
	full = bs_buf_str(&w->full);
	/* bs_cli_out_open writes through a link or into a FIFO: a page is
	 * a regular file of the site's own, or is refused. */
	if (lstat(full, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		bs_cli_error(w->cli,
			     "'%s' is %s; bstore site writes only regular files "
			     "inside the site's directory and follows no link "
			     "there: remove it",
			     full,
			     S_ISLNK(sb.st_mode) ? "a symbolic link"
						 : "not a regular file");
		goto fail;
	}
	progress(w, 0);
	if (same_bytes(full, data, len, &w->old)) {
		w->unchanged++;
		return 0;
	}
	if (bs_cli_out_open(w->cli, full, &o) != 0)
		goto fail;
	if (fwrite(data, 1, len, o.f) != len)
		o.write_errno = errno;
	if (bs_cli_out_close(w->cli, &o, 1) != 0)
		goto fail;
	w->written++;
	return 0;
fail:
	/* Said by bs_cli_out_*; the build stops. */
	w->failed = 1;
	return bs_error(err, BS_EIO, "cannot write '%s'", full);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * When name is a temporary file of one of the site's own names (PAGE.tmp.PID,
 * as bs_cli_out_open makes them) whose process is gone, its PID; else 0. A
 * build killed with SIGKILL leaves them; a build still running keeps its
 * own.
 */
static long stale_tmp(const char *dir, const char *name)
{
	const char *dot = strstr(name, ".tmp."), *p;
	char base[256];
	long pid = 0;

	if (dot == NULL || (size_t)(dot - name) >= sizeof(base))
		return 0;
	for (p = dot + 5; *p >= '0' && *p <= '9' && pid < 1000000000; p++)
		pid = pid * 10 + (*p - '0');
	if (p == dot + 5 || *p != '\0' || pid <= 0)
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(dot - name), name);
	if (!own_file(dir, base))
		return 0;
	if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	return pid;
}

/*
 * Removes, in one of the site's directories (sub "" for the root), the
 * pages of the site's own names that this build did not make (those of
 * runs, machines, tags, comparisons that are gone) and the temporary files
 * of an earlier build that was killed. Nothing else is touched: a file of
 * another name is not the site's, and a symbolic link is never followed
 * (prepare_dir refused one in place of a directory).
 */
static int remove_stale_in(struct writer *w, const char *sub,
			   struct bs_buf *rel, struct bs_buf *full)
{
	struct dirent *e;
	struct stat sb;
	DIR *dp;
	int fd, rc = 0;

	bs_buf_reset(full);
	bs_buf_addf(full, "%s%s%s", w->dir, sub[0] ? "/" : "", sub);
	/* DIR itself may be a link the user gave; nothing inside it. */
	fd = open(bs_buf_str(full), O_RDONLY | O_DIRECTORY | O_CLOEXEC |
					    (sub[0] ? O_NOFOLLOW : 0));
	if (fd < 0)
		return 0;
	dp = fdopendir(fd);
	if (dp == NULL) {
		close(fd);
		return 0;
	}
	while ((e = readdir(dp)) != NULL) {
		const char *name = e->d_name, *key;

		if (stale_tmp(sub, name) == 0) {
			if (!bs_site_own_name(sub, name))
				continue;
			bs_buf_reset(rel);
			bs_buf_addf(rel, "%s%s%s", sub, sub[0] ? "/" : "",
				    name);
			key = bs_buf_str(rel);
			if (bsearch(&key, w->made, w->nmade, sizeof(*w->made),
				    cmp_str))
				continue;
		}
		/* Only a file: a link of the site's name is not its page. */
		if (fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		if (unlinkat(fd, name, 0) != 0) {
			bs_cli_error(w->cli, "cannot remove '%s/%s': %s",
				     bs_buf_str(full), name, strerror(errno));
			rc = BS_EXIT_FAIL;
			continue;
		}
		w->removed++;
	}
	closedir(dp);
	return rc;
}

static int remove_stale(struct writer *w)
{
	struct bs_buf rel = BS_BUF_INIT, full = BS_BUF_INIT;
	size_t i;
	int rc;

	qsort(w->made, w->nmade, sizeof(*w->made), cmp_str);
	rc = remove_stale_in(w, "", &rel, &full);
	for (i = 0; i < bs_site_ndirs; i++)
		if (remove_stale_in(w, bs_site_dirs[i], &rel, &full) != 0)
			rc = BS_EXIT_FAIL;
	bs_buf_release(&rel);
	bs_buf_release(&full);
	return rc;
}

/* Makes dir/sub (sub NULL: dir itself) unless it is a directory. */
static int make_dir(const struct bs_cli *cli, const char *dir, const char *sub)
{
	struct bs_buf p = BS_BUF_INIT;
	struct stat sb;
	int rc = 0;

	bs_buf_adds(&p, dir);
	if (sub)
		bs_buf_addf(&p, "/%s", sub);
	if (sub && lstat(bs_buf_str(&p), &sb) == 0 && S_ISLNK(sb.st_mode)) {
		/* Pages written through it would land outside DIR, and a
		 * rebuild would remove files there. */
		bs_cli_error(cli,
			     "'%s' is a symbolic link; bstore site writes only "
			     "inside the site's directory and follows no link "
			     "there: remove it",
			     bs_buf_str(&p));
		rc = BS_EXIT_FAIL;
	} else if (mkdir(bs_buf_str(&p), 0777) != 0 &&
		   !(errno == EEXIST && stat(bs_buf_str(&p), &sb) == 0 &&
		     S_ISDIR(sb.st_mode))) {
		if (errno == EEXIST)
			bs_cli_error(cli, "'%s' is not a directory",
				     bs_buf_str(&p));
		else
			bs_cli_error(cli, "cannot make directory '%s': %s",
				     bs_buf_str(&p), strerror(errno));
		rc = BS_EXIT_FAIL;
	}
	bs_buf_release(&p);
	return rc;
}

/*
 * Makes the site's directory and its subdirectories. A directory that is
 * neither empty nor marked as a site is refused: rebuilding removes pages.
 */
static int prepare_dir(const struct bs_cli *cli, const char *dir)
{
	struct bs_buf p = BS_BUF_INIT;
	struct dirent *e;
	struct stat sb;
	int rc, empty = 1;
	size_t i;
	DIR *dp;
	FILE *f;

	rc = make_dir(cli, dir, NULL);
	if (rc != 0)
		return rc;
	bs_buf_addf(&p, "%s/%s", dir, MARKER);
	if (stat(bs_buf_str(&p), &sb) != 0) {
		dp = opendir(dir);
		if (dp == NULL) {
			bs_cli_error(cli, "cannot read directory '%s': %s", dir,
				     strerror(errno));
			rc = BS_EXIT_FAIL;
			goto out;
		}
		while ((e = readdir(dp)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0)
				empty = 0;
		closedir(dp);
		if (!empty) {
			bs_cli_error(cli,
				     "'%s' is not empty and not a site bstore "
				     "wrote (it has no %s); give a new or "
				     "empty directory",
				     dir, MARKER);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		f = fopen(bs_buf_str(&p), "w");
		if (f == NULL ||
		    fputs("bstore site: pages in run/, "
			  "machine/, tag/, tool/, compare/ and change/ "
			  "are rewritten and removed by "
			  "'bstore site'\n",
			  f) < 0 ||
		    fclose(f) != 0) {
			bs_cli_error(cli, "cannot write '%s': %s",
				     bs_buf_str(&p), strerror(errno));
			rc = BS_EXIT_FAIL;
			goto out;
		}
	}
	for (i = 0; i < bs_site_ndirs && rc == 0; i++)
		rc = make_dir(cli, dir, bs_site_dirs[i]);
out:
	bs_buf_release(&p);
	return rc;
}

/* The saved comparisons, each rendered as compare/NAME.html. */
struct saved_ctx {
	struct writer *w;
	struct bs_store *st;
	char **names; /* those written */
	size_t n, cap;
	int failed;
};

static int one_saved(const char *name, const char *const *args, size_t nargs,
		     void *vctx)
{
	struct saved_ctx *c = vctx;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf path = BS_BUF_INIT;
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	int rc;

	if (mem == NULL)
		BS_BUG("open_memstream failed");
	rc = bs_cli_report_saved(c->w->cli, c->st, args, nargs, mem);
	if (fclose(mem) != 0 && rc == 0)
		rc = BS_EXIT_FAIL;
	if (rc != 0) {
		bs_cli_warn(c->w->cli,
			    "saved comparison '%s' left out of the site", name);
		c->failed = 1;
		free(data);
		return 0;
	}
	bs_buf_addf(&path, "compare/%s.html", name);
	rc = put_page(c->w, bs_buf_str(&path), data, len, &err);
	free(data);
	bs_buf_release(&path);
	if (rc < 0)
		return rc;
	xgrow((void **)&c->names, &c->cap, c->n + 1, sizeof(*c->names));
	c->names[c->n++] = xstrdup(name);
	return 0;
}

static int get_run(void *ctx, int64_t id, struct bs_run *r, struct bs_err *err)
{
	return bs_store_get(ctx, id, BS_LOAD_TAGS, r, err);
}

/*
 * The change points of the site's runs (src), and each one's comparison
 * of its two levels (bstore report SEL0 SEL1, as the Changes page
 * shows it) at bs_site_change_path. A comparison that fails is left out
 * with a warning, as a saved one is.
 */
static int site_changes(struct writer *w, struct bs_store *st,
			struct bs_cli_src *src, struct bs_changes **out,
			int *failed, struct bs_err *err)
{
	struct bs_changes_opts co;
	struct bs_cli_src csrc = *src;
	struct bs_changes_source cs = {{bs_cli_src_each, &csrc}, get_run, st};
	struct bs_buf sel[2] = {BS_BUF_INIT, BS_BUF_INIT};
	struct bs_buf path = BS_BUF_INIT;
	size_t i;
	int k, rc;

	memset(&co, 0, sizeof(co));
	bs_changept_opts_init(&co.cp);
	co.since = BS_NONE;
	csrc.load = 0;
	rc = bs_changes_build(out, &co, &cs, err);
	for (i = 0; rc >= 0 && i < (*out)->n; i++) {
		const struct bs_changes_item *it = &(*out)->item[i];
		const char *args[2];
		char *data = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&data, &len);
		int r;

		if (mem == NULL)
			BS_BUG("open_memstream failed");
		for (k = 0; k < 2; k++) {
			bs_buf_reset(&sel[k]);
			bs_changes_level_selector(it, k, &sel[k]);
			args[k] = bs_buf_str(&sel[k]);
		}
		r = bs_cli_report_saved(w->cli, st, args, 2, mem);
		if (fclose(mem) != 0 && r == 0)
			r = BS_EXIT_FAIL;
		bs_buf_reset(&path);
		bs_site_change_path(it, &path);
		if (r != 0) {
			bs_cli_warn(w->cli,
				    "the comparison of the change at "
				    "run %lld left out of the site",
				    (long long)it->run_id);
			*failed = 1;
		} else {
			rc = put_page(w, bs_buf_str(&path), data, len, err);
		}
		free(data);
	}
	bs_buf_release(&sel[0]);
	bs_buf_release(&sel[1]);
	bs_buf_release(&path);
	return rc;
}

int cmd_site(struct bs_cli *cli, int argc, char **argv)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	/* Every run when no selector: one pass over the table. */
	struct bs_cli_src src = {NULL, NULL, -1, BS_LOAD_ALL};
	struct bs_report_source source = {bs_cli_src_each, &src};
	struct writer w;
	struct saved_ctx sc;
	struct bs_site_opts so;
	struct bs_changes *changes = NULL;
	struct site_args a = {NULL};
	const char *dir;
	size_t i;
	int rc, nsel;

	memset(&w, 0, sizeof(w));
	memset(&sc, 0, sizeof(sc));
	if (bs_opt_parse(cli, &bs_cmd_site, argc, argv, &a, NULL, &rc) ==
	    BS_OPT_EXIT)
		return rc;
	dir = a.dir;
	if (dir == NULL || dir[0] == '\0')
		return bs_cli_usage_error(cli, "where? give the site's "
					       "directory with -o DIR");
	nsel = argc - optind;
	rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind, nsel,
				BS_SEL_ALL_IF_NONE | BS_SEL_NEED_MATCH, &st,
				&ids);
	if (rc != 0)
		goto out;
	rc = prepare_dir(cli, dir);
	if (rc != 0)
		goto out;
	w.cli = cli;
	w.dir = dir;
	w.tty = !cli->quiet && isatty(STDERR_FILENO);
	sc.w = &w;
	sc.st = st;
	if (bs_store_each_saved(st, one_saved, &sc, &err) < 0)
		goto failed;
	so.compares = (const char *const *)sc.names;
	so.ncompares = sc.n;
	src.st = st;
	src.ids = nsel ? &ids : NULL;
	if (site_changes(&w, st, &src, &changes, &sc.failed, &err) < 0)
		goto failed;
	so.changes = changes;
	if (bs_site_build(&source, &so, put_page, &w, &err) < 0)
		goto failed;
	progress(&w, 1);
	rc = remove_stale(&w);
	if (sc.failed)
		rc = BS_EXIT_FAIL;
	if (!cli->quiet)
		printf("site: %ld pages, %ld written, %ld unchanged, %ld "
		       "removed\n",
		       w.written + w.unchanged, w.written, w.unchanged,
		       w.removed);
	goto out;
failed:
	if (!w.failed)
		bs_cli_perr(cli, &err);
	rc = BS_EXIT_FAIL;
out:
	bs_changes_free(changes);
	for (i = 0; i < w.nmade; i++)
		free(w.made[i]);
	free(w.made);
	for (i = 0; i < sc.n; i++)
		free(sc.names[i]);
	free(sc.names);
	bs_buf_release(&w.full);
	bs_buf_release(&w.old);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
