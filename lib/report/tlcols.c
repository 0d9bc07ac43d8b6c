/* SPDX-License-Identifier: ISC */
/* tlcols: the declared columns of the aggregating sheets (see report/tlcols.h). */
#include <math.h>
#include <stdint.h>

#include "report/tab.h"
#include "report/tlcols.h"

void (*tl_cols_hook)(struct tab *, size_t, const struct tl_col *, size_t, const size_t *,
    const struct tl_group *);

void
tl_cols_add(struct tab *t, const struct tl_col *c, size_t n, unsigned have, size_t *idx)
{
	size_t j;

	for (j = 0; j < n; j++)
		idx[j] = (c[j].when & ~have) == 0 ? tab_col(t, c[j].name) : TL_COL_NONE;
}

static double
agg_num(const struct tl_col *c, const struct vec *v, const struct tl_group *g)
{
	double s;
	size_t i;

	switch (c->agg) {
	case TL_FIRSTNUM:
		for (i = 0; i < v->n; i++)
			if (!isnan(v->v[i]))
				return v->v[i];
		return NAN;
	case TL_SUM: return stat_sum(v);
	case TL_PSUM:
		for (s = 0, i = 0; i < v->n; i++)
			s += v->v[i];
		return s;
	case TL_COUNT: return (double)v->n;
	case TL_MEAN: return stat_mean(v);
	case TL_MEDIAN: return stat_median(v);
	case TL_STD: return stat_std(v, 1);
	case TL_MIN: return stat_min(v);
	case TL_MAX: return stat_max(v);
	case TL_PCT: return stat_sum(v) / g->denom[c->arg] * 100;
	default: return NAN;
	}
}

static void
set_val(struct tab *t, size_t r, size_t col, const struct tl_val *v)
{
	if (v->kind == TAB_STR)
		tab_set_str(t, r, col, v->s);
	else if (v->kind == TAB_INT)
		tab_set_int(t, r, col, v->i);
	else if (v->kind == TAB_NUM)
		tab_set_num(t, r, col, v->d);
	else if (v->kind == TAB_BOOL)
		tab_set_bool(t, r, col, v->i != 0);
}

void
tl_cols_row(struct tab *t, size_t r, const struct tl_col *c, size_t n, const size_t *idx,
    const struct tl_group *g)
{
	struct tl_val v;
	double x;
	size_t j;

	for (j = 0; j < n; j++) {
		if (idx[j] == TL_COL_NONE || c[j].agg == TL_CUSTOM)
			continue;
		if (c[j].agg == TL_FIRST) {
			v = (struct tl_val){ TAB_NONE, 0, 0, NULL };
			g->first(g->ctx, c[j].src, &v);
			set_val(t, r, idx[j], &v);
			continue;
		}
		if (c[j].agg == TL_COUNT) {
			tab_set_int(t, r, idx[j], (long long)g->v[c[j].src]->n);
			continue;
		}
		x = agg_num(&c[j], g->v[c[j].src], g);
		if (c[j].fmt == TL_MS)
			x /= 1000;
		if (c[j].fmt == TL_INT)
			tab_set_int(t, r, idx[j], (long long)x);
		else
			tab_set_num(t, r, idx[j], x);
	}
	if (tl_cols_hook != NULL)
		tl_cols_hook(t, r, c, n, idx, g);
}
