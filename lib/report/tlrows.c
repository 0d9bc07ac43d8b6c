/* SPDX-License-Identifier: ISC */
/* tlrows: what the op sheets share: kernel details (docs/tracelens.md §7.3), per-op
 * perf rows and their grouping, the roofline columns (§5, §6). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/hash.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

struct kdent {
	size_t		 pos;
	double		 total;
	const char	*name;
};

static int
kdent_cmp(const void *a, const void *b)
{
	const struct kdent *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return (x->total > y->total) - (x->total < y->total);
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void
py_key(struct buf *b, const char *k)
{
	py_str(b, k, strlen(k));
	buf_adds(b, ": ");
}

/* round(x, 2) of TraceLens's mean, a numpy float64: numpy rounds as rint(x * 100) / 100
 * (ties to even on the scaled product, so 4.325 -> 4.32), not as Python's correctly
 * rounded round(). */
static double
round2(double x)
{
	if (!isfinite(x))
		return x;
	return rint(x * 100) / 100;
}

/* A kernel's statistics in kernel_details_summary, from "count" on: d its durations,
 * total their numpy sum, mean their numpy mean. */
static void
kd_stats(struct buf *sum, const struct vec *d, double total, double mean)
{
	const struct { const char *key; double v; } st[] = {
		{ "total_duration_us", total }, { "mean_duration_us", mean },
		{ "median_duration_us", stat_median(d) },
		{ "std_dev_duration_us", stat_npstd(d) },
		{ "min_duration_us", stat_min(d) }, { "max_duration_us", stat_max(d) } };
	size_t i;

	py_key(sum, "count");
	py_int(sum, (long long)d->n);
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		buf_adds(sum, ", ");
		py_key(sum, st[i].key);
		py_float(sum, st[i].v);
	}
	buf_addc(sum, '}');
}

/* A kernel's entry in trunc_kernel_details: its name's first 64 code points (and '...'
 * when longer), its stream, its mean rounded to 2 places. */
static void
kd_trunc(struct buf *trunc, const char *name, size_t nl, long long stream, double mean)
{
	size_t cut, i;

	for (cut = 0, i = 0; cut < nl; cut++)
		if (((unsigned char)name[cut] & 0xc0) != 0x80 && i++ == 64)
			break;
	buf_addc(trunc, '{');
	py_key(trunc, "name");
	if (cut < nl) {
		struct buf t = BUF_INIT;

		buf_add(&t, name, cut);
		buf_adds(&t, "...");
		py_str(trunc, t.p, t.len);
		buf_free(&t);
	} else
		py_str(trunc, name, nl);
	buf_adds(trunc, ", ");
	py_key(trunc, "stream");
	py_int(trunc, stream);
	buf_adds(trunc, ", ");
	py_key(trunc, "mean_duration_us");
	py_float(trunc, round2(mean));
	buf_addc(trunc, '}');
}

void
tl_kernel_details(const struct tl *tl, const struct klist *in, size_t n, struct buf *sum,
    struct buf *trunc)
{
	tl_kernel_details_order(tl, in, n, sum, trunc, NULL, NULL, 0);
}

/* The same, and the template instance's kernel positions in the summary's order; with
 * stacks, each entry has the template kernel's call_stack after its stream. */
void
tl_kernel_details_order(const struct tl *tl, const struct klist *in, size_t n,
    struct buf *sum, struct buf *trunc, size_t *order, const struct klist **tplp, int stacks)
{
	const struct klist *tpl = NULL;
	struct kdent *ent;
	struct vec d = VEC_INIT;
	size_t i, j;

	buf_reset(sum);
	buf_reset(trunc);
	for (i = 0; i < n && tpl == NULL; i++)
		if (in[i].n)
			tpl = &in[i];
	if (tplp)
		*tplp = tpl;
	buf_addc(sum, '[');
	buf_addc(trunc, '[');
	if (tpl == NULL) {
		buf_addc(sum, ']');
		buf_addc(trunc, ']');
		return;
	}
	ent = xreallocarray(NULL, tpl->n, sizeof(*ent));
	for (j = 0; j < tpl->n; j++) {
		d.n = 0;
		for (i = 0; i < n; i++)
			if (in[i].n == tpl->n)
				vec_add(&d, tl->k[in[i].ev[j]].dur);
		ent[j] = (struct kdent){ j, stat_npsum(&d), tl_str(tl, tl->k[tpl->ev[j]].name) };
	}
	qsort(ent, tpl->n, sizeof(*ent), kdent_cmp);
	for (j = 0; order && j < tpl->n; j++)
		order[j] = ent[j].pos;
	for (j = 0; j < tpl->n; j++) {
		const struct gpuev *k = &tl->k[tpl->ev[ent[j].pos]];
		size_t nl = strlen(ent[j].name);
		double mean;

		d.n = 0;
		for (i = 0; i < n; i++)
			if (in[i].n == tpl->n)
				vec_add(&d, tl->k[in[i].ev[ent[j].pos]].dur);
		mean = stat_npmean(&d);
		if (j) {
			buf_adds(sum, ", ");
			buf_adds(trunc, ", ");
		}
		buf_addc(sum, '{');
		py_key(sum, "name");
		py_str(sum, ent[j].name, nl);
		buf_adds(sum, ", ");
		py_key(sum, "stream");
		py_int(sum, k->stream);
		buf_adds(sum, ", ");
		if (stacks) {
			py_key(sum, "call_stack");
			tl_kernel_stack(tl, tpl->ev[ent[j].pos], sum);
			buf_adds(sum, ", ");
		}
		kd_stats(sum, &d, ent[j].total, mean);
		kd_trunc(trunc, ent[j].name, nl, k->stream, mean);
	}
	buf_addc(sum, ']');
	buf_addc(trunc, ']');
	free(ent);
	vec_free(&d);
}

void
tl_prow_metrics(const struct prow *p, double *tflops, double *tbps)
{
	double t = p->ktime;

	*tflops = t > 0 ? (p->flops / 1e9 / 1e3) / (t / 1e6) : NAN;
	*tbps = t > 0 ? (p->bytes / 1e12) / (t / 1e6) : NAN;
}

void
tl_prow_events(struct tl *tl, struct prow *p, size_t i)
{
	size_t cap = 0;

	p->ev = NULL;
	p->nev = 0;
	tl_subtree_events(tl, i, &p->ev, &p->nev, &cap);
	if (p->nev > 0 && p->nev < cap)	/* held until the sheet is built */
		p->ev = xreallocarray(p->ev, p->nev, sizeof(*p->ev));
	tl_sort_events(tl, p->ev, p->nev);
	p->ktime = tl_busy(tl, p->ev, p->nev);
}

/* A slot of the grouping's table: a group's key hash and its number + 1 (0: empty).
 * 8 bytes where interning the keys held each key's text (some 100 bytes a group with
 * a row per op); the group's first item, whose key is written again to compare, is
 * rep[its number]. The table grows with the groups, not with the items: a sheet of a
 * few groups over many rows holds a few slots. */
struct gslot {
	uint32_t	h, g1;
};

struct gtab {
	struct gslot	*s;
	size_t		 cap;		/* a power of two; at most 3/4 full */
	uint32_t	*rep;
	size_t		 caprep;
	uint32_t	 ng;
};

/* Twice the slots, filled again from the hashes they hold (no key written again). */
static void
gtab_grow(struct gtab *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64, i, j;
	struct gslot *s = xcalloc(cap, sizeof(*s));

	for (i = 0; i < t->cap; i++) {
		if (t->s[i].g1 == 0)
			continue;
		for (j = t->s[i].h & (cap - 1); s[j].g1 != 0; j = (j + 1) & (cap - 1))
			;
		s[j] = t->s[i];
	}
	free(t->s);
	t->s = s;
	t->cap = cap;
}

/* Item i's group number, a new one when its key is new. */
static uint32_t
group_of(struct gtab *t, size_t i, const struct buf *key, struct buf *k2,
    void (*keyfn)(void *, size_t, struct buf *), void *ctx)
{
	uint32_t h = (uint32_t)hash_bytes(key->p, key->len);
	size_t j;

	for (j = h & (t->cap - 1); t->s[j].g1 != 0; j = (j + 1) & (t->cap - 1)) {
		if (t->s[j].h != h)
			continue;
		buf_reset(k2);
		keyfn(ctx, t->rep[t->s[j].g1 - 1], k2);
		if (k2->len == key->len && memcmp(k2->p, key->p, key->len) == 0)
			return t->s[j].g1 - 1;
	}
	t->rep = xgrow(t->rep, &t->caprep, (size_t)t->ng + 1, sizeof(*t->rep));
	t->rep[t->ng] = (uint32_t)i;
	t->s[j] = (struct gslot){ h, ++t->ng };
	if ((size_t)t->ng * 4 > t->cap * 3)
		gtab_grow(t);
	return t->ng - 1;
}

/* Items 0 .. n grouped by the key keyfn writes for each, in order of first appearance:
 * each item's group number (gid[i]; n + 1 entries, the caller's to free); the number of
 * groups. */
size_t
tl_group_ids(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key), void *ctx,
    uint32_t **gid)
{
	struct buf key = BUF_INIT, k2 = BUF_INIT;
	struct gtab t = { NULL, 0, NULL, 0, 0 };
	size_t i;

	if (n >= UINT32_MAX / 2)
		die(EXIT_DATA, "%zu rows: more than a sheet's groups can number", n);
	*gid = xreallocarray(NULL, n + 1, sizeof(**gid));
	gtab_grow(&t);
	for (i = 0; i < n; i++) {
		buf_reset(&key);
		keyfn(ctx, i, &key);
		(*gid)[i] = group_of(&t, i, &key, &k2, keyfn, ctx);
	}
	free(t.s);
	free(t.rep);
	buf_free(&key);
	buf_free(&k2);
	return t.ng;
}

/* The same as the members of each group, in order (group g: members[start[g] ..
 * start[g+1])). */
size_t
tl_group_by(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key), void *ctx,
    uint32_t **start, uint32_t **members)
{
	uint32_t *g;
	size_t ng = tl_group_ids(n, keyfn, ctx, &g), i;

	*start = xcalloc(ng + 1, sizeof(**start));
	*members = xreallocarray(NULL, n + 1, sizeof(**members));
	for (i = 0; i < n; i++)		/* start[g]: the end of group g */
		(*start)[g[i]]++;
	for (i = 1; i < ng; i++)
		(*start)[i] += (*start)[i - 1];
	(*start)[ng] = (uint32_t)n;
	for (i = n; i-- > 0;)		/* filled from the end: start[g] its start */
		(*members)[--(*start)[g[i]]] = (uint32_t)i;
	free(g);
	return ng;
}

/* The group key of op x's arguments (with name and category cat): TraceLens's
 * unified_perf_summary and ops_unique_args group by these. */
void
tl_args_key(struct tl *tl, struct buf *key, size_t x, uint32_t name, uint32_t cat)
{
	const struct top *o = &tl->op[x];

	buf_printf(key, "%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u", name, cat,
	    tl_op_who(tl, o, TL_PROCESS), tl_op_who(tl, o, TL_LABEL),
	    tl_op_who(tl, o, TL_THREAD), TDIMS(o), TTYPES(o), TSTRIDES(o), TCONC(o));
}

void
tl_pgroup(struct pgroup *g, struct tl *tl, const struct prow *p, const uint32_t *m,
    size_t nm)
{
	size_t i, j;

	g->tl = tl;
	g->p = p;
	g->m = m;
	g->nm = nm;
	for (j = 0; j < PG_NV; j++) {
		g->v[j] = (struct vec)VEC_INIT;
		g->vp[j] = &g->v[j];
	}
	for (i = 0; i < nm; i++) {
		const struct prow *q = &p[m[i]];
		double tflops, tbps;

		tl_prow_metrics(q, &tflops, &tbps);
		vec_add(&g->v[PG_DUR], q->dur_us);
		vec_add(&g->v[PG_KT], q->ktime);
		vec_add(&g->v[PG_TB], tbps);
		vec_add(&g->v[PG_TF], tflops);
		vec_add(&g->v[PG_GF], q->flops / 1e9);
		vec_add(&g->v[PG_MB], q->bytes / 1048576);
		vec_add(&g->v[PG_FB], q->bytes != 0 ? q->flops / q->bytes : NAN);
		/* Pct Roofline: roofline time / kernel time per row */
		vec_add(&g->v[PG_PCT], isnan(q->roof_us) ? NAN : q->ktime > 0 ?
		    q->roof_us / q->ktime * 100 : NAN);
		vec_add(&g->v[PG_ROOF], q->roof_us);
	}
}

void
tl_pgroup_free(struct pgroup *g)
{
	size_t j;

	for (j = 0; j < PG_NV; j++)
		vec_free(&g->v[j]);
}

uint32_t
tl_pgroup_bound(const struct pgroup *g)
{
	size_t i;

	for (i = 0; i < g->nm; i++)
		if (!isnan(g->p[g->m[i]].roof_us))
			return tl_mod(g->tl, &g->tl->op[g->p[g->m[i]].op])->bound;
	return NAME_NONE;
}
