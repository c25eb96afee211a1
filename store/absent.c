/*
 * store/absent.c - the runs a write transaction knows are not stored, for
 * the writer whose look-ups ask the archive (the direct one, SQLite): a
 * Bloom filter (Bloom 1970) of the first 8 bytes of every stored run's
 * SHA-256, so that a new run's digest, which is in no run, costs no
 * look-up of the index runs_sha256_prefix. A digest the filter may hold
 * (a stored run, or one in a hundred of the others) is looked up as
 * before (store/write.c, find_dup): the filter only ever answers "surely
 * not stored".
 *
 * When it is worth it is seen.c's rule for its set: once a transaction
 * has asked BS_ABSENT_FROM times, and the archive's largest id is at most
 * BS_ABSENT_RATIO times the questions asked so far (asked again each time
 * that count doubles), the filter is filled once from the index (a read of
 * its 8-byte keys), then with every run
 * the transaction stores. When its runs outgrow it, it is filled again at
 * four times the size (each key read costs a sixth of a look-up: reading
 * them again at every doubling would cost a third of what the filter
 * saves, at four times a ninth): k = 5 probes in 8 bits a run, so that
 * it answers wrongly for at most 2% of new digests (full), 0.01% a
 * quarter full (Kirsch and Mitzenmacher 2006's two hashes, taken from
 * the digest's own bytes).
 *
 * This is valid because writers are serialised: a write transaction holds
 * the write lock from its BEGIN, so nobody else adds a run inside it; what
 * changes runs otherwise forgets the filter with seen.c's set
 * (bs_store_seen_forget). A run removed or a savepoint rolled back leaves
 * a digest the filter holds in vain: a look-up, never a wrong answer.
 */
#include "store/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

enum {
	BS_ABSENT_FROM = 1024, /* questions before the filter is worth it */
	BS_ABSENT_RATIO = 4,   /* the runs read for it, per question asked */
	BS_ABSENT_MIN = 4096,  /* the smallest filter, in runs */
	BS_ABSENT_PROBES = 5,
};

struct bs_store_absent {
	int loaded;    /* 1: the filter answers; -1: given up for this tx */
	size_t asked;  /* questions this transaction */
	size_t check;  /* the count at which filling is asked again */
	uint8_t *bits; /* 8 bits a run of cap */
	size_t cap;    /* runs it is made for: a power of two */
	size_t n;      /* runs in it */
};

void bs_store_absent_forget(struct bs_store *st)
{
	if (st->absent == NULL)
		return;
	free(st->absent->bits);
	free(st->absent);
	st->absent = NULL;
}

/* The bits of a digest's first 8 bytes (key): h1 + i h2, i < k. */
static void probes(const struct bs_store_absent *a, const uint8_t *key,
		   size_t bit[BS_ABSENT_PROBES])
{
	size_t mask = a->cap * 8 - 1;
	uint32_t h1, h2;
	int i;

	memcpy(&h1, key, 4);
	memcpy(&h2, key + 4, 4);
	h2 |= 1;
	for (i = 0; i < BS_ABSENT_PROBES; i++)
		bit[i] = (h1 + (uint32_t)i * h2) & mask;
}

static void put_key(struct bs_store_absent *a, const uint8_t *key)
{
	size_t bit[BS_ABSENT_PROBES];
	int i;

	probes(a, key, bit);
	for (i = 0; i < BS_ABSENT_PROBES; i++)
		a->bits[bit[i] >> 3] |= (uint8_t)(1u << (bit[i] & 7));
	a->n++;
}

static int holds(const struct bs_store_absent *a, const uint8_t *key)
{
	size_t bit[BS_ABSENT_PROBES];
	int i;

	probes(a, key, bit);
	for (i = 0; i < BS_ABSENT_PROBES; i++)
		if (!(a->bits[bit[i] >> 3] & (1u << (bit[i] & 7))))
			return 0;
	return 1;
}

#define WHAT "cannot look up duplicate"

/*
 * Fills a with the 8-byte keys of the index runs_sha256_prefix (read from
 * the index alone: the WHERE its expression), made for at least want
 * runs: 0, or -BS_EDB.
 */
static int fill(struct bs_store *st, struct bs_store_absent *a, size_t want,
		struct bs_err *err)
{
	struct bs_db_stmt *q = NULL;
	int rc;

	for (a->cap = BS_ABSENT_MIN; a->cap < want; a->cap *= 4)
		;
	free(a->bits);
	a->bits = xcalloc(a->cap, 1);
	a->n = 0;
	rc = bs_store_prepare_as(st,
				 "SELECT substr(sha256, 1, 8) FROM runs WHERE "
				 "substr(sha256, 1, 8) >= ?",
				 0, &q, WHAT, err);
	if (rc < 0)
		return rc;
	rc = bs_db_bind_blob(q, 1, "", 0);
	while (rc == 0 && (rc = bs_db_step(q)) == BS_DB_ROW) {
		rc = 0;
		/* A digest of another size (never written so): the filter
		 * could not answer for it; the archive is asked instead. */
		if (bs_db_column_type(q, 0) != BS_DB_BLOB ||
		    bs_db_column_bytes(q, 0) != 8) {
			a->loaded = -1;
			break;
		}
		put_key(a, bs_db_column_blob(q, 0));
	}
	if (rc < 0)
		rc = bs_store_db_error(st, err, WHAT);
	bs_db_finalize(q);
	return rc < 0 ? rc : 0;
}

int bs_store_absent(struct bs_store *st, const uint8_t *sha, struct bs_err *err)
{
	struct bs_store_absent *a = st->absent;
	int64_t top = 0;
	int rc;

	if (st->writer->knows_runs || !st->in_tx)
		return 0;
	if (a == NULL) {
		a = st->absent = xcalloc(1, sizeof(*a));
		a->check = BS_ABSENT_FROM;
	}
	a->asked++;
	if (a->loaded == 0 && a->asked >= a->check) {
		a->check *= 2;
		if ((rc = bs_store_max_id(st, &top, WHAT, err)) < 0)
			return rc;
		if ((uint64_t)top <= (uint64_t)a->asked * BS_ABSENT_RATIO) {
			if ((rc = fill(st, a, 2 * (size_t)top, err)) < 0) {
				bs_store_absent_forget(st);
				return rc;
			}
			if (a->loaded == 0)
				a->loaded = 1;
		}
	}
	if (a->loaded <= 0)
		return 0;
	return !holds(a, sha);
}

int bs_store_absent_stored(struct bs_store *st, const uint8_t *sha,
			   struct bs_err *err)
{
	struct bs_store_absent *a = st->absent;
	int rc;

	if (a == NULL || a->loaded <= 0)
		return 0;
	if (a->n < a->cap) {
		put_key(a, sha);
		return 0;
	}
	/* Outgrown: filled again from the index, which holds this run. */
	if ((rc = fill(st, a, 4 * a->cap, err)) < 0)
		bs_store_absent_forget(st);
	return rc;
}
