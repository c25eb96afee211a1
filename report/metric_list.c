/*
 * report/metric_list.c - reads a --metrics list into the report metrics it
 * chooses (report/report.h: bs_report_metrics_parse).
 */
#include <string.h>

#include "report/internal.h"
#include "util/banned.h"

int bs_report_metrics_parse(const char *list, unsigned char want[BS_RM_COUNT],
			    struct bs_err *err)
{
	const char *p = list, *end;
	char word[64], key[32], q[64];
	size_t len;
	int m, t, k, any;

	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0 || len >= sizeof(word))
			return bs_error(err, BS_EINVAL,
					"'%s' is not a metric list",
					bs_err_quote(q, sizeof(q), list,
						     strlen(list), 40));
		memcpy(word, p, len);
		word[len] = '\0';
		any = 0;
		for (m = 0; m < BS_RM_USED; m++) {
			t = BS_RM_TEST(m);
			k = BS_RM_KIND(m);
			if (k != BS_MK_RATE &&
			    !(bs_metrics[t].flags & BS_MF_CPU_LAT))
				continue;
			if (strcmp(word, "all") == 0 ||
			    (strcmp(word, "rates") == 0 && k == BS_MK_RATE) ||
			    (strcmp(word, "cpu") == 0 && k == BS_MK_CPU) ||
			    (strcmp(word, "latency") == 0 && k == BS_MK_LAT) ||
			    (strcmp(word, "io") == 0 &&
			     bs_metrics[t].family == BS_FAM_BONNIE &&
			     t < BS_M_FIRST_FILE) ||
			    (strcmp(word, "files") == 0 &&
			     bs_metrics[t].category == BS_CAT_METADATA) ||
			    strcmp(word,
				   bs_report_metric_key(m, key, sizeof(key))) ==
				    0) {
				want[m] = 1;
				any = 1;
			}
		}
		if (!any)
			return bs_error(err, BS_EINVAL,
					"unknown metric '%s' (expected e.g. "
					"put_block, put_block_cpu, "
					"put_block_latency, rates, cpu, "
					"latency, io, files or all)",
					bs_err_quote(q, sizeof(q), word, len,
						     40));
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}
