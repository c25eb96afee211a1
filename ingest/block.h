/*
 * ingest/block.h - formats whose run spans several lines: text tables,
 * sysbench summaries, zcav curves, fio's JSON and text, dd's summary.
 *
 * A block format is a row of the registry (ingest/format.h) with block
 * ops instead of a line probe and parse. The driver (ingest/ingest.c)
 * offers every line no line format claims to the block formats' start()
 * in table order; the first that says yes opens a block. While a block is
 * open every line goes to its more() first, which says whether the line
 * belongs to the block. When the block ends, the driver hands the whole
 * block, its lines as read and as cleaned, to parse(), which gives runs
 * and rejects to the driver through struct bs_block_out. A line that
 * ended the block without belonging to it (BS_SCAN_END_BEFORE) is then
 * offered to the formats as any other line.
 *
 * A block is at most BS_BLOCK_MAX bytes; a longer one is rejected whole.
 */
#ifndef BS_INGEST_BLOCK_H
#define BS_INGEST_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

struct bs_fline;

#define BS_BLOCK_MAX (32 * 1024 * 1024)
/* Bytes of a format's scanning state (struct bs_block_ops.state). */
#define BS_BLOCK_STATE_MAX 256

/* What more() says of the next line. */
enum bs_scan {
	BS_SCAN_TAKE,       /* the line belongs to the block, which goes on */
	BS_SCAN_LAST,       /* the line belongs to the block and ends it */
	BS_SCAN_END_BEFORE, /* the block ended before this line */
};

/* One line of a block. */
struct bs_bline {
	const char *raw; /* as read, without "\r\n" */
	size_t raw_len;
	const char *text; /* cleaned: quote marks, list numbers, blanks
			     * cut (struct bs_fline); inside raw */
	size_t len;
	int64_t lineno; /* 1-based, in the input */
};

struct bs_block {
	const struct bs_bline *l;
	size_t n;        /* at least 1 */
	const char *raw; /* every line as read, joined by "\n" */
	size_t raw_len;
	/*
	 * Context, not part of the block: up to BS_BLOCK_BEFORE lines that
	 * no format claimed (text) just before it, oldest first, and none
	 * before the previous run or reject (a line's, or a block's):
	 * the lines of a block are never context; blank lines are
	 * left out, a line is cut to BS_BLOCK_BEFORE_LEN bytes, raw is
	 * text. A format may read what the words around its output say
	 * (dd's command line above its summary, with a date or a code fence
	 * between). The run's raw text stays the block's.
	 */
	const struct bs_bline *before;
	size_t nbefore;
};

#define BS_BLOCK_BEFORE 8
#define BS_BLOCK_BEFORE_LEN 2048

/* What parse() found the block to be (struct bs_block_out.verdict). */
enum bs_block_verdict {
	BS_BLOCK_MINE, /* this format's output: its runs and rejects */
	/* No output of this format (someone else's JSON): its lines
	 * count as skipped, not as recognised output that measures
	 * nothing. */
	BS_BLOCK_NOT_MINE,
};

/*
 * Where parse() gives its results (and note() what it could not use). run(): r is filled by the parser
 * (family, tool, format and values at least; r->raw may be left NULL,
 * then the run's raw text is the whole block, or set to the run's own
 * lines, e.g. one zcav pass). line is the input line the run is reported
 * at (its first). The driver sets the digest, source and parser version,
 * calls the caller's callback and releases r. reject(): the lines from
 * first to last of the block (indexes into b->l) look like the format but
 * do not parse; reason says why, without the file and line. Both return
 * <0 when the caller asked to stop: parse() then returns that at once.
 */
struct bs_block_out {
	int (*run)(struct bs_block_out *o, struct bs_run *r, int64_t line);
	int (*reject)(struct bs_block_out *o, size_t first, size_t last,
		      const char *reason);
	void *ctx;
	/* Output that gives no run, and why ("dd summary under several
	 * dd command lines ..."): a warning at the input line, no reject.
	 * May be NULL. */
	void (*note)(struct bs_block_out *o, int64_t line, const char *msg);
	/* Set by parse() (the driver starts it at BS_BLOCK_MINE). */
	enum bs_block_verdict verdict;
};

struct bs_block_ops {
	/* 1 when l opens a block of this format, 0 when not (a
	 * predicate); state (zeroed by the driver, BS_BLOCK_STATE_MAX
	 * bytes) is the format's to keep what more() needs. */
	int (*start)(const struct bs_fline *l, void *state);
	/* Whether l, the next line after the block so far, belongs. */
	enum bs_scan (*more)(const struct bs_fline *l, void *state);
	/* At the end of the input (no next line): 1 when the block as it
	 * stands is complete and is parsed, 0 when it is cut short and is
	 * rejected ("the input ends inside a fio JSON document"). NULL
	 * means always complete. */
	int (*complete)(const void *state);
	/* The block's runs and rejects, to out. Returns 0, or the -BS_E*
	 * code of out's callback that said stop (the driver holds its
	 * error). A block that turned out to be no output of this format
	 * sets out->verdict to BS_BLOCK_NOT_MINE and returns 0. The same
	 * bytes give the same runs, in the same order. */
	int (*parse)(const struct bs_block *b, struct bs_block_out *out);
};

#endif
