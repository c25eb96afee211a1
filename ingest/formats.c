/*
 * ingest/formats.c - the format registry (ingest/format.h): every input
 * format, one row each, in the order the driver offers a line to them,
 * and the cleaning every line gets before.
 */
#include "ingest/format.h"

#include <string.h>
#include <strings.h>

#include "ingest/bonnie_csv.h"
#include "ingest/bstore_json.h"
#include "ingest/dd.h"
#include "ingest/fio.h"
#include "ingest/sysbench.h"
#include "ingest/bonnie_table.h"
#include "ingest/getc_putc.h"
#include "ingest/zcav_text.h"
#include "util/banned.h"

/* A CSV row's arg: its layout (core/dialect.h). */
static const int csv_1_98 = BS_LAYOUT_1_98;
static const int csv_1_97 = BS_LAYOUT_1_97;
static const int csv_1_96_s0 = BS_LAYOUT_1_96_S0;
static const int csv_1_96 = BS_LAYOUT_1_96;
static const int csv_beta = BS_LAYOUT_BETA;
static const int csv_1_0x = BS_LAYOUT_1_0X;

/* Rows that read several dialects, or runs that keep their own format:
 * no runs.format holds these names (core/dialect.h has the others). */
#define BS_FMT_ROW_BONNIE_TEXT "bonnie++-text"
#define BS_FMT_ROW_BSTORE_JSON "bstore-json"

#define CSV bs_bonnie_csv_probe, bs_bonnie_csv_parse
/* A block format's row: no line probe, parse or arg; its ops. */
#define BLOCK(ops) NULL, NULL, NULL, &(ops)

/* clang-format off */
static const struct bs_format builtin[] = {
	{ BS_FMT_CSV_1_98,  BS_FAM_BONNIE,
	  "bonnie++ 1.98, 2.00, 2.00a CSV line (50 fields; bstore run's too)",
	  CSV, &csv_1_98, NULL },
	{ BS_FMT_CSV_1_97,  BS_FAM_BONNIE,
	  "bonnie++ 1.97 CSV line (48 fields)", CSV, &csv_1_97, NULL },
	{ BS_FMT_CSV_1_96S, BS_FAM_BONNIE,
	  "bonnie++ 1.92b-1.96 CSV line of a -s 0 run (47 fields, shifted)",
	  CSV, &csv_1_96_s0, NULL },
	{ BS_FMT_CSV_1_96,  BS_FAM_BONNIE,
	  "bonnie++ 1.92b-1.96 CSV line (48 fields)", CSV, &csv_1_96, NULL },
	{ BS_FMT_CSV_BETA,  BS_FAM_BONNIE,
	  "bonnie++ 1.90-1.92a beta CSV line (45-47 fields, best effort)",
	  CSV, &csv_beta, NULL },
	{ BS_FMT_CSV_1_0X,  BS_FAM_BONNIE,
	  "bonnie++ 1.00-1.04 CSV line (27 fields, no version)", CSV,
	  &csv_1_0x, NULL },
	{ BS_FMT_ROW_BSTORE_JSON, BS_FAM_BONNIE,
	  "bstore's own JSON export line (any family; runs keep their format)",
	  bs_bstore_json_probe, bs_bstore_json_parse, NULL, NULL },
	{ BS_FMT_FIO_TERSE, BS_FAM_FIO,
	  "fio terse line, versions 3-5 (--minimal; one job)",
	  bs_fio_terse_probe, bs_fio_terse_parse, NULL, NULL },
	{ BS_FMT_FIO_JSON,  BS_FAM_FIO,
	  "fio JSON and JSON+ output (--output-format=json; a run per job)",
	  BLOCK(bs_fio_json_ops) },
	{ BS_FMT_FIO_TEXT,  BS_FAM_FIO,
	  "fio normal text output, 2.0 to 3.x (a run per job report)",
	  BLOCK(bs_fio_text_ops) },
	{ BS_FMT_SYSBENCH_04, BS_FAM_SYSBENCH,
	  "sysbench 0.4.x (and 0.5) fileio run output, one run per summary",
	  BLOCK(bs_sysbench_04_ops) },
	{ BS_FMT_SYSBENCH_10, BS_FAM_SYSBENCH,
	  "sysbench 1.0.x fileio run output, one run per summary",
	  BLOCK(bs_sysbench_10_ops) },
	{ BS_FMT_ROW_BONNIE_TEXT, BS_FAM_BONNIE,
	  "bonnie++ text table (1.0x, 1.9x, 1.98-2.00a); with its CSV line "
	  "after it, that line", BLOCK(bs_bonnie_text_ops) },
	{ BS_FMT_BONNIE_HTML, BS_FAM_BONNIE,
	  "Bonnie's -html row (one <TR> of 14 cells)", bs_bonnie_html_probe,
	  bs_bonnie_html_parse, NULL, NULL },
	{ BS_FMT_BONNIE_TEXT, BS_FAM_BONNIE,
	  "Bonnie (Tim Bray's), Bonnie-64 and Linux Bonnie 1.4 text table",
	  BLOCK(bs_bonnie_classic_ops) },
	{ BS_FMT_ZCAV,      BS_FAM_ZCAV,
	  "zcav output, K/s (1.02-1.03c) or MiB/s (1.03d on): a run a pass",
	  BLOCK(bs_zcav_ops) },
	{ BS_FMT_GETC_PUTC, BS_FAM_GETC_PUTC,
	  "getc_putc table and/or CSV line (bonnie++ 1.93-2.00a)",
	  BLOCK(bs_getc_putc_ops) },
	{ BS_FMT_DD,        BS_FAM_DD,
	  "dd summary (GNU, BSD); its command line is read from the text above",
	  BLOCK(bs_dd_ops) },
};
/* clang-format on */

/* The built-in rows, then the program's own (bs_format_extra), put
 * together before main as the family rows are (core/family.c). */
static struct bs_format rows[sizeof(builtin) / sizeof(builtin[0]) + 1];
static struct bs_format_registry registry;

const struct bs_format *const bs_formats = rows;
const struct bs_format_registry *const bs_format_registry = &registry;

__attribute__((constructor)) static void assemble(void)
{
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		rows[registry.n++] = builtin[i];
	if (&bs_format_extra != NULL)
		rows[registry.n++] = bs_format_extra;
}

const struct bs_format *bs_format_find(const char *name)
{
	int i;

	for (i = 0; i < bs_nformats; i++)
		if (strcmp(bs_formats[i].name, name) == 0)
			return &bs_formats[i];
	return NULL;
}

int bs_format_fail(struct bs_err *err, int rc, const char *reason)
{
	return bs_error(err, rc < -1 ? -rc : BS_EPARSE, "%s", reason);
}

int bs_format_restores(const struct bs_format *f)
{
	return strcmp(f->name, BS_FMT_ROW_BSTORE_JSON) == 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Tags a blog or wiki wraps pasted output in: "<pre>", "</code>". */
static const char *const html_tags[] = {"pre", "code", "tt", "samp", "kbd"};

/* The length of such a tag at s (opening or closing), or 0. */
static size_t html_tag(const char *s, size_t len)
{
	size_t i, k, n;

	if (len < 3 || s[0] != '<')
		return 0;
	i = s[1] == '/' ? 2 : 1;
	for (k = 0; k < sizeof(html_tags) / sizeof(html_tags[0]); k++) {
		n = strlen(html_tags[k]);
		if (i + n < len && strncasecmp(s + i, html_tags[k], n) == 0 &&
		    s[i + n] == '>')
			return i + n + 1;
	}
	return 0;
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * Two runs pasted as a diff mark their lines '-' and '+' ("-prod,8G,...",
 * "+Latency  61372us ..."): a '-' or '+' right before a name or number is
 * a marker, unless the line holds "--" (bonnie++'s headers "-Per Chr-
 * --Block--", a diff's own "--- a/file", "-rw-r--r--"). "+++ b/file" is
 * not a marker either: no name follows its '+'.
 */
static int diff_marker(const char *s, size_t len)
{
	size_t i;

	if (len < 3 || (s[0] != '-' && s[0] != '+') || !is_alnum(s[1]))
		return 0;
	for (i = 1; i + 1 < len; i++)
		if (s[i] == '-' && s[i + 1] == '-')
			return 0;
	return 1;
}

/*
 * Text pasted into mails, wikis and blogs carries a byte order mark
 * (Windows editors), quote markers ("> "), list numbers ("9. ", "9) ")
 * and blanks; the result inside is what the formats read. raw keeps the
 * line as it was.
 */
static size_t clean_prefix(const char *s, size_t len)
{
	size_t i = 0, d;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i < len && s[i] == '>') {
			i++;
			continue;
		}
		/* Supercite's quote marks carry the initials: "ZC> ". */
		for (d = i; d < len && d - i < 3 && s[d] >= 'A' && s[d] <= 'Z';
		     d++)
			;
		if (d > i && d + 1 < len && s[d] == '>' && is_blank(s[d + 1])) {
			i = d + 1;
			continue;
		}
		if ((d = html_tag(s + i, len - i)) > 0) {
			i += d;
			continue;
		}
		for (d = i; d < len && s[d] >= '0' && s[d] <= '9'; d++)
			;
		if (d > i && d - i <= 4 && d + 1 < len &&
		    (s[d] == '.' || s[d] == ')') && is_blank(s[d + 1])) {
			i = d + 1;
			continue;
		}
		if (diff_marker(s + i, len - i)) {
			i++;
			continue;
		}
		return i;
	}
}

/* The emphasis marker ("**", "__") opening the word at s, or 0. */
static char mark_open(const char *s, size_t len)
{
	return len > 2 && (s[0] == '*' || s[0] == '_') && s[1] == s[0] &&
			       !is_blank(s[2]) && s[2] != s[0]
		       ? s[0]
		       : 0;
}

/* Does the word ending at s + len end with the marker m ("88826**")? */
static int mark_close(const char *s, size_t len, char m)
{
	return len > 2 && s[len - 1] == m && s[len - 2] == m && s[len - 3] != m;
}

/*
 * An opening marker is at the start of a word, its closing one at the end
 * of the same word or of a later one on the line; a marker without its
 * pair ("__init", "**" alone, "+++++") stays.
 */
size_t bs_line_plain(const char *line, size_t len, char *out)
{
	size_t i = 0, o = 0, from = 0, cut[64][2], ncut = 0, k;

	/* Most lines hold neither marker's character: no word to walk
	 * (this runs for every line). */
	if (memchr(line, '*', len) == NULL && memchr(line, '_', len) == NULL)
		return 0;
	while (i < len && ncut + 2 <= sizeof(cut) / sizeof(cut[0])) {
		size_t ws, we, j;
		char m;

		while (i < len && is_blank(line[i]))
			i++;
		for (ws = i; i < len && !is_blank(line[i]); i++)
			;
		we = i;
		if (ws == we || (m = mark_open(line + ws, we - ws)) == 0)
			continue;
		for (j = ws; j < len;) {
			size_t s2 = j, e2;

			for (e2 = s2; e2 < len && !is_blank(line[e2]); e2++)
				;
			if (mark_close(line + s2, e2 - s2, m) &&
			    (s2 != ws || e2 - s2 > 4)) {
				cut[ncut][0] = ws;
				cut[ncut++][1] = ws + 2;
				cut[ncut][0] = e2 - 2;
				cut[ncut++][1] = e2;
				i = e2;
				break;
			}
			for (j = e2; j < len && is_blank(line[j]); j++)
				;
			if (j == e2)
				break;
		}
	}
	if (ncut == 0)
		return 0;
	for (k = 0; k < ncut; k++) {
		memcpy(out + o, line + from, cut[k][0] - from);
		o += cut[k][0] - from;
		from = cut[k][1];
	}
	memcpy(out + o, line + from, len - from);
	return o + len - from;
}

int bs_fline_make(const char *line, size_t len, const char *hint_version,
		  struct bs_fline *l)
{
	size_t skip = clean_prefix(line, len);
	const char *s, *end;

	for (;;) {
		size_t t, lim;

		while (len > skip && is_blank(line[len - 1]))
			len--;
		/* "...155.6  0.4</pre>": a closing tag at the end, so its '<'
		 * among the last 8 bytes (looked for there only: this runs
		 * for every line). */
		lim = len - skip > 8 ? len - 8 : skip;
		for (t = len; t > lim && line[t - 1] != '<'; t--)
			;
		if (t > lim && len - t + 1 < 8 &&
		    html_tag(line + t - 1, len - t + 1) == len - t + 1 &&
		    line[t] == '/') {
			len = t - 1;
			continue;
		}
		break;
	}
	l->text = line + skip;
	l->len = len - skip;
	l->hint_version = hint_version;
	l->nf = 0;
	if (l->len == 0)
		return 0;
	s = l->text;
	end = s + l->len;
	for (;;) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		const char *e = c ? c : end;

		if (l->nf < BS_FLINE_FIELDS) {
			l->f[l->nf].s = s;
			l->f[l->nf].len = (size_t)(e - s);
		}
		l->nf++;
		if (c == NULL)
			break;
		s = c + 1;
	}
	return 1;
}
