/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase/intcol.c: every value read back as appended, whatever the
 * spread of a chunk (none, 1, 2, 3, 4 and 8 bytes, LLONG_MIN and LLONG_MAX
 * together), in the open chunk and the sealed ones; the bytes held by close values. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "phase/intcol.h"
#include "tap.h"

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t
rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* Value i of the test sequence: each chunk of it has its own kind of spread. */
static long long
value(size_t i)
{
	size_t k = i / INTCOL_CHUNK;

	switch (k % 8) {
	case 0:
		return 42;				/* constant */
	case 1:
		return 1000000 + (long long)i;		/* ids: 16 bits */
	case 2:
		return -5 + (long long)(rnd() % 200);	/* bytes */
	case 3:
		return 1700000000000000000LL + (long long)(rnd() % 3000000000ULL);
	case 4:
		return (long long)rnd();		/* anything */
	case 5:
		return i % 2 ? LLONG_MIN : LLONG_MAX;
	case 6:
		return i % 3 == 0 ? LLONG_MIN : (long long)i * 1000;
	default:
		return -(long long)(rnd() % 70000);
	}
}

int
main(void)
{
	struct intcol c = { 0 };
	size_t n = 8 * INTCOL_CHUNK + 123, i, bad = 0;
	long long *want = malloc(n * sizeof(*want));

	if (want == NULL)
		abort();
	for (i = 0; i < n; i++) {
		want[i] = value(i);
		intcol_add(&c, want[i]);
		/* the newest value and an older one, while the column grows */
		if (intcol_get(&c, i) != want[i] || intcol_get(&c, i / 2) != want[i / 2])
			bad++;
	}
	ok(bad == 0, "each value read back while appending (%zu wrong)", bad);
	bad = 0;
	for (i = 0; i < n; i++)
		if (intcol_get(&c, i) != want[i]) {
			if (bad++ == 0)
				printf("# value %zu: got %lld, want %lld\n", i,
				    intcol_get(&c, i), want[i]);
		}
	ok(bad == 0, "%zu values of every spread read back (%zu wrong)", n, bad);
	ok(c.n == n && c.nchunk == 8, "8 sealed chunks and an open one");
	ok(c.chunk[0].width == 0 && c.chunk[1].width == 2 && c.chunk[2].width == 1 &&
	    c.chunk[3].width == 4 && c.chunk[4].width == 8 && c.chunk[5].width == 8 &&
	    c.chunk[7].width == 3, "each chunk in the fewest bytes");
	intcol_free(&c);
	ok(c.n == 0 && c.chunk == NULL, "freed column is empty");

	/* host times a few seconds apart: 5 bytes */
	for (i = 0; i < INTCOL_CHUNK; i++)
		intcol_add(&c, 11684348586LL + (long long)i * 17000000LL);
	ok(c.nchunk == 1 && c.chunk[0].width == 5 &&
	    intcol_get(&c, INTCOL_CHUNK - 1) == 11684348586LL + 4095LL * 17000000LL,
	    "70 s of host times in 5 bytes each");
	intcol_free(&c);

	/* a million consecutive ids: about 2 bytes each */
	for (i = 0; i < 1000000; i++)
		intcol_add(&c, 5 + (long long)i);
	ok(intcol_bytes(&c) < 2100000, "a million ids in %zu bytes", intcol_bytes(&c));
	ok(intcol_get(&c, 0) == 5 && intcol_get(&c, 999999) == 1000004 &&
	    intcol_get(&c, 500000) == 500005, "ids read back");
	intcol_free(&c);
	free(want);
	return tap_done();
}
