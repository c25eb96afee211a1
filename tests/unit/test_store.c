/* tests/unit/test_store.c - the archive: put, duplicates, selectors, tags. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/result.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

static char *scratch_path(const char *name)
{
	const char *dir = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;

	if (dir == NULL)
		dir = ".";
	mkdir(dir, 0700);
	bs_buf_addf(&b, "%s/test_store_%s.db", dir, name);
	unlink(bs_buf_str(&b));
	bs_buf_addf(&b, "-wal");
	unlink(bs_buf_str(&b));
	bs_buf_trim(&b, 4);
	return bs_buf_detach(&b, NULL);
}

/* A run as the parser would produce it from a 1.03 line. */
static void make_run(struct bs_run *r, const char *machine, const char *raw,
		     double put_block)
{
	bs_run_init(r);
	bs_run_set(&r->tool, "bonnie++");
	bs_run_set(&r->tool_version, "1.03");
	bs_run_set(&r->format, BS_FMT_CSV_1_0X);
	bs_run_set(&r->machine, machine);
	bs_run_set(&r->raw, raw);
	bs_run_set(&r->source, "t.csv");
	bs_run_set(&r->parser_version, "test");
	r->source_line = 1;
	r->params.file_size_mib = 8192;
	r->params.num_files = 16;
	r->res[BS_M_PUT_BLOCK].status = BS_ST_OK;
	r->res[BS_M_PUT_BLOCK].value = put_block;
	r->res[BS_M_PUT_BLOCK].cpu_pct = 54;
	r->res[BS_M_SEQ_STAT].status = BS_ST_TOO_FAST;
}

/*
 * With BSTORE_TEST_DB (a postgresql:// URL: ctest's pg.unit.test_store,
 * tests/pg/run.sh), a new archive is a new database "test_store_NAME" of
 * that server, made with psql; its URL is BSTORE_TEST_DB's with that
 * database.
 */
static char *pg_new(const char *url, const char *name)
{
	const char *auth = strstr(url, "://") + 3;
	const char *path = auth + strcspn(auth, "/?");
	const char *query = path + strcspn(path, "?");
	const char *bin = getenv("PG_BIN");
	struct bs_buf cmd = BS_BUF_INIT, out = BS_BUF_INIT;

	bs_buf_addf(&cmd,
		    "'%s%spsql' -X -q -d '%s' -c 'DROP DATABASE IF EXISTS "
		    "test_store_%s' -c 'CREATE DATABASE test_store_%s'",
		    bin ? bin : "", bin ? "/" : "", url, name, name);
	assert_int_equal(system(bs_buf_str(&cmd)), 0);
	bs_buf_add(&out, url, (size_t)(path - url));
	bs_buf_addf(&out, "/test_store_%s%s", name, query);
	bs_buf_release(&cmd);
	return bs_buf_detach(&out, NULL);
}

/* What became of r (enum bs_store_outcome), or bs_store_put's error. */
static int put_as(struct bs_store *st, struct bs_run *r, struct bs_err *err)
{
	enum bs_store_outcome how = BS_STORE_REPLACED + 1;
	int rc = bs_store_put(st, r, &how, err);

	return rc < 0 ? rc : (int)how;
}

static struct bs_store *open_new(const char *name)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	const char *url = getenv("BSTORE_TEST_DB");
	char *path = url ? pg_new(url, name) : scratch_path(name);

	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	free(path);
	return st;
}

static void test_put_get_dup(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = open_new("put");
	struct bs_run r, back;
	int64_t runs, rejects, first;
	enum bs_store_outcome how = BS_STORE_SAME_RUN;

	(void)state;
	make_run(&r, "jump", "jump,8G,1,2", 84734);
	bs_run_tag(&r, "raid", "10");
	assert_int_equal(bs_store_begin(st, &err), 0);
	assert_int_equal(put_as(st, &r, &err), BS_STORE_STORED);
	first = r.id;
	assert_true(first > 0);
	assert_int_equal(strlen(r.sha256), 64);
	/* The same line again is a duplicate and keeps the first id. */
	r.sha256[0] = '\0';
	r.id = 0;
	assert_int_equal(put_as(st, &r, &err), BS_STORE_DUPLICATE);
	assert_true(r.id == first);
	assert_int_equal(bs_store_reject(st, "t.csv", 3, "bad,line", 8, 0,
					 "expected 27 fields", &how, &err),
			 0);
	assert_int_equal(how, BS_STORE_STORED);
	assert_int_equal(bs_store_reject(st, "t.csv", 3, "bad,line", 8, 0,
					 "expected 27 fields", &how, &err),
			 0);
	assert_int_equal(how, BS_STORE_DUPLICATE);
	assert_int_equal(bs_store_commit(st, &err), 0);
	assert_int_equal(bs_store_count(st, &runs, &rejects, &err), 0);
	assert_true(runs == 1 && rejects == 1);

	assert_int_equal(bs_store_get(st, first, BS_LOAD_ALL, &back, &err), 0);
	assert_string_equal(back.machine, "jump");
	assert_string_equal(back.raw, "jump,8G,1,2");
	assert_string_equal(back.sha256, r.sha256);
	assert_true(back.params.file_size_mib == 8192);
	assert_true(back.params.seeks == BS_NONE);
	assert_int_equal(back.res[BS_M_PUT_BLOCK].status, BS_ST_OK);
	assert_true(back.res[BS_M_PUT_BLOCK].value == 84734);
	assert_int_equal(back.res[BS_M_SEQ_STAT].status, BS_ST_TOO_FAST);
	assert_true(isnan(back.res[BS_M_SEQ_STAT].value));
	assert_int_equal(back.res[BS_M_PUTC].status, BS_ST_NOT_RUN);
	assert_string_equal(bs_run_tag_get(&back, "raid"), "10");
	bs_run_release(&back);
	assert_int_equal(bs_store_get(st, 999, 0, &back, &err), -BS_ENOTFOUND);
	bs_run_release(&r);
	bs_store_close(st);
}

static size_t select_n(struct bs_store *st, const char *sel)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	size_t n;

	assert_int_equal(bs_store_select(st, sel, &ids, &err), 0);
	n = ids.n;
	bs_ids_release(&ids);
	return n;
}

static void test_selectors(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = open_new("sel");
	struct bs_ids ids = BS_IDS_INIT, ids7 = BS_IDS_INIT;
	struct bs_run r;
	char raw[32];
	int i;

	(void)state;
	assert_int_equal(bs_store_begin(st, &err), 0);
	for (i = 1; i <= 6; i++) {
		snprintf(raw, sizeof(raw), "line %d", i);
		make_run(&r, i <= 3 ? "jump" : "billing", raw, 1000.0 * i);
		bs_run_tag(&r, "raid", i % 2 ? "5" : "10");
		assert_int_equal(put_as(st, &r, &err), BS_STORE_STORED);
		bs_run_release(&r);
	}
	assert_int_equal(bs_store_commit(st, &err), 0);

	assert_int_equal(select_n(st, "all"), 6);
	assert_int_equal(select_n(st, "2"), 1);
	assert_int_equal(select_n(st, "2-4"), 3);
	assert_int_equal(select_n(st, "99"), 0);
	assert_int_equal(select_n(st, "machine=jump"), 3);
	assert_int_equal(select_n(st, "raid=5"), 3);
	assert_int_equal(select_n(st, "machine=jump,raid=5"), 2);
	assert_int_equal(select_n(st, "tool=bonnie++,version=1.03"), 6);
	assert_int_equal(select_n(st, "last:2"), 2);
	assert_int_equal(select_n(st, "last:9223372036854775807"), 6);
	assert_int_equal(select_n(st, "raid=5,last:2"), 2);

	/* 'last' is the newest among the matches; union across calls. */
	assert_int_equal(bs_store_select(st, "machine=jump,last", &ids, &err),
			 0);
	assert_int_equal(ids.n, 1);
	assert_true(ids.id[0] == 3);
	assert_int_equal(bs_store_select(st, "1-3", &ids, &err), 0);
	assert_int_equal(ids.n, 3);
	assert_true(ids.id[0] == 1 && ids.id[2] == 3);

	assert_int_equal(bs_store_select(st, "4-2", &ids, &err), -BS_EINVAL);
	bs_err_reset(&err);
	assert_int_equal(bs_store_select(st, "bogus", &ids, &err), -BS_EINVAL);
	assert_non_null(strstr(err.msg, "'bogus' is not a selector"));
	bs_err_reset(&err);
	assert_int_equal(bs_store_select(st, "=x", &ids, &err), -BS_EINVAL);
	bs_err_reset(&err);
	/* id= takes an id or a range, nothing else. */
	assert_int_equal(select_n(st, "id=2"), 1);
	assert_int_equal(select_n(st, "id=2-4,raid=10"), 2);
	{
		static const char *const bad[] = {
			"id=",
			"id=last",
			"id=all",
			"id=raid=5",
			"id=machine=jump",
			"id=-1",
			"id=id=2",
			"0",
			"2-",
			"9999999999999999999999",
			"last:0",
			"a,,b",
		};
		size_t k;

		for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			assert_int_equal(bs_store_select(st, bad[k], &ids,
							 &err),
					 -BS_EINVAL);
			bs_err_reset(&err);
		}
	}
	assert_int_equal(ids.n, 3);

	/* Tag, untag, delete. */
	assert_int_equal(bs_store_tag(st, &ids, "cache", "on", &err), 0);
	assert_int_equal(select_n(st, "cache=on"), 3);
	assert_int_equal(bs_store_tag(st, &ids, "cache", NULL, &err), 0);
	assert_int_equal(select_n(st, "cache=on"), 0);
	/* A ',' in a value (mount options) is escaped as '\,'; '\\' is a
	 * backslash; any other backslash is itself. */
	assert_int_equal(bs_store_tag(st, &ids, "mnt", "rw,relatime", &err), 0);
	assert_int_equal(select_n(st, "mnt=rw\\,relatime"), 3);
	assert_int_equal(select_n(st, "mnt=rw\\,relatime,cache=on"), 0);
	assert_int_equal(select_n(st, "mnt=rw\\,relatime,1-2"), 2);
	assert_int_equal(select_n(st, "mnt=rw"), 0);
	assert_int_equal(bs_store_tag(st, &ids, "p", "a\\b\\", &err), 0);
	assert_int_equal(select_n(st, "p=a\\b\\\\"), 3);
	assert_int_equal(select_n(st, "p=a\\\\b\\\\,mnt=rw\\,relatime"), 3);
	assert_int_equal(bs_store_select(st, "mnt=rw,relatime", &ids, &err),
			 -BS_EINVAL);
	bs_err_reset(&err);
	/* A run measured now is stored even when its line repeats; a later
	 * ingest of the line finds the first of them. */
	make_run(&r, "jump", "line 1", 1000.0);
	assert_int_equal(bs_store_put_new(st, &r, &err), 0);
	assert_true(r.id == 7);
	bs_run_release(&r);
	make_run(&r, "jump", "line 1", 1000.0);
	assert_int_equal(put_as(st, &r, &err), BS_STORE_DUPLICATE);
	assert_true(r.id == 1);
	bs_run_release(&r);
	assert_int_equal(select_n(st, "7"), 1);
	assert_int_equal(bs_store_select(st, "7", &ids7, &err), 0);
	assert_int_equal(bs_store_rm(st, &ids7, &err), 1);
	bs_ids_release(&ids7);
	assert_int_equal(bs_store_rm(st, &ids, &err), 3);
	assert_int_equal(select_n(st, "all"), 3);
	assert_int_equal(select_n(st, "machine=jump"), 0);
	bs_ids_release(&ids);
	bs_store_close(st);
}

/* Puts a run of `bstore run` (stored even when its line repeats). */
static void put_made(struct bs_store *st, const char *raw, int64_t when)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;

	make_run(&r, "box", raw, 1000.0);
	bs_run_set(&r.format, BS_FMT_BSTORE_RUN);
	r.measured_at = when;
	assert_int_equal(bs_store_put_new(st, &r, &err), 0);
	bs_run_release(&r);
}

struct conflicts {
	int n;
	char last[256];
};

static void on_conflict(const struct bs_merge_conflict *c, void *vctx)
{
	struct conflicts *x = vctx;

	x->n++;
	snprintf(x->last, sizeof(x->last), "%lld %lld %s %s %s %s",
		 (long long)c->ours, (long long)c->theirs, c->field,
		 c->key ? c->key : "-", c->our_value ? c->our_value : "-",
		 c->their_value ? c->their_value : "-");
}

static void merge(struct bs_store *st, struct bs_store *from,
		  struct bs_merge_stats *s, struct conflicts *x)
{
	struct bs_err err = BS_ERR_INIT;

	assert_int_equal(bs_store_begin(st, &err), 0);
	assert_int_equal(bs_store_merge(st, from, NULL, on_conflict, x, s,
					&err),
			 0);
	assert_int_equal(bs_store_commit(st, &err), 0);
}

/* Runs of bstore run with the same line pair up by measured_at and
 * count; an ingested line is here once; tags are united, a differing
 * value keeps ours and is reported. */
static void test_merge(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *x = open_new("merge_x"), *y = open_new("merge_y");
	struct bs_store *ro = NULL;
	struct bs_merge_stats s;
	struct conflicts c = {0, ""};
	struct bs_run r;
	int64_t runs;

	(void)state;
	assert_int_equal(bs_store_begin(x, &err), 0);
	put_made(x, "same", 100);
	put_made(x, "same", 100);
	put_made(x, "same", 100);
	put_made(x, "same", 200);
	make_run(&r, "jump", "ingested", 5.0);
	bs_run_tag(&r, "raid", "5");
	bs_run_tag(&r, "disk", "ata");
	assert_int_equal(put_as(x, &r, &err), BS_STORE_STORED);
	bs_run_release(&r);
	assert_int_equal(bs_store_commit(x, &err), 0);

	assert_int_equal(bs_store_begin(y, &err), 0);
	put_made(y, "same", 100);
	make_run(&r, "jump", "ingested", 5.0);
	bs_run_tag(&r, "raid", "10");
	assert_int_equal(put_as(y, &r, &err), BS_STORE_STORED);
	bs_run_release(&r);
	assert_int_equal(bs_store_commit(y, &err), 0);

	assert_int_equal(bs_store_open(&ro, bs_store_path(x),
				       BS_STORE_READONLY | BS_STORE_NO_UPGRADE,
				       &err),
			 0);
	merge(y, ro, &s, &c);
	assert_true(s.merged == 3 && s.present == 2 && s.conflicts == 1);
	assert_true(s.tags_added == 1 && s.rejects == 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.last, "2 5 tag raid 10 5");
	assert_int_equal(bs_store_count(y, &runs, NULL, &err), 0);
	assert_true(runs == 5);
	assert_int_equal(select_n(y, "disk=ata,raid=10"), 1);
	assert_int_equal(select_n(y, "date=1970"), 4);

	/* Again: nothing added, the conflict said again. */
	merge(y, ro, &s, &c);
	assert_true(s.merged == 0 && s.present == 5 && s.conflicts == 1);
	assert_true(s.tags_added == 0);
	assert_int_equal(bs_store_count(y, &runs, NULL, &err), 0);
	assert_true(runs == 5);

	/* Opened to read, an archive cannot be merged into. */
	assert_int_equal(bs_store_merge(ro, y, NULL, on_conflict, &c, &s, &err),
			 -BS_EINVAL);
	bs_store_close(ro);
	bs_store_close(x);
	bs_store_close(y);
}

struct each_ctx {
	int64_t seen[256];
	size_t n;
};

static int collect(const struct bs_run *r, void *vctx)
{
	struct each_ctx *c = vctx;

	c->seen[c->n++] = r->id;
	return 0;
}

/* A dense id list is read by a range scan, a sparse one by lookups: both
 * must return exactly the ids asked for, in order. */
static void test_each_dense_and_sparse(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = open_new("each");
	struct bs_ids ids = BS_IDS_INIT;
	struct each_ctx c;
	struct bs_run r;
	char raw[32];
	int64_t want[200];
	size_t nwant = 0, k;
	int i;

	(void)state;
	assert_int_equal(bs_store_begin(st, &err), 0);
	for (i = 1; i <= 150; i++) {
		snprintf(raw, sizeof(raw), "run %d", i);
		make_run(&r, "m", raw, i);
		assert_int_equal(put_as(st, &r, &err), BS_STORE_STORED);
		bs_run_release(&r);
	}
	assert_int_equal(bs_store_commit(st, &err), 0);
	for (i = 3; i <= 150; i++)
		if (i % 7 != 0)
			want[nwant++] = i;
	ids.id = want;
	ids.n = nwant;
	c.n = 0;
	assert_int_equal(bs_store_each(st, &ids, 0, collect, &c, &err), 0);
	assert_int_equal(c.n, nwant);
	for (k = 0; k < nwant; k++)
		assert_true(c.seen[k] == want[k]);
	/* Sparse: a handful of ids, one past the end. */
	want[0] = 5;
	want[1] = 77;
	want[2] = 150;
	want[3] = 999;
	ids.n = 4;
	c.n = 0;
	assert_int_equal(bs_store_each(st, &ids, 0, collect, &c, &err), 0);
	assert_int_equal(c.n, 3);
	assert_true(c.seen[0] == 5 && c.seen[1] == 77 && c.seen[2] == 150);
	bs_store_close(st);
}

static void count_warning(const char *msg, void *vctx)
{
	struct conflicts *c = vctx;

	c->n++;
	snprintf(c->last, sizeof(c->last), "%s", msg);
}

static int count_run(const struct bs_run *r, void *vctx)
{
	(void)r;
	(*(int *)vctx)++;
	return 0;
}

/* A run of a family this bstore does not know (an older merge let it in)
 * is skipped by every reader, named once; bs_store_get fails on it. */
static void test_unknown_family(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = open_new("family");
	struct conflicts warned = {0, ""};
	struct bs_ids ids = BS_IDS_INIT;
	const int64_t all[] = {1, 2, 3};
	struct bs_buf want = BS_BUF_INIT;
	struct bs_run r;
	sqlite3 *db = NULL;
	char *path = xstrdup(bs_store_path(st));
	int n = 0, i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char raw[16];
		snprintf(raw, sizeof(raw), "line %d", i);
		make_run(&r, "jump", raw, 5.0);
		assert_int_equal(put_as(st, &r, &err), BS_STORE_STORED);
		bs_run_release(&r);
	}
	bs_store_close(st);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "UPDATE runs SET family = 'nosuch' "
				      "WHERE id = 2",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(bs_store_open(&st, path, BS_STORE_READONLY, &err), 0);
	bs_store_set_warn(st, count_warning, &warned);
	assert_int_equal(bs_store_each(st, NULL, 0, count_run, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(warned.n, 1);
	bs_buf_addf(&want,
		    "%s: run 2: unknown tool family 'nosuch' (a newer bstore "
		    "wrote it?); skipped",
		    path);
	assert_string_equal(warned.last, bs_buf_str(&want));
	/* By lookups too, and named once per open archive. */
	bs_ids_merge(&ids, all, 3);
	n = 0;
	assert_int_equal(bs_store_each(st, &ids, 0, count_run, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(warned.n, 1);
	assert_int_equal(bs_store_get(st, 2, 0, &r, &err), -BS_EPARSE);
	bs_buf_reset(&want);
	bs_buf_addf(&want,
		    "%s: run 2: unknown tool family 'nosuch' (a newer bstore "
		    "wrote it?)",
		    path);
	assert_string_equal(err.msg, bs_buf_str(&want));
	bs_err_reset(&err);
	assert_int_equal(bs_store_get(st, 3, 0, &r, &err), 0);
	bs_run_release(&r);
	bs_ids_release(&ids);
	bs_buf_release(&want);
	bs_store_close(st);
	free(path);
}

static void test_open_errors(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = scratch_path("notdb");
	FILE *f;

	(void)state;
	assert_true(bs_store_open(&st, "/nonexistent/dir/x.db",
				  BS_STORE_READONLY, &err) < 0);
	assert_null(st);
	assert_non_null(strstr(err.msg, "cannot open archive"));
	bs_err_reset(&err);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not a database, just text\n", f);
	fclose(f);
	assert_int_equal(bs_store_open(&st, path, 0, &err), -BS_EDB);
	assert_non_null(strstr(err.msg, path));
	bs_err_reset(&err);
	free(path);
}

/*
 * A PostgreSQL archive's name is a URL, not a path: no directory is made
 * for it ("postgresql:" and "postgresql://host" were, for a writer with
 * $BSTORE_DB set), and messages show it without its password.
 */
static void test_url_archive(void **state)
{
	static const char url[] = "postgresql://bob:secret@127.0.0.1:1/team";
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *dir = scratch_path("url"), cwd[4096];
	struct stat sb;

	(void)state;
	mkdir(dir, 0700);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(bs_store_mkparents(url, &err), 0);
	assert_int_equal(bs_store_mkparents("postgres://h/db", &err), 0);
	assert_int_equal(stat("postgresql:", &sb), -1);
	assert_int_equal(stat("postgres:", &sb), -1);
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);

	assert_true(bs_store_open(&st, url, BS_STORE_EXISTING, &err) < 0);
	assert_null(st);
	assert_non_null(strstr(err.msg, "cannot open archive 'postgresql://"));
	assert_null(strstr(err.msg, "secret"));
	bs_err_reset(&err);
	free(dir);
}

/* Tags that a selector could never find, or that would break a line of
 * output, are refused; removing checks only that there is a key. */
static void test_check_tag(void **state)
{
	static const struct {
		const char *key, *value;
		int ok;
	} cases[] = {
		{"raid", "10", 1},
		{"array", "EMC CX500", 1},
		{"empty", "", 1},
		{"eq", "a=b", 1},
		{"host.kernel", "6.1.0-18-amd64", 1},
		{"note", "rw,relatime", 1}, /* a ',' in a value is fine */
		{"utf8", "\xc3\xa9t\xc3\xa9", 1},
		{"", "x", 0},
		{"a,b", "x", 0},
		{"a=b", "x", 0},
		{"nl", "a\nb", 0},
		{"cr", "a\rb", 0},
		{"tab", "a\tb", 0},
		{"del", "a\x7f", 0},
		{"k\n", "v", 0},
		{"machine", "x", 0},
		{"name", "x", 0},
		{"tool", "x", 0},
		{"version", "x", 0},
		{"format", "x", 0},
		{"source", "x", 0},
		{"id", "3", 0},
		{"family", "fio", 0},
	};
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = open_new("tagcheck");
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = bs_store_check_tag(cases[i].key, cases[i].value, &err);
		if (cases[i].ok) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_true(err.msg[0] != '\0');
			assert_null(strchr(err.msg, '\n'));
		}
		bs_err_reset(&err);
	}
	make_run(&r, "jump", "jump,8G,1,2", 1);
	assert_int_equal(bs_store_begin(st, &err), 0);
	assert_int_equal(put_as(st, &r, &err), BS_STORE_STORED);
	assert_int_equal(bs_store_select(st, "all", &ids, &err), 0);
	assert_int_equal(bs_store_tag(st, &ids, "machine", "x", &err),
			 -BS_EINVAL);
	bs_err_reset(&err);
	assert_int_equal(bs_store_tag(st, &ids, "nl", "a\nb", &err),
			 -BS_EINVAL);
	bs_err_reset(&err);
	assert_int_equal(bs_store_tag(st, &ids, "a,b", NULL, &err), 0);
	assert_int_equal(bs_store_tag(st, &ids, "", NULL, &err), -BS_EINVAL);
	bs_err_reset(&err);
	assert_int_equal(bs_store_commit(st, &err), 0);
	assert_int_equal(select_n(st, "machine=x"), 0);
	bs_run_release(&r);
	bs_ids_release(&ids);
	bs_store_close(st);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A second connection waits for the first one's write lock: as long as
 * bs_store_set_wait() says, and no longer once the cancel flag is set. */
/* KEY=VALUE, the one parser of --tag and bstore tag. */
static void test_parse_tag(void **state)
{
	static const struct {
		const char *arg;
		unsigned flags;
		const char *key, *value, *msg;
	} cases[] = {
		{"raid=10", 0, "raid", "10", NULL},
		{"array=EMC CX500", 0, "array", "EMC CX500", NULL},
		{"note=a=b", 0, "note", "a=b", NULL}, /* the first '=' splits */
		{"empty=", 0, "empty", "", NULL},
		{"host.kernel=6.1", 0, "host.kernel", "6.1", NULL},
		{"host.kernel=6.1", BS_TAG_NOT_OWN, NULL, NULL,
		 "host.* and run.* tags are set by bstore's measuring "
		 "commands themselves"},
		{"run.direct=1", BS_TAG_NOT_OWN, NULL, NULL,
		 "host.* and run.* tags are set by bstore's measuring "
		 "commands themselves"},
		{"novalue", 0, NULL, NULL, "'novalue' is not KEY=VALUE"},
		{"=v", 0, NULL, NULL, "'=v' is not KEY=VALUE"},
		{"a,b=c", 0, NULL, NULL,
		 "tag key 'a,b' has one of , = ! ~ < >"},
		{"raid!=10", 0, NULL, NULL,
		 "tag key 'raid!' has one of , = ! ~ < >"},
		{"a~b=c", 0, NULL, NULL,
		 "tag key 'a~b' has one of , = ! ~ < >"},
		{"a<=c", 0, NULL, NULL, "tag key 'a<' has one of , = ! ~ < >"},
		{"a>b=c", 0, NULL, NULL,
		 "tag key 'a>b' has one of , = ! ~ < >"},
		{"date=2004", 0, NULL, NULL,
		 "'date' is a run field, not a tag key (selectors read it "
		 "from the run)"},
		{"machine=x", 0, NULL, NULL,
		 "'machine' is a run field, not a tag key (selectors read it "
		 "from the run)"},
		{"nl=a\nb", 0, NULL, NULL,
		 "tag 'nl' has a control character (a newline?)"},
	};
	struct bs_err err;
	char *k, *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;
		bs_err_reset(&err);
		rc = bs_store_parse_tag(cases[i].arg, cases[i].flags, &k, &v,
					&err);
		if (cases[i].key) {
			assert_int_equal(rc, 0);
			assert_string_equal(k, cases[i].key);
			assert_string_equal(v, cases[i].value);
			free(k);
			free(v);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_null(k);
			assert_null(v);
			assert_string_equal(err.msg, cases[i].msg);
		}
	}
}

static void test_wait_for_lock(void **state)
{
	static volatile sig_atomic_t cancel;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *a = NULL, *b = NULL;
	char *path = scratch_path("lock");
	int64_t t0, ms;

	(void)state;
	assert_int_equal(bs_store_open(&a, path, 0, &err), 0);
	assert_int_equal(bs_store_open(&b, path, 0, &err), 0);
	assert_int_equal(bs_store_begin(a, &err), 0);

	bs_store_set_wait(b, 300, &cancel);
	t0 = now_ms();
	assert_int_equal(bs_store_begin(b, &err), -BS_EDB);
	ms = now_ms() - t0;
	assert_true(ms >= 290 && ms < 3000);
	assert_non_null(strstr(err.msg, "locked"));
	bs_err_reset(&err);

	cancel = 1;
	bs_store_set_wait(b, 60000, &cancel);
	t0 = now_ms();
	assert_int_equal(bs_store_begin(b, &err), -BS_EDB);
	assert_true(now_ms() - t0 < 1000);
	bs_err_reset(&err);

	cancel = 0;
	assert_int_equal(bs_store_commit(a, &err), 0);
	assert_int_equal(bs_store_begin(b, &err), 0);
	assert_int_equal(bs_store_commit(b, &err), 0);
	bs_store_close(a);
	bs_store_close(b);
	free(path);
}

/* Several processes open a new archive at the same instant: one creates
 * the schema, the others find it (no "table runs already exists"). */
static void test_concurrent_create(void **state)
{
	enum { NPROC = 6, ROUNDS = 8 };
	char *path = scratch_path("race");
	struct bs_buf wal = BS_BUF_INIT;
	int round, i, status, go[2];
	pid_t pid[NPROC];

	(void)state;
	bs_buf_addf(&wal, "%s-wal", path);
	for (round = 0; round < ROUNDS; round++) {
		unlink(path);
		unlink(bs_buf_str(&wal));
		assert_int_equal(pipe(go), 0);
		for (i = 0; i < NPROC; i++) {
			pid[i] = fork();
			assert_true(pid[i] >= 0);
			if (pid[i] == 0) {
				struct bs_err err = BS_ERR_INIT;
				struct bs_store *st = NULL;
				char c;

				close(go[1]);
				/* Everyone starts when the parent closes the
				 * pipe. */
				if (read(go[0], &c, 1) < 0)
					_exit(3);
				if (bs_store_open(&st, path, 0, &err) < 0) {
					fprintf(stderr, "child: %s\n", err.msg);
					_exit(1);
				}
				bs_store_close(st);
				_exit(0);
			}
		}
		close(go[0]);
		close(go[1]);
		for (i = 0; i < NPROC; i++) {
			assert_true(waitpid(pid[i], &status, 0) == pid[i]);
			assert_true(WIFEXITED(status));
			assert_int_equal(WEXITSTATUS(status), 0);
		}
	}
	bs_buf_release(&wal);
	free(path);
}

/* Opening what is not a usable archive says which and why. */
static void test_open_messages(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	const char *dir = getenv("SCRATCH");
	struct bs_buf p = BS_BUF_INIT;

	(void)state;
	bs_buf_addf(&p, "%s", dir ? dir : ".");
	assert_int_equal(bs_store_open(&st, bs_buf_str(&p), 0, &err), -BS_EDB);
	assert_null(st);
	assert_non_null(strstr(err.msg, "cannot open archive '"));
	assert_non_null(strstr(err.msg, "': Is a directory"));
	bs_err_reset(&err);
	bs_buf_adds(&p, "/missing-dir/x.db");
	assert_int_equal(bs_store_open(&st, bs_buf_str(&p), 0, &err), -BS_EDB);
	assert_non_null(strstr(err.msg, "': No such file or directory"));
	bs_err_reset(&err);
	bs_buf_release(&p);
}

static void test_default_path(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	char *p;

	(void)state;
	setenv("BSTORE_DB", "/x/y.db", 1);
	p = bs_store_default_path(&err);
	assert_string_equal(p, "/x/y.db");
	free(p);
	unsetenv("BSTORE_DB");
	setenv("XDG_DATA_HOME", "/data", 1);
	p = bs_store_default_path(&err);
	assert_string_equal(p, "/data/bstore/bstore.db");
	free(p);
	setenv("XDG_DATA_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	p = bs_store_default_path(&err);
	assert_string_equal(p, "/home/u/.local/share/bstore/bstore.db");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_dup),
		cmocka_unit_test(test_selectors),
		cmocka_unit_test(test_each_dense_and_sparse),
		cmocka_unit_test(test_unknown_family),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_url_archive),
		cmocka_unit_test(test_check_tag),
		cmocka_unit_test(test_parse_tag),
		cmocka_unit_test(test_wait_for_lock),
		cmocka_unit_test(test_concurrent_create),
		cmocka_unit_test(test_open_messages),
		cmocka_unit_test(test_default_path),
	};
	/* On PostgreSQL (BSTORE_TEST_DB): the tests of what the archive
	 * holds; the others are about files (paths, locks, SQLite's own
	 * tables). */
	const struct CMUnitTest pg_tests[] = {
		cmocka_unit_test(test_put_get_dup),
		cmocka_unit_test(test_selectors),
		cmocka_unit_test(test_each_dense_and_sparse),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_check_tag),
		cmocka_unit_test(test_parse_tag),
	};

	if (getenv("BSTORE_TEST_DB"))
		return cmocka_run_group_tests(pg_tests, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
