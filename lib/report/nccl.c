/* SPDX-License-Identifier: ISC */
/*
 * nccl: the multi-rank collective report's records in (report/nccl.h; the report's
 * files are listed in ncpriv.h): "coll" records (one per collective kernel of a rank) to
 * compact collectives whose fields are value ids, "rank" records (a rank's device count),
 * "group" records (a process group's rank list, joined back onto its kernels); the
 * fields TraceLens derives on reading (message sizes in MB, µs as Python's doubles).
 */
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
#include "ncpriv.h"

const char *const nc_fname[NF] = {
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size",
	"dtype", "In msg nelems", "Out msg nelems", "In split size", "Out split size",
	"stream", "In msg size (MB)", "Out msg size (MB)"
};
/* the record keys of the fields up to F_STREAM */
static const char *const fkey[F_STREAM + 1] = {
	"group", "group_ranks", "coll", "group_size", "dtype", "in_nelems", "out_nelems",
	"in_split", "out_split", "stream"
};

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
			v.s = nc_intern(nc, s, n);
		}
		break;
	case REC_BOOL:
		if (rec_bool(r, key, &bv)) {
			v.t = V_STR;
			v.s = nc_intern(nc, bv ? "True" : "False", bv ? 4 : 5);
		}
		break;
	case REC_ARRAY:
	case REC_OBJECT:
		if ((raw = rec_raw(r, key, &n)) != NULL) {
			buf_reset(&nc->b);
			if (py_json(&nc->b, raw, n, PY_TUPLE)) {
				v.t = V_STR;
				v.s = nc_intern(nc, nc->b.p, nc->b.len);
			}
		}
		break;
	default:
		break;
	}
	return v;
}

int
nc_dtype_bytes(struct nc *nc, const struct val *v)
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
		nc->granks[i] = nc_val_id(nc, &rl);
}

/* Kernels without their group's rank list: the one its "group" record gives. */
void
nc_join_groups(struct nc *nc)
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
			f[F_CNAME].s = nc_intern(nc, "allreduce", 9);
		}
	}
	if ((v = nc_dtype_bytes(nc, &f[F_DTYPE])) > 0 && f[F_INNEL].t != V_NONE) {
		f[F_INMB] = msg_mb(&f[F_INNEL], (int)v);
		f[F_OUTMB] = msg_mb(&f[F_OUTNEL], (int)v);
	}
	for (i = 0; i < NF; i++)
		c.f[i] = nc_val_id(nc, &f[i]);
	c.ts = ns_us(start_ns);
	c.dur = ns_us(ns);
	c.ts_int = start_ns % 1000 == 0;
	c.dur_int = ns % 1000 == 0;
	nc->c = xgrow(nc->c, &nc->cap, nc->n + 1, sizeof(*nc->c));
	nc->c[nc->n++] = c;
	return 1;
}
