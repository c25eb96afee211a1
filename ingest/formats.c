/*
 * ingest/formats.c - the format registry (ingest/format.h): every input
 * format, one row each, in the order the driver offers a line to them,
 * and the cleaning every line gets before.
 */
#include "ingest/format.h"

#include <string.h>

#include "ingest/bonnie_csv.h"
#include "ingest/bstore_json.h"
#include "util/banned.h"

static const int csv_1_98 = BS_CSV_FAM_1_98;
static const int csv_1_97 = BS_CSV_FAM_1_97;
static const int csv_1_96_s0 = BS_CSV_FAM_1_96_S0;
static const int csv_1_96 = BS_CSV_FAM_1_96;
static const int csv_beta = BS_CSV_FAM_BETA;
static const int csv_1_0x = BS_CSV_FAM_1_0X;

#define CSV bs_bonnie_csv_probe, bs_bonnie_csv_parse
/* A block format's row: no line probe, parse or arg; its ops. */
#define BLOCK(ops) NULL, NULL, NULL, &(ops)

/* clang-format off */
const struct bs_format bs_formats[] = {
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
	{ BS_FMT_BSTORE_JSON, BS_FAM_BONNIE,
	  "bstore's own JSON export line (any family; runs keep their format)",
	  bs_bstore_json_probe, bs_bstore_json_parse, NULL, NULL },
};
/* clang-format on */

const int bs_nformats = (int)(sizeof(bs_formats) / sizeof(bs_formats[0]));

const struct bs_format *bs_format_find(const char *name)
{
	int i;

	for (i = 0; i < bs_nformats; i++)
		if (strcmp(bs_formats[i].name, name) == 0)
			return &bs_formats[i];
	return NULL;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
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
		for (d = i; d < len && s[d] >= '0' && s[d] <= '9'; d++)
			;
		if (d > i && d - i <= 4 && d + 1 < len &&
		    (s[d] == '.' || s[d] == ')') && is_blank(s[d + 1])) {
			i = d + 1;
			continue;
		}
		return i;
	}
}

int bs_fline_make(struct bs_fline *l, const char *line, size_t len,
		  const char *hint_version)
{
	size_t skip = clean_prefix(line, len);
	const char *s, *end;

	while (len > skip && is_blank(line[len - 1]))
		len--;
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
