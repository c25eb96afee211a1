/*
 * tests/unit/test_selector.c - the selector parser (store/selector.h)
 * alone, without SQLite: every form, the escapes, every error message,
 * long and odd inputs, the term limit, printing back, and the table of
 * run fields against the schema and the docs.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/db.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/banned.h"

#define DATE_ERR                                                               \
	"expected a date from 1970 to 9999 (YYYY, YYYY-MM, YYYY-MM-DD"         \
	"[ HH:MM[:SS]] or @UNIXTIME)"

#define NOT_SEL                                                                \
	"' is not a selector (expected an id, a range like 12-15, 'last', "    \
	"'all' or key=value)"

/* The terms, spelled out: kind, numbers, and strings in <> so that an
 * empty value or a stray space shows. */
static void dump(const struct bs_sel *sel, struct bs_buf *b)
{
	size_t i;

	for (i = 0; i < sel->n; i++) {
		const struct bs_sel_term *t = &sel->term[i];

		if (i > 0)
			bs_buf_adds(b, " | ");
		switch (t->kind) {
		case BS_SEL_ID:
			assert_true(t->lo == t->hi);
			bs_buf_addf(b, "id%s %" PRId64,
				    t->op == BS_OP_EQ ? ""
						      : bs_sel_op(t->op)->text,
				    t->lo);
			break;
		case BS_SEL_RANGE:
			bs_buf_addf(b, "range%s %" PRId64 "-%" PRId64,
				    t->op == BS_OP_EQ ? ""
						      : bs_sel_op(t->op)->text,
				    t->lo, t->hi);
			break;
		case BS_SEL_LAST:
			bs_buf_addf(b, "last %" PRId64, t->n);
			break;
		case BS_SEL_ALL:
			bs_buf_adds(b, "all");
			break;
		case BS_SEL_FIELD:
			assert_non_null(t->field);
			assert_string_equal(t->key, t->field->key);
			bs_buf_addf(b, "field %s[%s]%s<%s>", t->key,
				    t->field->column, bs_sel_op(t->op)->text,
				    t->value);
			if (t->field->type == BS_SEL_DATE)
				bs_buf_addf(b, " [%" PRId64 ", %" PRId64 "]",
					    t->lo, t->hi);
			break;
		case BS_SEL_TAG:
			assert_null(t->field);
			bs_buf_addf(b, "tag <%s>%s<%s>", t->key,
				    bs_sel_op(t->op)->text, t->value);
			break;
		case BS_SEL_PARAM:
			assert_null(t->field);
			bs_buf_addf(b, "param <%s>%s<%s>", t->key,
				    bs_sel_op(t->op)->text, t->value);
			break;
		default:
			fail_msg("term %zu has kind %d", i, (int)t->kind);
		}
		if (t->or_next)
			bs_buf_adds(b, " OR");
	}
}

struct ok_case {
	const char *in;
	const char *terms;   /* dump() of the parse */
	const char *printed; /* bs_sel_print(); NULL: the input itself */
};

/* clang-format off */
static const struct ok_case ok_cases[] = {
	/* Ids and ranges, alone or after id=. */
	{"12", "id 12", NULL},
	{"1", "id 1", NULL},
	{"9223372036854775807", "id 9223372036854775807", NULL},
	{"+5", "id 5", "5"},
	{"007", "id 7", "7"},
	{"12-15", "range 12-15", NULL},
	{"5-5", "range 5-5", NULL},
	{"1-9223372036854775807", "range 1-9223372036854775807", NULL},
	{"+1-+3", "range 1-3", "1-3"},
	{"id=12", "id 12", "12"},
	{"id=12-15", "range 12-15", "12-15"},
	{"id=9223372036854775807", "id 9223372036854775807",
	 "9223372036854775807"},
	{"id=1-+3", "range 1-3", "1-3"},
	/* last, last:N, all. */
	{"last", "last 1", "last:1"},
	{"last:1", "last 1", NULL},
	{"last:3", "last 3", NULL},
	{"last:+3", "last 3", "last:3"},
	{"last:9223372036854775807", "last 9223372036854775807", NULL},
	{"all", "all", NULL},
	/* Run fields: each row of the table. */
	{"machine=jump", "field machine[machine]=<jump>", NULL},
	{"name=jump", "field name[machine]=<jump>", NULL},
	{"tool=bonnie++", "field tool[tool]=<bonnie++>", NULL},
	{"version=1.03", "field version[tool_version]=<1.03>", NULL},
	{"format=bonnie++-csv-1.98",
	 "field format[format]=<bonnie++-csv-1.98>", NULL},
	{"source=/tmp/a b.csv", "field source[source]=</tmp/a b.csv>", NULL},
	{"machine=", "field machine[machine]=<>", NULL},
	{"machine=a=b", "field machine[machine]=<a=b>", NULL},
	/* Tags: any other key, exactly as written. */
	{"raid=5", "tag <raid>=<5>", NULL},
	{"raid=", "tag <raid>=<>", NULL},
	{"a=b=c", "tag <a>=<b=c>", NULL},
	{"a==", "tag <a>=<=>", NULL},
	{"host.kernel=6.1.0-18-amd64", "tag <host.kernel>=<6.1.0-18-amd64>",
	 NULL},
	{"Machine=x", "tag <Machine>=<x>", NULL},
	{"ID=5", "tag <ID>=<5>", NULL},
	{"ids=5", "tag <ids>=<5>", NULL},
	/* Blanks that start a term are dropped: a label typed back. */
	{" machine=a", "field machine[machine]=<a>", "machine=a"},
	{"raid=10, cache=on", "tag <raid>=<10> | tag <cache>=<on>",
	 "raid=10,cache=on"},
	/* Parameters of a family (core/param.h): text or ordered. */
	{"mode=rndrw", "param <mode>=<rndrw>", NULL},
	{"bs=4k", "param <bs>=<4k>", NULL},
	{"iodepth>=16", "param <iodepth>>=<16>", NULL},
	{"bs<1m", "param <bs><<1m>", NULL},
	{"rw~RandRead", "param <rw>~<RandRead>", NULL},
	{"direct!=1", "param <direct>!=<1>", NULL},
	/* The implementation, from the run's identity: no column. */
	{"impl=bstore run", "field impl[(null)]=<bstore run>", NULL},
	/* Alternatives: one clause. */
	{"id=21|25|26", "id 21 OR | id 25 OR | id 26", "21|25|26"},
	{"21|25-26", "id 21 OR | range 25-26", NULL},
	{"id!=3|5", "id!= 3 OR | id!= 5", NULL},
	{"machine=a|b,raid=5",
	 "field machine[machine]=<a> OR | field machine[machine]=<b> | "
	 "tag <raid>=<5>", NULL},
	{"mode=rndrw|seqrd", "param <mode>=<rndrw> OR | param <mode>=<seqrd>",
	 NULL},
	{"note=a\\|b", "tag <note>=<a|b>", NULL},
	{"raid=5|", "tag <raid>=<5> OR | tag <raid>=<>", NULL},
	{"x= y ", "tag <x>=< y >", NULL},
	{"array=EMC CX500", "tag <array>=<EMC CX500>", NULL},
	{"caf\xc3\xa9=cr\xc3\xa8me", "tag <caf\xc3\xa9>=<cr\xc3\xa8me>", NULL},
	{"tab=a\tb", "tag <tab>=<a\tb>", NULL},
	{"last=1", "tag <last>=<1>", NULL},
	{"all=", "tag <all>=<>", NULL},
	{"12=x", "tag <12>=<x>", NULL},
	/* Escapes: '\,' and '\\' anywhere, any other '\' is itself. */
	{"host.mount=rw\\,relatime", "tag <host.mount>=<rw,relatime>", NULL},
	{"p=a\\b\\\\", "tag <p>=<a\\b\\>", "p=a\\\\b\\\\"},
	{"p=a\\\\b\\\\,mnt=rw\\,relatime",
	 "tag <p>=<a\\b\\> | tag <mnt>=<rw,relatime>", NULL},
	{"p=x\\", "tag <p>=<x\\>", "p=x\\\\"},
	{"p=\\\\\\,", "tag <p>=<\\,>", NULL},
	{"p=\\\\\\\\,1", "tag <p>=<\\\\> | id 1", NULL},
	{"p=\\n\\t", "tag <p>=<\\n\\t>", "p=\\\\n\\\\t"},
	{"p=\\,\\,", "tag <p>=<,,>", NULL},
	{"k\\,ey=v", "tag <k,ey>=<v>", NULL},
	{"k\\\\=v", "tag <k\\>=<v>", NULL},
	{"id\\,=5", "tag <id,>=<5>", NULL},
	{"machine=a\\,b", "field machine[machine]=<a,b>", NULL},
	/* Several terms, in order; several last terms are all kept. */
	{"machine=jump,raid=5", "field machine[machine]=<jump> | tag <raid>=<5>",
	 NULL},
	{"raid=5,last:2", "tag <raid>=<5> | last 2", NULL},
	{"id=2-4,raid=10", "range 2-4 | tag <raid>=<10>", "2-4,raid=10"},
	{"last:5,all,last", "last 5 | all | last 1", "last:5,all,last:1"},
	{"1,1,1", "id 1 | id 1 | id 1", NULL},
	/* Every operator (bs_sel_ops) on text: globs as written. */
	{"raid!=10", "tag <raid>!=<10>", NULL},
	{"array~emc*", "tag <array>~<emc*>", NULL},
	{"array!~emc*", "tag <array>!~<emc*>", NULL},
	{"array=EMC*", "tag <array>=<EMC*>", NULL},
	{"a=[*]x?", "tag <a>=<[*]x?>", NULL},
	{"machine!=jump", "field machine[machine]!=<jump>", NULL},
	{"name~JUMP", "field name[machine]~<JUMP>", NULL},
	{"tool!~bonnie*", "field tool[tool]!~<bonnie*>", NULL},
	/* The first operator ends the key; the value holds any more. */
	{"a=!=", "tag <a>=<!=>", NULL},
	{"a!==b", "tag <a>!=<=b>", NULL},
	{"a~=b", "tag <a>~<=b>", NULL},
	{"a=<b>", "tag <a>=<<b>>", NULL},
	{"a!~~", "tag <a>!~<~>", NULL},
	/* Ids: every operator but ~ and !~, on an id or a range. */
	{"id!=12", "id!= 12", NULL},
	{"id<12", "id< 12", NULL},
	{"id<=12", "id<= 12", NULL},
	{"id>12", "id> 12", NULL},
	{"id>=12", "id>= 12", NULL},
	{"id!=3-5", "range!= 3-5", NULL},
	{"id>3-5", "range> 3-5", NULL},
	/* Dates: the interval of a year, a month, a day, a minute, a
	 * second, in UTC. */
	{"date=2004", "field date[measured_at]=<2004> [1072915200, 1104537599]",
	 NULL},
	{"date=2004-02", "field date[measured_at]=<2004-02> "
	 "[1075593600, 1078099199]", NULL},
	{"date=2004-12", "field date[measured_at]=<2004-12> "
	 "[1101859200, 1104537599]", NULL},
	{"date>=2024-01-01", "field date[measured_at]>=<2024-01-01> "
	 "[1704067200, 1704153599]", NULL},
	{"date<2024-01-01 10:30", "field date[measured_at]<<2024-01-01 10:30> "
	 "[1704105000, 1704105059]", NULL},
	{"date<=2024-01-01T10:30:15Z", "field date[measured_at]<=<2024-01-01"
	 "T10:30:15Z> [1704105015, 1704105015]", NULL},
	{"date!=@0", "field date[measured_at]!=<@0> [0, 0]", NULL},
	{"date>1970", "field date[measured_at]><1970> [0, 31535999]", NULL},
	{"date=9999", "field date[measured_at]=<9999> "
	 "[253370764800, 253402300799]", NULL},
	{"date=9999-12", "field date[measured_at]=<9999-12> "
	 "[253399622400, 253402300799]", NULL},
	{"date=9999-12-31", "field date[measured_at]=<9999-12-31> "
	 "[253402214400, 253402300799]", NULL},
	{"date>=2024,date<2025,raid!=5",
	 "field date[measured_at]>=<2024> [1704067200, 1735689599] | "
	 "field date[measured_at]<<2025> [1735689600, 1767225599] | "
	 "tag <raid>!=<5>", NULL},
};
/* clang-format on */

static void check_ok(const char *in, const char *terms, const char *printed)
{
	struct bs_sel sel = BS_SEL_INIT, back = BS_SEL_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf got = BS_BUF_INIT, text = BS_BUF_INIT;
	struct bs_buf again = BS_BUF_INIT;
	int rc = bs_sel_parse(&sel, in, &err);

	if (rc < 0)
		fail_msg("'%s': %s", in, err.msg);
	assert_int_equal(rc, (int)sel.n);
	dump(&sel, &got);
	if (strcmp(bs_buf_str(&got), terms) != 0)
		fail_msg("'%s': got '%s', expected '%s'", in, bs_buf_str(&got),
			 terms);
	/* Printed back, it is the same selector. */
	assert_int_equal(bs_sel_print(&sel, &text), 0);
	assert_string_equal(bs_buf_str(&text), printed ? printed : in);
	assert_int_equal(bs_sel_parse(&back, bs_buf_str(&text), &err),
			 (int)sel.n);
	dump(&back, &again);
	assert_string_equal(bs_buf_str(&again), terms);
	bs_sel_release(&sel);
	bs_sel_release(&back);
	bs_buf_release(&got);
	bs_buf_release(&text);
	bs_buf_release(&again);
}

static void test_forms(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++)
		check_ok(ok_cases[i].in, ok_cases[i].terms,
			 ok_cases[i].printed);
}

struct err_case {
	const char *in;
	const char *msg;
};

/* clang-format off */
static const struct err_case err_cases[] = {
	{"", "empty selector term"},
	{",", "empty selector term"},
	{"1,", "empty selector term"},
	{",1", "empty selector term"},
	{"1,,2", "empty selector term"},
	{"raid=5,", "empty selector term"},
	{"=x", "selector '=x' has no key before '='"},
	{"!=x", "selector '!=x' has no key before '!='"},
	{"~x", "selector '~x' has no key before '~'"},
	{"<x", "selector '<x' has no key before '<'"},
	{">=1", "selector '>=1' has no key before '>='"},
	/* A class both engines would read differently (issue 28): a usage
	 * error before any SQL. Members are characters: 'ü' > 'é'. */
	{"machine=[z-a]*", "glob '[z-a]*': the class '[z-a]' has a range "
			   "that goes down (z-a): write it low to high"},
	{"raid~x[\xc3\xbc-\xc3\xa9]", "glob 'x[\xc3\xbc-\xc3\xa9]': the class "
			   "'[\xc3\xbc-\xc3\xa9]' has a range that goes down (z-a): "
			   "write it low to high"},
	{"machine!=[a-c-e]*", "glob '[a-c-e]*': the class '[a-c-e]' chains "
			      "ranges (a-c-e): write each range apart, a "
			      "'-' last"},
	{"machine=[a]x[d-e-f]", "glob '[a]x[d-e-f]': the class '[d-e-f]' "
				"chains ranges (a-c-e): write each range "
				"apart, a '-' last"},
	{"machine=x[", "glob 'x[': the class '[' is not closed by ']' (a "
		       "'[' itself is written '[[]')"},
	{"k=[]", "glob '[]': the class '[]' is not closed by ']' (a '[' "
		 "itself is written '[[]')"},
	/* An operator character that starts no operator. */
	{"a!b", "'a!b" NOT_SEL},
	{"a!", "'a!" NOT_SEL},
	{"machine!jump", "'machine!jump" NOT_SEL},
	/* An operator the key's type does not take. */
	{"raid<5", "selector 'raid<5': a tag takes =, !=, ~ or !~, not '<'"},
	{"raid>=5", "selector 'raid>=5': a tag takes =, !=, ~ or !~, not '>='"},
	{"machine>a", "selector 'machine>a': machine takes =, !=, ~ or !~, "
	 "not '>'"},
	{"id~5", "selector 'id~5': id takes =, !=, <, <=, > or >=, not '~'"},
	{"date!~2004", "selector 'date!~2004': date takes =, !=, <, <=, > or "
	 ">=, not '!~'"},
	{"id<0", "'0" NOT_SEL},
	{"id!=x", "'id!=x" NOT_SEL},
	{"id>1<2", "'id>1<2" NOT_SEL},
	/* Dates: a year, a month, or bs_time_parse()'s forms, 1970 to
	 * 9999. */
	{"date=", "selector 'date=': " DATE_ERR},
	{"date=x", "selector 'date=x': " DATE_ERR},
	{"date=1969", "selector 'date=1969': " DATE_ERR},
	{"date=204", "selector 'date=204': " DATE_ERR},
	{"date=20045", "selector 'date=20045': " DATE_ERR},
	{"date=2004-13", "selector 'date=2004-13': " DATE_ERR},
	{"date=2004-00", "selector 'date=2004-00': " DATE_ERR},
	{"date=2004-1", "selector 'date=2004-1': " DATE_ERR},
	{"date=2004/03", "selector 'date=2004/03': " DATE_ERR},
	{"date=+004", "selector 'date=+004': " DATE_ERR},
	{"date=2023-02-29", "selector 'date=2023-02-29': " DATE_ERR},
	{"date=2004-03-01 25:00", "selector 'date=2004-03-01 25:00': "
	 DATE_ERR},
	{"date=2004Z", "selector 'date=2004Z': " DATE_ERR},
	{"date=@-1", "selector 'date=@-1': " DATE_ERR},
	{"date=@253402300800", "selector 'date=@253402300800': " DATE_ERR},
	{"date= 2004", "selector 'date= 2004': " DATE_ERR},
	{"=", "selector '=' has no key before '='"},
	{"==", "selector '==' has no key before '='"},
	{"1,=5", "selector '=5' has no key before '='"},
	{"bogus", "'bogus" NOT_SEL},
	{"bogus selector", "'bogus selector" NOT_SEL},
	{"0", "'0" NOT_SEL},
	{"-1", "'-1" NOT_SEL},
	{"-", "'-" NOT_SEL},
	{"--", "'--" NOT_SEL},
	{"2-", "'2-" NOT_SEL},
	{"-2-3", "'-2-3" NOT_SEL},
	{"4-2", "'4-2" NOT_SEL},
	{"0-5", "'0-5" NOT_SEL},
	{"1-2-3", "'1-2-3" NOT_SEL},
	{"1--2", "'1--2" NOT_SEL},
	{"1-9223372036854775808", "'1-9223372036854775808" NOT_SEL},
	{"9999999999999999999999", "'9999999999999999999999" NOT_SEL},
	{" 1x", "'1x" NOT_SEL},
	{"21|x", "'x" NOT_SEL},
	{"a|b=1", "'a|b=1" NOT_SEL},
	{"iodepth>=deep", "selector 'iodepth>=deep': iodepth takes a number "
	 "or a size after '>='"},
	{"raid>=5", "selector 'raid>=5': a tag takes =, !=, ~ or !~, not "
	 "'>='"},
	{"a\x1f" "b", "selector has a control character (0x1f)"},
	{"1 ", "'1 " NOT_SEL},
	{"12a", "'12a" NOT_SEL},
	{"0x10", "'0x10" NOT_SEL},
	{"LAST", "'LAST" NOT_SEL},
	{"All", "'All" NOT_SEL},
	{"last:", "'last:" NOT_SEL},
	{"last3", "'last3" NOT_SEL},
	{"12\\,13", "'12,13" NOT_SEL},
	{"a\\\\,b=1", "'a\\" NOT_SEL},
	{"last:0", "'last:0': expected last:N with N >= 1"},
	{"last:-1", "'last:-1': expected last:N with N >= 1"},
	{"last:x", "'last:x': expected last:N with N >= 1"},
	{"last:1x", "'last:1x': expected last:N with N >= 1"},
	{"last: 1", "'last: 1': expected last:N with N >= 1"},
	{"last:9223372036854775808",
	 "'last:9223372036854775808': expected last:N with N >= 1"},
	{"last:1:2", "'last:1:2': expected last:N with N >= 1"},
	/* id= takes an id or a range, nothing else; once the value starts
	 * with a digit, the message names the value alone. */
	{"id=", "'id=" NOT_SEL},
	{"id=last", "'id=last" NOT_SEL},
	{"id=all", "'id=all" NOT_SEL},
	{"id=raid=5", "'id=raid=5" NOT_SEL},
	{"id=machine=jump", "'id=machine=jump" NOT_SEL},
	{"id=-1", "'id=-1" NOT_SEL},
	{"id=+1", "'id=+1" NOT_SEL},
	{"id= 1", "'id= 1" NOT_SEL},
	{"id=id=2", "'id=id=2" NOT_SEL},
	{"id=1=2", "'id=1=2" NOT_SEL},
	{"id=0", "'0" NOT_SEL},
	{"id=2-", "'2-" NOT_SEL},
	{"id=4-2", "'4-2" NOT_SEL},
	{"id=1x", "'1x" NOT_SEL},
	{"id=1\\,2", "'1,2" NOT_SEL},
	/* The first bad term wins. */
	{"machine=jump,bogus", "'bogus" NOT_SEL},
	{"bogus,=x", "'bogus" NOT_SEL},
	{"1,2,last:0,=x", "'last:0': expected last:N with N >= 1"},
	{"mnt=rw,relatime", "'relatime" NOT_SEL},
	/* User data in a message: control characters as '?', cut at 40. */
	{"\x01x", "'?x" NOT_SEL},
	{"=\n", "selector '=?' has no key before '='"},
	{"last:\x7f", "'last:?': expected last:N with N >= 1"},
	{"0123456789012345678901234567890123456789x",
	 "'0123456789012345678901234567890123456789..." NOT_SEL},
	{"0123456789012345678901234567890123456789",
	 "'0123456789012345678901234567890123456789" NOT_SEL},
	{"=123456789012345678901234567890123456789x",
	 "selector '=123456789012345678901234567890123456789...' has no key "
	 "before '='"},
};
/* clang-format on */

static void check_err(const char *in, const char *msg)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_err err = BS_ERR_INIT;
	int rc = bs_sel_parse(&sel, in, &err);

	if (rc >= 0)
		fail_msg("'%s' parsed (%d terms), expected '%s'", in, rc, msg);
	assert_int_equal(rc, -BS_EINVAL);
	assert_int_equal(err.code, BS_EINVAL);
	if (strcmp(err.msg, msg) != 0)
		fail_msg("'%s': got \"%s\", expected \"%s\"", in, err.msg, msg);
	/* A failed parse leaves nothing to free. */
	assert_null(sel.term);
	assert_null(sel.text);
	assert_int_equal(sel.n, 0);
}

static void test_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++)
		check_err(err_cases[i].in, err_cases[i].msg);
}

/* n terms, each made by term(i), joined by ','. */
static char *join(size_t n, const char *(*term)(size_t, char *, size_t))
{
	struct bs_buf b = BS_BUF_INIT;
	char tmp[64];
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			bs_buf_addc(&b, ',');
		bs_buf_adds(&b, term(i, tmp, sizeof(tmp)));
	}
	return bs_buf_detach(&b, NULL);
}

static const char *tag_term(size_t i, char *tmp, size_t size)
{
	snprintf(tmp, size, "k%zu=v\\,%zu", i, i);
	return tmp;
}

static const char *id_term(size_t i, char *tmp, size_t size)
{
	snprintf(tmp, size, "%zu", i + 1);
	return tmp;
}

/* Up to BS_SEL_MAX_TERMS terms of any kind; one more is an error, unless
 * an earlier term is already wrong. */
static void test_limit(void **state)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf b = BS_BUF_INIT;
	char *s;
	size_t i;

	(void)state;
	assert_int_equal(BS_SEL_MAX_TERMS, 64);
	s = join(BS_SEL_MAX_TERMS, tag_term);
	assert_int_equal(bs_sel_parse(&sel, s, &err), BS_SEL_MAX_TERMS);
	for (i = 0; i < sel.n; i++) {
		char want[64];

		snprintf(want, sizeof(want), "v,%zu", i);
		assert_int_equal(sel.term[i].kind, BS_SEL_TAG);
		assert_string_equal(sel.term[i].value, want);
	}
	assert_int_equal(bs_sel_print(&sel, &b), 0);
	assert_string_equal(bs_buf_str(&b), s);
	free(s);

	s = join(BS_SEL_MAX_TERMS + 1, tag_term);
	check_err(s, "selector has too many terms");
	free(s);
	s = join(BS_SEL_MAX_TERMS + 1, id_term);
	check_err(s, "selector has too many terms");
	free(s);
	s = join(10 * BS_SEL_MAX_TERMS, id_term);
	check_err(s, "selector has too many terms");
	free(s);

	/* A bad term among the first 64 is named; after them, any 65th
	 * term is one too many. */
	bs_buf_reset(&b);
	s = join(BS_SEL_MAX_TERMS - 1, id_term);
	bs_buf_adds(&b, s);
	bs_buf_adds(&b, ",bogus,1,2");
	check_err(bs_buf_str(&b), "'bogus" NOT_SEL);
	free(s);
	s = join(BS_SEL_MAX_TERMS, id_term);
	bs_buf_reset(&b);
	bs_buf_adds(&b, s);
	bs_buf_adds(&b, ",bogus");
	check_err(bs_buf_str(&b), "selector has too many terms");
	bs_buf_reset(&b);
	bs_buf_adds(&b, s);
	bs_buf_adds(&b, ",");
	check_err(bs_buf_str(&b), "selector has too many terms");
	free(s);

	/* 64 terms of every kind. */
	bs_buf_reset(&b);
	for (i = 0; i < BS_SEL_MAX_TERMS; i++) {
		static const char *const kinds[] = {
			"id=3",          "1-9", "last:2", "all",
			"machine=a\\,b", "t=",  "last",   "7",
		};

		if (i > 0)
			bs_buf_addc(&b, ',');
		bs_buf_adds(&b, kinds[i % 8]);
	}
	assert_int_equal(bs_sel_parse(&sel, bs_buf_str(&b), &err),
			 BS_SEL_MAX_TERMS);
	assert_int_equal(sel.term[63].kind, BS_SEL_ID);
	assert_true(sel.term[63].lo == 7);
	bs_sel_release(&sel);
	bs_buf_release(&b);
}

/* Long values, every byte, and a parse into a used sel. */
static void test_odd_inputs(void **state)
{
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf in = BS_BUF_INIT, out = BS_BUF_INIT;
	size_t i;
	int c;

	(void)state;
	/* A 100,000-byte value of commas and backslashes. */
	bs_buf_adds(&in, "k=");
	for (i = 0; i < 50000; i++)
		bs_buf_adds(&in, i % 2 ? "\\," : "\\\\");
	assert_int_equal(bs_sel_parse(&sel, bs_buf_str(&in), &err), 1);
	assert_int_equal(strlen(sel.term[0].value), 50000);
	assert_int_equal(sel.term[0].value[0], '\\');
	assert_int_equal(sel.term[0].value[1], ',');
	assert_int_equal(bs_sel_print(&sel, &out), 0);
	assert_string_equal(bs_buf_str(&out), bs_buf_str(&in));

	/* A long key, and a long bad term quoted at 40 bytes. */
	bs_buf_reset(&in);
	for (i = 0; i < 10000; i++)
		bs_buf_addc(&in, 'k');
	bs_buf_adds(&in, "=v");
	assert_int_equal(bs_sel_parse(&sel, bs_buf_str(&in), &err), 1);
	assert_int_equal(strlen(sel.term[0].key), 10000);
	assert_string_equal(sel.term[0].value, "v");
	bs_buf_trim(&in, 2);
	check_err(bs_buf_str(&in),
		  "'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk..." NOT_SEL);

	/* Every byte but NUL in a key and a value comes back. */
	bs_buf_reset(&in);
	/* (but 0x1f, which the parser refuses, and an unescaped '|', which
	 * makes alternatives). */
	for (c = 1; c < 256; c++) {
		if (strchr(BS_SEL_OP_CHARS ",|\x1f", c))
			continue;
		bs_buf_addc(&in, (char)c);
	}
	bs_buf_adds(&in, "=");
	for (c = 1; c < 256; c++) {
		if (c == 0x1f)
			continue;
		if (c == '|')
			bs_buf_addc(&in, '\\');
		bs_buf_addc(&in, (char)c);
		if (c == ',')
			bs_buf_adds(&in, "k=");
	}
	bs_buf_reset(&out);
	if (bs_sel_parse(&sel, bs_buf_str(&in), &err) != 2)
		fail_msg("every byte: %s", err.msg);
	/* ...except that the unescaped ',' in the value cut it... */
	assert_int_equal(sel.term[0].kind, BS_SEL_TAG);
	assert_int_equal(sel.term[0].op, BS_OP_EQ);
	assert_int_equal(strlen(sel.term[0].value), ',' - 2);
	/* ...into a second term (k=), whose value holds the rest. */
	assert_int_equal(sel.term[1].kind, BS_SEL_TAG);
	assert_string_equal(sel.term[1].key, "k");
	assert_int_equal(sel.term[1].op, BS_OP_EQ);
	assert_int_equal(strlen(sel.term[1].value), 255 - ',');
	assert_int_equal(sel.term[1].value[0], '-');
	assert_int_equal(bs_sel_print(&sel, &out), 0);
	bs_buf_reset(&in);
	bs_buf_adds(&in, bs_buf_str(&out));
	bs_buf_reset(&out);
	assert_int_equal(bs_sel_parse(&sel, bs_buf_str(&in), &err), 2);
	assert_int_equal(bs_sel_print(&sel, &out), 0);
	assert_string_equal(bs_buf_str(&out), bs_buf_str(&in));

	/* Parsing into a used sel frees what it held; so does a failure. */
	assert_int_equal(bs_sel_parse(&sel, "1,2,3", &err), 3);
	assert_int_equal(bs_sel_parse(&sel, "all", &err), 1);
	assert_int_equal(sel.term[0].kind, BS_SEL_ALL);
	assert_int_equal(bs_sel_parse(&sel, "bogus", &err), -BS_EINVAL);
	assert_int_equal(sel.n, 0);
	assert_null(sel.term);
	bs_sel_release(&sel);
	bs_sel_release(&sel);

	/* A capped buffer: the print fails rather than cut a term. */
	bs_buf_release(&out);
	bs_buf_init_max(&out, 4);
	assert_int_equal(bs_sel_parse(&sel, "raid=10", &err), 1);
	assert_int_equal(bs_sel_print(&sel, &out), -BS_ETOOBIG);
	bs_sel_release(&sel);
	bs_buf_release(&in);
	bs_buf_release(&out);
}

/* One table of run fields, read by the parser and bs_store_run_column(). */
static void test_fields(void **state)
{
	size_t i, nid = 0;

	(void)state;
	assert_string_equal(bs_store_run_column("name", 4), "machine");
	assert_string_equal(bs_store_run_column("version", 7), "tool_version");
	assert_string_equal(bs_store_run_column("id", 2), "id");
	assert_null(bs_store_run_column("raid", 4));
	assert_null(bs_store_run_column("", 0));
	assert_null(bs_store_run_column("mach", 4));
	/* Only len bytes count. */
	assert_string_equal(bs_store_run_column("machinex", 7), "machine");
	assert_null(bs_store_run_column("machine", 8));
	for (i = 0; i < bs_sel_nfields; i++) {
		const struct bs_sel_field *f = &bs_sel_fields[i];

		assert_ptr_equal(bs_sel_field(f->key, strlen(f->key)), f);
		if (f->column)
			assert_string_equal(bs_store_run_column(f->key,
								strlen(f->key)),
					    f->column);
		else
			assert_null(
				bs_store_run_column(f->key, strlen(f->key)));
		assert_null(strpbrk(f->key, BS_SEL_OP_CHARS ",\\"));
		nid += f->type == BS_SEL_IDS;
		if (f->type == BS_SEL_IDS)
			assert_string_equal(f->key, "id");
		if (f->type == BS_SEL_DATE)
			assert_string_equal(f->column, "measured_at");
	}
	assert_int_equal(nid, 1);
}

/* The table of operators: one row an operator, each spelled from the
 * characters that end a key, and no row hidden behind an earlier one
 * that is its prefix (the parser takes the first that matches). */
static void test_ops(void **state)
{
	size_t i, j;
	int op;

	(void)state;
	for (op = BS_OP_EQ; op <= BS_OP_GE; op++) {
		size_t n = 0;

		for (i = 0; i < bs_sel_nops; i++)
			n += bs_sel_ops[i].op == (enum bs_sel_op)op;
		assert_int_equal(n, 1);
		assert_non_null(bs_sel_op((enum bs_sel_op)op));
	}
	assert_int_equal(bs_sel_nops, BS_OP_GE);
	for (i = 0; i < bs_sel_nops; i++) {
		const char *t = bs_sel_ops[i].text;

		assert_true(t[0] != '\0');
		assert_int_equal(strspn(t, BS_SEL_OP_CHARS), strlen(t));
		assert_true(bs_sel_ops[i].types != 0);
		assert_non_null(bs_sel_ops[i].help);
		for (j = 0; j < i; j++)
			if (strncmp(t, bs_sel_ops[j].text,
				    strlen(bs_sel_ops[j].text)) == 0)
				fail_msg("'%s' is hidden by '%s'", t,
					 bs_sel_ops[j].text);
	}
}

/* Reads $SRC/rel into b. */
static void read_source(const char *rel, struct bs_buf *b)
{
	const char *src = getenv("SRC");
	char path[4096], tmp[4096];
	size_t n;
	FILE *f;

	if (src == NULL)
		fail_msg("SRC is not set (ctest sets it to the source tree)");
	snprintf(path, sizeof(path), "%s/%s", src, rel);
	f = fopen(path, "r");
	if (f == NULL)
		fail_msg("cannot open '%s'", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(b, tmp, n);
	fclose(f);
}

/* Whether a line of the text between start and end, less its leading
 * blanks, starts with word and a blank. */
static int line_starts(const char *start, const char *end, const char *word)
{
	size_t n = strlen(word);
	const char *p = start;

	while (p && p < end) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == '\t'))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* The table against the schema (each column is one of runs) and the docs
 * (store/store.h and docs/formats.md name every key). */
static void test_fields_schema_docs(void **state)
{
	struct bs_buf text = BS_BUF_INIT;
	const char *runs, *end;
	char want[64];
	size_t i;

	(void)state;
	read_source("schema.sql", &text);
	runs = strstr(bs_buf_str(&text), "CREATE TABLE runs (");
	assert_non_null(runs);
	end = strstr(runs, "\n)");
	assert_non_null(end);
	for (i = 0; i < bs_sel_nfields; i++)
		if (bs_sel_fields[i].column &&
		    !line_starts(runs, end, bs_sel_fields[i].column))
			fail_msg("schema.sql: runs has no column '%s'",
				 bs_sel_fields[i].column);

	bs_buf_reset(&text);
	read_source("store/store.h", &text);
	for (i = 0; i < bs_sel_nfields; i++) {
		snprintf(want, sizeof(want), " %s=", bs_sel_fields[i].key);
		if (strstr(bs_buf_str(&text), want) == NULL)
			fail_msg("store/store.h does not name '%s'", want);
	}
	bs_buf_reset(&text);
	read_source("docs/formats.md", &text);
	for (i = 0; i < bs_sel_nfields; i++) {
		snprintf(want, sizeof(want), "`%s`", bs_sel_fields[i].key);
		if (strstr(bs_buf_str(&text), want) == NULL)
			fail_msg("docs/formats.md does not name '%s'", want);
	}
	bs_buf_release(&text);
}

/*
 * A selector's glob as PostgreSQL's regular expression (store/db.h): the
 * same text matches as under SQLite's GLOB (checked against SQLite on
 * 4,128 random patterns when written), every other character literal.
 */
static void test_glob_regex(void **state)
{
	static const struct {
		const char *glob, *regex;
	} cases[] = {
		{"bonnie++-text*", "^bonnie\\+\\+\\-text.*$"},
		{"[a-c]x", "^[a-c]x$"},
		{"[^a]*", "^[^a].*$"},
		{"[]]", "^[\\]]$"},
		{"[a-]", "^[a\\-]$"},
		{"emc?", "^emc.$"},
		{"a\\b.c", "^a\\\\b\\.c$"},
		{"x[", "a^"}, /* an unclosed class matches nothing */
		{"", "^$"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bs_buf b = BS_BUF_INIT;
		bs_db_glob_regex(cases[i].glob, &b);
		assert_string_equal(bs_buf_str(&b), cases[i].regex);
		bs_buf_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_odd_inputs),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_glob_regex),
		cmocka_unit_test(test_fields_schema_docs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
