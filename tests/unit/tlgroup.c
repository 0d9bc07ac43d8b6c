/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the grouping of TraceLens's sheets (lib/report/tlrows.c: tl_group_ids,
 * tl_group_by): groups numbered in order of first appearance and their members in item
 * order, against a plain quadratic grouping, for a few groups over many items, a group
 * per item, and sizes around the table's growth; keys that differ only past a shared
 * prefix, and the empty key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "tap.h"

/* lib/report/tlcommon.h's, private to lib/report */
size_t tl_group_ids(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key),
    void *ctx, uint32_t **gid);
size_t tl_group_by(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key),
    void *ctx, uint32_t **start, uint32_t **members);

/* Item i's key: "k<v[i]>", or "" for a value of 0, after a long shared prefix. */
static void
keyfn(void *ctx, size_t i, struct buf *key)
{
	const unsigned *v = ctx;

	if (v[i] == 0)
		return;
	buf_printf(key, "%0200u|k%u", 7u, v[i]);
}

/* The groups of v[0 .. n) the plain way: gid per item, in order of first appearance. */
static size_t
naive(const unsigned *v, size_t n, uint32_t *gid)
{
	size_t i, j, ng = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && v[j] != v[i]; j++)
			;
		gid[i] = j < i ? gid[j] : (uint32_t)ng++;
	}
	return ng;
}

static void
check(const char *what, const unsigned *v, size_t n)
{
	uint32_t *want = malloc((n + 1) * sizeof(*want)), *gid, *start, *mem;
	size_t ngw = naive(v, n, want), ng, g, i, bad = 0;

	ng = tl_group_ids(n, keyfn, (void *)v, &gid);
	for (i = 0; i < n; i++)
		bad += gid[i] != want[i];
	ok(ng == ngw && bad == 0, "%s: %zu items, %zu groups, numbered by first appearance",
	    what, n, ngw);
	free(gid);
	ng = tl_group_by(n, keyfn, (void *)v, &start, &mem);
	bad = ng != ngw || start[0] != 0 || start[ng] != n;
	for (g = 0; !bad && g < ng; g++)
		for (i = start[g]; i < start[g + 1]; i++)
			bad += want[mem[i]] != g || (i > start[g] && mem[i] <= mem[i - 1]);
	ok(!bad, "%s: members of each group in item order", what);
	free(start);
	free(mem);
	free(want);
}

int
main(void)
{
	static unsigned v[5000];
	size_t sizes[] = { 0, 1, 47, 48, 49, 96, 97, 5000 }, s, i;
	char what[64];

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (i = 0; i < sizes[s]; i++)
			v[i] = (unsigned)(sizes[s] - i);	/* a group per item */
		snprintf(what, sizeof(what), "distinct keys (%zu)", sizes[s]);
		check(what, v, sizes[s]);
	}
	for (i = 0; i < 5000; i++)
		v[i] = (unsigned)(tap_rand() % 3);	/* the empty key among them */
	check("three keys", v, 5000);
	for (i = 0; i < 5000; i++)
		v[i] = (unsigned)(tap_rand() % 700);
	check("700 keys at random", v, 5000);
	return tap_done();
}
