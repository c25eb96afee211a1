/*
 * store/writer.c - how a write transaction's runs and rows reach the
 * engine: one writer per transaction, chosen when it begins by the
 * engine's bs_db_ops.writer (bs_store_begin), behind one interface
 * (struct bs_store_writer) that store/write.c calls without knowing which.
 *
 * direct     every statement waits for its result (SQLite);
 * pipelined  a server's (PostgreSQL): the transaction keeps the runs it
 *            knows (store/seen.c); a new run whose id seen.c foretells
 *            is sent with its rows without waiting (bs_db_defer: the
 *            engine's pipeline, COPY for BS_DB_BATCH statements), its
 *            tags as plain rows (a new run has none to replace).
 */
#include "store/internal.h"

#include "util/banned.h"

static int direct_run(struct bs_store *st, struct bs_db_stmt *s, int known,
		      int64_t *id, struct bs_err *err)
{
	int rc = bs_db_step(s);

	(void)known;
	if (rc == BS_DB_ROW)
		*id = bs_db_column_int64(s, 0);
	bs_db_reset(s);
	if (rc != BS_DB_ROW)
		return bs_store_db_error(st, err, "cannot store run");
	return 0;
}

static int direct_row(struct bs_store *st, struct bs_db_stmt *s,
		      const char *what, struct bs_err *err)
{
	return bs_store_step_done(st, s, what, err);
}

static struct bs_db_stmt *direct_tags(struct bs_store *st)
{
	return st->put_tag;
}

static void direct_done(struct bs_store *st)
{
	(void)st;
}

static const struct bs_store_writer direct = {
	.name = "direct",
	.knows_runs = 0,
	.run = direct_run,
	.row = direct_row,
	.tags = direct_tags,
	.done = direct_done,
};

static int piped_run(struct bs_store *st, struct bs_db_stmt *s, int known,
		     int64_t *id, struct bs_err *err)
{
	int rc;

	/* Its id foretold, the run and its rows are sent without waiting
	 * (store/seen.c). */
	if (known && (rc = bs_store_seen_next(st, id, err)) != 0) {
		if (rc < 0)
			return rc;
		if (bs_db_defer(s) < 0)
			return bs_store_db_error(st, err, "cannot store run");
		st->deferring = 1;
		return 0;
	}
	return direct_run(st, s, known, id, err);
}

static int piped_row(struct bs_store *st, struct bs_db_stmt *s,
		     const char *what, struct bs_err *err)
{
	if (st->deferring)
		return bs_db_defer(s) < 0 ? bs_store_db_error(st, err, what)
					  : 0;
	return bs_store_step_done(st, s, what, err);
}

/* A new run's, stored without waiting: plain rows (keys are unique in
 * r->tags, bs_run_tag), which COPY can take. */
static struct bs_db_stmt *piped_tags(struct bs_store *st)
{
	return st->deferring ? st->put_tag_new : st->put_tag;
}

static void piped_done(struct bs_store *st)
{
	st->deferring = 0;
}

static const struct bs_store_writer pipelined = {
	.name = "pipelined",
	.knows_runs = 1,
	.run = piped_run,
	.row = piped_row,
	.tags = piped_tags,
	.done = piped_done,
};

const struct bs_store_writer *bs_store_writer_direct(void)
{
	return &direct;
}

void bs_store_writer_choose(struct bs_store *st)
{
	st->deferring = 0;
	st->writer = bs_db_writer(st->db) == BS_DB_WRITE_PIPELINED ? &pipelined
								   : &direct;
}
