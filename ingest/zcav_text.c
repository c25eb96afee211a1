/*
 * ingest/zcav_text.c - bonnie++'s zcav output (docs/input-formats.md section
 * 4.1) into runs: one run a pass, its throughput curve as a series.
 *
 * Dialects, told apart by the header:
 *   "#block offset (GiB), MiB/s, time" (1.03d and later, 2.00a): data
 *       "%.2f %.2f %.3f" = offset GiB, MiB/s, seconds;
 *   "#block K/s time" (1.02-1.03c, and a 1.9x variant): data "%d %d %f"
 *       = offset MiB, K/s (KiB/s), seconds.
 * A block that zcav timed under its threshold is "#<offset> ++++ <s>":
 * a point without a rate. "#loops: N[, version: X]" comes first in the
 * old dialects and in 2.00a's -c N output, whose block lines are then the
 * trimmed mean of N passes: one run with passes N. 2.00a's per-pass
 * totals ("# Read N megs in ..."), its stderr ("# Finished loop ...",
 * "Warning, writing to ...", -w) and the command line pasted above
 * ("$ zcav -b 16 -w /dev/sdb") belong to the run; the command line says
 * -b, -c, -s and -w when the output does not.
 *
 * A block (ingest/block.h) is every consecutive zcav-shaped line; parse()
 * cuts it into runs at each new command line, "#loops" line or header.
 */
#include "ingest/zcav_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/zcav.h"
#include "ingest/format.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define QUOTE_MAX 60 /* bytes of user data quoted in a reason */
#define HDR_GIB "#block offset (GiB), MiB/s, time"
#define HDR_K "#block K/s time"

enum zl {
	ZL_OTHER,
	ZL_CMD,      /* "$ zcav -b 16 /dev/sdb" */
	ZL_WARN,     /* "Warning, writing to X in 5 seconds." (-w) */
	ZL_FINISHED, /* "# Finished loop 1, on device X at 4:59:33" */
	ZL_READ,     /* "# Read 96 megs in 4 seconds, 20 megabytes ..." */
	ZL_LOOPS,    /* "#loops: 2" or "#loops: 1, version: 1.03c" */
	ZL_HASH,     /* "#" alone (1.03d/e before a -c curve) */
	ZL_HDR_GIB,  /* "#block offset (GiB), MiB/s, time" */
	ZL_HDR_K,    /* "#block K/s time" */
	ZL_DATA,     /* three numbers */
	ZL_FAST,     /* "#0.02 ++++ 0.002" */
	ZL_ERROR,    /* "Can't open /dev/sdb", "... too small." */
	/* bstore zcav's first line: "# bstore 0.1.0 zcav: reading '/dev/sdb'
	 * in 1 MiB accesses, O_DIRECT" (or "through the page cache ..."). */
	ZL_BSTORE,
};

/* A line's kind and what it says. */
struct zline {
	enum zl kind;
	double v[3];     /* ZL_DATA: offset, rate, s; ZL_FAST: offset, s */
	int64_t n;       /* ZL_LOOPS: N; ZL_READ: megs (-1 for gigs);
			     * ZL_FINISHED: 1 a device (/dev/...), 0 a
			     * file, -1 not said */
	double rate;     /* ZL_READ: its megabytes per second, or NAN */
	const char *ver; /* ZL_LOOPS, ZL_BSTORE: the version, or NULL */
	size_t verlen;
	int direct; /* ZL_BSTORE: it read with O_DIRECT */
};

static int prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits s at blanks into at most max tokens; their count (more than max
 * when there are more). */
static size_t tokens(const char *s, size_t n, struct bs_field *t, size_t max)
{
	size_t i = 0, nt = 0;

	for (;;) {
		size_t st;

		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			return nt;
		st = i;
		while (i < n && !blank(s[i]))
			i++;
		if (nt < max) {
			t[nt].s = s + st;
			t[nt].len = i - st;
		}
		nt++;
	}
}

static int num(const struct bs_field *t, double *v)
{
	return bs_parse_double(t->s, t->len, v) == 0 && isfinite(*v) && *v >= 0;
}

/*
 * Where a command line's words start: after a prompt ("$ ", "# ", "% ")
 * and "sudo "; *cmd is the program's base name. Returns the offset, or
 * -1 when the line does not run name.
 */
static long command_at(const char *s, size_t n, const char *name)
{
	size_t i = 0, st, k = strlen(name);

	if (n >= 2 && (s[0] == '$' || s[0] == '#' || s[0] == '%') &&
	    blank(s[1]))
		i = 2;
	while (i < n && blank(s[i]))
		i++;
	if (prefix(s + i, n - i, "sudo "))
		i += 5;
	while (i < n && blank(s[i]))
		i++;
	st = i;
	while (i < n && !blank(s[i]))
		i++;
	/* The program, as "zcav", "/usr/sbin/zcav" or "./zcav". */
	if (i - st < k || memcmp(s + i - k, name, k) != 0 ||
	    (i - st > k && s[i - k - 1] != '/'))
		return -1;
	/* An option or a device after it ("zcav -b 16 /dev/sdb"), not
	 * prose that starts with the name ("zcav 1.03c, one pass"). */
	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			return -1;
		if (s[i] == '-' || s[i] == '/')
			return (long)st;
		while (i < n && !blank(s[i]))
			i++;
	}
}

static void classify(const char *s, size_t n, struct zline *z)
{
	struct bs_field t[4];
	size_t nt;

	memset(z, 0, sizeof(*z));
	z->kind = ZL_OTHER;
	if (n == 0)
		return;
	if (n == 1 && s[0] == '#') {
		z->kind = ZL_HASH;
		return;
	}
	if (n == strlen(HDR_GIB) && memcmp(s, HDR_GIB, n) == 0)
		z->kind = ZL_HDR_GIB;
	else if (n == strlen(HDR_K) && memcmp(s, HDR_K, n) == 0)
		z->kind = ZL_HDR_K;
	if (z->kind != ZL_OTHER)
		return;
	if (prefix(s, n, "#loops: ")) {
		size_t i = 8, d = 8;

		while (d < n && s[d] >= '0' && s[d] <= '9')
			d++;
		if (d == i || bs_parse_i64(s + i, d - i, &z->n) < 0)
			return;
		if (d < n) {
			if (!prefix(s + d, n - d, ", version: ") ||
			    n - d - 11 == 0 || n - d - 11 > 15)
				return;
			z->ver = s + d + 11;
			z->verlen = n - d - 11;
		}
		z->kind = ZL_LOOPS;
		return;
	}
	if (prefix(s, n, "# Read ")) {
		struct bs_field r[8];
		size_t nr = tokens(s + 7, n - 7, r, 8);

		/* "N megs in S seconds, R megabytes per second." */
		z->rate = NAN;
		if (nr >= 7 && r[6].len == 9 &&
		    memcmp(r[6].s, "megabytes", 9) == 0)
			num(&r[5], &z->rate);
		nt = tokens(s + 7, n - 7, t, 4);
		if (nt >= 3 && t[2].len == 2 && memcmp(t[2].s, "in", 2) == 0 &&
		    bs_parse_i64(t[0].s, t[0].len, &z->n) == 0 && z->n >= 0) {
			if (t[1].len == 4 && memcmp(t[1].s, "gigs", 4) == 0)
				z->n = -1;
			else if (t[1].len != 4 || memcmp(t[1].s, "megs", 4))
				return;
			z->kind = ZL_READ;
		}
		return;
	}
	if (prefix(s, n, "# bstore ")) {
		static const char od[] = ", O_DIRECT";
		size_t v = 9, e = v;

		while (e < n && !blank(s[e]))
			e++;
		if (e == v || e - v > 15 || !prefix(s + e, n - e, " zcav: "))
			return;
		z->kind = ZL_BSTORE;
		z->ver = s + v;
		z->verlen = e - v;
		z->direct = n >= sizeof(od) - 1 &&
			    memcmp(s + n - (sizeof(od) - 1), od,
				   sizeof(od) - 1) == 0;
		return;
	}
	if (prefix(s, n, "# Finished loop ") ||
	    prefix(s, n, "Finished loop ")) {
		static const char on[] = ", on device ";
		size_t i, k = sizeof(on) - 1;

		z->kind = ZL_FINISHED;
		z->n = -1;
		/* zcav says "device" for a file too: the path tells. */
		for (i = 0; i + k <= n; i++)
			if (memcmp(s + i, on, k) == 0) {
				z->n = prefix(s + i + k, n - i - k, "/dev/");
				break;
			}
		return;
	}
	if (prefix(s, n, "Warning, writing to ")) {
		z->kind = ZL_WARN;
		return;
	}
	if (prefix(s, n, "Can't open ") || prefix(s, n, "Can't lseek") ||
	    prefix(s, n, "Can't llseek") || prefix(s, n, "Input file ") ||
	    prefix(s, n, "Data file/device ") ||
	    prefix(s, n, "File/device too small") ||
	    prefix(s, n, "Can't get time") || prefix(s, n, "Can't stat") ||
	    prefix(s, n, "Write channel broken")) {
		z->kind = ZL_ERROR;
		return;
	}
	if (s[0] == '#') {
		nt = tokens(s + 1, n - 1, t, 4);
		if (nt == 3 && t[1].len == 4 &&
		    memcmp(t[1].s, "++++", 4) == 0 && num(&t[0], &z->v[0]) &&
		    num(&t[2], &z->v[1]))
			z->kind = ZL_FAST;
		return;
	}
	nt = tokens(s, n, t, 4);
	if (nt == 3 && num(&t[0], &z->v[0]) && num(&t[1], &z->v[1]) &&
	    num(&t[2], &z->v[2])) {
		z->kind = ZL_DATA;
		return;
	}
	if (command_at(s, n, "zcav") >= 0)
		z->kind = ZL_CMD;
}

/* ---- scanning ---- */

static int zcav_start(const struct bs_fline *l, void *state)
{
	struct zline z;

	(void)state;
	classify(l->text, l->len, &z);
	switch (z.kind) {
	case ZL_FINISHED:
		/* Not bonnie++ 1.0x's bare "Finished loop 1." alone. */
		return l->text[0] == '#';
	case ZL_CMD:
	case ZL_WARN:
	case ZL_READ:
	case ZL_LOOPS:
	case ZL_HDR_GIB:
	case ZL_HDR_K:
	case ZL_BSTORE:
		return 1;
	default:
		return 0;
	}
}

static enum bs_scan zcav_more(const struct bs_fline *l, void *state)
{
	struct zline z;

	(void)state;
	classify(l->text, l->len, &z);
	return z.kind == ZL_OTHER ? BS_SCAN_END_BEFORE : BS_SCAN_TAKE;
}

/* ---- parsing ---- */

struct zpoint {
	double x, y, s; /* GiB, MiB/s (NAN for ++++), seconds */
};

/* A run being gathered: lines first..last of the block. */
struct zrun {
	size_t first, last;
	int open;      /* has a line */
	int hdr;       /* 0 none, ZL_HDR_GIB or ZL_HDR_K */
	int headless;  /* block lines before any header */
	int64_t loops; /* "#loops: N", or BS_NONE */
	const char *ver;
	size_t verlen;
	int write;         /* -w: "Warning, writing to" or the command */
	int trailing_read; /* the "# Read" after a pass's blocks */
	int64_t megs;      /* the first "# Read N megs", or -1 */
	double total;      /* the last "# Read"'s megabytes/s, or NAN */
	size_t error;      /* line of zcav's error message, or SIZE_MAX */
	int64_t cmd_block, cmd_count, cmd_skip; /* -b, -c, -s; BS_NONE */
	int64_t device; /* 1 a device, 0 a file, -1 not said */
	int bstore;     /* bstore zcav's printout (ZL_BSTORE) */
	int direct;     /* its O_DIRECT */
	struct zpoint *pt;
	size_t n, cap;
};

static void zrun_reset(struct zrun *z, size_t at)
{
	z->first = z->last = at;
	z->open = 0;
	z->hdr = 0;
	z->headless = 0;
	z->loops = BS_NONE;
	z->ver = NULL;
	z->verlen = 0;
	z->write = 0;
	z->trailing_read = 0;
	z->megs = -1;
	z->total = NAN;
	z->error = SIZE_MAX;
	z->cmd_block = z->cmd_count = z->cmd_skip = BS_NONE;
	z->device = -1;
	z->bstore = z->direct = 0;
	z->n = 0;
}

/* The number at the start of s (zcav's "-b 16:1" takes 16). */
static int64_t lead_int(const char *s, size_t n)
{
	size_t d = 0;
	int64_t v;

	while (d < n && s[d] >= '0' && s[d] <= '9')
		d++;
	if (d == 0 || (d < n && s[d] != ':') || bs_parse_i64(s, d, &v) < 0)
		return BS_NONE;
	return v;
}

/* zcav's options on a command line: -b, -c, -s, -w (getopt: "-b16" or
 * "-b 16"). */
static void parse_command(const char *s, size_t n, struct zrun *z)
{
	struct bs_field t[64];
	size_t nt, i, k = (size_t)command_at(s, n, "zcav");

	nt = tokens(s + k, n - k, t, 64);
	if (nt > 64)
		nt = 64;
	for (i = 1; i < nt; i++) {
		const struct bs_field *a = &t[i];
		const char *v;
		size_t vl, o;
		char c;

		if (a->len < 2 || a->s[0] != '-')
			continue;
		/* Flags without a value may be grouped: "-wb 16". */
		for (o = 1; o < a->len && a->s[o] == 'w'; o++)
			z->write = 1;
		if (o == a->len)
			continue;
		c = a->s[o];
		if (strchr("bcrsuglf", c) == NULL)
			continue;
		if (o + 1 < a->len) {
			v = a->s + o + 1;
			vl = a->len - o - 1;
		} else if (i + 1 < nt) {
			i++;
			v = t[i].s;
			vl = t[i].len;
		} else {
			break;
		}
		if (c == 'b')
			z->cmd_block = lead_int(v, vl);
		else if (c == 'c')
			z->cmd_count = lead_int(v, vl);
		else if (c == 's')
			z->cmd_skip = lead_int(v, vl);
	}
}

/* Appends up to QUOTE_MAX bytes of s to b, control bytes as '?'. */
static void quote(struct bs_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < QUOTE_MAX; i++)
		bs_buf_addc(b, (unsigned char)s[i] < 0x20 || s[i] == 0x7f
				       ? '?'
				       : s[i]);
	if (n > QUOTE_MAX)
		bs_buf_adds(b, "...");
}

static int zreject(const struct bs_block *b, struct bs_block_out *out,
		   const struct zrun *z, const char *what)
{
	struct bs_buf r = BS_BUF_INIT;
	int rc;

	bs_buf_adds(&r, what);
	if (z->error != SIZE_MAX) {
		bs_buf_adds(&r, "; zcav said '");
		quote(&r, b->l[z->error].text, b->l[z->error].len);
		bs_buf_adds(&r, "'");
	}
	rc = out->reject(out, z->first, z->last, bs_buf_str(&r));
	bs_buf_release(&r);
	return rc;
}

static void set_param(int64_t *field, const char *key, int64_t v)
{
	int i = bs_param_find_in(BS_FAM_ZCAV, key);

	if (v != BS_NONE && i >= 0 && bs_param_fits(i, v))
		*field = v;
}

/* The block size in MiB: as given, or from the totals, or from a timed
 * block (rate times time is the block's size). */
static int64_t block_mib(const struct zrun *z)
{
	double best = NAN, bs = 0;
	size_t i;

	if (z->cmd_block != BS_NONE && z->cmd_block > 0)
		return z->cmd_block;
	if (z->hdr == ZL_HDR_K && z->n >= 2 && z->pt[1].x > z->pt[0].x) {
		double step = (z->pt[1].x - z->pt[0].x) * 1024;

		if (fabs(step - floor(step + 0.5)) < 1e-6)
			return (int64_t)floor(step + 0.5);
	}
	/* 2.00a's "# Read N megs": N is the pass's blocks times the size. */
	if (z->megs > 0 && z->n > 0 && z->megs % (int64_t)z->n == 0)
		return z->megs / (int64_t)z->n;
	for (i = 0; i < z->n; i++)
		if (!isnan(z->pt[i].y) && z->pt[i].s > bs) {
			bs = z->pt[i].s;
			best = z->pt[i].y * z->pt[i].s;
		}
	if (!isnan(best) && best >= 0.5 &&
	    fabs(best - floor(best + 0.5)) <= 0.01 * best)
		return (int64_t)floor(best + 0.5);
	return BS_NONE;
}

/* -s k: the offsets advance k blocks a line. The offsets are printed to
 * 0.01 GiB (exact MiB in the K/s dialect): k is the one skip that fits
 * the last offset within that rounding. */
static int64_t skip_of(const struct zrun *z, int64_t block)
{
	double last, tol, per;
	int64_t k, found = BS_NONE;

	if (z->cmd_skip != BS_NONE)
		return z->cmd_skip;
	if (block == BS_NONE || block <= 0 || z->n < 2)
		return BS_NONE;
	last = z->pt[z->n - 1].x * 1024;
	tol = z->hdr == ZL_HDR_K ? 0.5 : 0.005 * 1024 + 1e-6;
	per = (double)(z->n - 1) * (double)block;
	/* zcav takes -s 2 to 20; 1 is no -s. */
	for (k = 1; k <= 20; k++)
		if (fabs(last - per * (double)k) <= tol) {
			if (found != BS_NONE)
				return BS_NONE;
			found = k;
		}
	return found;
}

/*
 * The offsets exactly (caller frees), or NULL: zcav prints a block's
 * offset, its number times the block size, to 0.01 GiB, so that 8 MiB
 * blocks print 0.02 twice. When the block size and skip are known and
 * every printed offset is block number (the first's, then k more a line)
 * times the size within that rounding, the product is the offset.
 */
static double *exact_offsets(const struct zrun *z, int64_t block, int64_t skip)
{
	double tol = z->hdr == ZL_HDR_K ? 0.5 : 0.005 * 1024 + 1e-6;
	double first, *x;
	size_t i;

	if (block == BS_NONE || block <= 0 || z->n == 0)
		return NULL;
	if (skip == BS_NONE)
		skip = 1;
	first = floor(z->pt[0].x * 1024 / (double)block + 0.5);
	x = xcalloc(z->n, sizeof(*x));
	for (i = 0; i < z->n; i++) {
		double mib = (first + (double)i * (double)skip) * (double)block;
		if (fabs(mib - z->pt[i].x * 1024) > tol) {
			free(x);
			return NULL;
		}
		x[i] = mib / 1024;
	}
	return x;
}

static int zemit(const struct bs_block *b, struct bs_block_out *out,
		 const struct zrun *z)
{
	struct bs_run r;
	struct bs_series *s;
	struct bs_buf raw = BS_BUF_INIT;
	double sum = 0;
	size_t i, timed = 0;
	int m, rc, device;
	int64_t passes, block;
	double *exact;

	m = bs_metric_find(BS_FAM_ZCAV,
			   z->write ? "write_mib_s" : "read_mib_s");
	for (i = 0; i < z->n; i++) {
		const struct zpoint *p = &z->pt[i];

		if (!isnan(p->y) && !bs_metric_fits(m, BS_PART_VALUE, p->y))
			return zreject(b, out, z,
				       "zcav block rate past the limit of "
				       "any disk");
		if (p->s > 1e9 || p->x > 1e9)
			return zreject(b, out, z,
				       "zcav block offset or time past any "
				       "disk's");
	}
	bs_run_init(&r);
	r.family = BS_FAM_ZCAV;
	/* bstore zcav's printout is its run, read back: its tool, and how
	 * it read (zcav itself never opens O_DIRECT: its family row). */
	bs_run_set(&r.tool, z->bstore ? "bstore" : "zcav");
	bs_run_set(&r.format, z->bstore ? BS_FMT_BSTORE_ZCAV : BS_FMT_ZCAV);
	if (z->bstore)
		r.params.direct = z->direct;
	if (z->ver)
		r.tool_version = xstrndup(z->ver, z->verlen);
	passes = z->loops != BS_NONE ? z->loops : z->cmd_count;
	/* 2.00a prints "#loops:" whenever it made more than one pass. */
	if (passes == BS_NONE && z->hdr == ZL_HDR_GIB)
		passes = 1;
	set_param(&r.params.passes, "passes", passes);
	block = block_mib(z);
	set_param(&r.params.block_mib, "block_mib", block);
	set_param(&r.params.skip, "skip", skip_of(z, block));
	if (z->device >= 0)
		r.params.target = xstrdup(z->device ? "device" : "file");
	s = bs_run_series_add(&r, m, "offset_gib");
	exact = exact_offsets(z, block, skip_of(z, block));
	for (i = 0; i < z->n; i++) {
		bs_series_point(s, exact ? exact[i] : z->pt[i].x, z->pt[i].y,
				z->pt[i].s);
		if (!isnan(z->pt[i].y)) {
			sum += z->pt[i].y;
			timed++;
		}
	}
	if (timed > 0) {
		r.res[m].status = BS_ST_OK;
		r.res[m].value = sum / (double)timed;
	} else {
		/* zcav timed every block under its threshold: no rate. */
		r.res[m].status = BS_ST_TOO_FAST;
	}
	/* zcav's own figure for the pass, beside the mean of the blocks. */
	m = bs_metric_find(BS_FAM_ZCAV, "total_mib_s");
	if (!isnan(z->total) && bs_metric_fits(m, BS_PART_VALUE, z->total)) {
		r.res[m].status = BS_ST_OK;
		r.res[m].value = z->total;
	}
	for (i = z->first; i <= z->last; i++) {
		if (i > z->first)
			bs_buf_addc(&raw, '\n');
		bs_buf_add(&raw, b->l[i].raw, b->l[i].raw_len);
	}
	r.raw = bs_buf_detach(&raw, NULL);
	/* Whether zcav read a disk or a file, as its path says: the curve's
	 * axis is a position on the disk or an offset in the file. Kept as
	 * bstore zcav keeps it, so that a report need not read raw text. */
	if (r.params.target == NULL) {
		device = bs_zcav_on_device(&r);
		if (device != BS_ZCAV_UNKNOWN)
			r.params.target = xstrdup(
				device == BS_ZCAV_DEVICE ? "device" : "file");
	}
	rc = out->run(out, &r, b->l[z->first].lineno);
	free(exact);
	return rc;
}

/* Ends the run gathered so far: a run, a reject or nothing. */
static int zflush(const struct bs_block *b, struct bs_block_out *out,
		  struct zrun *z)
{
	int rc = 0;

	if (!z->open)
		return 0;
	if (z->headless)
		rc = zreject(b, out, z,
			     "zcav block lines without a '#block' header");
	else if (z->hdr && z->n == 0)
		rc = zreject(b, out, z, "zcav header without block lines");
	else if (z->hdr)
		rc = zemit(b, out, z);
	else if (z->error != SIZE_MAX)
		rc = zreject(b, out, z, "zcav failed, no block lines");
	z->open = 0;
	return rc;
}

static void add_point(struct zrun *z, double x, double y, double s)
{
	xgrow((void **)&z->pt, &z->cap, z->n + 1, sizeof(*z->pt));
	z->pt[z->n].x = x;
	z->pt[z->n].y = y;
	z->pt[z->n].s = s;
	z->n++;
}

/* Whether line kind k (after a header and block lines) starts the next
 * run. */
static int starts_next(const struct zrun *z, const struct zline *l)
{
	switch (l->kind) {
	case ZL_BSTORE:
	case ZL_CMD:
	case ZL_WARN:
	case ZL_LOOPS:
	case ZL_HASH:
	case ZL_HDR_GIB:
	case ZL_HDR_K:
		return 1;
	case ZL_READ:
		/* One total follows a single pass; more belong to the
		 * next run's -c passes. */
		return z->trailing_read ||
		       (z->loops != BS_NONE && z->loops > 1);
	default:
		return 0;
	}
}

static int zcav_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct zrun z;
	struct zline l;
	size_t i;
	int rc = 0;

	memset(&z, 0, sizeof(z));
	zrun_reset(&z, 0);
	for (i = 0; i < b->n && rc >= 0; i++) {
		classify(b->l[i].text, b->l[i].len, &l);
		if (l.kind == ZL_OTHER)
			continue;
		if (z.open && z.hdr && z.n > 0 && starts_next(&z, &l)) {
			rc = zflush(b, out, &z);
			if (rc < 0)
				break;
		}
		/* Before the header: a second command line or "#loops"
		 * ends what came before it. */
		if (z.open && !z.hdr &&
		    ((l.kind == ZL_CMD) || (l.kind == ZL_BSTORE && z.bstore) ||
		     (l.kind == ZL_LOOPS && z.loops != BS_NONE))) {
			rc = zflush(b, out, &z);
			if (rc < 0)
				break;
		}
		/* A second header right after the first. */
		if (z.open && z.hdr &&
		    (l.kind == ZL_HDR_GIB || l.kind == ZL_HDR_K)) {
			rc = zflush(b, out, &z);
			if (rc < 0)
				break;
		}
		if (!z.open) {
			zrun_reset(&z, i);
			z.open = 1;
		}
		z.last = i;
		switch (l.kind) {
		case ZL_CMD:
			parse_command(b->l[i].text, b->l[i].len, &z);
			break;
		case ZL_WARN:
			z.write = 1;
			break;
		case ZL_FINISHED:
			if (z.device < 0)
				z.device = l.n;
			break;
		case ZL_READ:
			if (z.megs < 0 && l.n >= 0)
				z.megs = l.n;
			if (!isnan(l.rate))
				z.total = l.rate;
			if (z.hdr && z.n > 0)
				z.trailing_read = 1;
			break;
		case ZL_LOOPS:
			z.loops = l.n;
			if (!z.bstore) {
				z.ver = l.ver;
				z.verlen = l.verlen;
			}
			break;
		case ZL_BSTORE:
			z.bstore = 1;
			z.direct = l.direct;
			z.ver = l.ver;
			z.verlen = l.verlen;
			/* Not part of the run's text: bstore zcav stores its
			 * run without it, so that the printout read back is
			 * the same text, stored once. */
			if (z.first == i && i + 1 < b->n)
				z.first = i + 1;
			break;
		case ZL_HDR_GIB:
		case ZL_HDR_K:
			z.hdr = l.kind;
			break;
		case ZL_DATA:
			if (!z.hdr)
				z.headless = 1;
			else if (z.hdr == ZL_HDR_K)
				add_point(&z, l.v[0] / 1024, l.v[1] / 1024,
					  l.v[2]);
			else
				add_point(&z, l.v[0], l.v[1], l.v[2]);
			break;
		case ZL_FAST:
			if (!z.hdr)
				z.headless = 1;
			else
				add_point(&z,
					  z.hdr == ZL_HDR_K ? l.v[0] / 1024
							    : l.v[0],
					  NAN, l.v[1]);
			break;
		case ZL_ERROR:
			if (z.error == SIZE_MAX)
				z.error = i;
			break;
		default:
			break;
		}
	}
	if (rc >= 0)
		rc = zflush(b, out, &z);
	free(z.pt);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_zcav_ops = {
	zcav_start,
	zcav_more,
	NULL,
	zcav_parse,
};
