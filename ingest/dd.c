/*
 * ingest/dd.c - dd's summary (docs/input-formats.md section 10) into one
 * run: the rate from the bytes and seconds it printed, the parameters
 * from the command line pasted above it.
 *
 *   $ dd if=/dev/zero of=/tmp/x/f bs=1M count=64 oflag=direct
 *   64+0 records in
 *   64+0 records out
 *   67108864 bytes (67 MB, 64 MiB) copied, 0.0653526 s, 1.0 GB/s
 *
 * The summary of every era: GNU "<n> bytes (<si>) copied, <t> s, <rate>"
 * (6.x-8.23), "<n> bytes (<si>, <iec>) copied, ..." (8.24 and later),
 * "<n> bytes copied, ..." (under 1 kB), "seconds" for "s" in old ones;
 * BSD and macOS "<n> bytes transferred in <t> secs (<r> bytes/sec)". The
 * printed rate is rounded and decimal: the rate stored is bytes / 1024 /
 * seconds. status=progress lines (a summary's shape, joined by "\r") and
 * dd's own messages ("dd: error writing ...") may come between.
 *
 * The direction is the command line's: of= a file or device is a write,
 * of=/dev/null (or /dev/zero) a read, no of= with an if= a read (the
 * data went to a pipe). Without a command line it is unknown, and the
 * summary gives no run.
 */
#include "ingest/dd.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "ingest/format.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

enum dl {
	DL_OTHER,
	DL_CMD,      /* "$ dd if=/dev/zero of=f bs=1M count=64" */
	DL_MSG,      /* "dd: error writing 'f': No space left on device" */
	DL_RECIN,    /* "64+0 records in" */
	DL_RECOUT,   /* "64+0 records out" */
	DL_SUMMARY,  /* GNU's or BSD's last line */
	DL_PROGRESS, /* status=progress: summaries joined by "\r" */
};

/* What more() needs. */
struct dstate {
	int last; /* enum dl of the block's last line */
};

/* A summary as printed. */
struct dsum {
	int64_t bytes;
	double seconds;
};

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

static int prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

/* Reads p (a literal) at *i of s. */
static int lit(const char *s, size_t n, size_t *i, const char *p)
{
	if (!prefix(s + *i, n - *i, p))
		return 0;
	*i += strlen(p);
	return 1;
}

static int digits(const char *s, size_t n, size_t *i, int64_t *v)
{
	size_t st = *i;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9')
		(*i)++;
	return *i > st && bs_parse_i64(s + st, *i - st, v) == 0;
}

/* A decimal number ("0.0653526"; "318,901" in a comma locale). */
static int decimal(const char *s, size_t n, size_t *i, double *v)
{
	char tmp[64];
	size_t st = *i, k;

	while (*i < n && ((s[*i] >= '0' && s[*i] <= '9') || s[*i] == '.' ||
			  s[*i] == ',' || s[*i] == 'e' || s[*i] == '-'))
		(*i)++;
	/* "0.5 s," ends with the comma of the list, not of the number. */
	while (*i > st && s[*i - 1] == ',')
		(*i)--;
	if (*i == st || *i - st >= sizeof(tmp))
		return 0;
	for (k = st; k < *i; k++)
		tmp[k - st] = s[k] == ',' ? '.' : s[k];
	return bs_parse_double(tmp, *i - st, v) == 0 && isfinite(*v) &&
	       *v >= 0;
}

/* "<n> bytes ... copied, <t> s, ..." or "<n> bytes transferred in <t>
 * secs (...)". */
static int summary(const char *s, size_t n, struct dsum *d)
{
	size_t i = 0;

	if (!digits(s, n, &i, &d->bytes))
		return 0;
	if (!lit(s, n, &i, " bytes") && !lit(s, n, &i, " byte"))
		return 0;
	if (lit(s, n, &i, " transferred in ")) {
		if (!decimal(s, n, &i, &d->seconds))
			return 0;
		return lit(s, n, &i, " secs") || lit(s, n, &i, " seconds");
	}
	if (lit(s, n, &i, " (")) {
		while (i < n && s[i] != ')')
			i++;
		if (i++ == n)
			return 0;
	}
	if (!lit(s, n, &i, " copied, ") || !decimal(s, n, &i, &d->seconds))
		return 0;
	return lit(s, n, &i, " s") || lit(s, n, &i, " seconds");
}

/* "N+M records in|out". */
static int records(const char *s, size_t n, const char *what)
{
	size_t i = 0;
	int64_t v;

	return digits(s, n, &i, &v) && lit(s, n, &i, "+") &&
	       digits(s, n, &i, &v) && lit(s, n, &i, " records ") &&
	       n - i == strlen(what) && memcmp(s + i, what, n - i) == 0;
}

/* Where the command's words start (after a prompt, "sudo", "time"), or
 * -1 when the line does not run dd with an operand. */
static long command_at(const char *s, size_t n)
{
	size_t i = 0, st;

	if (n >= 2 && (s[0] == '$' || s[0] == '#' || s[0] == '%') &&
	    blank(s[1]))
		i = 2;
	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (lit(s, n, &i, "sudo ") || lit(s, n, &i, "time "))
			continue;
		break;
	}
	st = i;
	while (i < n && !blank(s[i]))
		i++;
	if (i - st < 2 || memcmp(s + i - 2, "dd", 2) != 0 ||
	    (i - st > 2 && s[i - 3] != '/'))
		return -1;
	/* "dd if=..." at least: not prose that starts with "dd". */
	if (!memchr(s + i, '=', n - i))
		return -1;
	return (long)st;
}

static enum dl classify(const char *s, size_t n, struct dsum *d)
{
	const char *cr = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '\r')
			cr = s + i;
	if (cr) {
		/* status=progress: only the part after the last "\r". */
		size_t k = (size_t)(cr + 1 - s);

		return summary(s + k, n - k, d) || summary(s, n, d)
			       ? DL_PROGRESS
			       : DL_OTHER;
	}
	if (summary(s, n, d))
		return DL_SUMMARY;
	if (records(s, n, "in"))
		return DL_RECIN;
	if (records(s, n, "out"))
		return DL_RECOUT;
	if (prefix(s, n, "dd: "))
		return DL_MSG;
	if (command_at(s, n) >= 0)
		return DL_CMD;
	return DL_OTHER;
}

static int dd_start(const struct bs_fline *l, void *state)
{
	struct dstate *st = state;
	struct dsum d;
	enum dl k = classify(l->text, l->len, &d);

	/* Only a command line opens a block: a summary without one gives
	 * no run (dd_parse()), and is text. */
	if (k != DL_CMD)
		return 0;
	st->last = (int)k;
	return 1;
}

static enum bs_scan dd_more(const struct bs_fline *l, void *state)
{
	struct dstate *st = state;
	struct dsum d;
	enum dl k = classify(l->text, l->len, &d);

	if (k == DL_MSG)
		return BS_SCAN_TAKE;
	switch (st->last) {
	case DL_CMD:
		if (k == DL_RECIN || k == DL_SUMMARY || k == DL_PROGRESS)
			break;
		return BS_SCAN_END_BEFORE;
	case DL_SUMMARY:
	case DL_PROGRESS:
		/* A summary before the records lines was progress. */
		if (k == DL_RECIN || k == DL_PROGRESS)
			break;
		return BS_SCAN_END_BEFORE;
	case DL_RECIN:
		if (k == DL_RECOUT)
			break;
		return BS_SCAN_END_BEFORE;
	case DL_RECOUT:
		return k == DL_SUMMARY ? BS_SCAN_LAST : BS_SCAN_END_BEFORE;
	default:
		return BS_SCAN_END_BEFORE;
	}
	st->last = (int)k;
	return BS_SCAN_TAKE;
}

/* ---- the command line ---- */

/*
 * A dd size: a number, a suffix (c 1, w 2, b 512; K, M, G, T, P, E in
 * 1024s, with "iB" too; "kB", "MB", ... in 1000s; BSD's lowercase k, m,
 * g, t in 1024s), and "x" products ("2x1M"). Returns 0 or -1.
 */
static int dd_size(const char *s, size_t n, int64_t *out)
{
	static const char pow[] = "KMGTPE";
	int64_t total = 1;
	size_t i = 0;

	for (;;) {
		int64_t v, m = 1;
		const char *p;
		int k;

		if (!digits(s, n, &i, &v))
			return -1;
		if (i < n && s[i] != 'x') {
			char c = s[i] >= 'a' && s[i] <= 'z'
					 ? (char)(s[i] - 'a' + 'A')
					 : s[i];

			if (s[i] == 'c') {
				i++;
			} else if (s[i] == 'w') {
				m = 2;
				i++;
			} else if (s[i] == 'b') {
				m = 512;
				i++;
			} else if (c != '\0' && (p = strchr(pow, c)) != NULL) {
				int base = 1024;

				i++;
				if (lit(s, n, &i, "B"))
					base = 1000;
				else
					lit(s, n, &i, "iB");
				for (k = 0; k <= p - pow; k++)
					m *= base;
			} else {
				return -1;
			}
		}
		if (v != 0 && m > INT64_MAX / v)
			return -1;
		v *= m;
		if (v != 0 && total > INT64_MAX / v)
			return -1;
		total *= v;
		if (i == n)
			break;
		if (s[i] != 'x')
			return -1;
		i++;
	}
	*out = total;
	return 0;
}

/* What the command line says. */
struct dcmd {
	int have;
	const char *in, *out;  /* if= and of= values, or NULL */
	size_t inlen, outlen;
	int to_null;           /* "> /dev/null" */
	int64_t bs, ibs, obs, count;
	struct bs_buf flags;   /* "iflag=... oflag=... conv=..." */
};

static int64_t op_size(const char *v, size_t n)
{
	int64_t x;

	return dd_size(v, n, &x) == 0 ? x : BS_NONE;
}

static void parse_command(const char *s, size_t n, struct dcmd *c)
{
	size_t i = (size_t)command_at(s, n);

	c->have = 1;
	while (i < n && !blank(s[i]))
		i++;
	for (;;) {
		size_t st, eq;
		const char *v;
		size_t vl;

		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			break;
		st = i;
		while (i < n && !blank(s[i]))
			i++;
		if (s[st] == '>') {
			const char *t = s + st + 1;
			size_t tl = i - st - 1;

			if (tl == 0) {
				while (i < n && blank(s[i]))
					i++;
				t = s + i;
				while (i < n && !blank(s[i]))
					i++;
				tl = (size_t)(s + i - t);
			}
			c->to_null = tl == 9 && memcmp(t, "/dev/null", 9) == 0;
			continue;
		}
		if (s[st] == '|' || s[st] == ';' || s[st] == '&')
			break;
		for (eq = st; eq < i && s[eq] != '='; eq++)
			;
		if (eq == i)
			continue;
		v = s + eq + 1;
		vl = i - eq - 1;
		if (eq - st == 2 && memcmp(s + st, "if", 2) == 0) {
			c->in = v;
			c->inlen = vl;
		} else if (eq - st == 2 && memcmp(s + st, "of", 2) == 0) {
			c->out = v;
			c->outlen = vl;
		} else if (eq - st == 2 && memcmp(s + st, "bs", 2) == 0) {
			c->bs = op_size(v, vl);
		} else if (eq - st == 3 && memcmp(s + st, "ibs", 3) == 0) {
			c->ibs = op_size(v, vl);
		} else if (eq - st == 3 && memcmp(s + st, "obs", 3) == 0) {
			c->obs = op_size(v, vl);
		} else if (eq - st == 5 && memcmp(s + st, "count", 5) == 0) {
			c->count = op_size(v, vl);
		} else if ((eq - st == 5 && (memcmp(s + st, "iflag", 5) == 0 ||
					     memcmp(s + st, "oflag", 5) == 0)) ||
			   (eq - st == 4 && memcmp(s + st, "conv", 4) == 0)) {
			if (c->flags.len)
				bs_buf_addc(&c->flags, ' ');
			bs_buf_add(&c->flags, s + st, i - st);
		}
	}
}

static int is_dev(const char *s, size_t n, const char *dev)
{
	return s && n == strlen(dev) && memcmp(s, dev, n) == 0;
}

static int pseudo(const char *s, size_t n)
{
	return is_dev(s, n, "/dev/zero") || is_dev(s, n, "/dev/null") ||
	       is_dev(s, n, "/dev/urandom") || is_dev(s, n, "/dev/random");
}

/* ---- parse ---- */

static void set_i64(int64_t *field, const char *key, int64_t v)
{
	int i = bs_param_find(key);

	if (v != BS_NONE && bs_param_fits(i, v))
		*field = v;
}

static int dd_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct dcmd c;
	struct dsum d, last = {0, 0};
	struct bs_run r;
	size_t i, at = SIZE_MAX, first = SIZE_MAX;
	int m, read = 0, rc;
	const char *warn = NULL;
	double rate;
	int64_t bs;

	memset(&c, 0, sizeof(c));
	c.bs = c.ibs = c.obs = c.count = BS_NONE;
	for (i = 0; i < b->n; i++) {
		enum dl k = classify(b->l[i].text, b->l[i].len, &d);

		if (first == SIZE_MAX)
			first = i;
		if (k == DL_CMD && !c.have)
			parse_command(b->l[i].text, b->l[i].len, &c);
		else if (k == DL_SUMMARY) {
			at = i;
			last = d;
		}
	}
	if (at == SIZE_MAX || !c.have || (!c.in && !c.out && !c.to_null)) {
		/* A command or records lines alone (Solaris' dd): nothing
		 * was measured that can be read. A summary without the
		 * command line above it does not say which way dd copied:
		 * the blog post in samples/ pastes a read and a write so,
		 * and a guess would file the read as a write. Such a
		 * summary is text, as the words around it are. */
		bs_buf_release(&c.flags);
		return 0;
	}
	if (!bs_param_fits(bs_param_find("bytes"), last.bytes) ||
	    !bs_param_fits_real(bs_param_find("seconds"), last.seconds)) {
		bs_buf_release(&c.flags);
		return out->reject(out, at, at,
				   "dd summary past the limits of any disk");
	}
	if (last.seconds <= 0 || last.bytes == 0) {
		bs_buf_release(&c.flags);
		return out->reject(out, at, at,
				   "dd summary of no time or no bytes: no "
				   "rate");
	}
	if (c.out)
		read = is_dev(c.out, c.outlen, "/dev/null") ||
		       is_dev(c.out, c.outlen, "/dev/zero");
	else
		read = 1; /* to a pipe or "> /dev/null" */
	if (pseudo(c.in, c.inlen) && (c.out == NULL ||
					   pseudo(c.out, c.outlen)))
		warn = "dd copied between pseudo devices: no disk measured";
	bs_run_init(&r);
	r.family = BS_FAM_DD;
	bs_run_set(&r.tool, "dd");
	bs_run_set(&r.format, BS_FMT_DD);
	if (warn)
		bs_run_set(&r.warning, warn);
	m = bs_metric_find(BS_FAM_DD, read ? "read_kib_s" : "write_kib_s");
	rate = (double)last.bytes / 1024.0 / last.seconds;
	if (!bs_metric_fits(m, BS_PART_VALUE, rate)) {
		bs_run_release(&r);
		bs_buf_release(&c.flags);
		return out->reject(out, at, at,
				   "dd rate past the limit of any disk");
	}
	r.res[m].status = BS_ST_OK;
	r.res[m].value = rate;
	r.params.bytes = last.bytes;
	r.params.seconds = last.seconds;
	/* dd reads and writes bs= bytes at a time, else ibs= and obs= (512
	 * each when not told). */
	bs = c.bs;
	if (bs == BS_NONE)
		bs = read ? c.ibs : c.obs;
	if (bs == BS_NONE && (read ? c.obs : c.ibs) == BS_NONE)
		bs = 512;
	set_i64(&r.params.bs_bytes, "bs_bytes", bs);
	set_i64(&r.params.count, "count", c.count);
	r.params.flags = bs_buf_detach(&c.flags, NULL);
	rc = out->run(out, &r, b->l[first].lineno);
	return rc;
}

const struct bs_block_ops bs_dd_ops = {
	dd_start, dd_more, NULL, dd_parse,
};
