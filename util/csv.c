/* util/csv.c - the one CSV cell writer (util/csv.h). */
#include "util/csv.h"

#include <csv.h>
#include <stdlib.h>

#include "util/mem.h"
#include "util/banned.h"

/* A cell that starts so gets the guard: formula characters, and the
 * guard itself, so that a reader can always take one "'" off again. */
static int guarded_start(char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' ||
	       c == '\r' || c == '\'';
}

void bs_csv_cell(struct bs_buf *out, const char *s, size_t len)
{
	struct bs_buf cell = BS_BUF_INIT;
	size_t need;
	char *q;

	if (len > 0 && guarded_start(s[0]))
		bs_buf_addc(&cell, '\'');
	bs_buf_add(&cell, s, len);
	need = csv_write(NULL, 0, cell.data ? cell.data : "", cell.len);
	q = xmalloc(need + 1);
	csv_write(q, need, cell.data ? cell.data : "", cell.len);
	bs_buf_add(out, q, need);
	free(q);
	bs_buf_release(&cell);
}
