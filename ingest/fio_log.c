/*
 * ingest/fio_log.c - fio's log files (ingest/ingest.h, docs/ingest.md
 * "fio log files"): their names, and their lines into time series.
 *
 * fio writes one line per I/O, or per window with --log_avg_msec:
 * "msec, value, ddir, bs" and from fio 3 ", offset" with --log_offset and
 * ", prio" (fio 3.x always prints the priority column; 2.x never did).
 * Only msec, value and ddir are kept: a log's offset and priority are
 * the I/O's, not the run's. The value is a latency (ns from fio 3, us
 * before), a bandwidth in KiB/s, or an I/O count (1 per I/O; IOPS over a
 * window). The lines are read with a loop of their own, not the
 * registry's line splitter: a log of a minute at 100k IOPS has six
 * million lines.
 */
#include "ingest/ingest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/fio.h"
#include "util/mem.h"
#include "util/banned.h"

static const char *const kind_names[BS_FIO_LOG_NKIND] = {"lat", "clat", "slat",
							 "bw", "iops"};

const char *bs_fio_log_kind_name(enum bs_fio_log_kind k)
{
	return kind_names[k];
}

int bs_fio_log_name(const char *path, struct bs_fio_log_name *out)
{
	const char *base = strrchr(path, '/'), *end, *dot, *us;
	size_t blen, i;
	int k, job = 0;

	base = base ? base + 1 : path;
	blen = strlen(base);
	if (blen < 5 || strcmp(base + blen - 4, ".log") != 0)
		return 0;
	end = base + blen - 4;
	/* ".N" before ".log": the job's number. */
	dot = end;
	while (dot > base && dot[-1] >= '0' && dot[-1] <= '9')
		dot--;
	if (dot < end && dot > base && dot[-1] == '.' && end - dot <= 6) {
		for (i = 0; i < (size_t)(end - dot); i++)
			job = job * 10 + (dot[i] - '0');
		end = dot - 1;
	}
	for (k = 0; k < BS_FIO_LOG_NKIND; k++) {
		size_t kl = strlen(kind_names[k]);

		if ((size_t)(end - base) < kl + 2)
			continue;
		us = end - kl - 1;
		if (*us == '_' && memcmp(us + 1, kind_names[k], kl) == 0) {
			if ((size_t)(us - base) >= sizeof(out->prefix))
				return 0;
			memcpy(out->prefix, base, (size_t)(us - base));
			out->prefix[us - base] = '\0';
			out->kind = (enum bs_fio_log_kind)k;
			out->job = job;
			return 1;
		}
	}
	return 0;
}

struct entry {
	uint64_t ms;
	uint64_t v;
};

struct dir_entries {
	struct entry *e;
	size_t n, cap;
};

/* An unsigned decimal at *p (spaces before it skipped); 0 and *v, or -1
 * when there is none or it overflows. */
static int field(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	while (s < end && *s == ' ')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

/* The catalogue row of kind's log of direction d. */
static int log_metric(int d, enum bs_fio_log_kind kind)
{
	static const char *const dir[3] = {"read", "write", "trim"};
	char key[64];
	int m;

	snprintf(key, sizeof(key), "%s_%s_log", dir[d], kind_names[kind]);
	m = bs_metric_find(BS_FAM_FIO, key);
	if (m < 0)
		BS_BUG("a fio log is missing from the catalogue");
	return m;
}

/* The entries of one direction as a curve of r, at most
 * BS_FIO_LOG_POINTS points; sum its exact summary. */
static void to_curve(struct bs_run *r, int m, const struct dir_entries *de,
		     double div, struct bs_fio_log_sum *sum)
{
	struct bs_series *s = bs_run_series_add(r, m, "time_s");
	size_t per = (de->n + BS_FIO_LOG_POINTS - 1) / BS_FIO_LOG_POINTS, i;
	uint64_t vmin = UINT64_MAX, vmax = 0;
	long double total = 0;

	sum->entries = (int64_t)de->n;
	sum->per_point = (int64_t)per;
	/* In the log's integers, divided once: the summary is exact. */
	for (i = 0; i < de->n; i++) {
		uint64_t v = de->e[i].v;

		if (v < vmin)
			vmin = v;
		if (v > vmax)
			vmax = v;
		total += (long double)v;
	}
	sum->min = (double)vmin / div;
	sum->max = (double)vmax / div;
	sum->mean = (double)(total / (long double)de->n / (long double)div);
	for (i = 0; i < de->n; i += per) {
		size_t k, hi = i + per < de->n ? i + per : de->n;
		double t = 0;

		if (per == 1) {
			bs_series_point(s, (double)de->e[i].ms / 1000,
					(double)de->e[i].v / div, NAN);
			continue;
		}
		for (k = i; k < hi; k++)
			t += (double)de->e[k].v;
		/* A window: where it starts, its mean, how long it spans. */
		bs_series_point(s, (double)de->e[i].ms / 1000,
				t / (double)(hi - i) / div,
				(double)(de->e[hi - 1].ms - de->e[i].ms) /
					1000);
	}
}

int64_t bs_fio_log_parse(const char *name, const char *data, size_t len,
			 enum bs_fio_log_kind kind, double lat_div,
			 struct bs_run *r, struct bs_fio_log_sum sum[3],
			 struct bs_err *err)
{
	struct dir_entries de[3];
	const char *p = data, *end = data + len;
	double div = kind <= BS_FIO_LOG_SLAT ? lat_div : 1;
	int64_t line = 0, total = 0;
	int d, rc = 0;

	memset(de, 0, sizeof(de));
	memset(sum, 0, 3 * sizeof(sum[0]));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;
		uint64_t f[6];
		int nf = 0;

		if (eol == NULL)
			eol = end;
		line++;
		/* A CR of a copied file ends the line as well. */
		if (eol > p && eol[-1] == '\r')
			eol--;
		while (nf < 6 && field(&q, eol, &f[nf]) == 0) {
			nf++;
			while (q < eol && *q == ' ')
				q++;
			if (q == eol || *q != ',')
				break;
			q++;
		}
		if (q != eol || nf < 3 || nf > 6) {
			rc = bs_error(err, BS_EPARSE,
				      "%s:%lld: not a line of a fio log "
				      "(msec, value, direction, size[, "
				      "offset][, priority])",
				      name, (long long)line);
			goto out;
		}
		if (f[2] > 2) {
			rc = bs_error(err, BS_EPARSE,
				      "%s:%lld: fio log direction %llu is none "
				      "of 0 (read), 1 (write), 2 (trim)",
				      name, (long long)line,
				      (unsigned long long)f[2]);
			goto out;
		}
		d = (int)f[2];
		xgrow((void **)&de[d].e, &de[d].cap, de[d].n + 1,
		      sizeof(de[d].e[0]));
		de[d].e[de[d].n].ms = f[0];
		de[d].e[de[d].n].v = f[1];
		de[d].n++;
		total++;
		p = eol < end && *eol == '\r' ? eol + 2 : eol + 1;
	}
	for (d = 0; d < 3; d++)
		if (de[d].n > 0)
			to_curve(r, log_metric(d, kind), &de[d], div, &sum[d]);
out:
	for (d = 0; d < 3; d++)
		free(de[d].e);
	return rc < 0 ? rc : total;
}
