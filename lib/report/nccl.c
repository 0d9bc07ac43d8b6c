/* SPDX-License-Identifier: ISC */
/* nccl: TraceLens's multi-rank collective report from collective records
 * (report/nccl.h). */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/rec.h"
#include "report/nccl.h"
#include "report/pyrepr.h"
#include "report/tab.h"

/* A value as TraceLens's DataFrame holds it: None, an int, a float or a string (a JSON
 * array becomes its tuple's repr). */
enum { V_NONE, V_INT, V_NUM, V_STR };

struct val {
	int		 t;
	long long	 i;
	double		 d;
	uint32_t	 s;	/* string, interned */
};

/* The per-rank fields of a collective, in nccl_long's names. */
enum {
	F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL, F_OUTNEL, F_INSPLIT, F_OUTSPLIT,
	F_STREAM, F_INMB, F_OUTMB, NF
};
static const char *const fname[NF] = {
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size",
	"dtype", "In msg nelems", "Out msg nelems", "In split size", "Out split size",
	"stream", "In msg size (MB)", "Out msg size (MB)"
};
/* the record keys of the fields up to F_STREAM */
static const char *const fkey[F_STREAM + 1] = {
	"group", "group_ranks", "coll", "group_size", "dtype", "in_nelems", "out_nelems",
	"in_split", "out_split", "stream"
};

struct coll {
	int		 rank;
	long long	 id;		/* the event's position in its trace */
	long long	 start_ns, ns;
	double		 ts, dur;	/* µs, as TraceLens's doubles */
	struct val	 f[NF];
	long long	 idx;		/* index_in_group */
	long long	 seq;		/* Kineto's Seq, or -1 */
	uint32_t	 cid;		/* collective_id, interned */
	const char	*where;
};

struct rankinfo {
	int		 rank;
	long long	 devices;
	char		*where;
};

struct nc {
	struct names	 s;
	struct coll	*c;
	size_t		 n, cap, nrec;
	struct rankinfo	*ri;
	size_t		 nri, capri;
	struct names	 gkey;		/* "group" records: (rank, group) ... */
	struct val	*granks;	/* ... to the group's rank list */
	size_t		 capg;
	bool		 simplified, ts_int, dur_int;
	struct buf	 b;
};

#define S(nc, i) names_str(&(nc)->s, (i))

struct nc *
nc_new(void)
{
	struct nc *nc = xcalloc(1, sizeof(*nc));

	names_init(&nc->s);
	names_init(&nc->gkey);
	return nc;
}

void
nc_free(struct nc *nc)
{
	size_t i;

	if (nc == NULL)
		return;
	for (i = 0; i < nc->nri; i++)
		free(nc->ri[i].where);
	for (i = 0; i < nc->n; i++)
		free((char *)nc->c[i].where);
	names_free(&nc->s);
	names_free(&nc->gkey);
	free(nc->granks);
	buf_free(&nc->b);
	free(nc->c);
	free(nc->ri);
	free(nc);
}

size_t
nc_count(const struct nc *nc)
{
	return nc->nrec;
}

static uint32_t
intern(struct nc *nc, const char *s, size_t n)
{
	return names_intern(&nc->s, s, n);
}

/* The value of key as TraceLens reads it from the event's args. */
static struct val
get_val(struct nc *nc, struct rec *r, const char *key)
{
	struct val v = { V_NONE, 0, 0, 0 };
	const char *s, *raw;
	size_t n;
	bool bv;

	switch (rec_type(r, key)) {
	case REC_INT:
		if (rec_int(r, key, &v.i))
			v.t = V_INT;
		break;
	case REC_REAL:
		if (rec_num(r, key, &v.d))
			v.t = V_NUM;
		break;
	case REC_STRING:
		if ((s = rec_str(r, key, &n)) != NULL) {
			v.t = V_STR;
			v.s = intern(nc, s, n);
		}
		break;
	case REC_BOOL:
		if (rec_bool(r, key, &bv)) {
			v.t = V_STR;
			v.s = intern(nc, bv ? "True" : "False", bv ? 4 : 5);
		}
		break;
	case REC_ARRAY:
	case REC_OBJECT:
		if ((raw = rec_raw(r, key, &n)) != NULL) {
			buf_reset(&nc->b);
			if (py_json(&nc->b, raw, n, PY_TUPLE)) {
				v.t = V_STR;
				v.s = intern(nc, nc->b.p, nc->b.len);
			}
		}
		break;
	default:
		break;
	}
	return v;
}

static int
dtype_bytes(struct nc *nc, const struct val *v)
{
	static const char *const dt[] = { "Float", "Int", "Long", "BFloat16", "Bool", "Byte",
	    "Double", "Half", "Short" };
	static const int sz[] = { 4, 4, 8, 2, 1, 1, 8, 2, 2 };
	size_t i;

	if (v->t != V_STR)
		return 0;
	for (i = 0; i < sizeof(dt) / sizeof(dt[0]); i++)
		if (strcmp(S(nc, v->s), dt[i]) == 0)
			return sz[i];
	return 0;
}

static double
val_num(const struct val *v)
{
	return v->t == V_INT ? (double)v->i : v->t == V_NUM ? v->d : NAN;
}

/* nelems * bytes / 1024**2, as Python computes it (None when nelems is not a number) */
static struct val
msg_mb(const struct val *nel, int bytes)
{
	struct val v = { V_NONE, 0, 0, 0 };

	if (nel->t == V_INT || nel->t == V_NUM) {
		v.t = V_NUM;
		v.d = nel->t == V_INT ? (double)(nel->i * bytes) / 1048576.0 :
		    nel->d * bytes / 1048576.0;
	}
	return v;
}

/* µs as a double from ns: the double Python reads from the trace's decimal text (the
 * integer part and the fraction written apart, read back correctly rounded). */
static double
ns_us(long long ns)
{
	long long q = ns / 1000, r = ns % 1000;
	char t[48];

	if (r < 0) {
		q--;
		r += 1000;
	}
	if (q < 0 && r != 0) {
		q++;
		r = 1000 - r;
		snprintf(t, sizeof(t), "-%lld.%03lld", -q, r);
	} else
		snprintf(t, sizeof(t), "%lld.%03lld", q, r);
	return strtod(t, NULL);
}

/* The key of a process group on a rank: the rank and the group's value. */
static void
group_key(struct buf *b, long long rank, const struct val *g)
{
	buf_reset(b);
	buf_printf(b, "%lld/%d/%lld/%u", rank, g->t, g->t == V_INT ? g->i : 0, g->t == V_STR ?
	    g->s : 0);
}

/* A "group" record: its rank list, for the kernels of that group on that rank that
 * leave it out. */
static void
take_group(struct nc *nc, struct rec *r)
{
	struct val g, rl;
	long long rank;
	uint32_t i;
	int added;

	if (!rec_int(r, "rank", &rank))
		return;		/* a single trace's (ttp-parse without a rank) */
	g = get_val(nc, r, "group");
	rl = get_val(nc, r, "group_ranks");
	if (g.t == V_NONE || g.t == V_NUM || rl.t == V_NONE)
		return;
	group_key(&nc->b, rank, &g);
	i = names_add(&nc->gkey, nc->b.p, nc->b.len, &added);
	nc->granks = xgrow(nc->granks, &nc->capg, (size_t)i + 1, sizeof(*nc->granks));
	if (added)
		nc->granks[i] = rl;
}

/* Kernels without their group's rank list: the one its "group" record gives. */
static void
join_groups(struct nc *nc)
{
	size_t i;
	uint32_t g;

	if (nc->gkey.n == 0)
		return;
	for (i = 0; i < nc->n; i++) {
		struct coll *c = &nc->c[i];

		if (c->f[F_PGRANKS].t != V_NONE || c->f[F_PG].t == V_NONE)
			continue;
		group_key(&nc->b, c->rank, &c->f[F_PG]);
		if ((g = names_lookup(&nc->gkey, nc->b.p, nc->b.len)) != NAME_NONE)
			c->f[F_PGRANKS] = nc->granks[g];
	}
}

int
nc_add(struct nc *nc, struct rec *r)
{
	const char *kind = rec_str(r, "kind", NULL);
	long long rank, v;
	struct coll c;
	size_t i;

	if (kind != NULL && strcmp(kind, "group") == 0) {
		if (rec_bad(r) == NULL)
			take_group(nc, r);
		return 0;	/* a single trace's report reads it too */
	}
	if (kind == NULL || (strcmp(kind, "coll") != 0 && strcmp(kind, "rank") != 0))
		return 0;
	nc->nrec++;
	if (!rec_int(r, "rank", &rank) || rank < 0 || rank > 1000000) {
		if (rec_bad(r) == NULL)
			rec_reject(r, "%s record without a \"rank\" (0 to 1000000)", kind);
		return 1;
	}
	if (strcmp(kind, "rank") == 0) {
		long long dev = 0;

		(void)rec_int(r, "devices", &dev);
		if (rec_bad(r) != NULL)
			return 1;
		for (i = 0; i < nc->nri; i++)
			if (nc->ri[i].rank == rank) {
				rec_reject(r, "rank %lld again: %s has it already", rank,
				    nc->ri[i].where);
				return 1;
			}
		nc->ri = xgrow(nc->ri, &nc->capri, nc->nri + 1, sizeof(*nc->ri));
		nc->ri[nc->nri].rank = (int)rank;
		nc->ri[nc->nri].devices = dev;
		nc->ri[nc->nri].where = xstrdup(rec_where(r));
		nc->nri++;
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.rank = (int)rank;
	if (!rec_int(r, "id", &c.id) || !rec_int(r, "start_ns", &c.start_ns) ||
	    !rec_int(r, "ns", &c.ns) || c.ns < 0) {
		if (rec_bad(r) == NULL)
			rec_reject(r, "coll record without integer \"id\", \"start_ns\" and "
			    "\"ns\" (>= 0)");
		return 1;
	}
	for (i = 0; i <= F_STREAM; i++)
		c.f[i] = get_val(nc, r, fkey[i]);
	if (!rec_int(r, "seq", &c.seq) || c.seq < 0)
		c.seq = -1;
	if (rec_bad(r) != NULL)
		return 1;
	if (c.f[F_CNAME].t == V_NONE) {
		/* TraceLens's inference rule for custom collectives */
		const char *name = rec_str(r, "name", NULL);

		if (name != NULL && strcasestr(name, "cross_device_reduce") != NULL) {
			c.f[F_CNAME].t = V_STR;
			c.f[F_CNAME].s = intern(nc, "allreduce", 9);
		}
	}
	if ((v = dtype_bytes(nc, &c.f[F_DTYPE])) > 0 && c.f[F_INNEL].t != V_NONE) {
		c.f[F_INMB] = msg_mb(&c.f[F_INNEL], (int)v);
		c.f[F_OUTMB] = msg_mb(&c.f[F_OUTNEL], (int)v);
	}
	c.ts = ns_us(c.start_ns);
	c.dur = ns_us(c.ns);
	c.where = xstrdup(rec_where(r));
	nc->c = xgrow(nc->c, &nc->cap, nc->n + 1, sizeof(*nc->c));
	nc->c[nc->n++] = c;
	return 1;
}

/* --- values ------------------------------------------------------------------------ */

static bool
val_eq(struct nc *nc, const struct val *a, const struct val *b)
{
	if (a->t == V_NONE || b->t == V_NONE)
		return a->t == b->t;
	if (a->t == V_STR || b->t == V_STR)
		return a->t == b->t && a->s == b->s;
	if (a->t == V_INT && b->t == V_INT)
		return a->i == b->i;
	return val_num(a) == val_num(b);
}

/* pandas' sort of group keys: numbers before strings */
static int
val_cmp(struct nc *nc, const struct val *a, const struct val *b)
{
	double x, y;

	if (a->t == V_STR || b->t == V_STR) {
		if (a->t != b->t)
			return a->t == V_STR ? 1 : -1;
		return strcmp(S(nc, a->s), S(nc, b->s));
	}
	x = val_num(a);
	y = val_num(b);
	if (a->t == V_INT && b->t == V_INT)
		return (a->i > b->i) - (a->i < b->i);
	return (x > y) - (x < y);
}

static void
val_text(struct nc *nc, struct buf *b, const struct val *v)
{
	switch (v->t) {
	case V_NONE: buf_adds(b, "None"); break;
	case V_INT: py_int(b, v->i); break;
	case V_NUM: py_float(b, v->d); break;
	default: buf_adds(b, S(nc, v->s)); break;
	}
}

static void
set_val(struct nc *nc, struct tab *t, size_t row, size_t col, const struct val *v)
{
	switch (v->t) {
	case V_INT: tab_set_int(t, row, col, v->i); break;
	case V_NUM: tab_set_num(t, row, col, v->d); break;
	case V_STR: tab_set_str(t, row, col, S(nc, v->s)); break;
	default: break;
	}
}

/* a time: an integer when every value of its column is one */
static void
set_time(struct tab *t, size_t row, size_t col, double v, bool isint)
{
	if (isint && isfinite(v))
		tab_set_int(t, row, col, (long long)v);
	else
		tab_set_num(t, row, col, v);
}

static size_t
col(struct tab *t, const char *name)
{
	size_t c = tab_find(t, name);

	return c != (size_t)-1 ? c : tab_col(t, name);
}

/* pandas' column types: a column of integers with a missing value (or a float) is a
 * float column. */
static void
pandas_types(struct tab *t)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++) {
		bool ints = false, other = false, str = false;

		for (r = 0; r < t->nrows; r++) {
			int k = tab_cell(t, r, c)->kind;

			ints |= k == TAB_INT;
			other |= k == TAB_NONE || k == TAB_NUM;
			str |= k == TAB_STR || k == TAB_BOOL;
		}
		if (!ints || !other || str)
			continue;
		for (r = 0; r < t->nrows; r++) {
			struct tab_cell *x = tab_cell(t, r, c);

			if (x->kind == TAB_INT)
				tab_set_num(t, r, c, (double)x->v.i);
		}
	}
}

/* numpy's round(x, 1) */
static double
np_round1(double x)
{
	return rint(x * 10) / 10;
}

/* --- matching ---------------------------------------------------------------------- */

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
group_of(const struct nc *nc, const struct coll *c)
{
	if (nc->simplified)
		return "";
	return c->f[F_PG].t == V_STR ? S(nc, c->f[F_PG].s) : "Unknown_Group";
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
	if ((d = strcmp(group_of(sort_nc, x), group_of(sort_nc, y))) != 0)
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
		    strcmp(group_of(nc, p[i - 1]), group_of(nc, p[i])) == 0)
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

static void
match(struct nc *nc)
{
	bool pg_missing = true, pg_unknown = true, single = true, seq;
	struct coll **p;
	size_t i, j;

	join_groups(nc);
	qsort(nc->c, nc->n, sizeof(*nc->c), cmp_pos);
	nc->ts_int = nc->dur_int = true;
	for (i = 0; i < nc->n; i++) {
		struct coll *c = &nc->c[i];

		if (c->f[F_PG].t != V_NONE)
			pg_missing = false;
		if (c->f[F_PG].t != V_NONE && !(c->f[F_PG].t == V_STR &&
		    strcmp(S(nc, c->f[F_PG].s), "Unknown_Group") == 0))
			pg_unknown = false;
		/* one stream per rank (missing streams do not count) */
		for (j = i; j-- > 0 && nc->c[j].rank == c->rank; )
			if (c->f[F_STREAM].t != V_NONE && nc->c[j].f[F_STREAM].t != V_NONE &&
			    !val_eq(nc, &c->f[F_STREAM], &nc->c[j].f[F_STREAM])) {
				single = false;
				break;
			}
		if (c->start_ns % 1000 != 0)
			nc->ts_int = false;
		if (c->ns % 1000 != 0)
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
			c->idx = i > 0 && p[i - 1]->rank == c->rank &&
			    strcmp(group_of(nc, p[i - 1]), group_of(nc, c)) == 0 ?
			    p[i - 1]->idx + 1 : 0;
		buf_reset(&nc->b);
		if (!nc->simplified)
			buf_printf(&nc->b, "%s_", group_of(nc, c));
		buf_printf(&nc->b, "%lld", c->idx);
		c->cid = intern(nc, nc->b.p, nc->b.len);
		if (nc->simplified) {
			c->f[F_PG].t = V_STR;
			c->f[F_PG].s = intern(nc, "all", 3);
		} else if (c->f[F_PG].t == V_NONE) {
			c->f[F_PG].t = V_STR;
			c->f[F_PG].s = intern(nc, "Unknown_Group", 13);
		}
	}
	free(p);
}

/* --- node columns ------------------------------------------------------------------ */

/* The ranks a Process Group Ranks value names; their count (0: unknown). */
static size_t
pg_ranks(struct nc *nc, const struct val *v, long long *out, size_t max)
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
node_cols(struct nc *nc, struct tab *t, long long g, long long ws)
{
	size_t rc = tab_find(t, "rank"), pc = tab_find(t, "Process Group Ranks"), r, i;
	size_t nid = (size_t)-1, nsp = (size_t)-1;
	long long rk[4096];

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
			struct val v = { V_NONE, 0, 0, 0 };
			size_t n;
			bool inter = false;

			if (x->kind == TAB_STR) {
				v.t = V_STR;
				v.s = intern(nc, tab_str(t, r, pc), strlen(tab_str(t, r, pc)));
			}
			n = pg_ranks(nc, &v, rk, sizeof(rk) / sizeof(rk[0]));
			for (i = 1; i < n; i++)
				if (rk[i] / g != rk[0] / g)
					inter = true;
			tab_set_str(t, r, nsp, n == 0 ? "unknown" : inter ? "inter_node" :
			    "intra_node");
		}
	}
	pandas_types(t);
}

/* --- the sheets ---------------------------------------------------------------------- */

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

	if (v->t != V_STR)
		return NULL;
	for (i = 0; i < sizeof(coll_types) / sizeof(coll_types[0]); i++)
		if (strcmp(S(nc, v->s), coll_types[i][0]) == 0)
			return coll_types[i][1];
	return NULL;
}

/* One collective: its events on the ranks, in nccl_long's order (by rank). */
struct cgroup {
	size_t	*ev;
	size_t	 n, cap;
};

struct sheets {
	struct tab	**t;
	size_t		  n;
};

static struct tab *
take_sheet(struct sheets *sh, struct tab *t)
{
	sh->t = xreallocarray(sh->t, sh->n + 1, sizeof(*sh->t));
	sh->t[sh->n++] = t;
	return t;
}

static void
add_row_unmatched(struct nc *nc, struct tab *u, const struct coll *c, const char *why)
{
	size_t row = tab_row(u);

	tab_set_str(u, row, 0, S(nc, c->cid));
	set_val(nc, u, row, 1, &c->f[F_PG]);
	set_val(nc, u, row, 2, &c->f[F_CNAME]);
	tab_set_str(u, row, 3, why);
}

/* Whether collective g is matched on every rank that should have it; else a row of u
 * saying why. fields: the metadata that must agree (nf of them; 0: none). */
static bool
check_group(struct nc *nc, const struct cgroup *g, const int *ranks, size_t nranks,
    const int *fields, size_t nf, struct tab *u)
{
	const struct coll *c0 = &nc->c[g->ev[0]];
	long long rk[4096];
	size_t n, i, j, k;
	struct buf b = { 0 };
	bool ok = true;

	/* the ranks of its group that are in the input, else every rank of the input */
	n = pg_ranks(nc, &c0->f[F_PGRANKS], rk, sizeof(rk) / sizeof(rk[0]));
	if (nc->simplified)
		n = 0;
	for (i = 0; i < nranks; i++) {
		bool want = n == 0, have = false;

		for (j = 0; j < n && !want; j++)
			want = rk[j] == ranks[i];
		for (k = 0; k < g->n && !have; k++)
			have = nc->c[g->ev[k]].rank == ranks[i];
		if (want && !have) {
			buf_printf(&b, "%s%d", ok ? "missing on rank " : ", ", ranks[i]);
			ok = false;
		}
	}
	for (i = 0; i < nf; i++) {
		int f = fields[i];

		for (k = 1; k < g->n; k++)
			if (!val_eq(nc, &nc->c[g->ev[k]].f[f], &c0->f[f]))
				break;
		if (k == g->n)
			continue;
		buf_printf(&b, "%sMetadata mismatch in '%s':", ok ? "" : "; ", fname[f]);
		for (k = 0; k < g->n; k++) {
			buf_printf(&b, " rank %d ", nc->c[g->ev[k]].rank);
			val_text(nc, &b, &nc->c[g->ev[k]].f[f]);
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

static const int isync_fields[] = { F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL,
	F_OUTNEL, F_INMB, F_OUTMB };
static const int a2a_fields[] = { F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_STREAM };

/* the figures of one row of nccl_implicit_sync */
struct isrow {
	size_t	 g;		/* its collective */
	double	 lat, skew_s, skew_e, avg_wait, full, algo, bus;
	int	 earliest;
};

static void
sheet_long(struct nc *nc, struct tab *t)
{
	static const char *const cols[] = { "collective_id", "index_in_group", "rank",
	    "Process Group Name", "Process Group Ranks", "Collective name", "Group size",
	    "dtype", "In msg nelems", "In msg size (MB)", "Out msg nelems",
	    "Out msg size (MB)", "In split size", "Out split size", "stream", "ts", "dur" };
	static const int fmap[] = { -1, -1, -1, F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE,
	    F_INNEL, F_INMB, F_OUTNEL, F_OUTMB, F_INSPLIT, F_OUTSPLIT, F_STREAM, -1, -1 };
	size_t i, k;

	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		tab_col(t, cols[k]);
	for (i = 0; i < nc->n; i++) {
		const struct coll *c = &nc->c[i];
		size_t row = tab_row(t);

		tab_set_str(t, row, 0, S(nc, c->cid));
		tab_set_int(t, row, 1, c->idx);
		tab_set_int(t, row, 2, c->rank);
		for (k = 3; k < 15; k++)
			set_val(nc, t, row, k, &c->f[fmap[k]]);
		set_time(t, row, 15, c->ts, c->start_ns % 1000 == 0);
		set_time(t, row, 16, c->dur, c->ns % 1000 == 0);
	}
	pandas_types(t);
}

/* groupby(...).agg: group keys of the rows' values; NULL-free keys only (dropna) */
struct kgroup {
	struct val	*key;
	size_t		*rows;
	size_t		 n, cap;
};

static size_t nkeys_sort;

static int
cmp_kgroup(const void *a, const void *b)
{
	const struct kgroup *x = a, *y = b;
	size_t i;
	int d;

	for (i = 0; i < nkeys_sort; i++)
		if ((d = val_cmp(sort_nc, &x->key[i], &y->key[i])) != 0)
			return d;
	return 0;
}

/* Group items (count n) by nk keys got by keyf; sorted by key, as pandas' groupby. */
static struct kgroup *
group_by(struct nc *nc, size_t n, size_t nk, void (*keyf)(struct nc *, size_t, struct val *,
    void *), void *arg, size_t *ng)
{
	struct kgroup *gs = NULL;
	struct val *k = xreallocarray(NULL, nk, sizeof(*k));
	size_t i, j, cap = 0, m = 0;

	for (i = 0; i < n; i++) {
		bool none = false;

		keyf(nc, i, k, arg);
		for (j = 0; j < nk; j++)
			none |= k[j].t == V_NONE;
		if (none)
			continue;
		for (j = 0; j < m; j++) {
			size_t f;

			for (f = 0; f < nk && val_eq(nc, &gs[j].key[f], &k[f]) &&
			    gs[j].key[f].t == k[f].t; f++)
				;
			if (f == nk)
				break;
		}
		if (j == m) {
			gs = xgrow(gs, &cap, m + 1, sizeof(*gs));
			memset(&gs[m], 0, sizeof(gs[m]));
			gs[m].key = xreallocarray(NULL, nk, sizeof(*k));
			memcpy(gs[m].key, k, nk * sizeof(*k));
			m++;
		}
		gs[j].rows = xgrow(gs[j].rows, &gs[j].cap, gs[j].n + 1, sizeof(size_t));
		gs[j].rows[gs[j].n++] = i;
	}
	free(k);
	sort_nc = nc;
	nkeys_sort = nk;
	if (m > 1)
		qsort(gs, m, sizeof(*gs), cmp_kgroup);
	*ng = m;
	return gs;
}

static void
kgroups_free(struct kgroup *gs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(gs[i].key);
		free(gs[i].rows);
	}
	free(gs);
}

/* the four aggregations of TraceLens's --agg_metrics default, and more */
enum { A_MEAN, A_MEDIAN, A_MIN, A_MAX, A_SUM, A_STD };

static void
set_agg(struct tab *t, size_t row, size_t col, const struct vec *v, int a, bool isint)
{
	switch (a) {
	case A_MEAN: tab_set_num(t, row, col, stat_mean(v)); break;
	case A_MEDIAN: tab_set_num(t, row, col, stat_median(v)); break;
	case A_MIN: set_time(t, row, col, stat_min(v), isint); break;
	case A_MAX: set_time(t, row, col, stat_max(v), isint); break;
	case A_SUM: set_time(t, row, col, stat_sum(v), isint); break;
	case A_STD: tab_set_num(t, row, col, stat_std(v, 1)); break;
	}
}

static const char *const agg_name[] = { "mean", "median", "min", "max", "sum", "std" };

static void
isync_key(struct nc *nc, size_t i, struct val *k, void *arg)
{
	const struct isrow *rows = ((const struct isrow **)arg)[0];
	const struct cgroup *gs = ((const struct cgroup **)arg)[1];
	const struct coll *c = &nc->c[gs[rows[i].g].ev[0]];
	static const int kf[] = { F_CNAME, F_DTYPE, F_INNEL };
	size_t j;

	for (j = 0; j < 3; j++) {
		k[j] = c->f[kf[j]];
		if (k[j].t == V_NONE) {
			k[j].t = V_STR;
			k[j].s = intern(nc, "Unknown", 7);
		}
	}
}

static void
sheet_summary_isync(struct nc *nc, struct tab *t, const struct isrow *rows, size_t nrows,
    const struct cgroup *gs)
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
		tab_col(t, fname[kf[j]]);
	tab_col(t, "Process Group Name");
	tab_col(t, "Group size");
	tab_col(t, "Full msg size (MB)");
	kg = group_by(nc, nrows, 3, isync_key, arg, &ng);
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
			set_val(nc, t, row, j, &kg[i].key[j]);
		for (j = 0; j < kg[i].n; j++) {
			const struct isrow *r = &rows[kg[i].rows[j]];
			const struct coll *c0 = &nc->c[gs[r->g].ev[0]];

			vec_add(&lat, r->lat);
			vec_add(&all, r->lat);
			vec_add(&ss, r->skew_s);
			vec_add(&se, r->skew_e);
			vec_add(&al, r->algo);
			vec_add(&bu, r->bus);
			/* "first": the first value that is not missing */
			if (!have[0] && c0->f[F_PG].t != V_NONE)
				first[0] = c0->f[F_PG], have[0] = 1;
			if (!have[1] && c0->f[F_GSIZE].t != V_NONE && !isnan(val_num(&c0->f[F_GSIZE])))
				first[1] = c0->f[F_GSIZE], have[1] = 1;
			if (!have[2] && !isnan(r->full)) {
				first[2].t = V_NUM;
				first[2].d = r->full;
				have[2] = 1;
			}
		}
		for (j = 0; j < 3; j++)
			if (have[j])
				set_val(nc, t, row, 3 + j, &first[j]);
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

				snprintf(name, sizeof(name), "%s_%s", vn[j], agg_name[a]);
				c = col(t, name);
				set_agg(t, row, c, vs[j], (int)a, vint[j]);
			}
		}
		tab_set_int(t, row, col(t, "count"), (long long)kg[i].n);
		tab_set_num(t, row, col(t, "Total comm latency (ms)"), stat_npsum(&all) / 1000);
		vec_free(&lat);
		vec_free(&ss);
		vec_free(&se);
		vec_free(&al);
		vec_free(&bu);
		vec_free(&all);
	}
	kgroups_free(kg, ng);
	pandas_types(t);
	tab_sort_pandas(t, tab_find(t, "Total comm latency (ms)"), 1);
}

static const int long_keys[] = { -1, F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL,
	F_OUTNEL, F_INSPLIT, F_OUTSPLIT, F_STREAM };

static void
long_key(struct nc *nc, size_t i, struct val *k, void *arg)
{
	const struct coll *c = &nc->c[i];
	size_t j;

	k[0].t = V_INT;
	k[0].i = c->rank;
	for (j = 1; j < 11; j++)
		k[j] = c->f[long_keys[j]];
}

static void
sheet_summary_long(struct nc *nc, struct tab *t)
{
	static const char *const tail[] = { "In msg size (MB)_first", "Out msg size (MB)_first",
	    "dur_sum", "dur_mean", "dur_std", "dur_min", "dur_max", "operation_count" };
	static const int aggs[] = { A_SUM, A_MEAN, A_STD, A_MIN, A_MAX };
	struct kgroup *kg;
	size_t ng, i, j;

	tab_col(t, "rank");
	for (j = 1; j < 11; j++)
		tab_col(t, fname[long_keys[j]]);
	for (j = 0; j < sizeof(tail) / sizeof(tail[0]); j++)
		tab_col(t, tail[j]);
	kg = group_by(nc, nc->n, 11, long_key, NULL, &ng);
	for (i = 0; i < ng; i++) {
		size_t row = tab_row(t);
		struct vec d = VEC_INIT;
		bool hin = false, hout = false;

		for (j = 0; j < 11; j++)
			set_val(nc, t, row, j, &kg[i].key[j]);
		for (j = 0; j < kg[i].n; j++) {
			const struct coll *c = &nc->c[kg[i].rows[j]];

			vec_add(&d, c->dur);
			if (!hin && c->f[F_INMB].t != V_NONE) {
				set_val(nc, t, row, 11, &c->f[F_INMB]);
				hin = true;
			}
			if (!hout && c->f[F_OUTMB].t != V_NONE) {
				set_val(nc, t, row, 12, &c->f[F_OUTMB]);
				hout = true;
			}
		}
		for (j = 0; j < 5; j++)
			set_agg(t, row, 13 + j, &d, aggs[j], nc->dur_int);
		tab_set_int(t, row, 18, (long long)kg[i].n);
		vec_free(&d);
	}
	kgroups_free(kg, ng);
	pandas_types(t);
	tab_sort_pandas(t, 13, 1);
}

/* Python's max((wait, rank) ...): the largest wait, the highest rank among equals */
static void
sheet_isync(struct nc *nc, struct tab *wide, struct isrow *rows, size_t *nrows,
    const struct cgroup *gs, size_t ng, const int *ranks, size_t nranks, struct tab *u)
{
	size_t gi, k;

	*nrows = 0;
	for (gi = 0; gi < ng; gi++) {
		const struct cgroup *g = &gs[gi];
		const struct coll *c0 = &nc->c[g->ev[0]];
		const char *ct = coll_type(nc, &c0->f[F_CNAME]);
		bool isync = ct != NULL && strcmp(ct, "alltoallv") != 0;
		double latest_s = -INFINITY, earliest_e = INFINITY, latest_e = -INFINITY;
		double lat = INFINITY, maxw = -INFINITY, sumw = 0;
		struct isrow *r;
		size_t row, j;
		char name[64];
		int maxr = -1;

		if (nc->simplified ? (c0->f[F_CNAME].t != V_NONE && ct != NULL && !isync) :
		    !isync)
			continue;
		if (!check_group(nc, g, ranks, nranks, isync_fields,
		    nc->simplified ? 0 : sizeof(isync_fields) / sizeof(isync_fields[0]), u))
			continue;
		row = tab_row(wide);
		r = &rows[(*nrows)++];
		r->g = gi;
		tab_set_str(wide, row, col(wide, "collective_id"), S(nc, c0->cid));
		for (j = 0; j < sizeof(isync_fields) / sizeof(isync_fields[0]); j++)
			set_val(nc, wide, row, col(wide, fname[isync_fields[j]]),
			    &c0->f[isync_fields[j]]);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double end = c->ts + c->dur;

			snprintf(name, sizeof(name), "rank_%d_ts", c->rank);
			set_time(wide, row, col(wide, name), c->ts, nc->ts_int);
			snprintf(name, sizeof(name), "rank_%d_dur", c->rank);
			set_time(wide, row, col(wide, name), c->dur, nc->dur_int);
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
		set_time(wide, row, col(wide, "comm_latency"), lat, nc->dur_int);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double w = latest_s - c->ts;

			snprintf(name, sizeof(name), "rank_%d_wait_time", c->rank);
			set_time(wide, row, col(wide, name), w, nc->ts_int);
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
		set_time(wide, row, col(wide, "skew in start time"), maxw, nc->ts_int);
		tab_set_int(wide, row, col(wide, "earliest arrival rank"), maxr);
		tab_set_num(wide, row, col(wide, "avg_wait_time"), r->avg_wait);
		set_time(wide, row, col(wide, "skew in end time"), r->skew_e,
		    nc->ts_int && nc->dur_int);
		r->full = r->algo = r->bus = NAN;
		if (ct != NULL) {
			double in = val_num(&c0->f[F_INMB]), out = val_num(&c0->f[F_OUTMB]);

			r->full = strcmp(ct, "allgather") == 0 ? out : in;
			r->algo = lat > 0 ? (r->full / 1024) / (lat / 1e6) : NAN;
			if (c0->f[F_GSIZE].t != V_NONE && strcmp(ct, "broadcast") != 0) {
				double n = val_num(&c0->f[F_GSIZE]);

				if (strcmp(ct, "allreduce") == 0)
					r->bus = r->algo * (2 * (n - 1) / n);
				else
					r->bus = r->algo * ((n - 1) / n);
			}
		}
		tab_set_num(wide, row, col(wide, "Full msg size (MB)"), r->full);
		tab_set_num(wide, row, col(wide, "algo bw (GB/s)"), r->algo);
		tab_set_num(wide, row, col(wide, "bus bw (GB/s)"), r->bus);
	}
}

static struct tab *
project_general_rank(struct tab *wide, const char *name, const char *const *general,
    size_t ngen)
{
	const char **cols = xreallocarray(NULL, ngen + wide->ncols + 1, sizeof(*cols));
	struct tab *t;
	size_t n = 0, i;

	for (i = 0; i < ngen; i++)
		cols[n++] = general[i];
	for (i = 0; i < wide->ncols; i++)
		if (strncmp(wide->cols[i], "rank_", 5) == 0)
			cols[n++] = wide->cols[i];
	cols[n] = NULL;
	if (wide->nrows == 0)
		n = 0, cols[0] = NULL;
	t = tab_project(wide, name, cols);
	free(cols);
	pandas_types(t);
	return t;
}

static void
sheet_straggler(struct nc *nc, struct tab *t, struct tab *isync, const struct isrow *rows,
    size_t nrows)
{
	size_t *wc = NULL, nw = 0, i, j, k;
	int *wr = NULL;

	if (nrows == 0)
		return;
	for (i = 0; i < isync->ncols; i++) {
		int r, end = 0;

		if (sscanf(isync->cols[i], "rank_%d_wait_time%n", &r, &end) == 1 &&
		    isync->cols[i][end] == '\0') {
			wc = xreallocarray(wc, nw + 1, sizeof(*wc));
			wr = xreallocarray(wr, nw + 1, sizeof(*wr));
			wc[nw] = i;
			wr[nw++] = r;
		}
	}
	if (nw == 0) {
		free(wc);
		free(wr);
		return;
	}
	tab_col(t, "rank");
	tab_col(t, "total_wait_time_us");
	tab_col(t, "mean_wait_time_us");
	tab_col(t, "times_arrived_last");
	tab_col(t, "times_arrived_first");
	tab_col(t, "pct_arrived_last");
	tab_col(t, "num_collectives");
	tab_col(t, "total_nccl_dur_us");
	/* ranks in ascending order */
	for (k = 0; k < nw; k++) {
		int r = -1;
		size_t w = 0, row;
		struct vec sum = VEC_INIT;
		long long cnt = 0, last = 0, first = 0;
		double total, mean;
		struct vec dur = VEC_INIT;

		for (j = 0; j < nw; j++)
			if (wr[j] > (k == 0 ? -1 : tab_cell(t, t->nrows - 1, 0)->v.i) &&
			    (r < 0 || wr[j] < r))
				r = wr[j], w = j;
		for (i = 0; i < isync->nrows; i++) {
			double v = tab_num(isync, i, wc[w]), best = INFINITY;
			size_t bj = (size_t)-1;

			vec_add(&sum, isnan(v) ? 0 : v);
			cnt += !isnan(v);
			/* idxmin: the first column holding the row's smallest wait */
			for (j = 0; j < nw; j++) {
				double x = tab_num(isync, i, wc[j]);

				if (!isnan(x) && x < best)
					best = x, bj = j;
			}
			last += bj == w;
			first += rows[i].earliest == r;
		}
		total = stat_npsum(&sum);
		mean = cnt > 0 ? total / (double)cnt : NAN;
		row = tab_row(t);
		tab_set_int(t, row, 0, r);
		set_time(t, row, 1, nc->ts_int ? total : np_round1(total), nc->ts_int);
		tab_set_num(t, row, 2, np_round1(mean));
		tab_set_int(t, row, 3, last);
		tab_set_int(t, row, 4, first);
		tab_set_num(t, row, 5, np_round1(100.0 * (double)last / (double)nrows));
		tab_set_int(t, row, 6, (long long)nrows);
		for (i = 0; i < nc->n; i++)
			if (nc->c[i].rank == r)
				vec_add(&dur, nc->c[i].dur);
		if (dur.n > 0)
			set_time(t, row, 7, nc->dur_int ? stat_sum(&dur) :
			    np_round1(stat_sum(&dur)), nc->dur_int);
		vec_free(&dur);
		vec_free(&sum);
	}
	free(wc);
	free(wr);
	pandas_types(t);
	tab_sort_pandas(t, 1, 0);
}

/* --- all_to_allv ----------------------------------------------------------------------- */

static void
sheet_a2a(struct nc *nc, struct tab *wide, const struct cgroup *gs, size_t ng,
    const int *ranks, size_t nranks, struct tab *u)
{
	static const char *const per[] = { "ts", "dur", "In msg nelems", "Out msg nelems",
	    "In msg size (MB)", "Out msg size (MB)", "In split size", "Out split size" };
	static const int perf[] = { -1, -1, F_INNEL, F_OUTNEL, F_INMB, F_OUTMB, F_INSPLIT,
	    F_OUTSPLIT };
	size_t gi, k, j;
	char name[96];

	for (gi = 0; gi < ng; gi++) {
		const struct cgroup *g = &gs[gi];
		const struct coll *c0 = &nc->c[g->ev[0]];
		double es = INFINITY, ls = -INFINITY, ee = INFINITY, le = -INFINITY;
		double tin = 0, maxd = -INFINITY, mind = INFINITY, sumd = 0, wall;
		double maxtp = -INFINITY, mintp = INFINITY, maxsz = -INFINITY;
		struct val tnel = { V_INT, 0, 0, 0 };
		size_t row, ntp = 0;

		if (c0->f[F_CNAME].t != V_STR || strcmp(S(nc, c0->f[F_CNAME].s), "all_to_allv") != 0)
			continue;
		if (!check_group(nc, g, ranks, nranks, a2a_fields,
		    sizeof(a2a_fields) / sizeof(a2a_fields[0]), u))
			continue;
		row = tab_row(wide);
		tab_set_str(wide, row, col(wide, "collective_id"), S(nc, c0->cid));
		for (j = 0; j < sizeof(a2a_fields) / sizeof(a2a_fields[0]); j++)
			set_val(nc, wide, row, col(wide, fname[a2a_fields[j]]),
			    &c0->f[a2a_fields[j]]);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double end = c->ts + c->dur;

			for (j = 0; j < 8; j++) {
				snprintf(name, sizeof(name), "rank_%d_%s", c->rank, per[j]);
				if (j == 0)
					set_time(wide, row, col(wide, name), c->ts, nc->ts_int);
				else if (j == 1)
					set_time(wide, row, col(wide, name), c->dur, nc->dur_int);
				else
					set_val(nc, wide, row, col(wide, name), &c->f[perf[j]]);
			}
			es = fmin(es, c->ts);
			ls = fmax(ls, c->ts);
			ee = fmin(ee, end);
			le = fmax(le, end);
		}
		set_time(wide, row, col(wide, "skew in start time"), ls - es, nc->ts_int);
		set_time(wide, row, col(wide, "skew in end time"), le - ee,
		    nc->ts_int && nc->dur_int);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double sz = val_num(&c->f[F_INMB]);

			snprintf(name, sizeof(name), "rank_%d_skew in start time", c->rank);
			set_time(wide, row, col(wide, name), c->ts - es, nc->ts_int);
			snprintf(name, sizeof(name), "rank_%d_skew in end time", c->rank);
			set_time(wide, row, col(wide, name), le - (c->ts + c->dur),
			    nc->ts_int && nc->dur_int);
			tin += sz;
			if (c->f[F_INNEL].t == V_INT && tnel.t == V_INT)
				tnel.i += c->f[F_INNEL].i;
			else {
				tnel.d = val_num(&tnel) + val_num(&c->f[F_INNEL]);
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
		tab_set_num(wide, row, col(wide, "total data communicated (MB)"), tin);
		set_val(nc, wide, row, col(wide, "total nelems communicated"), &tnel);
		set_time(wide, row, col(wide, "wall_time (us)"), wall, nc->ts_int && nc->dur_int);
		set_time(wide, row, col(wide, "max_rank_dur (us)"), maxd, nc->dur_int);
		set_time(wide, row, col(wide, "min_rank_dur (us)"), mind, nc->dur_int);
		tab_set_num(wide, row, col(wide, "avg_rank_dur (us)"), sumd / (double)g->n);
		tab_set_num(wide, row, col(wide, "throughput (GB/s)"),
		    wall > 0 ? (tin / 1024) / (wall / 1e6) : NAN);
		tab_set_num(wide, row, col(wide, "max_rank_throughput (GB/s)"), ntp ? maxtp : NAN);
		tab_set_num(wide, row, col(wide, "min_rank_throughput (GB/s)"), ntp ? mintp : NAN);
		tab_set_num(wide, row, col(wide, "size_imbalance"),
		    tin / (double)g->n > 0 ? maxsz / (tin / (double)g->n) : NAN);
	}
}

static const char *const a2a_general[] = { "collective_id", "Process Group Name",
	"Process Group Ranks", "Collective name", "Group size", "dtype", "stream",
	"total data communicated (MB)", "total nelems communicated", "wall_time (us)",
	"max_rank_dur (us)", "min_rank_dur (us)", "avg_rank_dur (us)", "throughput (GB/s)",
	"max_rank_throughput (GB/s)", "min_rank_throughput (GB/s)", "size_imbalance",
	"skew in start time", "skew in end time" };

static void
a2a_key(struct nc *nc, size_t i, struct val *k, void *arg)
{
	const struct tab *t = arg;
	size_t c;

	for (c = 0; c < 2; c++) {
		const struct tab_cell *x = tab_cell(t, i, tab_find(t, c ? "dtype" : "Process Group Name"));

		k[c].t = V_NONE;
		if (x->kind == TAB_STR) {
			const char *s = tab_str(t, i, tab_find(t, c ? "dtype" : "Process Group Name"));

			k[c].t = V_STR;
			k[c].s = intern(nc, s, strlen(s));
		} else if (x->kind == TAB_INT) {
			k[c].t = V_INT;
			k[c].i = x->v.i;
		} else if (x->kind == TAB_NUM) {
			k[c].t = V_NUM;
			k[c].d = x->v.d;
		}
	}
}

static void
copy_cell(struct tab *to, size_t row, size_t col_to, const struct tab *from, size_t r,
    size_t c)
{
	const struct tab_cell *x = tab_cell(from, r, c);

	switch (x->kind) {
	case TAB_INT: tab_set_int(to, row, col_to, x->v.i); break;
	case TAB_NUM: tab_set_num(to, row, col_to, x->v.d); break;
	case TAB_STR: tab_set_str(to, row, col_to, tab_str(from, r, c)); break;
	case TAB_BOOL: tab_set_bool(to, row, col_to, (int)x->v.i); break;
	default: break;
	}
}

static void
sheet_summary_a2a(struct nc *nc, struct tab *t, const struct tab *d)
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

	kg = group_by(nc, d->nrows, 2, a2a_key, (void *)d, &ng);
	if (ng == 0) {
		kgroups_free(kg, ng);
		return;
	}
	tab_col(t, "Process Group Name");
	tab_col(t, "dtype");
	for (i = 0; i < ng; i++) {
		size_t row = tab_row(t);

		set_val(nc, t, row, 0, &kg[i].key[0]);
		set_val(nc, t, row, 1, &kg[i].key[1]);
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
					snprintf(name, sizeof(name), "%s_%s", logic[j].col, agg_name[ag]);
				set_agg(t, row, col(t, name), &v, ag, isint);
			}
			vec_free(&v);
		}
		tab_set_int(t, row, col(t, "count"), (long long)kg[i].n);
		for (j = 0; j < 3; j++) {
			size_t src = tab_find(d, firsts[j]), dst = col(t, firsts[j]);

			for (k = 0; k < kg[i].n; k++)
				if (tab_cell(d, kg[i].rows[k], src)->kind != TAB_NONE) {
					copy_cell(t, row, dst, d, kg[i].rows[k], src);
					break;
				}
		}
		tab_set_num(t, row, col(t, "Total wall_time (ms)"),
		    tab_num(t, row, tab_find(t, "Total wall_time (us)")) / 1000);
	}
	kgroups_free(kg, ng);
	pandas_types(t);
	tab_sort_pandas(t, tab_find(t, "Total wall_time (ms)"), 1);
}

static void
sheet_heatmap(struct nc *nc, struct tab *t, long long ws)
{
	double *bytes;
	long long *cnt;
	long long rk[4096];
	size_t i, j, n, w;
	bool any = false;

	if (ws > 1024)
		return;
	w = 0;
	for (i = 0; i < nc->n; i++)
		if ((size_t)nc->c[i].rank + 1 > w)
			w = (size_t)nc->c[i].rank + 1;
	for (i = 0; i < nc->n; i++) {
		n = pg_ranks(nc, &nc->c[i].f[F_INSPLIT], rk, sizeof(rk) / sizeof(rk[0]));
		if (n > w)
			w = n;
	}
	if (w == 0 || w > 4096)
		return;
	bytes = xcalloc(w * w, sizeof(*bytes));
	cnt = xcalloc(w * w, sizeof(*cnt));
	for (i = 0; i < nc->n; i++) {
		const struct coll *c = &nc->c[i];
		const struct val *s = &c->f[F_INSPLIT];
		int b;

		if (c->f[F_CNAME].t != V_STR || strcmp(S(nc, c->f[F_CNAME].s), "all_to_allv") != 0)
			continue;
		if (s->t != V_STR || (S(nc, s->s)[0] != '[' && S(nc, s->s)[0] != '('))
			continue;
		n = pg_ranks(nc, s, rk, sizeof(rk) / sizeof(rk[0]));
		if (c->f[F_GSIZE].t != V_NONE && (double)n != val_num(&c->f[F_GSIZE]))
			continue;
		if ((b = dtype_bytes(nc, &c->f[F_DTYPE])) == 0)
			continue;
		for (j = 0; j < n; j++) {
			bytes[(size_t)c->rank * w + j] += (double)(rk[j] * b);
			cnt[(size_t)c->rank * w + j]++;
			any = true;
		}
	}
	if (any) {
		tab_col(t, "src_rank");
		tab_col(t, "dst_rank");
		tab_col(t, "total_sent_MB");
		tab_col(t, "avg_sent_MB");
		tab_col(t, "count");
		for (i = 0; i < w * w; i++) {
			size_t row;
			double mb;

			if (cnt[i] == 0)
				continue;
			row = tab_row(t);
			mb = bytes[i] / 1048576.0;
			tab_set_int(t, row, 0, (long long)(i / w));
			tab_set_int(t, row, 1, (long long)(i % w));
			tab_set_num(t, row, 2, mb);
			tab_set_num(t, row, 3, mb / (double)cnt[i]);
			tab_set_int(t, row, 4, cnt[i]);
		}
	}
	free(bytes);
	free(cnt);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

size_t
nc_sheets(struct nc *nc, const struct nc_opts *o, struct tab ***out, struct error *err)
{
	struct sheets sh = { NULL, 0 };
	struct tab *slong, *sisync, *wide, *u, *a2aw, *a2a = NULL, *sa2a, *heat = NULL;
	struct tab *ssum, *slsum, *strag;
	struct cgroup *gs = NULL;
	struct isrow *rows;
	struct names cids;
	size_t ng = 0, capg = 0, i, nrows, nranks = 0;
	int *ranks;
	long long gpn = o->gpus_per_node, ws = o->world_size;

	*out = NULL;
	if (nc->n == 0) {
		error_set(err, NULL, 0, 0, "no collective kernels (NCCL/RCCL) in the input: "
		    "nothing to report");
		return 0;
	}
	match(nc);
	/* the collectives, in order of first appearance in nccl_long */
	names_init(&cids);
	for (i = 0; i < nc->n; i++) {
		const char *id = S(nc, nc->c[i].cid);
		uint32_t g = tab_group(&cids, id, strlen(id));

		if (g == ng) {
			gs = xgrow(gs, &capg, ng + 1, sizeof(*gs));
			memset(&gs[ng++], 0, sizeof(*gs));
		}
		gs[g].ev = xgrow(gs[g].ev, &gs[g].cap, gs[g].n + 1, sizeof(size_t));
		gs[g].ev[gs[g].n++] = i;
	}
	names_free(&cids);
	/* the ranks of the input: of the rank records and of the collectives */
	ranks = xreallocarray(NULL, nc->nri + nc->n, sizeof(*ranks));
	for (i = 0; i < nc->nri; i++)
		ranks[nranks++] = nc->ri[i].rank;
	for (i = 0; i < nc->n; i++)
		ranks[nranks++] = nc->c[i].rank;
	qsort(ranks, nranks, sizeof(*ranks), cmp_int);
	{
		size_t m = 0;

		for (i = 0; i < nranks; i++)
			if (m == 0 || ranks[m - 1] != ranks[i])
				ranks[m++] = ranks[i];
		nranks = m;
	}
	if (ws <= 0)
		ws = ranks[nranks - 1] + 1;
	if (gpn <= 0) {
		/* TraceLens: the device count of the first rank's trace */
		gpn = 0;
		for (i = 0; i < nc->nri; i++)
			if (nc->ri[i].rank == ranks[0])
				gpn = nc->ri[i].devices;
	}

	u = tab_new("nccl_unmatched");
	tab_col(u, "collective_id");
	tab_col(u, "Process Group Name");
	tab_col(u, "Collective name");
	tab_col(u, "problem");

	slong = tab_new("nccl_long");
	sheet_long(nc, slong);
	wide = tab_new("nccl_implicit_sync");
	rows = xreallocarray(NULL, ng, sizeof(*rows));
	sheet_isync(nc, wide, rows, &nrows, gs, ng, ranks, nranks, u);
	{
		static const char *const general[] = { "collective_id", "Process Group Name",
		    "Process Group Ranks", "Collective name", "Group size", "dtype",
		    "In msg nelems", "Out msg nelems", "In msg size (MB)", "Out msg size (MB)",
		    "Full msg size (MB)", "comm_latency", "skew in start time",
		    "earliest arrival rank", "avg_wait_time", "skew in end time",
		    "algo bw (GB/s)", "bus bw (GB/s)" };

		sisync = project_general_rank(wide, "nccl_implicit_sync", general,
		    sizeof(general) / sizeof(general[0]));
	}
	tab_free(wide);
	ssum = tab_new("nccl_summary_implicit_sync");
	sheet_summary_isync(nc, ssum, rows, nrows, gs);
	slsum = tab_new("nccl_summary_long");
	sheet_summary_long(nc, slsum);

	a2aw = tab_new("nccl_all2allv");
	sheet_a2a(nc, a2aw, gs, ng, ranks, nranks, u);
	sa2a = tab_new("nccl_summary_all2allv");
	if (a2aw->nrows > 0) {
		a2a = project_general_rank(a2aw, "nccl_all2allv", a2a_general,
		    sizeof(a2a_general) / sizeof(a2a_general[0]));
		tab_sort_pandas(a2a, tab_find(a2a, "total data communicated (MB)"), 1);
		sheet_summary_a2a(nc, sa2a, a2a);
	}
	tab_free(a2aw);
	if (o->heatmap) {
		heat = tab_new("nccl_all2allv_heatmap");
		sheet_heatmap(nc, heat, ws);
	}
	strag = tab_new("straggler_summary");
	sheet_straggler(nc, strag, sisync, rows, nrows);

	take_sheet(&sh, ssum);
	take_sheet(&sh, slsum);
	if (sa2a->nrows > 0)
		take_sheet(&sh, sa2a);
	else
		tab_free(sa2a);
	if (heat != NULL && heat->nrows > 0)
		take_sheet(&sh, heat);
	else
		tab_free(heat);
	take_sheet(&sh, slong);
	take_sheet(&sh, sisync);
	if (a2a != NULL)
		take_sheet(&sh, a2a);
	if (strag->nrows > 0)
		take_sheet(&sh, strag);
	else
		tab_free(strag);
	if (gpn > 0)
		for (i = 0; i < sh.n; i++)
			node_cols(nc, sh.t[i], gpn, ws);
	if (u->nrows > 0) {
		take_sheet(&sh, u);
		warning("warning: %zu collective%s not matched across ranks (TraceLens stops "
		    "there): left out, listed in nccl_unmatched", u->nrows,
		    u->nrows == 1 ? " is" : "s are");
	} else
		tab_free(u);
	for (i = 0; i < ng; i++)
		free(gs[i].ev);
	free(gs);
	free(rows);
	free(ranks);
	*out = sh.t;
	return sh.n;
}

void
nc_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}
