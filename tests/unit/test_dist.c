/*
 * tests/unit/test_dist.c - fio's distributions as data (core/dist.h):
 * the bins of fio's bucketing (every bin's value maps back to its bin,
 * the edges tile the line), and the real fio 3.33 json+ captures of
 * tests/data/dist/ ingested, stored and read back: every percentile fio
 * printed, of clat, slat and lat in each direction, recomputed from the
 * stored bins, equals fio's number to the nanosecond; the percentiles a
 * --percentile_list left out are filled in by the same rule; a bin value
 * that is none of fio's is a reject naming it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/dist.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/readfile.h"
#include "util/banned.h"

static void test_bins(void **state)
{
	uint64_t lo, hi, plo = 0, phi = 0;
	unsigned i, idx;

	(void)state;
	for (i = 0; i < BS_FIO_PLAT_NR; i++) {
		uint64_t v = bs_fio_bin_value(i);

		assert_int_equal(bs_fio_bin_of(v), i);
		assert_int_equal(bs_fio_bin_index(v, &idx), 1);
		assert_int_equal(idx, i);
		bs_fio_bin_edges(i, &lo, &hi);
		assert_true(lo <= v && v < hi);
		assert_int_equal(bs_fio_bin_of(lo), i);
		assert_int_equal(bs_fio_bin_of(hi - 1), i);
		if (i > 0)
			assert_true(lo == phi && plo < lo);
		plo = lo;
		phi = hi;
	}
	/* fio's own figures: bin 128 is 128..129 (value 129), group 2
	 * is 2 ns wide, the last bin counts everything beyond. */
	assert_int_equal(bs_fio_bin_value(128), 129);
	assert_int_equal(bs_fio_bin_value(191), 255);
	assert_int_equal(bs_fio_bin_value(192), 258);
	assert_int_equal(bs_fio_bin_index(130, &idx), 0);
	assert_int_equal(bs_fio_bin_of(UINT64_MAX), BS_FIO_PLAT_NR - 1);
}

static char *data_path(const char *name)
{
	const char *src = getenv("SRC");
	struct bs_buf b = BS_BUF_INIT;

	bs_buf_addf(&b, "%s/tests/data/dist/%s", src ? src : ".", name);
	return bs_buf_detach(&b, NULL);
}

struct coll {
	struct bs_store *st;
	int64_t ids[8];
	size_t n;
	struct bs_buf rejects;
};

static int on_run(struct bs_run *r, void *ctx)
{
	struct coll *c = ctx;
	struct bs_err err = BS_ERR_INIT;

	assert_true(bs_store_put(c->st, r, NULL, &err) >= 0);
	assert_true(c->n < 8);
	c->ids[c->n++] = r->id;
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int trunc,
		     const char *reason, void *ctx)
{
	struct coll *c = ctx;

	(void)line, (void)raw, (void)len, (void)trunc;
	bs_buf_addf(&c->rejects, "%s\n", reason);
	return 0;
}

static void on_warn(int64_t line, const char *msg, void *ctx)
{
	(void)line, (void)msg, (void)ctx;
}

static struct bs_store *open_scratch(const char *name)
{
	const char *dir = getenv("SCRATCH");
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_buf p = BS_BUF_INIT;

	bs_buf_addf(&p, "%s/test_dist_%s.db", dir ? dir : "/tmp", name);
	remove(bs_buf_str(&p));
	assert_int_equal(bs_store_open(&st, bs_buf_str(&p), 0, &err), 0);
	bs_buf_release(&p);
	return st;
}

/* Ingests text into c->st, one transaction. */
static void ingest_text(struct coll *c, const char *text, size_t len)
{
	struct bs_ingest_cb cb = {on_run, on_reject, on_warn, c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new("t", &cb, NULL);

	assert_int_equal(bs_store_begin(c->st, &err), 0);
	assert_int_equal(bs_ingest_feed(p, text, len, &err), 0);
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	assert_int_equal(bs_store_commit(c->st, &err), 0);
	bs_ingest_free(p);
}

static char *slurp(const char *name, size_t *len)
{
	char *path = data_path(name), *text;
	FILE *f = fopen(path, "rb");
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	text = xmalloc((size_t)n + 1);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	free(path);
	*len = (size_t)n;
	return text;
}

/*
 * Every printed percentile of every latency object with bins in the
 * capture, recomputed from run's stored series; returns how many were
 * checked.
 */
static int check_run(const struct bs_run *r, json_t *job)
{
	static const char *const dirs[] = {"read", "write", "trim"};
	static const char *const lats[] = {"clat", "slat", "lat"};
	int checked = 0;
	size_t d, l;

	for (d = 0; d < 3; d++)
		for (l = 0; l < 3; l++) {
			char obj[16], key[32];
			json_t *o, *pct, *v;
			const char *k;
			const struct bs_series *s;
			int m;

			snprintf(obj, sizeof(obj), "%s_ns", lats[l]);
			snprintf(key, sizeof(key), "%s_%s_hist", dirs[d],
				 lats[l]);
			o = json_object_get(json_object_get(job, dirs[d]), obj);
			m = bs_metric_find(BS_FAM_FIO, key);
			assert_true(m >= 0);
			s = bs_run_series_find(r, m);
			if (!json_is_object(json_object_get(o, "bins"))) {
				assert_null(s);
				continue;
			}
			assert_non_null(s);
			assert_string_equal(s->axis, "ns");
			assert_int_equal(s->n,
					 json_object_size(
						 json_object_get(o, "bins")));
			pct = json_object_get(o, "percentile");
			json_object_foreach(pct, k, v) {
				double p;

				assert_int_equal(bs_parse_double(k, strlen(k),
								 &p),
						 0);
				assert_true(
					bs_dist_percentile(s->pt, s->n, p) ==
					(double)json_integer_value(v));
				checked++;
			}
		}
	return checked;
}

static void check_capture(const char *name, int want_min)
{
	struct coll c;
	struct bs_err err = BS_ERR_INIT;
	json_error_t jerr;
	json_t *doc, *jobs;
	char *text;
	size_t len, i;
	int checked = 0;

	memset(&c, 0, sizeof(c));
	c.st = open_scratch(name);
	text = slurp(name, &len);
	ingest_text(&c, text, len);
	assert_string_equal(bs_buf_str(&c.rejects), "");
	doc = json_loadb(text, len, 0, &jerr);
	assert_non_null(doc);
	jobs = json_object_get(doc, "jobs");
	assert_int_equal(c.n, json_array_size(jobs));
	for (i = 0; i < c.n; i++) {
		struct bs_run back;

		assert_int_equal(bs_store_get(c.st, c.ids[i], BS_LOAD_ALL,
					      &back, &err),
				 0);
		checked += check_run(&back, json_array_get(jobs, i));
		bs_run_release(&back);
	}
	assert_true(checked >= want_min);
	json_decref(doc);
	free(text);
	bs_buf_release(&c.rejects);
	bs_store_close(c.st);
}

static void test_jsonplus_all_three(void **state)
{
	(void)state;
	/* 17 percentiles of clat, slat and lat of the reads. */
	check_capture("randread-jsonplus.json", 51);
}

static void test_percentile_list(void **state)
{
	struct coll c;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run back;
	const struct bs_series *s;
	char *text;
	size_t len;
	int m;

	(void)state;
	check_capture("randrw-plist.json", 6);
	/* fio printed p50, p99 and p99.5 only: p90 and p99.9 come from
	 * the bins, by fio's rule (in us, as every fio latency). */
	memset(&c, 0, sizeof(c));
	c.st = open_scratch("plist");
	text = slurp("randrw-plist.json", &len);
	ingest_text(&c, text, len);
	assert_int_equal(bs_store_get(c.st, c.ids[0], BS_LOAD_ALL, &back, &err),
			 0);
	s = bs_run_series_find(&back,
			       bs_metric_find(BS_FAM_FIO, "read_clat_hist"));
	assert_non_null(s);
	m = bs_metric_find(BS_FAM_FIO, "read_clat_p99_9_us");
	assert_int_equal(back.res[m].status, BS_ST_OK);
	assert_true(back.res[m].value ==
		    bs_dist_percentile(s->pt, s->n, 99.9) / 1000);
	m = bs_metric_find(BS_FAM_FIO, "read_clat_p50_us");
	assert_true(back.res[m].value == 1224.0 / 1000);
	bs_run_release(&back);
	free(text);
	bs_buf_release(&c.rejects);
	bs_store_close(c.st);
}

static void test_bad_bin(void **state)
{
	struct coll c;
	char *text, *at;
	size_t len;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.st = open_scratch("bad");
	text = slurp("randrw-plist.json", &len);
	/* A bin key no fio bin has: 597 lies inside bin 596's range
	 * (592 to 600). */
	at = strstr(text, "\"596\" : 1,");
	assert_non_null(at);
	memcpy(at + 1, "597", 3);
	ingest_text(&c, text, len);
	assert_non_null(strstr(bs_buf_str(&c.rejects),
			       "read_clat_hist bin '597' is not a value of "
			       "fio's bins"));
	free(text);
	bs_buf_release(&c.rejects);
	bs_store_close(c.st);
}

/* Packs s, checks the scheme, unpacks, and checks every point comes
 * back bit for bit; returns the packed size. */
static size_t round_trip(const struct bs_series *s, const char *want)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_series back;
	const char *scheme = bs_dist_pack(s, &b);
	size_t i, n = b.len;

	memset(&back, 0, sizeof(back));
	assert_string_equal(scheme, want);
	assert_int_equal(bs_dist_unpack(scheme, (const unsigned char *)b.data,
					b.len, (int64_t)s->n, &back),
			 0);
	assert_int_equal(back.n, s->n);
	for (i = 0; i < s->n; i++) {
		assert_memory_equal(&back.pt[i].x, &s->pt[i].x, sizeof(double));
		assert_memory_equal(&back.pt[i].y, &s->pt[i].y, sizeof(double));
		assert_int_equal(isnan(back.pt[i].seconds),
				 isnan(s->pt[i].seconds));
		if (!isnan(s->pt[i].seconds))
			assert_true(back.pt[i].seconds == s->pt[i].seconds);
	}
	/* A byte short, a byte more, a bin more than held: refused. */
	if (n > 0) {
		assert_int_equal(bs_dist_unpack(scheme,
						(const unsigned char *)b.data,
						n - 1, (int64_t)s->n, &back),
				 -BS_EPARSE);
		bs_buf_addc(&b, 0);
		assert_int_equal(bs_dist_unpack(scheme,
						(const unsigned char *)b.data,
						b.len, (int64_t)s->n, &back),
				 -BS_EPARSE);
		assert_int_equal(bs_dist_unpack(scheme,
						(const unsigned char *)b.data,
						n, (int64_t)s->n + 1, &back),
				 -BS_EPARSE);
	}
	free(back.pt);
	bs_buf_release(&b);
	return n;
}

/* The packings of table distributions (core/dist.h): each scheme gives
 * its points back exactly, and a sparse fio histogram costs about two
 * bytes a bin. */
static void test_pack(void **state)
{
	struct bs_series s;
	unsigned i;

	(void)state;
	memset(&s, 0, sizeof(s));
	/* fio: the first bin and the last (a count of 2^40), every
	 * 7th bin between (counts below 100, zero among them). */
	bs_series_point(&s, 0, 5, NAN);
	for (i = 7; i < BS_FIO_PLAT_NR - 1; i += 7)
		bs_series_point(&s, (double)bs_fio_bin_value(i), i % 100, NAN);
	bs_series_point(&s, (double)bs_fio_bin_value(BS_FIO_PLAT_NR - 1),
			1099511627776.0, NAN);
	assert_true(round_trip(&s, "fio") <= 2 * s.n + 8);
	/* Not fio's: a value no bin has, a fractional count, a time. */
	s.n = 0;
	bs_series_point(&s, 0.001, 2707, NAN);
	bs_series_point(&s, 0.001, 133, NAN); /* sysbench repeats a value */
	bs_series_point(&s, 0.018, 1, NAN);
	bs_series_point(&s, 4.069, 1, NAN);
	bs_series_point(&s, 1234.5, 0, NAN);
	assert_true(round_trip(&s, "milli") <= 3 * s.n);
	bs_series_point(&s, 0.0004, 1, NAN); /* no longer in order */
	round_trip(&s, "raw");
	s.n = 0;
	bs_series_point(&s, 0.0021, 1332, NAN); /* bstore fileio's 4 decimals */
	bs_series_point(&s, 0.0021, 17, NAN);
	bs_series_point(&s, 0.0026, 1, NAN);
	bs_series_point(&s, 155.8012, 1, NAN);
	assert_true(round_trip(&s, "dec4") <= 3 * s.n + 2);
	bs_series_point(&s, 155.80125, 1, NAN); /* neither: falls back */
	round_trip(&s, "raw");
	s.n = 0;
	bs_series_point(&s, 130, 1, NAN); /* no fio bin's value: milli */
	round_trip(&s, "milli");
	bs_series_point(&s, 131, 0.5, NAN);
	round_trip(&s, "raw");
	s.n = 0;
	bs_series_point(&s, 129, 1, 0.25);
	round_trip(&s, "raw");
	s.n = 0;
	bs_series_point(&s, 129, NAN, NAN);
	round_trip(&s, "raw");
	s.n = 0;
	round_trip(&s, "fio");
	/* Bins out of order are neither fio's packing nor thousandths; a
	 * zero delta after the first, an index beyond the last bin, a
	 * scheme nobody wrote: refused. */
	bs_series_point(&s, 258, 1, NAN);
	bs_series_point(&s, 129, 1, NAN);
	round_trip(&s, "raw");
	{
		static const unsigned char zero[] = {1, 1, 0, 1};
		static const unsigned char past[] = {0xc0, 0x0e, 1};
		struct bs_series t;

		memset(&t, 0, sizeof(t));
		assert_int_equal(bs_dist_unpack("fio", zero, 4, 2, &t),
				 -BS_EPARSE);
		assert_int_equal(bs_dist_unpack("milli", zero, 4, 2, &t), 0);
		assert_int_equal(bs_dist_unpack("fio", past, 3, 1, &t),
				 -BS_EPARSE);
		assert_int_equal(bs_dist_unpack("lz4", zero, 4, 2, &t),
				 -BS_EPARSE);
		assert_int_equal(bs_dist_unpack("raw", zero, 4, 2, &t),
				 -BS_EPARSE);
		/* A count of bins whose 24 bytes each wrap to the bytes held. */
		assert_int_equal(bs_dist_unpack("raw", zero, 0,
						(int64_t)(UINT64_C(1) << 61) *
							2,
						&t),
				 -BS_EPARSE);
		free(t.pt);
	}
	free(s.pt);
}

/*
 * sysbench 1.0.20's percentile from its printed histogram (--histogram,
 * real captures of Debian's sysbench: tests/data/dist/make.sh, and the
 * sample of samples/): sysbench's rule over the stored bins gives the
 * percentile sysbench printed, to its "%4.2f".
 */
static void test_sysbench_percentile(void **state)
{
	static const char *const caps[] = {
		"sysbench-1.0.20-fileio-rndrd-direct-histogram.txt",
		"sysbench-1.0.20-fileio-rndrw-direct-p99-histogram.txt",
		"sysbench-1.0.20-fileio-seqwr-fsync-p50-histogram.txt",
		"sysbench-1.0.20-fileio-rndwr-p90-histogram.txt",
		"../../../samples/sysbench-1.0.20-rndrd-histogram.txt",
	};
	size_t c, nonzero = 0;

	(void)state;
	for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		struct coll col;
		struct bs_err err = BS_ERR_INIT;
		struct bs_run back;
		const struct bs_series *s;
		char *text, want[32], got[32];
		const char *at;
		size_t len;
		unsigned pct;
		double v;

		memset(&col, 0, sizeof(col));
		col.st = open_scratch("sysbench");
		text = slurp(caps[c], &len);
		ingest_text(&col, text, len);
		assert_int_equal(col.n, 1);
		at = strstr(text, "th percentile:");
		assert_non_null(at);
		while (at > text && at[-1] >= '0' && at[-1] <= '9')
			at--;
		assert_int_equal(sscanf(at, "%uth percentile: %31s", &pct,
					want),
				 2);
		assert_int_equal(bs_store_get(col.st, col.ids[0], BS_LOAD_ALL,
					      &back, &err),
				 0);
		s = bs_run_series_find(&back,
				       bs_metric_find(BS_FAM_SYSBENCH,
						      "latency_histogram"));
		assert_non_null(s);
		assert_true(s->n > 50);
		v = bs_dist_sysbench_percentile(s->pt, s->n, pct);
		snprintf(got, sizeof(got), "%4.2f", v);
		if (strcmp(got, want) != 0)
			fail_msg("%s: p%u from the bins %.6f ('%s'), sysbench "
				 "printed '%s'",
				 caps[c], pct, v, got, want);
		nonzero += strcmp(want, "0.00") != 0;
		bs_run_release(&back);
		bs_store_close(col.st);
		free(text);
		bs_buf_release(&col.rejects);
	}
	/* Four captures of latencies sysbench prints as more than 0. */
	assert_int_equal(nonzero, 4);
}

/* Which rows are distributions, and their direction and kind. */
static void test_dist_rows(void **state)
{
	char dir[8], kind[8];
	int m;

	(void)state;
	m = bs_metric_find(BS_FAM_FIO, "write_slat_hist");
	assert_true(bs_dist_metric(m));
	bs_dist_names(m, dir, kind);
	assert_string_equal(dir, "write");
	assert_string_equal(kind, "slat");
	m = bs_metric_find(BS_FAM_SYSBENCH, "latency_histogram");
	assert_true(bs_dist_metric(m));
	bs_dist_names(m, dir, kind);
	assert_string_equal(dir, "");
	assert_string_equal(kind, "lat");
	assert_false(
		bs_dist_metric(bs_metric_find(BS_FAM_FIO, "read_lat_log")));
	assert_false(bs_dist_metric(-1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_jsonplus_all_three),
		cmocka_unit_test(test_percentile_list),
		cmocka_unit_test(test_bad_bin),
		cmocka_unit_test(test_pack),
		cmocka_unit_test(test_dist_rows),
		cmocka_unit_test(test_sysbench_percentile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
