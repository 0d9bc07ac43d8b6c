/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for report/tlcols, the declared columns of the aggregating sheets: which
 * columns an option set adds, and each aggregation over a group of values worked out by
 * hand (a NaN among them skipped as pandas skips it, but for the plain sum and the
 * count), first values of each kind, a percent of a denominator, µs shown in ms, the
 * columns a sheet fills itself left alone.
 */
#include <math.h>
#include <string.h>

#include "report/tab.h"
#include "report/tlcols.h"
#include "tap.h"

enum { S_X, S_Y, S_NAME, S_N, S_FLAG };
#define W_OPT	1u

enum { C_NAME, C_N, C_FLAG, C_FIRSTNUM, C_SUM, C_PSUM, C_COUNT, C_MEAN, C_MEDIAN, C_STD,
	C_MIN, C_MAX, C_PCT, C_MS, C_OPT, C_CUSTOM, C_NCOLS };
static const struct tl_col cols[C_NCOLS] = {
	[C_NAME] = { "name", S_NAME, TL_FIRST, TL_STR, 0, 0 },
	[C_N] = { "n", S_N, TL_FIRST, TL_INT, 0, 0 },
	[C_FLAG] = { "flag", S_FLAG, TL_FIRST, TL_BOOL, 0, 0 },
	[C_FIRSTNUM] = { "x_first", S_X, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[C_SUM] = { "x_sum", S_X, TL_SUM, TL_NUM, 0, 0 },
	[C_PSUM] = { "y_psum", S_Y, TL_PSUM, TL_NUM, 0, 0 },
	[C_COUNT] = { "x_count", S_X, TL_COUNT, TL_INT, 0, 0 },
	[C_MEAN] = { "x_mean", S_X, TL_MEAN, TL_NUM, 0, 0 },
	[C_MEDIAN] = { "x_median", S_X, TL_MEDIAN, TL_NUM, 0, 0 },
	[C_STD] = { "x_std", S_X, TL_STD, TL_NUM, 0, 0 },
	[C_MIN] = { "x_min", S_X, TL_MIN, TL_NUM, 0, 0 },
	[C_MAX] = { "x_max", S_X, TL_MAX, TL_NUM, 0, 0 },
	[C_PCT] = { "x_pct", S_X, TL_PCT, TL_NUM, 0, 1 },
	[C_MS] = { "x_ms", S_X, TL_SUM, TL_MS, 0, 0 },
	[C_OPT] = { "opt", S_Y, TL_SUM, TL_NUM, W_OPT, 0 },
	[C_CUSTOM] = { "custom", 0, TL_CUSTOM, TL_STR, 0, 0 },
};

static void
first(void *ctx, int src, struct tl_val *v)
{
	(void)ctx;
	if (src == S_NAME)
		*v = (struct tl_val){ TAB_STR, 0, 0, "aten::mm" };
	else if (src == S_N)
		*v = (struct tl_val){ TAB_INT, 42, 0, NULL };
	else if (src == S_FLAG)
		*v = (struct tl_val){ TAB_BOOL, 1, 0, NULL };
}

static int
num_is(const struct tab *t, size_t r, size_t c, double want)
{
	return t->cells[r * t->ncols + c].kind == TAB_NUM && tab_num(t, r, c) == want;
}

int
main(void)
{
	struct tab *t = tab_new("t");
	struct vec x = VEC_INIT, y = VEC_INIT;
	const struct vec *v[2] = { &x, &y };
	double den[2] = { 0, 200 };
	struct tl_group g = { v, first, NULL, den };
	size_t idx[C_NCOLS], r;

	vec_add(&x, NAN);	/* the first value: no number */
	vec_add(&x, 4);
	vec_add(&x, 1);
	vec_add(&x, 7);
	vec_add(&y, 0.1);
	vec_add(&y, 0.2);
	tl_cols_add(t, cols, C_NCOLS, 0, idx);
	ok(t->ncols == C_NCOLS - 1 && idx[C_OPT] == TL_COL_NONE && idx[C_CUSTOM] == C_OPT,
	    "a column whose option is off is left out (%zu columns)", t->ncols);
	r = tab_row(t);
	tl_cols_row(t, r, cols, C_NCOLS, idx, &g);
	is_str(tab_str(t, r, idx[C_NAME]), "aten::mm", "first: a string");
	ok(tab_cell(t, r, idx[C_N])->kind == TAB_INT && tab_cell(t, r, idx[C_N])->v.i == 42,
	    "first: an integer");
	ok(tab_cell(t, r, idx[C_FLAG])->kind == TAB_BOOL, "first: a boolean");
	ok(num_is(t, r, idx[C_FIRSTNUM], 4), "first number: past the NaN");
	ok(num_is(t, r, idx[C_SUM], 12), "sum: 12, the NaN skipped");
	ok(num_is(t, r, idx[C_PSUM], 0.1 + 0.2), "plain sum: 0.1 + 0.2 as added");
	ok(tab_cell(t, r, idx[C_COUNT])->v.i == 4, "count: every member, NaN too");
	ok(num_is(t, r, idx[C_MEAN], 4), "mean 4");
	ok(num_is(t, r, idx[C_MEDIAN], 4), "median 4");
	ok(num_is(t, r, idx[C_STD], 3), "std (ddof 1) 3");
	ok(num_is(t, r, idx[C_MIN], 1) && num_is(t, r, idx[C_MAX], 7), "min 1, max 7");
	ok(num_is(t, r, idx[C_PCT], 6), "percent of the denominator: 12 of 200 is 6");
	ok(num_is(t, r, idx[C_MS], 0.012), "12 µs in ms");
	ok(tab_cell(t, r, idx[C_CUSTOM])->kind == TAB_NONE, "a custom column is left empty");
	tab_free(t);

	t = tab_new("t");
	tl_cols_add(t, cols, C_NCOLS, W_OPT, idx);
	ok(t->ncols == C_NCOLS && idx[C_OPT] == C_OPT, "with the option: every column");
	x.n = 0;
	r = tab_row(t);
	tl_cols_row(t, r, cols, C_NCOLS, idx, &g);
	ok(tab_cell(t, r, idx[C_MEAN])->kind == TAB_NONE &&
	    tab_cell(t, r, idx[C_FIRSTNUM])->kind == TAB_NONE, "no values: empty, not 0");
	ok(tab_cell(t, r, idx[C_COUNT])->v.i == 0 && num_is(t, r, idx[C_SUM], 0),
	    "no values: count 0, sum 0 (pandas)");
	ok(num_is(t, r, idx[C_OPT], 0.1 + 0.2), "the option's column filled");
	tab_free(t);
	vec_free(&x);
	vec_free(&y);
	return tap_done();
}
