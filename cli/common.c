/* cli/common.c - messages, opening the archive, resolving selectors. */
#include <getopt.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cleanup.h"
#include "cli/guard.h"
#include "core/scratch.h"
#include "core/metric.h"
#include "ingest/format.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/sig.h"
#include "util/similar.h"
#include "util/text.h"
#include "util/banned.h"

/* A message is one line: names in it (a file called "a\nb.csv", a tag
 * value) may hold anything, so control characters are shown as '?'. */
static void vmsg(const struct bs_cli *cli, const char *pfx, const char *fmt,
		 va_list ap)
{
	char small[512], *msg = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0) {
		small[0] = '\0';
	} else if ((size_t)n >= sizeof(small)) {
		msg = xmalloc((size_t)n + 1);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	}
	bs_text_clean_inplace(msg, 0);
	fflush(stdout);
	if (cli && cli->cmd)
		fprintf(stderr, "bstore: %s: %s%s\n", cli->cmd, pfx, msg);
	else
		fprintf(stderr, "bstore: %s%s\n", pfx, msg);
	if (msg != small)
		free(msg);
}

void bs_cli_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
}

void bs_cli_warn(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "warning: ", fmt, ap);
	va_end(ap);
}

void bs_cli_perr(const struct bs_cli *cli, const struct bs_err *err)
{
	bs_cli_error(cli, "%s", err->msg[0] ? err->msg : "unknown error");
}

int bs_cli_usage_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
	if (cli && cli->cmd)
		fprintf(stderr, "Try 'bstore %s --help'.\n", cli->cmd);
	else
		fputs("Try 'bstore --help'.\n", stderr);
	return BS_EXIT_USAGE;
}

const char *bs_cli_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	case SIGPIPE:
		return "SIGPIPE";
	default:
		return "a signal";
	}
}

volatile sig_atomic_t bs_cli_stop;

static void on_stop(int sig)
{
	bs_cli_stop = sig;
}

int bs_cli_each_input(const struct bs_cli *cli, struct bs_store *st,
		      char **inputs, int n, const char *noun,
		      const char *undone,
		      int (*one)(const struct bs_cli *cli, struct bs_store *st,
				 const char *input, void *ctx),
		      void *ctx)
{
	static const int stop[] = {SIGINT, SIGTERM, SIGHUP};
	struct bs_sig_saved saved;
	int i, rc = BS_EXIT_OK;

	bs_cli_stop = 0;
	/* Waiting for another writer's lock can take minutes: a signal ends
	 * the wait as it ends an input. */
	bs_store_set_wait(st, BS_STORE_WAIT_MS, &bs_cli_stop);
	bs_sig_catch(&saved, stop, sizeof(stop) / sizeof(stop[0]), on_stop,
		     NULL);
	for (i = 0; i < n && !bs_cli_stop; i++)
		if (one(cli, st, inputs[i], ctx) != BS_EXIT_OK)
			rc = BS_EXIT_FAIL;
	bs_sig_restore(&saved);
	if (!bs_cli_stop)
		return rc;
	if (i < n)
		bs_cli_error(cli, "interrupted; %d more %s%s %s, from '%s' on",
			     n - i, noun, n - i == 1 ? "" : "s", undone,
			     inputs[i]);
	return 128 + (int)bs_cli_stop;
}

const char *bs_cli_quote(char out[BS_CLI_QUOTE_SIZE], const char *s)
{
	return bs_err_quote(out, BS_CLI_QUOTE_SIZE, s, strlen(s), 40);
}

/* The long option that arg ("--name" or "--name=value") names, if any. */
static const struct option *long_option(const struct option *opts,
					const char *arg, size_t n)
{
	const struct option *o, *found = NULL;

	for (o = opts; o->name; o++) {
		if (strncmp(o->name, arg + 2, n - 2) != 0)
			continue;
		if (strlen(o->name) == n - 2)
			return o;
		found = found ? NULL : o; /* an abbreviation, if unique */
	}
	return found;
}

int bs_cli_bad_option(const struct bs_cli *cli, char **argv,
		      const char *shortopts, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const char *o = optopt ? strchr(shortopts, optopt) : NULL;
	const struct option *lo = NULL;
	int n = (int)strcspn(arg, "="); /* name the option, not its value */

	if (strncmp(arg, "--", 2) == 0 && n > 2)
		lo = long_option(longopts, arg, (size_t)n);
	/* glibc: optopt is 0 for an unknown long option; otherwise it is the
	 * short option, or the long option's val, whose argument is wrong.
	 * In "-jx", argv[optind - 1] is still the element before. */
	if (optopt == 0) {
		char q[BS_CLI_QUOTE_SIZE], *name = xstrndup(arg, (size_t)n);

		bs_cli_quote(q, name);
		free(name);
		return bs_cli_usage_error(cli, "unknown option '%s'", q);
	}
	if (lo && lo->val == optopt) {
		if (arg[n] == '=')
			return bs_cli_usage_error(
				cli, "option '%.*s' takes no argument", n,
				arg);
		return bs_cli_usage_error(cli, "option '%s' needs an argument",
					  arg);
	}
	if (o && o[1] == ':')
		return bs_cli_usage_error(cli, "option '-%c' needs an argument",
					  optopt);
	return bs_cli_usage_error(cli, "unknown option '-%c'", optopt);
}

/* Whether the directory that would hold path exists. */
static int parent_exists(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat sb;
	char *dir;
	int ok;

	if (slash == NULL)
		return 1;
	dir = xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
	ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(dir);
	return ok;
}

/* The store's warnings (a run it cannot read and skips), as ours. */
static void store_warn(const char *msg, void *ctx)
{
	bs_cli_warn(ctx, "%s", msg);
}

void bs_cli_store_warnings(const struct bs_cli *cli, struct bs_store *st)
{
	bs_store_set_warn(st, store_warn, (void *)cli);
}

/* Says that opening the archive at path upgraded it, if it did. */
static void say_upgraded(const struct bs_cli *cli, const struct bs_store *st,
			 const char *path)
{
	if (bs_store_upgraded_from(st) && !cli->quiet)
		fprintf(stderr,
			"bstore: upgraded archive '%s' from schema version %d "
			"to %d; the old file is kept as '%s.v%d.bak'\n",
			path, bs_store_upgraded_from(st), BS_SCHEMA_VERSION,
			path, bs_store_upgraded_from(st));
}

/*
 * bs_store_open, stopped by a signal: opening upgrades an archive of an
 * older bstore, after keeping a copy of it, which takes minutes on a big
 * one. A signal then ends the copy or the upgrade (the store removes the
 * partial copy and rolls the upgrade back), and once the archive is
 * closed again, the signal does what it would have done without bstore.
 */
static int open_store(const struct bs_cli *cli, const char *path, int flags,
		      struct bs_store **out, struct bs_err *err)
{
	static const int stop[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	struct bs_sig_saved saved;
	int rc, sig;

	bs_cli_stop = 0;
	bs_sig_catch(&saved, stop, sizeof(stop) / sizeof(stop[0]), on_stop,
		     NULL);
	rc = bs_store_open_cancel(out, path, flags, &bs_cli_stop, err);
	sig = (int)bs_cli_stop;
	if (rc == 0) {
		bs_store_set_wait(*out, BS_STORE_WAIT_MS, NULL);
		say_upgraded(cli, *out, path);
	}
	bs_sig_restore(&saved);
	bs_cli_stop = 0;
	if (sig != 0) {
		if (rc < 0)
			bs_cli_perr(cli, err);
		bs_store_close(*out);
		*out = NULL;
		raise(sig);
		/* Ignored or handled elsewhere: the open failed anyway. */
		return rc < 0 ? rc
			      : bs_error(err, BS_EINTR, "interrupted");
	}
	if (rc == 0)
		bs_cli_store_warnings(cli, *out);
	return rc;
}

int bs_cli_open_store(const struct bs_cli *cli, int flags,
		      struct bs_store **out)
{
	struct bs_err err = BS_ERR_INIT;
	char *path = NULL;
	int rc;

	if (cli->db_path) {
		path = xstrdup(cli->db_path);
	} else {
		path = bs_store_default_path(&err);
		if (path == NULL) {
			bs_cli_perr(cli, &err);
			return BS_EXIT_FAIL;
		}
		if (!(flags & (BS_STORE_READONLY | BS_STORE_EXISTING)) &&
		    bs_store_mkparents(path, &err) < 0) {
			bs_cli_perr(cli, &err);
			free(path);
			return BS_EXIT_FAIL;
		}
	}
	rc = open_store(cli, path, flags, out, &err);
	if (rc < 0) {
		struct stat sb;

		/* Only ingest and run create an archive: a mistyped --db must
		 * not leave an empty one behind. They make the default one's
		 * directories, not those of --db. */
		if (err.code == BS_ENOTFOUND && stat(path, &sb) < 0 &&
		    errno == ENOENT && (!cli->db_path || parent_exists(path)))
			bs_cli_error(cli,
				     "%s (there is no archive there yet: "
				     "bstore ingest or bstore run creates it)",
				     err.msg);
		else
			bs_cli_perr(cli, &err);
		free(path);
		return BS_EXIT_FAIL;
	}
	free(path);
	return 0;
}

/* The closest word to word among those fn is fed (util/similar.h). */
struct closest {
	const char *word;
	char *best; /* owned */
	size_t dist;
	int exact;  /* word itself was among them */
};

static int closest_word(const char *w, void *vctx)
{
	struct closest *c = vctx;
	const char *best = NULL;

	if (strcmp(c->word, w) == 0)
		c->exact = 1;
	bs_similar_best(c->word, w, &best, &c->dist);
	if (best) {
		free(c->best);
		c->best = xstrdup(best);
	}
	return 0;
}

char *bs_cli_closest_tag(struct bs_store *st, const char *key, int fields)
{
	struct bs_err err = BS_ERR_INIT;
	struct closest c = {key, NULL, (size_t)-1, 0};
	size_t i;

	if (bs_store_words(st, NULL, closest_word, &c, &err) < 0)
		c.exact = 1;
	for (i = 0; fields && i < bs_sel_nfields; i++)
		closest_word(bs_sel_fields[i].key, &c);
	/* A key some run has is no typo. */
	if (c.exact) {
		free(c.best);
		c.best = NULL;
	}
	return c.best;
}

/*
 * A selector like sel whose keys and values are the known ones closest
 * to those of sel that match nothing (riad=10 -> raid=10), or NULL when
 * none is close. A key is compared with every tag key and run field; a
 * value (not a pattern) with the values its key has.
 */
static char *did_you_mean(struct bs_store *st, const char *text)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf out = BS_BUF_INIT;
	char **owned;
	size_t i, nowned = 0;
	char *res = NULL;

	if (bs_sel_parse(&sel, text, &err) < 0)
		return NULL;
	owned = xcalloc(2 * sel.n, sizeof(char *));
	for (i = 0; i < sel.n; i++) {
		struct bs_sel_term *t = &sel.term[i];
		struct closest c = {t->value, NULL, (size_t)-1, 0};
		char *key;

		if ((t->kind != BS_SEL_TAG && t->kind != BS_SEL_FIELD) ||
		    (t->op != BS_OP_EQ && t->op != BS_OP_IEQ) ||
		    (t->field && t->field->type != BS_SEL_TEXT))
			continue;
		/* A tag key that no run has: the closest key. */
		if (t->kind == BS_SEL_TAG) {
			key = bs_cli_closest_tag(st, t->key, 1);
			if (key) {
				t->key = owned[nowned++] = key;
				continue;
			}
		}
		/* A value its key does not have: the closest value. */
		if (strpbrk(t->value, "*?[") != NULL)
			continue;
		if (bs_store_words(st, t->key, closest_word, &c, &err) == 0 &&
		    c.best && !c.exact)
			t->value = owned[nowned++] = c.best;
		else
			free(c.best);
	}
	if (nowned > 0 && bs_sel_print(&sel, &out) == 0)
		res = bs_buf_detach(&out, NULL);
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	bs_buf_release(&out);
	bs_sel_release(&sel);
	return res;
}

int bs_cli_no_match(const struct bs_cli *cli, struct bs_store *st,
		    const char *sel, int fatal)
{
	struct bs_err err = BS_ERR_INIT;
	int64_t nruns = -1;
	char q[BS_CLI_QUOTE_SIZE];
	void (*say)(const struct bs_cli *, const char *, ...) =
		fatal ? bs_cli_error : bs_cli_warn;

	/* A count that fails only loses the better words. */
	if (bs_store_count(st, &nruns, NULL, &err) == 0 && nruns == 0) {
		say(cli,
		    "the archive '%s' has no runs yet (bstore ingest or "
		    "bstore run adds them)",
		    bs_store_path(st));
		return 1;
	}
	if (sel) {
		char *dym = did_you_mean(st, sel);
		char q2[BS_CLI_QUOTE_SIZE];

		if (dym)
			say(cli,
			    "selector '%s' matches no runs; did you mean "
			    "'%s'?",
			    bs_cli_quote(q, sel), bs_cli_quote(q2, dym));
		else
			say(cli, "selector '%s' matches no runs",
			    bs_cli_quote(q, sel));
		free(dym);
	} else
		say(cli, "no run matches");
	return 0;
}

int bs_cli_select(const struct bs_cli *cli, struct bs_store *st, char **sel,
		  int nsel, int flags, struct bs_ids *out)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids one = BS_IDS_INIT;
	char *empty = NULL;
	int i, fatal, nempty = 0, rc = 0;

	if (nsel == 0 && (flags & BS_SEL_ALL_IF_NONE))
		return bs_store_select(st, "all", out, &err) < 0
			       ? (bs_cli_perr(cli, &err), BS_EXIT_FAIL)
			       : 0;
	empty = xcalloc((size_t)nsel + 1, 1);
	for (i = 0; i < nsel; i++) {
		one.n = 0;
		if (bs_store_select(st, sel[i], &one, &err) < 0) {
			if (err.code == BS_EINVAL)
				rc = bs_cli_usage_error(cli, "%s", err.msg);
			else
				rc = (bs_cli_perr(cli, &err), BS_EXIT_FAIL);
			goto out;
		}
		if (one.n == 0) {
			empty[i] = 1;
			nempty++;
		} else {
			bs_ids_merge(out, one.id, one.n);
		}
	}
	/* Every selector that matches nothing is named: a typo in one of
	 * several is no less a typo. It fails the command only when
	 * nothing at all is selected and the command needs runs. */
	fatal = (flags & BS_SEL_NEED_MATCH) && out->n == 0;
	for (i = 0; i < nsel && nempty > 0; i++) {
		/* 'list all' of an empty archive is 'list': an answer, not
		 * a selector that went wrong. */
		if (!empty[i] || (!fatal && strcmp(sel[i], "all") == 0))
			continue;
		if (bs_cli_no_match(cli, st, sel[i], fatal))
			break; /* an empty archive is said once */
	}
	if (fatal)
		rc = BS_EXIT_FAIL;
out:
	free(empty);
	bs_ids_release(&one);
	return rc;
}

int bs_cli_open_select(const struct bs_cli *cli, int store_flags, char **sel,
		       int nsel, int sel_flags, struct bs_store **st,
		       struct bs_ids *ids)
{
	struct bs_err err = BS_ERR_INIT;
	int rc = bs_cli_open_store(cli, store_flags, st);

	if (rc != 0)
		return rc;
	if ((sel_flags & BS_SEL_WRITE) && bs_store_begin(*st, &err) < 0) {
		bs_cli_perr(cli, &err);
		bs_store_close(*st);
		*st = NULL;
		return BS_EXIT_FAIL;
	}
	rc = bs_cli_select(cli, *st, sel, nsel, sel_flags, ids);
	if (rc != 0) {
		bs_store_close(*st);
		*st = NULL;
	}
	return rc;
}

int bs_cli_out_open(const struct bs_cli *cli, const char *path,
		    struct bs_cli_out *o)
{
	struct bs_buf tmp = BS_BUF_INIT;
	struct stat sb;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (bs_cli_guard(cli, path, NULL) != 0)
		return BS_EXIT_FAIL;
	/* lstat: a symbolic link (/dev/stdout) is written through, never
	 * renamed over; so are devices and FIFOs. */
	if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		o->f = fopen(path, "w");
		if (o->f == NULL) {
			bs_cli_error(cli, "cannot write '%s': %s", path,
				     strerror(errno));
			return BS_EXIT_FAIL;
		}
		return 0;
	}
	bs_buf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	/* A signal from here on removes the file (cli/cleanup.h). */
	bs_cleanup_block();
	fd = open(bs_buf_str(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  0666);
	e = errno;
	if (fd >= 0) {
		o->f = fdopen(fd, "w");
		e = errno;
		if (o->f == NULL) {
			close(fd);
			unlink(bs_buf_str(&tmp));
		} else {
			bs_cleanup_arm(cli, bs_buf_str(&tmp), path);
		}
	}
	bs_cleanup_unblock();
	if (o->f == NULL) {
		bs_cli_error(cli, "cannot write '%s': %s", path, strerror(e));
		bs_buf_release(&tmp);
		return BS_EXIT_FAIL;
	}
	o->tmp = bs_buf_detach(&tmp, NULL);
	return 0;
}

int bs_cli_out_close(const struct bs_cli *cli, struct bs_cli_out *o, int ok)
{
	int failed = ferror(o->f) != 0;
	int e = o->write_errno ? o->write_errno : errno;
	int rc = 0;

	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	/* Renamed or removed, the file is no longer the handler's to
	 * remove: a signal waits until it is disarmed. */
	if (o->tmp)
		bs_cleanup_block();
	if (ok && !failed && o->tmp && rename(o->tmp, o->path) != 0) {
		failed = 1;
		e = errno;
	}
	if (o->tmp && (!ok || failed))
		unlink(o->tmp);
	if (o->tmp) {
		bs_cleanup_disarm();
		bs_cleanup_unblock();
	}
	if (ok && failed) {
		bs_cli_error(cli, "cannot write '%s': %s", o->path,
			     strerror(e ? e : EIO));
		rc = BS_EXIT_FAIL;
	}
	free(o->tmp);
	o->tmp = NULL;
	return ok ? rc : BS_EXIT_FAIL;
}

/* Appends word to a line wrapped at 76 columns with indent spaces. */
static void wrap_word(struct bs_buf *out, size_t *col, size_t indent,
		      const char *word, int first)
{
	size_t n = strlen(word);

	if (!first && *col + 1 + n > 76) {
		bs_buf_addf(out, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (!first) {
		bs_buf_addc(out, ' ');
		(*col)++;
	}
	bs_buf_adds(out, word);
	*col += n;
}

/* "bonnie: putc, put_block, ...; sysbench: ...", wrapped: the metrics
 * whose flags have every bit of need (BS_MF_*), by family. */
static void help_metrics(struct bs_buf *out, size_t indent, unsigned need)
{
	char word[96];
	size_t col = indent;
	int m, k, first = 1;

	bs_buf_addf(out, "%*s", (int)indent, "");
	for (m = 0; m < bs_nmetrics; m++) {
		int same = 0, more = 0, any = 0;
		if ((bs_metrics[m].flags & need) != need)
			continue;
		/* Is a later metric shown, of this family or another? */
		for (k = m + 1; k < bs_nmetrics && !more; k++) {
			if ((bs_metrics[k].flags & need) != need)
				continue;
			more = 1;
			same = bs_metrics[k].family == bs_metrics[m].family;
		}
		for (k = m - 1; k >= 0 && !any; k--)
			any = (bs_metrics[k].flags & need) == need &&
			      bs_metrics[k].family == bs_metrics[m].family;
		snprintf(word, sizeof(word), "%s%s%s%s",
			 any ? "" : bs_family_name(bs_metrics[m].family),
			 any ? "" : ": ", bs_metrics[m].key,
			 same ? "," : more ? ";" : "");
		wrap_word(out, &col, indent, word, first);
		first = 0;
	}
	bs_buf_addc(out, '\n');
}

static void help_formats(struct bs_buf *out, size_t indent)
{
	int i;

	for (i = 0; i < bs_nformats; i++)
		bs_buf_addf(out, "%*s%s (%s)\n%*s%s\n", (int)indent, "",
			    bs_formats[i].name,
			    bs_family_name(bs_formats[i].family),
			    (int)indent + 4, "", bs_formats[i].about);
}

/* Words for the bs_sel_type bits of an operator: "id and date". */
static void help_types(struct bs_buf *out, unsigned types)
{
	static const struct {
		unsigned type;
		const char *word;
	} names[] = {
		{BS_SEL_TEXT, "text"},
		{BS_SEL_IDS, "id"},
		{BS_SEL_DATE, "date"},
	};
	size_t i, k = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (types & names[i].type)
			bs_buf_addf(out, "%s%s", k++ ? " and " : "",
				    names[i].word);
}

/* The selector language, from its tables (store/selector.h). */
static void help_selectors(struct bs_buf *out, size_t indent)
{
	struct bs_buf text = BS_BUF_INIT, word = BS_BUF_INIT;
	size_t col, i, k;
	int op;

	bs_buf_addf(&text, "Selectors: 12, 12-15, last, last:N, all, or "
			   "KEY OP VALUE, KEY being ");
	for (i = 0; i < bs_sel_nfields; i++)
		bs_buf_addf(&text, "%s, ", bs_sel_fields[i].key);
	bs_buf_adds(&text,
		    "or a tag (raid=5); terms joined with ',' must all "
		    "match (machine=jump,raid!=10); a ',' in a value is "
		    "written '\\,' (host.mount=rw\\,relatime). A date is "
		    "YYYY, YYYY-MM, YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]' or "
		    "@UNIXTIME, in UTC. Quote selectors for the shell: it "
		    "reads < > ! * ? [ and blanks itself. OP is one of:");
	/* Wrapped word by word, as the metrics are. */
	bs_buf_addf(out, "%*s", (int)indent, "");
	col = indent;
	for (i = 0, k = 0; ; i++) {
		const char *t = bs_buf_str(&text);

		if (t[i] == ' ' || t[i] == '\0') {
			bs_buf_reset(&word);
			bs_buf_add(&word, t + k, i - k);
			wrap_word(out, &col, indent, bs_buf_str(&word), k == 0);
			k = i + 1;
		}
		if (t[i] == '\0')
			break;
	}
	bs_buf_addc(out, '\n');
	for (op = BS_OP_EQ; op <= BS_OP_GE; op++) {
		const struct bs_sel_op_info *o = bs_sel_op((enum bs_sel_op)op);
		const char *p;

		bs_buf_reset(&text);
		bs_buf_adds(&text, o->help);
		if (o->types != (BS_SEL_TEXT | BS_SEL_IDS | BS_SEL_DATE)) {
			bs_buf_adds(&text, "; ");
			help_types(&text, o->types);
			bs_buf_adds(&text, " only");
		}
		bs_buf_addf(out, "%*s  %-3s", (int)indent, "", o->text);
		col = indent + 5;
		for (p = bs_buf_str(&text), k = 1; *p; k = 0) {
			size_t n = strcspn(p, " ");

			bs_buf_reset(&word);
			bs_buf_add(&word, p, n);
			wrap_word(out, &col, indent + 6, bs_buf_str(&word), 0);
			p += n + (p[n] == ' ');
		}
		bs_buf_addc(out, '\n');
	}
	bs_buf_release(&text);
	bs_buf_release(&word);
}

/* s with @NAME@ replaced by text. */
static void replace(struct bs_buf *line, const char *name, const char *text)
{
	struct bs_buf b = BS_BUF_INIT;
	const char *p = bs_buf_str(line), *at;
	size_t n = strlen(name);

	while ((at = strstr(p, name)) != NULL) {
		bs_buf_add(&b, p, (size_t)(at - p));
		bs_buf_adds(&b, text);
		p = at + n;
	}
	bs_buf_adds(&b, p);
	bs_buf_reset(line);
	bs_buf_adds(line, bs_buf_str(&b));
	bs_buf_release(&b);
}

void bs_cli_help(FILE *f, const char *text)
{
	struct bs_buf out = BS_BUF_INIT, line = BS_BUF_INIT,
		      fields = BS_BUF_INIT, fams = BS_BUF_INIT;
	const char *p = text;
	size_t i;

	for (i = 0; i < bs_sel_nfields; i++)
		bs_buf_addf(&fields, "%s%s", i ? ", " : "",
			    bs_sel_fields[i].key);
	for (i = 0; i < BS_FAM_COUNT; i++)
		bs_buf_addf(&fams, "%s%s", i ? ", " : "",
			    bs_family_name((enum bs_family)i));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t indent = strspn(p, " ");

		bs_buf_reset(&line);
		bs_buf_add(&line, p, len);
		if (strcmp(bs_buf_str(&line) + indent, "@METRICS@") == 0) {
			help_metrics(&out, indent, 0);
		} else if (strcmp(bs_buf_str(&line) + indent,
				  "@MAIN_METRICS@") == 0) {
			help_metrics(&out, indent, BS_MF_MAIN);
		} else if (strcmp(bs_buf_str(&line) + indent, "@FORMATS@") == 0) {
			help_formats(&out, indent);
		} else if (strcmp(bs_buf_str(&line) + indent, "@SELECTORS@") ==
			   0) {
			help_selectors(&out, indent);
		} else {
			replace(&line, "@FIELDS@", bs_buf_str(&fields));
			replace(&line, "@FAMILIES@", bs_buf_str(&fams));
			bs_buf_adds(&out, bs_buf_str(&line));
			if (nl)
				bs_buf_addc(&out, '\n');
		}
		p += len + (nl != NULL);
	}
	fputs(bs_buf_str(&out), f);
	bs_buf_release(&out);
	bs_buf_release(&line);
	bs_buf_release(&fields);
	bs_buf_release(&fams);
}

int bs_cli_open_measure_store(const struct bs_cli *cli,
			      struct bs_store **out)
{
	int rc = bs_cli_open_store(cli, 0, out);

	if (rc == 0)
		bs_store_set_wait(*out, BS_STORE_WAIT_MS, bs_signal_flag());
	return rc;
}

int bs_cli_store_new(const struct bs_cli *cli, struct bs_store *st,
		     struct bs_run *r)
{
	struct bs_err err = BS_ERR_INIT;

	if (bs_store_begin(st, &err) < 0)
		goto fail;
	/* Every measurement is one of its own, even when it prints the
	 * same text as an earlier one. */
	if (bs_store_put_new(st, r, &err) < 0) {
		bs_store_rollback(st);
		goto fail;
	}
	if (bs_store_commit(st, &err) < 0)
		goto fail;
	if (!cli->quiet)
		fprintf(stderr, "Stored as run %lld\n", (long long)r->id);
	return 0;
fail:
	/* A signal ends the wait for another writer's lock: the caller says
	 * so, rather than SQLite's "database is locked". */
	if (!bs_signal_pending())
		bs_cli_perr(cli, &err);
	return BS_EXIT_FAIL;
}

int bs_cli_tag_arg(const struct bs_cli *cli, const char *arg,
		   struct bs_tag **tags, size_t *ntags, size_t *cap)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_tag t;

	if (bs_store_parse_tag(arg, BS_TAG_NOT_OWN, &t.key, &t.value, &err) <
	    0)
		return bs_cli_usage_error(cli, "--tag: %s", err.msg);
	xgrow((void **)tags, cap, *ntags + 1, sizeof(**tags));
	(*tags)[(*ntags)++] = t;
	return 0;
}
