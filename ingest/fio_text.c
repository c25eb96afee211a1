/*
 * ingest/fio_text.c - fio's normal output (what it prints without
 * --output-format), a block format of the registry: one run per job
 * report, "name: (groupid=0, jobs=1): err= 0: pid=...: <date>".
 *
 * The block starts at a job's header line ("randrw: (g=0): rw=randrw,
 * bs=(R) 4096B-4096B, ..., ioengine=psync, iodepth=1"), at the version
 * line ("fio-3.33") or at a job report, and takes the lines fio prints
 * (table lines[] below says which); any other line ends it. Several fio
 * runs one after the other are one block: each job takes the latest
 * header of its name.
 *
 * Per direction: "read: IOPS=12.8k, BW=49.9MiB/s (52.3MB/s)(...)" (IOPS
 * with fio's k/M suffixes of 1000, BW in B, KiB, MiB, GiB, TiB per
 * second, kB, MB, GB, TB with kb_base=1000, or bits with unit_base=1),
 * the mean of " lat
 * (usec): ..., avg=74.38" (nsec, usec, msec), and the "clat percentiles
 * (usec):" block. fio prints rounded figures here (12.8k, 49.9MiB/s): its
 * JSON output is the precise one. The date of the report is the
 * machine's local time with no zone: stored as if UTC, tagged
 * measured_at.tz=local (docs/ingest.md, "Dates").
 *
 * fio 2.0-2.99 print "read : io=1024.0MB, bw=61460KB/s, iops=15365,
 * runt= 17061msec" instead, with KB, MB, GB meaning 1024-multiples; the
 * latency and percentile blocks are the same.
 */
#include "ingest/fio.h"
#include "ingest/ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define REASON 256

/* ---- which lines are fio's ---- */

/* Offset of needle in s (len bytes), or -1. */
static long find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return (long)i;
	return -1;
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* "name: (g=0): rw=..." */
static int is_header(const char *s, size_t len)
{
	long g = find(s, len, ": (g=");

	return g > 0 && find(s, len, "): rw=") > g;
}

/* "name: (groupid=0, jobs=1): err= 0: pid=..." */
static int is_report(const char *s, size_t len)
{
	long g = find(s, len, ": (groupid=");

	return g > 0 && find(s, len, "): err=") > g;
}

/* "fio-3.33" alone */
static int is_version(const char *s, size_t len)
{
	return len > 4 && len < 40 && starts(s, len, "fio-") &&
	       memchr(s, ' ', len) == NULL;
}

/* fio 2.0's version line, printed without "fio-" ("2.0.8"): digits and
 * dots, two or three numbers. Only read so under a job header. */
static int is_bare_version(const char *s, size_t len)
{
	size_t i, dots = 0;

	if (len < 3 || len > 16 || s[0] < '0' || s[0] > '9' ||
	    s[len - 1] < '0' || s[len - 1] > '9')
		return 0;
	for (i = 0; i < len; i++) {
		if (s[i] == '.') {
			if (s[i - 1] == '.')
				return 0;
			dots++;
		} else if (s[i] < '0' || s[i] > '9') {
			return 0;
		}
	}
	return dots == 1 || dots == 2;
}

/* A job's direction line: "read:" in fio 3, "read :" in fio 2 (the
 * name padded to the width of "write"). */
static int is_direction(const char *s, size_t len)
{
	static const char *const dirs[] = {"read", "write", "trim", "mixed"};
	size_t i, n;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!starts(s, len, dirs[i]))
			continue;
		for (n = strlen(dirs[i]); n < len && s[n] == ' '; n++)
			;
		return n < len && s[n] == ':';
	}
	return 0;
}

/* Lines of fio's output that start so (after the blanks). "issued"
 * covers fio 3's "issued rwts:", 3.1's "issued rwt:" and fio 2's
 * "issued    :"; "Description" is the job's description= option
 * ("  Description  : [...]"), printed under its report. */
static const char *const prefixes[] = {
	"...",
	"Starting ",
	"slat (",
	"clat (",
	"lat (",
	"clat percentiles (",
	"lat percentiles (",
	"slat percentiles (",
	"|",
	"bw (",
	"iops",
	"cpu",
	"IO depths",
	"submit",
	"complete",
	"issued",
	"latency",
	"sync (",
	"fsync",
	"fdatasync",
	"Run status group",
	"READ:",
	"WRITE:",
	"TRIM:",
	"MIXED:",
	"Disk stats",
	"note:",
	"fio:",
	"Jobs:",
	"zone resets",
	"Description",
};

/* A terse line fio printed among its normal output
 * (--output-format=normal,terse). */
static int is_terse(const char *s, size_t len)
{
	struct bs_fline l;

	if (len < 8 || s[1] != ';' || memcmp(s + 2, "fio-", 4) != 0)
		return 0;
	return bs_fline_make(s, len, NULL, &l) && bs_fio_terse_probe(NULL, &l);
}

static int is_fio(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || is_header(s, len) || is_report(s, len) ||
	    is_version(s, len) || is_direction(s, len) || is_terse(s, len))
		return 1;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(s, len, prefixes[i]))
			return 1;
	/* "name: Laying out IO file ...", "vda: ios=1734/19, ..." */
	return find(s, len, ": Laying out IO file") > 0 ||
	       find(s, len, ": ios=") > 0;
}

/* What text_more() needs. */
struct tstate {
	int after_header; /* the block's last line is a job header */
	int style;        /* enum pfx of the block */
};
_Static_assert(sizeof(struct tstate) <= BS_BLOCK_STATE_MAX, "state fits");

/*
 * fio's output behind a prefix on every line: a source file's comment
 * marks ("# 16k-1-read: (g=0): ...", "#   read : io=...") or the file
 * name grep prints before each match ("raw.rpt:  read : io=..."). A
 * block keeps the style of its first line.
 */
enum pfx { PFX_NONE, PFX_COMMENT, PFX_GREP };

/* Where the text behind a comment mark starts: '#' and the blanks after
 * it; 0 when the line has none. */
static size_t comment_cut(const char *s, size_t len)
{
	size_t i = 1;

	if (len == 0 || s[0] != '#')
		return 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Where the direction line behind grep's file-name prefix starts
 * ("fio_read-1-1-4096k.out:  read : io=..."): the name has no blank, a
 * blank follows its colon, the line gives IOPS (prose such as "Note:
 * read: the manual" is not fio's); 0 when the line is not so. The name is s up
 * to the colon (*name_len). */
static size_t grep_cut(const char *s, size_t len, size_t *name_len)
{
	const char *c = memchr(s, ':', len);
	size_t k, i;

	if (c == NULL || c == s)
		return 0;
	k = (size_t)(c - s);
	for (i = 0; i < k; i++)
		if (s[i] == ' ' || s[i] == '\t')
			return 0;
	for (i = k + 1; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i == k + 1 || !is_direction(s + i, len - i) ||
	    (find(s + i, len - i, "IOPS=") < 0 &&
	     find(s + i, len - i, " iops=") < 0))
		return 0;
	*name_len = k;
	return i;
}

/* The style of a block that opens with line s. */
static enum pfx style_of(const char *s, size_t len)
{
	size_t c = comment_cut(s, len), n;

	if (c > 0 && (is_header(s + c, len - c) || is_report(s + c, len - c) ||
		      is_version(s + c, len - c)))
		return PFX_COMMENT;
	if (grep_cut(s, len, &n) > 0)
		return PFX_GREP;
	return PFX_NONE;
}

/* The text of line s behind the block's prefix; 0 when it has none. */
static size_t cut(enum pfx style, const char *s, size_t len)
{
	size_t n;

	if (style == PFX_COMMENT)
		return comment_cut(s, len);
	if (style == PFX_GREP)
		return grep_cut(s, len, &n);
	return 0;
}

static int text_start(const struct bs_fline *l, void *state)
{
	struct tstate *st = state;
	size_t c;

	st->style = (int)style_of(l->text, l->len);
	c = cut((enum pfx)st->style, l->text, l->len);
	st->after_header = is_header(l->text + c, l->len - c);
	return st->style == PFX_GREP || st->after_header ||
	       is_report(l->text + c, l->len - c) ||
	       is_version(l->text + c, l->len - c);
}

static enum bs_scan text_more(const struct bs_fline *l, void *state)
{
	struct tstate *st = state;
	size_t c = cut((enum pfx)st->style, l->text, l->len);
	const char *s = l->text + c;
	size_t len = l->len - c;
	int take;

	if (st->style == PFX_GREP)
		take = c > 0;
	else if (st->style == PFX_COMMENT && (l->len == 0 || l->text[0] != '#'))
		take = 0;
	else
		take = is_fio(s, len) ||
		       (st->after_header && is_bare_version(s, len));
	st->after_header = is_header(s, len);
	return take ? BS_SCAN_TAKE : BS_SCAN_END_BEFORE;
}

/* ---- numbers as fio prints them ---- */

/* A number with fio's decimal suffix (k, M, G, T, P: powers of 1000). */
static int si_num(const char *s, size_t len, double *v)
{
	static const char suf[] = "kMGTP";
	const char *p;
	double f = 1;

	if (len > 1 && (p = memchr(suf, s[len - 1], sizeof(suf) - 1))) {
		for (f = 1000; p > suf; p--)
			f *= 1000;
		len--;
	}
	if (bs_parse_double(s, len, v) < 0 || *v < 0)
		return -1;
	*v *= f;
	return 0;
}

/* The value of key (e.g. "avg=") in s up to the next ',' ')' or '(',
 * blanks trimmed, as a number with fio's suffix. */
static int keyed(const char *s, size_t len, const char *key, double *v)
{
	long at = find(s, len, key);
	size_t i, e;

	if (at < 0)
		return -1;
	i = (size_t)at + strlen(key);
	while (i < len && s[i] == ' ')
		i++;
	for (e = i; e < len && s[e] != ',' && s[e] != '(' && s[e] != ')' &&
		    s[e] != ':' && s[e] != ' ';
	     e++)
		;
	return si_num(s + i, e - i, v);
}

/* The unit of "(nsec)", "(usec)", "(msec)", "(sec)": its exponent of
 * ten against us (-3, 0, 3, 6), or 1 when none is named. */
static int unit_of(const char *s, size_t len)
{
	if (find(s, len, "(nsec)") >= 0)
		return -3;
	if (find(s, len, "(usec)") >= 0)
		return 0;
	if (find(s, len, "(msec)") >= 0)
		return 3;
	if (find(s, len, "(sec)") >= 0)
		return 6;
	return 1;
}

/* v in unit (unit_of()) as us; dividing keeps 2288 ns exactly 2.288. */
static double to_us(double v, int unit)
{
	switch (unit) {
	case -3:
		return v / 1000;
	case 3:
		return v * 1000;
	case 6:
		return v * 1000000;
	default:
		return v;
	}
}

/* KiB/s per unit of bandwidth fio prints. */
static const struct {
	const char *unit;
	double kib;
} bw_units[] = {
	{"B/s", 1.0 / 1024},
	{"KiB/s", 1},
	{"MiB/s", 1024},
	{"GiB/s", 1024.0 * 1024},
	{"TiB/s", 1024.0 * 1024 * 1024},
	{"kB/s", 1000.0 / 1024},
	{"MB/s", 1e6 / 1024},
	{"GB/s", 1e9 / 1024},
	{"TB/s", 1e12 / 1024},
	/* unit_base=1: bits */
	{"bit/s", 1.0 / 8 / 1024},
	{"Kibit/s", 1.0 / 8},
	{"Mibit/s", 1024.0 / 8},
	{"Gibit/s", 1024.0 * 1024 / 8},
	{"Tibit/s", 1024.0 * 1024 * 1024 / 8},
	{"kbit/s", 1000.0 / 8 / 1024},
	{"Mbit/s", 1e6 / 8 / 1024},
	{"Gbit/s", 1e9 / 8 / 1024},
	{"Tbit/s", 1e12 / 8 / 1024},
};

/* fio 2 printed binary multiples with SI names (its kb_base=1024
 * default): "KB/s" is KiB/s there. */
static const struct {
	const char *unit;
	double kib;
} bw_units_fio2[] = {
	{"B/s", 1.0 / 1024},
	{"KB/s", 1},
	{"MB/s", 1024},
	{"GB/s", 1024.0 * 1024},
	{"TB/s", 1024.0 * 1024 * 1024},
};

/* "49.9MiB/s" into KiB/s; fio2: the unit names of fio 2's "bw=" (a
 * unit fio 2 does not use is read as fio 3 prints it). */
static int bandwidth(const char *s, size_t len, int fio2, double *kib)
{
	size_t i, n, u;
	double f = 0;

	for (n = 0; n < len && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.');
	     n++)
		;
	for (u = n; u < len && s[u] == ' '; u++)
		;
	for (i = 0;
	     fio2 && i < sizeof(bw_units_fio2) / sizeof(bw_units_fio2[0]); i++)
		if (strlen(bw_units_fio2[i].unit) == len - u &&
		    memcmp(s + u, bw_units_fio2[i].unit, len - u) == 0)
			f = bw_units_fio2[i].kib;
	for (i = 0; f == 0 && i < sizeof(bw_units) / sizeof(bw_units[0]); i++)
		if (strlen(bw_units[i].unit) == len - u &&
		    memcmp(s + u, bw_units[i].unit, len - u) == 0)
			f = bw_units[i].kib;
	if (f == 0 || bs_parse_double(s, n, kib) < 0)
		return -1;
	*kib *= f;
	return 0;
}

/* ---- the parse ---- */

/* A job header: the parameters fio printed for jobs of this name. */
struct header {
	const char *name;
	size_t name_len;
	size_t line;
};

struct tparse {
	const struct bs_block *b;
	struct bs_block_out *out;
	struct header *h;
	size_t nh, hcap;
	const char *version;
	size_t version_len;
	/* The job being read. */
	struct bs_run r;
	int open;
	size_t first, last; /* its lines */
	int bad;            /* reason holds why it is rejected */
	char err[24];       /* err= when not 0 ("5"), else "" */
	int ndirs;          /* directions seen */
	int dir;            /* the direction being read, or -1 */
	int pct_unit;       /* unit_of() its clat percentiles; 1: not in them */
	enum pfx style;     /* the prefix on every line of the block */
	const char *gname;  /* PFX_GREP: the file name of the run read */
	size_t gname_len;
	char reason[REASON];
};

static void fail(struct tparse *p, const char *what, const char *s, size_t len)
{
	char q[48];

	if (p->bad)
		return;
	bs_err_quote(q, sizeof(q), s, len, BS_FIO_QUOTE_MAX);
	snprintf(p->reason, sizeof(p->reason), "fio %s: '%s'", what, q);
	p->bad = 1;
}

/* The text of key= in a header up to ", " (or the end), trimmed. */
static int header_item(const char *s, size_t len, const char *key,
		       const char **v, size_t *vlen)
{
	long at = find(s, len, key);
	size_t i, e;

	if (at < 0)
		return -1;
	i = (size_t)at + strlen(key);
	for (e = i;
	     e < len && !(s[e] == ',' && e + 1 < len && s[e + 1] == ' ' &&
			  e + 2 < len && s[e + 2] != '(');
	     e++)
		;
	*v = s + i;
	*vlen = e - i;
	return 0;
}

/*
 * fio 3 prints "bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B",
 * fio 2 "bs=4K-4K/4K-4K/4K-4K": one size for all is kept as that size
 * ("4096B"), anything else as printed.
 */
static char *block_size(const char *s, size_t len)
{
	const char *r[3];
	size_t rl[3], n = 0, i = 0, j;

	while (i < len && n < 3) {
		size_t e;

		if (starts(s + i, len - i, "(R) ") ||
		    starts(s + i, len - i, "(W) ") ||
		    starts(s + i, len - i, "(T) "))
			i += 4;
		for (e = i; e < len && s[e] != ',' && s[e] != '/'; e++)
			;
		r[n] = s + i;
		rl[n++] = e - i;
		i = e + 1;
		while (i < len && s[i] == ' ')
			i++;
	}
	for (j = 1; j < n; j++)
		if (rl[j] != rl[0] || memcmp(r[j], r[0], rl[0]) != 0)
			return xstrndup(s, len);
	if (n > 0 && rl[0] % 2 == 1 && r[0][rl[0] / 2] == '-' &&
	    memcmp(r[0], r[0] + rl[0] / 2 + 1, rl[0] / 2) == 0)
		return xstrndup(r[0], rl[0] / 2);
	return xstrndup(s, len);
}

/* The parameters of the latest header of name. */
static void apply_header(struct tparse *p, const char *name, size_t nlen)
{
	const struct bs_bline *l;
	const char *v;
	size_t vlen, i;

	for (i = p->nh; i > 0; i--)
		if (p->h[i - 1].name_len == nlen &&
		    memcmp(p->h[i - 1].name, name, nlen) == 0)
			break;
	if (i == 0)
		return;
	l = &p->b->l[p->h[i - 1].line];
	if (header_item(l->text, l->len, "): rw=", &v, &vlen) == 0)
		bs_fio_option(&p->r, "rw", v, vlen, p->reason, REASON);
	if (header_item(l->text, l->len, ", bs=", &v, &vlen) == 0)
		p->r.params.bs = block_size(v, vlen);
	if (header_item(l->text, l->len, ", ioengine=", &v, &vlen) == 0)
		bs_fio_option(&p->r, "ioengine", v, vlen, p->reason, REASON);
	if (header_item(l->text, l->len, ", iodepth=", &v, &vlen) == 0 &&
	    bs_fio_option(&p->r, "iodepth", v, vlen, p->reason, REASON) < 0)
		p->bad = 1;
}

/* Gives the open job to out, as a run or a reject. */
static int flush(struct tparse *p)
{
	int rc;

	if (!p->open)
		return 0;
	p->open = 0;
	if (!p->bad && p->err[0] &&
	    bs_fio_error(&p->r, p->r.params.jobname, p->err, strlen(p->err),
			 p->reason, sizeof(p->reason)) < 0)
		p->bad = 1;
	if (!p->bad && p->ndirs == 0) {
		snprintf(p->reason, sizeof(p->reason),
			 "fio job '%.40s' without read, write or trim results",
			 p->r.params.jobname);
		p->bad = 1;
	}
	if (p->bad) {
		bs_run_release(&p->r);
		bs_fio_clean(p->reason);
		return p->out->reject(p->out, p->first, p->last, p->reason);
	}
	rc = p->out->run(p->out, &p->r, p->b->l[p->first].lineno);
	bs_run_init(&p->r);
	return rc;
}

/* "name: (groupid=0, jobs=1): err= 0: pid=20213: Mon Nov 30 23:57:28
 * 2026" opens a job. */
static void report(struct tparse *p, size_t i)
{
	const struct bs_bline *l = &p->b->l[i];
	size_t c = cut(p->style, l->text, l->len);
	const char *s = l->text + c;
	size_t len = l->len - c;
	long g = find(s, len, ": (groupid="), pid;
	double jobs, err;
	int64_t t;

	p->open = 1;
	p->first = p->last = i;
	p->bad = 0;
	p->err[0] = '\0';
	p->ndirs = 0;
	p->dir = -1;
	p->pct_unit = 1;
	bs_fio_run_start(BS_FMT_FIO_TEXT, p->version, p->version_len, &p->r);
	p->r.params.jobname = xstrndup(s, (size_t)g);
	apply_header(p, s, (size_t)g);
	if (keyed(s, len, "jobs=", &jobs) == 0 && jobs < 1e9 &&
	    bs_param_fits(bs_param_find("numjobs"), (int64_t)jobs))
		p->r.params.numjobs = (int64_t)jobs;
	if (keyed(s, len, "err=", &err) < 0)
		fail(p, "job report without err=", s, len);
	else if (err != 0)
		snprintf(p->err, sizeof(p->err), "%.0f", err);
	pid = find(s, len, ": pid=");
	if (pid > 0) {
		const char *d = memchr(s + pid + 6, ':', len - (size_t)pid - 6);

		/* fio prints the machine's local time and no zone: the
		 * wall time is stored as if UTC, and the tag says so. */
		if (d && bs_time_parse_text(d + 1, len - (size_t)(d + 1 - s),
					    &t) == 0) {
			p->r.measured_at = t;
			bs_run_tag(&p->r, BS_INGEST_TZ_TAG, "local");
		}
	}
}

/*
 * fio 3: "read: IOPS=12.8k, BW=49.9MiB/s (52.3MB/s)(7968KiB/156msec)";
 * fio 2: "read : io=1024.0MB, bw=61460KB/s, iops=15365, runt= 17061msec"
 * (2.0 puts a blank before the comma: "iops=484 , runt=").
 */
static void direction(struct tparse *p, const char *s, size_t len)
{
	const char *c = memchr(s, ':', len);
	size_t n = (size_t)(c - s), e;
	int fio2 = find(s, len, "IOPS=") < 0 && find(s, len, " iops=") > 0;
	double iops, bw;
	long at;

	while (n > 0 && s[n - 1] == ' ')
		n--;
	p->dir = bs_fio_dir_find(s, n);
	p->pct_unit = 1;
	if (p->dir < 0)
		return; /* "mixed:" of unified_rw_reporting: not kept */
	if (keyed(s, len, fio2 ? " iops=" : "IOPS=", &iops) < 0) {
		fail(p, "direction without IOPS", s, len);
		return;
	}
	at = find(s, len, fio2 ? " bw=" : "BW=");
	if (at < 0) {
		fail(p, "direction without BW", s, len);
		return;
	}
	at += fio2 ? 4 : 3;
	/* "bw=334678 KB/s" (a blank before the unit) is read too. */
	for (e = (size_t)at; e < len && s[e] != ',' && s[e] != '(' &&
			     !(s[e] == ' ' && e > (size_t)at &&
			       !(s[e - 1] >= '0' && s[e - 1] <= '9'));
	     e++)
		;
	while (e > (size_t)at && s[e - 1] == ' ')
		e--;
	if (bandwidth(s + at, e - (size_t)at, fio2, &bw) < 0) {
		fail(p, "bandwidth unit unknown", s + at, e - (size_t)at);
		return;
	}
	if (bs_fio_set(&p->r, p->dir, BS_FIO_IOPS, iops, p->reason, REASON) <
		    0 ||
	    bs_fio_set(&p->r, p->dir, BS_FIO_BW, bw, p->reason, REASON) < 0)
		p->bad = 1;
	p->ndirs++;
}

/* " lat (usec): min=39, max=4406, avg=74.38, stdev=199.38" */
static void latency(struct tparse *p, const char *s, size_t len)
{
	int u = unit_of(s, len);
	double avg;

	if (p->dir < 0)
		return;
	if (u == 1 || keyed(s, len, "avg=", &avg) < 0) {
		fail(p, "latency line unreadable", s, len);
		return;
	}
	if (bs_fio_set(&p->r, p->dir, BS_FIO_LAT_MEAN, to_us(avg, u), p->reason,
		       REASON) < 0)
		p->bad = 1;
}

/* "|  1.00th=[   44],  5.00th=[   45], ..." */
static void percentiles(struct tparse *p, const char *s, size_t len)
{
	size_t i = 1;

	while (i < len) {
		long th = find(s + i, len - i, "th=[");
		size_t a, e, v0;
		double pct, v;
		int st;

		if (th < 0)
			break;
		e = i + (size_t)th;
		for (a = e; a > i && ((s[a - 1] >= '0' && s[a - 1] <= '9') ||
				      s[a - 1] == '.');
		     a--)
			;
		for (v0 = e + 4; v0 < len && s[v0] == ' '; v0++)
			;
		for (i = v0; i < len && s[i] != ']'; i++)
			;
		if (i == len || bs_parse_double(s + a, e - a, &pct) < 0 ||
		    si_num(s + v0, i - v0, &v) < 0) {
			fail(p, "percentile unreadable", s, len);
			return;
		}
		st = bs_fio_pct_stat(pct);
		if (st >= 0 &&
		    bs_fio_set(&p->r, p->dir, st, to_us(v, p->pct_unit),
			       p->reason, REASON) < 0) {
			p->bad = 1;
			return;
		}
	}
}

/* A grep line of a file name not the run's: the run of that file. */
static int grep_run(struct tparse *p, size_t i, const char *name,
		    size_t name_len)
{
	int rc;

	if (p->open && p->gname_len == name_len &&
	    memcmp(p->gname, name, name_len) == 0)
		return 0;
	rc = flush(p);
	p->open = 1;
	p->first = p->last = i;
	p->bad = 0;
	p->ndirs = 0;
	p->dir = -1;
	p->pct_unit = 1;
	p->gname = name;
	p->gname_len = name_len;
	bs_fio_run_start(BS_FMT_FIO_TEXT, NULL, 0, &p->r);
	p->r.params.jobname = xstrndup(name, name_len);
	return rc;
}

static int line(struct tparse *p, size_t i)
{
	const struct bs_bline *l = &p->b->l[i];
	size_t c = cut(p->style, l->text, l->len), gn = 0;
	const char *s = l->text + c;
	size_t len = l->len - c;

	if (p->style == PFX_GREP && grep_cut(l->text, l->len, &gn) > 0) {
		int rc = grep_run(p, i, l->text, gn);

		if (rc < 0)
			return rc;
	}

	if (is_header(s, len)) {
		xgrow((void **)&p->h, &p->hcap, p->nh + 1, sizeof(*p->h));
		p->h[p->nh].name = s;
		p->h[p->nh].name_len = (size_t)find(s, len, ": (g=");
		p->h[p->nh++].line = i;
		return flush(p);
	}
	if (is_version(s, len) ||
	    (i > 0 && is_bare_version(s, len) &&
	     is_header(p->b->l[i - 1].text + cut(p->style, p->b->l[i - 1].text,
						 p->b->l[i - 1].len),
		       p->b->l[i - 1].len - cut(p->style, p->b->l[i - 1].text,
						p->b->l[i - 1].len)))) {
		p->version = s;
		p->version_len = len;
		return flush(p);
	}
	if (is_report(s, len)) {
		int rc = flush(p);

		report(p, i);
		return rc;
	}
	if (starts(s, len, "Run status group"))
		return flush(p);
	if (is_terse(s, len)) {
		/* The same jobs as a terse line: its own run, as on a line
		 * of its own (the input keeps one of the two prints of a
		 * job, core/same.c). */
		struct bs_err e = BS_ERR_INIT;
		struct bs_run t;
		int rc = flush(p);

		bs_run_init(&t);
		if (rc >= 0 && bs_ingest_parse_line(l->raw, l->raw_len, NULL,
						    &t, &e) == 1) {
			t.raw = xstrndup(l->raw, l->raw_len);
			rc = p->out->run(p->out, &t, l->lineno);
		} else if (rc >= 0) {
			if (e.code != 0)
				snprintf(p->reason, sizeof(p->reason), "%.*s",
					 REASON - 1, e.msg);
			rc = p->out->reject(p->out, i, i, p->reason);
		}
		bs_run_release(&t);
		return rc;
	}
	if (!p->open)
		return 0;
	if (len > 0)
		p->last = i;
	if (starts(s, len, "|")) {
		if (p->pct_unit != 1)
			percentiles(p, s, len);
		return 0;
	}
	p->pct_unit = 1;
	if (is_direction(s, len))
		direction(p, s, len);
	else if (starts(s, len, "lat (") && find(s, len, "): min=") > 0)
		latency(p, s, len);
	else if (starts(s, len, "clat percentiles (") && p->dir >= 0)
		p->pct_unit = unit_of(s, len);
	return 0;
}

static int text_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct tparse p;
	size_t i;
	int rc = 0, jobs = 0;

	memset(&p, 0, sizeof(p));
	p.b = b;
	p.out = out;
	p.dir = -1;
	p.pct_unit = 1;
	p.style = b->n > 0 ? style_of(b->l[0].text, b->l[0].len) : PFX_NONE;
	bs_run_init(&p.r);
	for (i = 0; i < b->n && rc >= 0; i++) {
		size_t c = cut(p.style, b->l[i].text, b->l[i].len);

		jobs += is_report(b->l[i].text + c, b->l[i].len - c);
		rc = line(&p, i);
	}
	if (rc >= 0)
		rc = flush(&p);
	/* Headers without a single report: a run cut short (^C), or one
	 * whose results fio printed as JSON or terse after them
	 * (--output-format=json,normal), read on their own. Nothing is
	 * wrong with the text: a note, not a reject. */
	if (rc >= 0 && jobs == 0 && p.nh > 0 && out->note)
		out->note(out, b->l[0].lineno,
			  "fio job header without job results: nothing stored "
			  "from it (a JSON or terse print of the run is read "
			  "on its own)");
	bs_run_release(&p.r);
	free(p.h);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_fio_text_ops = {
	text_start,
	text_more,
	NULL,
	text_parse,
};
