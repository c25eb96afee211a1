/*
 * tests/fuzz/fuzz_template.c - libFuzzer target for the template loader:
 * each input is the text of a template, loaded through bstore's C API
 * (report/tmpl/tmpl.h: read as a built-in template, stripped and checked by
 * report/tmpl/tsyntax.c, parsed by ctemplate) and, when it loads, expanded
 * twice with a small fixed dictionary (hostile values, nested sections,
 * a separator).
 *
 * Checks, beside ASan's, UBSan's and LeakSanitizer's:
 *   - loading succeeds or fails with BS_ETMPL and one of bstore's
 *     messages naming the template; it fails with the depth message
 *     exactly when the stripped text nests sections more than
 *     BS_TMPL_MAX_DEPTH deep;
 *   - expanding succeeds, or fails with BS_ETMPL or, past 1 MiB of
 *     output, BS_ETOOBIG; twice, to the byte the same;
 *   - nothing hangs: libFuzzer's -timeout catches an expansion that
 *     does not end, -rss_limit_mb one that eats memory.
 * ctemplate itself is not instrumented (Debian's libctemplate), so the
 * coverage that guides the fuzzer is that of bstore's code; the
 * dictionary template.dict gives it ctemplate's markers and names.
 *
 * Build with -DBSTORE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt), then:
 *   mkdir -p /tmp/corpus-template
 *   ./fuzz_template -dict=tests/fuzz/template.dict /tmp/corpus-template \
 *       tests/fuzz/corpus-template
 * fuzz_template_replay runs the same checks over files without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tmpl/tmpl.h"
#include "report/tmpl/tsyntax.h"
#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/err.h"
#include "util/banned.h"

#define OUT_MAX ((size_t)1 << 20)

static const char *const names[] = {"t.txt"};
/* The modifiers report/tmpl/tmpl.cc registers. */
static const char *const mods[] = {"x-csv", "x-json", "x-text"};

static int starts_with(const char *s, const char *start)
{
	return strncmp(s, start, strlen(start)) == 0;
}

/* The dictionary every input is expanded with. */
static struct bs_tdict *dictionary(void)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_tdict *d, *row, *cell;
	int i, j;

	CHECK(bs_tdict_new(&d, &err) == 0);
	bs_tdict_set(d, "TITLE", "<script>\"x\"&'y'</script>");
	bs_tdict_set(d, "FORMULA", "=cmd|' /C calc'!A0");
	bs_tdict_setn(d, "CTRL", "a\0b\x01\x7f\n\tc\xff", 10);
	bs_tdict_set_i64(d, "N", -1);
	bs_tdict_show(d, "SHOWN");
	for (i = 0; i < 2; i++) {
		row = bs_tdict_add(d, "ROW");
		bs_tdict_set_i64(row, "N", i);
		bs_tdict_setf(row, "VALUE", "%d.5", i);
		for (j = 0; j < 2; j++) {
			cell = bs_tdict_add(row, "CELL");
			bs_tdict_setf(cell, "VALUE", "{{%d}}", j);
		}
	}
	return d;
}

/* Expands t.txt into out (capped); returns the code. */
static int expand(const struct bs_tmpl_set *ts, const struct bs_tdict *d,
		  struct bs_buf *out, struct bs_err *err)
{
	int rc;

	bs_buf_init_max(out, OUT_MAX);
	rc = bs_tmpl_expand_buf(ts, "t.txt", d, out, err);
	CHECK(rc == 0 || rc == -BS_ETMPL || rc == -BS_ETOOBIG);
	CHECK(rc == 0 || err->code == -rc);
	if (rc == -BS_ETMPL)
		CHECK(starts_with(err->msg, "cannot expand template 't.txt'"));
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bs_embedded def[] = {{"t.txt", NULL, 0}, {NULL, NULL, 0}};
	struct bs_buf stripped = BS_BUF_INIT, a = BS_BUF_INIT, b = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT, err2 = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_tdict *d;
	struct bs_tsyntax syn;
	int rc, rc2;

	def[0].text = (const char *)data;
	def[0].len = size;
	bs_tsyntax_strip((const char *)data, size, &stripped);
	bs_tsyntax_scan(bs_buf_str(&stripped), stripped.len, mods, 3, &syn);
	bs_buf_release(&stripped);

	rc = bs_tmpl_set_load(&ts, def, names, 1, NULL, &err);
	if (rc < 0) {
		CHECK(rc == -BS_ETMPL && err.code == BS_ETMPL && ts == NULL);
		CHECK(starts_with(err.msg, "template 't.txt' "));
		CHECK((syn.depth > BS_TMPL_MAX_DEPTH) ==
		      starts_with(err.msg, "template 't.txt' nests sections "));
		return 0;
	}
	CHECK(ts != NULL && syn.depth <= BS_TMPL_MAX_DEPTH);
	CHECK(!syn.ends_in_delims && syn.pragmas <= 1 && !syn.unknown_mod);

	d = dictionary();
	rc = expand(ts, d, &a, &err);
	rc2 = expand(ts, d, &b, &err2);
	CHECK(rc == rc2 && strcmp(err.msg, err2.msg) == 0);
	CHECK(a.len == b.len &&
	      memcmp(bs_buf_str(&a), bs_buf_str(&b), a.len) == 0);
	bs_tdict_free(d);
	bs_tmpl_set_free(ts);
	bs_buf_release(&a);
	bs_buf_release(&b);
	return 0;
}
