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

#include "core/identity.h"
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
	return bs_parse_double(tmp, *i - st, v) == 0 && isfinite(*v) && *v >= 0;
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

/* dd's operands: a word that starts so, after the dd word, makes a
 * command line of it. */
static const char *const operands[] = {
	"if=",   "of=",   "bs=",    "ibs=",   "obs=",  "cbs=",    "count=",
	"skip=", "seek=", "iflag=", "oflag=", "conv=", "status=",
};

/* A shell word ends at a blank; these also stand before a command. */
static int word_sep(char c)
{
	return blank(c) || c == ';' || c == '&' || c == '|' || c == '(' ||
	       c == '`' || c == '"' || c == '\'';
}

/* Whether the words of s (up to a ';', '|' or '&') hold a dd operand. */
static int has_operand(const char *s, size_t n)
{
	size_t i = 0, st, k;

	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (i == n || s[i] == ';' || s[i] == '|' || s[i] == '&')
			return 0;
		st = i;
		while (i < n && !blank(s[i]))
			i++;
		while (st < i &&
		       (s[st] == '`' || s[st] == '"' || s[st] == '\''))
			st++;
		for (k = 0; k < sizeof(operands) / sizeof(operands[0]); k++)
			if (prefix(s + st, i - st, operands[k]))
				return 1;
	}
}

/*
 * Where the dd word of a command starts in the line, or -1. The word is
 * "dd" or a path ending in "/dd", at the start of the line or after a
 * blank or a shell separator, so that any prompt ("root@host:/mnt# ",
 * "[root@h dir]# ", "/ # ", "user@host:~$ "), "sudo", "time", "date &&"
 * or a backquote of prose may stand before it; one of dd's operands
 * ("if=...") must follow among its words (not prose that says "dd").
 */
static long command_at(const char *s, size_t n)
{
	size_t i, st;

	for (i = 0; i + 2 < n; i++) {
		if (s[i] != 'd' || s[i + 1] != 'd' || !blank(s[i + 2]))
			continue;
		for (st = i; st > 0 && !word_sep(s[st - 1]); st--)
			;
		if (st != i && s[i - 1] != '/')
			continue;
		if (has_operand(s + i + 2, n - i - 2))
			return (long)st;
	}
	return -1;
}

/* dd's own output pasted as shell comments under its command ("# 1+0
 * records in"): where the output starts. */
static size_t uncomment(const char *s, size_t n)
{
	size_t i = 0;

	if (n > 0 && s[0] == '#') {
		i = 1;
		while (i < n && blank(s[i]))
			i++;
	}
	return i;
}

static enum dl classify(const char *s, size_t n, struct dsum *d)
{
	const char *cr = NULL;
	size_t i, c = uncomment(s, n);

	if (command_at(s, n) >= 0)
		return DL_CMD;
	s += c;
	n -= c;

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
	return DL_OTHER;
}

static int dd_start(const struct bs_fline *l, void *state)
{
	struct dstate *st = state;
	struct dsum d;
	enum dl k = classify(l->text, l->len, &d);

	/* dd's output opens a block; its command line is the text above
	 * it (struct bs_block.before), with any lines between: dd's output
	 * comes after "date && dd ... && date" prints a date, or in the
	 * code block under the prose that names the command. */
	if (k == DL_CMD || k == DL_OTHER || k == DL_RECOUT)
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
	case DL_MSG:
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
	const char *in, *out; /* if= and of= values, or NULL */
	size_t inlen, outlen;
	int to_null; /* "> /dev/null" */
	int64_t bs, ibs, obs, count;
	struct bs_buf flags; /* "iflag=... oflag=... conv=..." */
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
		size_t st, eq, e;
		const char *v;
		size_t vl;
		int end = 0;

		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			break;
		st = i;
		while (i < n && !blank(s[i]))
			i++;
		/* A command quoted in prose ("`dd if=a of=b`") or ended by
		 * ';': the marks are not the operand's. */
		e = i;
		while (st < e &&
		       (s[st] == '`' || s[st] == '"' || s[st] == '\''))
			st++;
		while (e > st && (s[e - 1] == '`' || s[e - 1] == '"' ||
				  s[e - 1] == '\'' || s[e - 1] == ';' ||
				  s[e - 1] == ')')) {
			end |= s[e - 1] == ';' || s[e - 1] == '`';
			e--;
		}
		if (st == e) {
			if (end)
				break;
			continue;
		}
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
		for (eq = st; eq < e && s[eq] != '='; eq++)
			;
		if (eq == e) {
			if (end)
				break;
			continue;
		}
		v = s + eq + 1;
		vl = e - eq - 1;
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
		} else if ((eq - st == 5 &&
			    (memcmp(s + st, "iflag", 5) == 0 ||
			     memcmp(s + st, "oflag", 5) == 0)) ||
			   (eq - st == 4 && memcmp(s + st, "conv", 4) == 0)) {
			if (c->flags.len)
				bs_buf_addc(&c->flags, ' ');
			bs_buf_add(&c->flags, s + st, e - st);
		}
		if (end)
			break;
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
	int i = bs_param_find_in(BS_FAM_DD, key);

	if (v != BS_NONE && bs_param_fits(i, v))
		*field = v;
}

static const char ambiguous[] = "several dd command lines above it";

/* A line a terminal prints between a command and its output, asking for
 * input: "Password:", "[sudo] password for pi:". */
static int asks(const char *s, size_t n)
{
	static const char *const words[] = {"Password:", "password for "};
	size_t i, k;

	while (n > 0 && blank(s[n - 1]))
		n--;
	if (n == 0 || s[n - 1] != ':')
		return 0;
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		for (i = 0; i + strlen(words[k]) <= n; i++)
			if (memcmp(s + i, words[k], strlen(words[k])) == 0)
				return 1;
	return 0;
}

/* The dd command standing directly above the block: the last text line
 * before it, past blank lines and a password prompt. Whatever other dd
 * commands stand further up (the same command shown before, with other
 * paths), this one is the summary's own. */
static const struct bs_bline *command_above(const struct bs_block *b)
{
	size_t i;

	for (i = b->nbefore; i > 0; i--) {
		const struct bs_bline *l = &b->before[i - 1];
		size_t k = 0;

		while (k < l->len && blank(l->text[k]))
			k++;
		if (k == l->len || asks(l->text, l->len))
			continue;
		return command_at(l->text, l->len) >= 0 ? l : NULL;
	}
	return NULL;
}

/*
 * The command line of the block's summary: in the block, else the one dd
 * command directly above it (command_above), else the one dd command
 * among the text lines above it (struct bs_block.before). Two different
 * ones there, neither directly above (a shell loop pasted above its
 * outputs), say nothing of which is this summary's. Returns the line, or
 * NULL.
 */
static const struct bs_bline *find_command(const struct bs_block *b,
					   const char **why)
{
	const struct bs_bline *cmd = NULL;
	struct dsum d;
	size_t i;

	*why = "no dd command line above it";
	for (i = 0; i < b->n; i++)
		if (classify(b->l[i].text, b->l[i].len, &d) == DL_CMD)
			return &b->l[i];
	if ((cmd = command_above(b)) != NULL)
		return cmd;
	for (i = b->nbefore; i > 0; i--) {
		const struct bs_bline *l = &b->before[i - 1];

		if (command_at(l->text, l->len) < 0)
			continue;
		if (cmd && (cmd->len != l->len ||
			    memcmp(cmd->text, l->text, l->len) != 0)) {
			*why = ambiguous;
			return NULL;
		}
		cmd = l;
	}
	return cmd;
}

static int dd_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct dcmd c;
	struct dsum d, last = {0, 0};
	struct bs_run r;
	struct bs_buf warn = BS_BUF_INIT;
	const struct bs_bline *cl;
	const char *why;
	size_t i, at = SIZE_MAX;
	int m, dir, rc;
	double rate;
	int64_t bs, line;

	memset(&c, 0, sizeof(c));
	c.bs = c.ibs = c.obs = c.count = BS_NONE;
	for (i = 0; i < b->n; i++) {
		enum dl k = classify(b->l[i].text, b->l[i].len, &d);

		if (k == DL_SUMMARY) {
			at = i;
			last = d;
		}
	}
	if (at == SIZE_MAX)
		return 0; /* records lines alone (Solaris' dd): no figures */
	cl = find_command(b, &why);
	if (cl == NULL && why == ambiguous) {
		/* A shell loop pasted above its outputs: which command
		 * made which summary is the reader's guess, not ours. */
		if (out->note)
			out->note(out, b->l[at].lineno,
				  "dd summary under several different dd "
				  "command lines: not stored (which one is its "
				  "own is unknown)");
		return 0;
	}
	if (cl)
		parse_command(cl->text, cl->len, &c);
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
	/* The direction: 0 write, 1 read, -1 unknown. */
	if (!cl) {
		dir = -1;
		bs_buf_addf(&warn,
			    "dd summary with %s: direction, block size "
			    "and flags unknown (stored as copy_kib_s)",
			    why);
	} else if (!c.in && !c.out && !c.to_null) {
		dir = -1;
		bs_buf_addf(&warn, "dd command line without if= or of=: "
				   "direction unknown (stored as copy_kib_s)");
	} else if (c.out) {
		dir = is_dev(c.out, c.outlen, "/dev/null") ||
		      is_dev(c.out, c.outlen, "/dev/zero");
	} else {
		dir = 1; /* to a pipe or "> /dev/null" */
	}
	if (dir >= 0 && pseudo(c.in, c.inlen) &&
	    (c.out == NULL || pseudo(c.out, c.outlen)))
		bs_buf_addf(
			&warn,
			"dd copied between pseudo devices: no disk measured");
	bs_run_init(&r);
	r.family = BS_FAM_DD;
	bs_run_set(&r.tool, "dd");
	bs_run_set(&r.format, BS_FMT_DD);
	if (warn.len)
		r.warning = bs_buf_detach(&warn, NULL);
	m = bs_metric_find(BS_FAM_DD, dir < 0   ? "copy_kib_s"
				      : dir > 0 ? "read_kib_s"
						: "write_kib_s");
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
	if (cl) {
		/* dd reads and writes bs= bytes at a time, else ibs= and
		 * obs= (512 each when not told). */
		bs = c.bs;
		if (bs == BS_NONE && dir >= 0)
			bs = dir ? c.ibs : c.obs;
		if (bs == BS_NONE && c.ibs == BS_NONE && c.obs == BS_NONE)
			bs = 512;
		set_i64(&r.params.bs_bytes, "bs_bytes", bs);
		set_i64(&r.params.count, "count", c.count);
		r.params.flags = bs_buf_detach(&c.flags, NULL);
		r.params.direct = bs_flags_direct(r.params.flags);
	}
	bs_buf_release(&c.flags);
	line = b->l[0].lineno;
	if (cl && (cl < b->l || cl >= b->l + b->n)) {
		/* The run's text is its command line and dd's output, as
		 * when they stand together: the same digest either way. */
		struct bs_buf raw = BS_BUF_INIT;

		bs_buf_add(&raw, cl->text, cl->len);
		bs_buf_addc(&raw, '\n');
		bs_buf_add(&raw, b->raw, b->raw_len);
		r.raw = bs_buf_detach(&raw, NULL);
		line = cl->lineno;
	}
	rc = out->run(out, &r, line);
	return rc;
}

const struct bs_block_ops bs_dd_ops = {
	dd_start,
	dd_more,
	NULL,
	dd_parse,
};
