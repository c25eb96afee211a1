/*
 * tests/unit/test_supply.c - core/supply.c, the one rule for a parameter
 * the user supplies (ingest --param, bstore set): a table of cases on a
 * fio run read from normal text (rw, bs, iodepth printed; direct not),
 * each with its result, message and whether the value ends up supplied;
 * a sequence of changes to one run; and the stored list of keys read
 * back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/supply.h"
#include "util/buf.h"

/* A fio run as its normal text gives it: no direct, no numjobs. */
static void fio_run(struct bs_run *r)
{
	bs_run_init(r);
	r->family = BS_FAM_FIO;
	bs_run_set(&r->tool, "fio");
	bs_run_set(&r->format, "fio-text");
	bs_run_set(bs_param_text(&r->params,
				 bs_param_find_in(BS_FAM_FIO, "rw")),
		   "randread");
	bs_run_set(bs_param_text(&r->params,
				 bs_param_find_in(BS_FAM_FIO, "bs")),
		   "4096B");
	*bs_param_i64(&r->params, bs_param_find_in(BS_FAM_FIO, "iodepth")) = 16;
}

/* bs_supply's answer as one number: 1 changed, 0 the same, or its
 * -BS_E* code. */
static int supply(struct bs_run *r, const char *key, const char *text,
		  struct bs_err *err)
{
	enum bs_supply_outcome how = BS_SUPPLY_CHANGED;
	int rc = bs_supply(r, key, text, &how, err);

	return rc < 0 ? rc : how == BS_SUPPLY_CHANGED;
}

static const struct {
	const char *key, *text;
	int rc;          /* supply()'s */
	const char *msg; /* the error, or NULL */
	const char *now; /* the value afterwards, as formatted; "" unknown */
	int supplied;
} cases[] = {
	{"direct", "1", 1, NULL, "on", 1},
	{"direct", "on", 1, NULL, "on", 1},
	{"direct", "false", 1, NULL, "off", 1},
	{"direct", "2", -BS_EINVAL, "direct: '2' is not on or off", "", 0},
	{"direct", "", 0, NULL, "", 0},
	{"numjobs", "4", 1, NULL, "4", 1},
	{"numjobs", "four", -BS_EINVAL, "numjobs: 'four' is not a whole number",
	 "", 0},
	{"size", "64M", 1, NULL, "64M", 1},
	/* Printed: the same value (4k is 4096B) is no change, another is
	 * refused, and it cannot be made unknown. */
	{"bs", "4k", 0, NULL, "4096B", 0},
	{"bs", "8k", -BS_EINVAL,
	 "bs: the run's output says 4096B; a value the output printed is not "
	 "replaced",
	 "4096B", 0},
	{"rw", "randread", 0, NULL, "randread", 0},
	{"rw", "read", -BS_EINVAL,
	 "rw: the run's output says randread; a value the output printed is "
	 "not replaced",
	 "randread", 0},
	{"iodepth", "", -BS_EINVAL,
	 "iodepth: the run's output says 16; a value the output printed is "
	 "kept",
	 "16", 0},
	/* Keys: of the family, or the closest. */
	{"drect", "1", -BS_EINVAL,
	 "'drect' is not a parameter of fio runs; did you mean 'direct'?", NULL,
	 0},
	{"file_size_mib", "1024", -BS_EINVAL,
	 "'file_size_mib' is not a parameter of fio runs (they have", NULL, 0},
};

static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bs_err err = BS_ERR_INIT;
		struct bs_buf now = BS_BUF_INIT;
		struct bs_run r;
		int k = bs_param_find_in(BS_FAM_FIO, cases[i].key);
		int rc;

		fio_run(&r);
		rc = supply(&r, cases[i].key, cases[i].text, &err);
		if (rc != cases[i].rc)
			fail_msg("%s=%s: %d, want %d (%s)", cases[i].key,
				 cases[i].text, rc, cases[i].rc, err.msg);
		if (cases[i].msg &&
		    strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("%s=%s: '%s', want '%s'", cases[i].key,
				 cases[i].text, err.msg, cases[i].msg);
		if (cases[i].now) {
			bs_param_format(&r.params, k, &now);
			assert_string_equal(bs_buf_str(&now), cases[i].now);
		}
		assert_int_equal(bs_supplied(&r, k), cases[i].supplied);
		bs_buf_release(&now);
		bs_run_release(&r);
	}
}

/* A supplied value may be changed and made unknown again. */
static void test_sequence(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf keys = BS_BUF_INIT;
	struct bs_run r;
	int d = bs_param_find_in(BS_FAM_FIO, "direct");

	(void)state;
	fio_run(&r);
	assert_int_equal(supply(&r, "direct", "1", &err), 1);
	assert_int_equal(supply(&r, "direct", "yes", &err), 0);
	assert_int_equal(supply(&r, "direct", "0", &err), 1);
	assert_int_equal(bs_param_get_i64(&r.params, d), 0);
	assert_int_equal(supply(&r, "numjobs", "1", &err), 1);
	bs_supplied_keys(&r, &keys);
	assert_string_equal(bs_buf_str(&keys), "numjobs,direct");
	assert_int_equal(supply(&r, "direct", "", &err), 1);
	assert_false(bs_param_known(&r.params, d));
	assert_false(bs_supplied(&r, d));
	bs_buf_reset(&keys);
	bs_supplied_keys(&r, &keys);
	assert_string_equal(bs_buf_str(&keys), "numjobs");
	bs_buf_release(&keys);
	bs_run_release(&r);
}

/* The stored list reads back; a key the family lacks is skipped. */
static void test_keys_read_back(void **state)
{
	struct bs_buf keys = BS_BUF_INIT;
	struct bs_run r;

	(void)state;
	fio_run(&r);
	bs_supplied_parse(&r, "rw,nosuch,,direct,file_size_mib");
	bs_supplied_keys(&r, &keys);
	assert_string_equal(bs_buf_str(&keys), "rw,direct");
	bs_supplied_parse(&r, NULL);
	assert_int_equal(r.supplied, 0);
	bs_buf_release(&keys);
	bs_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_keys_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
