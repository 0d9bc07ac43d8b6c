/* SPDX-License-Identifier: ISC */
/*
 * intcol: a column of integers in chunks of offsets from the chunk's minimum, each in
 * the fewest bytes that hold them (see intcol.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "phase/intcol.h"

#define MASK	(INTCOL_CHUNK - 1)

/* Pack the open chunk, full, into a new chunk: each offset in its low width bytes,
 * little-endian, one after the other. */
static void
seal(struct intcol *c)
{
	struct intcol_chunk *k;
	unsigned long long lo, range = 0, o;
	size_t i;
	unsigned b;
	long long mn = c->open[0];

	for (i = 1; i < INTCOL_CHUNK; i++)
		if (c->open[i] < mn)
			mn = c->open[i];
	lo = (unsigned long long)mn;
	for (i = 0; i < INTCOL_CHUNK; i++)
		if ((o = (unsigned long long)c->open[i] - lo) > range)
			range = o;
	c->chunk = xgrow(c->chunk, &c->capchunk, c->nchunk + 1, sizeof(*c->chunk));
	k = &c->chunk[c->nchunk++];
	k->base = mn;
	for (k->width = 0; k->width < 8 && range >> (8 * k->width) != 0; k->width++)
		;
	k->off = NULL;
	if (k->width == 0)
		return;
	k->off = xmalloc(INTCOL_CHUNK * k->width);
	for (i = 0; i < INTCOL_CHUNK; i++) {
		o = (unsigned long long)c->open[i] - lo;
		for (b = 0; b < k->width; b++)
			k->off[i * k->width + b] = (unsigned char)(o >> (8 * b));
	}
}

void
intcol_add(struct intcol *c, long long v)
{
	if (c->open == NULL)
		c->open = xreallocarray(NULL, INTCOL_CHUNK, sizeof(*c->open));
	c->open[c->n & MASK] = v;
	if ((++c->n & MASK) == 0)
		seal(c);
}

long long
intcol_get(const struct intcol *c, size_t i)
{
	const struct intcol_chunk *k;
	const unsigned char *p;
	size_t j = i & MASK;
	unsigned long long o = 0;
	unsigned b;

	if ((i >> INTCOL_SHIFT) >= c->nchunk)
		return c->open[j];
	k = &c->chunk[i >> INTCOL_SHIFT];
	if (k->width == 0)
		return k->base;
	p = k->off + j * k->width;
	for (b = k->width; b-- > 0;)
		o = o << 8 | p[b];
	/* base + o in unsigned arithmetic: the offset of LLONG_MAX from LLONG_MIN wraps
	 * back into range */
	return (long long)((unsigned long long)k->base + o);
}

size_t
intcol_bytes(const struct intcol *c)
{
	size_t i, b = c->capchunk * sizeof(*c->chunk);

	if (c->open != NULL)
		b += INTCOL_CHUNK * sizeof(*c->open);
	for (i = 0; i < c->nchunk; i++)
		b += INTCOL_CHUNK * c->chunk[i].width;
	return b;
}

void
intcol_free(struct intcol *c)
{
	size_t i;

	for (i = 0; i < c->nchunk; i++)
		free(c->chunk[i].off);
	free(c->chunk);
	free(c->open);
	memset(c, 0, sizeof(*c));
}
