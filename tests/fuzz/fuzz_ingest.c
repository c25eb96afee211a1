/*
 * tests/fuzz/fuzz_ingest.c - libFuzzer target for the ingest driver and
 * every format of the registry: line formats (bonnie++ CSV, bstore's own
 * JSON export read back, ...) and block formats (text tables, sysbench,
 * zcav, fio, dd, ...).
 *
 * Each input is fed to bs_ingest twice: in pseudo-random chunk splits
 * (derived from the input, so a crash replays) and in one piece. Both must
 * give the same events, and every event must be well formed: each test has
 * a valid status, TOO_FAST and NOT_RUN never carry a value or CPU figure,
 * numbers are finite and not negative, the SHA-256 matches the raw line,
 * reasons are printable. The line splitter is also checked on its own,
 * with tiny limits, against a naive reference splitter.
 *
 * Build with -DBSTORE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt), then:
 *   mkdir -p /tmp/corpus
 *   ./fuzz_ingest -dict=tests/fuzz/ingest.dict /tmp/corpus \
 *       tests/fuzz/corpus samples
 * fuzz_ingest_replay runs the same checks over files without libFuzzer.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/lines.h"
#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/banned.h"

struct events {
	uint64_t h;        /* FNV-1a over every event */
	int64_t last_line; /* events come in line order */
	int64_t runs, rejects;
	const uint8_t *in; /* the whole input */
	size_t in_len;
};

static void h_bytes(struct events *e, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		e->h = (e->h ^ b[i]) * 1099511628211ULL;
}

static void h_i64(struct events *e, int64_t v)
{
	h_bytes(e, &v, sizeof(v));
}

static void h_dbl(struct events *e, double v)
{
	if (isnan(v))
		v = NAN;
	h_bytes(e, &v, sizeof(v));
}

static void h_str(struct events *e, const char *s)
{
	if (s == NULL)
		s = "(null)";
	h_bytes(e, s, strlen(s) + 1);
}

static int known_format(const char *f)
{
	static const char *const fmts[] = {
		BS_FMT_CSV_1_0X,  BS_FMT_CSV_BETA, BS_FMT_CSV_1_96,
		BS_FMT_CSV_1_96S, BS_FMT_CSV_1_97, BS_FMT_CSV_1_98,
	};
	size_t i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (strcmp(f, fmts[i]) == 0)
			return 1;
	return 0;
}

static void check_param(int64_t v)
{
	CHECK(v == BS_NONE || v >= 0);
}

static void check_value(const struct bs_value *v)
{
	CHECK(v->status == BS_ST_NOT_RUN || v->status == BS_ST_OK ||
	      v->status == BS_ST_TOO_FAST);
	if (v->status == BS_ST_OK)
		CHECK(isfinite(v->value) && v->value >= 0);
	else
		CHECK(isnan(v->value) && isnan(v->cpu_pct));
	CHECK(isnan(v->cpu_pct) || (isfinite(v->cpu_pct) && v->cpu_pct >= 0));
	CHECK(isnan(v->lat_us) || (isfinite(v->lat_us) && v->lat_us >= 0));
	CHECK(isnan(v->lat_mean_us) && isnan(v->lat_p50_us) &&
	      isnan(v->lat_p99_us));
}

/*
 * Whether r was read from a line of bstore's JSON export (ingest/
 * bstore_json.c): the input holds its digest as the line's "sha256".
 * Such a run may be of any family and format, and its raw text is the
 * exported run's, not the line.
 */
static int from_export(const struct events *e, const struct bs_run *r)
{
	char key[80];
	size_t n, i;

	n = (size_t)snprintf(key, sizeof(key), "\"sha256\":\"%s\"", r->sha256);
	for (i = 0; i + n <= e->in_len; i++)
		if (memcmp(e->in + i, key, n) == 0)
			return 1;
	return 0;
}

static void check_export_run(struct events *e, struct bs_run *r)
{
	int i, m;
	size_t k;

	CHECK(bs_family_ok(r->family));
	CHECK(r->tool && r->tool[0] && r->format && r->format[0]);
	CHECK(r->machine && r->raw && strlen(r->sha256) == 64);
	/* A restored run keeps its original's source and parser. */
	CHECK(r->source && r->parser_version);
	CHECK(r->id == 0 && (r->warning == NULL || r->warning[0]));
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];

		CHECK(bs_metrics[m].family == r->family ||
		      v->status == BS_ST_NOT_RUN);
		if (v->status == BS_ST_OK)
			CHECK(isfinite(v->value) && v->value >= 0);
		else
			CHECK(isnan(v->value) && isnan(v->cpu_pct));
		CHECK(isnan(v->lat_mean_us) || v->lat_mean_us >= 0);
		CHECK(isnan(v->lat_p50_us) || v->lat_p50_us >= 0);
		CHECK(isnan(v->lat_p99_us) || v->lat_p99_us >= 0);
		h_dbl(e, v->value);
		h_dbl(e, v->lat_p99_us);
	}
	for (i = 0; i < bs_nparams; i++) {
		enum bs_pkind kind = bs_param_table[i].kind;
		int64_t v;

		if (kind == BS_PK_TEXT || kind == BS_PK_REAL)
			continue;
		v = bs_param_get_i64(&r->params, i);
		CHECK(v == BS_NONE || v >= 0 ||
		      (kind == BS_PK_FSIZE && v >= BS_SIZE_SYMLINK));
		h_i64(e, v);
	}
	for (k = 0; k < r->nseries; k++)
		CHECK(r->series[k].n > 0 && r->series[k].axis);
	h_i64(e, r->source_line);
	h_i64(e, r->measured_at);
	h_str(e, r->format);
	h_str(e, r->raw);
	h_str(e, r->sha256);
}

/*
 * What every run of every format must be: its family's metrics only, each
 * with a valid status, numbers finite, not negative and within the
 * catalogue's limits; its digest that of its raw text (or, for the
 * second and later runs of one block, of that text salted with its
 * rank); this input's source.
 */
static void check_any_run(struct events *e, struct bs_run *r)
{
	char sha[BS_SHA256_HEX];
	int m;
	size_t k, j;

	CHECK(bs_family_ok(r->family) && r->id == 0);
	/* A parser's only tags: a date printed in local time; of a fio
	 * job, its log prefixes and the error it ended with (words, no
	 * control bytes); the metrics printed but no figures (each of the
	 * run's family and not_run). */
	for (k = 0; k < r->ntags; k++) {
		if (strcmp(r->tags[k].key, "ingest.unread") == 0) {
			for (m = 0; m < bs_nmetrics; m++)
				if (bs_run_is_unread(r, m))
					CHECK(bs_metrics[m].family ==
						      r->family &&
					      r->res[m].status ==
						      BS_ST_NOT_RUN);
			continue;
		}
		CHECK((strcmp(r->tags[k].key, BS_INGEST_TZ_TAG) == 0 &&
		       strcmp(r->tags[k].value, "local") == 0) ||
		      (r->family == BS_FAM_FIO &&
		       (strcmp(r->tags[k].key, BS_INGEST_FIO_LOG_TAG) == 0 ||
			strcmp(r->tags[k].key, "fio.error") == 0) &&
		       r->tags[k].value[0] &&
		       !bs_text_has_control(r->tags[k].value)));
	}
	CHECK(r->tool && r->tool[0] && r->format && r->format[0]);
	CHECK(r->raw && strlen(r->raw) <= BS_BLOCK_MAX);
	CHECK(strlen(r->sha256) == 64);
	bs_sha256_hex(r->raw, strlen(r->raw), sha);
	if (strcmp(sha, r->sha256) != 0) {
		/* The k-th run of one block's text: salted with its rank. */
		struct bs_buf b = BS_BUF_INIT;
		int rank, found = 0;

		for (rank = 2; rank <= 512 && !found; rank++) {
			bs_buf_reset(&b);
			bs_buf_addf(&b, "%s\n#run %d", r->raw, rank);
			bs_sha256_hex(b.data, b.len, sha);
			found = strcmp(sha, r->sha256) == 0;
		}
		bs_buf_release(&b);
		CHECK(found && !known_format(r->format));
	}
	CHECK(r->source && strcmp(r->source, "fuzz") == 0);
	CHECK(r->parser_version &&
	      strcmp(r->parser_version, BS_PARSER_VERSION) == 0);
	CHECK(r->warning == NULL || r->warning[0]);
	CHECK(r->measured_at == BS_NONE ||
	      (r->measured_at >= 0 && r->measured_at <= INT64_C(253402300799)));
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];

		CHECK(v->status == BS_ST_NOT_RUN || v->status == BS_ST_OK ||
		      v->status == BS_ST_TOO_FAST);
		CHECK(bs_metrics[m].family == r->family ||
		      v->status == BS_ST_NOT_RUN);
		if (v->status == BS_ST_OK)
			CHECK(isfinite(v->value) &&
			      bs_metric_fits(m, BS_PART_VALUE, v->value));
		else
			CHECK(isnan(v->value) && isnan(v->cpu_pct));
		CHECK(isnan(v->cpu_pct) ||
		      (isfinite(v->cpu_pct) && v->cpu_pct >= 0));
		CHECK(isnan(v->lat_us) ||
		      (isfinite(v->lat_us) && v->lat_us >= 0));
		h_i64(e, v->status);
		h_dbl(e, v->value);
	}
	for (k = 0; k < r->nseries; k++) {
		const struct bs_series *sr = &r->series[k];

		CHECK(sr->axis && sr->metric >= 0 && sr->metric < bs_nmetrics);
		CHECK(bs_metrics[sr->metric].family == r->family);
		for (j = 0; j < sr->n; j++) {
			CHECK(isfinite(sr->pt[j].x));
			CHECK(isnan(sr->pt[j].y) || isfinite(sr->pt[j].y));
			h_dbl(e, sr->pt[j].x);
			h_dbl(e, sr->pt[j].y);
		}
	}
	h_i64(e, r->source_line);
	h_i64(e, r->measured_at);
	h_str(e, r->format);
	h_str(e, r->tool_version);
	h_str(e, r->machine);
	h_str(e, r->raw);
	h_str(e, r->sha256);
	h_str(e, r->warning);
}

static int on_run(struct bs_run *r, void *ctx)
{
	struct events *e = ctx;
	const struct bs_params *p = &r->params;
	char sha[BS_SHA256_HEX];
	int m;

	e->runs++;
	if (from_export(e, r)) {
		check_export_run(e, r);
		e->last_line = r->source_line;
		bs_run_tag(r, "fuzz", "1");
		return 0;
	}
	CHECK(r->source_line >= 1);
	check_any_run(e, r);
	if (!known_format(r->format)) {
		/* A block's runs: any order within the block. */
		e->last_line = r->source_line;
		bs_run_tag(r, "fuzz", "1");
		return 0;
	}
	/* A bonnie++ CSV line: in line order, and its own checks. */
	CHECK(r->source_line > e->last_line);
	e->last_line = r->source_line;
	/* `bstore run` output reads back as tool bstore (1.98 lines). */
	CHECK(r->tool && (strcmp(r->tool, "bonnie++") == 0 ||
			  (strcmp(r->tool, "bstore") == 0 &&
			   strcmp(r->format, BS_FMT_CSV_1_98) == 0)));
	CHECK(r->tool_version && r->tool_version[0]);
	CHECK(r->machine);
	CHECK(r->raw && strlen(r->raw) <= BS_LINE_MAX);
	/* One line, or up to 8 a mail client wrapped (ingest.c
	 * wrap_join()). */
	{
		const char *c = r->raw;
		int nl = 0;

		while ((c = strchr(c, '\n')) != NULL) {
			nl++;
			c++;
		}
		CHECK(nl < 8);
	}
	bs_sha256_hex(r->raw, strlen(r->raw), sha);
	CHECK(strcmp(sha, r->sha256) == 0);
	CHECK(r->source && strcmp(r->source, "fuzz") == 0);
	CHECK(r->parser_version &&
	      strcmp(r->parser_version, BS_PARSER_VERSION) == 0);
	CHECK((r->warning != NULL) ==
	      (strcmp(r->format, BS_FMT_CSV_BETA) == 0));
	/* Dated only by a mail's Date: above (checked for every run). */
	CHECK(r->id == 0 && r->ntags == 0);
	check_param(p->file_size_mib);
	check_param(p->io_chunk_bytes);
	check_param(p->seeks);
	check_param(p->seek_procs);
	check_param(p->per_char_mib);
	check_param(p->num_files);
	CHECK(p->max_size == BS_NONE || p->max_size >= BS_SIZE_SYMLINK);
	check_param(p->min_size);
	check_param(p->num_dirs);
	check_param(p->file_chunk_bytes);
	check_param(p->concurrency);

	h_i64(e, r->source_line);
	h_str(e, r->format);
	h_str(e, r->tool_version);
	h_str(e, r->machine);
	h_str(e, r->raw);
	h_str(e, r->warning);
	h_str(e, p->seed);
	h_i64(e, p->file_size_mib);
	h_i64(e, p->io_chunk_bytes);
	h_i64(e, p->seeks);
	h_i64(e, p->seek_procs);
	h_i64(e, p->num_files);
	h_i64(e, p->max_size);
	h_i64(e, p->min_size);
	h_i64(e, p->num_dirs);
	h_i64(e, p->file_chunk_bytes);
	h_i64(e, p->concurrency);
	for (m = 0; m < BS_M_BONNIE; m++) {
		check_value(&r->res[m]);
		h_i64(e, r->res[m].status);
		h_dbl(e, r->res[m].value);
		h_dbl(e, r->res[m].cpu_pct);
		h_dbl(e, r->res[m].lat_us);
	}
	/* The callee may tag the run. */
	bs_run_tag(r, "fuzz", "1");
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	struct events *e = ctx;
	size_t i, n = strlen(reason);

	/* A block's rejects may name its earlier lines. */
	CHECK(line >= 1);
	e->last_line = line;
	e->rejects++;
	CHECK(len <= BS_REJECT_KEEP);
	CHECK(truncated == 0 || truncated == 1);
	CHECK(n > 0 && n < 256);
	for (i = 0; i < n; i++)
		CHECK((unsigned char)reason[i] >= 0x20 && reason[i] != 0x7f);
	h_i64(e, line);
	h_bytes(e, raw, len);
	h_i64(e, (int64_t)len);
	h_i64(e, truncated);
	h_str(e, reason);
	return 0;
}

static void on_warn(int64_t line, const char *msg, void *ctx)
{
	struct events *e = ctx;

	/* A run's warning comes at its line; a block's note (output that
	 * gave no run) at a line of its own. */
	CHECK(line >= 1 && msg[0]);
	h_i64(e, line);
	h_str(e, msg);
}

/* A small deterministic generator for the chunk sizes. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Feeds data in chunks (random when seed != 0) and returns the digest. */
static uint64_t ingest_all(const uint8_t *data, size_t size, uint64_t seed)
{
	struct events e = {14695981039346656037ULL, 0, 0, 0, data, size};
	struct bs_ingest_cb cb = {on_run, on_reject, on_warn, &e};
	struct bs_ingest *p = bs_ingest_new("fuzz", &cb, NULL);
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest_stats st;
	size_t off = 0;
	int rc = 0;

	while (rc == 0 && off < size) {
		size_t n = size - off;

		if (seed) {
			uint64_t r = next_rand(&seed);
			/* Mostly tiny chunks, sometimes large ones. */
			size_t lim = (r & 3) == 0 ? 4096 : 16;

			n = 1 + (size_t)((r >> 8) % lim);
			if (n > size - off)
				n = size - off;
		}
		rc = bs_ingest_feed(p, (const char *)data + off, n, &err);
		off += n;
	}
	if (rc == 0)
		rc = bs_ingest_finish(p, &err);
	bs_ingest_stats(p, &st);
	CHECK(st.runs == e.runs && st.rejects == e.rejects);
	if (rc == 0) {
		if (st.blocked == 0)
			CHECK(st.lines == st.runs + st.rejects + st.skipped);
		else
			CHECK(st.skipped + st.blocked <= st.lines);
		CHECK(memchr(data, '\0', size) == NULL);
	} else {
		/* The only failure without a stopping callback: a NUL. */
		CHECK(rc == -BS_EPARSE && memchr(data, '\0', size) != NULL);
		CHECK(strncmp(err.msg, "not a text file (NUL byte at line ",
			      34) == 0);
		/* It sticks. */
		bs_err_reset(&err);
		CHECK(bs_ingest_feed(p, "x\n", 2, &err) == -BS_EPARSE);
	}
	h_bytes(&e, &st, sizeof(st));
	h_i64(&e, rc);
	h_str(&e, err.msg);
	bs_ingest_free(p);
	return e.h;
}

/* ---- the splitter against a naive reference ---------------------------- */

#define T_MAX 24
#define T_KEEP 8

static int on_line(const char *line, size_t len, uint64_t full_len,
		   int64_t lineno, void *ctx)
{
	struct bs_buf *b = ctx;

	CHECK(len <= T_MAX && (full_len == len || len == T_KEEP));
	CHECK(full_len <= T_MAX || len == T_KEEP);
	bs_buf_addf(b, "%lld:%llu:", (long long)lineno,
		    (unsigned long long)full_len);
	bs_buf_add(b, line, len);
	bs_buf_addc(b, '\n');
	return 0;
}

static void reference_split(const uint8_t *data, size_t size, struct bs_buf *b)
{
	size_t start = 0, i;
	long long no = 0;

	for (i = 0; i <= size; i++) {
		size_t n;

		if (i < size && data[i] != '\n')
			continue;
		if (i == size && start == size)
			break;
		n = i - start;
		if (memchr(data + start, '\0', n)) {
			bs_buf_addf(b, "error NUL at %lld\n", no + 1);
			return;
		}
		if (n > 0 && data[start + n - 1] == '\r')
			n--;
		bs_buf_addf(b, "%lld:%zu:", ++no, n);
		bs_buf_add(b, data + start, n > T_MAX ? T_KEEP : n);
		bs_buf_addc(b, '\n');
		start = i + 1;
	}
}

static void check_splitter(const uint8_t *data, size_t size, uint64_t seed)
{
	struct bs_buf got = BS_BUF_INIT, want = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_lines l;
	size_t off = 0;
	int rc = 0;

	bs_lines_init(&l, T_MAX, T_KEEP);
	while (rc == 0 && off < size) {
		size_t n = 1 + (size_t)(next_rand(&seed) % 40);

		if (n > size - off)
			n = size - off;
		rc = bs_lines_feed(&l, (const char *)data + off, n, on_line,
				   &got, &err);
		off += n;
	}
	if (rc == 0) {
		rc = bs_lines_finish(&l, on_line, &got, &err);
		CHECK(rc == 0);
	} else {
		char msg[64];

		snprintf(msg, sizeof(msg),
			 "not a text file (NUL byte at line %lld)",
			 (long long)l.lineno + 1);
		CHECK(rc == -BS_EPARSE && strcmp(err.msg, msg) == 0);
		bs_buf_addf(&got, "error NUL at %lld\n",
			    (long long)l.lineno + 1);
	}
	reference_split(data, size, &want);
	if (strcmp(bs_buf_str(&got), bs_buf_str(&want)) != 0) {
		fprintf(stderr, "splitter:\n%s---\nreference:\n%s",
			bs_buf_str(&got), bs_buf_str(&want));
		abort();
	}
	bs_lines_release(&l);
	bs_buf_release(&got);
	bs_buf_release(&want);
}

/*
 * fio's log reader (ingest/fio_log.c) over the same bytes, as each kind
 * of log: an error or a count of entries; the curves, per direction, at
 * most BS_FIO_LOG_POINTS finite points whose entries add up to the
 * count, and a summary whose min <= mean <= max.
 */
static void check_fio_log(const uint8_t *data, size_t size)
{
	struct bs_fio_log_sum sum[3];
	struct bs_err err = BS_ERR_INIT;
	int64_t n, total;
	size_t i, k;
	int kind, d;

	for (kind = 0; kind < BS_FIO_LOG_NKIND; kind++) {
		struct bs_run r;

		bs_run_init(&r);
		r.family = BS_FAM_FIO;
		n = bs_fio_log_parse("t.log", (const char *)data, size,
				     (enum bs_fio_log_kind)kind, 1000, &r, sum,
				     &err);
		CHECK(n >= 0 || n == -BS_EPARSE);
		if (n < 0) {
			CHECK(strncmp(err.msg, "t.log:", 6) == 0);
			CHECK(r.nseries == 0);
		}
		total = 0;
		for (d = 0; d < 3 && n >= 0; d++) {
			total += sum[d].entries;
			if (sum[d].entries > 0)
				CHECK(sum[d].min <= sum[d].mean * (1 + 1e-12) &&
				      sum[d].mean <= sum[d].max * (1 + 1e-12));
		}
		CHECK(n < 0 || total == n);
		for (i = 0; i < r.nseries; i++) {
			CHECK(r.series[i].n <= BS_FIO_LOG_POINTS);
			for (k = 0; k < r.series[i].n; k++)
				CHECK(isfinite(r.series[i].pt[k].x) &&
				      isfinite(r.series[i].pt[k].y));
		}
		bs_run_release(&r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t seed = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 1099511628211ULL;
	if (seed == 0)
		seed = 1;
	CHECK(ingest_all(data, size, seed) == ingest_all(data, size, 0));
	check_splitter(data, size, seed);
	check_fio_log(data, size);
	return 0;
}
