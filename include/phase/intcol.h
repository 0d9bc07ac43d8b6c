/* SPDX-License-Identifier: ISC */
/*
 * intcol: a column of integers appended one by one and read back by index, stored
 * compactly (ttp-phase's per-op ids, host times, ranks and device times).
 *
 * The values go in chunks of INTCOL_CHUNK; a full chunk is kept as the offsets of its
 * values from its smallest one, each in the fewest bytes that hold every offset of the
 * chunk (0 to 8). Neighbouring ops have close ids and host times and mostly one rank:
 * 2, 5 and 0 bytes a value instead of 8 (the host times of 4096 ops of a TT trace span
 * up to minutes), and no growth slack. Any value fits
 * (a chunk with LLONG_MIN and LLONG_MAX takes 8 bytes a value). A zeroed struct is an
 * empty column.
 */
#ifndef TTP_INTCOL_H
#define TTP_INTCOL_H

#include <stddef.h>

#define INTCOL_SHIFT	12
#define INTCOL_CHUNK	((size_t)1 << INTCOL_SHIFT)

struct intcol_chunk {
	long long	 base;		/* the chunk's smallest value */
	unsigned char	*off;		/* the offsets from it, width bytes each */
	unsigned	 width;
};

struct intcol {
	struct intcol_chunk *chunk;	/* the full chunks */
	size_t		 nchunk, capchunk;
	long long	*open;		/* the values of the chunk being filled */
	size_t		 n;		/* values appended */
};

void intcol_add(struct intcol *c, long long v);
/* Value i < c->n. */
long long intcol_get(const struct intcol *c, size_t i);
/* Bytes held (for tests and messages). */
size_t intcol_bytes(const struct intcol *c);
void intcol_free(struct intcol *c);

#endif
