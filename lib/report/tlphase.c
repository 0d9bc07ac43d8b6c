/* SPDX-License-Identifier: ISC */
/* tlphase: the sheets by inference phase: ops_summary_by_phase, ops_summary_prefill
 * and ops_summary_decode (spec tracelens.md §9.2). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "torch/kcat.h"
#include "tlcommon.h"

/* --- ops_summary_prefill, ops_summary_decode (§9.2) ------------------------------------ */

/* The launcher's kernel categories (torch/kcat.h): the distinct ones, sorted, joined
 * with ", " into b. */
static void
kernel_categories(struct tl *tl, const struct launchers *L, size_t i, struct buf *b)
{
	const char **c = NULL;
	size_t nc = 0, j, k;

	for (j = 0; j < L->nk[i]; j++) {
		const char *name = tl_str(tl, tl->k[L->ev[L->k0[i] + j]].name);
		const char *cat = kcat_name(name, strlen(name));

		for (k = 0; k < nc && strcmp(c[k], cat) != 0; k++)
			;
		if (k == nc) {
			c = xreallocarray(c, nc + 1, sizeof(*c));
			c[nc++] = cat;
		}
	}
	qsort(c, nc, sizeof(*c), tl_str_cmp);
	buf_reset(b);
	for (k = 0; k < nc; k++) {
		if (k)
			buf_adds(b, ", ");
		buf_adds(b, c[k]);
	}
	free(c);
}

/* ttp's grouped summary by phase (ttp-table --group-by phase for PyTorch records): the
 * kernel launchers per ttp-phase tag, as ops_summary_by_category groups them by
 * category; launchers without a tag are the phase "None". Empty (so left out) when no
 * op has a tag. */
struct tab *
tl_sheet_by_phase(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary_by_phase");
	struct names groups;
	struct tab_key keys[] = { { 2, 1 }, { 0, 0 } };
	size_t i, r;
	int any = 0;

	tab_col(t, "phase");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	for (i = 0; i < L->n && !any; i++)
		any = tl->op[L->op[i]].phase != NAME_NONE;
	names_init(&groups);
	for (i = 0; i < L->n && any; i++) {
		const char *ph = tl_str(tl, tl->op[L->op[i]].phase);

		r = tab_group(&groups, ph, strlen(ph));
		if (r == t->nrows) {
			tab_row(t);
			tab_set_str(t, r, 0, ph);
			tab_set_int(t, r, 1, 0);
			tab_set_num(t, r, 2, 0);
		}
		tab_cell(t, r, 1)->v.i++;
		tab_cell(t, r, 2)->v.d += ls[i].direct / 1000;
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 2);
	names_free(&groups);
	return t;
}

/* The launchers ttp-phase tagged phase, grouped by name, as the branch's
 * get_df_kernel_launchers_summary_by_inference_phase: percentages within the phase;
 * Kernel categories of each name from its first launcher (by trace order). Empty (so
 * left out) when no launcher has the phase. */
struct tab *
tl_sheet_phase(struct tl *tl, const struct launchers *L, const struct lstat *ls,
    const char *phase)
{
	struct tab *t;
	struct names groups;
	struct buf b = BUF_INIT;
	struct tab_key byname = { 1, 0 };
	uint32_t ph = names_lookup(&tl->str, phase, strlen(phase));
	long long *first = NULL;
	size_t i, r;

	buf_printf(&b, "ops_summary_%s", phase);
	t = tab_new(b.p);
	tab_col(t, "Kernel categories");
	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	names_init(&groups);
	for (i = 0; i < L->n && ph != NAME_NONE; i++) {
		const struct top *o = &tl->op[L->op[i]];
		const char *name = tl_str(tl, o->name);

		if (o->phase != ph)
			continue;
		r = tab_group(&groups, name, strlen(name));
		if (r == t->nrows) {
			tab_row(t);
			tab_set_str(t, r, 1, name);
			tab_set_num(t, r, 2, 0);
			tab_set_int(t, r, 3, 0);
			first = xreallocarray(first, r + 1, sizeof(*first));
			first[r] = -1;
		}
		tab_cell(t, r, 2)->v.d += ls[i].direct;
		tab_cell(t, r, 3)->v.i++;
		if (first[r] < 0 || o->id < first[r]) {
			first[r] = o->id;
			kernel_categories(tl, L, i, &b);
			if (b.len > 0)
				tab_set_str(t, r, 0, b.p);
		}
	}
	for (r = 0; r < t->nrows; r++)
		tab_set_num(t, r, 4, tab_num(t, r, 2) / 1000);
	/* groupby's order (by name), then sort_values on the sum, whose ties pandas
	 * leaves in numpy's quicksort order */
	tab_sort(t, &byname, 1);
	tab_sort_pandas(t, 2, 1);
	tab_percentages(t, 4);
	names_free(&groups);
	buf_free(&b);
	free(first);
	return t;
}
