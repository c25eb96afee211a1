/*
 * ingest/sysbench.c - the sysbench fileio formats of the registry: what
 * `sysbench fileio run` prints (0.4.x and 1.0.x; docs/formats.md,
 * "Ingest: sysbench fileio") into one run per summary, with the options
 * block as the run's parameters.
 *
 * Every line sysbench prints around a fileio run is a row of lines[]: its
 * words and its kind. Lines are compared word by word, so that text whose
 * blanks were collapsed or widened (a blog, a mail) reads as the capture
 * does. The scanner (start/more) keeps a block while its lines are
 * sysbench's; parse() reads the block again into the run. A block of
 * `prepare` or `cleanup`, or of another sysbench test, gives nothing; a
 * fileio run without its summary, or with a summary cut short, is a
 * reject that names the missing line.
 */
#include "ingest/sysbench.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/dist.h"
#include "core/fileio.h"
#include "ingest/format.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define TOK_MAX 24     /* words of a line kept; sysbench's have < 16 */
#define VERSION_MAX 32 /* "1.0.20", "1.0.20-6e5bd8e" */
#define QUOTE_MAX 60   /* bytes of user data quoted in a reason */
#define MIB 1048576.0

/* What a line is. */
enum kind {
	K_NONE,     /* not sysbench's: ends a block */
	K_HEADER,   /* "sysbench 1.0.20 (using ...)" */
	K_NOTE,     /* sysbench's, holds nothing bstore keeps */
	K_OPTIONS,  /* "Running the test with following options:" */
	K_FATAL,    /* "FATAL: ..." */
	K_HIST,     /* "Latency histogram (values are in milliseconds)" */
	K_HIST_ROW, /* "       0.001 |*****        2707" */
	K_PREPARE,  /* `prepare` output */
	K_CLEANUP,  /* `cleanup` output */
	/* The options block. */
	K_THREADS,
	K_FLAGS,
	K_FILES,
	K_TOTAL,
	K_BLOCK,
	K_RATIO,
	K_FSYNC_FREQ,
	K_FSYNC_END,
	K_FSYNC_ALL,
	K_IO_MODE,
	K_DOING,
	/* The summary, from here to K_LAST. */
	K_OPS,     /* 0.4: "Operations performed: ..." */
	K_RW,      /* 0.4: "Read 1.2Gb Written 850Mb Total ..." */
	K_REQS,    /* 0.4: "453.63 Requests/sec executed" */
	K_FILEOPS, /* 1.0: "File operations:" */
	K_READS,
	K_WRITES,
	K_FSYNCS,
	K_READ_MIB,
	K_WRITTEN_MIB,
	K_TIME,
	K_EVENTS,
	K_MIN,
	K_AVG,
	K_MAX,
	K_PCT,     /* "approx.  95 percentile:", "95th percentile:" */
	K_PCT_OFF, /* 1.0 with --percentile=0 */
	K_LAST,    /* "execution time (avg/stddev):", the last line */
	K_COUNT
};

#define K_SUMMARY K_OPS

/*
 * A line's words: each word of pat is a word of the line, "#" any word
 * (a value). rest is how many words follow the pattern, -1 any number.
 */
struct pat {
	const char *pat;
	enum kind kind;
	int rest;
};

/* clang-format off */
static const struct pat lines[] = {
	/* Options and progress (SB b773e31 sysbench.c, 1.0.20 sysbench.c). */
	{ "Running the test with following options:", K_OPTIONS, 0 },
	{ "Number of threads: #", K_THREADS, 0 },
	{ "Report intermediate results every", K_NOTE, -1 },
	{ "Target transaction rate:", K_NOTE, -1 },
	{ "Initializing random number generator from", K_NOTE, -1 },
	{ "Random number generator seed is", K_NOTE, -1 },
	{ "Debug mode enabled.", K_NOTE, 0 },
	{ "Additional request validation enabled.", K_NOTE, 0 },
	{ "Validation checks: on.", K_NOTE, 0 },     /* 1.0.20 --validate */
	{ "Forcing shutdown in", K_NOTE, -1 },
	{ "Initializing worker threads...", K_NOTE, 0 },
	{ "Threads started!", K_NOTE, 0 },
	{ "Time limit exceeded, exiting...", K_NOTE, 0 },
	{ "(last message repeated", K_NOTE, -1 },
	{ "Done.", K_NOTE, 0 },
	{ "FATAL:", K_FATAL, -1 },
	{ "WARNING:", K_NOTE, -1 },
	{ "ALERT:", K_NOTE, -1 },
	{ "DEBUG:", K_NOTE, -1 },     /* --debug, --verbosity=5 */
	/* The fileio mode block (sb_fileio.c file_print_mode). */
	{ "Extra file open flags:", K_FLAGS, -1 },
	{ "# files, # each", K_FILES, 0 },
	{ "# total file size", K_TOTAL, 0 },
	{ "Block size #", K_BLOCK, 0 },
	{ "Merging requests up to", K_NOTE, -1 },
	{ "Number of IO requests: #", K_NOTE, 0 },
	{ "Number of random requests for random IO: #", K_NOTE, 0 },
	{ "Read/Write ratio for combined random IO test: #", K_RATIO, 0 },
	{ "Periodic FSYNC enabled, calling fsync() each # requests.", K_FSYNC_FREQ, 0 },
	{ "Calling fsync() at the end of test, Enabled.", K_FSYNC_END, 0 },
	{ "Calling fsync() after each write operation.", K_FSYNC_ALL, 0 },
	{ "Using checksums validation.", K_NOTE, 0 },
	/* prepare and cleanup. */
	{ "# files, # each, # total", K_PREPARE, 0 },
	{ "Creating files for the test...", K_PREPARE, 0 },
	{ "Creating file #", K_PREPARE, 0 },
	{ "Reusing existing file #", K_PREPARE, 0 },
	{ "Extending existing file #", K_PREPARE, 0 },
	{ "# bytes written in # seconds", K_PREPARE, -1 },
	{ "No bytes written.", K_PREPARE, 0 },
	{ "Removing test files...", K_CLEANUP, 0 },
	/* --histogram (1.0). */
	{ "Latency histogram (values are in milliseconds)", K_HIST, 0 },
	{ "value ------------- distribution ------------- count", K_NOTE, 0 },
	/* The 0.4 summary (sb_fileio.c file_print_stats). */
	{ "Operations performed: # # # # # Other = # Total", K_OPS, 0 },
	{ "Read # Written # Total transferred #", K_RW, 1 },
	{ "# Requests/sec executed", K_REQS, 0 },
	{ "Test execution summary:", K_NOTE, 0 },
	{ "per-request statistics:", K_NOTE, 0 },
	{ "response time:", K_NOTE, 0 },
	{ "approx. # percentile: #", K_PCT, 0 },
	/* The 1.0 summary (sb_fileio.c file_report_cumulative). */
	{ "File operations:", K_FILEOPS, 0 },
	{ "reads/s: #", K_READS, 0 },
	{ "writes/s: #", K_WRITES, 0 },
	{ "fsyncs/s: #", K_FSYNCS, 0 },
	{ "Throughput:", K_NOTE, 0 },
	{ "read, MiB/s: #", K_READ_MIB, 0 },
	{ "written, MiB/s: #", K_WRITTEN_MIB, 0 },
	{ "Latency (ms):", K_NOTE, 0 },
	{ "# percentile: #", K_PCT, 0 },
	{ "percentile stats: disabled", K_PCT_OFF, 0 },
	{ "sum: #", K_NOTE, 0 },
	/* Both (sysbench.c). */
	{ "General statistics:", K_NOTE, 0 },
	{ "total time: #", K_TIME, 0 },
	{ "total number of events: #", K_EVENTS, 0 },
	{ "total time taken by event execution: #", K_NOTE, 0 },
	{ "min: #", K_MIN, 0 },
	{ "avg: #", K_AVG, 0 },
	{ "max: #", K_MAX, 0 },
	{ "Threads fairness:", K_NOTE, 0 },
	{ "events (avg/stddev): #", K_NOTE, 0 },
	{ "execution time (avg/stddev): #", K_LAST, 0 },
};

/* The label of a line in reasons, and the metric its value goes to. */
static const struct {
	const char *label;
	const char *key;
} kinds[K_COUNT] = {
	[K_THREADS]     = { "Number of threads", NULL },
	[K_FLAGS]       = { "Extra file open flags", NULL },
	[K_FILES]       = { "files", NULL },
	[K_TOTAL]       = { "total file size", NULL },
	[K_BLOCK]       = { "Block size", NULL },
	[K_RATIO]       = { "Read/Write ratio", NULL },
	[K_FSYNC_FREQ]  = { "Periodic FSYNC", NULL },
	[K_IO_MODE]     = { "Using ... I/O mode", NULL },
	[K_DOING]       = { "Doing ... test", NULL },
	[K_OPS]         = { "Operations performed", NULL },
	[K_RW]          = { "Read ... Written", NULL },
	[K_REQS]        = { "Requests/sec executed", "requests_per_s" },
	[K_READS]       = { "reads/s", "reads_per_s" },
	[K_WRITES]      = { "writes/s", "writes_per_s" },
	[K_FSYNCS]      = { "fsyncs/s", "fsyncs_per_s" },
	[K_READ_MIB]    = { "read, MiB/s", "read_mib_s" },
	[K_WRITTEN_MIB] = { "written, MiB/s", "written_mib_s" },
	[K_TIME]        = { "total time", "total_time_s" },
	[K_EVENTS]      = { "total number of events", "events" },
	[K_MIN]         = { "min", "latency_min_ms" },
	[K_AVG]         = { "avg", "latency_avg_ms" },
	[K_MAX]         = { "max", "latency_max_ms" },
	[K_PCT]         = { "percentile", NULL },
	[K_HIST_ROW]    = { "Latency histogram", NULL },
};

/* "Doing %s test" and --file-test-mode's words are core/fileio.h's
 * (bs_fileio_mode_text, bs_fileio_word). */

/* "Using %s I/O mode" (get_io_mode_str) and --file-io-mode's words. */
static const struct {
	const char *printed;
	const char *mode;
} io_modes[] = {
	{ "synchronous",  "sync" },
	{ "asynchronous", "async" },
	{ "fast mmaped",  "mmap" },   /* 64-bit builds */
	{ "slow mmaped",  "mmap" },   /* 32-bit builds */
};

/* 1.0.13+ print --file-extra-flags as words (print_file_extra_flags). */
static const struct {
	const char *printed;
	const char *flag;
} flag_words[] = {
	{ "sync",     "sync" },
	{ "dsync",    "dsync" },
	{ "directio", "direct" },
};

/*
 * 0.4 prints the open(2) flags themselves in decimal, 1.0.0-1.0.12 in
 * hex: Linux's values (x86, arm64, riscv; O_SYNC holds O_DSYNC's bit).
 */
static const struct {
	unsigned long bits;
	const char *flag;
} flag_bits[] = {
	{ 0x101000, "sync" },
	{ 0x1000,   "dsync" },
	{ 0x4000,   "direct" },
};
/* clang-format on */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- words of a line ---- */

struct toks {
	struct bs_field t[TOK_MAX];
	size_t n; /* words in the line; only TOK_MAX kept */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The words of a line; a '#' that opens it is a source comment's mark
 * (output kept in a script: "#Read 78.125Mb  Written 0b ..."), not a
 * word. */
static void split(const char *s, size_t len, struct toks *tk)
{
	size_t i = 0, b;

	tk->n = 0;
	if (len > 0 && s[0] == '#')
		i = 1;
	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len)
			return;
		b = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (tk->n < TOK_MAX) {
			tk->t[tk->n].s = s + b;
			tk->t[tk->n].len = i - b;
		}
		tk->n++;
	}
}

static int eq(const struct bs_field *f, const char *s)
{
	size_t n = strlen(s);

	return f->len == n && memcmp(f->s, s, n) == 0;
}

static int eq_nocase(const struct bs_field *f, const char *s)
{
	size_t i, n = strlen(s);

	if (f->len != n)
		return 0;
	for (i = 0; i < n; i++) {
		char a = f->s[i], b = s[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return 1;
}

static int ends_with(const struct bs_field *f, const char *s)
{
	size_t n = strlen(s);

	return f->len >= n && memcmp(f->s + f->len - n, s, n) == 0;
}

static int is_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return n > 0;
}

/* Whether the words of tk are p's. */
static int match(const struct toks *tk, const struct pat *p)
{
	const char *w = p->pat;
	size_t i = 0;

	while (*w) {
		size_t n = strcspn(w, " ");

		if (i >= tk->n || i >= TOK_MAX)
			return 0;
		if (!(n == 1 && w[0] == '#') &&
		    (tk->t[i].len != n || memcmp(tk->t[i].s, w, n) != 0))
			return 0;
		i++;
		w += n + (w[n] == ' ');
	}
	if (p->rest >= 0 && tk->n != i + (size_t)p->rest)
		return 0;
	return 1;
}

/* The words of tk from first to last - 1 joined by one blank are s. */
static int words_are(const struct toks *tk, size_t first, size_t last,
		     const char *s)
{
	size_t i;

	for (i = first; i < last; i++) {
		const struct bs_field *f = &tk->t[i];

		if (f->len > strlen(s) || memcmp(s, f->s, f->len) != 0)
			return 0;
		s += f->len;
		if (i + 1 < last && *s++ != ' ')
			return 0;
	}
	return *s == '\0';
}

/* "1.0.20", "0.4.12:" (then *colon is set), "1.0.20-6e5bd8e". */
static int version_word(const struct bs_field *f, int *colon)
{
	size_t n = f->len, i;
	int dot = 0;

	*colon = n > 0 && f->s[n - 1] == ':';
	n -= (size_t)*colon;
	if (n == 0 || n >= VERSION_MAX || f->s[0] < '0' || f->s[0] > '9')
		return 0;
	for (i = 0; i < n; i++) {
		char c = f->s[i];

		if (c == '.')
			dot = 1;
		else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			   (c >= 'A' && c <= 'Z') || c == '-' || c == '+' ||
			   c == '~' || c == '_'))
			return 0;
	}
	return dot;
}

/*
 * sysbench's first line: "sysbench 0.4.12:  multi-threaded system
 * evaluation benchmark", "sysbench 1.0.20 (using system LuaJIT ...)", or
 * `sysbench --version`'s "sysbench 1.0.20".
 */
static int is_header(const struct toks *tk)
{
	int colon;

	if (tk->n < 2 || !eq(&tk->t[0], "sysbench") ||
	    !version_word(&tk->t[1], &colon))
		return 0;
	if (colon || tk->n == 2)
		return 1;
	return eq(&tk->t[2], "(using");
}

/* `bstore fileio`'s first line: "bstore 0.1.0 fileio (sysbench 1.0.20
 * layout)"; the rest is sysbench 1.0's. */
static int is_bstore_header(const struct toks *tk)
{
	int colon;

	return tk->n >= 3 && eq(&tk->t[0], "bstore") &&
	       version_word(&tk->t[1], &colon) && !colon &&
	       eq(&tk->t[2], "fileio");
}

/*
 * A line's length without the note a person wrote after its value: from
 * " #" after a digit ("read, MiB/s: 4.07 # on the old disk"), or from an
 * opening parenthesis, ASCII or full-width, that touches a digit
 * ("32.22（1027.76顺序读写）"). sysbench's own parentheses follow a blank
 * ("(1.8869Mb/sec)", "events (avg/stddev):").
 */
static size_t without_note(const char *s, size_t n)
{
	size_t i;
	int digit = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '#' && digit && i > 0 &&
		    (s[i - 1] == ' ' || s[i - 1] == '\t'))
			return i;
		if (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' &&
		    (s[i] == '(' ||
		     (i + 2 < n && memcmp(s + i, "\xef\xbc\x88", 3) == 0)))
			return i;
		if (s[i] >= '0' && s[i] <= '9')
			digit = 1;
	}
	return n;
}

/* A section title pasted twice on its line ("File operations:File
 * operations:"): the length of one. */
static size_t once(const char *s, size_t len)
{
	size_t h = len / 2;

	if (len >= 4 && len % 2 == 0 && s[h - 1] == ':' &&
	    memcmp(s, s + h, h) == 0)
		return h;
	return len;
}

/* The kind of a line (not blank), its words in tk. */
static enum kind classify(const char *s, size_t len, struct toks *tk)
{
	size_t i, n;

	split(s, once(s, without_note(s, len)), tk);
	n = tk->n;
	if (n == 0)
		return K_NONE;
	if (n > TOK_MAX)
		n = TOK_MAX;
	if (eq(&tk->t[0], "sysbench"))
		return is_header(tk) ? K_HEADER : K_NONE;
	if (eq(&tk->t[0], "bstore"))
		return is_bstore_header(tk) ? K_HEADER : K_NONE;
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		const struct pat *p = &lines[i];

		if (!match(tk, p))
			continue;
		if (p->kind == K_OPS) {
			/* "Read, Write" (0.4.12) or "reads, writes" (later
			 * 0.4 builds and 0.5). */
			if (!(eq_nocase(&tk->t[3], "read,") ||
			      eq_nocase(&tk->t[3], "reads,")) ||
			    !(eq_nocase(&tk->t[5], "write,") ||
			      eq_nocase(&tk->t[5], "writes,")))
				continue;
		}
		if (p->kind == K_PCT && !eq(&tk->t[0], "approx.") &&
		    !(ends_with(&tk->t[0], "th") &&
		      is_digits(tk->t[0].s, tk->t[0].len - 2)))
			continue;
		return p->kind;
	}
	/* "Using synchronous I/O mode" */
	if (eq(&tk->t[0], "Using") && (n == 4 || n == 5) &&
	    eq(&tk->t[n - 2], "I/O") && eq(&tk->t[n - 1], "mode"))
		return K_IO_MODE;
	/* "Doing random r/w test": the six fileio modes only; other tests
	 * say "Doing OLTP test" and end the block. */
	if (eq(&tk->t[0], "Doing") && n >= 3 && eq(&tk->t[n - 1], "test")) {
		for (i = 0; i < BS_FILEIO_NMODES; i++)
			if (words_are(tk, 1, n - 1,
				      bs_fileio_mode_text((unsigned)i)))
				return K_DOING;
		return K_NONE;
	}
	/* --report-interval: "[ 1s ] reads: ..." (1.0), "[   1s] reads:"
	 * (later 0.4 builds). */
	if (tk->t[0].s[0] == '[') {
		for (i = 0; i + 1 < n && i < 3; i++)
			if (ends_with(&tk->t[i], "]") &&
			    eq(&tk->t[i + 1], "reads:"))
				return K_NOTE;
		return K_NONE;
	}
	/* --histogram: "       0.001 |*****        2707" */
	if (n == 3 && tk->t[1].s[0] == '|') {
		double v;

		if (bs_parse_double(tk->t[0].s, tk->t[0].len, &v) == 0 &&
		    is_digits(tk->t[2].s, tk->t[2].len))
			return K_HIST_ROW;
	}
	return K_NONE;
}

/* 4 for a 0.x header, 10 for the others (and bstore fileio's). */
static int header_layout(const struct toks *tk)
{
	if (eq(&tk->t[0], "bstore"))
		return 10;
	return tk->t[1].s[0] == '0' ? 4 : 10;
}

/* ---- the scanner (ingest/block.h) ---- */

struct scan {
	int summary; /* a summary's first line was seen */
};

static int start(const struct bs_fline *l, void *state, int layout)
{
	struct scan *sc = state;
	struct toks tk;

	switch (classify(l->text, l->len, &tk)) {
	case K_HEADER:
		return header_layout(&tk) == layout;
	case K_OPS:
		sc->summary = 1;
		return layout == 4;
	case K_FILEOPS:
		sc->summary = 1;
		return layout == 10;
	default:
		return 0;
	}
}

static int start_04(const struct bs_fline *l, void *state)
{
	return start(l, state, 4);
}

static int start_10(const struct bs_fline *l, void *state)
{
	return start(l, state, 10);
}

static enum bs_scan more(const struct bs_fline *l, void *state)
{
	struct scan *sc = state;
	struct toks tk;

	if (l->len == 0)
		return BS_SCAN_TAKE;
	switch (classify(l->text, l->len, &tk)) {
	case K_NONE:
	case K_HEADER: /* the next command's output */
		return BS_SCAN_END_BEFORE;
	case K_OPS:
	case K_FILEOPS:
		/* A second summary (0.4's --batch) is a block of its own. */
		if (sc->summary)
			return BS_SCAN_END_BEFORE;
		sc->summary = 1;
		return BS_SCAN_TAKE;
	case K_LAST:
		return BS_SCAN_LAST;
	default:
		return BS_SCAN_TAKE;
	}
}

/* ---- parse ---- */

struct pctx {
	const struct bs_block *b;
	struct bs_block_out *out;
	struct bs_run r;
	size_t at[K_COUNT]; /* each kind's first line, plus one; 0: none */
	size_t last;        /* the last line that is not blank */
	int layout;         /* 4 or 10 */
	char version[VERSION_MAX];
	int bstore; /* the header is bstore fileio's */
	struct bs_buf warn;
	int rc; /* what out said of a reject */
};

/* Rejects lines first..last; returns -1 (the run is dropped). */
static int reject(struct pctx *c, size_t first, size_t last, const char *fmt,
		  ...) BS_PRINTF(4, 5);
static int reject(struct pctx *c, size_t first, size_t last, const char *fmt,
		  ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	c->rc = c->out->reject(c->out, first, last, reason);
	return -1;
}

/* The words of line i (its kind is k). */
static void words(const struct pctx *c, size_t i, struct toks *tk)
{
	split(c->b->l[i].text, without_note(c->b->l[i].text, c->b->l[i].len),
	      tk);
}

static const char *quote(char *q, size_t qsz, const struct bs_field *f)
{
	return bs_err_quote(q, qsz, f->s, f->len, QUOTE_MAX);
}

/* "sysbench 'reads/s': 'x1' is not a number" */
static int bad_word(struct pctx *c, size_t i, enum kind k,
		    const struct bs_field *f, const char *what)
{
	char q[QUOTE_MAX + 8];

	return reject(c, i, i, "sysbench '%s': '%s' %s", kinds[k].label,
		      quote(q, sizeof(q), f), what);
}

/* A number, with an optional unit suffix cut first. */
static int number(const struct bs_field *f, const char *suffix, double *v)
{
	size_t n = f->len;

	if (suffix && ends_with(f, suffix))
		n -= strlen(suffix);
	if (bs_parse_double(f->s, n, v) < 0 || *v < 0)
		return -1;
	return 0;
}

/*
 * A size as sb_print_value_size() prints it: "%.5g" and a 1024-based
 * unit, "16Kb", "1.2459Gb", "0b" (0.4) or "16KiB", "64MiB" (1.0); in
 * bytes, rounded as sysbench rounded it.
 */
static int size_bytes(const struct bs_field *f, double *bytes)
{
	static const char units[] = "KMGT";
	const char *u;
	size_t n = f->len;
	double mult = 1;

	if (n == 0 || (f->s[n - 1] != 'b' && f->s[n - 1] != 'B'))
		return -1;
	n--;
	if (n > 0 && f->s[n - 1] == 'i')
		n--;
	if (n > 0 && (u = memchr(units, f->s[n - 1], 4)) != NULL) {
		mult = pow(1024, (double)(u - units + 1));
		n--;
	} else if (n < f->len - 1) {
		return -1; /* "16ib" */
	}
	if (bs_parse_double(f->s, n, bytes) < 0 || *bytes < 0)
		return -1;
	*bytes *= mult;
	return 0;
}

/* A latency: "0.24ms" (0.4) or "0.02" under "Latency (ms):" (1.0). */
static int latency_ms(const struct bs_field *f, double *ms)
{
	if (ends_with(f, "ms"))
		return number(f, "ms", ms);
	if (ends_with(f, "s")) {
		if (number(f, "s", ms) < 0)
			return -1;
		*ms *= 1000;
		return 0;
	}
	return number(f, NULL, ms);
}

static void warn(struct pctx *c, const char *fmt, ...) BS_PRINTF(2, 3);
static void warn(struct pctx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->warn.len > 0)
		bs_buf_adds(&c->warn, "; ");
	bs_buf_adds(&c->warn, msg);
}

/* Stores v under key, from line i (of kind k), within its limit. */
static int put(struct pctx *c, size_t i, enum kind k, const char *key, double v)
{
	int m = bs_metric_find(BS_FAM_SYSBENCH, key);
	const char *unit;
	char max[40], got[40];

	if (m < 0)
		BS_BUG("a sysbench metric the catalogue lacks");
	if (!bs_metric_fits(m, BS_PART_VALUE, v)) {
		bs_fmt_g(max, sizeof(max),
			 bs_metric_limit(m, BS_PART_VALUE, &unit));
		return reject(c, i, i,
			      "sysbench '%s': %s is beyond any disk (at most "
			      "%s%s%s)",
			      kinds[k].label, bs_fmt_g(got, sizeof(got), v),
			      max, unit[0] ? " " : "", unit);
	}
	c->r.res[m].status = BS_ST_OK;
	c->r.res[m].value = v;
	return 0;
}

/* Metric key was printed but is no figure (bs_run_unread()). */
static void unread(struct pctx *c, const char *key)
{
	int m = bs_metric_find(BS_FAM_SYSBENCH, key);

	if (m < 0)
		BS_BUG("a sysbench metric the catalogue lacks");
	bs_run_unread(&c->r, m);
}

/* Sets an integer parameter (field at offset) from line i, within its
 * limit. */
static int put_param(struct pctx *c, size_t i, enum kind k, size_t offset,
		     double v)
{
	int p = bs_param_at(offset);
	char q[40];

	assert(p >= 0);
	if (!(v >= 0 && v <= (double)bs_param_table[p].max) ||
	    !bs_param_fits(p, (int64_t)llround(v)))
		return reject(c, i, i,
			      "sysbench '%s': %s is beyond any machine (at "
			      "most %lld%s%s)",
			      kinds[k].label, bs_fmt_g(q, sizeof(q), v),
			      (long long)bs_param_table[p].max,
			      bs_param_table[p].unit[0] ? " " : "",
			      bs_param_table[p].unit);
	*bs_param_i64(&c->r.params, p) = (int64_t)llround(v);
	return 0;
}

#define PUT_PARAM(c, i, k, f, v)                                               \
	put_param(c, i, k, offsetof(struct bs_params, f), v)

/* "(none)", "directio", "sync dsync " (1.0.13+), or the open(2) flags in
 * decimal (0.4) or hex (0.5, 1.0.0-1.0.12): as --file-extra-flags is
 * given. */
static int parse_flags(struct pctx *c, size_t i, const struct toks *tk)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t w, j, first = 4, n = tk->n;
	int dec = strncmp(c->version, "0.4", 3) == 0 ||
		  (c->version[0] == '\0' && c->layout == 4);
	unsigned long bits;
	char num[32];

	if (n > TOK_MAX)
		return bad_word(c, i, K_FLAGS, &tk->t[TOK_MAX - 1],
				"is not a flag");
	if (n == first + 1 && tk->t[first].len < sizeof(num) &&
	    (dec ? is_digits(tk->t[first].s, tk->t[first].len)
		 : is_hex(tk->t[first].s, tk->t[first].len))) {
		memcpy(num, tk->t[first].s, tk->t[first].len);
		num[tk->t[first].len] = '\0';
		bits = strtoul(num, NULL, dec ? 10 : 16);
		for (j = 0; j < ARRAY_SIZE(flag_bits); j++) {
			if ((bits & flag_bits[j].bits) != flag_bits[j].bits)
				continue;
			if (b.len)
				bs_buf_addc(&b, ',');
			bs_buf_adds(&b, flag_bits[j].flag);
			bits &= ~flag_bits[j].bits;
		}
		if (bits != 0) {
			bs_buf_reset(&b);
			bs_buf_adds(&b, num);
			warn(c,
			     "extra open flags '%s' are not Linux's O_SYNC, "
			     "O_DSYNC or O_DIRECT: stored as printed",
			     num);
		}
		goto out;
	}
	for (w = first; w < n; w++) {
		const struct bs_field *f = &tk->t[w];

		if (n == first + 1 && eq(f, "(none)"))
			break;
		for (j = 0; j < ARRAY_SIZE(flag_words); j++)
			if (eq(f, flag_words[j].printed))
				break;
		if (j == ARRAY_SIZE(flag_words)) {
			bs_buf_release(&b);
			return bad_word(c, i, K_FLAGS, f, "is not a flag");
		}
		if (b.len)
			bs_buf_addc(&b, ',');
		bs_buf_adds(&b, flag_words[j].flag);
	}
out:
	free(c->r.params.extra_flags);
	c->r.params.extra_flags = bs_buf_detach(&b, NULL);
	c->r.params.direct = bs_flags_direct(c->r.params.extra_flags);
	return 0;
}

/* One line of the options block into the parameters. */
static int parse_option(struct pctx *c, size_t i, enum kind k)
{
	struct bs_params *p = &c->r.params;
	const struct bs_field *f;
	struct toks tk;
	double v;
	size_t j;

	words(c, i, &tk);
	switch (k) {
	case K_THREADS:
		f = &tk.t[3];
		if (!is_digits(f->s, f->len) || number(f, NULL, &v) < 0)
			return bad_word(c, i, k, f, "is not a count");
		return PUT_PARAM(c, i, k, threads, v);
	case K_FLAGS:
		return parse_flags(c, i, &tk);
	case K_FILES:
		f = &tk.t[0];
		if (!is_digits(f->s, f->len) || number(f, NULL, &v) < 0)
			return bad_word(c, i, k, f, "is not a count");
		return PUT_PARAM(c, i, k, file_num, v);
	case K_TOTAL:
	case K_BLOCK:
		f = &tk.t[k == K_TOTAL ? 0 : 2];
		if (size_bytes(f, &v) < 0)
			return bad_word(c, i, k, f, "is not a size");
		if (k == K_TOTAL)
			return PUT_PARAM(c, i, k, file_total_bytes, v);
		return PUT_PARAM(c, i, k, block_size_bytes, v);
	case K_RATIO:
		f = &tk.t[7];
		j = (size_t)bs_param_at(offsetof(struct bs_params, rw_ratio));
		if (number(f, NULL, &v) < 0)
			return bad_word(c, i, k, f, "is not a number");
		if (!bs_param_fits_real((int)j, v))
			return bad_word(c, i, k, f, "is beyond any run");
		p->rw_ratio = v;
		return 0;
	case K_FSYNC_FREQ:
		f = &tk.t[6];
		if (!is_digits(f->s, f->len) || number(f, NULL, &v) < 0)
			return bad_word(c, i, k, f, "is not a count");
		return PUT_PARAM(c, i, k, fsync_freq, v);
	case K_FSYNC_END:
		p->fsync_end = 1;
		return 0;
	case K_FSYNC_ALL:
		p->fsync_all = 1;
		return 0;
	case K_IO_MODE:
		for (j = 0; j < ARRAY_SIZE(io_modes); j++)
			if (words_are(&tk, 1, tk.n - 2, io_modes[j].printed))
				break;
		if (j == ARRAY_SIZE(io_modes))
			return bad_word(c, i, k, &tk.t[1],
					"is not an I/O mode");
		bs_run_set(&p->io_mode, io_modes[j].mode);
		return 0;
	case K_DOING:
		for (j = 0; j < BS_FILEIO_NMODES; j++)
			if (words_are(&tk, 1, tk.n - 1,
				      bs_fileio_mode_text((unsigned)j)))
				bs_run_set(&p->mode,
					   bs_fileio_word("file-test-mode",
							  (unsigned)j));
		return 0;
	default:
		return 0;
	}
}

/*
 * The options block: what it prints, and what its silence says. The
 * block always prints every line from "Extra file open flags" to "Using
 * ... I/O mode"; an fsync line missing between them is an fsync option
 * that is off.
 */
static int parse_options(struct pctx *c)
{
	struct bs_params *p = &c->r.params;
	int k;

	for (k = K_THREADS; k <= K_DOING; k++)
		if (c->at[k] && parse_option(c, c->at[k] - 1, (enum kind)k) < 0)
			return -1;
	if (c->at[K_FLAGS] && c->at[K_IO_MODE] &&
	    c->at[K_FLAGS] < c->at[K_IO_MODE]) {
		if (p->fsync_freq == BS_NONE)
			p->fsync_freq = 0;
		if (p->fsync_end == BS_NONE)
			p->fsync_end = 0;
		if (p->fsync_all == BS_NONE)
			p->fsync_all = 0;
	}
	return 0;
}

/* The value word of a summary line: its last ("total time: 2.0s"), or
 * its first ("453.63 Requests/sec executed"). */
static const struct bs_field *value_word(const struct pctx *c, size_t i,
					 struct toks *tk)
{
	size_t last;

	words(c, i, tk);
	last = (tk->n < TOK_MAX ? tk->n : TOK_MAX) - 1;
	if (eq(&tk->t[last], "executed"))
		return &tk->t[0];
	return &tk->t[last];
}

/* A summary line that holds one value in the metric's unit. */
static int parse_plain(struct pctx *c, enum kind k, const char *suffix)
{
	size_t i = c->at[k] - 1;
	const struct bs_field *f;
	struct toks tk;
	double v;

	f = value_word(c, i, &tk);
	if (number(f, suffix, &v) < 0)
		return bad_word(c, i, k, f, "is not a number");
	return put(c, i, k, kinds[k].key, v);
}

/* "approx.  95 percentile: 0.73ms" or "95th percentile: 0.01". */
static int parse_pct(struct pctx *c)
{
	size_t i = c->at[K_PCT] - 1;
	const struct bs_field *f, *nf;
	struct toks tk;
	char key[40], num[8];
	double v;
	int m;

	f = value_word(c, i, &tk);
	nf = &tk.t[eq(&tk.t[0], "approx.") ? 1 : 0];
	snprintf(num, sizeof(num), "%.*s",
		 (int)(nf->len - (ends_with(nf, "th") ? 2 : 0)), nf->s);
	if (!is_digits(num, strlen(num)) || strlen(num) > 3)
		return bad_word(c, i, K_PCT, nf, "is not a percentile");
	if (latency_ms(f, &v) < 0)
		return bad_word(c, i, K_PCT, f, "is not a latency");
	snprintf(key, sizeof(key), "latency_p%s_ms", num);
	m = bs_metric_find(BS_FAM_SYSBENCH, key);
	if (m < 0) {
		warn(c,
		     "the %sth percentile latency (%.*s) is not stored: "
		     "bstore keeps p50, p90, p95 and p99",
		     num, (int)f->len, f->s);
		return 0;
	}
	return put(c, i, K_PCT, key, v);
}

/* The percentile line's metric, printed but no figure: the line's own
 * key when bstore keeps that percentile. */
static void unread_pct(struct pctx *c)
{
	struct toks tk;
	const struct bs_field *nf;
	char key[40];
	size_t n;

	value_word(c, c->at[K_PCT] - 1, &tk);
	nf = &tk.t[eq(&tk.t[0], "approx.") ? 1 : 0];
	n = nf->len - (ends_with(nf, "th") ? 2 : 0);
	if (n == 0 || n > 3 || !is_digits(nf->s, n))
		return;
	snprintf(key, sizeof(key), "latency_p%.*s_ms", (int)n, nf->s);
	if (bs_metric_find(BS_FAM_SYSBENCH, key) >= 0)
		unread(c, key);
}

/*
 * The total time of a 0.4 summary whose "Total time" line was cut: the
 * "Read ... Written ... Total transferred 113.22Mb  (1.8869Mb/sec)"
 * line says the total and its rate, so the time is one over the other
 * (to the 5 digits sysbench prints them). NAN when that is not there.
 */
static double time_from_rate(const struct pctx *c)
{
	struct toks tk;
	struct bs_field f;
	double total, rate;
	size_t n;

	if (!c->at[K_RW])
		return NAN;
	words(c, c->at[K_RW] - 1, &tk);
	if (tk.n != 8 || size_bytes(&tk.t[6], &total) < 0)
		return NAN;
	f = tk.t[7];
	n = strlen("/sec)");
	if (f.len < n + 2 || f.s[0] != '(' || !ends_with(&f, "/sec)"))
		return NAN;
	f.s++;
	f.len -= n + 1;
	if (size_bytes(&f, &rate) < 0 || !(rate > 0))
		return NAN;
	return total / rate;
}

/*
 * 0.4 prints counts and sizes, not rates: "Operations performed:  421740
 * Read, 281160 Write, 899653 Other = 1602553 Total" and "Read 6.4352Gb
 * Written 4.2902Gb ...". Their rates over the total time are what 1.0
 * prints (docs/formats.md; FORMATS.md 5.3). A shortened summary keeps
 * the lines that are there.
 */
static int parse_04(struct pctx *c, double seconds)
{
	static const enum kind per_s[3] = {K_READS, K_WRITES, K_FSYNCS};
	size_t i;
	struct toks tk;
	double v;
	int j;

	if (c->at[K_REQS] && parse_plain(c, K_REQS, NULL) < 0)
		return -1;
	if (!(seconds > 0)) {
		warn(c, c->at[K_TIME] ? "the total time is 0 s: no rates"
				      : "no total time: no rates");
		return 0;
	}
	if (c->at[K_OPS]) {
		i = c->at[K_OPS] - 1;
		words(c, i, &tk);
		for (j = 0; j < 3; j++) {
			const struct bs_field *f = &tk.t[2 + 2 * j];

			if (!is_digits(f->s, f->len) || number(f, NULL, &v) < 0)
				return bad_word(c, i, K_OPS, f,
						"is not a count");
			if (put(c, i, per_s[j], kinds[per_s[j]].key,
				v / seconds) < 0)
				return -1;
		}
	}
	if (!c->at[K_RW])
		return 0;
	i = c->at[K_RW] - 1;
	words(c, i, &tk);
	for (j = 0; j < 2; j++) {
		const struct bs_field *f = &tk.t[1 + 2 * j];
		enum kind k = j == 0 ? K_READ_MIB : K_WRITTEN_MIB;

		if (size_bytes(f, &v) < 0)
			return bad_word(c, i, K_RW, f, "is not a size");
		if (put(c, i, k, kinds[k].key, v / MIB / seconds) < 0)
			return -1;
	}
	return 0;
}

/* The summary lines each layout prints, in order; the percentile is
 * checked on its own. A 0.4 summary shortened by hand (FORMATS.md 5.3)
 * is kept when its "Operations performed" or "Read ... Written" line is
 * there: the others are warned of, their values not reported. */
static const enum kind need_04[] = {
	K_OPS, K_RW, K_REQS, K_TIME, K_EVENTS, K_MIN, K_AVG, K_MAX,
};
static const enum kind core_04[] = {K_OPS, K_RW};
static const enum kind need_10[] = {
	K_READS, K_WRITES, K_FSYNCS, K_READ_MIB, K_WRITTEN_MIB,
	K_TIME,  K_EVENTS, K_MIN,    K_AVG,      K_MAX,
};

static const char *layout_name(int layout)
{
	return layout == 4 ? "0.4" : "1.0";
}

/* The first line of the summary; the caller knows there is one. */
static size_t summary_start(const struct pctx *c)
{
	size_t first = (size_t)-1;
	int k;

	for (k = K_SUMMARY; k <= K_LAST; k++)
		if (c->at[k] && c->at[k] - 1 < first)
			first = c->at[k] - 1;
	return first;
}

/* " (this is sysbench 1.1.0; ...)" for a version of another layout, or
 * "". */
static const char *other_layout(const struct pctx *c, char *buf, size_t sz)
{
	buf[0] = '\0';
	if (c->version[0] && strncmp(c->version, "0.", 2) != 0 &&
	    strncmp(c->version, "1.0.", 4) != 0 && strcmp(c->version, "1.0"))
		snprintf(buf, sz,
			 " (this is sysbench %s; bstore reads the 0.4 and "
			 "1.0 layouts)",
			 c->version);
	return buf;
}

/* A 0.4 summary with lines cut: warns which, once. */
static int shortened_04(struct pctx *c)
{
	char cut[200];
	size_t i, n = 0;

	cut[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(need_04); i++)
		if (!c->at[need_04[i]])
			n += (size_t)snprintf(cut + n, sizeof(cut) - n,
					      "%s'%s'", n ? ", " : "",
					      kinds[need_04[i]].label);
	if (n > 0)
		warn(c,
		     "a shortened sysbench 0.4 summary: %s cut, not "
		     "reported",
		     cut);
	return 0;
}

/* Whether every line the layout prints is there; rejects if not. */
static int check_summary(struct pctx *c, double *events)
{
	const enum kind *need = c->layout == 4 ? need_04 : need_10;
	size_t n = c->layout == 4 ? ARRAY_SIZE(need_04) : ARRAY_SIZE(need_10);
	size_t i, first = summary_start(c);
	const char *missing = NULL;
	struct toks tk;
	char other[VERSION_MAX + 64];

	*events = NAN;
	if (c->at[K_EVENTS]) {
		const struct bs_field *f =
			value_word(c, c->at[K_EVENTS] - 1, &tk);

		if (!is_digits(f->s, f->len) || number(f, NULL, events) < 0)
			return bad_word(c, c->at[K_EVENTS] - 1, K_EVENTS, f,
					"is not a count");
	}
	if (c->layout == 4 && (c->at[core_04[0]] || c->at[core_04[1]]))
		return shortened_04(c);
	for (i = 0; i < n && !missing; i++)
		if (!c->at[need[i]])
			missing = kinds[need[i]].label;
	/* 0.4 prints no percentile when there were no events. */
	if (!missing && !c->at[K_PCT] && !c->at[K_PCT_OFF] &&
	    !(c->layout == 4 && *events == 0))
		missing = c->layout == 4 ? "approx. NN percentile"
					 : "NNth percentile";
	if (!missing)
		return 0;
	return reject(c, first, c->last, "sysbench %s summary without '%s'%s",
		      layout_name(c->layout), missing,
		      other_layout(c, other, sizeof(other)));
}

static int parse_summary(struct pctx *c)
{
	static const enum kind lat[] = {K_MIN, K_AVG, K_MAX};
	double events, seconds;
	struct toks tk;
	size_t i;
	int j;

	if (check_summary(c, &events) < 0)
		return -1;
	if (c->at[K_EVENTS] &&
	    put(c, c->at[K_EVENTS] - 1, K_EVENTS, "events", events) < 0)
		return -1;
	if (c->at[K_TIME]) {
		i = c->at[K_TIME] - 1;
		if (number(value_word(c, i, &tk), "s", &seconds) < 0)
			return bad_word(c, i, K_TIME, value_word(c, i, &tk),
					"is not a time");
		if (put(c, i, K_TIME, "total_time_s", seconds) < 0)
			return -1;
	} else {
		seconds = time_from_rate(c);
		if (seconds > 0)
			warn(c,
			     "the rates are over %.5g s, the total "
			     "transferred over its rate",
			     seconds);
	}
	if (c->layout == 4) {
		if (parse_04(c, seconds) < 0)
			return -1;
	} else {
		for (j = K_READS; j <= K_WRITTEN_MIB; j++)
			if (parse_plain(c, (enum kind)j, NULL) < 0)
				return -1;
	}
	/* Without events the latencies are no one's: 0.4 prints the
	 * minimum's initial value, 18446744073709.55ms. */
	if (events == 0) {
		warn(c, "no events: the latencies are not stored");
		for (j = 0; j < 3; j++)
			if (c->at[lat[j]])
				unread(c, kinds[lat[j]].key);
		if (c->at[K_PCT])
			unread_pct(c);
		return 0;
	}
	for (j = 0; j < 3; j++) {
		const struct bs_field *f;
		double ms;

		if (!c->at[lat[j]])
			continue; /* a shortened 0.4 summary */
		i = c->at[lat[j]] - 1;
		f = value_word(c, i, &tk);
		if (latency_ms(f, &ms) < 0)
			return bad_word(c, i, lat[j], f, "is not a latency");
		if (put(c, i, lat[j], kinds[lat[j]].key, ms) < 0)
			return -1;
	}
	if (c->at[K_PCT])
		return parse_pct(c);
	return 0;
}

/* Whether the block is a fileio one at all (other tests share the
 * header, the options and the general statistics). */
static int is_fileio(const struct pctx *c)
{
	int k;

	for (k = K_PREPARE; k < K_COUNT; k++)
		if (c->at[k] && k != K_TIME && k != K_EVENTS && k != K_MIN &&
		    k != K_AVG && k != K_MAX && k != K_PCT && k != K_PCT_OFF &&
		    k != K_LAST && k != K_THREADS)
			return 1;
	return 0;
}

static int has_summary(const struct pctx *c)
{
	int k;

	for (k = K_SUMMARY; k <= K_LAST; k++)
		if (c->at[k])
			return 1;
	return 0;
}

/* 0.4 for its summary, 1.0 for its, else as the header says. */
static int pick_layout(const struct pctx *c)
{
	if (c->at[K_OPS] || c->at[K_RW] || c->at[K_REQS])
		return 4;
	if (c->at[K_FILEOPS] || c->at[K_READS] || c->at[K_WRITES] ||
	    c->at[K_FSYNCS] || c->at[K_READ_MIB] || c->at[K_WRITTEN_MIB])
		return 10;
	return c->version[0] == '0' && !c->bstore ? 4 : 10;
}

/*
 * The percentiles bstore keeps (p50, p90, p95, p99) that sysbench did not
 * print, from its histogram by sysbench's rule (core/dist.h), rounded as
 * sysbench prints one ("%4.2f"): the numbers sysbench would have printed
 * with that --percentile. Not for bstore fileio's text: its printed
 * percentile is of its own finer histogram (core/timer.h), which the
 * printed one does not hold.
 */
static int fill_percentiles(struct pctx *c, const struct bs_series *s)
{
	static const unsigned pcts[] = {50, 90, 95, 99};
	char key[32], num[48];
	size_t k;
	double v;
	int m;

	if (c->bstore || c->layout == 4)
		return 0;
	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		snprintf(key, sizeof(key), "latency_p%u_ms", pcts[k]);
		m = bs_metric_find(BS_FAM_SYSBENCH, key);
		if (m < 0)
			BS_BUG("a sysbench metric the catalogue lacks");
		if (c->r.res[m].status == BS_ST_OK)
			continue;
		v = bs_dist_sysbench_percentile(s->pt, s->n, pcts[k]);
		if (isnan(v))
			continue;
		snprintf(num, sizeof(num), "%.2f", v);
		if (bs_parse_double(num, strlen(num), &v) < 0 ||
		    put(c, c->at[K_HIST], K_PCT, key, v) < 0)
			return -1;
	}
	return 0;
}

/*
 * --histogram's rows after its title, before the summary: the series
 * latency_histogram, axis latency_ms, as printed (the value, the count).
 */
static int parse_histogram(struct pctx *c)
{
	int m = bs_metric_find(BS_FAM_SYSBENCH, "latency_histogram");
	size_t i, end = summary_start(c);
	struct bs_series *s = NULL;
	const struct bs_field *f;
	struct toks tk;
	double x, y;

	if (m < 0)
		BS_BUG("the catalogue lacks sysbench's latency_histogram");
	for (i = c->at[K_HIST]; c->at[K_HIST] && i < end; i++) {
		if (c->b->l[i].len == 0 ||
		    classify(c->b->l[i].text, c->b->l[i].len, &tk) !=
			    K_HIST_ROW)
			continue;
		f = &tk.t[0];
		if (latency_ms(f, &x) < 0 || !(x <= BS_LAT_US_MAX / 1000))
			return bad_word(c, i, K_HIST_ROW, f,
					"is not a latency");
		f = &tk.t[2];
		if (number(f, NULL, &y) < 0 ||
		    !bs_metric_fits(m, BS_PART_VALUE, y))
			return bad_word(c, i, K_HIST_ROW, f, "is not a count");
		if (s == NULL)
			s = bs_run_series_add(&c->r, m, "latency_ms");
		bs_series_point(s, x, y, NAN);
	}
	return s ? fill_percentiles(c, s) : 0;
}

/* The run of a block that holds a whole summary. */
static int make_run(struct pctx *c)
{
	const struct bs_bline *l0 = &c->b->l[0], *ln = &c->b->l[c->last];
	struct bs_run *r = &c->r;

	r->family = BS_FAM_SYSBENCH;
	if (parse_options(c) < 0 || parse_summary(c) < 0 ||
	    parse_histogram(c) < 0)
		return -1;
	bs_run_set(&r->tool, c->bstore ? "bstore" : "sysbench");
	bs_run_set(&r->tool_version, c->version[0] ? c->version : NULL);
	bs_run_set(&r->format,
		   c->layout == 4 ? BS_FMT_SYSBENCH_04 : BS_FMT_SYSBENCH_10);
	if (c->warn.len > 0)
		bs_run_set(&r->warning, bs_buf_str(&c->warn));
	/* The run's text ends at its last line: blank lines after it are
	 * not part of it, whatever follows. */
	free(r->raw);
	r->raw = xstrndup(l0->raw, (size_t)(ln->raw + ln->raw_len - l0->raw));
	return 0;
}

static int parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct pctx *c = xcalloc(1, sizeof(*c));
	struct toks tk;
	size_t i;
	int rc = 0;

	c->b = b;
	c->out = out;
	bs_run_init(&c->r);
	for (i = 0; i < b->n; i++) {
		enum kind k;

		if (b->l[i].len == 0)
			continue;
		c->last = i;
		k = classify(b->l[i].text, b->l[i].len, &tk);
		if (k == K_HEADER && i == 0)
			c->bstore = eq(&tk.t[0], "bstore");
		if (k == K_HEADER && i == 0)
			snprintf(c->version, sizeof(c->version), "%.*s",
				 (int)(tk.t[1].len -
				       (ends_with(&tk.t[1], ":") ? 1 : 0)),
				 tk.t[1].s);
		if (k != K_NONE && !c->at[k])
			c->at[k] = i + 1;
	}
	c->layout = pick_layout(c);
	if (!is_fileio(c))
		goto out; /* another test's, or a bare header */
	if (!has_summary(c)) {
		char q[QUOTE_MAX + 8];

		/* prepare and cleanup print no options block. */
		if (!c->at[K_DOING] && !c->at[K_OPTIONS])
			goto out;
		if (c->at[K_FATAL]) {
			const struct bs_bline *f = &b->l[c->at[K_FATAL] - 1];

			reject(c, c->at[K_FATAL] - 1, c->last,
			       "sysbench fileio run failed: '%s'",
			       bs_err_quote(q, sizeof(q), f->text, f->len,
					    QUOTE_MAX));
		} else {
			char other[VERSION_MAX + 64];

			reject(c, 0, c->last,
			       "sysbench fileio run without a summary%s",
			       other_layout(c, other, sizeof(other)));
		}
		rc = c->rc;
		goto out;
	}
	if (make_run(c) < 0) {
		rc = c->rc;
		goto out;
	}
	rc = out->run(out, &c->r, b->l[0].lineno);
out:
	bs_run_release(&c->r);
	bs_buf_release(&c->warn);
	free(c);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_sysbench_04_ops = {
	start_04,
	more,
	NULL,
	parse,
};

const struct bs_block_ops bs_sysbench_10_ops = {
	start_10,
	more,
	NULL,
	parse,
};
