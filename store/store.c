/*
 * store/store.c - the SQLite archive: open/migrate, write a run, read runs
 * back, selectors, tags, deletion. The only file that includes sqlite3.h.
 */
#include "store/store.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/banned.h"

extern const struct bs_embedded bs_schema_files[];

/* Parameter columns of `runs`, in the order of struct bs_params. */
static const char *const param_cols[] = {
	"file_size_mib", "io_chunk_bytes", "seek_count", "seek_procs",
	"per_char_mib",  "num_files",      "max_size",   "min_size",
	"num_dirs",      "file_chunk_bytes", "concurrency",
};
#define NPARAMS (sizeof(param_cols) / sizeof(param_cols[0]))

struct bs_store {
	sqlite3 *db;
	char *path;
	int in_tx;
	int wait_ms;                         /* see bs_store_set_wait() */
	const volatile sig_atomic_t *cancel;
	int64_t busy_since_ms;
	sqlite3_stmt *put;      /* INSERT INTO runs ... */
	sqlite3_stmt *dup;      /* SELECT id FROM runs WHERE sha256 = ? */
	sqlite3_stmt *put_tag;
	sqlite3_stmt *put_lat;
	sqlite3_stmt *reject;
};

static int64_t *param_ptr(struct bs_params *p, size_t i)
{
	int64_t *fields[NPARAMS] = {
		&p->file_size_mib, &p->io_chunk_bytes, &p->seeks,
		&p->seek_procs,    &p->per_char_mib,   &p->num_files,
		&p->max_size,      &p->min_size,       &p->num_dirs,
		&p->file_chunk_bytes, &p->concurrency,
	};
	return fields[i];
}

static int db_error(struct bs_store *st, struct bs_err *err, const char *what)
{
	return bs_error(err, BS_EDB, "%s: %s: %s", st->path, what,
			sqlite3_errmsg(st->db));
}

static int exec(struct bs_store *st, const char *sql, struct bs_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		bs_error(err, BS_EDB, "%s: %s", st->path,
			 msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -BS_EDB;
	}
	return 0;
}

static int on_busy(void *ctx, int count);

/*
 * exec() for statements that SQLite may refuse with SQLITE_BUSY without
 * calling the busy handler: switching to WAL while another process is
 * creating the same new archive (a read lock cannot wait to become a
 * write lock). Waits and retries as the busy handler would.
 */
static int exec_wait(struct bs_store *st, const char *sql,
		     struct bs_err *err)
{
	int count = 0;

	while (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		if ((sqlite3_errcode(st->db) & 0xff) != SQLITE_BUSY ||
		    !on_busy(st, count++))
			return bs_error(err, BS_EDB, "%s: %s", st->path,
					sqlite3_errmsg(st->db));
	}
	return 0;
}

static int prepare(struct bs_store *st, const char *sql, sqlite3_stmt **out,
		   struct bs_err *err)
{
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out,
			       NULL) != SQLITE_OK)
		return db_error(st, err, "cannot prepare statement");
	return 0;
}

static int64_t now_seconds(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	int64_t v;

	/* Reproducible builds' convention: tests pin timestamps with it. */
	if (sde && bs_parse_i64(sde, strlen(sde), &v) == 0)
		return v;
	return (int64_t)time(NULL);
}

/* Why a file that does not exist could not be created: ENOENT, or the
 * directory's EACCES, EROFS, ... */
static int create_errno(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int e = ENOENT;

	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	if (access(slash ? dir : ".", W_OK | X_OK) != 0 && errno != ENOENT)
		e = errno;
	free(dir);
	return e;
}

/* "cannot open archive 'PATH': <reason>", for failures while opening. */
static int open_error(struct bs_store *st, struct bs_err *err)
{
	int code = st->db ? sqlite3_errcode(st->db) : SQLITE_NOMEM;
	int sys = st->db ? sqlite3_system_errno(st->db) : 0;
	const char *why;

	/* SQLite says "unable to open database file" for every failed
	 * open(); the system's reason says which (ENOENT, EISDIR, ...).
	 * After a failed create SQLite tries read-only, and that ENOENT
	 * hides the directory's EACCES. */
	if ((code & 0xff) == SQLITE_CANTOPEN && sys == ENOENT)
		sys = create_errno(st->path);
	if (code == SQLITE_NOMEM)
		why = "out of memory";
	else if ((code & 0xff) == SQLITE_CANTOPEN && sys != 0)
		why = strerror(sys);
	else
		why = sqlite3_errmsg(st->db);
	return bs_error(err, BS_EDB, "cannot open archive '%s': %s", st->path,
			why);
}

static int user_version(struct bs_store *st, int *out, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	/* The first read of the file: fails with "file is not a database"
	 * on a file that is not SQLite. */
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) !=
	    SQLITE_OK)
		return open_error(st, err);
	rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return open_error(st, err);
	return 0;
}

/* How many tables, indexes and views the file holds; -1 on error. */
static int count_schema(struct bs_store *st)
{
	sqlite3_stmt *s = NULL;
	int n = -1;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_schema",
			       -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Refuses an archive of another schema version; v is not ours. */
static int wrong_version(struct bs_store *st, int v, struct bs_err *err)
{
	if (v > BS_SCHEMA_VERSION)
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': it was made by a "
				"newer bstore (schema version %d, this one "
				"knows %d); upgrade bstore",
				st->path, v, BS_SCHEMA_VERSION);
	if (v == 0) {
		int n = count_schema(st);

		if (n > 0)
			return bs_error(err, BS_EDB,
					"cannot open archive '%s': not a bstore "
					"archive (it has other tables); use "
					"another --db",
					st->path);
		if (n == 0)
			return bs_error(err, BS_EDB,
					"cannot open archive '%s': not a bstore "
					"archive (an empty database)",
					st->path);
	}
	return bs_error(err, BS_EDB,
			"cannot open archive '%s': not a bstore archive "
			"(schema version %d)",
			st->path, v);
}

/* Creates the schema in a new archive, or checks an existing one. */
static int migrate(struct bs_store *st, int readonly, struct bs_err *err)
{
	const struct bs_embedded *schema;
	struct bs_buf sql = BS_BUF_INIT;
	int v, n, rc;

	rc = user_version(st, &v, err);
	if (rc < 0)
		return rc;
	if (v == BS_SCHEMA_VERSION)
		return 0;
	if (v != 0 || readonly)
		return wrong_version(st, v, err);
	/* Runs are rows of ~600 bytes: bigger pages mean fewer of them to
	 * write and checkpoint. Only takes effect on a new file. Two
	 * processes may open a new archive at once: the first to get the
	 * write lock creates the schema, the other then finds it there. */
	rc = exec_wait(st, "PRAGMA page_size = 8192; BEGIN IMMEDIATE", err);
	if (rc < 0)
		return rc;
	rc = user_version(st, &v, err);
	if (rc < 0)
		goto out;
	if (v == BS_SCHEMA_VERSION)
		goto out;
	if (v != 0) {
		rc = wrong_version(st, v, err);
		goto out;
	}
	/* Version 0 with tables in it is somebody else's database. */
	n = count_schema(st);
	if (n != 0) {
		rc = n < 0 ? open_error(st, err) : wrong_version(st, v, err);
		goto out;
	}
	schema = bs_embed_find(bs_schema_files, "schema.sql");
	if (schema == NULL)
		BS_BUG("schema.sql not embedded");
	bs_buf_add(&sql, schema->text, schema->len);
	bs_buf_addf(&sql, "\nPRAGMA user_version = %d;\n", BS_SCHEMA_VERSION);
	rc = exec(st, bs_buf_str(&sql), err);
	if (rc == 0)
		rc = exec(st, "COMMIT", err);
out:
	if (rc < 0 || v == BS_SCHEMA_VERSION)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	bs_buf_release(&sql);
	return rc;
}

static int prepare_put(struct bs_store *st, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	size_t i, n = 0;
	int rc;

	bs_buf_adds(&sql, "INSERT INTO runs (tool, tool_version, format, "
			  "machine, measured_at, stored_at, seed, raw, sha256, "
			  "source, source_line, parser_version, warning");
	n = 13;
	for (i = 0; i < NPARAMS; i++, n++)
		bs_buf_addf(&sql, ", %s", param_cols[i]);
	for (i = 0; i < BS_M_COUNT; i++, n += 4) {
		const char *k = bs_metrics[i].key;
		bs_buf_addf(&sql, ", %s, %s_status, %s_cpu, %s_lat_us", k, k,
			    k, k);
	}
	bs_buf_adds(&sql, ") VALUES (?");
	for (i = 1; i < n; i++)
		bs_buf_adds(&sql, ", ?");
	bs_buf_adds(&sql, ")");
	rc = prepare(st, bs_buf_str(&sql), &st->put, err);
	bs_buf_release(&sql);
	return rc;
}

/* Once per process, before SQLite initialises itself: memory statistics
 * cost a global mutex on every allocation and bstore never reads them. */
static void configure_sqlite(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SQLite's busy handler: waits for another process's lock, in short sleeps
 * so that a cancel flag set by a signal handler ends the wait at once. */
static int on_busy(void *ctx, int count)
{
	struct bs_store *st = ctx;
	int64_t now = mono_ms();
	struct timespec ts;
	long ms;

	if (st->cancel && *st->cancel)
		return 0;
	if (count == 0)
		st->busy_since_ms = now;
	else if (now - st->busy_since_ms >= st->wait_ms)
		return 0;
	ms = count < 5 ? 1L << count : 50;
	ts.tv_sec = 0;
	ts.tv_nsec = ms * 1000000L;
	nanosleep(&ts, NULL); /* a signal ends it early: fine */
	return !(st->cancel && *st->cancel);
}

void bs_store_set_wait(struct bs_store *st, int wait_ms,
		       const volatile sig_atomic_t *cancel)
{
	st->wait_ms = wait_ms < 0 ? 0 : wait_ms;
	st->cancel = cancel;
}

const char *bs_store_path(const struct bs_store *st)
{
	return st->path;
}

int bs_store_open(struct bs_store **out, const char *path, int flags,
		  struct bs_err *err)
{
	struct bs_store *st;
	int readonly = flags & BS_STORE_READONLY;
	int oflags = readonly ? SQLITE_OPEN_READWRITE
			      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	int rc;

	*out = NULL;
	configure_sqlite();
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	if (flags & (BS_STORE_READONLY | BS_STORE_EXISTING)) {
		struct stat sb;
		if (stat(path, &sb) < 0) {
			rc = bs_error(err, BS_ENOTFOUND,
				      "cannot open archive '%s': %s", path,
				      strerror(errno));
			goto fail;
		}
	}
	/* Readers open read-write too so that WAL recovery can run; they
	 * never write. */
	if (sqlite3_open_v2(path, &st->db, oflags | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		rc = open_error(st, err);
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	st->wait_ms = BS_STORE_WAIT_MS;
	sqlite3_busy_handler(st->db, on_busy, st);
	rc = exec(st, "PRAGMA foreign_keys = ON", err);
	if (rc < 0)
		goto fail;
	/* Fails with "file is not a database" on a non-SQLite file. */
	rc = migrate(st, readonly, err);
	if (rc < 0)
		goto fail;
	/* A bigger page cache keeps a whole file's transaction (and the
	 * sha256 index it probes) in memory instead of spilling to the WAL
	 * and reading it back; 16 MiB keeps ingest well under 32 MiB. */
	rc = exec_wait(st,
		       "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
		       "PRAGMA cache_size = -16384;",
		       err);
	if (rc < 0)
		goto fail;
	if (!readonly) {
		rc = prepare_put(st, err);
		if (rc < 0)
			goto fail;
		/* The expression matches the index runs_sha256_prefix. */
		rc = prepare(st,
			     "SELECT id FROM runs WHERE substr(sha256, 1, 8) = "
			     "substr(?1, 1, 8) AND sha256 = ?1",
			     &st->dup, err);
		if (rc < 0)
			goto fail;
		rc = prepare(st,
			     "INSERT INTO tags (run_id, key, value) "
			     "VALUES (?, ?, ?) ON CONFLICT (run_id, key) "
			     "DO UPDATE SET value = excluded.value",
			     &st->put_tag, err);
		if (rc < 0)
			goto fail;
		rc = prepare(st,
			     "INSERT OR REPLACE INTO latency (run_id, metric, "
			     "mean_us, p50_us, p99_us) VALUES (?, ?, ?, ?, ?)",
			     &st->put_lat, err);
		if (rc < 0)
			goto fail;
		rc = prepare(st,
			     "INSERT INTO rejects (source, line, reason, raw, "
			     "truncated, sha256, stored_at) VALUES "
			     "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
			     &st->reject, err);
		if (rc < 0)
			goto fail;
	}
	*out = st;
	return 0;
fail:
	bs_store_close(st);
	return rc;
}

void bs_store_close(struct bs_store *st)
{
	if (st == NULL)
		return;
	if (st->in_tx)
		bs_store_rollback(st);
	sqlite3_finalize(st->put);
	sqlite3_finalize(st->dup);
	sqlite3_finalize(st->put_tag);
	sqlite3_finalize(st->put_lat);
	sqlite3_finalize(st->reject);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int bs_store_begin(struct bs_store *st, struct bs_err *err)
{
	int rc = exec(st, "BEGIN IMMEDIATE", err);

	if (rc == 0)
		st->in_tx = 1;
	return rc;
}

int bs_store_commit(struct bs_store *st, struct bs_err *err)
{
	int rc = exec(st, "COMMIT", err);

	if (rc == 0)
		st->in_tx = 0;
	return rc;
}

void bs_store_rollback(struct bs_store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = 0;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_i64(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == BS_NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

static void bind_double(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

/* The digest is kept as 32 bytes: half the size of hex in the row and in
 * the index that every insert probes. Decoded through a table: this runs
 * for every ingested line. */
static void bind_sha(sqlite3_stmt *s, int i, const char *hex, uint8_t *bin)
{
	static signed char val[256];
	static int ready;
	int k;

	if (!ready) {
		memset(val, -1, sizeof(val));
		for (k = 0; k < 10; k++)
			val['0' + k] = (signed char)k;
		for (k = 0; k < 6; k++) {
			val['a' + k] = (signed char)(10 + k);
			val['A' + k] = (signed char)(10 + k);
		}
		ready = 1;
	}
	for (k = 0; k < 32; k++) {
		int hi = val[(unsigned char)hex[2 * k]];
		int lo = val[(unsigned char)hex[2 * k + 1]];
		if ((hi | lo) < 0)
			BS_BUG("malformed sha256 hex");
		bin[k] = (uint8_t)(hi << 4 | lo);
	}
	sqlite3_bind_blob(s, i, bin, 32, SQLITE_STATIC);
}

static int step_done(struct bs_store *st, sqlite3_stmt *s, const char *what,
		     struct bs_err *err)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return db_error(st, err, what);
	return 0;
}

static int put_tags(struct bs_store *st, int64_t id, const struct bs_run *r,
		    struct bs_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < r->ntags; i++) {
		sqlite3_bind_int64(st->put_tag, 1, id);
		bind_text(st->put_tag, 2, r->tags[i].key);
		bind_text(st->put_tag, 3, r->tags[i].value);
		rc = step_done(st, st->put_tag, "cannot store tag", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int put_latency(struct bs_store *st, int64_t id, const struct bs_run *r,
		       struct bs_err *err)
{
	int i, rc;

	for (i = 0; i < BS_M_COUNT; i++) {
		const struct bs_value *v = &r->res[i];
		if (isnan(v->lat_mean_us) && isnan(v->lat_p50_us) &&
		    isnan(v->lat_p99_us))
			continue;
		sqlite3_bind_int64(st->put_lat, 1, id);
		bind_text(st->put_lat, 2, bs_metrics[i].key);
		bind_double(st->put_lat, 3, v->lat_mean_us);
		bind_double(st->put_lat, 4, v->lat_p50_us);
		bind_double(st->put_lat, 5, v->lat_p99_us);
		rc = step_done(st, st->put_lat, "cannot store latency", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int find_dup(struct bs_store *st, const char *hex, int64_t *id,
		    struct bs_err *err)
{
	uint8_t sha[32];
	int rc;

	bind_sha(st->dup, 1, hex, sha);
	rc = sqlite3_step(st->dup);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st->dup, 0);
	sqlite3_reset(st->dup);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(st, err, "cannot look up duplicate");
	return rc == SQLITE_ROW;
}

static int put(struct bs_store *st, struct bs_run *r, int once,
	       struct bs_err *err);

int bs_store_put(struct bs_store *st, struct bs_run *r, struct bs_err *err)
{
	return put(st, r, 1, err);
}

int bs_store_put_new(struct bs_store *st, struct bs_run *r,
		     struct bs_err *err)
{
	return put(st, r, 0, err);
}

/* once: a run whose SHA-256 is stored already is not stored again. */
static int put(struct bs_store *st, struct bs_run *r, int once,
	       struct bs_err *err)
{
	sqlite3_stmt *s = st->put;
	uint8_t sha[32];
	int i, n = 1, rc;
	size_t k;

	if (s == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
				st->path);
	if (r->raw == NULL || r->tool == NULL || r->format == NULL)
		BS_BUG("run without raw text, tool or format");
	if (r->sha256[0] == '\0')
		bs_sha256_hex(r->raw, strlen(r->raw), r->sha256);
	rc = once ? find_dup(st, r->sha256, &r->id, err) : 0;
	if (rc != 0) /* stored already (1), or the lookup failed */
		return rc < 0 ? rc : 0;
	r->stored_at = now_seconds();
	bind_text(s, n++, r->tool);
	bind_text(s, n++, r->tool_version);
	bind_text(s, n++, r->format);
	bind_text(s, n++, r->machine ? r->machine : "");
	bind_i64(s, n++, r->measured_at);
	bind_i64(s, n++, r->stored_at);
	bind_text(s, n++, r->params.seed);
	bind_text(s, n++, r->raw);
	bind_sha(s, n++, r->sha256, sha);
	bind_text(s, n++, r->source ? r->source : "");
	bind_i64(s, n++, r->source_line);
	bind_text(s, n++, r->parser_version ? r->parser_version : "");
	bind_text(s, n++, r->warning);
	for (k = 0; k < NPARAMS; k++)
		bind_i64(s, n++, *param_ptr(&r->params, k));
	for (i = 0; i < BS_M_COUNT; i++) {
		const struct bs_value *v = &r->res[i];
		bind_double(s, n++, v->status == BS_ST_OK ? v->value : NAN);
		sqlite3_bind_text(s, n++, bs_status_name(v->status), -1,
				  SQLITE_STATIC);
		bind_double(s, n++, v->cpu_pct);
		bind_double(s, n++, v->lat_us);
	}
	rc = step_done(st, s, "cannot store run", err);
	if (rc < 0)
		return rc;
	r->id = sqlite3_last_insert_rowid(st->db);
	rc = put_tags(st, r->id, r, err);
	if (rc < 0)
		return rc;
	rc = put_latency(st, r->id, r, err);
	if (rc < 0)
		return rc;
	return 1;
}

int bs_store_reject(struct bs_store *st, const char *source, int64_t line,
		    const char *raw, size_t len, int truncated,
		    const char *reason, struct bs_err *err)
{
	sqlite3_stmt *s = st->reject;
	char sha[BS_SHA256_HEX];
	int rc;

	if (s == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
				st->path);
	bs_sha256_hex(raw, len, sha);
	bind_text(s, 1, source);
	bind_i64(s, 2, line);
	bind_text(s, 3, reason);
	/* Kept as TEXT even when it is not valid UTF-8: nothing is lost. */
	sqlite3_bind_text(s, 4, raw, (int)len, SQLITE_STATIC);
	sqlite3_bind_int(s, 5, truncated ? 1 : 0);
	bind_text(s, 6, sha);
	sqlite3_bind_int64(s, 7, now_seconds());
	rc = step_done(st, s, "cannot store rejected line", err);
	if (rc < 0)
		return rc;
	return sqlite3_changes(st->db) > 0;
}

/* ---- selection ---------------------------------------------------- */

void bs_ids_release(struct bs_ids *ids)
{
	free(ids->id);
	ids->id = NULL;
	ids->n = 0;
	ids->cap = 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Merges sorted new ids into out, keeping it sorted and unique. */
static void ids_merge(struct bs_ids *out, const int64_t *add, size_t n)
{
	size_t i, j = 0;

	xgrow((void **)&out->id, &out->cap, out->n + n, sizeof(*out->id));
	memcpy(out->id + out->n, add, n * sizeof(*add));
	out->n += n;
	qsort(out->id, out->n, sizeof(*out->id), cmp_id);
	for (i = 0; i < out->n; i++)
		if (j == 0 || out->id[j - 1] != out->id[i])
			out->id[j++] = out->id[i];
	out->n = j;
}

/* Columns a key=value term may name; anything else is a tag key. */
static const char *column_for_key(const char *key, size_t len)
{
	static const struct {
		const char *key;
		const char *col;
	} cols[] = {
		{"machine", "machine"}, {"name", "machine"},
		{"tool", "tool"},       {"version", "tool_version"},
		{"format", "format"},   {"source", "source"},
	};
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (strlen(cols[i].key) == len &&
		    memcmp(cols[i].key, key, len) == 0)
			return cols[i].col;
	return NULL;
}

struct term_binds {
	const char *text[16];
	size_t len[16];
	int64_t num[16];
	int is_num[16];
	int n;
};

static int add_bind_text(struct term_binds *b, const char *s, size_t len)
{
	if (b->n >= 16)
		return -1;
	b->text[b->n] = s;
	b->len[b->n] = len;
	b->is_num[b->n] = 0;
	b->n++;
	return 0;
}

static int add_bind_num(struct term_binds *b, int64_t v)
{
	if (b->n >= 16)
		return -1;
	b->num[b->n] = v;
	b->is_num[b->n] = 1;
	b->n++;
	return 0;
}

/* Appends the SQL condition for one term of a selector. */
static int term_sql(const char *t, size_t len, struct bs_buf *sql,
		    struct term_binds *b, int64_t *limit, struct bs_err *err)
{
	const char *eq = memchr(t, '=', len);
	const char *dash;
	int64_t a, z;
	char q[64];

	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty selector term");
	if (eq) {
		const char *key = t, *val = eq + 1;
		size_t klen = (size_t)(eq - t), vlen = len - klen - 1;
		const char *col = column_for_key(key, klen);

		if (klen == 0)
			return bs_error(err, BS_EINVAL,
					"selector '%s' has no key before '='",
					bs_err_quote(q, sizeof(q), t, len, 40));
		/* id=12 and id=12-15 only: not id=last, id=raid=5. */
		if (klen == 2 && memcmp(key, "id", 2) == 0) {
			if (vlen == 0 || val[0] < '0' || val[0] > '9' ||
			    memchr(val, '=', vlen))
				goto bad;
			return term_sql(val, vlen, sql, b, limit, err);
		}
		if (col) {
			bs_buf_addf(sql, "r.%s = ?", col);
			if (add_bind_text(b, val, vlen) < 0)
				goto too_many;
		} else {
			bs_buf_adds(sql, "EXISTS (SELECT 1 FROM tags AS t "
					 "WHERE t.run_id = r.id AND t.key = ? "
					 "AND t.value = ?)");
			if (add_bind_text(b, key, klen) < 0 ||
			    add_bind_text(b, val, vlen) < 0)
				goto too_many;
		}
		return 0;
	}
	if (len == 3 && memcmp(t, "all", 3) == 0) {
		bs_buf_adds(sql, "1");
		return 0;
	}
	if (len == 4 && memcmp(t, "last", 4) == 0) {
		*limit = 1;
		bs_buf_adds(sql, "1");
		return 0;
	}
	if (len > 5 && memcmp(t, "last:", 5) == 0) {
		if (bs_parse_i64(t + 5, len - 5, &a) < 0 || a < 1)
			return bs_error(err, BS_EINVAL,
					"'%s': expected last:N with N >= 1",
					bs_err_quote(q, sizeof(q), t, len, 40));
		*limit = a;
		bs_buf_adds(sql, "1");
		return 0;
	}
	dash = len > 1 ? memchr(t + 1, '-', len - 1) : NULL;
	if (dash) {
		if (bs_parse_i64(t, (size_t)(dash - t), &a) < 0 ||
		    bs_parse_i64(dash + 1, len - (size_t)(dash - t) - 1, &z) <
			    0 ||
		    a < 1 || z < a)
			goto bad;
		bs_buf_adds(sql, "r.id BETWEEN ? AND ?");
		if (add_bind_num(b, a) < 0 || add_bind_num(b, z) < 0)
			goto too_many;
		return 0;
	}
	if (bs_parse_i64(t, len, &a) == 0 && a >= 1) {
		bs_buf_adds(sql, "r.id = ?");
		if (add_bind_num(b, a) < 0)
			goto too_many;
		return 0;
	}
bad:
	return bs_error(err, BS_EINVAL,
			"'%s' is not a selector (expected an id, a range "
			"like 12-15, 'last', 'all' or key=value)",
			bs_err_quote(q, sizeof(q), t, len, 40));
too_many:
	return bs_error(err, BS_EINVAL, "selector has too many terms");
}

/*
 * Copies a selector with its escapes undone ('\,' is a comma inside a
 * value, '\\' a backslash) and each separating ',' replaced by a NUL,
 * so that terms can be read one after the other. Returns the copy's
 * length.
 */
static size_t unescape_selector(const char *sel, char *out)
{
	size_t n = 0;

	for (; *sel; sel++) {
		if (*sel == '\\' && (sel[1] == ',' || sel[1] == '\\'))
			out[n++] = *++sel;
		else
			out[n++] = *sel == ',' ? '\0' : *sel;
	}
	out[n] = '\0';
	return n;
}

int bs_store_select(struct bs_store *st, const char *selector,
		    struct bs_ids *out, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	struct term_binds b;
	/* The copy outlives the statement: values are bound from it. */
	char *terms = xmalloc(strlen(selector) + 1);
	const char *p = terms, *end;
	size_t total = unescape_selector(selector, terms);
	int64_t limit = 0, *found = NULL;
	size_t nfound = 0, capfound = 0;
	sqlite3_stmt *s = NULL;
	int i, rc = 0, step;

	memset(&b, 0, sizeof(b));
	bs_buf_adds(&sql, "SELECT r.id FROM runs AS r WHERE ");
	for (;;) {
		end = p + strlen(p);
		if (p != terms)
			bs_buf_adds(&sql, " AND ");
		rc = term_sql(p, (size_t)(end - p), &sql, &b, &limit, err);
		if (rc < 0)
			goto out;
		if (end == terms + total)
			break;
		p = end + 1;
	}
	/* 'last' picks the newest runs among those the other terms match.
	 * Like every value from the user, N is a bound parameter. */
	if (limit > 0) {
		bs_buf_adds(&sql, " ORDER BY r.id DESC LIMIT ?");
		if (add_bind_num(&b, limit) < 0) {
			rc = bs_error(err, BS_EINVAL,
				      "selector has too many terms");
			goto out;
		}
	} else {
		bs_buf_adds(&sql, " ORDER BY r.id");
	}
	if (sqlite3_prepare_v2(st->db, bs_buf_str(&sql), -1, &s, NULL) !=
	    SQLITE_OK) {
		rc = db_error(st, err, "cannot select runs");
		goto out;
	}
	for (i = 0; i < b.n; i++) {
		if (b.is_num[i])
			sqlite3_bind_int64(s, i + 1, b.num[i]);
		else
			sqlite3_bind_text(s, i + 1, b.text[i], (int)b.len[i],
					  SQLITE_STATIC);
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		xgrow((void **)&found, &capfound, nfound + 1, sizeof(*found));
		found[nfound++] = sqlite3_column_int64(s, 0);
	}
	if (step != SQLITE_DONE) {
		rc = db_error(st, err, "cannot select runs");
		goto out;
	}
	if (nfound)
		ids_merge(out, found, nfound);
	rc = 0;
out:
	sqlite3_finalize(s);
	free(found);
	free(terms);
	bs_buf_release(&sql);
	return rc;
}

/* ---- reading ------------------------------------------------------ */

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	if (t == NULL)
		return NULL;
	return xstrndup((const char *)t, (size_t)sqlite3_column_bytes(s, i));
}

static int64_t col_i64(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL
		       ? BS_NONE
		       : sqlite3_column_int64(s, i);
}

static double col_double(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL
		       ? NAN
		       : sqlite3_column_double(s, i);
}

struct reader {
	sqlite3_stmt *runs;
	sqlite3_stmt *tags;
	sqlite3_stmt *lat;
	int load;
};

enum read_mode { READ_ALL, READ_ONE, READ_RANGE };

static int reader_open(struct bs_store *st, struct reader *rd, int load,
		       enum read_mode mode, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	size_t i;
	int rc = 0;

	memset(rd, 0, sizeof(*rd));
	rd->load = load;
	bs_buf_adds(&sql, "SELECT id, tool, tool_version, format, machine, "
			  "measured_at, stored_at, seed, source, source_line, "
			  "parser_version, warning, lower(hex(sha256)), ");
	bs_buf_adds(&sql, (load & BS_LOAD_RAW) ? "raw" : "NULL");
	for (i = 0; i < NPARAMS; i++)
		bs_buf_addf(&sql, ", %s", param_cols[i]);
	for (i = 0; i < BS_M_COUNT; i++) {
		const char *k = bs_metrics[i].key;
		bs_buf_addf(&sql, ", %s, %s_status, %s_cpu, %s_lat_us", k, k,
			    k, k);
	}
	bs_buf_adds(&sql, mode == READ_ALL   ? " FROM runs ORDER BY id"
			  : mode == READ_ONE ? " FROM runs WHERE id = ?"
					     : " FROM runs WHERE id BETWEEN ? AND "
					       "? ORDER BY id");
	if (sqlite3_prepare_v2(st->db, bs_buf_str(&sql), -1, &rd->runs,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
			       "SELECT key, value FROM tags WHERE run_id = ? "
			       "ORDER BY key",
			       -1, &rd->tags, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
			       "SELECT metric, mean_us, p50_us, p99_us FROM "
			       "latency WHERE run_id = ?",
			       -1, &rd->lat, NULL) != SQLITE_OK)
		rc = db_error(st, err, "cannot read runs");
	bs_buf_release(&sql);
	return rc;
}

static void reader_close(struct reader *rd)
{
	sqlite3_finalize(rd->runs);
	sqlite3_finalize(rd->tags);
	sqlite3_finalize(rd->lat);
}

/* Fills r from the current row of rd->runs, plus tags and latency. */
static int reader_row(struct bs_store *st, struct reader *rd,
		      struct bs_run *r, struct bs_err *err)
{
	sqlite3_stmt *s = rd->runs;
	int c = 0, i, rc;
	size_t k;

	bs_run_init(r);
	r->id = sqlite3_column_int64(s, c++);
	r->tool = col_text(s, c++);
	r->tool_version = col_text(s, c++);
	r->format = col_text(s, c++);
	r->machine = col_text(s, c++);
	r->measured_at = col_i64(s, c++);
	r->stored_at = col_i64(s, c++);
	r->params.seed = col_text(s, c++);
	r->source = col_text(s, c++);
	r->source_line = col_i64(s, c++);
	r->parser_version = col_text(s, c++);
	r->warning = col_text(s, c++);
	{
		const unsigned char *sha = sqlite3_column_text(s, c++);
		if (sha && strlen((const char *)sha) < sizeof(r->sha256))
			memcpy(r->sha256, sha,
			       strlen((const char *)sha) + 1);
	}
	r->raw = col_text(s, c++);
	for (k = 0; k < NPARAMS; k++)
		*param_ptr(&r->params, k) = col_i64(s, c++);
	for (i = 0; i < BS_M_COUNT; i++) {
		struct bs_value *v = &r->res[i];
		const unsigned char *stname;
		v->value = col_double(s, c++);
		stname = sqlite3_column_text(s, c++);
		if (stname == NULL ||
		    bs_status_parse((const char *)stname, &v->status) < 0)
			v->status = BS_ST_NOT_RUN;
		v->cpu_pct = col_double(s, c++);
		v->lat_us = col_double(s, c++);
	}
	if (rd->load & BS_LOAD_TAGS) {
		sqlite3_bind_int64(rd->tags, 1, r->id);
		while ((rc = sqlite3_step(rd->tags)) == SQLITE_ROW)
			bs_run_tag(r, (const char *)sqlite3_column_text(
					      rd->tags, 0),
				   (const char *)sqlite3_column_text(rd->tags,
								     1));
		sqlite3_reset(rd->tags);
		if (rc != SQLITE_DONE)
			return db_error(st, err, "cannot read tags");
	}
	/* Latency distributions exist only for bstore's own runs. */
	if (strcmp(r->format ? r->format : "", BS_FMT_BSTORE_RUN) == 0) {
		sqlite3_bind_int64(rd->lat, 1, r->id);
		while ((rc = sqlite3_step(rd->lat)) == SQLITE_ROW) {
			int m = bs_metric_find(
				(const char *)sqlite3_column_text(rd->lat, 0));
			if (m < 0)
				continue;
			r->res[m].lat_mean_us = col_double(rd->lat, 1);
			r->res[m].lat_p50_us = col_double(rd->lat, 2);
			r->res[m].lat_p99_us = col_double(rd->lat, 3);
		}
		sqlite3_reset(rd->lat);
		if (rc != SQLITE_DONE)
			return db_error(st, err, "cannot read latency");
	}
	return 0;
}

int bs_store_get(struct bs_store *st, int64_t id, int load, struct bs_run *r,
		 struct bs_err *err)
{
	struct reader rd;
	int rc;

	bs_run_init(r);
	rc = reader_open(st, &rd, load, READ_ONE, err);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(rd.runs, 1, id);
	rc = sqlite3_step(rd.runs);
	if (rc == SQLITE_ROW) {
		rc = reader_row(st, &rd, r, err);
	} else if (rc == SQLITE_DONE) {
		rc = bs_error(err, BS_ENOTFOUND, "no run with id %lld",
			      (long long)id);
	} else {
		rc = db_error(st, err, "cannot read run");
	}
out:
	reader_close(&rd);
	return rc;
}

/* A dense id list is read with one range scan, a sparse one by lookups. */
static int dense(const struct bs_ids *ids)
{
	uint64_t span;

	if (ids->n < 64)
		return 0;
	span = (uint64_t)(ids->id[ids->n - 1] - ids->id[0]) + 1;
	return span <= 4 * (uint64_t)ids->n;
}

int bs_store_each(struct bs_store *st, const struct bs_ids *ids, int load,
		  bs_run_fn fn, void *ctx, struct bs_err *err)
{
	enum read_mode mode = ids == NULL  ? READ_ALL
			      : dense(ids) ? READ_RANGE
					   : READ_ONE;
	struct bs_run r;
	struct reader rd;
	size_t i = 0;
	int rc, step;

	bs_run_init(&r);
	rc = reader_open(st, &rd, load, mode, err);
	if (rc < 0)
		goto out;
	if (mode != READ_ONE) {
		if (mode == READ_RANGE) {
			sqlite3_bind_int64(rd.runs, 1, ids->id[0]);
			sqlite3_bind_int64(rd.runs, 2, ids->id[ids->n - 1]);
		}
		while ((step = sqlite3_step(rd.runs)) == SQLITE_ROW) {
			if (mode == READ_RANGE) {
				/* Both ascend: skip rows not asked for. */
				int64_t id = sqlite3_column_int64(rd.runs, 0);
				while (i < ids->n && ids->id[i] < id)
					i++;
				if (i == ids->n)
					break;
				if (ids->id[i] != id)
					continue;
			}
			rc = reader_row(st, &rd, &r, err);
			if (rc == 0)
				rc = fn(&r, ctx);
			bs_run_release(&r);
			if (rc < 0)
				goto out;
		}
		if (step != SQLITE_DONE && step != SQLITE_ROW)
			rc = db_error(st, err, "cannot read runs");
		goto out;
	}
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(rd.runs, 1, ids->id[i]);
		step = sqlite3_step(rd.runs);
		if (step == SQLITE_ROW) {
			rc = reader_row(st, &rd, &r, err);
			sqlite3_reset(rd.runs);
			if (rc == 0)
				rc = fn(&r, ctx);
			bs_run_release(&r);
			if (rc < 0)
				goto out;
		} else {
			sqlite3_reset(rd.runs);
			if (step != SQLITE_DONE) {
				rc = db_error(st, err, "cannot read runs");
				goto out;
			}
		}
	}
	rc = 0;
out:
	bs_run_release(&r);
	reader_close(&rd);
	return rc;
}

/* ---- changes ------------------------------------------------------ */

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int bs_store_check_tag(const char *key, const char *value,
		       struct bs_err *err)
{
	size_t len = strlen(key);
	char q[64];

	bs_err_quote(q, sizeof(q), key, len, 40);
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty tag key");
	if (has_control(key) || (value && has_control(value)))
		return bs_error(err, BS_EINVAL,
				"tag '%s' has a control character (a "
				"newline?)",
				q);
	/* A selector splits at ',' and '=': such a key could never be
	 * selected. */
	if (strpbrk(key, "=,"))
		return bs_error(err, BS_EINVAL,
				"tag key '%s' has a '=' or ','", q);
	if (column_for_key(key, len) || strcmp(key, "id") == 0)
		return bs_error(err, BS_EINVAL,
				"'%s' is a run field, not a tag key "
				"(selectors read it from the run)",
				q);
	return 0;
}

int bs_store_tag(struct bs_store *st, const struct bs_ids *ids,
		 const char *key, const char *value, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc;

	/* Removing checks less: a tag stored before the checks existed can
	 * still be removed. */
	if (value)
		rc = bs_store_check_tag(key, value, err);
	else
		rc = key[0] ? 0 : bs_error(err, BS_EINVAL, "empty tag key");
	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(st->db,
			       value ? "INSERT INTO tags (run_id, key, value) "
				       "VALUES (?, ?, ?) ON CONFLICT "
				       "(run_id, key) DO UPDATE SET value = "
				       "excluded.value"
				     : "DELETE FROM tags WHERE run_id = ? AND "
				       "key = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(st, err, "cannot change tags");
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(s, 1, ids->id[i]);
		bind_text(s, 2, key);
		if (value)
			bind_text(s, 3, value);
		rc = step_done(st, s, "cannot change tags", err);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

int bs_store_rm(struct bs_store *st, const struct bs_ids *ids,
		struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, n = 0;

	if (sqlite3_prepare_v2(st->db, "DELETE FROM runs WHERE id = ?", -1,
			       &s, NULL) != SQLITE_OK)
		return db_error(st, err, "cannot delete runs");
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(s, 1, ids->id[i]);
		rc = step_done(st, s, "cannot delete run", err);
		if (rc < 0)
			goto out;
		n += sqlite3_changes(st->db);
	}
	rc = n;
out:
	sqlite3_finalize(s);
	return rc;
}

int bs_store_each_reject(struct bs_store *st, bs_reject_fn fn, void *ctx,
			 struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	struct bs_reject r;
	int rc = 0, step;

	if (sqlite3_prepare_v2(st->db,
			       "SELECT id, source, line, reason, raw, truncated, "
			       "stored_at FROM rejects ORDER BY id",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(st, err, "cannot read rejects");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		r.id = sqlite3_column_int64(s, 0);
		r.source = (const char *)sqlite3_column_text(s, 1);
		r.line = col_i64(s, 2);
		r.reason = (const char *)sqlite3_column_text(s, 3);
		r.raw = (const char *)sqlite3_column_text(s, 4);
		r.truncated = sqlite3_column_int(s, 5);
		r.stored_at = sqlite3_column_int64(s, 6);
		rc = fn(&r, ctx);
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(st, err, "cannot read rejects");
	sqlite3_finalize(s);
	return rc;
}

int bs_store_count(struct bs_store *st, int64_t *runs, int64_t *rejects,
		   struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(st->db,
			       "SELECT (SELECT count(*) FROM runs), "
			       "(SELECT count(*) FROM rejects)",
			       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		rc = db_error(st, err, "cannot count runs");
	} else {
		if (runs)
			*runs = sqlite3_column_int64(s, 0);
		if (rejects)
			*rejects = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	return rc;
}

/* ---- paths -------------------------------------------------------- */

char *bs_store_default_path(struct bs_err *err)
{
	const char *db = getenv("BSTORE_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	struct bs_buf p = BS_BUF_INIT;

	if (db && db[0])
		return xstrdup(db);
	/* XDG: a relative XDG_DATA_HOME is invalid and must be ignored. */
	if (xdg && xdg[0] == '/')
		bs_buf_addf(&p, "%s/bstore/bstore.db", xdg);
	else if (home && home[0])
		bs_buf_addf(&p, "%s/.local/share/bstore/bstore.db", home);
	else {
		bs_error(err, BS_EINVAL,
			 "no archive: set --db, $BSTORE_DB or $HOME");
		return NULL;
	}
	return bs_buf_detach(&p, NULL);
}

int bs_store_mkparents(const char *path, struct bs_err *err)
{
	char *dir = xstrdup(path);
	char *p;
	int rc = 0;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			rc = bs_error(err, BS_EIO, "cannot create '%s': %s",
				      dir, strerror(errno));
			break;
		}
		*p = '/';
	}
	free(dir);
	return rc;
}
