/* SPDX-License-Identifier: ISC */
/*
 * tlgone: the op records tltree does not keep (struct tgone: no sheet needs them) and
 * the links through them, from a kept op to the first kept op above it.
 *
 * They are most ops of a trace (owlv2: 68 %), and tl_link asks for few of them: the
 * parents of kept ops that are not kept, and the chains above those. Past GONE_MEM of
 * them (TTP_TL_GONE_MEM=N sets it, for tests) they go to a spool, 24 bytes each, and
 * tl_link loads back only those it asks for: memory for the ops not kept is then the
 * buffer and the asked ones, whatever the trace's size.
 *
 * Loading is a scan of the spool from its end: records come in start order, so an op
 * comes before the ops below it, and one backward scan meets a child (which asks for its
 * parent) before the parent. A parent asked for once the scan has passed it (records
 * out of that order) is found by the next scan, which reads only what the last one
 * passed. After GONE_PASSES scans every op not kept is loaded, as if none had been
 * spooled: the links are the same whatever the order, only slower.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hash.h"
#include "core/spool.h"
#include "report/tltree.h"
#include "tlgone.h"

#define NONE TL_NONE

#define GONE_MEM	16384	/* ops not kept held in memory before the spool */
#define GONE_PASSES	8	/* backward scans before everything is loaded */

/* An op not kept, as spooled. */
struct gonerec {
	long long	id, parent, rank;
};

size_t
tl_gone_mem(void)
{
	const char *e = getenv("TTP_TL_GONE_MEM");

	return e != NULL && atol(e) > 0 ? (size_t)atol(e) : GONE_MEM;
}

static void
gone_flush(struct tl *tl)
{
	size_t i;

	if (tl->ngone == 0)
		return;
	if (tl->gsp == NULL)
		tl->gsp = spool_open();
	for (i = 0; i < tl->ngone; i++) {
		struct gonerec r = { tl->gone[i].id, tl->gone[i].parent, tl->gone[i].rank };

		spool_add(tl->gsp, (const char *)&r, sizeof(r));
	}
	tl->ngone = 0;
}

/* An op not kept into tl->gone, its link not resolved. */
static void
gone_push(struct tl *tl, long long id, long long parent, long long rank)
{
	tl->gone = xgrow(tl->gone, &tl->capgone, tl->ngone + 1, sizeof(*tl->gone));
	tl->gone[tl->ngone++] = (struct tgone){ id, parent, rank, NONE, 0 };
}

void
tl_gone_add(struct tl *tl, long long id, long long parent, long long rank)
{
	if (tl->ngone >= tl->gmem)
		gone_flush(tl);
	gone_push(tl, id, parent, rank);
}

/*
 * What tl_link asks for: (rank, id) keys in an open-addressing table. A key asked for
 * during scan number pass, when the scan was at record x, is loaded from the records
 * below x in that scan and from those at x and above in the next one.
 */
struct want {
	long long	rank, id;
	size_t		x;
	int		pass;		/* -1: an empty slot */
};

struct wants {
	struct want	*w;
	size_t		 n, cap;	/* cap: a power of two */
	int		 added;		/* keys asked for during the current scan */
};

static size_t
want_slot(const struct wants *ws, long long rank, long long id)
{
	long long k[2] = { rank, id };
	size_t j = (size_t)hash_bytes(k, sizeof(k)) & (ws->cap - 1);

	while (ws->w[j].pass >= 0 && (ws->w[j].rank != rank || ws->w[j].id != id))
		j = (j + 1) & (ws->cap - 1);
	return j;
}

static void
want_add(struct wants *ws, long long rank, long long id, int pass, size_t x)
{
	size_t j, i;

	if (2 * (ws->n + 1) > ws->cap) {
		struct wants old = *ws;

		ws->cap = ws->cap ? 2 * ws->cap : 64;
		ws->w = xreallocarray(NULL, ws->cap, sizeof(*ws->w));
		for (i = 0; i < ws->cap; i++)
			ws->w[i].pass = -1;
		for (i = 0; i < old.cap; i++)
			if (old.w[i].pass >= 0)
				ws->w[want_slot(ws, old.w[i].rank, old.w[i].id)] = old.w[i];
		free(old.w);
	}
	j = want_slot(ws, rank, id);
	if (ws->w[j].pass >= 0)
		return;
	ws->w[j] = (struct want){ rank, id, x, pass };
	ws->n++;
	ws->added++;
}

/* Ask for the op above an op of rank rank whose parent is id, unless it is kept. */
static void
want_parent(struct tl *tl, struct wants *ws, long long rank, long long id, int pass,
    size_t x)
{
	if (id >= 0 && tl_find_op(tl, rank, id) == NONE)
		want_add(ws, rank, id, pass, x);
}

/* Record x of a scan: loaded when it is asked for and this scan is the one to load it. */
static void
scan_one(struct tl *tl, struct wants *ws, const struct gonerec *r, size_t x, int pass)
{
	const struct want *w = &ws->w[want_slot(ws, r->rank, r->id)];

	if (w->pass < 0 || !((w->pass == pass && x < w->x) ||
	    (w->pass == pass - 1 && x >= w->x)))
		return;
	gone_push(tl, r->id, r->parent, r->rank);
	want_parent(tl, ws, r->rank, r->parent, pass, x);
}

/* The spool is read in blocks of GONE_BLOCK records. */
#define GONE_BLOCK	2048

/* Spooled records lo .. hi into b. */
static void
read_block(struct tl *tl, struct gonerec *b, size_t lo, size_t hi)
{
	spool_pread(tl->gsp, (uint64_t)lo * sizeof(*b), b, (hi - lo) * sizeof(*b));
}

/* One scan of the n spooled records from the end. */
static void
scan(struct tl *tl, struct wants *ws, size_t n, int pass)
{
	struct gonerec *b = xreallocarray(NULL, GONE_BLOCK, sizeof(*b));
	size_t hi = n, lo, x;

	while (hi > 0) {
		lo = hi > GONE_BLOCK ? hi - GONE_BLOCK : 0;
		read_block(tl, b, lo, hi);
		for (x = hi; x-- > lo;)
			scan_one(tl, ws, &b[x - lo], x, pass);
		hi = lo;
	}
	free(b);
}

/* All n spooled records, in their order, after the scans gave up. */
static void
load_all(struct tl *tl, size_t n)
{
	struct gonerec *b = xreallocarray(NULL, GONE_BLOCK, sizeof(*b));
	size_t lo, hi, x;

	tl->ngone = 0;
	for (lo = 0; lo < n; lo = hi) {
		hi = n - lo > GONE_BLOCK ? lo + GONE_BLOCK : n;
		read_block(tl, b, lo, hi);
		for (x = lo; x < hi; x++)
			gone_push(tl, b[x - lo].id, b[x - lo].parent, b[x - lo].rank);
	}
	free(b);
}

/* The ops not kept that the kept ops' links go through, from the spool into tl->gone. */
static void
gone_load(struct tl *tl)
{
	struct wants ws = { NULL, 0, 0, 0 };
	size_t i, n;
	int pass;

	gone_flush(tl);
	n = (size_t)(spool_size(tl->gsp) / sizeof(struct gonerec));
	for (i = 0; i < tl->nop; i++)
		want_parent(tl, &ws, tl_op_rank(tl, &tl->op[i]), tl->op[i].parent, 0, n);
	for (pass = 0; ws.added > 0 && pass < GONE_PASSES; pass++) {
		ws.added = 0;
		scan(tl, &ws, n, pass);
	}
	if (ws.added > 0)
		load_all(tl, n);
	free(ws.w);
	spool_close(tl->gsp);
	tl->gsp = NULL;
}

static int
gone_cmp(const void *a, const void *b)
{
	const struct tgone *x = a, *y = b;

	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->id > y->id) - (x->id < y->id);
}

static size_t
gone_find(const struct tl *tl, long long rank, long long id)
{
	struct tgone key = { id, -1, rank, 0, 0 }, *g;

	if (tl->ngone == 0)
		return NONE;
	g = bsearch(&key, tl->gone, tl->ngone, sizeof(*tl->gone), gone_cmp);
	return g != NULL ? (size_t)(g - tl->gone) : NONE;
}

/* The kept op that is the parent (rank, id) or the first kept op above it through the
 * ops not kept; TL_NONE at a root (or a cycle of ops not kept). Each op not kept is
 * walked once: its answer is kept for the ops below it. */
static size_t
kept_parent(struct tl *tl, long long rank, long long id, struct tl_walk *path)
{
	size_t j = NONE, g;

	path->n = 0;
	for (;;) {
		if (id < 0)
			break;
		if ((j = tl_find_op(tl, rank, id)) != NONE)
			break;
		if ((g = gone_find(tl, rank, id)) == NONE)
			break;
		if (tl->gone[g].state == 2) {
			j = tl->gone[g].up;
			break;
		}
		if (tl->gone[g].state == 1)
			break;		/* a cycle: no op above */
		tl->gone[g].state = 1;
		tl_walk_push(path, g);
		id = tl->gone[g].parent;
	}
	while (path->n > 0) {
		g = path->s[--path->n];
		tl->gone[g].up = j;
		tl->gone[g].state = 2;
	}
	return j;
}

void
tl_gone_link(struct tl *tl)
{
	struct tl_walk path = { NULL, 0, 0 };
	size_t i;

	if (tl->gsp != NULL)
		gone_load(tl);
	if (tl->ngone > 1)
		qsort(tl->gone, tl->ngone, sizeof(*tl->gone), gone_cmp);
	for (i = 0; i < tl->nop; i++)
		if (tl->op[i].parent >= 0)
			tl->op[i].up = (uint32_t)kept_parent(tl, tl_op_rank(tl, &tl->op[i]),
			    tl->op[i].parent, &path);
	free(path.s);
	free(tl->gone);
	tl->gone = NULL;
	tl->ngone = tl->capgone = 0;
}

void
tl_gone_free(struct tl *tl)
{
	free(tl->gone);
	if (tl->gsp != NULL)
		spool_close(tl->gsp);
}
