/* SPDX-License-Identifier: ISC */
/*
 * ncsync: the collective report's implicit synchronisation family (ncpriv.h): each
 * matched collective's latency, skews, waits and bandwidths (nccl_implicit_sync), their
 * summary by collective, dtype and size (nccl_summary_implicit_sync), and each rank's
 * waits and arrivals (straggler_summary).
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

/* a collective name and its type (TraceLens's collective types; the rest have none) */
static const char *const coll_types[][2] = {
	{ "allreduce", "allreduce" }, { "allreduce_coalesced", "allreduce" },
	{ "reducescatter", "reducescatter" }, { "_reduce_scatter_base", "reducescatter" },
	{ "reduce_scatter_tensor_coalesced", "reducescatter" },
	{ "allgather", "allgather" }, { "all_gather", "allgather" },
	{ "_allgather_base", "allgather" }, { "all_gather_into_tensor_coalesced", "allgather" },
	{ "allgather_into_tensor_coalesced", "allgather" },
	{ "all_to_all", "alltoall" }, { "all_to_allv", "alltoallv" }
};

static const char *
coll_type(struct nc *nc, const struct val *v)
{
	size_t i;

	if (v->t != V_STR || (v->s & BIG_ID))
		return NULL;
	for (i = 0; i < sizeof(coll_types) / sizeof(coll_types[0]); i++)
		if (strcmp(S(nc, v->s), coll_types[i][0]) == 0)
			return coll_types[i][1];
	return NULL;
}

/* the metadata a collective's ranks must agree on (regular mode) */
static const int isync_fields[] = { F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL,
	F_OUTNEL, F_INMB, F_OUTMB };

static void
isync_key(struct nc *nc, size_t i, uint32_t *k, void *arg)
{
	const struct isrow *rows = ((const struct isrow **)arg)[0];
	const struct cgroup *gs = ((const struct cgroup **)arg)[1];
	const struct coll *c = &nc->c[gs[rows[i].g].ev[0]];
	static const int kf[] = { F_CNAME, F_DTYPE, F_INNEL };
	size_t j;

	for (j = 0; j < 3; j++) {
		k[j] = c->f[kf[j]];
		if (k[j] == 0)
			k[j] = nc_str_val(nc, "Unknown");
	}
}

void
nc_sheet_summary_isync(struct nc *nc, struct tab *t, const struct isrow *rows,
    size_t nrows, const struct cgroup *gs)
{
	const void *arg[2] = { rows, gs };
	struct kgroup *kg;
	size_t ng, i, j, a;
	bool has_algo = false, has_bus = false;
	static const int kf[] = { F_CNAME, F_DTYPE, F_INNEL };

	if (nrows == 0)
		return;
	for (i = 0; i < nrows; i++) {
		has_algo |= !isnan(rows[i].algo);
		has_bus |= !isnan(rows[i].bus);
	}
	for (j = 0; j < 3; j++)
		tab_col(t, nc_fname[kf[j]]);
	tab_col(t, "Process Group Name");
	tab_col(t, "Group size");
	tab_col(t, "Full msg size (MB)");
	kg = nc_group_by(nc, nrows, 3, isync_key, arg, &ng);
	for (i = 0; i < ng; i++) {
		size_t row = tab_row(t), c;
		struct vec lat = VEC_INIT, ss = VEC_INIT, se = VEC_INIT, al = VEC_INIT,
		    bu = VEC_INIT, all = VEC_INIT;
		const struct vec *vs[5];
		const char *vn[5] = { "comm_latency", "skew in start time", "skew in end time",
		    "algo bw (GB/s)", "bus bw (GB/s)" };
		bool vint[5];
		struct val first[3];
		int have[3] = { 0, 0, 0 };

		for (j = 0; j < 3; j++)
			nc_set_id(nc, t, row, j, kg[i].key[j]);
		for (j = 0; j < kg[i].n; j++) {
			const struct isrow *r = &rows[kg[i].rows[j]];
			const struct coll *c0 = &nc->c[gs[r->g].ev[0]];
			const struct val *pg = V(nc, c0->f[F_PG]), *gsz = V(nc, c0->f[F_GSIZE]);

			vec_add(&lat, r->lat);
			vec_add(&all, r->lat);
			vec_add(&ss, r->skew_s);
			vec_add(&se, r->skew_e);
			vec_add(&al, r->algo);
			vec_add(&bu, r->bus);
			/* "first": the first value that is not missing */
			if (!have[0] && pg->t != V_NONE)
				first[0] = *pg, have[0] = 1;
			if (!have[1] && gsz->t != V_NONE && !isnan(val_num(gsz)))
				first[1] = *gsz, have[1] = 1;
			if (!have[2] && !isnan(r->full)) {
				first[2].t = V_NUM;
				first[2].d = r->full;
				have[2] = 1;
			}
		}
		for (j = 0; j < 3; j++)
			if (have[j])
				nc_set_val(nc, t, row, 3 + j, &first[j]);
		vs[0] = &lat, vs[1] = &ss, vs[2] = &se, vs[3] = &al, vs[4] = &bu;
		vint[0] = nc->dur_int;
		vint[1] = nc->ts_int;
		vint[2] = nc->ts_int && nc->dur_int;
		vint[3] = vint[4] = false;
		for (j = 0; j < 5; j++) {
			if ((j == 3 && !has_algo) || (j == 4 && !has_bus))
				continue;
			for (a = A_MEAN; a <= A_MAX; a++) {
				char name[64];

				snprintf(name, sizeof(name), "%s_%s", vn[j], nc_agg_name[a]);
				c = nc_col(t, name);
				nc_set_agg(t, row, c, vs[j], (int)a, vint[j]);
			}
		}
		tab_set_int(t, row, nc_col(t, "count"), (long long)kg[i].n);
		tab_set_num(t, row, nc_col(t, "Total comm latency (ms)"), stat_npsum(&all) / 1000);
		vec_free(&lat);
		vec_free(&ss);
		vec_free(&se);
		vec_free(&al);
		vec_free(&bu);
		vec_free(&all);
	}
	nc_kgroups_free(kg, ng);
	nc_pandas_types(t);
	tab_sort_pandas(t, tab_find(t, "Total comm latency (ms)"), 1);
}

static const char *const isync_kinds[] = { "ts", "dur", "wait_time" };

static void
fill_isync(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	const struct wide *w = arg;
	const struct isrow *r = &((const struct isrow *)w->arg)[i];
	const struct cgroup *g = nc_wide_general(nc, w, t, row, i, pg);
	size_t k;

	for (k = 0; k < g->n; k++) {
		const struct coll *c = &nc->c[g->ev[k]];

		nc_set_time(t, row, nc_wpos(w, c->rank, 0), c->ts, nc->ts_int);
		nc_set_time(t, row, nc_wpos(w, c->rank, 1), c->dur, nc->dur_int);
		nc_set_time(t, row, nc_wpos(w, c->rank, 2), r->latest_s - c->ts, nc->ts_int);
	}
}

/* nccl_implicit_sync's figures of each matched collective; its general columns in w->gt */
static size_t
isync_rows(struct nc *nc, struct isrow *rows, const struct cgroup *gs, size_t ng,
    struct rankset *rs, struct tab *u, struct tab *gt)
{
	static const char *const general[] = { "collective_id", "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "Out msg nelems", "In msg size (MB)", "Out msg size (MB)",
	    "Full msg size (MB)", "comm_latency", "skew in start time",
	    "earliest arrival rank", "avg_wait_time", "skew in end time",
	    "algo bw (GB/s)", "bus bw (GB/s)" };
	size_t gi, k, j, nrows = 0;

	for (j = 0; j < sizeof(general) / sizeof(general[0]); j++)
		tab_col(gt, general[j]);
	for (gi = 0; gi < ng; gi++) {
		const struct cgroup *g = &gs[gi];
		const struct coll *c0 = &nc->c[g->ev[0]];
		const struct val *cname = V(nc, c0->f[F_CNAME]);
		const char *ct = coll_type(nc, cname);
		bool isync = ct != NULL && strcmp(ct, "alltoallv") != 0;
		double latest_s = -INFINITY, earliest_e = INFINITY, latest_e = -INFINITY;
		double lat = INFINITY, maxw = -INFINITY, sumw = 0;
		struct isrow *r;
		size_t row;
		int maxr = -1;

		if (nc->simplified ? (cname->t != V_NONE && ct != NULL && !isync) : !isync)
			continue;
		if (!nc_check_group(nc, g, rs, isync_fields,
		    nc->simplified ? 0 : sizeof(isync_fields) / sizeof(isync_fields[0]), u))
			continue;
		row = nc_coll_row(nc, gt, c0, isync_fields,
		    sizeof(isync_fields) / sizeof(isync_fields[0]));
		r = &rows[nrows++];
		r->g = gi;
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double end = c->ts + c->dur;

			if (c->ts > latest_s)
				latest_s = c->ts;
			if (end < earliest_e)
				earliest_e = end;
			if (end > latest_e)
				latest_e = end;
			if (c->dur < lat)
				lat = c->dur;
		}
		r->lat = lat;
		r->latest_s = latest_s;
		nc_set_time(gt, row, 11, lat, nc->dur_int);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double w = latest_s - c->ts;

			/* Python's max((wait, rank) ...): the largest wait, the highest rank
			 * among equals */
			if (w > maxw || (w == maxw && c->rank > maxr)) {
				maxw = w;
				maxr = c->rank;
			}
			sumw += w;
		}
		r->skew_s = maxw;
		r->earliest = maxr;
		r->avg_wait = sumw / (double)g->n;
		r->skew_e = latest_e - earliest_e;
		nc_set_time(gt, row, 12, maxw, nc->ts_int);
		tab_set_int(gt, row, 13, maxr);
		tab_set_num(gt, row, 14, r->avg_wait);
		nc_set_time(gt, row, 15, r->skew_e, nc->ts_int && nc->dur_int);
		r->full = r->algo = r->bus = NAN;
		if (ct != NULL) {
			double in = val_num(V(nc, c0->f[F_INMB])), out = val_num(V(nc, c0->f[F_OUTMB]));
			const struct val *gsz = V(nc, c0->f[F_GSIZE]);

			r->full = strcmp(ct, "allgather") == 0 ? out : in;
			r->algo = lat > 0 ? (r->full / 1024) / (lat / 1e6) : NAN;
			if (gsz->t != V_NONE && strcmp(ct, "broadcast") != 0) {
				double n = val_num(gsz);

				if (strcmp(ct, "allreduce") == 0)
					r->bus = r->algo * (2 * (n - 1) / n);
				else
					r->bus = r->algo * ((n - 1) / n);
			}
		}
		tab_set_num(gt, row, 10, r->full);
		tab_set_num(gt, row, 16, r->algo);
		tab_set_num(gt, row, 17, r->bus);
	}
	nc_pandas_types(gt);
	return nrows;
}

/* Each rank's waits (its cells of nccl_implicit_sync's rank_N_wait_time, in row order:
 * rank index x's are at[off[x] .. off[x + 1]), rows at and values wv; off has
 * ranks + 1 zeroed entries), how often it arrived last (idxmin: the first column
 * holding the row's smallest wait) and first. */
static void
straggler_waits(struct nc *nc, const struct isrow *rows, size_t nrows,
    const struct cgroup *gs, const struct wide *w, size_t *off, size_t *at, double *wv,
    long long *nlast, long long *nfirst)
{
	const struct rankset *rs = w->rs;
	size_t i, k, x, *fill;

	for (i = 0; i < nrows; i++)
		for (k = 0; k < gs[rows[i].g].n; k++)
			off[rs->rix[nc->c[gs[rows[i].g].ev[k]].rank] + 1]++;
	for (x = 0; x < rs->n; x++)
		off[x + 1] += off[x];
	fill = xreallocarray(NULL, rs->n + 1, sizeof(*fill));
	memcpy(fill, off, rs->n * sizeof(*fill));
	for (i = 0; i < nrows; i++) {
		const struct cgroup *g = &gs[rows[i].g];
		double best = INFINITY;
		int bp = -1, br = -1;

		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double v = rows[i].latest_s - c->ts;
			int p = (int)nc_wpos(w, c->rank, 2);

			if (nc->ts_int && isfinite(v))
				v = (double)(long long)v;
			x = (size_t)rs->rix[c->rank];
			at[fill[x]] = i;
			wv[fill[x]++] = v;
			if (!isnan(v) && (v < best || (v == best && p < bp))) {
				best = v;
				bp = p;
				br = c->rank;
			}
		}
		if (br >= 0)
			nlast[rs->rix[br]]++;
		if (rows[i].earliest >= 0 && rows[i].earliest <= rs->r[rs->n - 1] &&
		    rs->rix[rows[i].earliest] >= 0)
			nfirst[rs->rix[rows[i].earliest]]++;
	}
	free(fill);
}

void
nc_sheet_straggler(struct nc *nc, struct tab *t, const struct isrow *rows,
    size_t nrows, const struct cgroup *gs, const struct wide *w)
{
	const struct rankset *rs = w->rs;
	size_t i, k, x, nw = 0, *off, *at;
	double *wv, *dense;
	long long *nlast, *nfirst;
	struct stat_acc *dur;

	if (nrows == 0)
		return;
	for (x = 0; x < rs->n; x++)
		nw += w->pos[x * w->nkind + 2] >= 0;
	if (nw == 0)
		return;
	tab_col(t, "rank");
	tab_col(t, "total_wait_time_us");
	tab_col(t, "mean_wait_time_us");
	tab_col(t, "times_arrived_last");
	tab_col(t, "times_arrived_first");
	tab_col(t, "pct_arrived_last");
	tab_col(t, "num_collectives");
	tab_col(t, "total_nccl_dur_us");
	off = xcalloc(rs->n + 1, sizeof(*off));
	at = xreallocarray(NULL, nc->n + 1, sizeof(*at));
	wv = xreallocarray(NULL, nc->n + 1, sizeof(*wv));
	nlast = xcalloc(rs->n, sizeof(*nlast));
	nfirst = xcalloc(rs->n, sizeof(*nfirst));
	straggler_waits(nc, rows, nrows, gs, w, off, at, wv, nlast, nfirst);
	dur = xcalloc(rs->n, sizeof(*dur));
	for (i = 0; i < nc->n; i++)
		stat_acc_add(&dur[rs->rix[nc->c[i].rank]], nc->c[i].dur);
	dense = xreallocarray(NULL, nrows, sizeof(*dense));
	/* ranks in ascending order */
	for (x = 0; x < rs->n; x++) {
		int r = rs->r[x];
		size_t row;
		struct vec sum;
		long long cnt = 0, last = nlast[x], first = nfirst[x];
		double total, mean, s;

		if (w->pos[x * w->nkind + 2] < 0)
			continue;
		/* numpy's sum over every row, 0 where the rank has none */
		for (i = 0; i < nrows; i++)
			dense[i] = 0;
		for (k = off[x]; k < off[x + 1]; k++) {
			dense[at[k]] = isnan(wv[k]) ? 0 : wv[k];
			cnt += !isnan(wv[k]);
		}
		sum.v = dense;
		sum.n = sum.cap = nrows;
		total = stat_npsum(&sum);
		mean = cnt > 0 ? total / (double)cnt : NAN;
		row = tab_row(t);
		tab_set_int(t, row, 0, r);
		nc_set_time(t, row, 1, nc->ts_int ? total : nc_round1(total), nc->ts_int);
		tab_set_num(t, row, 2, nc_round1(mean));
		tab_set_int(t, row, 3, last);
		tab_set_int(t, row, 4, first);
		tab_set_num(t, row, 5, nc_round1(100.0 * (double)last / (double)nrows));
		tab_set_int(t, row, 6, (long long)nrows);
		if (dur[x].n > 0) {
			s = stat_acc_sum(&dur[x]);
			nc_set_time(t, row, 7, nc->dur_int ? s : nc_round1(s), nc->dur_int);
		}
	}
	free(dense);
	free(dur);
	free(off);
	free(at);
	free(wv);
	free(nlast);
	free(nfirst);
	nc_pandas_types(t);
	tab_sort_pandas(t, 1, 0);
}

/* nccl_implicit_sync's rows (*nrows of rows), its unmatched collectives in u, and its
 * wide sheet wi */
void
nc_isync_figures(struct nc *nc, const struct cgroup *gs, size_t ng, struct rankset *rs,
    struct tab *u, struct isrow *rows, size_t *nrows, struct wide *wi)
{
	size_t i;

	memset(wi, 0, sizeof(*wi));
	wi->gt = tab_new("nccl_implicit_sync");
	*nrows = isync_rows(nc, rows, gs, ng, rs, u, wi->gt);
	wi->grow = xreallocarray(NULL, *nrows ? *nrows : 1, sizeof(*wi->grow));
	for (i = 0; i < *nrows; i++)
		wi->grow[i] = rows[i].g;
	wi->gs = gs;
	wi->rs = rs;
	wi->arg = rows;
	wi->ngen = *nrows > 0 ? wi->gt->ncols : 0;
	nc_wide_cols(nc, wi, isync_kinds, 3, 2, gs, wi->grow, *nrows);
}

void
nc_sheet_isync(struct nc *nc, struct out *o, struct wide *wi, size_t nrows)
{
	struct gen g = { "nccl_implicit_sync", wi->cols, nrows > 0 ? wi->ncols : 0, nrows,
	    fill_isync, wi };

	nc_emit(nc, o, &g);
}
