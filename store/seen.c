/*
 * store/seen.c - the runs a write transaction knows, kept in memory so that
 * an ingest of many runs into a server's archive (PostgreSQL) does not ask
 * the server, for every run, whether its SHA-256 or its measure key
 * (store/dedup.c) is stored already: each question is a round trip.
 *
 * Once a transaction has stored BS_SEEN_FROM runs, and the archive is
 * small beside what the transaction stores (its largest id at most
 * BS_SEEN_RATIO times the runs stored so far; asked again each time that
 * count doubles), every run's id, SHA-256, measure key and whether it is a
 * bonnie++ table are read once; the runs the transaction stores after
 * that are added as they are stored. This is valid because writers are
 * serialised: a write transaction holds the archive's write lock from its
 * BEGIN (bs_db_ops.begin_write_sql: PostgreSQL's transaction-scoped
 * advisory lock, SQLite's BEGIN IMMEDIATE), so inside it nobody else adds
 * or removes a run. What changes runs otherwise (rm, set, merge's
 * savepoints) and the transaction's end forget the set.
 *
 * Then the runs are stored without waiting for the server either
 * (the pipelined writer, store/writer.c), and so without reading the id
 * INSERT ... RETURNING gives: the id is foretold as the last one stored
 * plus one, which holds as long as nobody else takes ids from runs'
 * sequence, as no bstore does outside the write lock. That is checked
 * every BS_SEEN_CHECK runs and before COMMIT (the largest id must be the
 * last one foretold: the ids taken are distinct and larger than the last
 * one read), and an archive another program wrote to meanwhile fails the
 * transaction, storing nothing.
 *
 * Only for a transaction whose writer keeps the runs it knows (the
 * pipelined one, store/writer.c, for engines whose statements are round
 * trips); SQLite's lookups cost less than keeping the set.
 */
#include "store/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

enum {
	BS_SEEN_FROM = 64, /* runs stored before the set is worth it */
	BS_SEEN_RATIO = 16,
	BS_SEEN_CHECK = 4096, /* runs stored deferred between two checks */
};

struct seen_run {
	uint8_t sha[32];
	int64_t id;
	int64_t key; /* 0: none */
	int table;   /* a bonnie++ text table (store/dedup.c) */
};

struct bs_store_seen {
	int loaded;   /* 1: the set answers; -1: given up for this tx */
	size_t puts;  /* runs stored in this transaction */
	size_t check; /* the count at which loading is asked again */
	struct seen_run *run;
	size_t n, cap;
	/* Open addressing: entry index + 1, 0 empty. By SHA-256, and by
	 * measure key (every run with a key, so a key has many). */
	uint32_t *by_sha, *by_key;
	size_t slots;     /* a power of two, more than twice n */
	int64_t next_id;  /* the id the next run gets, 0: not known */
	size_t unchecked; /* runs stored with a foretold id since the last
	                           check */
};

void bs_store_seen_forget(struct bs_store *st)
{
	struct bs_store_seen *s = st->seen;

	st->tables = BS_TABLES_UNKNOWN; /* store/dedup.c's, forgotten alike */
	bs_store_absent_forget(st);     /* absent.c's filter, alike */
	if (s == NULL)
		return;
	free(s->run);
	free(s->by_sha);
	free(s->by_key);
	free(s);
	st->seen = NULL;
}

static size_t sha_slot(const uint8_t *sha, size_t mask)
{
	uint64_t h;

	memcpy(&h, sha, sizeof(h)); /* a digest: its bytes are spread */
	return (size_t)h & mask;
}

static size_t key_slot(int64_t key, size_t mask)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 17) & mask;
}

static void index_run(struct bs_store_seen *s, size_t i)
{
	size_t mask = s->slots - 1, k;

	for (k = sha_slot(s->run[i].sha, mask); s->by_sha[k];
	     k = (k + 1) & mask)
		;
	s->by_sha[k] = (uint32_t)(i + 1);
	if (s->run[i].key == 0)
		return;
	for (k = key_slot(s->run[i].key, mask); s->by_key[k];
	     k = (k + 1) & mask)
		;
	s->by_key[k] = (uint32_t)(i + 1);
}

static void add(struct bs_store_seen *s, const uint8_t *sha, int64_t id,
		int64_t key, int table)
{
	size_t i;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->run = xrealloc(s->run, s->cap * sizeof(*s->run));
	}
	memcpy(s->run[s->n].sha, sha, 32);
	s->run[s->n].id = id;
	s->run[s->n].key = key;
	s->run[s->n].table = table;
	s->n++;
	if (2 * s->n < s->slots)
		index_run(s, s->n - 1);
	else {
		s->slots = s->slots ? 2 * s->slots : 4096;
		free(s->by_sha);
		free(s->by_key);
		s->by_sha = xcalloc(s->slots, sizeof(*s->by_sha));
		s->by_key = xcalloc(s->slots, sizeof(*s->by_key));
		for (i = 0; i < s->n; i++)
			index_run(s, i);
	}
}

/* Reads every run of the archive into s: 0, or -BS_E* ("PATH: what:
 * ..."). */
static int load(struct bs_store *st, struct bs_store_seen *s, const char *what,
		struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *q = NULL;
	int rc;

	bs_buf_adds(&sql, "SELECT id, sha256, COALESCE(measure_key, 0), "
			  "CASE WHEN ");
	bs_db_glob(st->db, &sql, "format", BS_STORE_TABLE_FORMATS, NULL);
	bs_buf_adds(&sql, " THEN 1 ELSE 0 END FROM runs ORDER BY id");
	rc = bs_db_prepare(st->db, bs_buf_str(&sql), 0, &q, &dbe);
	bs_buf_release(&sql);
	if (rc < 0)
		return bs_store_db_fail(st, err, what, &dbe);
	while ((rc = bs_db_step(q)) == BS_DB_ROW) {
		rc = 0;
		/* A digest of another size (never written so): the set
		 * could not answer for it; the server is asked instead. */
		if (bs_db_column_type(q, 1) != BS_DB_BLOB ||
		    bs_db_column_bytes(q, 1) != 32) {
			s->loaded = -1;
			break;
		}
		add(s, bs_db_column_blob(q, 1), bs_db_column_int64(q, 0),
		    bs_db_column_int64(q, 2), bs_db_column_int64(q, 3) != 0);
	}
	if (rc < 0)
		rc = bs_store_db_error(st, err, what);
	bs_db_finalize(q);
	return rc < 0 ? rc : 0;
}

int bs_store_max_id(struct bs_store *st, int64_t *top, const char *what,
		    struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	int rc;

	if (st->max_id == NULL &&
	    bs_db_prepare(st->db, "SELECT COALESCE(max(id), 0) FROM runs",
			  BS_DB_KEEP, &st->max_id, &dbe) < 0)
		return bs_store_db_fail(st, err, what, &dbe);
	rc = bs_db_step(st->max_id);
	if (rc == BS_DB_ROW)
		*top = bs_db_column_int64(st->max_id, 0);
	else
		rc = bs_store_db_error(st, err, what);
	bs_db_reset(st->max_id);
	return rc < 0 ? rc : 0;
}

int bs_store_seen_check(struct bs_store *st, struct bs_err *err)
{
	struct bs_store_seen *s = st->seen;
	int64_t top;
	int rc;

	if (s == NULL || s->unchecked == 0)
		return 0;
	/* Waits for the runs stored deferred: their failure is this. */
	rc = bs_store_max_id(st, &top, "cannot store run", err);
	if (rc < 0)
		return rc;
	if (top != s->next_id - 1)
		return bs_error(err, BS_EDB,
				"%s: cannot store run: run ids were taken by "
				"another program meanwhile (%lld, not %lld)",
				st->path, (long long)top,
				(long long)(s->next_id - 1));
	s->unchecked = 0;
	return 0;
}

int bs_store_seen_end(struct bs_store *st, struct bs_err *err)
{
	int rc = bs_store_seen_check(st, err);

	bs_store_seen_forget(st);
	return rc;
}

int bs_store_seen_next(struct bs_store *st, int64_t *id, struct bs_err *err)
{
	struct bs_store_seen *s = st->seen;
	int rc;

	if (s == NULL || s->loaded <= 0 || s->next_id == 0)
		return 0;
	if (s->unchecked >= BS_SEEN_CHECK &&
	    (rc = bs_store_seen_check(st, err)) < 0)
		return rc;
	*id = s->next_id;
	s->unchecked++;
	return 1;
}

int bs_store_seen_ready(struct bs_store *st, struct bs_err *err)
{
	struct bs_store_seen *s = st->seen;
	int64_t top;
	int rc;

	if (!st->writer->knows_runs || !st->in_tx)
		return 0;
	if (s == NULL) {
		s = st->seen = xcalloc(1, sizeof(*s));
		s->check = BS_SEEN_FROM;
	}
	if (s->loaded)
		return s->loaded > 0;
	if (s->puts < s->check)
		return 0;
	s->check *= 2;
	rc = bs_store_max_id(st, &top, "cannot look up duplicate", err);
	if (rc < 0)
		return rc;
	if ((uint64_t)top > (uint64_t)s->puts * BS_SEEN_RATIO)
		return 0;
	rc = load(st, s, "cannot look up duplicate", err);
	if (rc < 0) {
		bs_store_seen_forget(st);
		return rc;
	}
	if (s->loaded == 0)
		s->loaded = 1;
	return s->loaded > 0;
}

void bs_store_seen_stored(struct bs_store *st, const uint8_t *sha, int64_t id,
			  int64_t key, int table)
{
	struct bs_store_seen *s = st->seen;

	if (s == NULL)
		return;
	s->puts++;
	if (s->loaded > 0) {
		add(s, sha, id, key, table);
		s->next_id = id + 1;
	}
}

int bs_store_seen_dup(struct bs_store *st, const uint8_t *sha, int64_t *id)
{
	struct bs_store_seen *s = st->seen;
	size_t mask = s->slots - 1, k;

	if (s->slots == 0)
		return 0;
	for (k = sha_slot(sha, mask); s->by_sha[k]; k = (k + 1) & mask) {
		const struct seen_run *r = &s->run[s->by_sha[k] - 1];
		if (memcmp(r->sha, sha, 32) == 0) {
			*id = r->id;
			return 1;
		}
	}
	return 0;
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

size_t bs_store_seen_same(struct bs_store *st, int64_t key, int table,
			  int64_t *cand, size_t max)
{
	struct bs_store_seen *s = st->seen;
	size_t mask = s->slots - 1, k, n = 0, i;
	int64_t *all = NULL;
	size_t nall = 0, cap = 0;

	if (s->slots == 0)
		return 0;
	/* Every run of the key, then the first max by id, as the
	 * server's ORDER BY id would give them. */
	for (k = key_slot(key, mask); s->by_key[k]; k = (k + 1) & mask) {
		const struct seen_run *r = &s->run[s->by_key[k] - 1];
		if (r->key != key || r->table != table)
			continue;
		if (nall == cap) {
			cap = cap ? 2 * cap : 16;
			all = xrealloc(all, cap * sizeof(*all));
		}
		all[nall++] = r->id;
	}
	if (nall > 1)
		qsort(all, nall, sizeof(*all), by_id);
	for (i = 0; i < nall && n < max; i++)
		cand[n++] = all[i];
	free(all);
	return n;
}
