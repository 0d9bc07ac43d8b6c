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
#include "core/spool.h"
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
	uint32_t	 s;	/* string: its id (str_id) */
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

/*
 * A collective kernel of a rank, compact (issue 27: a reduce over 1,024 ranks x 100
 * collectives stays under 64 MB): its fields are ids in the value table (0: None), whose
 * strings are interned, the long ones (split sizes, rank lists) kept in a spool file.
 */
struct coll {
	long long	 id;		/* the event's position in its trace */
	double		 ts, dur;	/* µs, as TraceLens's doubles */
	long long	 idx;		/* index_in_group */
	long long	 seq;		/* Kineto's Seq, or -1 */
	int		 rank;
	uint32_t	 cid;		/* collective_id, a string id */
	uint32_t	 f[NF];		/* value ids */
	unsigned char	 ts_int, dur_int;	/* start_ns, ns: whole µs */
};

struct rankinfo {
	int		 rank;
	long long	 devices;
	char		*where;
};

/* A string of BIG_MIN bytes or more: in the spool, found again by its hash. */
struct bigstr {
	uint64_t	 off, hash;
	size_t		 len;
};
#define BIG_MIN		96
#define BIG_ID		0x80000000u
#define NSBUF		4	/* str()'s results alive at once */

struct nc {
	struct names	 s;		/* the short strings */
	struct spool	*sp;		/* the long ones ... */
	struct bigstr	*big;
	size_t		 nbig, capbig;
	struct names	 bigkey;	/* ... by (hash, length): their index */
	char		*sbuf[NSBUF];	/* str()'s copies of long strings */
	size_t		 scap[NSBUF];
	uint32_t	 sid[NSBUF];
	unsigned	 snext;
	struct val	*vt;		/* the value table; vt[0] is None */
	size_t		 nvt, capvt;
	struct names	 vkey;		/* (type, payload): index in vt, less 1 */
	struct coll	*c;
	size_t		 n, cap, nrec;
	struct rankinfo	*ri;
	size_t		 nri, capri;
	struct names	 gkey;		/* "group" records: (rank, group) ... */
	uint32_t	*granks;	/* ... to the group's rank list (a value id) */
	size_t		 capg;
	bool		 simplified, ts_int, dur_int;
	struct buf	 b;
};

static const char *str(struct nc *nc, uint32_t id);
#define S(nc, i) str((nc), (i))
#define V(nc, id) (&(nc)->vt[(id)])

struct nc *
nc_new(void)
{
	struct nc *nc = xcalloc(1, sizeof(*nc));
	size_t i;

	names_init(&nc->s);
	names_init(&nc->gkey);
	names_init(&nc->bigkey);
	names_init(&nc->vkey);
	nc->vt = xgrow(NULL, &nc->capvt, 1, sizeof(*nc->vt));
	memset(&nc->vt[0], 0, sizeof(nc->vt[0]));
	nc->nvt = 1;
	for (i = 0; i < NSBUF; i++)
		nc->sid[i] = NAME_NONE;
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
	for (i = 0; i < NSBUF; i++)
		free(nc->sbuf[i]);
	names_free(&nc->s);
	names_free(&nc->gkey);
	names_free(&nc->bigkey);
	names_free(&nc->vkey);
	if (nc->sp != NULL)
		spool_close(nc->sp);
	free(nc->big);
	free(nc->vt);
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

static uint64_t
fnv64(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n-- > 0) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* A string's id: a short one interned, a long one in the spool (once per content). */
static uint32_t
intern(struct nc *nc, const char *s, size_t n)
{
	struct { uint64_t h; uint64_t n; } key;
	struct bigstr *b;
	uint32_t k;
	int added;

	if (n < BIG_MIN)
		return names_intern(&nc->s, s, n);
	key.h = fnv64(s, n);
	key.n = n;
	k = names_add(&nc->bigkey, (const char *)&key, sizeof(key), &added);
	if (!added) {
		/* the same hash and length: the same string, unless they collide */
		if (memcmp(str(nc, BIG_ID | k), s, n) == 0)
			return BIG_ID | k;
		return names_intern(&nc->s, s, n);
	}
	if (nc->sp == NULL)
		nc->sp = spool_open();
	nc->big = xgrow(nc->big, &nc->capbig, (size_t)k + 1, sizeof(*nc->big));
	b = &nc->big[k];
	b->off = spool_add(nc->sp, s, n);
	b->hash = key.h;
	b->len = n;
	nc->nbig = (size_t)k + 1;
	return BIG_ID | k;
}

/* A string's text; a long one is read back into one of NSBUF buffers, so that the
 * last NSBUF results stay valid. */
static const char *
str(struct nc *nc, uint32_t id)
{
	const struct bigstr *b;
	unsigned i;

	if (!(id & BIG_ID))
		return names_str(&nc->s, id);
	for (i = 0; i < NSBUF; i++)
		if (nc->sid[i] == id)
			return nc->sbuf[i];
	b = &nc->big[id & ~BIG_ID];
	i = nc->snext++ % NSBUF;
	if (nc->scap[i] < b->len + 1) {
		free(nc->sbuf[i]);
		nc->scap[i] = b->len + 1;
		nc->sbuf[i] = xreallocarray(NULL, nc->scap[i], 1);
	}
	spool_pread(nc->sp, b->off, nc->sbuf[i], b->len);
	nc->sbuf[i][b->len] = '\0';
	nc->sid[i] = id;
	return nc->sbuf[i];
}

/* A value's id in the value table (0: None): one per type and payload. */
static uint32_t
val_id(struct nc *nc, const struct val *v)
{
	unsigned char key[1 + sizeof(long long)];
	long long p;
	uint32_t k;
	int added;

	if (v->t == V_NONE)
		return 0;
	p = v->t == V_INT ? v->i : v->t == V_STR ? (long long)v->s : 0;
	if (v->t == V_NUM)
		memcpy(&p, &v->d, sizeof(p));
	key[0] = (unsigned char)v->t;
	memcpy(key + 1, &p, sizeof(p));
	k = names_add(&nc->vkey, (const char *)key, sizeof(key), &added);
	if (added) {
		nc->vt = xgrow(nc->vt, &nc->capvt, (size_t)k + 2, sizeof(*nc->vt));
		nc->vt[k + 1] = *v;
		nc->nvt = (size_t)k + 2;
	}
	return k + 1;
}

static uint32_t
str_val(struct nc *nc, const char *s)
{
	struct val v = { V_STR, 0, 0, 0 };

	v.s = intern(nc, s, strlen(s));
	return val_id(nc, &v);
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

	if (v->t != V_STR || (v->s & BIG_ID))
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
		nc->granks[i] = val_id(nc, &rl);
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

		if (c->f[F_PGRANKS] != 0 || c->f[F_PG] == 0)
			continue;
		group_key(&nc->b, c->rank, V(nc, c->f[F_PG]));
		if ((g = names_lookup(&nc->gkey, nc->b.p, nc->b.len)) != NAME_NONE)
			c->f[F_PGRANKS] = nc->granks[g];
	}
}

int
nc_add(struct nc *nc, struct rec *r)
{
	const char *kind = rec_str(r, "kind", NULL);
	long long rank, v, start_ns, ns;
	struct val f[NF];
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
	memset(f, 0, sizeof(f));
	c.rank = (int)rank;
	if (!rec_int(r, "id", &c.id) || !rec_int(r, "start_ns", &start_ns) ||
	    !rec_int(r, "ns", &ns) || ns < 0) {
		if (rec_bad(r) == NULL)
			rec_reject(r, "coll record without integer \"id\", \"start_ns\" and "
			    "\"ns\" (>= 0)");
		return 1;
	}
	for (i = 0; i <= F_STREAM; i++)
		f[i] = get_val(nc, r, fkey[i]);
	if (!rec_int(r, "seq", &c.seq) || c.seq < 0)
		c.seq = -1;
	if (rec_bad(r) != NULL)
		return 1;
	if (f[F_CNAME].t == V_NONE) {
		/* TraceLens's inference rule for custom collectives */
		const char *name = rec_str(r, "name", NULL);

		if (name != NULL && strcasestr(name, "cross_device_reduce") != NULL) {
			f[F_CNAME].t = V_STR;
			f[F_CNAME].s = intern(nc, "allreduce", 9);
		}
	}
	if ((v = dtype_bytes(nc, &f[F_DTYPE])) > 0 && f[F_INNEL].t != V_NONE) {
		f[F_INMB] = msg_mb(&f[F_INNEL], (int)v);
		f[F_OUTMB] = msg_mb(&f[F_OUTNEL], (int)v);
	}
	for (i = 0; i < NF; i++)
		c.f[i] = val_id(nc, &f[i]);
	c.ts = ns_us(start_ns);
	c.dur = ns_us(ns);
	c.ts_int = start_ns % 1000 == 0;
	c.dur_int = ns % 1000 == 0;
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

static bool
id_eq(struct nc *nc, uint32_t a, uint32_t b)
{
	return a == b || val_eq(nc, V(nc, a), V(nc, b));
}

/* pandas' sort of group keys: numbers before strings */
static int
val_cmp(struct nc *nc, const struct val *a, const struct val *b)
{
	double x, y;

	if (a->t == V_STR || b->t == V_STR) {
		if (a->t != b->t)
			return a->t == V_STR ? 1 : -1;
		if (a->s == b->s)
			return 0;
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

static void
set_id(struct nc *nc, struct tab *t, size_t row, size_t col, uint32_t id)
{
	set_val(nc, t, row, col, V(nc, id));
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
 * float column. A sheet written in parts gathers what each column holds over all of
 * them first (types_scan), then converts each part alike (types_apply). */
enum { TY_INT = 1, TY_OTHER = 2, TY_STR = 4 };

static void
types_scan(const struct tab *t, unsigned char *fl)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++)
		for (r = 0; r < t->nrows; r++) {
			int k = tab_cell(t, r, c)->kind;

			fl[c] |= k == TAB_INT ? TY_INT : k == TAB_NONE || k == TAB_NUM ? TY_OTHER :
			    TY_STR;
		}
}

static void
types_apply(struct tab *t, const unsigned char *fl)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++) {
		if (fl[c] != (TY_INT | TY_OTHER))
			continue;
		for (r = 0; r < t->nrows; r++) {
			struct tab_cell *x = tab_cell(t, r, c);

			if (x->kind == TAB_INT)
				tab_set_num(t, r, c, (double)x->v.i);
		}
	}
}

static void
pandas_types(struct tab *t)
{
	unsigned char *fl = xcalloc(t->ncols ? t->ncols : 1, 1);

	types_scan(t, fl);
	types_apply(t, fl);
	free(fl);
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

static void
match(struct nc *nc)
{
	bool pg_missing = true, pg_unknown = true, single = true, seq;
	struct coll **p;
	size_t i, j = 0;
	uint32_t all = str_val(nc, "all"), unknown = str_val(nc, "Unknown_Group");

	join_groups(nc);
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
		if (c->f[F_STREAM] != 0 && !id_eq(nc, c->f[F_STREAM], nc->c[j].f[F_STREAM]))
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
		c->cid = intern(nc, nc->b.p, nc->b.len);
		if (nc->simplified)
			c->f[F_PG] = all;
		else if (c->f[F_PG] == 0)
			c->f[F_PG] = unknown;
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

/* node_span of a rank list (a string id): "unknown", "inter_node" or "intra_node" */
static const char *
node_span(struct nc *nc, uint32_t id, long long g)
{
	static long long rk[4096];
	struct val v = { V_STR, 0, 0, 0 };
	size_t n, i;
	bool inter = false;

	v.s = id;
	n = pg_ranks(nc, &v, rk, sizeof(rk) / sizeof(rk[0]));
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
				id = intern(nc, tab_str(t, r, pc), strlen(tab_str(t, r, pc)));
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

struct out {
	void		(*fn)(struct tab *, int, void *);
	void		*ctx;
	size_t		 chunk;		/* cells in a part; 0: whole sheets */
	long long	 gpn, ws;
	size_t		 n;		/* sheets handed over */
};

static void
hand(struct out *o, struct tab *t, int more)
{
	if (!more)
		o->n++;
	o->fn(t, more, o->ctx);
}

/* A sheet built whole: its node columns, then handed over. */
static void
hand_whole(struct nc *nc, struct out *o, struct tab *t, bool node)
{
	if (node && o->gpn > 0) {
		node_cols(nc, t, o->gpn, o->ws, NULL);
		pandas_types(t);
	}
	hand(o, t, 0);
}

/* A sheet made row by row: its columns, its row count, and what fills row i (into row
 * r of t, setting *pg to the row's Process Group Ranks string id when it has one). */
struct gen {
	const char		*name;
	const char *const	*cols;
	size_t			 ncols, nrows;
	void			(*fill)(struct nc *, struct tab *, size_t, size_t, void *,
				    uint32_t *);
	void			*arg;
};

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
static void
emit(struct nc *nc, struct out *o, const struct gen *g)
{
	size_t step, i, to;
	unsigned char *fl;
	struct tab *t;

	if (o->chunk == 0 || g->nrows == 0) {
		t = gen_part(nc, o, g, 0, g->nrows);
		pandas_types(t);
		hand(o, t, 0);
		return;
	}
	step = o->chunk / (g->ncols + 2);
	if (step == 0)
		step = 1;
	fl = xcalloc(g->ncols + 2, 1);
	for (i = 0; i < g->nrows; i += step) {
		to = g->nrows - i > step ? i + step : g->nrows;
		t = gen_part(nc, o, g, i, to);
		types_scan(t, fl);
		tab_free(t);
	}
	for (i = 0; i < g->nrows; i += step) {
		to = g->nrows - i > step ? i + step : g->nrows;
		t = gen_part(nc, o, g, i, to);
		types_apply(t, fl);
		hand(o, t, to < g->nrows);
	}
	free(fl);
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

	if (v->t != V_STR || (v->s & BIG_ID))
		return NULL;
	for (i = 0; i < sizeof(coll_types) / sizeof(coll_types[0]); i++)
		if (strcmp(S(nc, v->s), coll_types[i][0]) == 0)
			return coll_types[i][1];
	return NULL;
}

static bool
is_a2av(struct nc *nc, const struct coll *c)
{
	const struct val *v = V(nc, c->f[F_CNAME]);

	return v->t == V_STR && !(v->s & BIG_ID) && strcmp(S(nc, v->s), "all_to_allv") == 0;
}

/* One collective: its events on the ranks, in nccl_long's order (by rank). */
struct cgroup {
	size_t	*ev;
	size_t	 n, cap;
};

/* The ranks of the input: sorted, each's index (rix, by rank), and marks by index. */
struct rankset {
	int		*r;
	size_t		 n;
	int		*rix;		/* maxrank + 1 of them */
	uint32_t	*want, *have;	/* stamps, by index */
	uint32_t	 stamp;
};

static void
add_row_unmatched(struct nc *nc, struct tab *u, const struct coll *c, const char *why)
{
	size_t row = tab_row(u);

	tab_set_str(u, row, 0, S(nc, c->cid));
	set_id(nc, u, row, 1, c->f[F_PG]);
	set_id(nc, u, row, 2, c->f[F_CNAME]);
	tab_set_str(u, row, 3, why);
}

/* Whether collective g is matched on every rank that should have it; else a row of u
 * saying why. fields: the metadata that must agree (nf of them; 0: none). */
static bool
check_group(struct nc *nc, const struct cgroup *g, struct rankset *rs,
    const int *fields, size_t nf, struct tab *u)
{
	const struct coll *c0 = &nc->c[g->ev[0]];
	static long long rk[4096];
	size_t n, i, j, k;
	struct buf b = { 0 };
	bool ok = true;
	uint32_t st = ++rs->stamp;

	/* the ranks of its group that are in the input, else every rank of the input */
	n = pg_ranks(nc, V(nc, c0->f[F_PGRANKS]), rk, sizeof(rk) / sizeof(rk[0]));
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
			if (!id_eq(nc, nc->c[g->ev[k]].f[f], c0->f[f]))
				break;
		if (k == g->n)
			continue;
		buf_printf(&b, "%sMetadata mismatch in '%s':", ok ? "" : "; ", fname[f]);
		for (k = 0; k < g->n; k++) {
			buf_printf(&b, " rank %d ", nc->c[g->ev[k]].rank);
			val_text(nc, &b, V(nc, nc->c[g->ev[k]].f[f]));
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
	double	 lat, skew_s, skew_e, avg_wait, full, algo, bus, latest_s;
	int	 earliest;
};

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
		set_id(nc, t, row, k, c->f[fmap[k]]);
	set_time(t, row, 15, c->ts, c->ts_int);
	set_time(t, row, 16, c->dur, c->dur_int);
	if (v->t == V_STR)
		*pg = v->s;
}

/* groupby(...).agg: group keys of the rows' values (value ids); NULL-free keys only
 * (dropna) */
struct kgroup {
	uint32_t	*key;
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
		if (x->key[i] != y->key[i] &&
		    (d = val_cmp(sort_nc, V(sort_nc, x->key[i]), V(sort_nc, y->key[i]))) != 0)
			return d;
	return 0;
}

/* Group items (count n) by nk keys got by keyf (value ids: one id, one value of one
 * type); sorted by key, as pandas' groupby. */
static struct kgroup *
group_by(struct nc *nc, size_t n, size_t nk, void (*keyf)(struct nc *, size_t, uint32_t *,
    void *), void *arg, size_t *ng)
{
	struct kgroup *gs = NULL;
	uint32_t *k = xreallocarray(NULL, nk, sizeof(*k));
	size_t i, j, cap = 0, m = 0;
	struct names idx;
	int added;

	names_init(&idx);
	for (i = 0; i < n; i++) {
		bool none = false;

		keyf(nc, i, k, arg);
		for (j = 0; j < nk; j++)
			none |= k[j] == 0;
		if (none)
			continue;
		j = names_add(&idx, (const char *)k, nk * sizeof(*k), &added);
		if (added) {
			gs = xgrow(gs, &cap, m + 1, sizeof(*gs));
			memset(&gs[m], 0, sizeof(gs[m]));
			gs[m].key = xreallocarray(NULL, nk, sizeof(*k));
			memcpy(gs[m].key, k, nk * sizeof(*k));
			m++;
		}
		gs[j].rows = xgrow(gs[j].rows, &gs[j].cap, gs[j].n + 1, sizeof(size_t));
		gs[j].rows[gs[j].n++] = i;
	}
	names_free(&idx);
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
			k[j] = str_val(nc, "Unknown");
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
			set_id(nc, t, row, j, kg[i].key[j]);
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
long_key(struct nc *nc, size_t i, uint32_t *k, void *arg)
{
	const struct coll *c = &nc->c[i];
	struct val r = { V_INT, 0, 0, 0 };
	size_t j;

	r.i = c->rank;
	k[0] = val_id(nc, &r);
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
		set_id(nc, t, row, j, g->key[j]);
	if (v->t == V_STR)
		*pg = v->s;
	for (j = 0; j < g->n; j++) {
		const struct coll *c = &nc->c[g->rows[j]];

		vec_add(&d, c->dur);
		if (!hin && c->f[F_INMB] != 0) {
			set_id(nc, t, row, 11, c->f[F_INMB]);
			hin = true;
		}
		if (!hout && c->f[F_OUTMB] != 0) {
			set_id(nc, t, row, 12, c->f[F_OUTMB]);
			hout = true;
		}
	}
	for (j = 0; j < 5; j++)
		set_agg(t, row, 13 + j, &d, aggs[j], nc->dur_int);
	tab_set_int(t, row, 18, (long long)g->n);
	vec_free(&d);
}

/* The order pandas' sort_values(col, ascending=False) leaves n values in. */
static size_t *
pandas_order(const double *v, const bool *isint, size_t n)
{
	struct tab *t = tab_new("order");
	size_t *o = xreallocarray(NULL, n ? n : 1, sizeof(*o)), i;

	tab_col(t, "v");
	tab_col(t, "i");
	for (i = 0; i < n; i++) {
		size_t r = tab_row(t);

		set_time(t, r, 0, v[i], isint != NULL && isint[i]);
		tab_set_int(t, r, 1, (long long)i);
	}
	tab_sort_pandas(t, 0, 1);
	for (i = 0; i < n; i++)
		o[i] = (size_t)tab_cell(t, i, 1)->v.i;
	tab_free(t);
	return o;
}

static void
sheet_summary_long(struct nc *nc, struct out *o)
{
	struct lsum ls;
	struct gen g = { "nccl_summary_long", lsum_cols, 19, 0, fill_lsum, &ls };
	double *sums;
	size_t ng, i, j;

	ls.kg = group_by(nc, nc->n, 11, long_key, NULL, &ng);
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
	ls.order = pandas_order(sums, NULL, ng);
	g.nrows = ng;
	emit(nc, o, &g);
	free(sums);
	free(ls.order);
	kgroups_free(ls.kg, ng);
}

/*
 * A wide sheet (nccl_implicit_sync, nccl_all2allv): its general columns, then per rank
 * columns (rank_N_what) in the order TraceLens's DataFrame gets them: by collective, its
 * ranks' first kinds, then its ranks' later kinds, each the first time it is met.
 */
struct wide {
	const char	**cols;		/* general, then per rank */
	size_t		  ngen, ncols;
	size_t		  nkind;
	int		 *pos;		/* column of (rank index, kind), -1: none */
	struct tab	 *gt;		/* the general columns' rows (the sheet's order) */
	size_t		 *grow;		/* each row's collective (index in gs) */
	const struct cgroup *gs;
	struct rankset	 *rs;
	void		 *arg;
};

static void
wide_cols(struct nc *nc, struct wide *w, const char *const *kinds, size_t nkind,
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

static void
wide_free(struct wide *w)
{
	size_t i;

	for (i = 0; i < w->ncols; i++)
		free((char *)w->cols[i]);
	free(w->cols);
	free(w->pos);
	free(w->grow);
	tab_free(w->gt);
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

/* the general cells of row i, and its Process Group Ranks' id */
static const struct cgroup *
wide_general(struct nc *nc, const struct wide *w, struct tab *t, size_t row, size_t i,
    uint32_t *pg)
{
	const struct cgroup *g = &w->gs[w->grow[i]];
	const struct val *v = V(nc, nc->c[g->ev[0]].f[F_PGRANKS]);
	size_t j;

	for (j = 0; j < w->ngen; j++)
		copy_cell(t, row, j, w->gt, i, j);
	if (v->t == V_STR)
		*pg = v->s;
	return g;
}

static size_t
wpos(const struct wide *w, int rank, size_t kind)
{
	return (size_t)w->pos[(size_t)w->rs->rix[rank] * w->nkind + kind];
}

static const char *const isync_kinds[] = { "ts", "dur", "wait_time" };

static void
fill_isync(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	const struct wide *w = arg;
	const struct isrow *r = &((const struct isrow *)w->arg)[i];
	const struct cgroup *g = wide_general(nc, w, t, row, i, pg);
	size_t k;

	for (k = 0; k < g->n; k++) {
		const struct coll *c = &nc->c[g->ev[k]];

		set_time(t, row, wpos(w, c->rank, 0), c->ts, nc->ts_int);
		set_time(t, row, wpos(w, c->rank, 1), c->dur, nc->dur_int);
		set_time(t, row, wpos(w, c->rank, 2), r->latest_s - c->ts, nc->ts_int);
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
		if (!check_group(nc, g, rs, isync_fields,
		    nc->simplified ? 0 : sizeof(isync_fields) / sizeof(isync_fields[0]), u))
			continue;
		row = tab_row(gt);
		r = &rows[nrows++];
		r->g = gi;
		tab_set_str(gt, row, 0, S(nc, c0->cid));
		for (j = 0; j < sizeof(isync_fields) / sizeof(isync_fields[0]); j++)
			set_id(nc, gt, row, tab_find(gt, fname[isync_fields[j]]),
			    c0->f[isync_fields[j]]);
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
		set_time(gt, row, 11, lat, nc->dur_int);
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
		set_time(gt, row, 12, maxw, nc->ts_int);
		tab_set_int(gt, row, 13, maxr);
		tab_set_num(gt, row, 14, r->avg_wait);
		set_time(gt, row, 15, r->skew_e, nc->ts_int && nc->dur_int);
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
	pandas_types(gt);
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
			int p = (int)wpos(w, c->rank, 2);

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

static void
sheet_straggler(struct nc *nc, struct tab *t, const struct isrow *rows, size_t nrows,
    const struct cgroup *gs, const struct wide *w)
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
		set_time(t, row, 1, nc->ts_int ? total : np_round1(total), nc->ts_int);
		tab_set_num(t, row, 2, np_round1(mean));
		tab_set_int(t, row, 3, last);
		tab_set_int(t, row, 4, first);
		tab_set_num(t, row, 5, np_round1(100.0 * (double)last / (double)nrows));
		tab_set_int(t, row, 6, (long long)nrows);
		if (dur[x].n > 0) {
			s = stat_acc_sum(&dur[x]);
			set_time(t, row, 7, nc->dur_int ? s : np_round1(s), nc->dur_int);
		}
	}
	free(dense);
	free(dur);
	free(off);
	free(at);
	free(wv);
	free(nlast);
	free(nfirst);
	pandas_types(t);
	tab_sort_pandas(t, 1, 0);
}

/* --- all_to_allv ----------------------------------------------------------------------- */

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

/* an all_to_allv row's start and end */
struct a2row {
	double	es, le;
};

static void
fill_a2a(struct nc *nc, struct tab *t, size_t row, size_t i, void *arg, uint32_t *pg)
{
	static const int perf[] = { -1, -1, F_INNEL, F_OUTNEL, F_INMB, F_OUTMB, F_INSPLIT,
	    F_OUTSPLIT };
	const struct wide *w = arg;
	const struct a2row *a = &((const struct a2row *)w->arg)[w->grow[i]];
	const struct cgroup *g = wide_general(nc, w, t, row, i, pg);
	size_t k, j;

	for (k = 0; k < g->n; k++) {
		const struct coll *c = &nc->c[g->ev[k]];

		set_time(t, row, wpos(w, c->rank, 0), c->ts, nc->ts_int);
		set_time(t, row, wpos(w, c->rank, 1), c->dur, nc->dur_int);
		for (j = 2; j < 8; j++)
			set_id(nc, t, row, wpos(w, c->rank, j), c->f[perf[j]]);
		set_time(t, row, wpos(w, c->rank, 8), c->ts - a->es, nc->ts_int);
		set_time(t, row, wpos(w, c->rank, 9), a->le - (c->ts + c->dur),
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
		if (!check_group(nc, g, rs, a2a_fields,
		    sizeof(a2a_fields) / sizeof(a2a_fields[0]), u))
			continue;
		row = tab_row(gt);
		tab_set_str(gt, row, 0, S(nc, c0->cid));
		for (j = 0; j < sizeof(a2a_fields) / sizeof(a2a_fields[0]); j++)
			set_id(nc, gt, row, tab_find(gt, fname[a2a_fields[j]]),
			    c0->f[a2a_fields[j]]);
		for (k = 0; k < g->n; k++) {
			const struct coll *c = &nc->c[g->ev[k]];
			double end = c->ts + c->dur;

			es = fmin(es, c->ts);
			ls = fmax(ls, c->ts);
			ee = fmin(ee, end);
			le = fmax(le, end);
		}
		set_time(gt, row, 17, ls - es, nc->ts_int);
		set_time(gt, row, 18, le - ee, nc->ts_int && nc->dur_int);
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
		set_val(nc, gt, row, 8, &tnel);
		set_time(gt, row, 9, wall, nc->ts_int && nc->dur_int);
		set_time(gt, row, 10, maxd, nc->dur_int);
		set_time(gt, row, 11, mind, nc->dur_int);
		tab_set_num(gt, row, 12, sumd / (double)g->n);
		tab_set_num(gt, row, 13, wall > 0 ? (tin / 1024) / (wall / 1e6) : NAN);
		tab_set_num(gt, row, 14, ntp ? maxtp : NAN);
		tab_set_num(gt, row, 15, ntp ? mintp : NAN);
		tab_set_num(gt, row, 16, tin / (double)g->n > 0 ? maxsz / (tin / (double)g->n) :
		    NAN);
		tab_set_int(gt, row, gc, (long long)gi);
		n++;
	}
	pandas_types(gt);
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
			v.s = intern(nc, s, strlen(s));
		} else if (x->kind == TAB_INT) {
			v.t = V_INT;
			v.i = x->v.i;
		} else if (x->kind == TAB_NUM) {
			v.t = V_NUM;
			v.d = x->v.d;
		}
		k[c] = val_id(nc, &v);
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

		set_id(nc, t, row, 0, kg[i].key[0]);
		set_id(nc, t, row, 1, kg[i].key[1]);
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

static void
sheet_heatmap(struct nc *nc, struct out *o, long long ws)
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
		n = pg_ranks(nc, V(nc, nc->c[i].f[F_INSPLIT]), rk, sizeof(rk) / sizeof(rk[0]));
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
		n = pg_ranks(nc, s, rk, sizeof(rk) / sizeof(rk[0]));
		if (gsz->t != V_NONE && (double)n != val_num(gsz))
			continue;
		if ((b = dtype_bytes(nc, V(nc, c->f[F_DTYPE]))) == 0)
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
		emit(nc, o, &g);
	}
	free(h.at);
	free(h.bytes);
	free(h.cnt);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* the ranks of the input: of the rank records and of the collectives */
static void
rankset_init(struct nc *nc, struct rankset *rs)
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

static void
rankset_free(struct rankset *rs)
{
	free(rs->r);
	free(rs->rix);
	free(rs->want);
	free(rs->have);
}

/* The figures of the matched collectives: nccl_implicit_sync's rows (*nrows of rows)
 * and wide sheet wi, nccl_all2allv's (*na2a of ar, by collective) and wide sheet wa;
 * the unmatched collectives in u. */
static void
figures(struct nc *nc, const struct cgroup *gs, size_t ng, struct rankset *rs,
    struct tab *u, struct isrow *rows, size_t *nrows, struct wide *wi, struct a2row *ar,
    size_t *na2a, struct wide *wa)
{
	size_t i, *byg;

	memset(wi, 0, sizeof(*wi));
	memset(wa, 0, sizeof(*wa));
	wi->gt = tab_new("nccl_implicit_sync");
	*nrows = isync_rows(nc, rows, gs, ng, rs, u, wi->gt);
	wi->grow = xreallocarray(NULL, *nrows ? *nrows : 1, sizeof(*wi->grow));
	for (i = 0; i < *nrows; i++)
		wi->grow[i] = rows[i].g;
	wi->gs = wa->gs = gs;
	wi->rs = wa->rs = rs;
	wi->arg = rows;
	wi->ngen = *nrows > 0 ? wi->gt->ncols : 0;
	wide_cols(nc, wi, isync_kinds, 3, 2, gs, wi->grow, *nrows);
	*na2a = a2a_rows(nc, gs, ng, rs, u, ar, &wa->gt, &wa->grow);
	wa->arg = ar;
	wa->ngen = NA2AG;
	/* TraceLens's columns come in the collectives' order, before the sort */
	byg = xreallocarray(NULL, *na2a ? *na2a : 1, sizeof(*byg));
	memcpy(byg, wa->grow, *na2a * sizeof(*byg));
	qsort(byg, *na2a, sizeof(*byg), cmp_size);
	wide_cols(nc, wa, a2a_kinds, 10, 8, gs, byg, *na2a);
	free(byg);
}

/* The collectives (their events by collective_id), in order of first appearance in
 * nccl_long; their count in *ng. */
static struct cgroup *
coll_groups(struct nc *nc, size_t *ng)
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

size_t
nc_sheets_each(struct nc *nc, const struct nc_opts *opt, size_t chunk,
    void (*fn)(struct tab *, int, void *), void *ctx, struct error *err)
{
	struct out o = { fn, ctx, chunk, opt->gpus_per_node, opt->world_size, 0 };
	struct tab *u, *ssum, *sa2a, *strag;
	struct cgroup *gs = NULL;
	struct isrow *rows;
	struct a2row *ar;
	struct rankset rs;
	struct wide wi, wa;
	struct gen g;
	size_t ng = 0, i, nrows, na2a;
	const char *e = getenv("TTP_NC_PART");

	if (chunk > 0 && e != NULL && atol(e) > 0)
		o.chunk = (size_t)atol(e);	/* tests: parts of a row or a few */
	if (nc->n == 0) {
		error_set(err, NULL, 0, 0, "no collective kernels (NCCL/RCCL) in the input: "
		    "nothing to report");
		return 0;
	}
	match(nc);
	gs = coll_groups(nc, &ng);
	rankset_init(nc, &rs);
	if (o.ws <= 0)
		o.ws = rs.r[rs.n - 1] + 1;
	if (o.gpn <= 0) {
		/* TraceLens: the device count of the first rank's trace */
		o.gpn = 0;
		for (i = 0; i < nc->nri; i++)
			if (nc->ri[i].rank == rs.r[0])
				o.gpn = nc->ri[i].devices;
	}
	u = tab_new("nccl_unmatched");
	tab_col(u, "collective_id");
	tab_col(u, "Process Group Name");
	tab_col(u, "Collective name");
	tab_col(u, "problem");

	/* what the sheets are made of: the matched collectives' figures */
	rows = xreallocarray(NULL, ng, sizeof(*rows));
	ar = xcalloc(ng, sizeof(*ar));
	figures(nc, gs, ng, &rs, u, rows, &nrows, &wi, ar, &na2a, &wa);

	ssum = tab_new("nccl_summary_implicit_sync");
	sheet_summary_isync(nc, ssum, rows, nrows, gs);
	hand_whole(nc, &o, ssum, true);
	sheet_summary_long(nc, &o);
	if (na2a > 0) {
		sa2a = tab_new("nccl_summary_all2allv");
		sheet_summary_a2a(nc, sa2a, wa.gt);
		if (sa2a->nrows > 0)
			hand_whole(nc, &o, sa2a, true);
		else
			tab_free(sa2a);
	}
	if (opt->heatmap)
		sheet_heatmap(nc, &o, o.ws);
	g = (struct gen){ "nccl_long", long_cols, sizeof(long_cols) / sizeof(long_cols[0]),
	    nc->n, fill_long, NULL };
	emit(nc, &o, &g);
	g = (struct gen){ "nccl_implicit_sync", wi.cols, nrows > 0 ? wi.ncols : 0, nrows,
	    fill_isync, &wi };
	emit(nc, &o, &g);
	if (na2a > 0) {
		g = (struct gen){ "nccl_all2allv", wa.cols, wa.ncols, na2a, fill_a2a, &wa };
		emit(nc, &o, &g);
	}
	strag = tab_new("straggler_summary");
	sheet_straggler(nc, strag, rows, nrows, gs, &wi);
	if (strag->nrows > 0)
		hand_whole(nc, &o, strag, true);
	else
		tab_free(strag);
	if (u->nrows > 0) {
		size_t nu = u->nrows;

		hand(&o, u, 0);
		warning("warning: %zu collective%s not matched across ranks (TraceLens stops "
		    "there): left out, listed in nccl_unmatched", nu, nu == 1 ? " is" : "s are");
	} else
		tab_free(u);
	wide_free(&wi);
	wide_free(&wa);
	for (i = 0; i < ng; i++)
		free(gs[i].ev);
	free(gs);
	free(rows);
	free(ar);
	rankset_free(&rs);
	return o.n;
}

struct sheets {
	struct tab	**t;
	size_t		  n;
};

static void
take_sheet(struct tab *t, int more, void *ctx)
{
	struct sheets *sh = ctx;

	(void)more;
	sh->t = xreallocarray(sh->t, sh->n + 1, sizeof(*sh->t));
	sh->t[sh->n++] = t;
}

size_t
nc_sheets(struct nc *nc, const struct nc_opts *o, struct tab ***out, struct error *err)
{
	struct sheets sh = { NULL, 0 };

	nc_sheets_each(nc, o, 0, take_sheet, &sh, err);
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
