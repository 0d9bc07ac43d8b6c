/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the array growth helpers in diag: grow_cap doubles from 8 until n fits,
 * xgrow leaves an array that holds n alone and keeps the items of one it grows.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/diag.h"
#include "tap.h"

int
main(void)
{
	size_t cap = 0, i, bad = 0;
	int *v = NULL, *same;

	ok(grow_cap(0, 1) == 8, "an empty array starts at 8 items");
	ok(grow_cap(0, 9) == 16 && grow_cap(0, 100) == 128, "doubling from 8 until n fits");
	ok(grow_cap(8, 9) == 16 && grow_cap(10, 11) == 20, "a capacity doubles");
	ok(grow_cap(3, 1000) == 1536, "several doublings at once");
	ok(grow_cap(SIZE_MAX / 4, SIZE_MAX / 4 + 1) == SIZE_MAX / 4 * 2, "near the limit");

	for (i = 0; i < 10000; i++) {
		v = xgrow(v, &cap, i + 1, sizeof(*v));
		v[i] = (int)i;
	}
	for (i = 0; i < 10000; i++)
		bad += v[i] != (int)i;
	ok(bad == 0 && cap == 16384, "10000 appends keep every item (capacity %zu)", cap);
	same = xgrow(v, &cap, 16384, sizeof(*v));
	ok(same == v && cap == 16384, "an array that holds n is returned as it is");
	v = xgrow(v, &cap, 40000, sizeof(*v));
	ok(cap == 65536 && v[9999] == 9999, "a jump past twice the capacity");
	free(v);
	return tap_done();
}
