/*
 * cli/measure.c - the one measuring driver of run, zcav and fileio
 * (bs_cli_measure), and what they share: their --tag, the progress line,
 * the archive opened before they measure, a run just measured stored as
 * a new one, and the "stopped by" epilogue.
 */
#include <stdio.h>

#include <assert.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/measure.h"
#include "cli/msg.h"
#include "cli/opt.h"
#include "core/host.h"
#include "core/scratch.h"
#include "util/mem.h"
#include "util/banned.h"

int bs_cli_measure_open(const struct bs_cli *cli, int store, const char *dir,
			struct bs_store **st, struct bs_host *host)
{
	struct bs_err err = BS_ERR_INIT;

	if (store) {
		int rc = bs_cli_open_store(cli, 0, st);

		if (rc != 0)
			return rc;
		bs_store_set_wait(*st, BS_STORE_WAIT_MS, bs_signal_flag());
	}
	if (bs_host_probe(dir, host, &err) < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	return 0;
}

int bs_cli_store_new(const struct bs_cli *cli, struct bs_store *st,
		     struct bs_run *r, const char *lost)
{
	struct bs_err err = BS_ERR_INIT;
	int sig;

	if (st == NULL)
		return 0;
	/* A run stored without its text has no digest to be known by, and
	 * one of no family no reader or writer knows. */
	assert(r->raw != NULL && r->raw[0] != '\0');
	assert(bs_family_ok(r->family));
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
	/* A signal ends the wait for another writer's lock: say so, rather
	 * than SQLite's "database is locked". */
	sig = bs_signal_pending();
	if (sig) {
		bs_cli_error(cli,
			     "stopped by %s while waiting for the archive; %s",
			     bs_cli_signal_name(sig), lost);
		return 128 + sig;
	}
	bs_cli_perr(cli, &err);
	return BS_EXIT_FAIL;
}

int bs_cli_tag_arg(const struct bs_cli *cli, const char *arg,
		   struct bs_tag **tags, size_t *ntags, size_t *cap)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_tag t;

	if (bs_store_parse_tag(arg, BS_TAG_NOT_OWN, &t.key, &t.value, &err) < 0)
		return bs_cli_usage_error(cli, "--tag: %s", err.msg);
	xgrow((void **)tags, cap, *ntags + 1, sizeof(**tags));
	(*tags)[(*ntags)++] = t;
	return 0;
}

int bs_opt_tag(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field)
{
	struct bs_cli_tags *t = field;

	(void)o;
	return bs_cli_tag_arg(cli, arg, &t->tag, &t->n, &t->cap);
}

void bs_cli_tags_release(struct bs_cli_tags *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->tag[i].key);
		free(t->tag[i].value);
	}
	free(t->tag);
	t->tag = NULL;
	t->n = t->cap = 0;
}

void bs_cli_progress_init(struct bs_cli_progress *p, const struct bs_cli *cli,
			  int erase)
{
	p->tty = isatty(STDERR_FILENO);
	p->quiet = cli->quiet;
	p->erase = erase;
	p->open_line = 0;
}

void bs_cli_progress_end(struct bs_cli_progress *p)
{
	if (!p->open_line)
		return;
	fputs(p->erase ? "\r\033[K" : "\n", stderr);
	fflush(stderr);
	p->open_line = 0;
}

/* One run measured, printed and stored: BS_EXIT_OK or the status. */
static int measure_one(const struct bs_cli *cli,
		       const struct bs_cli_measuring *m, uint64_t it,
		       struct bs_store *st, const struct bs_host *host,
		       struct bs_run *r)
{
	struct bs_err err = BS_ERR_INIT;
	char lost[64];
	int rc, sig;

	if (m->noun)
		snprintf(lost, sizeof(lost), "%s %llu not stored", m->noun,
			 (unsigned long long)it + 1);
	else
		snprintf(lost, sizeof(lost), "nothing stored");
	bs_run_release(r);
	bs_run_init(r);
	rc = m->measure(cli, m->ctx, it, r, &err);
	bs_cli_progress_end(m->progress);
	sig = bs_signal_pending();
	if (sig) {
		bs_cli_error(cli, "stopped by %s; %s%s",
			     bs_cli_signal_name(sig),
			     m->scratch ? "scratch files removed, " : "", lost);
		if (rc < 0 && err.code && err.code != BS_EINTR)
			bs_cli_perr(cli, &err);
		return 128 + sig;
	}
	if (rc < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	rc = m->to_run(cli, m->ctx, host, r);
	if (rc == BS_EXIT_OK)
		rc = bs_cli_store_new(cli, st, r, lost);
	return m->stored ? m->stored(cli, m->ctx, st, rc) : rc;
}

int bs_cli_measure(const struct bs_cli *cli, const struct bs_cli_measuring *m)
{
	struct bs_store *st = NULL;
	struct bs_host host;
	struct bs_run r;
	uint64_t it;
	int rc;

	bs_run_init(&r);
	rc = bs_cli_measure_open(cli, m->store, m->dir, &st, &host);
	if (rc == 0 && m->prepare)
		rc = m->prepare(cli, m->ctx);
	if (rc == 0)
		bs_signals_install();
	for (it = 0; rc == 0 && it < m->count; it++) {
		if (m->count > 1 && !cli->quiet)
			fprintf(stderr, "Iteration %llu of %llu\n",
				(unsigned long long)it + 1,
				(unsigned long long)m->count);
		rc = measure_one(cli, m, it, st, &host, &r);
	}
	bs_signals_restore();
	bs_store_close(st);
	bs_run_release(&r);
	return rc;
}

const char *bs_cli_host_name(char *buf, size_t size)
{
	struct utsname u;

	if (uname(&u) == 0)
		snprintf(buf, size, "%s", u.nodename);
	else if (size > 0)
		buf[0] = '\0';
	return buf;
}
