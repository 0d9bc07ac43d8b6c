/* SPDX-License-Identifier: ISC */
/*
 * ncmatch: the collective report's matching (ncpriv.h): collectives matched across ranks
 * as TraceLens matches them (by their order in time on each rank, or within each process
 * group; by Kineto's Seq where every collective has one), the collectives and the ranks
 * of the input, and the check that a collective is on every rank of its group with the
 * same metadata (else a row of nccl_unmatched).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "ncpriv.h"

static struct nc *sort_nc;

/* nccl_long's order: by rank, then the event's position in its trace */
static int
cmp_pos(const void *a, const void *b)
{
	const struct coll *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static const char *
group_of(struct nc *nc, const struct coll *c)
{
	const struct val *g = V(nc, c->f[F_PG]);

	if (nc->simplified)
		return "";
	return g->t == V_STR ? S(nc, g->s) : "Unknown_Group";
}

/* whether two collectives of a rank are of one group (as group_of tells) */
static bool
same_group(struct nc *nc, const struct coll *x, const struct coll *y)
{
	if (nc->simplified || x->f[F_PG] == y->f[F_PG])
		return true;
	return strcmp(group_of(nc, x), group_of(nc, y)) == 0;
}

static bool sort_seq;	/* cmp_group: Seq before ts */

/* (rank, group, [Seq,] ts, position): rank(method="first") within each group, by Kineto's
 * Seq first when sort_seq */
static int
cmp_group(const void *a, const void *b)
{
	const struct coll *x = *(const struct coll *const *)a, *y = *(const struct coll *const *)b;
	int d;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (!same_group(sort_nc, x, y) &&
	    (d = strcmp(group_of(sort_nc, x), group_of(sort_nc, y))) != 0)
		return d;
	if (sort_seq && x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Matching by Kineto's Seq (issue 27, item 3): when every collective carries one and no
 * rank has one Seq twice in a group, a collective's index in its group is its Seq less
 * the group's lowest Seq on any rank, so that one a rank lacks leaves a gap (and is
 * reported unmatched) instead of shifting every later one. False: match by time.
 */
static bool
by_seq(struct nc *nc, struct coll **p)
{
	struct names g;
	long long *lo = NULL;
	size_t i, cap = 0;
	uint32_t k;

	for (i = 0; i < nc->n; i++)
		if (nc->c[i].seq < 0)
			return false;
	if (nc->n == 0)
		return false;
	sort_seq = true;
	qsort(p, nc->n, sizeof(*p), cmp_group);
	sort_seq = false;
	for (i = 1; i < nc->n; i++)
		if (p[i - 1]->rank == p[i]->rank && p[i - 1]->seq == p[i]->seq &&
		    same_group(nc, p[i - 1], p[i]))
			return false;
	names_init(&g);
	for (i = 0; i < nc->n; i++) {
		const char *s = group_of(nc, p[i]);
		int added;

		k = names_add(&g, s, strlen(s), &added);
		lo = xgrow(lo, &cap, (size_t)k + 1, sizeof(*lo));
		if (added || p[i]->seq < lo[k])
			lo[k] = p[i]->seq;
	}
	for (i = 0; i < nc->n; i++) {
		const char *s = group_of(nc, p[i]);

		p[i]->idx = p[i]->seq - lo[names_lookup(&g, s, strlen(s))];
	}
	names_free(&g);
	free(lo);
	return true;
}

void
nc_match(struct nc *nc)
{
	bool pg_missing = true, pg_unknown = true, single = true, seq;
	struct coll **p;
	size_t i, j = 0;
	uint32_t all = nc_str_val(nc, "all"), unknown = nc_str_val(nc, "Unknown_Group");

	nc_join_groups(nc);
	qsort(nc->c, nc->n, sizeof(*nc->c), cmp_pos);
	nc->ts_int = nc->dur_int = true;
	for (i = 0; i < nc->n; i++) {
		struct coll *c = &nc->c[i];

		if (c->f[F_PG] != 0)
			pg_missing = false;
		if (c->f[F_PG] != 0 && c->f[F_PG] != unknown)
			pg_unknown = false;
		/* one stream per rank (missing streams do not count): each the same as the
		 * rank's first stream */
		if (i == 0 || nc->c[i - 1].rank != c->rank)
			j = i;	/* the rank's first collective */
		if (c->f[F_STREAM] != 0 && nc->c[j].f[F_STREAM] == 0)
			j = i;
		if (c->f[F_STREAM] != 0 && !nc_id_eq(nc, c->f[F_STREAM], nc->c[j].f[F_STREAM]))
			single = false;
		if (!c->ts_int)
			nc->ts_int = false;
		if (!c->dur_int)
			nc->dur_int = false;
	}
	nc->simplified = (pg_missing || pg_unknown) && single;
	p = xreallocarray(NULL, nc->n, sizeof(*p));
	for (i = 0; i < nc->n; i++)
		p[i] = &nc->c[i];
	sort_nc = nc;
	seq = by_seq(nc, p);
	if (!seq)
		qsort(p, nc->n, sizeof(*p), cmp_group);
	for (i = 0; i < nc->n; i++) {
		struct coll *c = p[i];

		if (!seq)
			c->idx = i > 0 && p[i - 1]->rank == c->rank && same_group(nc, p[i - 1], c) ?
			    p[i - 1]->idx + 1 : 0;
		buf_reset(&nc->b);
		if (!nc->simplified)
			buf_printf(&nc->b, "%s_", group_of(nc, c));
		buf_printf(&nc->b, "%lld", c->idx);
		c->cid = nc_intern(nc, nc->b.p, nc->b.len);
		if (nc->simplified)
			c->f[F_PG] = all;
		else if (c->f[F_PG] == 0)
			c->f[F_PG] = unknown;
	}
	free(p);
}

/* --- completeness -------------------------------------------------------------------- */

/* The ranks a Process Group Ranks value names; their count (0: unknown). */
size_t
nc_pg_ranks(struct nc *nc, const struct val *v, long long *out, size_t max)
{
	const char *s;
	size_t n = 0;

	if (v->t != V_STR)
		return 0;
	s = S(nc, v->s);
	while (*s != '\0') {
		if (isdigit((unsigned char)*s)) {
			long long r = 0;

			while (isdigit((unsigned char)*s)) {
				if (r < 100000000)
					r = r * 10 + (*s - '0');
				s++;
			}
			if (n < max)
				out[n++] = r;
		} else
			s++;
	}
	return n;
}

static void
add_row_unmatched(struct nc *nc, struct tab *u, const struct coll *c, const char *why)
{
	size_t row = tab_row(u);

	tab_set_str(u, row, 0, S(nc, c->cid));
	nc_set_id(nc, u, row, 1, c->f[F_PG]);
	nc_set_id(nc, u, row, 2, c->f[F_CNAME]);
	tab_set_str(u, row, 3, why);
}

/* Whether collective g is matched on every rank that should have it; else a row of u
 * saying why. fields: the metadata that must agree (nf of them; 0: none). */
bool
nc_check_group(struct nc *nc, const struct cgroup *g, struct rankset *rs,
    const int *fields, size_t nf, struct tab *u)
{
	const struct coll *c0 = &nc->c[g->ev[0]];
	static long long rk[4096];
	size_t n, i, j, k;
	struct buf b = { 0 };
	bool ok = true;
	uint32_t st = ++rs->stamp;

	/* the ranks of its group that are in the input, else every rank of the input */
	n = nc_pg_ranks(nc, V(nc, c0->f[F_PGRANKS]), rk, sizeof(rk) / sizeof(rk[0]));
	if (nc->simplified)
		n = 0;
	for (j = 0; j < n; j++)
		if (rk[j] >= 0 && rk[j] <= rs->r[rs->n - 1] && rs->rix[rk[j]] >= 0)
			rs->want[rs->rix[rk[j]]] = st;
	for (k = 0; k < g->n; k++)
		rs->have[rs->rix[nc->c[g->ev[k]].rank]] = st;
	for (i = 0; i < rs->n; i++)
		if ((n == 0 || rs->want[i] == st) && rs->have[i] != st) {
			buf_printf(&b, "%s%d", ok ? "missing on rank " : ", ", rs->r[i]);
			ok = false;
		}
	for (i = 0; i < nf; i++) {
		int f = fields[i];

		for (k = 1; k < g->n; k++)
			if (!nc_id_eq(nc, nc->c[g->ev[k]].f[f], c0->f[f]))
				break;
		if (k == g->n)
			continue;
		buf_printf(&b, "%sMetadata mismatch in '%s':", ok ? "" : "; ", nc_fname[f]);
		for (k = 0; k < g->n; k++) {
			buf_printf(&b, " rank %d ", nc->c[g->ev[k]].rank);
			nc_val_text(nc, &b, V(nc, nc->c[g->ev[k]].f[f]));
			if (k + 1 < g->n)
				buf_addc(&b, ',');
		}
		ok = false;
	}
	if (!ok)
		add_row_unmatched(nc, u, c0, b.p);
	buf_free(&b);
	return ok;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* the ranks of the input: of the rank records and of the collectives */
void
nc_rankset_init(struct nc *nc, struct rankset *rs)
{
	size_t i, m = 0;

	rs->r = xreallocarray(NULL, nc->nri + nc->n, sizeof(*rs->r));
	rs->n = 0;
	for (i = 0; i < nc->nri; i++)
		rs->r[rs->n++] = nc->ri[i].rank;
	for (i = 0; i < nc->n; i++)
		if (i == 0 || nc->c[i].rank != nc->c[i - 1].rank)
			rs->r[rs->n++] = nc->c[i].rank;
	qsort(rs->r, rs->n, sizeof(*rs->r), cmp_int);
	for (i = 0; i < rs->n; i++)
		if (m == 0 || rs->r[m - 1] != rs->r[i])
			rs->r[m++] = rs->r[i];
	rs->n = m;
	rs->rix = xreallocarray(NULL, (size_t)rs->r[m - 1] + 1, sizeof(*rs->rix));
	for (i = 0; i <= (size_t)rs->r[m - 1]; i++)
		rs->rix[i] = -1;
	for (i = 0; i < m; i++)
		rs->rix[rs->r[i]] = (int)i;
	rs->want = xcalloc(m, sizeof(*rs->want));
	rs->have = xcalloc(m, sizeof(*rs->have));
	rs->stamp = 0;
}

void
nc_rankset_free(struct rankset *rs)
{
	free(rs->r);
	free(rs->rix);
	free(rs->want);
	free(rs->have);
}

/* The collectives (their events by collective_id), in order of first appearance in
 * nccl_long; their count in *ng. */
struct cgroup *
nc_coll_groups(struct nc *nc, size_t *ng)
{
	struct cgroup *gs = NULL;
	struct names cids;
	size_t i, n = 0, cap = 0;

	names_init(&cids);
	for (i = 0; i < nc->n; i++) {
		uint32_t cid = nc->c[i].cid, k;
		int added;

		k = names_add(&cids, (const char *)&cid, sizeof(cid), &added);
		if (added) {
			gs = xgrow(gs, &cap, n + 1, sizeof(*gs));
			memset(&gs[n++], 0, sizeof(*gs));
		}
		gs[k].ev = xgrow(gs[k].ev, &gs[k].cap, gs[k].n + 1, sizeof(size_t));
		gs[k].ev[gs[k].n++] = i;
	}
	names_free(&cids);
	*ng = n;
	return gs;
}
