/*
 * tests/fuzz/fuzz_select.c - libFuzzer target for the selector parser
 * (store/selector.h).
 *
 * Each input, up to its first NUL, is one selector. Beside the parser, a
 * naive splitter here undoes the escapes and cuts the input into terms,
 * and each term is also parsed alone (escaped again). They must agree:
 *   - a parse that fails does so with BS_EINVAL, sel left empty, and the
 *     error of the first term that fails alone among the first
 *     BS_SEL_MAX_TERMS, else "selector has too many terms" when there
 *     are more; the message is one of the parser's, one printable line
 *     naming a term as bs_err_quote() shows it;
 *   - a parse that succeeds gives the naive terms, at most
 *     BS_SEL_MAX_TERMS, each the same as parsed alone, well formed and
 *     spelled by its naive text (key=value as written, numbers as
 *     bs_parse_i64() reads them, run fields as bs_sel_field() says);
 *   - its terms print back (bs_sel_print(), re-escaped) to a selector
 *     that parses to the same terms and prints the same again.
 * Leaks are LeakSanitizer's to find.
 *
 * Build with -DBSTORE_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt), then:
 *   mkdir -p /tmp/corpus-select
 *   ./fuzz_select -dict=tests/fuzz/select.dict /tmp/corpus-select \
 *       tests/fuzz/corpus-select
 * fuzz_select_replay runs the same checks over files without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/selector.h"
#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define NOT_SEL                                                                \
	"' is not a selector (expected an id, a range like 12-15, 'last', "    \
	"'all' or key=value)"

/* The input's terms, unescaped: '\,' and '\\' undone, cut at the other
 * ','s. Written apart from the parser, on purpose naively. */
struct naive {
	struct bs_buf *term;
	size_t n, cap;
};

/* An escaped '|' in a naive term (the parser refuses this byte in a
 * selector, so no input holds it). */
#define ESC_BAR 0x1f

static void naive_split(const char *s, struct naive *nv)
{
	struct bs_buf cur = BS_BUF_INIT;
	size_t i, len = strlen(s);

	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == ',') {
			xgrow((void **)&nv->term, &nv->cap, nv->n + 1,
			      sizeof(*nv->term));
			nv->term[nv->n++] = cur;
			memset(&cur, 0, sizeof(cur));
		} else if (s[i] == '\\' && i + 1 < len &&
			   (s[i + 1] == ',' || s[i + 1] == '\\')) {
			bs_buf_addc(&cur, s[++i]);
		} else if (s[i] == '\\' && i + 1 < len && s[i + 1] == '|') {
			/* A '|' of the value: ESC_BAR, apart from the '|'s
			 * that separate alternatives. */
			bs_buf_addc(&cur, ESC_BAR);
			i++;
		} else {
			bs_buf_addc(&cur, s[i]);
		}
	}
}

static void naive_release(struct naive *nv)
{
	size_t i;

	for (i = 0; i < nv->n; i++)
		bs_buf_release(&nv->term[i]);
	free(nv->term);
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && memcmp(s + n - m, end, m) == 0;
}

static int starts_with(const char *s, const char *start)
{
	return strncmp(s, start, strlen(start)) == 0;
}

/* The number at s, as the parser reads numbers; -1 if none. */
static int64_t num(const char *s, size_t len)
{
	int64_t v;

	return bs_parse_i64(s, len, &v) < 0 ? -1 : v;
}

/* A date term's interval is the span its value names: a year, a month,
 * a day, a minute, a second. */
static void check_date(const struct bs_sel_term *t)
{
	const char *v = t->value;
	size_t len = strlen(v), i;
	int64_t span = t->hi - t->lo + 1, day = 86400;
	int digits = 1;

	CHECK(t->lo >= BS_TIME_MIN && t->lo <= t->hi && t->hi <= BS_TIME_MAX);
	for (i = 0; i < len; i++)
		digits &= (v[i] >= '0' && v[i] <= '9') ||
			  (i == 4 && v[i] == '-');
	if (len == 4 && digits) {
		CHECK(span == 365 * day || span == 366 * day);
		CHECK(t->lo % day == 0);
	} else if (len == 7 && digits) {
		CHECK(span >= 28 * day && span <= 31 * day);
		CHECK(t->lo % day == 0);
	} else if (v[0] == '@') {
		CHECK(span == 1 && num(v + 1, len - 1) == t->lo);
	} else {
		if (v[len - 1] == 'Z')
			len--;
		CHECK(len == 10 || len == 16 || len == 19);
		CHECK(span == (len == 10   ? day
			       : len == 16 ? 60
					   : 1) ||
		      t->hi == BS_TIME_MAX);
	}
}

/* t is well formed, and is what its naive text w says. */
static void check_term(const struct bs_sel_term *t, const char *w)
{
	size_t len = strlen(w);
	const struct bs_sel_op_info *op;
	const char *dash;

	switch (t->kind) {
	case BS_SEL_ALL:
		CHECK(strcmp(w, "all") == 0);
		break;
	case BS_SEL_LAST:
		CHECK(t->n >= 1);
		CHECK(strcmp(w, "last") == 0
			      ? t->n == 1
			      : starts_with(w, "last:") &&
					num(w + 5, len - 5) == t->n);
		break;
	case BS_SEL_ID:
	case BS_SEL_RANGE:
		CHECK(t->lo >= 1 && t->lo <= t->hi);
		CHECK(t->kind == BS_SEL_RANGE || t->lo == t->hi);
		CHECK(t->field == NULL && t->key == NULL && t->value == NULL);
		if (starts_with(w, "id") && w[2] && strchr("=!~<>", w[2])) {
			op = bs_sel_op(t->op);
			CHECK(op && starts_with(w + 2, op->text));
			CHECK(op->types & BS_SEL_IDS);
			w += 2 + strlen(op->text);
			len -= 2 + strlen(op->text);
			CHECK(w[0] >= '0' && w[0] <= '9');
		} else {
			CHECK(t->op == BS_OP_EQ);
		}
		dash = len > 1 ? memchr(w + 1, '-', len - 1) : NULL;
		if (t->kind == BS_SEL_ID) {
			CHECK(dash == NULL && num(w, len) == t->lo);
		} else {
			CHECK(dash != NULL);
			CHECK(num(w, (size_t)(dash - w)) == t->lo);
			CHECK(num(dash + 1, len - (size_t)(dash - w) - 1) ==
			      t->hi);
		}
		break;
	case BS_SEL_FIELD:
	case BS_SEL_TAG:
	case BS_SEL_PARAM:
		op = bs_sel_op(t->op);
		CHECK(op != NULL);
		CHECK(t->key && t->value && t->key[0]);
		/* The key ends at the first operator character. */
		CHECK(strpbrk(t->key, "=!~<>") == NULL);
		CHECK(strlen(t->key) + strlen(op->text) + strlen(t->value) ==
		      len);
		CHECK(memcmp(w, t->key, strlen(t->key)) == 0);
		CHECK(starts_with(w + strlen(t->key), op->text));
		CHECK(strcmp(w + strlen(t->key) + strlen(op->text), t->value) ==
		      0);
		CHECK(t->field == bs_sel_field(t->key, strlen(t->key)));
		CHECK((t->kind == BS_SEL_FIELD) == (t->field != NULL));
		CHECK(t->field == NULL || t->field->type != BS_SEL_IDS);
		CHECK((bs_store_run_column(t->key, strlen(t->key)) != NULL) ==
		      (t->field != NULL && t->field->column != NULL));
		CHECK(op->types &
		      (t->field                  ? t->field->type
		       : t->kind == BS_SEL_PARAM ? BS_SEL_TEXT | BS_SEL_ORDER
						 : BS_SEL_TEXT));
		if (t->field && t->field->type == BS_SEL_DATE)
			check_date(t);
		break;
	default:
		CHECK(!"a known kind");
	}
}

/* The parser's escapes, written apart from it too. */
static void naive_escape(const struct bs_buf *term, struct bs_buf *out)
{
	size_t i;

	bs_buf_reset(out);
	for (i = 0; i < term->len; i++) {
		if (term->data[i] == ESC_BAR) {
			bs_buf_adds(out, "\\|");
			continue;
		}
		if (term->data[i] == ',' || term->data[i] == '\\')
			bs_buf_addc(out, '\\');
		bs_buf_addc(out, term->data[i]);
	}
}

/* The length of "id" and its operator at the start of t ("id<=": 4),
 * or 0. */
static size_t id_op_len(const char *t)
{
	static const char *const ops[] = {"!=", "!~", "<=", ">=",
					  "=",  "~",  "<",  ">"};
	size_t i;

	if (!starts_with(t, "id"))
		return 0;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (starts_with(t + 2, ops[i]))
			return 2 + strlen(ops[i]);
	return 0;
}

/* q (len bytes, from a message) is the start of one of the terms, as
 * bs_err_quote() shows them: control characters as '?', cut at 40 bytes
 * with "...". id= (id<, ...) terms may be named by their value alone. */
static int names_a_term(const char *q, size_t len, const struct naive *nv)
{
	struct bs_buf shown = BS_BUF_INIT;
	size_t i, j, k;
	int found = 0;

	for (i = 0; i < nv->n && !found; i++) {
		const char *t = bs_buf_str(&nv->term[i]);

		for (k = 0; k < 2 && !found; k++) {
			size_t skip = 0;

			if (k == 1) {
				skip = id_op_len(t);
				if (skip == 0)
					break;
			}
			bs_buf_reset(&shown);
			/* As messages show text (util/text.h): a control,
			 * C0 to C1 and the bidi marks, as '?'. */
			for (j = skip; t[j];) {
				size_t n = strlen(t + j);
				size_t c = bs_text_control_len(t + j, n, 0);

				if (c) {
					bs_buf_addc(&shown, '?');
					j += c;
					continue;
				}
				bs_buf_addc(&shown,
					    (unsigned char)t[j] == ESC_BAR
						    ? '|'
						    : t[j]);
				j++;
			}
			/* Cut after 40 bytes of the term, between
			 * characters (a control shows as one '?'). */
			if (strlen(t + skip) > 40)
				found = len >= 4 && len <= 43 &&
					memcmp(q + len - 3, "...", 3) == 0 &&
					memcmp(q, shown.data, len - 3) == 0;
			else
				found = len == shown.len &&
					memcmp(q, shown.data, len) == 0;
		}
	}
	bs_buf_release(&shown);
	return found;
}

/* The ends of the parser's messages about an operator: no key before
 * it, or one the key's type does not take (written out here). */
static int op_message(const char *m, size_t len, const struct naive *nv)
{
	static const char *const who[] = {"a tag",  "machine", "name",
					  "family", "tool",    "version",
					  "format", "source",  "id",
					  "date",   "impl"};
	static const char text_ops[] = "=, !=, ~ or !~";
	static const char ordered_ops[] = "=, !=, <, <=, > or >=";
	struct bs_buf end = BS_BUF_INIT;
	size_t a = strlen("selector '"), i, k;
	int found = 0;

	if (!starts_with(m, "selector '"))
		return 0;
	for (i = 0; i < bs_sel_nops && !found; i++) {
		const struct bs_sel_op_info *op = &bs_sel_ops[i];

		bs_buf_reset(&end);
		bs_buf_addf(&end, "' has no key before '%s'", op->text);
		if (ends_with(m, bs_buf_str(&end)) && len > a + end.len) {
			found = names_a_term(m + a, len - a - end.len, nv);
			break;
		}
		for (k = 0; k < sizeof(who) / sizeof(who[0]) && !found; k++) {
			int ordered = strcmp(who[k], "id") == 0 ||
				      strcmp(who[k], "date") == 0;

			if (strchr(ordered ? "~" : "<>", op->text[0]) == NULL &&
			    strcmp(op->text, ordered ? "!~" : "") != 0)
				continue;
			bs_buf_reset(&end);
			bs_buf_addf(&end, "': %s takes %s, not '%s'", who[k],
				    ordered ? ordered_ops : text_ops, op->text);
			if (ends_with(m, bs_buf_str(&end)) && len > a + end.len)
				found = names_a_term(m + a, len - a - end.len,
						     nv);
		}
	}
	bs_buf_release(&end);
	return found;
}

/* An error message is one of the parser's, naming one of the terms
 * (loose: one printable line, when alternatives or a term's dropped
 * blanks make the term named one the naive split does not have). */
static void check_message(const char *m, const struct naive *nv, int loose)
{
	static const struct {
		const char *start, *end;
	} forms[] = {
		{"'", "': expected last:N with N >= 1"},
		{"'", NOT_SEL},
		{"selector '",
		 "': expected a date from 1970 to 9999 (YYYY, "
		 "YYYY-MM, YYYY-MM-DD[ HH:MM[:SS]] or @UNIXTIME)"},
	};
	size_t i, len = strlen(m);

	CHECK(len > 0 && len < 200);
	for (i = 0; i < len; i++)
		CHECK((unsigned char)m[i] >= 0x20 && m[i] != 0x7f);
	if (loose)
		return;
	if (strcmp(m, "empty selector term") == 0 ||
	    strcmp(m, "selector has too many terms") == 0 ||
	    strcmp(m, "selector has a control character (0x1f)") == 0 ||
	    (starts_with(m, "selector '") &&
	     strstr(m, " takes a number or a size after '")))
		return;
	if (op_message(m, len, nv))
		return;
	/* A malformed class (store/selector.c bs_sel_check_glob): the glob
	 * it names is the value of one of the terms. */
	if (starts_with(m, "glob '") && strstr(m, "': the class '")) {
		const char *g = m + 6, *e = strstr(m, "': the class '");
		size_t n = (size_t)(e - g), k;
		char gb[128];
		int found = 0;

		if (n > 3 && memcmp(e - 3, "...", 3) == 0)
			n -= 3;
		CHECK(n < sizeof(gb));
		memcpy(gb, g, n);
		gb[n] = '\0';
		for (k = 0; k < nv->n && !found; k++) {
			struct bs_buf shown = BS_BUF_INIT;
			const char *t = bs_buf_str(&nv->term[k]);
			size_t j;

			for (j = 0; t[j];) {
				size_t c = bs_text_control_len(t + j,
							       strlen(t + j),
							       0);

				bs_buf_addc(&shown, c ? '?' : t[j]);
				j += c ? c : 1;
			}
			found = strstr(bs_buf_str(&shown), gb) != NULL;
			bs_buf_release(&shown);
		}
		CHECK(found);
		return;
	}
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t a = strlen(forms[i].start), z = strlen(forms[i].end);

		if (len >= a + z && starts_with(m, forms[i].start) &&
		    ends_with(m, forms[i].end)) {
			CHECK(names_a_term(m + a, len - a - z, nv));
			return;
		}
	}
	fprintf(stderr, "unknown message: %s\n", m);
	abort();
}

static void check_parse(const char *text)
{
	struct bs_sel sel = BS_SEL_INIT, back = BS_SEL_INIT;
	struct bs_sel alone = BS_SEL_INIT;
	struct bs_err err = BS_ERR_INIT, err1 = BS_ERR_INIT;
	struct bs_buf out = BS_BUF_INIT, again = BS_BUF_INIT;
	struct bs_buf one = BS_BUF_INIT;
	struct naive nv = {NULL, 0, 0};
	const char *want = NULL; /* the error the terms call for */
	size_t i, j, at = 0;
	int rc, alts = 0;

	naive_split(text, &nv);
	rc = bs_sel_parse(&sel, text, &err);

	/* The selector is its terms, each parsed alone: the first bad one
	 * within the limit gives the error, else too many terms do. */
	/* A '|' (alternatives: a naive term is a clause of one or more
	 * terms) makes the limit count terms the naive split cannot. */
	alts = strchr(text, '|') != NULL;
	if (strchr(text, 0x1f))
		want = "selector has a control character (0x1f)";
	for (i = 0; i < nv.n && at < BS_SEL_MAX_TERMS && !want; i++) {
		naive_escape(&nv.term[i], &one);
		if (bs_sel_parse(&alone, bs_buf_str(&one), &err1) < 0) {
			want = err1.msg;
			break;
		}
		CHECK(alone.n >= 1);
		CHECK(!alone.term[alone.n - 1].or_next);
		for (j = 0; rc >= 0 && j < alone.n; j++)
			CHECK(at + j < sel.n &&
			      bs_sel_term_same(&alone.term[j],
					       &sel.term[at + j]));
		at += alone.n;
	}
	if (!want && (i < nv.n || at > BS_SEL_MAX_TERMS))
		want = "selector has too many terms";

	if (rc < 0) {
		CHECK(rc == -BS_EINVAL && err.code == BS_EINVAL);
		CHECK(sel.n == 0 && sel.term == NULL && sel.text == NULL);
		/* Loose too where a term holds an escape: the parser's
		 * quote of it then runs on as the text reads, unescaped. */
		for (i = 0; i < nv.n && !alts; i++) {
			const unsigned char *u =
				(const unsigned char *)bs_buf_str(&nv.term[i]);

			alts = u[0] == ' ' || strchr((const char *)u, '\\');
			/* and where a message shows it otherwise than its
			 * bytes (controls as '?', a cut between characters) */
			for (; *u && !alts; u++)
				alts = *u < 0x20 || *u >= 0x7f;
		}
		check_message(err.msg, &nv, alts);
		/* A clause over the limit stops before its bad alternative. */
		if (alts && want &&
		    strcmp(err.msg, "selector has too many terms") == 0)
			goto out;
		if (want == NULL || strcmp(err.msg, want) != 0) {
			fprintf(stderr, "'%s': '%s', its terms: '%s'\n", text,
				err.msg, want ? want : "(none)");
			abort();
		}
		goto out;
	}
	CHECK(want == NULL && err.code == 0);
	CHECK(rc >= 1 && rc <= BS_SEL_MAX_TERMS && (size_t)rc == sel.n);
	CHECK(sel.n == at);
	/* A term alone, as written (a clause of one, no blank before it),
	 * spells its naive text. */
	for (i = 0, at = 0; i < nv.n; i++) {
		size_t nc = bs_sel_clause(&sel, at);

		if (nc == 1 && !alts && bs_buf_str(&nv.term[i])[0] != ' ')
			check_term(&sel.term[at], bs_buf_str(&nv.term[i]));
		at += nc;
	}

	/* Printed back, the same terms; printed again, the same text. */
	CHECK(bs_sel_print(&sel, &out) == 0);
	rc = bs_sel_parse(&back, bs_buf_str(&out), &err);
	if (rc < 0) {
		fprintf(stderr, "'%s' printed as '%s', which fails: %s\n", text,
			bs_buf_str(&out), err.msg);
		abort();
	}
	CHECK(back.n == sel.n);
	for (i = 0; i < sel.n; i++)
		CHECK(bs_sel_term_same(&sel.term[i], &back.term[i]));
	CHECK(bs_sel_print(&back, &again) == 0);
	CHECK(strcmp(bs_buf_str(&out), bs_buf_str(&again)) == 0);
out:
	bs_sel_release(&sel);
	bs_sel_release(&back);
	bs_sel_release(&alone);
	bs_buf_release(&out);
	bs_buf_release(&again);
	bs_buf_release(&one);
	naive_release(&nv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact copy, so that a read past the NUL is ASan's to see. */
	char *text = xmalloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	check_parse(text);
	free(text);
	return 0;
}
