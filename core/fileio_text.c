/*
 * core/fileio_text.c - what `bstore fileio` prints, in sysbench 1.0.20's
 * layout (FORMATS.md 5.2), and the run record made from the same
 * numbers: the summary's rows are one table that both the text and the
 * record walk, so a stored value is the printed one.
 */
#include "core/identity.h"
#include "core/fileio.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"
#include "util/banned.h"

#define MIB 1048576.0
#define LAT_PREC 4 /* sysbench prints 2: too coarse for a cached 0.01 ms */

/* sb_print_value_size(): "%.5g" and a 1024-based unit. */
static void size_text(char *buf, size_t size, double v)
{
	static const char *const units[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
	size_t i;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]) && v >= 1024; i++)
		v /= 1024;
	snprintf(buf, size, "%.5g%s", v, units[i]);
}

void bs_fileio_text_prepare(const struct bs_fileio_opts *o, struct bs_buf *out)
{
	uint64_t fsize = bs_fileio_file_size(o);

	bs_buf_addf(out, "%llu files, %lluKb each, %lluMb total\n",
		    (unsigned long long)o->file_num,
		    (unsigned long long)(fsize / 1024),
		    (unsigned long long)(fsize * o->file_num / 1048576));
}

void bs_fileio_text_head(const struct bs_fileio_opts *o,
			 const char *tool_version, uint64_t seed,
			 struct bs_buf *out)
{
	uint64_t fsize = bs_fileio_file_size(o);
	char s[32];

	bs_buf_addf(out, "bstore %s fileio (sysbench %s layout)\n\n",
		    tool_version, BS_FILEIO_SYSBENCH);
	bs_buf_adds(out, "Running the test with following options:\n");
	bs_buf_addf(out, "Number of threads: %llu\n",
		    (unsigned long long)o->threads);
	if (o->report_interval_s)
		bs_buf_addf(out,
			    "Report intermediate results every %llu "
			    "second(s)\n",
			    (unsigned long long)o->report_interval_s);
	if (o->validate)
		bs_buf_adds(out, "Validation checks: on.\n\n");
	/* sysbench says "from current time" for --rand-seed=0; the seed
	 * that clock gave is printed, so that the run can be repeated. */
	bs_buf_addf(out,
		    "Initializing random number generator from seed "
		    "(%llu).\n\n\n",
		    (unsigned long long)seed);
	bs_buf_adds(out, "Extra file open flags: ");
	if (o->extra_flags == 0)
		bs_buf_adds(out, "(none)");
	if (o->extra_flags & BS_FILEIO_F_SYNC)
		bs_buf_adds(out, "sync ");
	if (o->extra_flags & BS_FILEIO_F_DSYNC)
		bs_buf_adds(out, "dsync ");
	if (o->extra_flags & BS_FILEIO_F_DIRECT)
		bs_buf_adds(out, "directio");
	bs_buf_addc(out, '\n');
	size_text(s, sizeof(s), (double)fsize);
	bs_buf_addf(out, "%llu files, %sB each\n",
		    (unsigned long long)o->file_num, s);
	size_text(s, sizeof(s), (double)(fsize * o->file_num));
	bs_buf_addf(out, "%sB total file size\n", s);
	size_text(s, sizeof(s), (double)o->block_size);
	bs_buf_addf(out, "Block size %sB\n", s);
	/* sysbench prints it in every mode, and merges in the sequential
	 * ones only (its random requests are one block). */
	if (o->merged_requests > 0) {
		size_text(s, sizeof(s),
			  (double)(o->block_size * o->merged_requests));
		bs_buf_addf(out,
			    "Merging requests up to %sB for sequential "
			    "IO.\n",
			    s);
	}
	if (o->mode >= BS_FILEIO_RNDRD && o->mode < BS_FILEIO_NMODES)
		bs_buf_addf(out,
			    "Number of IO requests: %llu\n"
			    "Read/Write ratio for combined random IO test: "
			    "%2.2f\n",
			    (unsigned long long)o->events, o->rw_ratio);
	if (o->fsync_freq > 0)
		bs_buf_addf(out,
			    "Periodic FSYNC enabled, calling fsync() each "
			    "%llu requests.\n",
			    (unsigned long long)o->fsync_freq);
	if (o->fsync_end)
		bs_buf_adds(out,
			    "Calling fsync() at the end of test, Enabled.\n");
	if (o->fsync_all)
		bs_buf_adds(out,
			    "Calling fsync() after each write operation.\n");
	bs_buf_addf(out, "Using %s I/O mode\n",
		    o->io_mode == BS_FILEIO_IO_MMAP    ? "fast mmaped"
		    : o->io_mode == BS_FILEIO_IO_ASYNC ? "asynchronous"
						       : "synchronous");
	if (o->validate)
		bs_buf_adds(out, "Using checksums validation.\n");
	if (o->mode < BS_FILEIO_NMODES)
		bs_buf_addf(out, "Doing %s test\n",
			    bs_fileio_mode_text(o->mode));
	bs_buf_adds(out, "Initializing worker threads...\n\n"
			 "Threads started!\n\n");
}

void bs_fileio_text_interval(const struct bs_fileio_opts *o,
			     const struct bs_fileio_interval *iv,
			     struct bs_buf *out)
{
	bs_buf_addf(out,
		    "[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s "
		    "fsyncs: %4.2f/s latency (ms,%llu%%): %4.3f\n",
		    iv->t_s, iv->read_mib_s, iv->written_mib_s,
		    iv->fsyncs_per_s, (unsigned long long)o->percentile,
		    isnan(iv->lat_pct_ms) ? 0.0 : iv->lat_pct_ms);
}

/* ---- the summary: one table for the text and the record ---- */

enum val {
	V_READS,
	V_WRITES,
	V_FSYNCS,
	V_RMIB,
	V_WMIB,
	V_TIME,
	V_EVENTS,
	V_MIN,
	V_AVG,
	V_MAX,
	V_PCT,
	V_SUM,
	V_NONE,
};

struct row {
	const char *text; /* a section title, or the label before a value */
	int width;        /* of the value (0: as it comes) */
	int prec;         /* decimals; -1 a count */
	const char *suffix;
	enum val v;
	const char *key; /* the metric stored; NULL: none */
};

/* clang-format off */
static const struct row rows[] = {
	{ "\nFile operations:", 0, 0, "", V_NONE, NULL },
	{ "    reads/s:                      ", 0, 2, "", V_READS, "reads_per_s" },
	{ "    writes/s:                     ", 0, 2, "", V_WRITES, "writes_per_s" },
	{ "    fsyncs/s:                     ", 0, 2, "", V_FSYNCS, "fsyncs_per_s" },
	{ "\nThroughput:", 0, 0, "", V_NONE, NULL },
	{ "    read, MiB/s:                  ", 0, 2, "", V_RMIB, "read_mib_s" },
	{ "    written, MiB/s:               ", 0, 2, "", V_WMIB, "written_mib_s" },
	{ "\nGeneral statistics:", 0, 0, "", V_NONE, NULL },
	{ "    total time:                          ", 0, 4, "s", V_TIME, "total_time_s" },
	{ "    total number of events:              ", 0, -1, "", V_EVENTS, "events" },
	{ "\nLatency (ms):", 0, 0, "", V_NONE, NULL },
	{ "         min:", 39, LAT_PREC, "", V_MIN, "latency_min_ms" },
	{ "         avg:", 39, LAT_PREC, "", V_AVG, "latency_avg_ms" },
	{ "         max:", 39, LAT_PREC, "", V_MAX, "latency_max_ms" },
	{ NULL, 27, LAT_PREC, "", V_PCT, NULL }, /* "%3dth percentile:" */
	{ "         sum:", 39, LAT_PREC, "", V_SUM, NULL },
};
/* clang-format on */

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static double value(const struct bs_fileio_opts *o,
		    const struct bs_fileio_result *res, enum val v)
{
	double t = res->time_s > 0 ? res->time_s : NAN;

	switch (v) {
	case V_READS:
		return (double)res->reads / t;
	case V_WRITES:
		return (double)res->writes / t;
	case V_FSYNCS:
		return (double)res->fsyncs / t;
	case V_RMIB:
		return (double)res->bytes_read / MIB / t;
	case V_WMIB:
		return (double)res->bytes_written / MIB / t;
	case V_TIME:
		return res->time_s;
	case V_EVENTS:
		return (double)res->events;
	case V_MIN:
		return res->hist.count ? (double)res->hist.min_ns / 1e6 : 0;
	case V_AVG:
		return res->hist.count ? bs_hist_mean_us(&res->hist) / 1e3 : 0;
	case V_MAX:
		return res->hist.count ? bs_hist_max_us(&res->hist) / 1e3 : 0;
	case V_PCT:
		return res->hist.count
			       ? bs_hist_quantile_us(&res->hist,
						     (double)o->percentile /
							     100) /
					 1e3
			       : 0;
	case V_SUM:
		return res->hist.sum_ns / 1e6;
	default:
		return NAN;
	}
}

/* A row's value as its text says it: printed, and read back. */
static void row_text(const struct row *rw, double v, char *buf, size_t size)
{
	if (rw->prec < 0)
		snprintf(buf, size, "%*.0f", rw->width, v);
	else
		snprintf(buf, size, "%*.*f", rw->width, rw->prec, v);
}

static double printed(const struct row *rw, double v)
{
	char buf[64];
	const char *s = buf;
	double back;

	row_text(rw, v, buf, sizeof(buf));
	while (*s == ' ')
		s++;
	if (bs_parse_double(s, strlen(s), &back) < 0)
		return NAN;
	return back;
}

/* ---- the latency histogram (--histogram) ---- */

/* sb_histogram_print()'s "%12.3f", with bstore's latency decimals. */
static void hist_value_text(unsigned i, char *buf, size_t size)
{
	snprintf(buf, size, "%12.*f", LAT_PREC, bs_fileio_hist_ms(i));
}

static void text_histogram(const struct bs_fileio_hist *h, struct bs_buf *out)
{
	static const char stars[] = "****************************************";
	uint64_t max = 0;
	char v[32];
	unsigned i;

	for (i = 0; i < BS_FILEIO_HIST_SIZE; i++)
		if (h->n[i] > max)
			max = h->n[i];
	bs_buf_adds(out, "Latency histogram (values are in milliseconds)\n");
	/* sysbench prints no rows, nor their head, without events. */
	if (max > 0)
		bs_buf_adds(out, "       value  ------------- distribution "
				 "------------- count\n");
	for (i = 0; max > 0 && i < BS_FILEIO_HIST_SIZE; i++) {
		int width;

		if (h->n[i] == 0)
			continue;
		width = (int)floor((double)h->n[i] * 40.0 / (double)max + 0.5);
		hist_value_text(i, v, sizeof(v));
		bs_buf_addf(out, "%s |%-40.*s %llu\n", v, width, stars,
			    (unsigned long long)h->n[i]);
	}
	bs_buf_adds(out, " \n");
}

void bs_fileio_text_summary(const struct bs_fileio_opts *o,
			    const struct bs_fileio_result *res,
			    struct bs_buf *out)
{
	char num[64];
	size_t i;

	if (o->histogram)
		text_histogram(&res->sbhist, out);
	for (i = 0; i < NROWS; i++) {
		const struct row *rw = &rows[i];

		if (rw->v == V_NONE) {
			bs_buf_addf(out, "%s\n", rw->text);
			continue;
		}
		if (rw->v == V_PCT && o->percentile == 0) {
			bs_buf_adds(out, "         percentile stats:        "
					 "       disabled\n");
			continue;
		}
		row_text(rw, value(o, res, rw->v), num, sizeof(num));
		if (rw->v == V_PCT)
			bs_buf_addf(out, "        %3lluth percentile:%s\n",
				    (unsigned long long)o->percentile, num);
		else
			bs_buf_addf(out, "%s%s%s\n", rw->text, num, rw->suffix);
	}
	bs_buf_addf(out,
		    "\nThreads fairness:\n"
		    "    events (avg/stddev):           %.4f/%3.2f\n"
		    "    execution time (avg/stddev):   %.4f/%3.2f\n\n",
		    res->events_avg, res->events_stddev, res->exec_avg_s,
		    res->exec_stddev_s);
}

/* ---- the run record ---- */

static void put(struct bs_run *r, const char *key, double v)
{
	int m = bs_metric_find(BS_FAM_SYSBENCH, key);

	if (m < 0 || isnan(v))
		return;
	r->res[m].status = BS_ST_OK;
	r->res[m].value = v;
}

/* The percentiles the catalogue has a row for. */
static const unsigned pcts[] = {50, 90, 95, 99};

void bs_fileio_to_run(const struct bs_fileio_opts *o,
		      const struct bs_fileio_result *res,
		      const char *tool_version, const char *machine,
		      int64_t measured_at, const char *text, struct bs_run *r)
{
	struct bs_params *p = &r->params;
	struct bs_buf b = BS_BUF_INIT;
	char key[32];
	size_t i, k;
	int m;

	r->family = BS_FAM_SYSBENCH;
	bs_run_set(&r->tool, "bstore");
	bs_run_set(&r->tool_version, tool_version);
	bs_run_set(&r->format, BS_FMT_BSTORE_FILEIO);
	bs_run_set(&r->machine, machine);
	bs_run_set(&r->source, "bstore fileio");
	bs_run_set(&r->raw, text);
	r->measured_at = measured_at;

	bs_run_set(&p->mode, bs_fileio_word("file-test-mode", o->mode));
	p->threads = (int64_t)o->threads;
	p->block_size_bytes = (int64_t)o->block_size;
	p->file_num = (int64_t)o->file_num;
	p->file_total_bytes = (int64_t)(bs_fileio_file_size(o) * o->file_num);
	/* sysbench prints the ratio for the random modes only. */
	if (o->mode >= BS_FILEIO_RNDRD)
		p->rw_ratio = o->rw_ratio;
	p->fsync_freq = (int64_t)o->fsync_freq;
	p->fsync_all = o->fsync_all;
	p->fsync_end = o->fsync_end;
	bs_run_set(&p->fsync_mode,
		   bs_fileio_word("file-fsync-mode", o->fsync_mode));
	bs_run_set(&p->io_mode, bs_fileio_word("file-io-mode", o->io_mode));
	bs_fileio_flags_text(o->extra_flags, &b);
	bs_run_set(&p->extra_flags, bs_buf_str(&b));
	p->direct = bs_flags_direct(p->extra_flags);
	bs_buf_release(&b);

	for (i = 0; i < NROWS; i++) {
		const struct row *rw = &rows[i];

		if (rw->key)
			put(r, rw->key, printed(rw, value(o, res, rw->v)));
	}
	if (res->events == 0)
		for (i = 0; i < NROWS; i++)
			if (rows[i].v >= V_MIN && rows[i].key)
				r->res[bs_metric_find(BS_FAM_SYSBENCH,
						      rows[i].key)]
					.status = BS_ST_NOT_RUN;
	/* The percentile printed, as printed; the catalogue's others from
	 * the histogram. */
	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]) && res->events; k++) {
		snprintf(key, sizeof(key), "latency_p%u_ms", pcts[k]);
		if (pcts[k] == o->percentile)
			put(r, key,
			    printed(&rows[NROWS - 2], value(o, res, V_PCT)));
		else
			put(r, key,
			    bs_hist_quantile_us(&res->hist,
						(double)pcts[k] / 100) /
				    1e3);
	}
	for (i = 0; i < BS_M_MAX; i++)
		if (r->res[i].status == BS_ST_NOT_RUN)
			r->res[i].value = NAN;
	/* The histogram, its values as printed (or as they would be). */
	m = bs_metric_find(BS_FAM_SYSBENCH, "latency_histogram");
	if (m < 0)
		BS_BUG("the catalogue lacks sysbench's latency_histogram");
	if (res->events > 0) {
		struct bs_series *s = bs_run_series_add(r, m, "latency_ms");
		char v[32];
		double x;

		for (k = 0; k < BS_FILEIO_HIST_SIZE; k++) {
			if (res->sbhist.n[k] == 0)
				continue;
			hist_value_text((unsigned)k, v, sizeof(v));
			if (bs_parse_double(v + strspn(v, " "),
					    strlen(v + strspn(v, " ")), &x) < 0)
				BS_BUG("a histogram value that does not read "
				       "back");
			bs_series_point(s, x, (double)res->sbhist.n[k], NAN);
		}
	}
	if (res->niv == 0)
		return;
	/* The --report-interval rows. */
	{
		static const char *const keys[] = {
			"read_mib_s",
			"written_mib_s",
			"fsyncs_per_s",
			NULL,
		};
		struct bs_series *s;

		for (k = 0; k < 4; k++) {
			if (k < 3) {
				m = bs_metric_find(BS_FAM_SYSBENCH, keys[k]);
			} else {
				snprintf(key, sizeof(key), "latency_p%llu_ms",
					 (unsigned long long)o->percentile);
				m = o->percentile
					    ? bs_metric_find(BS_FAM_SYSBENCH,
							     key)
					    : -1;
			}
			if (m < 0 || !(bs_metrics[m].flags & BS_MF_SERIES))
				continue;
			s = bs_run_series_add(r, m, "time_s");
			for (i = 0; i < res->niv; i++) {
				const struct bs_fileio_interval *iv =
					&res->iv[i];
				double y = k == 0   ? iv->read_mib_s
					   : k == 1 ? iv->written_mib_s
					   : k == 2 ? iv->fsyncs_per_s
						    : iv->lat_pct_ms;

				bs_series_point(s, iv->t_s, y,
						(double)o->report_interval_s);
			}
		}
	}
}
