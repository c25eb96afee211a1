/*
 * tests/unit/test_faults.c - the archive under failing writes. A SQLite
 * VFS shim passes every call to the system's VFS but fails the Nth write,
 * truncate or sync (as a full disk or an I/O error would), and every one
 * after it. For N = 0, 1, 2, ... until nothing fails, real samples are
 * ingested as `bstore ingest` does (one transaction per file) into a copy
 * of an archive; then, with writes working again, the archive must be
 * intact (PRAGMA integrity_check), keep every run it had, and hold each
 * input file whole or not at all: nothing lost, nothing half-stored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/result.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"

/* ---- the shim ----------------------------------------------------------- */

static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim_vfs;
static long writes_left = -1; /* -1: never fail */
static long writes_seen;
static int fault_code = SQLITE_IOERR_WRITE;

struct shim_file {
	sqlite3_file base;
	sqlite3_file *real; /* follows this struct in the same allocation */
};

static int fault(void)
{
	writes_seen++;
	if (writes_left < 0)
		return 0;
	if (writes_left == 0)
		return 1;
	writes_left--;
	return 0;
}

#define REAL(f) (((struct shim_file *)(f))->real)

static int s_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int s_read(sqlite3_file *f, void *b, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), b, n, off);
}

static int s_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 off)
{
	if (fault())
		return fault_code;
	return REAL(f)->pMethods->xWrite(REAL(f), b, n, off);
}

static int s_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	if (fault())
		return SQLITE_IOERR_TRUNCATE;
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int s_sync(sqlite3_file *f, int flags)
{
	if (fault())
		return SQLITE_IOERR_FSYNC;
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int s_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int s_lock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xLock(REAL(f), l);
}

static int s_unlock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), l);
}

static int s_reserved(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int s_fcntl(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int s_sector(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int s_device(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int s_shm_map(sqlite3_file *f, int pg, int pgsz, int extend,
		     void volatile **pp)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, pgsz, extend, pp);
}

static int s_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}

static void s_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int s_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int s_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp);
}

static int s_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods shim_methods = {
	3,         s_close,   s_read,     s_write,       s_truncate,  s_sync,
	s_size,    s_lock,    s_unlock,   s_reserved,    s_fcntl,     s_sector,
	s_device,  s_shm_map, s_shm_lock, s_shm_barrier, s_shm_unmap, s_fetch,
	s_unfetch,
};

static int s_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
		  int flags, int *out_flags)
{
	struct shim_file *p = (struct shim_file *)f;
	int rc;

	(void)vfs;
	p->real = (sqlite3_file *)&p[1];
	rc = real_vfs->xOpen(real_vfs, name, p->real, flags, out_flags);
	p->base.pMethods = p->real->pMethods ? &shim_methods : NULL;
	return rc;
}

static int s_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	(void)vfs;
	return real_vfs->xDelete(real_vfs, name, sync);
}

static int s_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	(void)vfs;
	return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int s_full(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	return real_vfs->xFullPathname(real_vfs, name, n, out);
}

/* Makes the shim the default VFS, once. */
static void shim_install(void)
{
	if (real_vfs)
		return;
	real_vfs = sqlite3_vfs_find(NULL);
	assert_non_null(real_vfs);
	shim_vfs = *real_vfs;
	shim_vfs.zName = "bstore-faults";
	shim_vfs.szOsFile = (int)sizeof(struct shim_file) + real_vfs->szOsFile;
	shim_vfs.pNext = NULL;
	shim_vfs.xOpen = s_open;
	shim_vfs.xDelete = s_delete;
	shim_vfs.xAccess = s_access;
	shim_vfs.xFullPathname = s_full;
	assert_int_equal(sqlite3_vfs_register(&shim_vfs, 1), SQLITE_OK);
}

/* ---- ingesting as `bstore ingest` does --------------------------------- */

struct file_ctx {
	struct bs_store *st;
	const char *name;
	struct bs_err err;
};

static int on_run(struct bs_run *r, void *vctx)
{
	struct file_ctx *c = vctx;

	return bs_store_put(c->st, r, NULL, &c->err) < 0 ? -1 : 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *vctx)
{
	struct file_ctx *c = vctx;

	return bs_store_reject(c->st, c->name, line, raw, len, truncated,
			       reason, NULL, &c->err) < 0
		       ? -1
		       : 0;
}

static char *slurp(const char *path, size_t *len)
{
	struct bs_buf b = BS_BUF_INIT;
	char chunk[8192];
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		bs_buf_add(&b, chunk, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

/* One file in one transaction; returns 0 when it was committed. */
static int ingest_file(struct bs_store *st, const char *path)
{
	struct file_ctx c = {st, path, BS_ERR_INIT};
	struct bs_ingest_cb cb = {on_run, on_reject, NULL, &c};
	struct bs_ingest *p = bs_ingest_new(path, &cb, NULL);
	size_t len;
	char *text = slurp(path, &len);
	int rc;

	rc = bs_store_begin(st, &c.err);
	if (rc == 0)
		rc = bs_ingest_feed(p, text, len, &c.err);
	if (rc == 0)
		rc = bs_ingest_finish(p, &c.err);
	if (rc == 0)
		rc = bs_store_commit(st, &c.err);
	if (rc < 0) {
		bs_store_rollback(st);
		/* Every failure here is the shim's: it says so. */
		assert_true(c.err.msg[0] != '\0');
	}
	bs_ingest_free(p);
	free(text);
	return rc;
}

/* ---- checking ------------------------------------------------------------ */

static int64_t one_int(sqlite3 *db, const char *sql, const char *arg)
{
	sqlite3_stmt *s = NULL;
	int64_t v;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (arg)
		sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static char *path_of(const char *name)
{
	const char *dir = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;

	if (dir == NULL)
		dir = ".";
	mkdir(dir, 0700);
	bs_buf_addf(&b, "%s/test_faults_%s.db", dir, name);
	return bs_buf_detach(&b, NULL);
}

static void remove_db(const char *path)
{
	struct bs_buf b = BS_BUF_INIT;

	bs_buf_addf(&b, "%s-wal", path);
	unlink(bs_buf_str(&b));
	bs_buf_reset(&b);
	bs_buf_addf(&b, "%s-shm", path);
	unlink(bs_buf_str(&b));
	bs_buf_release(&b);
	unlink(path);
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = slurp(from, &len);
	FILE *f;

	remove_db(to);
	f = fopen(to, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(data);
}

#define NFILES 9

/*
 * Ingests the files with the Nth write failing, for every N, with the
 * given failure; the archive at base holds one run already.
 */
static void every_write_fails(int code, const char *tag)
{
	static const char *const names[NFILES] = {
		"bonnie++-1.03d-pasted-blog.txt",
		"bonnie++-2.00a-local-full.txt",
		"bonnie++-1.03-emc-raid5-cache.txt",
		"bonnie++-1.03-emc-raid5-nocache.txt",
		"bonnie++-1.03-emc-raid10-cache.txt",
		"bonnie++-1.03-emc-raid10-nocache.txt",
		"bonnie++-1.03-ata-raid10-cache.txt",
		"bonnie++-1.03-ata-raid10-nocache.txt",
		"bonnie++-1.03-t3-raid5.txt",
	};
	const char *samples = getenv("SAMPLES");
	char files[NFILES][512];
	char *base = path_of("base"), *work = path_of(tag);
	int64_t want[NFILES];
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	long n, failed_runs = 0, partial_runs = 0;
	int i;

	assert_non_null(samples);
	for (i = 0; i < NFILES; i++)
		snprintf(files[i], sizeof(files[i]), "%s/%s", samples,
			 names[i]);
	fault_code = code;
	writes_left = -1;

	/* The base archive, and how many runs each file gives. */
	remove_db(base);
	assert_int_equal(bs_store_open(&st, base, 0, &err), 0);
	assert_int_equal(ingest_file(st, files[0]), 0);
	bs_store_close(st);
	copy_file(base, work);
	assert_int_equal(bs_store_open(&st, work, 0, &err), 0);
	for (i = 1; i < NFILES; i++)
		assert_int_equal(ingest_file(st, files[i]), 0);
	bs_store_close(st);
	{
		sqlite3 *db = NULL;
		assert_int_equal(sqlite3_open(work, &db), SQLITE_OK);
		for (i = 0; i < NFILES; i++) {
			want[i] = one_int(db,
					  "SELECT count(*) FROM runs WHERE "
					  "source = ?",
					  files[i]);
			assert_true(want[i] > 0);
		}
		sqlite3_close(db);
	}

	for (n = 0;; n++) {
		sqlite3 *db = NULL;
		int opened;

		copy_file(base, work);
		writes_seen = 0;
		writes_left = n;
		st = NULL;
		opened = bs_store_open(&st, work, 0, &err) == 0;
		if (!opened)
			assert_true(strstr(err.msg, work) != NULL);
		bs_err_reset(&err);
		for (i = 1; opened && i < NFILES; i++)
			if (ingest_file(st, files[i]) < 0)
				failed_runs++;
		/* Writes work again: closing may checkpoint. */
		writes_left = -1;
		bs_store_close(st);

		assert_int_equal(sqlite3_open(work, &db), SQLITE_OK);
		assert_int_equal(one_int(db,
					 "SELECT count(*) FROM pragma_integrity_"
					 "check WHERE integrity_check <> 'ok'",
					 NULL),
				 0);
		/* The run it had, and each file whole or not at all. */
		assert_int_equal(one_int(db,
					 "SELECT count(*) FROM runs WHERE "
					 "source = ?",
					 files[0]),
				 want[0]);
		for (i = 1; i < NFILES; i++) {
			int64_t got = one_int(db,
					      "SELECT count(*) FROM runs "
					      "WHERE source = ?",
					      files[i]);
			if (got != 0 && got != want[i])
				fail_msg("N=%ld (%s): %s holds %lld of its "
					 "%lld runs",
					 n, tag, files[i], (long long)got,
					 (long long)want[i]);
			if (got == 0)
				partial_runs++;
		}
		/* No tag, latency or result row without its run. */
		assert_int_equal(one_int(db,
					 "SELECT count(*) FROM "
					 "pragma_foreign_key_check",
					 NULL),
				 0);
		sqlite3_close(db);
		/* Every write of the whole job went through: done. */
		if (writes_seen <= n)
			break;
	}
	/* The loop did meet failures, at every point of the job. */
	assert_true(n > 40);
	assert_true(failed_runs > 0 && partial_runs > 0);
	print_message("%s: %ld failure points, every one left the archive "
		      "whole\n",
		      tag, n);
	remove_db(work);
	remove_db(base);
	free(base);
	free(work);
}

static void test_io_errors(void **state)
{
	(void)state;
	shim_install();
	every_write_fails(SQLITE_IOERR_WRITE, "ioerr");
}

static void test_full_disk(void **state)
{
	(void)state;
	shim_install();
	every_write_fails(SQLITE_FULL, "full");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_io_errors),
		cmocka_unit_test(test_full_disk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
