/*
 * ingest/fio_terse.c - fio's terse output (--minimal, or
 * --output-format=terse --terse-version=3, 4 or 5): one ';'-separated
 * line per job (FORMATS.md section 6.1), a line format of the registry.
 *
 * The line starts "3;fio-3.33;jobname;groupid;error;" and then gives a
 * block of fields per direction: read and write (v3), and trim too (v4,
 * v5). A block is 41 fields, 47 in v5 (bw samples and IOPS statistics
 * added at its end). Sizes are KiB, bandwidth KiB/s, latencies us, the
 * percentiles "99.000000%=195" (us; "0%=0" is an unused slot). After the
 * blocks come CPU, I/O depth and latency distributions (34 fields) and
 * the disks; they are not kept.
 */
#include "ingest/fio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* Fields before the first direction, and after the last one that every
 * line has (CPU 5, depths 7, latency buckets 10 + 12). */
#define HEAD 5
#define TAIL 34
#define MAXF 512

/* Where things sit in a direction's block, counted from its start. */
enum {
	B_IO_KIB = 0,
	B_BW = 1,
	B_IOPS = 2,
	B_PCT = 12, /* 20 percentile slots */
	B_NPCT = 20,
	B_LAT_MEAN = 34,
};

struct tline {
	struct bs_field f[MAXF];
	size_t nf;
};

static void split(const struct bs_fline *l, struct tline *t)
{
	const char *s = l->text, *end = l->text + l->len;

	t->nf = 0;
	for (;;) {
		const char *c = memchr(s, ';', (size_t)(end - s));
		const char *e = c ? c : end;

		if (t->nf < MAXF) {
			t->f[t->nf].s = s;
			t->f[t->nf].len = (size_t)(e - s);
		}
		t->nf++;
		if (c == NULL)
			break;
		s = c + 1;
	}
}

/* The terse version of l (3, 4, 5) when it starts "N;fio-", else 0. */
static int version_of(const char *s, size_t len)
{
	if (len < 7 || s[1] != ';' || strncmp(s + 2, "fio-", 4) != 0)
		return 0;
	if (s[0] < '3' || s[0] > '5')
		return 0;
	return s[0] - '0';
}

int bs_fio_terse_probe(const struct bs_format *f, const struct bs_fline *l)
{
	(void)f;
	return version_of(l->text, l->len) != 0;
}

static int number(const struct tline *t, size_t i, const char *what, double *v,
		  char *reason, size_t reasonsz)
{
	char q[48];

	if (bs_parse_double(t->f[i].s, t->f[i].len, v) == 0 && *v >= 0)
		return 0;
	bs_err_quote(q, sizeof(q), t->f[i].s, t->f[i].len, BS_FIO_QUOTE_MAX);
	snprintf(reason, reasonsz,
		 "fio terse field %zu (%s) is not a number: '%s'", i + 1, what,
		 q);
	return -1;
}

/* One percentile slot "p%=v" into r (kept ones only). */
static int percentile(const struct tline *t, size_t i, int dir,
		      struct bs_run *r, char *reason, size_t reasonsz)
{
	const char *s = t->f[i].s, *eq;
	size_t len = t->f[i].len;
	double p, v;
	char q[48];
	int st;

	eq = memchr(s, '=', len);
	if (eq == NULL || eq == s || eq[-1] != '%' ||
	    bs_parse_double(s, (size_t)(eq - 1 - s), &p) < 0 ||
	    bs_parse_double(eq + 1, len - (size_t)(eq + 1 - s), &v) < 0) {
		bs_err_quote(q, sizeof(q), s, len, BS_FIO_QUOTE_MAX);
		snprintf(reason, reasonsz,
			 "fio terse field %zu is not a percentile: '%s'", i + 1,
			 q);
		return -1;
	}
	st = bs_fio_pct_stat(p);
	if (st < 0)
		return 0;
	return bs_fio_set(r, dir, st, v, reason, reasonsz);
}

static int direction(const struct tline *t, size_t b, int dir, struct bs_run *r,
		     char *reason, size_t reasonsz)
{
	static const char *const what[BS_FIO_NDIR] = {"read", "write", "trim"};
	double io, bw, iops, lat;
	char w[32];
	size_t i;

	snprintf(w, sizeof(w), "%s KiB", what[dir]);
	if (number(t, b + B_IO_KIB, w, &io, reason, reasonsz) < 0)
		return -1;
	snprintf(w, sizeof(w), "%s bandwidth", what[dir]);
	if (number(t, b + B_BW, w, &bw, reason, reasonsz) < 0)
		return -1;
	snprintf(w, sizeof(w), "%s IOPS", what[dir]);
	if (number(t, b + B_IOPS, w, &iops, reason, reasonsz) < 0)
		return -1;
	snprintf(w, sizeof(w), "%s latency mean", what[dir]);
	if (number(t, b + B_LAT_MEAN, w, &lat, reason, reasonsz) < 0)
		return -1;
	/* A direction the job did not do has every field 0: not run. */
	if (io == 0 && iops == 0)
		return 0;
	if (bs_fio_set(r, dir, BS_FIO_BW, bw, reason, reasonsz) < 0 ||
	    bs_fio_set(r, dir, BS_FIO_IOPS, iops, reason, reasonsz) < 0 ||
	    bs_fio_set(r, dir, BS_FIO_LAT_MEAN, lat, reason, reasonsz) < 0)
		return -1;
	for (i = 0; i < B_NPCT; i++)
		if (percentile(t, b + B_PCT + i, dir, r, reason, reasonsz) < 0)
			return -1;
	return 0;
}

int bs_fio_terse_parse(const struct bs_format *f, const struct bs_fline *l,
		       struct bs_run *r, struct bs_err *err)
{
	char reason[BS_ERR_MSG_MAX];
	const size_t reasonsz = sizeof(reason);
	struct tline *t = xmalloc(sizeof(*t));
	int ver = version_of(l->text, l->len);
	size_t blk = ver == 5 ? 47 : 41;
	size_t ndir = ver == 3 ? 2 : 3;
	size_t need = HEAD + ndir * blk + TAIL, d;
	char q[48];
	int rc = -1;

	(void)f;
	split(l, t);
	if (t->nf < need) {
		snprintf(reason, reasonsz,
			 "expected at least %zu fields for fio terse "
			 "version %d, found %zu",
			 need, ver, t->nf);
		goto out;
	}
	bs_fio_run_start(BS_FMT_FIO_TERSE, t->f[1].s, t->f[1].len, r);
	r->params.jobname = xstrndup(t->f[2].s, t->f[2].len);
	for (d = 0; d < ndir; d++)
		if (direction(t, HEAD + d * blk, (int)d, r, reason, reasonsz) <
		    0)
			goto out;
	if (t->f[4].len != 1 || t->f[4].s[0] != '0') {
		bs_err_quote(q, sizeof(q), t->f[4].s, t->f[4].len,
			     BS_FIO_QUOTE_MAX);
		if (bs_fio_error(r, r->params.jobname, q, strlen(q), reason,
				 reasonsz) < 0)
			goto out;
	}
	rc = 1;
out:
	free(t);
	if (rc < 0) {
		bs_fio_clean(reason);
		bs_run_release(r);
		return bs_format_fail(err, rc, reason);
	}
	return rc;
}
