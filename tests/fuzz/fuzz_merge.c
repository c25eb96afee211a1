/*
 * tests/fuzz/fuzz_merge.c - libFuzzer target for what bstore does with an
 * SQLite file it did not write: bstore merge's source (store/merge.c, read
 * as untrusted) and opening, and upgrading, an archive (store/open.c,
 * store/migrate.c) and reading its runs back (store/read.c).
 *
 * Each input is an SQLite file, written to a scratch directory:
 *   - opened as a merge source (READONLY | NO_UPGRADE) and merged into an
 *     empty archive, in a transaction rolled back afterwards. A merge
 *     that fails says why; one that succeeds stored exactly the runs it
 *     counted as merged, and each of them, read back, passes the rule
 *     every run from outside passes (core/validate.h), so merge stored
 *     nothing ingest would refuse. The source file is left byte for byte
 *     and nothing is made beside it.
 *   - copied and opened as an archive (created, upgraded, or refused),
 *     and every run read back; a failure says why.
 * A step that runs past a second is stopped through the store's cancel
 * flag (SIGALRM sets it; SQLite's progress handler reads it), as a signal
 * stops bstore; anything that still hangs is a timeout for libFuzzer.
 * Leaks are LeakSanitizer's to find.
 *
 * Build with -DBSTORE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt), then:
 *   mkdir -p /tmp/corpus-merge
 *   ./fuzz_merge -dict=tests/fuzz/merge.dict /tmp/corpus-merge \
 *       tests/fuzz/corpus-merge
 * fuzz_merge_replay runs the same checks over files without libFuzzer.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/validate.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

/* The scratch directory and its files, made once. */
static struct bs_buf dir, src, dst, up;
static struct bs_store *into; /* the empty archive merged into */

static void path_in(struct bs_buf *b, const char *name)
{
	bs_buf_addf(b, "%s/%s", bs_buf_str(&dir), name);
}

static void remove_all(const char *path);

static void teardown(void)
{
	bs_store_close(into);
	into = NULL;
	remove_all(bs_buf_str(&src));
	remove_all(bs_buf_str(&dst));
	remove_all(bs_buf_str(&up));
	rmdir(bs_buf_str(&dir));
	bs_buf_release(&src);
	bs_buf_release(&dst);
	bs_buf_release(&up);
	bs_buf_release(&dir);
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	struct bs_err err = BS_ERR_INIT;
	struct sigaction sa;
	char *d;

	if (into)
		return;
	bs_buf_addf(&dir, "%s/bs-fuzz-merge-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	d = mkdtemp(dir.data);
	CHECK(d != NULL);
	path_in(&src, "src.db");
	path_in(&dst, "dst.db");
	path_in(&up, "up.db");
	CHECK(bs_store_open(&into, bs_buf_str(&dst), 0, &err) == 0);
	atexit(teardown);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

/* Removes path and what SQLite or an upgrade keeps beside it. */
static void remove_all(const char *path)
{
	static const char *const sfx[] = {"",         "-wal",    "-shm",
					  "-journal", ".v1.bak", ".v2.bak"};
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		bs_buf_reset(&b);
		bs_buf_addf(&b, "%s%s", path, sfx[i]);
		unlink(bs_buf_str(&b));
	}
	bs_buf_release(&b);
}

static void put_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f;

	remove_all(path);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
}

/* Whether the file holds exactly data. */
static int same_file(const char *path, const uint8_t *data, size_t size)
{
	struct bs_buf b = BS_BUF_INIT;
	char tmp[65536];
	size_t n;
	int same;
	FILE *f = fopen(path, "rb");

	CHECK(f != NULL);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	same = b.len == size && (size == 0 || memcmp(b.data, data, size) == 0);
	bs_buf_release(&b);
	return same;
}

static int exists(const char *path, const char *sfx)
{
	struct bs_buf b = BS_BUF_INIT;
	struct stat sb;
	int yes;

	bs_buf_addf(&b, "%s%s", path, sfx);
	yes = stat(bs_buf_str(&b), &sb) == 0;
	bs_buf_release(&b);
	return yes;
}

static void on_conflict(const struct bs_merge_conflict *c, void *ctx)
{
	(void)ctx;
	CHECK(c->field != NULL);
}

static void on_warn(const char *msg, void *ctx)
{
	(void)ctx;
	CHECK(msg[0] != '\0' && strchr(msg, '\n') == NULL);
}

/* Each run merged passes the rule; counts them. */
static int check_merged(const struct bs_run *r, void *ctx)
{
	struct bs_err err = BS_ERR_INIT;
	int64_t *n = ctx;

	if (bs_run_check(r, &err) != 0) {
		fprintf(stderr, "merged run %lld: %s\n", (long long)r->id,
			err.msg);
		CHECK(!"merge stored a run the rule refuses");
	}
	(*n)++;
	return 0;
}

static int count_run(const struct bs_run *r, void *ctx)
{
	(void)r;
	(*(int64_t *)ctx)++;
	return 0;
}

static void fuzz_merge(const uint8_t *data, size_t size)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_merge_stats s;
	struct bs_store *from = NULL;
	int64_t n = 0;
	int rc;

	put_file(bs_buf_str(&src), data, size);
	stop = 0;
	alarm(1);
	rc = bs_store_open_cancel(&from, bs_buf_str(&src),
				  BS_STORE_READONLY | BS_STORE_NO_UPGRADE,
				  &stop, &err);
	if (rc < 0) {
		CHECK(err.msg[0] != '\0');
		goto out;
	}
	bs_store_set_wait(from, 0, &stop);
	bs_store_set_warn(from, on_warn, NULL);
	bs_store_set_wait(into, 0, &stop);
	CHECK(bs_store_begin(into, &err) == 0);
	rc = bs_store_merge(into, from, &stop, on_conflict, NULL, &s, &err);
	if (rc < 0) {
		CHECK(err.msg[0] != '\0');
	} else {
		CHECK(bs_store_each(into, NULL, BS_LOAD_ALL, check_merged, &n,
				    &err) == 0 ||
		      stop);
		CHECK(n == s.merged || stop);
		CHECK(s.present == 0);
	}
	bs_store_rollback(into);
	bs_store_close(from);
	/* The source as it was, and nothing left beside it. */
	CHECK(same_file(bs_buf_str(&src), data, size));
	CHECK(!exists(bs_buf_str(&src), "-journal"));
	CHECK(!exists(bs_buf_str(&src), "-wal"));
	CHECK(!exists(bs_buf_str(&src), ".v1.bak"));
out:
	alarm(0);
}

static void fuzz_open(const uint8_t *data, size_t size)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	int64_t n = 0;
	int rc;

	put_file(bs_buf_str(&up), data, size);
	stop = 0;
	alarm(1);
	rc = bs_store_open_cancel(&st, bs_buf_str(&up), 0, &stop, &err);
	if (rc < 0) {
		CHECK(err.msg[0] != '\0');
		goto out;
	}
	bs_store_set_wait(st, 0, &stop);
	bs_store_set_warn(st, on_warn, NULL);
	rc = bs_store_each(st, NULL, BS_LOAD_ALL, count_run, &n, &err);
	CHECK(rc == 0 || err.msg[0] != '\0');
	bs_store_close(st);
out:
	alarm(0);
	remove_all(bs_buf_str(&up));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* SQLite files are at least a page; a huge one is only slow. */
	if (size > (1 << 20))
		return 0;
	setup();
	fuzz_merge(data, size);
	fuzz_open(data, size);
	return 0;
}
