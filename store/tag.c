/*
 * store/tag.c - the one rule for tags: what a key and value may be, and
 * KEY=VALUE as ingest --tag, run --tag and bstore tag take it. No SQLite
 * here, so that the parser can be fuzzed alone (tests/fuzz/fuzz_args.c).
 */
#include "store/selector.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

int bs_store_check_tag(const char *key, const char *value, struct bs_err *err)
{
	size_t len = strlen(key);
	char q[64];

	bs_err_quote(q, sizeof(q), key, len, 40);
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty tag key");
	if (bs_text_has_control(key) || (value && bs_text_has_control(value)))
		return bs_error(err, BS_EINVAL,
				"tag '%s' has a control character (a "
				"newline?)",
				q);
	/* A selector splits at ',' and ends a key at its operator: such a
	 * key could never be selected. */
	if (strpbrk(key, BS_SEL_OP_CHARS ","))
		return bs_error(err, BS_EINVAL,
				"tag key '%s' has one of , = ! ~ < >", q);
	if (key[0] == ' ')
		return bs_error(err, BS_EINVAL,
				"tag key '%s' starts with a blank (selectors "
				"drop the blanks that start a term)",
				q);
	if (bs_sel_field(key, len))
		return bs_error(err, BS_EINVAL,
				"'%s' is a run field, not a tag key "
				"(selectors read it from the run)",
				q);
	return 0;
}

int bs_store_parse_tag(const char *arg, unsigned flags, char **key,
		       char **value, struct bs_err *err)
{
	const char *eq = strchr(arg, '=');
	char q[64];
	int rc;

	*key = *value = NULL;
	if (eq == NULL || eq == arg)
		return bs_error(err, BS_EINVAL, "'%s' is not KEY=VALUE",
				bs_err_quote(q, sizeof(q), arg, strlen(arg),
					     40));
	/* host.* are the host's facts and run.* the run's settings: bstore
	 * run records them, so nobody may pass their own for its runs. */
	if ((flags & BS_TAG_NOT_OWN) &&
	    (strncmp(arg, "host.", 5) == 0 || strncmp(arg, "run.", 4) == 0))
		return bs_error(err, BS_EINVAL,
				"host.* and run.* tags are set by bstore's "
				"measuring commands themselves");
	*key = xstrndup(arg, (size_t)(eq - arg));
	*value = xstrdup(eq + 1);
	rc = bs_store_check_tag(*key, *value, err);
	if (rc < 0) {
		free(*key);
		free(*value);
		*key = *value = NULL;
	}
	return rc;
}
