/* SPDX-License-Identifier: ISC */
/* tabstat: the aggregations the sheets compute as pandas and numpy do (pairwise sums,
 * means, std with ddof, medians, streamed accumulators) and grouping of values by key
 * (report/tab.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/tab.h"

/* --- aggregation -------------------------------------------------------------------- */

void
vec_add(struct vec *v, double d)
{
	v->v = xgrow(v->v, &v->cap, v->n + 1, sizeof(*v->v));
	v->v[v->n++] = d;
}

void
vec_free(struct vec *v)
{
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

/* numpy's pairwise_sum (loops_utils.h) over n doubles: below 8 a plain loop, up to 128
 * eight running sums combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) then the rest,
 * above that the two halves (the first a multiple of 8 long) summed apart. */
static double
np_pairwise(const double *a, size_t n)
{
	double r[8], res = 0;
	size_t i, j, n2;

	if (n < 8) {
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - n % 8; i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	return np_pairwise(a, n2) + np_pairwise(a + n2, n - n2);
}

double
stat_npsum(const struct vec *v)
{
	return 0.0 + np_pairwise(v->v, v->n);
}

double
stat_npmean(const struct vec *v)
{
	return v->n ? stat_npsum(v) / (double)v->n : NAN;
}

double
stat_npstd(const struct vec *v)
{
	struct vec d = VEC_INIT;
	double m = stat_npmean(v), s;
	size_t i;

	if (v->n == 0)
		return NAN;
	for (i = 0; i < v->n; i++)
		vec_add(&d, (v->v[i] - m) * (v->v[i] - m));
	s = sqrt(stat_npmean(&d));
	vec_free(&d);
	return s;
}

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
stat_median(const struct vec *v)
{
	double *c, m;
	size_t n = 0, i;

	c = xreallocarray(NULL, v->n ? v->n : 1, sizeof(*c));
	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i]))
			c[n++] = v->v[i];
	if (n == 0) {
		free(c);
		return NAN;
	}
	qsort(c, n, sizeof(*c), dcmp);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/* pandas' groupby aggregations (cython group_sum, group_mean, group_var) one value at a
 * time: Kahan's compensated sum, Welford's running mean and sum of squares. */
void
stat_acc_add(struct stat_acc *a, double v)
{
	double y, t, d;

	if (isnan(v))
		return;
	a->n++;
	a->plain += v;
	y = v - a->comp;
	t = a->sum + y;
	a->comp = t - a->sum - y;
	a->sum = t;
	if (a->n == 1 || v < a->min)
		a->min = v;
	if (a->n == 1 || v > a->max)
		a->max = v;
	d = v - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * (v - a->mean);
}

double
stat_acc_sum(const struct stat_acc *a)
{
	return a->sum;
}

double
stat_acc_mean(const struct stat_acc *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

double
stat_acc_std(const struct stat_acc *a, int ddof)
{
	if (a->n <= (size_t)ddof)
		return NAN;
	return sqrt(a->m2 / (double)(a->n - (size_t)ddof));
}

double
stat_acc_min(const struct stat_acc *a)
{
	return a->n ? a->min : NAN;
}

double
stat_acc_max(const struct stat_acc *a)
{
	return a->n ? a->max : NAN;
}

/* The aggregate of a vec's values. */
static struct stat_acc
acc_of(const struct vec *v)
{
	struct stat_acc a;
	size_t i;

	memset(&a, 0, sizeof(a));
	for (i = 0; i < v->n; i++)
		stat_acc_add(&a, v->v[i]);
	return a;
}

double
stat_sum(const struct vec *v)
{
	struct stat_acc a = acc_of(v);

	return stat_acc_sum(&a);
}

double
stat_mean(const struct vec *v)
{
	struct stat_acc a = acc_of(v);

	return stat_acc_mean(&a);
}

double
stat_std(const struct vec *v, int ddof)
{
	struct stat_acc a = acc_of(v);

	return stat_acc_std(&a, ddof);
}

double
stat_min(const struct vec *v)
{
	struct stat_acc a = acc_of(v);

	return stat_acc_min(&a);
}

double
stat_max(const struct vec *v)
{
	struct stat_acc a = acc_of(v);

	return stat_acc_max(&a);
}

uint32_t
tab_group(struct names *groups, const char *key, size_t len)
{
	return names_intern(groups, key, len);
}

void
tab_groups_init(struct tab_groups *g)
{
	memset(g, 0, sizeof(*g));
	names_init(&g->keys);
}

size_t
tab_groups_add(struct tab_groups *g, const char *key, size_t len, size_t item, double v)
{
	size_t k = tab_group(&g->keys, key, len);

	if (k == g->n) {
		if (g->n == g->cap) {
			g->cap = grow_cap(g->cap, g->n + 1);
			g->vals = xreallocarray(g->vals, g->cap, sizeof(*g->vals));
			g->first = xreallocarray(g->first, g->cap, sizeof(*g->first));
		}
		g->vals[k] = (struct vec)VEC_INIT;
		g->first[g->n++] = item;
	}
	vec_add(&g->vals[k], v);
	return k;
}

void
tab_groups_free(struct tab_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		vec_free(&g->vals[i]);
	free(g->vals);
	free(g->first);
	names_free(&g->keys);
	memset(g, 0, sizeof(*g));
}
