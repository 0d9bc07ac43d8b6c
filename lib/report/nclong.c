/* SPDX-License-Identifier: ISC */
/*
 * nclong: the collective report's per-kernel sheets (ncpriv.h): nccl_long (every
 * collective kernel of every rank) and nccl_summary_long (its kernels grouped by rank and
 * metadata, their durations aggregated).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/tab.h"
#include "ncpriv.h"

/* nccl_long: one row per collective kernel, by rank and position */
static const char *const long_cols[] = { "collective_id", "index_in_group", "rank",
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size",
	"dtype", "In msg nelems", "In msg size (MB)", "Out msg nelems",
	"Out msg size (MB)", "In split size", "Out split size", "stream", "ts", "dur" };

static void
fill_long(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	static const int fmap[] = { -1, -1, -1, F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE,
	    F_INNEL, F_INMB, F_OUTNEL, F_OUTMB, F_INSPLIT, F_OUTSPLIT, F_STREAM, -1, -1 };
	const struct coll *c = &nc->c[i];
	const struct val *v = V(nc, c->f[F_PGRANKS]);
	size_t k;

	tab_set_str(t, row, 0, S(nc, c->cid));
	tab_set_int(t, row, 1, c->idx);
	tab_set_int(t, row, 2, c->rank);
	for (k = 3; k < 15; k++)
		nc_set_id(nc, t, row, k, c->f[fmap[k]]);
	nc_set_time(t, row, 15, c->ts, c->ts_int);
	nc_set_time(t, row, 16, c->dur, c->dur_int);
	if (v->t == V_STR)
		*pg = v->s;
}

static const int long_keys[] = { -1, F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL,
	F_OUTNEL, F_INSPLIT, F_OUTSPLIT, F_STREAM };

static void
long_key(struct nc *nc, size_t i, uint32_t *k, void *arg)
{
	const struct coll *c = &nc->c[i];
	struct val r = { V_INT, 0, 0, 0 };
	size_t j;

	r.i = c->rank;
	k[0] = nc_val_id(nc, &r);
	for (j = 1; j < 11; j++)
		k[j] = c->f[long_keys[j]];
}

/* nccl_summary_long: its groups, in the order of the sheet */
struct lsum {
	struct kgroup	*kg;
	size_t		*order;
};

static const char *const lsum_cols[] = { "rank", "Process Group Name",
	"Process Group Ranks", "Collective name", "Group size", "dtype", "In msg nelems",
	"Out msg nelems", "In split size", "Out split size", "stream",
	"In msg size (MB)_first", "Out msg size (MB)_first", "dur_sum", "dur_mean", "dur_std",
	"dur_min", "dur_max", "operation_count" };

static void
fill_lsum(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	static const int aggs[] = { A_SUM, A_MEAN, A_STD, A_MIN, A_MAX };
	const struct lsum *ls = arg;
	const struct kgroup *g = &ls->kg[ls->order[i]];
	const struct val *v = V(nc, g->key[2]);
	struct vec d = VEC_INIT;
	bool hin = false, hout = false;
	size_t j;

	for (j = 0; j < 11; j++)
		nc_set_id(nc, t, row, j, g->key[j]);
	if (v->t == V_STR)
		*pg = v->s;
	for (j = 0; j < g->n; j++) {
		const struct coll *c = &nc->c[g->rows[j]];

		vec_add(&d, c->dur);
		if (!hin && c->f[F_INMB] != 0) {
			nc_set_id(nc, t, row, 11, c->f[F_INMB]);
			hin = true;
		}
		if (!hout && c->f[F_OUTMB] != 0) {
			nc_set_id(nc, t, row, 12, c->f[F_OUTMB]);
			hout = true;
		}
	}
	for (j = 0; j < 5; j++)
		nc_set_agg(t, row, 13 + j, &d, aggs[j], nc->dur_int);
	tab_set_int(t, row, 18, (long long)g->n);
	vec_free(&d);
}

void
nc_sheet_summary_long(struct nc *nc, struct out *o)
{
	struct lsum ls;
	struct gen g = { "nccl_summary_long", lsum_cols, 19, 0, fill_lsum, &ls };
	double *sums;
	size_t ng, i, j;

	ls.kg = nc_group_by(nc, nc->n, 11, long_key, NULL, &ng);
	sums = xreallocarray(NULL, ng ? ng : 1, sizeof(*sums));
	for (i = 0; i < ng; i++) {
		struct stat_acc a;

		memset(&a, 0, sizeof(a));
		for (j = 0; j < ls.kg[i].n; j++)
			stat_acc_add(&a, nc->c[ls.kg[i].rows[j]].dur);
		sums[i] = stat_acc_sum(&a);
		if (nc->dur_int && isfinite(sums[i]))
			sums[i] = (double)(long long)sums[i];
	}
	ls.order = nc_pandas_order(sums, NULL, ng);
	g.nrows = ng;
	nc_emit(nc, o, &g);
	free(sums);
	free(ls.order);
	nc_kgroups_free(ls.kg, ng);
}

void
nc_sheet_long(struct nc *nc, struct out *o)
{
	struct gen g = { "nccl_long", long_cols, sizeof(long_cols) / sizeof(long_cols[0]),
	    nc->n, fill_long, NULL };

	nc_emit(nc, o, &g);
}
