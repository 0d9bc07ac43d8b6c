/* SPDX-License-Identifier: ISC */
/* Unit tests for report/interval: merge (overlapping, touching, nested, unsorted), the
 * summed length, and the difference of two sets, against a brute-force measure on a
 * grid of random integer intervals. */
#include <stdlib.h>
#include <string.h>

#include "report/interval.h"
#include "tap.h"

#define GRID	200

/* Mark v's cells [s, e) on a grid of unit cells. */
static void
paint(unsigned char *g, const struct iv *v, size_t n, unsigned char bit)
{
	size_t i;
	int c;

	for (i = 0; i < n; i++)
		for (c = (int)v[i].s; c < (int)v[i].e; c++)
			g[c] |= bit;
}

static int
count(const unsigned char *g, unsigned char want)
{
	int c, n = 0;

	for (c = 0; c < GRID; c++)
		n += g[c] == want;
	return n;
}

/* Sorted and apart (touching allowed: a difference is cut at a zero-length b). */
static int
sorted_disjoint(const struct iv *v, size_t n, int touch)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].e < v[i].s || (i > 0 && (touch ? v[i].s < v[i - 1].e :
		    v[i].s <= v[i - 1].e)))
			return 0;
	return 1;
}

int
main(void)
{
	struct iv v[] = { { 5, 7 }, { 1, 3 }, { 3, 4 }, { 10, 20 }, { 12, 15 }, { 6, 9 } };
	struct iv a[40], b[40], out[80];
	size_t n = iv_merge(v, 6), na, nb, no, i, t, bad = 0;
	unsigned char g[GRID];

	ok(n == 3, "merge: touching and overlapping intervals join (%zu)", n);
	ok(v[0].s == 1 && v[0].e == 4 && v[1].s == 5 && v[1].e == 9 && v[2].s == 10 &&
	    v[2].e == 20, "merge: [1,4) [5,9) [10,20)");
	ok(iv_len(v, n) == 17, "length 17");
	ok(iv_merge(v, 0) == 0, "merge of nothing");
	srand(7);
	for (t = 0; t < 2000; t++) {
		na = (size_t)rand() % 20;
		nb = (size_t)rand() % 20;
		for (i = 0; i < na; i++) {
			a[i].s = rand() % (GRID - 20);
			a[i].e = a[i].s + rand() % 20;
		}
		for (i = 0; i < nb; i++) {
			b[i].s = rand() % (GRID - 20);
			b[i].e = b[i].s + rand() % 20;
		}
		memset(g, 0, sizeof(g));
		paint(g, a, na, 1);
		paint(g, b, nb, 2);
		na = iv_merge(a, na);
		nb = iv_merge(b, nb);
		no = iv_sub(a, na, b, nb, out);
		if (!sorted_disjoint(a, na, 0) || iv_len(a, na) != GRID - count(g, 0) - count(g, 2) ||
		    !sorted_disjoint(out, no, 1) || iv_len(out, no) != count(g, 1))
			bad++;
	}
	ok(bad == 0, "2000 random sets: merged length and difference as the grid says (%zu bad)",
	    bad);
	return tap_done();
}
