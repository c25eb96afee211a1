/*
 * store/selector.h - the selector language of store/store.h, parsed: one
 * selector string becomes a list of terms, with no SQL and no SQLite.
 * store/select.c turns the terms into a query; the unit tests and the
 * fuzz target use the parser alone.
 *
 * Escapes are undone over the whole selector before it is cut into terms
 * at the remaining ',': '\,' is a ',', '\|' a '|' and '\\' a '\' (in a
 * key as in a value), any other '\' is itself. Blanks that start a term
 * are dropped ("raid=10, cache=on", as labels print). A term is then, in
 * this order:
 *   empty                      an error
 *   KEY OP VALUE               when the term holds one of the characters
 *                              = ! ~ < >: KEY is what comes before the
 *                              first of them, OP the first row of
 *                              bs_sel_ops that starts there. The KEY's
 *                              type (bs_sel_fields; else a parameter key
 *                              of a family, core/param.h: text or
 *                              ordered; else a tag: text) must be among
 *                              the row's types. VALUE may be empty or
 *                              hold more of those characters; each '|'
 *                              in it separates alternatives, each one
 *                              term of one clause (below).
 *                              id: an id or a range as below, which must
 *                              start with a digit (ID, RANGE); date: a
 *                              date (FIELD with lo, hi); another run
 *                              field: FIELD; a parameter key: PARAM,
 *                              whose value an ordered operator takes
 *                              only as a number or a size; anything
 *                              else: TAG. A text VALUE is a pattern of
 *                              SQLite's GLOB.
 *   all, last, last:N (N >= 1) ALL, LAST
 *   A|B|...                    alternatives, each an id or a range: one
 *                              clause (21|25-26 is id=21|25-26)
 *   A-B (first '-' after the first character), 1 <= A <= B: RANGE
 *   N >= 1                     ID
 * A clause is the terms of one KEY OP A|B|C, in order (or_next set on all
 * but the last): with != or !~ it selects the runs that = or ~ selects
 * for no alternative (raid!=5|10: neither), with another operator those
 * any alternative selects. Every other term is a clause of one.
 * Numbers are those of bs_parse_i64() (an optional sign, decimal digits,
 * no overflow). A date is YYYY, YYYY-MM, or what bs_time_parse() reads
 * (YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]', 'T' for ' ', a final 'Z',
 * @UNIXTIME): the interval of seconds it spans, in UTC.
 */
#ifndef BS_STORE_SELECTOR_H
#define BS_STORE_SELECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

/*
 * A selector has at most this many terms; more fail with "selector has
 * too many terms" (unless one of the first 64 is bad: the first error
 * wins). Selectors are typed by hand. The limit keeps the query
 * select.c builds (at most two bound values a term, and one for last:N;
 * one AND a term) within SQLite's smallest limits: 999 bound values before
 * SQLite 3.32, an expression depth of 1000.
 */
#define BS_SEL_MAX_TERMS 64

/*
 * A run field that a key=value term reads from the run itself rather than
 * from its tags. bs_store_check_tag() refuses these keys as tag keys, so
 * that every tag can be selected.
 */
enum bs_sel_type {
	BS_SEL_TEXT = 1,  /* a GLOB pattern: machine=box*, raid=10 */
	BS_SEL_IDS = 2,   /* an id or a range: id=12-15 */
	BS_SEL_DATE = 4,  /* a year, month, day, minute or second: date=2004 */
	BS_SEL_ORDER = 8, /* a parameter key: a number or a size too,
	                   * iodepth>=16 */
};

struct bs_sel_field {
	const char *key; /* as written in a selector: "version" */
	/* Of the table runs: "tool_version"; NULL for impl, which the
	 * store reads from the run's test identity (core/identity.h). */
	const char *column;
	enum bs_sel_type type; /* what its value is; a tag's is text */
};
extern const struct bs_sel_field bs_sel_fields[];
extern const size_t bs_sel_nfields;

/* The field named by the len bytes at key, or NULL (a tag key). */
const struct bs_sel_field *bs_sel_field(const char *key, size_t len);

/*
 * The same as a column name, or NULL: the run column that a term with
 * this key compares ("id" for id; impl has none). Declared in store/internal.h as well,
 * for store/write.c.
 */
const char *bs_store_run_column(const char *key, size_t len);

/*
 * How a term compares. Ids and dates stand for an interval [lo, hi]:
 * = is inside it, < before it, <= before its end, > after it, >= from
 * its start. Text is a GLOB pattern, ~ the same with ASCII case ignored.
 * != and !~ select every run that = and ~ do not: runs without the tag,
 * or without a date, included.
 */
enum bs_sel_op {
	BS_OP_EQ = 1, /* = */
	BS_OP_NE,     /* != */
	BS_OP_IEQ,    /* ~ */
	BS_OP_INE,    /* !~ */
	BS_OP_LT,     /* < */
	BS_OP_LE,     /* <= */
	BS_OP_GT,     /* > */
	BS_OP_GE,     /* >= */
};

/* One row an operator, longest spelling first: the parser walks it. */
struct bs_sel_op_info {
	const char *text; /* as written: "!=" */
	enum bs_sel_op op;
	unsigned types;   /* the bs_sel_type values it compares */
	const char *help; /* for --help: "not equal (the complement of =)" */
};
extern const struct bs_sel_op_info bs_sel_ops[];
extern const size_t bs_sel_nops;

/* The row of op. */
const struct bs_sel_op_info *bs_sel_op(enum bs_sel_op op);

/* The characters that start an operator: a key holds none of them. */
#define BS_SEL_OP_CHARS "=!~<>"

enum bs_sel_kind {
	BS_SEL_ID = 1, /* 12, id=12, id<12: op, lo (= hi) */
	BS_SEL_RANGE,  /* 12-15, id!=12-15: op, lo to hi, 1 <= lo <= hi */
	BS_SEL_LAST,   /* last (n = 1), last:N: the n newest runs */
	BS_SEL_ALL,    /* all */
	BS_SEL_FIELD,  /* machine=jump: field, op, key, value; for a date
	                * field (date>=2024) also lo to hi, in unix seconds */
	BS_SEL_TAG,    /* raid=5: op, key, value */
	/* mode=rndrw, bs=4k, iodepth>=16: op, key, value. A run's tag of
	 * the key decides when it has one (as --by reads it), else the
	 * parameter of that key of its family, both sides normalised as
	 * its test identity reads them (core/identity.h); a run with
	 * neither matches only != and !~. An ordered operator compares
	 * the parameter only. */
	BS_SEL_PARAM,
};

struct bs_sel_term {
	enum bs_sel_kind kind;
	enum bs_sel_op op;                /* ID, RANGE, FIELD, TAG */
	int64_t lo, hi;                   /* ID, RANGE, a date FIELD */
	int64_t n;                        /* LAST */
	const struct bs_sel_field *field; /* FIELD: a row of bs_sel_fields */
	const char *key;                  /* FIELD, TAG: unescaped, not empty */
	const char *value;                /* FIELD, TAG: unescaped, may be "" */
	int or_next; /* the next term is another alternative of its clause */
};

/* A parsed selector: terms that must all match, in the order written. */
struct bs_sel {
	struct bs_sel_term *term;
	size_t n, cap;
	char *text; /* the unescaped copy that keys and values point into */
};
/* clang-format off */
#define BS_SEL_INIT {NULL, 0, 0, NULL}
/* clang-format on */

/*
 * Parses text into sel (BS_SEL_INIT, or an earlier parse, which is
 * freed first). Returns the number of terms (at least 1), or -BS_EINVAL
 * with sel left empty: the first bad term is named in the message, as
 * the user wrote it less its escapes.
 */
int bs_sel_parse(struct bs_sel *sel /* OUT */, const char *text,
		 struct bs_err *err);
/* The number of terms of the clause that starts at term i. */
size_t bs_sel_clause(const struct bs_sel *sel, size_t i);

/* Frees the terms; a zeroed sel is left alone. */
void bs_sel_release(struct bs_sel *sel);

/*
 * Appends sel as selector text that parses back to the same terms: keys
 * and values escaped, numbers in decimal, each LAST as last:N, id=A as A
 * (id!=A as id!=A), a date as written, a clause as KEY OP A|B.
 * Returns 0, or -BS_ETOOBIG past out's cap (bs_buf_init_max()).
 */
int bs_sel_print(const struct bs_sel *sel, struct bs_buf *out);

/*
 * Whether terms a and b select the same: kind, operator, field, key,
 * value and numbers alike (labels compare groups' terms with it; the
 * selector fuzzer checks that a printed selector parses back to them).
 */
int bs_sel_term_same(const struct bs_sel_term *a, const struct bs_sel_term *b);

/*
 * Whether a text value is a glob both engines read alike (bs_sel_parse
 * checks each, before any SQL): every '[' opens a class that ']' closes
 * ('[[]' is a literal '['), and each range of a class goes up (a-z, not
 * z-a) and is not chained (a-c-e). Members are characters (UTF-8 code
 * points), as '?' is one character. 0, or -BS_EINVAL with err saying
 * what is wrong and where.
 */
int bs_sel_check_glob(const char *glob, struct bs_err *err);

/*
 * Appends text as a selector value that selects exactly it: ',', '|'
 * and '\' escaped, and the glob's '*', '?' and '[' in brackets. Labels
 * (report/labels.c, report/factor.c) write values so.
 */
void bs_sel_add_literal(struct bs_buf *out, const char *text);

#endif
