/*
 * report/internal.h - what the report module's files share; not part of
 * its public face (report/report.h).
 */
#ifndef BS_REPORT_INTERNAL_H
#define BS_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "util/buf.h"

/* bonnie++'s table sections, in its column order. */
struct bs_rsection {
	const char *name;  /* "Sequential Output" */
	const char *text;  /* the title in the text table: "Random" */
	int first, last;   /* tests, inclusive */
};

#define BS_RSECTIONS 5
extern const struct bs_rsection bs_rsections[BS_RSECTIONS];

/* bonnie++'s column titles: "Per Chr", "Block", "Create", "Read". */
extern const char *const bs_rtest_title[BS_M_COUNT];

/* 1 when a higher number is better (rates), 0 for CPU and latency. */
int bs_rm_higher(int m);

/*
 * A number of metric m for people: in the report's unit, with the
 * metric's decimals; latencies as bonnie++ prints them ("801ms"). With
 * sign, a positive number gets a '+'.
 */
const char *bs_rfmt(const struct bs_report *rep, int m, double v, int sign,
		    char *out, size_t outsz);
/* A ratio, "3.49"; a change in percent, "+249.2%". */
const char *bs_rfmt_ratio(double v, char *out, size_t outsz);
const char *bs_rfmt_pct(double v, char *out, size_t outsz);
/* A number for scripts: shortest exact text, or empty when NAN. */
const char *bs_rfmt_raw(double v, char *out, size_t outsz);
/* The value of m in the report's unit (KiB/s -> MiB/s when asked). */
double bs_rscale(const struct bs_report *rep, int m, double v);

/* A file size in MiB as bonnie++ prints it: "8G", "300M". */
const char *bs_rfmt_size(int64_t mib, char *out, size_t outsz);
/* A group's parameter for people: "8G", "4G-8G (mixed)", "" unknown. */
const char *bs_rfmt_param(const struct bs_report_group *g, int p, char *out,
			  size_t outsz);
/* The -n spec of a group: "16", "16:100000:16/64", "" unknown. */
const char *bs_rfmt_files(const struct bs_report_group *g, char *out,
			  size_t outsz);

/* Shade 0..10 of v given the best number, -1 when not shaded. */
int bs_rshade(int higher, double v, double best);

/* One run as the HTML list of runs shows it: its rates. */
struct bs_rrow {
	int64_t id;
	int64_t size_mib;
	uint32_t group;
	uint32_t machine, version; /* strings in the list's pool */
	unsigned char status[BS_M_COUNT]; /* enum bs_status of each test */
	double rate[BS_M_COUNT];   /* NAN: no number */
};

/* The kept runs, and their machine and version strings, each once. */
struct bs_rruns {
	struct bs_rrow *row;
	size_t n, cap;
	int dropped;       /* over BS_REPORT_KEEP_MAX: read the runs again */
	char **str;        /* interned strings by index */
	size_t nstr, capstr;
	uint32_t *slot;    /* open addressing: index + 1, 0 empty */
	size_t nslot;
};

/* The number run r has for metric m (NAN if none) and its status. */
enum bs_status bs_rmetric(const struct bs_run *r, int m, double *v);
/* Fills row from r; strings go into the pool of rr. */
void bs_rrow_fill(struct bs_rruns *rr, const struct bs_run *r,
		  uint32_t group, struct bs_rrow *row);
void bs_rruns_free(struct bs_rruns *rr);

/* Appends s with control characters (but tab) as '?'. */
void bs_radd_clean(struct bs_buf *b, const char *s);
/* Display width of s: UTF-8 code points. */
size_t bs_rwidth(const char *s);

#endif
