/* SPDX-License-Identifier: ISC */
/*
 * ncpandas: what pandas does to the collective report's sheets (ncpriv.h): a column's
 * type (integers with a gap are floats), groupby with its key order, the aggregations,
 * sort_values' order, numpy's rounding.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "ncpriv.h"

/* pandas' column types: a column of integers with a missing value (or a float) is a
 * float column. A sheet written in parts gathers what each column holds over all of
 * them first (types_scan), then converts each part alike (types_apply). */
enum { TY_INT = 1, TY_OTHER = 2, TY_STR = 4 };

void
nc_types_scan(const struct tab *t, unsigned char *fl)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++)
		for (r = 0; r < t->nrows; r++) {
			int k = tab_cell(t, r, c)->kind;

			fl[c] |= k == TAB_INT ? TY_INT : k == TAB_NONE || k == TAB_NUM ? TY_OTHER :
			    TY_STR;
		}
}

void
nc_types_apply(struct tab *t, const unsigned char *fl)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++) {
		if (fl[c] != (TY_INT | TY_OTHER))
			continue;
		for (r = 0; r < t->nrows; r++) {
			struct tab_cell *x = tab_cell(t, r, c);

			if (x->kind == TAB_INT)
				tab_set_num(t, r, c, (double)x->v.i);
		}
	}
}

void
nc_pandas_types(struct tab *t)
{
	unsigned char *fl = xcalloc(t->ncols ? t->ncols : 1, 1);

	nc_types_scan(t, fl);
	nc_types_apply(t, fl);
	free(fl);
}

/* numpy's round(x, 1) */
double
nc_round1(double x)
{
	return rint(x * 10) / 10;
}

static struct nc *sort_nc;

static size_t nkeys_sort;

static int
cmp_kgroup(const void *a, const void *b)
{
	const struct kgroup *x = a, *y = b;
	size_t i;
	int d;

	for (i = 0; i < nkeys_sort; i++)
		if (x->key[i] != y->key[i] &&
		    (d = nc_val_cmp(sort_nc, V(sort_nc, x->key[i]), V(sort_nc, y->key[i]))) != 0)
			return d;
	return 0;
}

/* Group items (count n) by nk keys got by keyf (value ids: one id, one value of one
 * type); sorted by key, as pandas' groupby. */
struct kgroup *
nc_group_by(struct nc *nc, size_t n, size_t nk, void (*keyf)(struct nc *, size_t, uint32_t *,
    void *), void *arg, size_t *ng)
{
	struct kgroup *gs = NULL;
	uint32_t *k = xreallocarray(NULL, nk, sizeof(*k));
	size_t i, j, cap = 0, m = 0;
	struct names idx;
	int added;

	names_init(&idx);
	for (i = 0; i < n; i++) {
		bool none = false;

		keyf(nc, i, k, arg);
		for (j = 0; j < nk; j++)
			none |= k[j] == 0;
		if (none)
			continue;
		j = names_add(&idx, (const char *)k, nk * sizeof(*k), &added);
		if (added) {
			gs = xgrow(gs, &cap, m + 1, sizeof(*gs));
			memset(&gs[m], 0, sizeof(gs[m]));
			gs[m].key = xreallocarray(NULL, nk, sizeof(*k));
			memcpy(gs[m].key, k, nk * sizeof(*k));
			m++;
		}
		gs[j].rows = xgrow(gs[j].rows, &gs[j].cap, gs[j].n + 1, sizeof(size_t));
		gs[j].rows[gs[j].n++] = i;
	}
	names_free(&idx);
	free(k);
	sort_nc = nc;
	nkeys_sort = nk;
	if (m > 1)
		qsort(gs, m, sizeof(*gs), cmp_kgroup);
	*ng = m;
	return gs;
}

void
nc_kgroups_free(struct kgroup *gs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(gs[i].key);
		free(gs[i].rows);
	}
	free(gs);
}

void
nc_set_agg(struct tab *t, size_t row, size_t col, const struct vec *v, int a, bool isint)
{
	switch (a) {
	case A_MEAN: tab_set_num(t, row, col, stat_mean(v)); break;
	case A_MEDIAN: tab_set_num(t, row, col, stat_median(v)); break;
	case A_MIN: nc_set_time(t, row, col, stat_min(v), isint); break;
	case A_MAX: nc_set_time(t, row, col, stat_max(v), isint); break;
	case A_SUM: nc_set_time(t, row, col, stat_sum(v), isint); break;
	case A_STD: tab_set_num(t, row, col, stat_std(v, 1)); break;
	}
}

const char *const nc_agg_name[] = { "mean", "median", "min", "max", "sum", "std" };

/* The order pandas' sort_values(col, ascending=False) leaves n values in. */
size_t *
nc_pandas_order(const double *v, const bool *isint, size_t n)
{
	struct tab *t = tab_new("order");
	size_t *o = xreallocarray(NULL, n ? n : 1, sizeof(*o)), i;

	tab_col(t, "v");
	tab_col(t, "i");
	for (i = 0; i < n; i++) {
		size_t r = tab_row(t);

		nc_set_time(t, r, 0, v[i], isint != NULL && isint[i]);
		tab_set_int(t, r, 1, (long long)i);
	}
	tab_sort_pandas(t, 0, 1);
	for (i = 0; i < n; i++)
		o[i] = (size_t)tab_cell(t, i, 1)->v.i;
	tab_free(t);
	return o;
}
