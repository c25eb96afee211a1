/*
 * report/runlist.c - the runs the HTML list of runs shows, kept compactly
 * (struct bs_rruns) while the report reads them, or dropped past
 * BS_REPORT_KEEP_MAX.
 */
#include <math.h>
#include <stdlib.h>

#include "report/internal.h"
#include "store/store.h"
#include "util/mem.h"
#include "util/banned.h"

/* Does the list of runs show catalogue row t? */
static int listed(int t)
{
	return bs_metrics[t].family == BS_FAM_BONNIE
		       ? t < BS_M_BONNIE
		       : (bs_metrics[t].flags & BS_MF_MAIN) != 0;
}

int bs_rlist_slot(int t)
{
	int t0, t1, k, n = 0;

	if (!listed(t))
		return -1;
	bs_metric_rows(bs_metrics[t].family, &t0, &t1);
	for (k = t0; k < t; k++)
		n += listed(k);
	return n < BS_M_BONNIE ? n : -1;
}

void bs_rrow_fill(struct bs_rruns *rr, const struct bs_run *r, uint32_t group,
		  struct bs_rrow *row)
{
	int t, t0, t1, n = 0;

	row->id = r->id;
	row->size_mib = r->params.file_size_mib;
	row->group = group;
	row->family = (unsigned char)r->family;
	row->machine = bs_intern(&rr->pool, bs_store_machine_name(r->machine));
	row->version =
		bs_intern(&rr->pool, r->tool_version ? r->tool_version : "");
	bs_metric_rows(r->family, &t0, &t1);
	for (t = t0; t < t1 && n < BS_M_BONNIE; t++) {
		if (!listed(t))
			continue;
		row->status[n] = (unsigned char)r->res[t].status;
		row->absent[n] = (unsigned char)bs_absent_of(r, t);
		bs_rmetric(r, BS_RM(t, BS_MK_RATE), &row->rate[n++]);
	}
	for (; n < BS_M_BONNIE; n++) {
		row->status[n] = BS_ST_NOT_RUN;
		row->absent[n] = BS_AB_NOT_RUN;
		row->rate[n] = NAN;
	}
}

void bs_rruns_free(struct bs_rruns *rr)
{
	if (rr == NULL)
		return;
	bs_intern_release(&rr->pool);
	free(rr->row);
	free(rr);
}

void bs_rruns_keep(struct bs_rruns *rr, const struct bs_run *r, uint32_t group)
{
	if (rr->dropped)
		return;
	if ((rr->n + 1) * sizeof(*rr->row) > BS_REPORT_KEEP_MAX) {
		/* Too many to keep: the renderer reads them again. */
		free(rr->row);
		rr->row = NULL;
		rr->n = rr->cap = 0;
		rr->dropped = 1;
		return;
	}
	xgrow((void **)&rr->row, &rr->cap, rr->n + 1, sizeof(*rr->row));
	bs_rrow_fill(rr, r, group, &rr->row[rr->n++]);
}
