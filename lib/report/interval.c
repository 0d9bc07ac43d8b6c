/* SPDX-License-Identifier: ISC */
/* interval: sorted unions and differences of intervals (see report/interval.h). */
#include <stdlib.h>

#include "report/interval.h"

static int
iv_cmp(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

size_t
iv_merge(struct iv *v, size_t n)
{
	size_t i, m = 0;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), iv_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].s <= v[m].e) {
			if (v[i].e > v[m].e)
				v[m].e = v[i].e;
		} else
			v[++m] = v[i];
	}
	return m + 1;
}

double
iv_len(const struct iv *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i].e - v[i].s;
	return s;
}

size_t
iv_sub(const struct iv *a, size_t na, const struct iv *b, size_t nb, struct iv *out)
{
	size_t i, j = 0, n = 0, k;

	for (i = 0; i < na; i++) {
		double s = a[i].s, e = a[i].e;

		while (j < nb && b[j].e <= s)
			j++;
		for (k = j; k < nb && b[k].s < e; k++) {
			if (b[k].s > s)
				out[n++] = (struct iv){ s, b[k].s };
			if (b[k].e > s)
				s = b[k].e;
			if (s >= e)
				break;
		}
		if (s < e)
			out[n++] = (struct iv){ s, e };
	}
	return n;
}
