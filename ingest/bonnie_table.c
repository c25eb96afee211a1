/*
 * ingest/bonnie_table.c - bonnie++'s human-readable tables as a block
 * format (ingest/block.h): 1.0x (1.00-1.04), 1.9x (1.92b-1.97) and
 * 1.98-2.00a, as core/bonnie_text.c writes them and docs/formats.md
 * ("Ingest: bonnie++ text tables and Bonnie") describes.
 *
 * A block is one table: the "Version" line, the I/O and file sections
 * with their header lines, data rows and Latency rows, blank lines in
 * between (pasted text), and the CSV line bonnie++ prints right after it
 * when there is one. That CSV line is the run: it is parsed by the CSV
 * format and stored with itself as raw text, so that a captured output
 * stores exactly what its CSV line alone would. A table without its CSV
 * line is read cell by cell: each row is turned into a CSV line of the
 * matching layout and parsed by the CSV format, which so stays the one
 * home of what a cell may hold; this file then sets what only the table
 * says (the k/m/g rates of 1.98+, the format, the version, the name).
 *
 * Cells are found by column: after the 19-character name and size field
 * each test is " %5s %3s", 10 characters, right-aligned; a value wider
 * than its column pushes the rest of the row right. A blank cell is a
 * test that did not run.
 */
#include "ingest/bonnie_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/same.h"
#include "ingest/bonnie_csv.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

#define MAX_TOK 32  /* tokens kept of a line; rows have at most 14 */
#define MAX_ROWS 16 /* data rows per section of one table */
#define REASON 256

/* What a line of a table is. */
enum kind {
	K_BLANK,
	K_OTHER,
	K_VERSION_IO,   /* "Version 1.97 ------Sequential Output------" */
	K_VERSION_FILE, /* "Version 1.97 ------Sequential Create------" */
	K_CREATE,       /* "------Sequential Create------ ..." (1.0x) */
	K_COLS_IO,      /* "Machine  Size K/sec %CP", "Name:Size etc  /sec" */
	K_COLS_FILE,    /* "files  /sec %CP", "files:max:min  /sec %CP" */
	K_HEADER,       /* "-Per Chr- --Block--", "Concurrency 1", ... */
	K_LATENCY,      /* "Latency  21103us ..." */
	K_ROW,          /* a data row */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A word followed by a blank or the end: "Latency ", "Version". */
static int word(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w);

	return bs_text_starts(t, n, w) && (n == k || is_blank(t[k]));
}

static enum kind classify(const char *t, size_t n)
{
	struct bs_word tk[MAX_TOK];
	size_t nt, i;

	if (n == 0)
		return K_BLANK;
	if (word(t, n, "Version")) {
		if (!bs_text_has(t, n, "---"))
			return K_OTHER;
		if (bs_text_has(t, n, "Sequential Output"))
			return K_VERSION_IO;
		if (bs_text_has(t, n, "Sequential Create"))
			return K_VERSION_FILE;
		return K_OTHER;
	}
	/* Pasted over: "...........     ------Sequential Create------". */
	if (bs_text_has(t, n, "------Sequential Create------"))
		return K_CREATE;
	if ((word(t, n, "Machine") || bs_text_starts(t, n, "Name:Size")) &&
	    bs_text_has(t, n, "/sec"))
		return K_COLS_IO;
	if (bs_text_starts(t, n, "files") && bs_text_has(t, n, "/sec"))
		return K_COLS_FILE;
	if (bs_text_has(t, n, "-Per Chr-") || bs_text_has(t, n, "-Create--") ||
	    word(t, n, "Concurrency"))
		return K_HEADER;
	if (word(t, n, "Latency"))
		return K_LATENCY;
	/* A row: a name or spec, then cells that are numbers or "+++". */
	nt = bs_text_words(t, n, tk, MAX_TOK);
	if (nt < 3 || nt > MAX_TOK)
		return K_OTHER;
	for (i = 1; i < nt; i++)
		if (!is_digit(t[tk[i].s]) && t[tk[i].s] != '+')
			return K_OTHER;
	return K_ROW;
}

/* Is l a bonnie++ CSV line (any of the registry's CSV rows)? */
static int is_csv(const struct bs_fline *l)
{
	int i;

	for (i = 0; i < bs_nformats; i++)
		if (bs_formats[i].probe == bs_bonnie_csv_probe &&
		    bs_formats[i].probe(&bs_formats[i], l))
			return 1;
	return 0;
}

/* ---- scanning ---------------------------------------------------------- */

struct scan {
	int io, file; /* sections begun */
	int blanks;   /* blank lines in a row */
};

_Static_assert(sizeof(struct scan) <= BS_BLOCK_STATE_MAX, "scan state");

static void begin(struct scan *s, enum kind k)
{
	if (k == K_VERSION_IO)
		s->io = 1;
	else
		s->file = 1;
}

static int text_start(const struct bs_fline *l, void *state)
{
	enum kind k = classify(l->text, l->len);

	if (k != K_VERSION_IO && k != K_VERSION_FILE)
		return 0;
	begin(state, k);
	return 1;
}

static enum bs_scan text_more(const struct bs_fline *l, void *state)
{
	struct scan *s = state;
	enum kind k = classify(l->text, l->len);

	if (k == K_BLANK) {
		/* Pasted tables have blank lines between their lines. */
		return ++s->blanks > 2 ? BS_SCAN_END_BEFORE : BS_SCAN_TAKE;
	}
	s->blanks = 0;
	if (k == K_OTHER)
		return is_csv(l) ? BS_SCAN_LAST : BS_SCAN_END_BEFORE;
	/* Another table's first line; a 1.9x table repeats "Version" at
	 * its file section. */
	if ((k == K_VERSION_IO && (s->io || s->file)) ||
	    ((k == K_VERSION_FILE || k == K_CREATE) && s->file))
		return BS_SCAN_END_BEFORE;
	if (k == K_VERSION_IO || k == K_VERSION_FILE)
		begin(s, k);
	if (k == K_CREATE)
		s->file = 1;
	return BS_SCAN_TAKE;
}

/* ---- parsing ----------------------------------------------------------- */

enum layout { L_10X, L_9X, L_98 };

struct cell {
	const char *s;
	size_t len; /* 0: blank */
};

struct row {
	size_t line;     /* index in the block */
	size_t lat_line; /* its Latency row, or SIZE_MAX */
	struct cell name, label;
	struct cell c[12]; /* rate, cpu of each of the six tests */
	struct cell lat[6];
};

struct table {
	const struct bs_block *b;
	struct bs_block_out *out;
	size_t end; /* lines [0, end) are the table */
	char version[BS_INGEST_VERSION_MAX];
	enum layout lay;
	struct cell conc;      /* "Concurrency   1" (1.9x) */
	size_t col_base;       /* where the column header puts a row's
				     * label end; 0: not known */
	struct cell file_name; /* the file section's machine name */
	struct row io[MAX_ROWS], fl[MAX_ROWS];
	size_t nio, nfl;
	int *owner; /* per line: the run it is a row of, -1 */
	/* While the lines are read, rejects wait here, so that runs and
	 * rejects go out in the order of their lines. */
	int defer;
	struct pend {
		size_t first, last;
		char *why;
	} * pend;
	size_t npend, pend_cap;
};

/*
 * Places the tokens tk[0..ntk) of a row into ncell cells. Cell k is
 * right-aligned, width[k] wide, and ends end[k] characters after base
 * unless an earlier value overflowed its width and pushed it right.
 * Returns 0, or -1 when the tokens do not fit the columns (then, if there
 * is one token per cell, they are taken in order: nothing was blank).
 */
static int place(const char *t, const struct bs_word *tk, size_t ntk,
		 size_t base, size_t ncell, const int *end, const int *width,
		 struct cell *c)
{
	size_t k, i = 0, shift = 0;

	for (k = 0; k < ncell; k++) {
		size_t len, over, want;

		c[k].s = NULL;
		c[k].len = 0;
		if (i == ntk)
			continue;
		len = tk[i].e - tk[i].s;
		over = len > (size_t)width[k] ? len - (size_t)width[k] : 0;
		want = base + (size_t)end[k] + shift + over;
		if (tk[i].e > want)
			continue;
		if (tk[i].e < want)
			break;
		c[k].s = t + tk[i].s;
		c[k].len = len;
		shift += over;
		i++;
	}
	if (k == ncell && i == ntk)
		return 0;
	if (ntk != ncell)
		return -1;
	for (k = 0; k < ncell; k++) {
		c[k].s = t + tk[k].s;
		c[k].len = tk[k].e - tk[k].s;
	}
	return 0;
}

static const int row_end[12] = {6, 10, 16, 20, 26, 30, 36, 40, 46, 50, 56, 60};
static const int row_width[12] = {5, 3, 5, 3, 5, 3, 5, 3, 5, 3, 5, 3};
static const int lat_end[6] = {20, 30, 40, 50, 60, 70};
static const int lat_width[6] = {9, 9, 9, 9, 9, 9};

/*
 * "63G", "2G:64k", "64M:4k:2:1000": a size label; with bare, "300" too
 * (1.00-1.00b print MiB without a unit), which could also be a rate.
 */
static int size_label(const char *s, size_t n, int bare)
{
	char c = s[n - 1];

	return is_digit(s[0]) && (memchr(s, ':', n) || c == 'M' || c == 'G' ||
				  c == 'T' || (bare && is_digit(c)));
}

static int reject(struct table *T, size_t first, size_t last, const char *fmt,
		  ...) BS_PRINTF(4, 5);
static int reject(struct table *T, size_t first, size_t last, const char *fmt,
		  ...)
{
	char why[REASON];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (T->defer) {
		xgrow((void **)&T->pend, &T->pend_cap, T->npend + 1,
		      sizeof(*T->pend));
		T->pend[T->npend].first = first;
		T->pend[T->npend].last = last;
		T->pend[T->npend].why = xstrdup(why);
		T->npend++;
		return 0;
	}
	return T->out->reject(T->out, first, last, why);
}

/* Reads a data row of section io (1) or file (0) at line i. Returns 0,
 * 1 when the row was rejected, or <0 (stop). */
static int read_row(struct table *T, size_t i, int io, struct row *R)
{
	const struct bs_bline *l = &T->b->l[i];
	struct bs_word tk[MAX_TOK];
	size_t nt = bs_text_words(l->text, l->len, tk, MAX_TOK), first;
	int rc;

	memset(R, 0, sizeof(*R));
	R->line = i;
	R->lat_line = SIZE_MAX;
	first = 1;
	/* bonnie++ allows an empty name (-m ''): the row then starts with
	 * its size, and a rate follows. */
	if (io && nt >= 3 &&
	    !(size_label(l->text + tk[0].s, tk[0].e - tk[0].s, 1) &&
	      !size_label(l->text + tk[1].s, tk[1].e - tk[1].s, 0))) {
		R->name.s = l->text + tk[0].s;
		R->name.len = tk[0].e - tk[0].s;
		first = 2;
	}
	R->label.s = l->text + tk[first - 1].s;
	R->label.len = tk[first - 1].e - tk[first - 1].s;
	if (place(l->text, tk + first, nt - first, tk[first - 1].e, 12, row_end,
		  row_width, R->c) == 0)
		return 0;
	/* A label shorter than its column ("64G:4k::65536" with no name
	 * before it) leaves the cells where the column header has them. */
	if (io && T->col_base > tk[first - 1].e &&
	    place(l->text, tk + first, nt - first, T->col_base, 12, row_end,
		  row_width, R->c) == 0)
		return 0;
	rc = reject(T, i, i,
		    "bonnie++ %s text table: the cells of this row do not "
		    "line up with the columns",
		    T->version);
	return rc < 0 ? rc : 1;
}

static int read_latency(struct table *T, size_t i, struct row *R)
{
	const struct bs_bline *l = &T->b->l[i];
	struct bs_word tk[MAX_TOK];
	size_t nt = bs_text_words(l->text, l->len, tk, MAX_TOK);

	if (nt > 7 || place(l->text, tk + 1, nt - 1, tk[0].e, 6, lat_end,
			    lat_width, R->lat) < 0)
		return reject(T, i, i,
			      "bonnie++ %s text table: the cells of this "
			      "Latency row do not line up with the columns",
			      T->version);
	R->lat_line = i;
	return 0;
}

/* The I/O column header "Machine  Size K/sec %CP ...", "Name:Size etc
 * /sec %CP ...": a row's label ends where its first rate column starts. */
static void col_base(struct table *T, const struct bs_bline *l)
{
	struct bs_word tk[MAX_TOK];
	size_t nt = bs_text_words(l->text, l->len, tk, MAX_TOK), i;

	for (i = 1; i < nt; i++)
		if (tk[i].e - tk[i].s >= 4 &&
		    memcmp(l->text + tk[i].e - 4, "/sec", 4) == 0) {
			if (tk[i].e > (size_t)row_end[0])
				T->col_base = tk[i].e - (size_t)row_end[0];
			return;
		}
}

/* The file section's second header line: "nfs-worker1   -Create-- ...". */
static void file_name(struct table *T, const struct bs_bline *l)
{
	const char *p = l->text, *e = l->text + l->len, *c;

	for (c = p; c + 9 <= e; c++)
		if (memcmp(c, "-Create--", 9) == 0)
			break;
	if (c + 9 > e || c == p)
		return;
	while (c > p && is_blank(c[-1]))
		c--;
	T->file_name.s = p;
	T->file_name.len = (size_t)(c - p);
}

/* Walks the table's lines into rows. Returns 0 or <0 (stop). */
static int read_table(struct table *T)
{
	const struct bs_block *b = T->b;
	struct row *last = NULL;
	int section = -1; /* 1 io, 0 file */
	size_t i;
	int rc;

	for (i = 0; i < T->end; i++) {
		const struct bs_bline *l = &b->l[i];
		enum kind k = classify(l->text, l->len);
		struct bs_word tk[3];
		size_t nt;

		switch (k) {
		case K_COLS_IO:
			col_base(T, l);
			section = 1;
			break;
		case K_VERSION_IO:
			section = 1;
			break;
		case K_VERSION_FILE:
		case K_CREATE:
		case K_COLS_FILE:
			section = 0;
			break;
		case K_HEADER:
			if (word(l->text, l->len, "Concurrency")) {
				nt = bs_text_words(l->text, l->len, tk, 3);
				if (nt >= 2) {
					T->conc.s = l->text + tk[1].s;
					T->conc.len = tk[1].e - tk[1].s;
				}
			} else if (section == 0) {
				file_name(T, l);
			}
			break;
		case K_LATENCY:
			if (last == NULL || last->lat_line != SIZE_MAX) {
				rc = reject(T, i, i,
					    "bonnie++ %s text table: a Latency "
					    "row without its row of results",
					    T->version);
				if (rc < 0)
					return rc;
				break;
			}
			if ((rc = read_latency(T, i, last)) < 0)
				return rc;
			break;
		case K_ROW: {
			struct row *R;

			if (section < 0)
				section = 1;
			if ((section ? T->nio : T->nfl) == MAX_ROWS) {
				rc = reject(T, i, i,
					    "bonnie++ %s text table with more "
					    "than %d rows in a section",
					    T->version, MAX_ROWS);
				if (rc < 0)
					return rc;
				break;
			}
			R = section ? &T->io[T->nio] : &T->fl[T->nfl];
			rc = read_row(T, i, section, R);
			if (rc < 0)
				return rc;
			if (rc == 0 && R->label.len > 0) {
				if (section)
					T->nio++;
				else
					T->nfl++;
				last = R;
			}
			break;
		}
		default:
			break;
		}
	}
	return 0;
}

static void add_cell(struct bs_buf *o, const struct cell *c)
{
	bs_buf_addc(o, ',');
	if (c && c->len)
		bs_buf_add(o, c->s, c->len);
}

static void add_str(struct bs_buf *o, const char *s)
{
	bs_buf_addc(o, ',');
	bs_buf_adds(o, s);
}

/* Splits s at c into at most n parts; returns the count. */
static size_t split(const struct cell *s, char c, struct cell *part, size_t n)
{
	const char *p = s->s, *e = s->s + s->len;
	size_t k = 0;

	while (k < n) {
		const char *q = memchr(p, c, (size_t)(e - p));

		part[k].s = p;
		part[k].len = (size_t)((q ? q : e) - p);
		k++;
		if (q == NULL)
			break;
		p = q + 1;
	}
	return k;
}

/*
 * A rate of 1.98+: "545k" (KiB/s), "50.6m" (MiB/s), "1.1g" (GiB/s), or a
 * plain number. Returns 1 for a suffixed value (in *kib), 0 for another
 * cell, -1 for a suffix on something that is not a number.
 */
static int kmg(const struct cell *c, double *kib)
{
	double mult, v;

	if (c->len < 2)
		return 0;
	switch (c->s[c->len - 1]) {
	case 'k':
		mult = 1;
		break;
	case 'm':
		mult = 1024;
		break;
	case 'g':
		mult = 1024.0 * 1024;
		break;
	default:
		return 0;
	}
	if (bs_parse_double(c->s, c->len - 1, &v) < 0 || c->s[0] == '-')
		return -1;
	*kib = v * mult;
	return 1;
}

/* The files spec "16:100000:16/64" as the 1.9x+ CSV fields
 * num,max,min,chunk,dirs. */
static void add_files_9x(struct bs_buf *o, const struct cell *spec)
{
	struct cell s = *spec, part[3] = {{NULL, 0}, {NULL, 0}, {NULL, 0}};
	struct cell dirs = {NULL, 0};
	const char *slash = s.len ? memchr(s.s, '/', s.len) : NULL;

	if (slash) {
		dirs.s = slash + 1;
		dirs.len = s.len - (size_t)(slash - s.s) - 1;
		s.len = (size_t)(slash - s.s);
	}
	if (s.len)
		split(&s, ':', part, 3);
	add_cell(o, &part[0]);
	add_cell(o, &part[1]);
	add_cell(o, &part[2]);
	add_cell(o, NULL);
	add_cell(o, &dirs);
}

/* What a table run needs besides its CSV line. */
struct fix {
	double kib[5]; /* suffixed rates, NAN where none */
	int dropped;   /* 1.98+ file rates left out */
};

/* The cells of a row (NULL: section absent) into the line. */
static int add_results(struct table *T, const struct row *R, int io,
		       struct bs_buf *o, struct fix *fx)
{
	int k;

	for (k = 0; k < 12; k++) {
		const struct cell *c = R ? &R->c[k] : NULL;
		int test = k / 2;
		double kib;
		int rc;

		if (c == NULL || c->len == 0 || k % 2 == 1) {
			add_cell(o, c);
			continue;
		}
		if (T->lay != L_98 || c->s[0] == '+') {
			add_cell(o, c);
			continue;
		}
		if (!io) {
			/* 1.98-2.00a print a wrong number for the file
			 * tests (docs/formats.md): the cell and its %CP are
			 * left out. */
			fx->dropped = 1;
			add_cell(o, NULL);
			add_cell(o, NULL);
			k++;
			continue;
		}
		rc = test < 5 ? kmg(c, &kib) : 0;
		if (rc < 0)
			return -1;
		if (rc == 1) {
			fx->kib[test] = kib;
			add_str(o, "0");
		} else {
			add_cell(o, c);
		}
	}
	return 0;
}

static void add_latencies(const struct row *R, struct bs_buf *o)
{
	int k;

	for (k = 0; k < 6; k++)
		add_cell(o, R && R->lat_line != SIZE_MAX ? &R->lat[k] : NULL);
}

/* Run i of the table as a CSV line of its layout's family. */
static int make_line(struct table *T, const struct row *io,
		     const struct row *fl, struct bs_buf *o, struct fix *fx)
{
	struct cell part[5] = {{NULL, 0},
			       {NULL, 0},
			       {NULL, 0},
			       {NULL, 0},
			       {NULL, 0}};
	const struct cell *spec = fl ? &fl->label : NULL;

	/* The name is set afterwards: it may hold commas. */
	switch (T->lay) {
	case L_10X:
		bs_buf_adds(o, "x");
		add_cell(o, io ? &io->label : NULL);
		break;
	case L_9X:
		bs_buf_adds(o, "1.97,1.97,x");
		add_cell(o, &T->conc);
		add_cell(o, NULL);
		if (io)
			split(&io->label, ':', part, 2);
		add_cell(o, &part[0]);
		add_cell(o, &part[1]);
		break;
	case L_98:
		bs_buf_adds(o, "1.98,2.00a,x");
		if (io)
			split(&io->label, ':', part, 5);
		add_cell(o, &part[2]);
		add_cell(o, NULL);
		add_cell(o, &part[0]);
		add_cell(o, &part[1]);
		add_cell(o, &part[3]);
		add_cell(o, &part[4]);
		break;
	}
	if (add_results(T, io, 1, o, fx) < 0)
		return -1;
	if (T->lay == L_10X)
		add_cell(o, spec);
	else if (spec)
		add_files_9x(o, spec);
	else
		bs_buf_adds(o, ",,,,,");
	if (add_results(T, fl, 0, o, fx) < 0)
		return -1;
	if (T->lay != L_10X) {
		add_latencies(io, o);
		add_latencies(fl, o);
	}
	return 0;
}

static const char *const layout_csv[] = {
	[L_10X] = BS_FMT_CSV_1_0X,
	[L_9X] = BS_FMT_CSV_1_97,
	[L_98] = BS_FMT_CSV_1_98,
};
static const char *const layout_fmt[] = {
	[L_10X] = BS_FMT_TEXT_1_0X,
	[L_9X] = BS_FMT_TEXT_1_9X,
	[L_98] = BS_FMT_TEXT_1_98,
};

/* The lines of run n: the table's other lines and its own rows. */
static char *run_raw(const struct table *T, int n)
{
	struct bs_buf o = BS_BUF_INIT;
	size_t i;

	for (i = 0; i < T->end; i++) {
		const struct bs_bline *l = &T->b->l[i];

		if (l->len == 0 || (T->owner[i] >= 0 && T->owner[i] != n))
			continue;
		if (o.len)
			bs_buf_addc(&o, '\n');
		bs_buf_add(&o, l->raw, l->raw_len);
	}
	return bs_buf_detach(&o, NULL);
}

static int cell_comma(const struct cell *c)
{
	return c->len && memchr(c->s, ',', c->len) != NULL;
}

/* Does a cell of row R hold a ',' (which would shift the CSV line)? */
static int row_comma(const struct row *R)
{
	int k;

	if (R == NULL)
		return 0;
	if (cell_comma(&R->label))
		return 1;
	for (k = 0; k < 12; k++)
		if (cell_comma(&R->c[k]))
			return 1;
	for (k = 0; k < 6; k++)
		if (cell_comma(&R->lat[k]))
			return 1;
	return 0;
}

/* Gives run n of the table: the I/O row io and the file row fl, either
 * may be NULL. */
static int table_run(struct table *T, int n, const struct row *io,
		     const struct row *fl)
{
	const struct bs_format *f = bs_format_find(layout_csv[T->lay]);
	size_t first = io ? io->line : fl->line;
	size_t last = fl ? fl->line : io->line;
	struct bs_buf line = BS_BUF_INIT;
	struct fix fx = {{NAN, NAN, NAN, NAN, NAN}, 0};
	struct bs_fline *fl_line = xmalloc(sizeof(*fl_line));
	char why[REASON + 64];
	struct bs_err e = BS_ERR_INIT;
	struct bs_run r;
	int rc, m;

	if (fl && fl->lat_line != SIZE_MAX)
		last = fl->lat_line;
	else if (!fl && io->lat_line != SIZE_MAX)
		last = io->lat_line;
	/* The rows may come in any order in a mangled paste (the file
	 * row above the I/O row): the span runs from the first to the
	 * last of them. */
	if (first > last) {
		size_t t = first;

		first = last;
		last = t;
	}
	bs_run_init(&r);
	if (row_comma(io) || row_comma(fl) || cell_comma(&T->conc)) {
		rc = reject(T, first, last,
			    "bonnie++ %s text table: a cell holds a ','",
			    T->version);
		goto out;
	}
	if (make_line(T, io, fl, &line, &fx) < 0) {
		rc = reject(T, first, last,
			    "bonnie++ %s text table: a rate is not a number "
			    "with k, m or g",
			    T->version);
		goto out;
	}
	bs_fline_make(line.data, line.len, T->lay == L_10X ? T->version : NULL,
		      fl_line);
	rc = f->parse(f, fl_line, &r, &e);
	if (rc < 0) {
		snprintf(why, sizeof(why), "bonnie++ %s text table: %.*s",
			 T->version, REASON - 1, e.msg);
		rc = T->out->reject(T->out, first, last, why);
		goto out;
	}
	for (m = 0; m < 5; m++) {
		if (isnan(fx.kib[m]))
			continue;
		if (!bs_metric_fits(m, BS_PART_VALUE, fx.kib[m])) {
			rc = reject(T, first, last,
				    "bonnie++ %s text table: %s is beyond any "
				    "disk",
				    T->version, bs_metrics[m].key);
			goto out;
		}
		r.res[m].value = fx.kib[m];
	}
	bs_run_set(&r.format, layout_fmt[T->lay]);
	bs_run_set(&r.tool_version, T->version);
	free(r.machine);
	if (io && io->name.len)
		r.machine = xstrndup(io->name.s, io->name.len);
	else if (T->file_name.len)
		r.machine = xstrndup(T->file_name.s, T->file_name.len);
	else
		r.machine = xstrdup("");
	/* bonnie++ cuts the name to fit beside the size; the file section
	 * may show more of it. */
	if (io && io->name.len && T->file_name.len > io->name.len &&
	    memcmp(T->file_name.s, io->name.s, io->name.len) == 0) {
		free(r.machine);
		r.machine = xstrndup(T->file_name.s, T->file_name.len);
	}
	if (fx.dropped) {
		snprintf(why, sizeof(why),
			 "bonnie++ %s text table: the file-test rates are not "
			 "stored (1.98-2.00a print a wrong number there; the "
			 "CSV line has them)",
			 T->version);
		bs_run_set(&r.warning, why);
	}
	r.raw = run_raw(T, n);
	rc = T->out->run(T->out, &r, T->b->l[first].lineno);
out:
	bs_run_release(&r);
	bs_buf_release(&line);
	free(fl_line);
	return rc;
}

/* Version of the first line: "Version  1.97 ---..." -> "1.97". */
static void table_version(struct table *T)
{
	const struct bs_bline *l = &T->b->l[0];
	struct bs_word tk[2];
	size_t n = bs_text_words(l->text, l->len, tk, 2), len;

	snprintf(T->version, sizeof(T->version), "?");
	if (n < 2)
		return;
	len = tk[1].e - tk[1].s;
	if (len >= sizeof(T->version))
		len = sizeof(T->version) - 1;
	memcpy(T->version, l->text + tk[1].s, len);
	T->version[len] = '\0';
}

static enum layout pick_layout(const struct table *T)
{
	const char *v = T->version;
	size_t i;

	for (i = 0; i < T->end; i++)
		if (bs_text_starts(T->b->l[i].text, T->b->l[i].len,
				   "Name:Size"))
			return L_98;
	switch (bs_bonnie_era(v)) {
	case BS_ERA_1_0X:
		return L_10X;
	case BS_ERA_1_9X:
		return L_9X;
	case BS_ERA_1_98:
		return L_98;
	default:
		break;
	}
	for (i = 0; i < T->end; i++)
		if (word(T->b->l[i].text, T->b->l[i].len, "Concurrency") ||
		    word(T->b->l[i].text, T->b->l[i].len, "Latency"))
			return L_9X;
	return L_10X;
}

/* Keeps the run a table gives instead of passing it on. */
struct catch
{
	struct bs_block_out out;
	struct bs_run r;
	int64_t line;
	int got;
};

static int catch_run(struct bs_block_out *o, struct bs_run *r, int64_t line)
{
	struct catch *c = (struct catch *)o;

	bs_run_release(&c->r);
	c->r = *r;
	bs_run_init(r);
	c->line = line;
	c->got = 1;
	return 0;
}

/*
 * The CSV line after the table, parsed as the CSV formats do. It is the
 * table's own when it is the same measurement (bs_run_same()):
 * then the table's last run is that line's. Several bonnie++ processes
 * appending to one file print their tables first and their CSV lines
 * after: a table followed by another's line gives its own run and the
 * line its own (the input then matches each line to its table).
 */
/* Fields a cut CSV line is padded to at most (a 1.9x line has 48). */
#define CUT_PAD_MAX 64

/*
 * Whether the CSV line l, which does not parse, is a line cut short in
 * the paste ("uNAS,4G,19202,60,24433,20,"; ending at a field's end) of
 * the table's run t: padded with empty fields to its layout's count it
 * parses, and with the fields the cut took (its not_run metrics) as the
 * table shows them it is the same measurement (bs_run_same()). Fills
 * *nf with the fields the line has.
 */
static int cut_line_of(const struct table *T, const struct bs_bline *l,
		       const struct bs_run *t, int *nf)
{
	struct bs_buf pad = BS_BUF_INIT;
	struct bs_run r;
	int i, m, same = 0, rc = 0;

	*nf = 1;
	for (i = 0; i < (int)l->raw_len; i++)
		*nf += l->raw[i] == ',';
	bs_buf_add(&pad, l->raw, l->raw_len);
	bs_run_init(&r);
	for (i = *nf; i < CUT_PAD_MAX && rc != 1; i++) {
		bs_buf_addc(&pad, ',');
		bs_run_release(&r);
		rc = bs_ingest_parse_line(pad.data, pad.len,
					  T->lay == L_10X ? T->version : NULL,
					  &r, NULL);
	}
	if (rc == 1) {
		for (m = 0; m < bs_nmetrics; m++)
			if (bs_metrics[m].family == r.family &&
			    r.res[m].status == BS_ST_NOT_RUN)
				r.res[m] = t->res[m];
		same = bs_run_same(t, &r);
	}
	bs_run_release(&r);
	bs_buf_release(&pad);
	return same;
}

static int csv_run(struct table *T, size_t ci, size_t last)
{
	const struct bs_bline *l = &T->b->l[ci];
	struct bs_err e = BS_ERR_INIT;
	char reason[REASON];
	struct bs_run r;
	int rc;

	bs_run_init(&r);
	rc = bs_ingest_parse_line(l->raw, l->raw_len,
				  T->lay == L_10X ? T->version : NULL, &r, &e);
	snprintf(reason, sizeof(reason), "%.*s", REASON - 1, e.msg);
	if (rc <= 0) {
		/* A line cut short in the paste ("uNAS,4G,19202,60,"): the
		 * table is still the run; the line, when what it has agrees
		 * with the table, is its other print (a warning), else a
		 * reject. */
		struct catch c;
		struct bs_block_out *real = T->out;
		char msg[2 * REASON];
		int nf, cut = 0;

		if (rc == 0)
			snprintf(reason, sizeof(reason),
				 "not a bonnie++ CSV line");
		bs_run_release(&r);
		if (last == SIZE_MAX)
			return T->out->reject(T->out, ci, ci, reason);
		memset(&c, 0, sizeof(c));
		c.out = *real;
		c.out.run = catch_run;
		bs_run_init(&c.r);
		T->out = &c.out;
		rc = table_run(T, (int)last,
			       last < T->nio ? &T->io[last] : NULL,
			       last < T->nfl ? &T->fl[last] : NULL);
		T->out = real;
		if (rc >= 0 && c.got) {
			cut = real->note && cut_line_of(T, l, &c.r, &nf);
			rc = real->run(real, &c.r, c.line);
		}
		bs_run_release(&c.r);
		if (rc < 0)
			return rc;
		if (!cut)
			return T->out->reject(T->out, ci, ci, reason);
		snprintf(msg, sizeof(msg),
			 "the same measurement as line %lld (bonnie++-text), "
			 "its CSV line cut short (%d fields): stored once, "
			 "from the table",
			 (long long)c.line, nf);
		real->note(real, l->lineno, msg);
		return 0;
	}
	if (last != SIZE_MAX) {
		struct catch c;
		struct bs_block_out *real = T->out;

		memset(&c, 0, sizeof(c));
		c.out = *real;
		c.out.run = catch_run;
		bs_run_init(&c.r);
		T->out = &c.out;
		rc = table_run(T, (int)last,
			       last < T->nio ? &T->io[last] : NULL,
			       last < T->nfl ? &T->fl[last] : NULL);
		T->out = real;
		if (rc >= 0 && c.got && !bs_run_same(&c.r, &r))
			rc = real->run(real, &c.r, c.line);
		bs_run_release(&c.r);
		if (rc < 0) {
			bs_run_release(&r);
			return rc;
		}
	}
	/* Exactly what the line alone stores: its text, its number. */
	r.raw = xstrndup(l->raw, l->raw_len);
	rc = T->out->run(T->out, &r, l->lineno);
	bs_run_release(&r);
	return rc;
}

/* Something parse() gives out, at line key of the block. */
struct act {
	size_t key;
	enum { ACT_REJECT, ACT_RUN, ACT_CSV, ACT_NO_ROW } kind;
	size_t i; /* the reject or the run */
};

static int act_cmp(const void *a, const void *b)
{
	const struct act *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

static int text_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct table *T = xcalloc(1, sizeof(*T));
	struct bs_fline *fl = xmalloc(sizeof(*fl));
	struct act *acts = NULL;
	size_t i, nrun, nact = 0, ci = SIZE_MAX;
	int rc = 0;

	T->b = b;
	T->out = out;
	T->end = b->n;
	while (T->end > 1 && b->l[T->end - 1].len == 0)
		T->end--;
	if (T->end > 1 &&
	    bs_fline_make(b->l[T->end - 1].raw, b->l[T->end - 1].raw_len, NULL,
			  fl) &&
	    classify(fl->text, fl->len) == K_OTHER && is_csv(fl)) {
		ci = T->end - 1;
		T->end = ci;
	}
	table_version(T);
	T->lay = pick_layout(T);
	T->owner = xmalloc(T->end * sizeof(*T->owner) + 1);
	for (i = 0; i < T->end; i++)
		T->owner[i] = -1;
	T->defer = 1;
	rc = read_table(T);
	T->defer = 0;
	if (rc < 0)
		goto out;
	nrun = T->nio > T->nfl ? T->nio : T->nfl;
	for (i = 0; i < nrun; i++) {
		const struct row *rows[2] = {
			i < T->nio ? &T->io[i] : NULL,
			i < T->nfl ? &T->fl[i] : NULL,
		};
		int k;

		for (k = 0; k < 2; k++) {
			if (rows[k] == NULL)
				continue;
			T->owner[rows[k]->line] = (int)i;
			if (rows[k]->lat_line != SIZE_MAX)
				T->owner[rows[k]->lat_line] = (int)i;
		}
	}
	/* What goes out, by line: the waiting rejects, the runs (at their
	 * first row), the CSV line. With its CSV line, the table's (last)
	 * run is that line's. */
	acts = xcalloc(T->npend + nrun + 2, sizeof(*acts));
	for (i = 0; i < T->npend; i++)
		acts[nact++] = (struct act){T->pend[i].first, ACT_REJECT, i};
	for (i = 0; i < nrun; i++) {
		if (ci != SIZE_MAX && i + 1 == nrun)
			break;
		acts[nact++] =
			(struct act){i < T->nio ? T->io[i].line : T->fl[i].line,
				     ACT_RUN, i};
	}
	if (ci != SIZE_MAX)
		acts[nact++] = (struct act){ci, ACT_CSV, 0};
	else if (nrun == 0 && T->npend == 0)
		acts[nact++] = (struct act){0, ACT_NO_ROW, 0};
	qsort(acts, nact, sizeof(*acts), act_cmp);
	for (i = 0; i < nact && rc >= 0; i++) {
		size_t k = acts[i].i;

		switch (acts[i].kind) {
		case ACT_REJECT:
			rc = T->out->reject(T->out, T->pend[k].first,
					    T->pend[k].last, T->pend[k].why);
			break;
		case ACT_RUN:
			rc = table_run(T, (int)k, k < T->nio ? &T->io[k] : NULL,
				       k < T->nfl ? &T->fl[k] : NULL);
			break;
		case ACT_CSV:
			rc = csv_run(T, ci, nrun > 0 ? nrun - 1 : SIZE_MAX);
			break;
		case ACT_NO_ROW:
			rc = reject(T, 0, T->end - 1,
				    "bonnie++ %s text table without a row of "
				    "results",
				    T->version);
			break;
		}
	}
out:
	for (i = 0; i < T->npend; i++)
		free(T->pend[i].why);
	free(T->pend);
	free(acts);
	free(T->owner);
	free(T);
	free(fl);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_bonnie_text_ops = {
	.start = text_start,
	.more = text_more,
	.complete = NULL,
	.parse = text_parse,
};
