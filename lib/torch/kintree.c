/* SPDX-License-Identifier: ISC */
/*
 * kintree: the Kineto reader's host tree (docs/tracelens.md §1.4.3: per thread, by
 * start, the "bleed" rule), what derives from it (each linked GPU event's launcher,
 * §1.5; each op's subtree: its GPU events' busy time and, for a GEMM-family op, their
 * names) and the output items the record writer takes (kinpriv.h's struct oi), by both
 * paths: in memory (kin_build_tree, kin_find_launchers, kin_write_records: a capture
 * folder's traces are grafted into the tree between them), and streaming
 * (kin_stream_records: the pipeline of external sorts, each pass joined to the next by a
 * sort key; tree_stream applies kin_build_tree's and kin_find_launchers' rules in one
 * pass).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/names.h"
#include "core/spool.h"
#include "kinpriv.h"
#include "torch/opclass.h"

/* --- the host tree (§1.4.3) --------------------------------------------------------- */

/*
 * Nanoseconds as the double TraceLens holds for the microseconds of the JSON text
 * (docs/tracelens.md §1.1 and its erratum). Whole and fractional microseconds
 * apart: (double)ns / 1000 rounds ns itself once it passes 2^53 (epoch timestamps,
 * about 1.6e18 ns), the sum of the two is the correctly rounded quotient (the fraction
 * is never within rounding distance of a midpoint), which is what strtod gives for the
 * text, and exact for integer microseconds (Python's ints).
 */
static double
us_of(int64_t ns)
{
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

static double
t0(const struct kev *v)
{
	return us_of(v->ts);
}

static int64_t
dur_of(const struct kin *k, const struct kev *v)
{
	return KEV_DUR(k, v);
}

/* TraceLens's t_end: ts + dur, each as its text's double, added in double precision
 * (exact when both are integers, as Python's int sum is). */
static double
t1(const struct kin *k, const struct kev *v)
{
	return us_of(v->ts) + us_of(dur_of(k, v));
}

static const struct kin *cmp_k;

static int
by_ts(const void *a, const void *b)
{
	const struct kev *x = KEV(cmp_k, *(const int32_t *)a);
	const struct kev *y = KEV(cmp_k, *(const int32_t *)b);

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void
kin_sort_by_ts(const struct kin *k, int32_t *v, size_t n)
{
	cmp_k = k;
	qsort(v, n, sizeof(*v), by_ts);
}

size_t
kin_host_events(const struct kin *k, int32_t *h)
{
	size_t nh = 0, i;

	for (i = 0; i < k->nev; i++) {
		int c = KEV(k, i)->cat;

		if (c == C_CPU_OP || IS_LAUNCH(c) || c == C_PYTHON)
			h[nh++] = (int32_t)i;
	}
	kin_sort_by_ts(k, h, nh);
	return nh;
}

struct stack {
	int32_t	*v;
	size_t	 n, cap;
};

void
kin_build_tree(struct kin *k)
{
	int32_t *h = xreallocarray(NULL, k->nev + 1, sizeof(*h));
	size_t nst = k->thr.nm.n, nh = kin_host_events(k, h), i;
	struct stack *st = xcalloc(nst + 1, sizeof(*st));	/* one per thread */

	for (i = 0; i < nh; i++) {
		struct kev *e = KEV(k, h[i]);
		struct stack *s = &st[e->thr];
		double ts = t0(e), te = t1(k, e);

		while (s->n > 0 && ts >= t1(k, KEV(k, s->v[s->n - 1])))
			s->n--;
		if (s->n > 0 && te > t1(k, KEV(k, s->v[s->n - 1]))) {
			/* the "bleed" rule: a small overlap moves the event up a level */
			if (t1(k, KEV(k, s->v[s->n - 1])) - ts < 1.0 && s->n >= 2)
				s->n--;
			else
				continue;
		}
		if (s->n > 0)
			e->parent = s->v[s->n - 1];
		s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
		s->v[s->n++] = h[i];
	}
	for (i = 0; i < nst; i++)
		free(st[i].v);
	free(st);
	free(h);
}

/* The op a linked GPU event is charged to: the first CPU op above its launch, python
 * functions skipped, "execute" passed through, the walk stopped by any other kind of
 * event (a merged capture's root); else the launch itself (docs/tracelens.md §1.5). */
void
kin_find_launchers(struct kin *k)
{
	size_t i;

	for (i = 0; i < k->nev; i++) {
		struct kev *v = KEV(k, i);
		int32_t p, l = -1;

		if (v->cat == C_CPU_OP || v->cat == C_PYTHON)
			v->flags |= F_REC;
		if (!IS_GPU(v->cat) || v->linker < 0)
			continue;
		for (p = KEV(k, v->linker)->parent; p >= 0; p = KEV(k, p)->parent) {
			if (KEV(k, p)->cat == C_PYTHON)
				continue;
			if (KEV(k, p)->cat != C_CPU_OP)
				break;
			if (strcmp(names_str(&k->names, KEV(k, p)->name), "execute") == 0)
				continue;
			l = p;
			break;
		}
		if (l < 0) {
			l = v->linker;
			KEV(k, l)->flags |= F_REC;
		}
		v->launcher = l;
		if (!(v->flags & F_COMM))
			KEV(k, l)->flags |= F_LAUNCHER;
	}
}

/* --- subtrees and output items ------------------------------------------------------ */

/* GPU events per op, as index lists: own (charged to it) and subtree (below it). */
struct lists {
	size_t	*own_at, *sub_at;	/* nev + 1 offsets */
	int32_t	*own, *sub;
};

static void
build_lists(struct kin *k, struct lists *L)
{
	size_t i, n = k->nev;
	int pass;

	L->own = L->sub = NULL;
	L->own_at = xcalloc(n + 1, sizeof(size_t));
	L->sub_at = xcalloc(n + 1, sizeof(size_t));
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			/* each at[x] the start of x's list, then its fill cursor */
			for (i = 0; i < n; i++) {
				L->own_at[i + 1] += L->own_at[i];
				L->sub_at[i + 1] += L->sub_at[i];
			}
			L->own = xreallocarray(NULL, L->own_at[n] + 1, sizeof(int32_t));
			L->sub = xreallocarray(NULL, L->sub_at[n] + 1, sizeof(int32_t));
		}
		for (i = 0; i < n; i++) {
			struct kev *g = KEV(k, i);
			int32_t p;

			if (!IS_GPU(g->cat) || g->launcher < 0)
				continue;
			if (pass == 0)
				L->own_at[g->launcher + 1]++;
			else
				L->own[L->own_at[g->launcher]++] = (int32_t)i;
			for (p = g->linker; p >= 0; p = KEV(k, p)->parent) {
				if (!(KEV(k, p)->flags & F_REC))
					continue;
				if (pass == 0)
					L->sub_at[p + 1]++;
				else
					L->sub[L->sub_at[p]++] = (int32_t)i;
			}
		}
	}
	/* the cursors stopped at the next list's start: back by one list */
	for (i = n; i > 0; i--) {
		L->own_at[i] = L->own_at[i - 1];
		L->sub_at[i] = L->sub_at[i - 1];
	}
	L->own_at[0] = L->sub_at[0] = 0;
}

static void
free_lists(struct lists *L)
{
	free(L->own_at);
	free(L->sub_at);
	free(L->own);
	free(L->sub);
}

struct span {
	int64_t	a, b;
};

static int
by_start(const void *x, const void *y)
{
	const struct span *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

/* Busy time: the length of the union of the events' intervals (docs/tracelens.md §2). */
static int64_t
busy_ns(struct kin *k, const int32_t *g, size_t n, struct span **tmp, size_t *cap)
{
	size_t i;
	int64_t sum = 0, a, b;

	if (n == 0)
		return 0;
	*tmp = xgrow(*tmp, cap, n, sizeof(**tmp));
	for (i = 0; i < n; i++) {
		(*tmp)[i].a = KEV(k, g[i])->ts;
		(*tmp)[i].b = KEV(k, g[i])->ts + KEV_DUR(k, KEV(k, g[i]));
	}
	qsort(*tmp, n, sizeof(**tmp), by_start);
	a = (*tmp)[0].a;
	b = (*tmp)[0].b;
	for (i = 1; i < n; i++) {
		if ((*tmp)[i].a <= b) {
			if ((*tmp)[i].b > b)
				b = (*tmp)[i].b;
			continue;
		}
		sum += b - a;
		a = (*tmp)[i].a;
		b = (*tmp)[i].b;
	}
	return sum + (b - a);
}

/* The nearest ancestor written as a record. */
static int32_t
rec_parent(const struct kin *k, const struct kev *v)
{
	int32_t p;

	for (p = v->parent; p >= 0; p = KEV(k, p)->parent)
		if (KEV(k, p)->flags & F_REC)
			return p;
	return -1;
}

/* TraceLens's GEMM models read the transpose flags from the first kernel name that
 * parses among the op's whole subtree's GPU events by start time (compute_perf_metrics
 * sets kernel_details before the model reads it): for a GEMM-family op whose children
 * launch its kernels (aiter::gemm_a16w16 over aten::mm), "subtree_kernels" names them. */
static bool
is_gemm(const struct kin *k, uint32_t name)
{
	const struct opclass *oc = opclass_find(names_str(&k->names, name));

	return oc != NULL && oc->family != NULL && strcmp(oc->family, "GEMM") == 0;
}

/*
 * The in-memory path's records (with a capture folder): each op, GPU event and
 * annotation an output item with what the tree and the lists say of it, written by
 * kin_write_stream as the streaming path's are.
 */
void
kin_write_records(struct kin *k)
{
	struct spsort *out = spsort_new(sizeof(struct oi), kin_by_oi);
	struct spsort *ans = spsort_new(sizeof(struct an), kin_by_an);
	struct spool *txt = spool_open();
	struct span *tmp = NULL;
	struct lists L;
	size_t i, cap = 0;

	build_lists(k, &L);
	k->own_tmp = xreallocarray(NULL, k->nev + 1, sizeof(*k->own_tmp));
	for (i = 0; i < k->nev; i++) {
		const struct kev *v = KEV(k, i);
		struct oi o;

		if (!(v->flags & F_REC) && !IS_GPU(v->cat) && v->cat != C_ANNOT)
			continue;
		memset(&o, 0, sizeof(o));
		o.e.ts = v->ts;
		o.e.dur = KEV_DUR(k, v);
		o.e.corr = kv_get(k, v->corr);
		o.e.ext = kv_get(k, v->ext);
		o.e.seq = kv_get(k, v->seq);
		o.e.stream = kv_get(k, v->stream);
		o.e.device = kv_get(k, v->device);
		o.e.in_off = v->in_off;
		o.e.in_len = v->in_len;
		o.e.idx = v->idx;
		o.e.name = v->name;
		o.e.thr = v->thr;
		o.e.cat = v->cat;
		o.e.flags = v->flags;
		o.parent = o.fwd = o.launcher = o.via = -1;
		o.t = v->ts;
		o.grp = v->idx;
		if (IS_GPU(v->cat)) {
			if (v->launcher >= 0) {
				const struct kev *l = KEV(k, v->launcher);
				int32_t via = v->linker;

				o.t = l->ts;
				o.grp = l->idx;
				o.sub = 1;
				o.t2 = v->ts;
				o.launcher = l->idx;
				/* python frames between the launching op and the launch */
				if (!(KEV(k, via)->flags & F_REC))
					via = rec_parent(k, KEV(k, via));
				if (via >= 0 && via != v->launcher)
					o.via = KEV(k, via)->idx;
			}
		} else if (v->cat == C_ANNOT) {
			struct an a;

			memset(&a, 0, sizeof(a));
			a.ts = v->ts;
			a.idx = v->idx;
			a.name = v->name;
			spsort_add(ans, &a);
		} else {
			int32_t p = rec_parent(k, v);
			size_t ns = L.sub_at[i + 1] - L.sub_at[i];

			if (p >= 0)
				o.parent = KEV(k, p)->idx;
			if (v->fwd >= 0)
				o.fwd = KEV(k, v->fwd)->idx;
			o.ns = (uint32_t)ns;
			if (ns > 0)
				o.busy = busy_ns(k, L.sub + L.sub_at[i], ns, &tmp, &cap);
			if (ns > 0 && is_gemm(k, v->name)) {
				struct js_writer w;
				size_t j;

				memcpy(k->own_tmp, L.sub + L.sub_at[i], ns * sizeof(*k->own_tmp));
				kin_sort_by_ts(k, k->own_tmp, ns);
				buf_reset(&k->tmp);
				js_w_init(&w, &k->tmp);
				js_w_array(&w);
				for (j = 0; j < ns; j++) {
					const struct kev *g = KEV(k, k->own_tmp[j]);

					js_w_str(&w, k->names.str[g->name], k->names.len[g->name]);
				}
				js_w_end_array(&w);
				o.soff = spool_add(txt, k->tmp.p, k->tmp.len);
				o.slen = (uint32_t)k->tmp.len;
			}
		}
		spsort_add(out, &o);
	}
	free(tmp);
	free(k->own_tmp);
	k->own_tmp = NULL;
	free_lists(&L);
	kin_write_stream(k, out, ans, txt);
	spsort_free(out);
	spsort_free(ans);
	spool_close(txt);
}

/* --- streaming ---------------------------------------------------------------------- */

static int
by_tn(const void *a, const void *b)
{
	const struct tn *x = a, *y = b;

	if (x->thr != y->thr)
		return x->thr < y->thr ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	return x->gidx < y->gidx ? -1 : x->gidx > y->gidx;
}

static int
by_kn(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
by_tr(const void *a, const void *b)
{
	const struct tr *x = a, *y = b;

	return x->kn < y->kn ? -1 : x->kn > y->kn;
}

static int
by_sub(const void *a, const void *b)
{
	const struct sub *x = a, *y = b;

	if (x->p_kn != y->p_kn)
		return x->p_kn < y->p_kn ? -1 : 1;
	if (x->g_ts != y->g_ts)
		return x->g_ts < y->g_ts ? -1 : 1;
	return x->g_idx < y->g_idx ? -1 : x->g_idx > y->g_idx;
}

static bool
name_is(const struct kin *k, uint32_t name, const char *s)
{
	return strcmp(names_str(&k->names, name), s) == 0;
}

static bool
is_host(int cat)
{
	return cat == C_CPU_OP || IS_LAUNCH(cat) || cat == C_PYTHON;
}

/* An entry of the per-thread stack of open host events. */
struct sent {
	int64_t		 ts;
	double		 t1;
	int64_t		 near;		/* the nearest op record at or below it (-1: none) */
	uint32_t	 idx, kn, name;
	uint8_t		 cat, frec;
};

/* The host event the tree pass read last, while its attached GPU events are read. */
struct cur {
	bool		 on;
	bool		 pushed;	/* it is the stack's top */
	bool		 charged;	/* its launcher is known */
	uint32_t	 kn, idx, name;
	int64_t		 ts;
	uint8_t		 cat, frec;
	int64_t		 rp;		/* its record parent */
	int64_t		 l, lts, via;
};

static void
cur_done(struct cur *c, struct spsort *trs)
{
	struct tr t;

	if (c->on && c->frec) {
		memset(&t, 0, sizeof(t));
		t.kn = c->kn;
		t.frec = 1;
		t.parent = c->rp;
		t.launcher = t.lts = t.via = -1;
		spsort_add(trs, &t);
	}
	c->on = false;
}

/* The host tree (kin_build_tree's rules), per thread, and what kin_find_launchers and
 * build_lists derive from it: each GPU event's op and launch, each op's subtree. */
static void
tree_stream(struct kin *k, struct spsort *tree, struct spsort *trs, struct spsort *subs)
{
	struct sent *st = NULL;
	size_t n = 0, cap = 0;
	struct cur c;
	const struct tn *p;
	uint32_t thr = UINT32_MAX;

	memset(&c, 0, sizeof(c));
	while ((p = spsort_next(tree)) != NULL) {
		if (p->thr != thr) {
			cur_done(&c, trs);
			n = 0;
			thr = p->thr;
		}
		if (p->sub == 0) {
			double ts = us_of(p->ts), te = us_of(p->ts) + us_of(p->dur);
			bool push = true;

			cur_done(&c, trs);
			while (n > 0 && ts >= st[n - 1].t1)
				n--;
			if (n > 0 && te > st[n - 1].t1) {
				if (st[n - 1].t1 - ts < 1.0 && n >= 2)
					n--;
				else
					push = false;
			}
			memset(&c, 0, sizeof(c));
			c.on = true;
			c.kn = p->kn;
			c.idx = p->idx;
			c.name = p->name;
			c.ts = p->ts;
			c.cat = p->cat;
			c.frec = p->cat == C_CPU_OP || p->cat == C_PYTHON;
			c.rp = push && n > 0 ? st[n - 1].near : -1;
			c.pushed = push;
			if (push) {
				struct sent *e;

				st = xgrow(st, &cap, n + 1, sizeof(*st));
				e = &st[n++];
				e->ts = p->ts;
				e->t1 = te;
				e->idx = p->idx;
				e->kn = p->kn;
				e->name = p->name;
				e->cat = p->cat;
				e->frec = c.frec;
				e->near = c.frec ? (int64_t)p->idx : c.rp;
			}
			continue;
		}
		/* a GPU event launched by c */
		if (!c.on || p->idx != c.idx || p->ts != c.ts)
			die(EXIT_DATA, "%s: internal error: a GPU event's launch out of order",
			    k->file);
		if (!c.charged) {
			size_t base = c.pushed ? n - 1 : 0, i;

			c.l = -1;
			for (i = base; i-- > 0;) {
				if (st[i].cat == C_PYTHON)
					continue;
				if (st[i].cat != C_CPU_OP)
					break;
				if (name_is(k, st[i].name, "execute"))
					continue;
				c.l = st[i].idx;
				c.lts = st[i].ts;
				break;
			}
			if (c.l < 0) {
				c.l = c.idx;
				c.lts = c.ts;
				c.frec = 1;
				if (c.pushed) {
					st[n - 1].frec = 1;
					st[n - 1].near = c.idx;
				}
			}
			c.via = c.frec ? (int64_t)c.idx : c.rp;
			if (c.via == c.l)
				c.via = -1;
			c.charged = true;
		}
		{
			struct tr t;
			struct sub s;
			size_t i;

			memset(&t, 0, sizeof(t));
			t.kn = p->kn;
			t.parent = -1;
			t.launcher = c.l;
			t.lts = c.lts;
			t.via = c.via;
			spsort_add(trs, &t);
			memset(&s, 0, sizeof(s));
			s.g_ts = p->gts;
			s.g_end = p->gts + p->dur;
			s.g_idx = p->gidx;
			s.g_name = p->name;
			if (c.frec) {
				s.p_kn = c.kn;
				s.p_name = c.name;
				spsort_add(subs, &s);
			}
			for (i = c.pushed ? n - 1 : 0; i-- > 0;)
				if (st[i].frec) {
					s.p_kn = st[i].kn;
					s.p_name = st[i].name;
					spsort_add(subs, &s);
				}
		}
	}
	cur_done(&c, trs);
	free(st);
}

/* Each op's subtree: the busy time of the GPU events below it and, for a GEMM-family op,
 * their names in time order (subtree_kernels). */
static void
sub_stream(struct kin *k, struct spsort *subs, struct spsort *res, struct spool *txt)
{
	const struct sub *p;
	struct subres r;
	struct js_writer w;
	int64_t a = 0, b = 0;
	bool on = false, gemm = false;

	memset(&r, 0, sizeof(r));
	for (;;) {
		p = spsort_next(subs);
		if (on && (p == NULL || p->p_kn != r.kn)) {
			r.busy += b - a;
			if (gemm) {
				js_w_end_array(&w);
				r.off = spool_add(txt, k->tmp.p, k->tmp.len);
				r.len = (uint32_t)k->tmp.len;
			}
			spsort_add(res, &r);
			on = false;
		}
		if (p == NULL)
			break;
		if (!on) {
			memset(&r, 0, sizeof(r));
			r.kn = p->p_kn;
			a = p->g_ts;
			b = p->g_end;
			on = true;
			gemm = is_gemm(k, p->p_name);
			if (gemm) {
				buf_reset(&k->tmp);
				js_w_init(&w, &k->tmp);
				js_w_array(&w);
			}
		} else if (p->g_ts <= b) {
			if (p->g_end > b)
				b = p->g_end;
		} else {
			r.busy += b - a;
			a = p->g_ts;
			b = p->g_end;
		}
		r.ns++;
		if (gemm)
			js_w_str(&w, k->names.str[p->g_name], k->names.len[p->g_name]);
	}
}

/* Each GPU event's final link (the last of its links in lr), attached to its launch in
 * the tree order. Returns how many GPU events are linked. */
static size_t
attach_links(struct spsort *lr, struct spsort *tree)
{
	const struct lr *l = spsort_next(lr);
	size_t nlinked = 0;

	while (l != NULL) {
		struct lr keep = *l;
		struct tn t;

		while ((l = spsort_next(lr)) != NULL && l->g_kn == keep.g_kn)
			keep = *l;
		memset(&t, 0, sizeof(t));
		t.thr = keep.r_thr;
		t.ts = keep.r_ts;
		t.idx = keep.r_idx;
		t.sub = 1;
		t.gidx = keep.g_idx;
		t.kn = keep.g_kn;
		t.dur = keep.g_dur;
		t.gts = keep.g_ts;
		t.name = keep.g_name;
		t.comm = keep.g_comm;
		spsort_add(tree, &t);
		nlinked++;
	}
	return nlinked;
}

/*
 * The records of a trace read into k->fsp and k->lk (no capture folder), by external
 * sorts: the links by linking id (and correlation), the tree per thread with each
 * launch's GPU events attached, the subtrees by op, the Sequence numbers, then every
 * output record in kin_by_oi's order. The same records as the in-memory path's
 * (kin_write_records), in the same order.
 */
void
kin_stream_records(struct kin *k)
{
	struct spsort *tree = spsort_new(sizeof(struct tn), by_tn);
	struct spsort *sqs = spsort_new(sizeof(struct sq), kin_by_sq);
	struct spsort *lr, *trs, *subs, *res, *fws, *out, *ans;
	struct spool *txt;
	size_t nlinked;
	struct xev x;
	uint64_t kn;

	/* the events by linking id, by thread and time, by Sequence number */
	k->n_gpu = 0;
	for (kn = 0; kn < k->nev; kn++) {
		int64_t lv;

		xev_get(k, kn, &x);
		lv = k->key_corr ? x.corr : x.ext;
		if (IS_GPU(x.cat))
			k->n_gpu++;
		if (lv != NOVAL) {
			struct lk o;

			kin_lk_of(k, &x, (uint32_t)kn, lv, &o);
			spsort_add(k->lk, &o);
		}
		if (is_host(x.cat)) {
			struct tn t;

			memset(&t, 0, sizeof(t));
			t.thr = x.thr;
			t.ts = x.ts;
			t.idx = x.idx;
			t.kn = (uint32_t)kn;
			t.dur = x.dur;
			t.name = x.name;
			t.cat = x.cat;
			spsort_add(tree, &t);
		}
		if (x.seq != NOVAL) {
			static const char pre[] = "autograd::engine::evaluate_function:";
			struct sq o;

			memset(&o, 0, sizeof(o));
			o.seq = x.seq;
			o.ts = x.ts;
			o.idx = x.idx;
			o.kn = (uint32_t)kn;
			o.thr = x.thr;
			o.bwd = strncmp(names_str(&k->names, x.name), pre, sizeof(pre) - 1) == 0;
			spsort_add(sqs, &o);
		}
	}
	/* the links, per linking id; each GPU event's last one attached to its launch */
	lr = kin_link_stream(k);
	nlinked = attach_links(lr, tree);
	spsort_free(lr);
	k->n_unlinked = k->n_gpu - nlinked;
	/* the tree */
	trs = spsort_new(sizeof(struct tr), by_tr);
	subs = spsort_new(sizeof(struct sub), by_sub);
	tree_stream(k, tree, trs, subs);
	spsort_free(tree);
	res = spsort_new(sizeof(struct subres), by_kn);
	txt = spool_open();
	sub_stream(k, subs, res, txt);
	spsort_free(subs);
	fws = spsort_new(sizeof(struct fw), by_kn);
	kin_fwd_stream(k, sqs, fws);
	spsort_free(sqs);
	/* the records, in output order */
	out = spsort_new(sizeof(struct oi), kin_by_oi);
	ans = spsort_new(sizeof(struct an), kin_by_an);
	kin_join_stream(k, trs, fws, res, out, ans);
	spsort_free(trs);
	spsort_free(fws);
	spsort_free(res);
	kin_write_stream(k, out, ans, txt);
	spsort_free(out);
	spsort_free(ans);
	spool_close(txt);
}
