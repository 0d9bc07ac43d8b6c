/* SPDX-License-Identifier: ISC */
/*
 * nca2a: the collective report's all_to_allv family (ncpriv.h): each matched all_to_allv
 * with its data, throughput and imbalance and every rank's part (nccl_all2allv), their
 * summary by process group and dtype (nccl_summary_all2allv), and the bytes each rank
 * sent each rank (nccl_all2allv_heatmap).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/tab.h"
#include "ncpriv.h"

/* whether c is an all_to_allv (TraceLens's all2allv sheets take only those) */
static bool
is_a2av(struct nc *nc, const struct coll *c)
{
	const struct val *v = V(nc, c->f[F_CNAME]);

	return v->t == V_STR && !(v->s & BIG_ID) && strcmp(S(nc, v->s), "all_to_allv") == 0;
}

/* the metadata an all_to_allv's ranks must agree on */
static const int a2a_fields[] = { F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_STREAM };

static const char *const a2a_general[] = { "collective_id", "Process Group Name",
	"Process Group Ranks", "Collective name", "Group size", "dtype", "stream",
	"total data communicated (MB)", "total nelems communicated", "wall_time (us)",
	"max_rank_dur (us)", "min_rank_dur (us)", "avg_rank_dur (us)", "throughput (GB/s)",
	"max_rank_throughput (GB/s)", "min_rank_throughput (GB/s)", "size_imbalance",
	"skew in start time", "skew in end time" };
#define NA2AG	(sizeof(a2a_general) / sizeof(a2a_general[0]))

static const char *const a2a_kinds[] = { "ts", "dur", "In msg nelems", "Out msg nelems",
	"In msg size (MB)", "Out msg size (MB)", "In split size", "Out split size",
	"skew in start time", "skew in end time" };


static void
fill_a2a(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	static const int perf[] = { -1, -1, F_INNEL, F_OUTNEL, F_INMB, F_OUTMB, F_INSPLIT,
	    F_OUTSPLIT };
	const struct wide *w = arg;
	const struct a2row *a = &((const struct a2row *)w->arg)[w->grow[i]];
	const struct cgroup *g = nc_wide_general(nc, w, t, row, i, pg);
	size_t k, j;

	for (k = 0; k < g->n; k++) {
		const struct coll *c = &nc->c[g->ev[k]];

		nc_set_time(t, row, nc_wpos(w, c->rank, 0), c->ts, nc->ts_int);
		nc_set_time(t, row, nc_wpos(w, c->rank, 1), c->dur, nc->dur_int);
		for (j = 2; j < 8; j++)
			nc_set_id(nc, t, row, nc_wpos(w, c->rank, j), c->f[perf[j]]);
		nc_set_time(t, row, nc_wpos(w, c->rank, 8), c->ts - a->es, nc->ts_int);
		nc_set_time(t, row, nc_wpos(w, c->rank, 9), a->le - (c->ts + c->dur),
		    nc->ts_int && nc->dur_int);
	}
}

/* nccl_all2allv's general columns (gt, sorted as the sheet is) and each row's
 * collective (*grow); the row count. */
static size_t
a2a_rows(struct nc *nc, const struct cgroup *gs, size_t ng, struct rankset *rs,
    struct tab *u, struct a2row *ar, struct tab **gtp, size_t **growp)
{
	struct tab *gt = tab_new("nccl_all2allv"), *p;
	const char *cols[NA2AG + 1];
	size_t gi, k, j, n = 0, gc;

	for (j = 0; j < NA2AG; j++)
		tab_col(gt, a2a_general[j]);
	gc = tab_col(gt, "\x01group");
	for (gi = 0; gi < ng; gi++) {
		const struct cgroup *g = &gs[gi];
		const struct coll *c0 = &nc->c[g->ev[0]];
		double es = INFINITY, ls = -INFINITY, ee = INFINITY, le = -INFINITY;
		double tin = 0, maxd = -INFINITY, mind = INFINITY, sumd = 0, wall;
		double maxtp = -INFINITY, mintp = INFINITY, maxsz = -INFINITY;
		struct val tnel = { V_INT, 0, 0, 0 };
		size_t row, ntp = 0;

		if (!is_a2av(nc, c0))
			continue;
		if (!nc_check_group(nc, g, rs, a2a_fields,
		    sizeof(a2a_fields) / sizeof(a2a_fields[0]), u))
			continue;
		row = nc_coll_row(nc, gt, c0, a2a_fields,
		    sizeof(a2a_fields) / sizeof(a2a_fields[0]));
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double end = c->ts + c->dur;

			es = fmin(es, c->ts);
			ls = fmax(ls, c->ts);
			ee = fmin(ee, end);
			le = fmax(le, end);
		}
		nc_set_time(gt, row, 17, ls - es, nc->ts_int);
		nc_set_time(gt, row, 18, le - ee, nc->ts_int && nc->dur_int);
		ar[gi].es = es;
		ar[gi].le = le;
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			const struct val *inel = V(nc, c->f[F_INNEL]);
			double sz = val_num(V(nc, c->f[F_INMB]));

			tin += sz;
			if (inel->t == V_INT && tnel.t == V_INT)
				tnel.i += inel->i;
			else {
				tnel.d = val_num(&tnel) + val_num(inel);
				tnel.t = V_NUM;
			}
			maxd = fmax(maxd, c->dur);
			mind = fmin(mind, c->dur);
			sumd += c->dur;
			if (sz > 0 && c->dur > 0) {
				double tp = (sz / 1024) / (c->dur / 1e6);

				maxtp = ntp == 0 || tp > maxtp ? tp : maxtp;
				mintp = ntp == 0 || tp < mintp ? tp : mintp;
				ntp++;
			}
			if (!(sz <= maxsz))
				maxsz = sz;
		}
		wall = le - es;
		tab_set_num(gt, row, 7, tin);
		nc_set_val(nc, gt, row, 8, &tnel);
		nc_set_time(gt, row, 9, wall, nc->ts_int && nc->dur_int);
		nc_set_time(gt, row, 10, maxd, nc->dur_int);
		nc_set_time(gt, row, 11, mind, nc->dur_int);
		tab_set_num(gt, row, 12, sumd / (double)g->n);
		tab_set_num(gt, row, 13, wall > 0 ? (tin / 1024) / (wall / 1e6) : NAN);
		tab_set_num(gt, row, 14, ntp ? maxtp : NAN);
		tab_set_num(gt, row, 15, ntp ? mintp : NAN);
		tab_set_num(gt, row, 16, tin / (double)g->n > 0 ? maxsz / (tin / (double)g->n) :
		    NAN);
		tab_set_int(gt, row, gc, (long long)gi);
		n++;
	}
	nc_pandas_types(gt);
	tab_sort_pandas(gt, 7, 1);
	*growp = xreallocarray(NULL, n ? n : 1, sizeof(**growp));
	for (k = 0; k < n; k++)
		(*growp)[k] = (size_t)tab_cell(gt, k, gc)->v.i;
	memcpy(cols, a2a_general, sizeof(a2a_general));
	cols[NA2AG] = NULL;	/* tab_project's list ends there */
	p = tab_project(gt, "nccl_all2allv", cols);
	tab_free(gt);
	*gtp = p;
	return n;
}

static void
a2a_key(struct nc *nc, size_t i, uint32_t *k, void *arg)
{
	const struct tab *t = arg;
	size_t c;

	for (c = 0; c < 2; c++) {
		size_t tc = tab_find(t, c ? "dtype" : "Process Group Name");
		const struct tab_cell *x = tab_cell(t, i, tc);
		struct val v = { V_NONE, 0, 0, 0 };

		if (x->kind == TAB_STR) {
			const char *s = tab_str(t, i, tc);

			v.t = V_STR;
			v.s = nc_intern(nc, s, strlen(s));
		} else if (x->kind == TAB_INT) {
			v.t = V_INT;
			v.i = x->v.i;
		} else if (x->kind == TAB_NUM) {
			v.t = V_NUM;
			v.d = x->v.d;
		}
		k[c] = nc_val_id(nc, &v);
	}
}

void
nc_sheet_summary_a2a(struct nc *nc, struct tab *t, const struct tab *d)
{
	static const struct { const char *col; int aggs[5]; } logic[] = {
		{ "total data communicated (MB)", { A_MEAN, A_MEDIAN, A_MIN, A_MAX, -1 } },
		{ "wall_time (us)", { A_MEAN, A_MEDIAN, A_MIN, A_MAX, A_SUM } },
		{ "throughput (GB/s)", { A_MEAN, A_MEDIAN, A_MIN, A_MAX, -1 } },
		{ "size_imbalance", { A_MEAN, A_MAX, -1, -1, -1 } },
		{ "max_rank_dur (us)", { A_MEAN, A_MAX, -1, -1, -1 } },
		{ "skew in start time", { A_MEAN, A_MAX, -1, -1, -1 } },
		{ "skew in end time", { A_MEAN, A_MAX, -1, -1, -1 } },
	};
	static const char *const firsts[] = { "Process Group Ranks", "Collective name",
	    "Group size" };
	struct kgroup *kg;
	size_t ng, i, j, a, k;

	kg = nc_group_by(nc, d->nrows, 2, a2a_key, (void *)d, &ng);
	if (ng == 0) {
		nc_kgroups_free(kg, ng);
		return;
	}
	tab_col(t, "Process Group Name");
	tab_col(t, "dtype");
	for (i = 0; i < ng; i++) {
		size_t row = tab_row(t);

		nc_set_id(nc, t, row, 0, kg[i].key[0]);
		nc_set_id(nc, t, row, 1, kg[i].key[1]);
		for (j = 0; j < sizeof(logic) / sizeof(logic[0]); j++) {
			size_t src = tab_find(d, logic[j].col);
			struct vec v = VEC_INIT;
			bool isint = true;

			for (k = 0; k < kg[i].n; k++) {
				vec_add(&v, tab_num(d, kg[i].rows[k], src));
				isint &= tab_cell(d, kg[i].rows[k], src)->kind == TAB_INT;
			}
			for (a = 0; a < 5 && logic[j].aggs[a] >= 0; a++) {
				char name[96];
				int ag = logic[j].aggs[a];

				if (ag == A_SUM)
					snprintf(name, sizeof(name), "Total wall_time (us)");
				else
					snprintf(name, sizeof(name), "%s_%s", logic[j].col, nc_agg_name[ag]);
				nc_set_agg(t, row, nc_col(t, name), &v, ag, isint);
			}
			vec_free(&v);
		}
		tab_set_int(t, row, nc_col(t, "count"), (long long)kg[i].n);
		for (j = 0; j < 3; j++) {
			size_t src = tab_find(d, firsts[j]), dst = nc_col(t, firsts[j]);

			for (k = 0; k < kg[i].n; k++)
				if (tab_cell(d, kg[i].rows[k], src)->kind != TAB_NONE) {
					nc_copy_cell(t, row, dst, d, kg[i].rows[k], src);
					break;
				}
		}
		tab_set_num(t, row, nc_col(t, "Total wall_time (ms)"),
		    tab_num(t, row, tab_find(t, "Total wall_time (us)")) / 1000);
	}
	nc_kgroups_free(kg, ng);
	nc_pandas_types(t);
	tab_sort_pandas(t, tab_find(t, "Total wall_time (ms)"), 1);
}

/* nccl_all2allv_heatmap: the bytes each rank sent each rank (w x w), the pairs met */
struct heat {
	double		*bytes;
	long long	*cnt;
	size_t		 w, *at, n;
};

static const char *const heat_cols[] = { "src_rank", "dst_rank", "total_sent_MB",
	"avg_sent_MB", "count" };

static void
fill_heat(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	const struct heat *h = arg;
	size_t k = h->at[i];
	double mb = h->bytes[k] / 1048576.0;

	tab_set_int(t, row, 0, (long long)(k / h->w));
	tab_set_int(t, row, 1, (long long)(k % h->w));
	tab_set_num(t, row, 2, mb);
	tab_set_num(t, row, 3, mb / (double)h->cnt[k]);
	tab_set_int(t, row, 4, h->cnt[k]);
}

void
nc_sheet_heatmap(struct nc *nc, struct out *o, long long ws)
{
	struct heat h = { NULL, NULL, 0, NULL, 0 };
	struct gen g = { "nccl_all2allv_heatmap", heat_cols, 5, 0, fill_heat, &h };
	static long long rk[4096];
	size_t i, j, n, w;

	if (ws > 1024)
		return;
	w = 0;
	for (i = 0; i < nc->n; i++)
		if ((size_t)nc->c[i].rank + 1 > w)
			w = (size_t)nc->c[i].rank + 1;
	for (i = 0; i < nc->n; i++) {
		n = nc_pg_ranks(nc, V(nc, nc->c[i].f[F_INSPLIT]), rk, sizeof(rk) / sizeof(rk[0]));
		if (n > w)
			w = n;
	}
	if (w == 0 || w > 4096)
		return;
	h.w = w;
	h.bytes = xcalloc(w * w, sizeof(*h.bytes));
	h.cnt = xcalloc(w * w, sizeof(*h.cnt));
	for (i = 0; i < nc->n; i++) {
		const struct coll *c = &nc->c[i];
		const struct val *s = V(nc, c->f[F_INSPLIT]), *gsz = V(nc, c->f[F_GSIZE]);
		const char *x;
		int b;

		if (!is_a2av(nc, c) || s->t != V_STR)
			continue;
		x = S(nc, s->s);
		if (x[0] != '[' && x[0] != '(')
			continue;
		n = nc_pg_ranks(nc, s, rk, sizeof(rk) / sizeof(rk[0]));
		if (gsz->t != V_NONE && (double)n != val_num(gsz))
			continue;
		if ((b = nc_dtype_bytes(nc, V(nc, c->f[F_DTYPE]))) == 0)
			continue;
		for (j = 0; j < n; j++) {
			h.bytes[(size_t)c->rank * w + j] += (double)(rk[j] * b);
			h.cnt[(size_t)c->rank * w + j]++;
		}
	}
	for (i = 0; i < w * w; i++)
		h.n += h.cnt[i] != 0;
	if (h.n > 0) {
		h.at = xreallocarray(NULL, h.n, sizeof(*h.at));
		for (i = j = 0; i < w * w; i++)
			if (h.cnt[i] != 0)
				h.at[j++] = i;
		g.nrows = h.n;
		nc_emit(nc, o, &g);
	}
	free(h.at);
	free(h.bytes);
	free(h.cnt);
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* nccl_all2allv's rows (*na2a of them; ar, by collective), its unmatched collectives in
 * u, and its wide sheet wa */
void
nc_a2a_figures(struct nc *nc, const struct cgroup *gs, size_t ng, struct rankset *rs,
    struct tab *u, struct a2row *ar, size_t *na2a, struct wide *wa)
{
	size_t *byg;

	memset(wa, 0, sizeof(*wa));
	wa->gs = gs;
	wa->rs = rs;
	*na2a = a2a_rows(nc, gs, ng, rs, u, ar, &wa->gt, &wa->grow);
	wa->arg = ar;
	wa->ngen = NA2AG;
	/* TraceLens's columns come in the collectives' order, before the sort */
	byg = xreallocarray(NULL, *na2a ? *na2a : 1, sizeof(*byg));
	memcpy(byg, wa->grow, *na2a * sizeof(*byg));
	qsort(byg, *na2a, sizeof(*byg), cmp_size);
	nc_wide_cols(nc, wa, a2a_kinds, 10, 8, gs, byg, *na2a);
	free(byg);
}

void
nc_sheet_a2a(struct nc *nc, struct out *o, struct wide *wa, size_t na2a)
{
	struct gen g = { "nccl_all2allv", wa->cols, wa->ncols, na2a, fill_a2a, wa };

	nc_emit(nc, o, &g);
}
