/* SPDX-License-Identifier: ISC */
/*
 * ncout: the collective report's sheets made and handed over (ncpriv.h): whole, or row
 * by row in parts of about a given number of cells with pandas' column types over all
 * of them; each with TraceLens's node columns (node_id, node_span); the wide sheets'
 * per-rank columns.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "ncpriv.h"

/* --- node columns ------------------------------------------------------------------ */

/* node_span of a rank list (a string id): "unknown", "inter_node" or "intra_node" */
static const char *
node_span(struct nc *nc, uint32_t id, long long g)
{
	static long long rk[4096];
	struct val v = { V_STR, 0, 0, 0 };
	size_t n, i;
	bool inter = false;

	v.s = id;
	n = nc_pg_ranks(nc, &v, rk, sizeof(rk) / sizeof(rk[0]));
	for (i = 1; i < n; i++)
		if (rk[i] / g != rk[0] / g)
			inter = true;
	return n == 0 ? "unknown" : inter ? "inter_node" : "intra_node";
}

/* node_id and node_span (TraceLens's intra/inter-node labels) of the rows of t; pg (or
 * NULL): each row's Process Group Ranks as a string id, NAME_NONE to read the cell.
 * The caller sets the columns' types (pandas_types) afterwards. */
static void
node_cols(struct nc *nc, struct tab *t, long long g, long long ws, const uint32_t *pg)
{
	size_t rc = tab_find(t, "rank"), pc = tab_find(t, "Process Group Ranks"), r;
	size_t nid = (size_t)-1, nsp = (size_t)-1;
	uint32_t last = NAME_NONE;
	const char *span = NULL;

	if (t->nrows == 0 || g <= 0 || (rc == (size_t)-1 && pc == (size_t)-1))
		return;
	if (rc != (size_t)-1)
		nid = tab_col(t, "node_id");
	if (pc != (size_t)-1)
		nsp = tab_col(t, "node_span");
	for (r = 0; r < t->nrows; r++) {
		if (nid != (size_t)-1) {
			struct tab_cell *x = tab_cell(t, r, rc);

			if (x->kind == TAB_INT && x->v.i >= 0 && x->v.i < ws)
				tab_set_int(t, r, nid, x->v.i / g);
		}
		if (nsp != (size_t)-1) {
			struct tab_cell *x = tab_cell(t, r, pc);
			uint32_t id = pg != NULL ? pg[r] : NAME_NONE;

			if (id == NAME_NONE && x->kind == TAB_STR)
				id = nc_intern(nc, tab_str(t, r, pc), strlen(tab_str(t, r, pc)));
			if (id == NAME_NONE)
				tab_set_str(t, r, nsp, "unknown");
			else {
				if (id != last || span == NULL)
					span = node_span(nc, id, g);
				last = id;
				tab_set_str(t, r, nsp, span);
			}
		}
	}
}

/* --- handing the sheets over --------------------------------------------------------- */

void
nc_hand(struct out *o, struct tab *t, int more)
{
	if (!more)
		o->n++;
	o->fn(t, more, o->ctx);
}

/* A sheet built whole: its node columns, then handed over. */
void
nc_hand_whole(struct nc *nc, struct out *o, struct tab *t, bool node)
{
	if (node && o->gpn > 0) {
		node_cols(nc, t, o->gpn, o->ws, NULL);
		nc_pandas_types(t);
	}
	nc_hand(o, t, 0);
}

static struct tab *
gen_part(struct nc *nc, const struct out *o, const struct gen *g, size_t from, size_t to)
{
	struct tab *t = tab_new(g->name);
	uint32_t *pg = xreallocarray(NULL, to - from + 1, sizeof(*pg));
	size_t i, r;

	for (i = 0; i < g->ncols; i++)
		tab_col(t, g->cols[i]);
	for (i = from; i < to; i++) {
		r = tab_row(t);
		pg[r] = NAME_NONE;
		g->fill(nc, t, r, i, g->arg, &pg[r]);
	}
	if (o->gpn > 0)
		node_cols(nc, t, o->gpn, o->ws, pg);
	free(pg);
	return t;
}

/*
 * Hand a made sheet over: whole, or (o->chunk) in parts of about o->chunk cells, so that
 * a sheet of every rank's collectives is never held at once. pandas' column types hang
 * on every row, so the rows are made twice: once for the types, once to hand over.
 */
void
nc_emit(struct nc *nc, struct out *o, const struct gen *g)
{
	size_t step, i, to;
	unsigned char *fl;
	struct tab *t;

	if (o->chunk == 0 || g->nrows == 0) {
		t = gen_part(nc, o, g, 0, g->nrows);
		nc_pandas_types(t);
		nc_hand(o, t, 0);
		return;
	}
	step = o->chunk / (g->ncols + 2);
	if (step == 0)
		step = 1;
	fl = xcalloc(g->ncols + 2, 1);
	for (i = 0; i < g->nrows; i += step) {
		to = g->nrows - i > step ? i + step : g->nrows;
		t = gen_part(nc, o, g, i, to);
		nc_types_scan(t, fl);
		tab_free(t);
	}
	for (i = 0; i < g->nrows; i += step) {
		to = g->nrows - i > step ? i + step : g->nrows;
		t = gen_part(nc, o, g, i, to);
		nc_types_apply(t, fl);
		nc_hand(o, t, to < g->nrows);
	}
	free(fl);
}

/* --- wide sheets --------------------------------------------------------------------- */

/* The per-rank columns of w, after its w->ngen general ones: nkind kinds (the first
 * nfirst of them first) of each rank of the rows' collectives (grp, nrows). */
void
nc_wide_cols(struct nc *nc, struct wide *w, const char *const *kinds, size_t nkind,
    size_t nfirst, const struct cgroup *gs, const size_t *grp, size_t nrows)
{
	size_t i, k, q, ri;
	char name[128];

	w->nkind = nkind;
	w->pos = xreallocarray(NULL, w->rs->n * nkind + 1, sizeof(*w->pos));
	for (i = 0; i < w->rs->n * nkind; i++)
		w->pos[i] = -1;
	w->cols = xreallocarray(NULL, w->ngen + 1, sizeof(*w->cols));
	for (i = 0; i < w->ngen; i++)
		w->cols[i] = xstrdup(w->gt->cols[i]);
	w->ncols = w->ngen;
	for (i = 0; i < nrows; i++) {
		const struct cgroup *g = &gs[grp[i]];

		for (q = 0; q < 2; q++)
			for (k = 0; k < g->n; k++) {
				int r = nc->c[g->ev[k]].rank;
				size_t j;

				ri = (size_t)w->rs->rix[r];
				for (j = q ? nfirst : 0; j < (q ? nkind : nfirst); j++) {
					if (w->pos[ri * nkind + j] >= 0)
						continue;
					snprintf(name, sizeof(name), "rank_%d_%s", r, kinds[j]);
					w->cols = xreallocarray(w->cols, w->ncols + 1,
					    sizeof(*w->cols));
					w->pos[ri * nkind + j] = (int)w->ncols;
					w->cols[w->ncols++] = xstrdup(name);
				}
			}
	}
}

void
nc_wide_free(struct wide *w)
{
	size_t i;

	for (i = 0; i < w->ncols; i++)
		free((char *)w->cols[i]);
	free(w->cols);
	free(w->pos);
	free(w->grow);
	tab_free(w->gt);
}

/* the general cells of row i, and its Process Group Ranks' id */
const struct cgroup *
nc_wide_general(struct nc *nc, const struct wide *w, struct tab *t, size_t row,
    size_t i, uint32_t *pg)
{
	const struct cgroup *g = &w->gs[w->grow[i]];
	const struct val *v = V(nc, nc->c[g->ev[0]].f[F_PGRANKS]);
	size_t j;

	for (j = 0; j < w->ngen; j++)
		nc_copy_cell(t, row, j, w->gt, i, j);
	if (v->t == V_STR)
		*pg = v->s;
	return g;
}
