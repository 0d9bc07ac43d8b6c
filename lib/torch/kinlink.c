/* SPDX-License-Identifier: ISC */
/*
 * kinlink: the Kineto reader's links (kinpriv.h), by TraceLens's rules
 * (docs/tracelens.md §1.4.1, §1.4.4, §1.4.6): each GPU event to the launch that
 * launched it, through the linking key's ac2g flow or a graph launch, or by correlation
 * when no flow links anything; each backward op to its forward op by Sequence number.
 * Both paths' versions side by side, the same rules: kin_link_gpu and kin_link_fwd_bwd
 * on the events in memory (a capture folder), kin_link_stream and kin_fwd_stream over
 * the streaming path's sorts (kintree.c's kin_stream_records runs them).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/diag.h"
#include "core/names.h"
#include "core/spool.h"
#include "kinpriv.h"

static const struct kin *cmp_k;

/* --- GPU links (§1.4.4, §1.5) ------------------------------------------------------- */

static int64_t
linkval(const struct kin *k, const struct kev *v)
{
	return kv_get(k, k->key_corr ? v->corr : v->ext);
}

/* The name matches rccl|nccl|cross_device_reduce, case-insensitively (§1.5). */
bool
kin_is_comm(const char *s)
{
	for (; *s != '\0'; s++) {
		int c = tolower((unsigned char)*s);

		if (c == 'r' && strncasecmp(s, "rccl", 4) == 0)
			return true;
		if (c == 'n' && strncasecmp(s, "nccl", 4) == 0)
			return true;
		if (c == 'c' && strncasecmp(s, "cross_device_reduce", 19) == 0)
			return true;
	}
	return false;
}

static bool
is_graph_launch(const char *s)
{
	return strcmp(s, "cudaGraphLaunch") == 0 || strcmp(s, "hipGraphLaunch") == 0;
}

static void
link(struct kin *k, int32_t g, int32_t r)
{
	if (KEV(k, g)->linker < 0)
		k->n_unlinked--;
	KEV(k, g)->linker = r;
}

/* Pass one of kin_link_gpu: the GPU events counted (all unlinked yet), communication
 * kernels marked and, per linking id, chained in trace order (graph: the first, gnext[]:
 * the next); every event with a linking id and a thread indexed by (thread, id) in pt. */
static void
index_events(struct kin *k, struct imap *pt, struct imap *graph, int32_t *gnext)
{
	int32_t *gtail = NULL;
	size_t i;

	k->n_gpu = k->n_unlinked = 0;
	for (i = 0; i < k->nev; i++) {
		struct kev *v = KEV(k, i);
		int64_t lv = linkval(k, v), key[2] = { v->thr, lv };

		gnext[i] = -1;
		if (IS_GPU(v->cat)) {
			k->n_gpu++;
			k->n_unlinked++;
			if (kin_is_comm(names_str(&k->names, v->name)))
				v->flags |= F_COMM;
			if (lv != NOVAL) {
				size_t before = graph->nm.n;
				uint32_t s = imap_slot(graph, &lv, 1);

				gtail = xreallocarray(gtail, graph->cap, sizeof(*gtail));
				if (graph->nm.n > before)
					graph->val[s] = (int64_t)i;	/* the first */
				else
					gnext[gtail[s]] = (int32_t)i;
				gtail[s] = (int32_t)i;
			}
		}
		if (lv != NOVAL && KEV_PID(k, v) != NOVAL && KEV_TID(k, v) != NOVAL)
			imap_put(pt, key, 2, (int64_t)i);
	}
	free(gtail);
}

/* Launch r (linking id lv) linked through its ac2g flow: to the GPU event with that id
 * on the flow finish's (pid, tid). */
static void
link_by_flow(struct kin *k, const struct imap *pt, int32_t r, int64_t lv)
{
	int64_t one, key[2], g;
	uint32_t fi;

	if (!imap_get(&k->flow_s, &lv, 1, &one))
		return;
	fi = names_lookup(&k->flow_f.nm, (const char *)&lv, sizeof(lv));
	if (fi == NAME_NONE) {
		k->n_flow_unpaired++;
		return;
	}
	key[0] = k->f_pid[fi];
	key[1] = k->f_tid[fi];
	if (!imap_get(&k->thr, key, 2, &key[0]))
		return;		/* no kept event on that thread */
	key[1] = lv;
	if (imap_get(pt, key, 2, &g) && IS_GPU(KEV(k, g)->cat)) {
		link(k, (int32_t)g, r);
		k->n_flow_links++;
	}
}

/*
 * A trace whose flows link nothing (it has none, or none that ends on a GPU event):
 * each launch linked to the GPU event with its args.correlation, as Kineto pairs them
 * (the last such event in the trace, as TraceLens would find it given one ac2g pair per
 * launch and GPU event). Graph launches keep their own rule.
 */
static void
link_by_corr(struct kin *k)
{
	struct imap byc = { 0 };
	int64_t g, c;
	size_t i;

	for (i = 0; i < k->nev; i++)
		if (IS_GPU(KEV(k, i)->cat) && (c = kv_get(k, KEV(k, i)->corr)) != NOVAL)
			imap_put(&byc, &c, 1, (int64_t)i);
	for (i = 0; i < k->nev; i++) {
		struct kev *r = KEV(k, i);

		c = kv_get(k, r->corr);
		if (!IS_LAUNCH(r->cat) || c == NOVAL ||
		    is_graph_launch(names_str(&k->names, r->name)))
			continue;
		if (imap_get(&byc, &c, 1, &g)) {
			link(k, (int32_t)g, (int32_t)i);
			k->linked_by_corr = true;
		}
	}
	imap_free(&byc);
}

void
kin_link_gpu(struct kin *k)
{
	struct imap pt = { 0 }, graph = { 0 };
	int32_t *gnext = xreallocarray(NULL, k->nev + 1, sizeof(*gnext));
	size_t i;

	index_events(k, &pt, &graph, gnext);
	for (i = 0; i < k->nev; i++) {
		struct kev *r = KEV(k, i);
		int64_t lv = linkval(k, r), g;

		if (!IS_LAUNCH(r->cat) || lv == NOVAL)
			continue;
		if (!is_graph_launch(names_str(&k->names, r->name)))
			link_by_flow(k, &pt, (int32_t)i, lv);
		else if (imap_get(&graph, &lv, 1, &g))
			for (; g >= 0; g = gnext[g])
				link(k, (int32_t)g, (int32_t)i);
	}
	if (k->n_flow_links == 0 && k->n_unlinked > 0)
		link_by_corr(k);
	free(gnext);
	imap_free(&pt);
	imap_free(&graph);
}

/* §1.4.6: per Sequence number, the first autograd::engine::evaluate_function: event is
 * the backward op; its forward op is the latest one with that number on another thread. */
static int
by_seq(const void *a, const void *b)
{
	const struct kev *x = KEV(cmp_k, *(const int32_t *)a);
	const struct kev *y = KEV(cmp_k, *(const int32_t *)b);
	int64_t xs = kv_get(cmp_k, x->seq), ys = kv_get(cmp_k, y->seq);

	if (xs != ys)
		return xs < ys ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void
kin_link_fwd_bwd(struct kin *k)
{
	static const char pre[] = "autograd::engine::evaluate_function:";
	int32_t *s = xreallocarray(NULL, k->nev + 1, sizeof(*s));
	size_t n = 0, i, j, m;

	for (i = 0; i < k->nev; i++)
		if (KEV(k, i)->seq != KV_NONE)
			s[n++] = (int32_t)i;
	cmp_k = k;
	qsort(s, n, sizeof(*s), by_seq);
	for (i = 0; i < n; i = j) {
		struct kev *bwd = NULL;
		int32_t fwd = -1;

		for (j = i; j < n && kv_get(k, KEV(k, s[j])->seq) == kv_get(k, KEV(k, s[i])->seq); j++)
			;
		for (m = i; m < j && bwd == NULL; m++)
			if (strncmp(names_str(&k->names, KEV(k, s[m])->name), pre,
			    sizeof(pre) - 1) == 0)
				bwd = KEV(k, s[m]);
		if (bwd == NULL)
			continue;
		for (m = i; m < j; m++) {
			struct kev *e = KEV(k, s[m]);

			if (e->thr == bwd->thr)
				continue;
			if (fwd < 0 || e->ts > KEV(k, fwd)->ts)
				fwd = s[m];
		}
		bwd->fwd = fwd;
	}
	free(s);
}

/* --- streaming ---------------------------------------------------------------------- */

int
kin_by_lk(const void *a, const void *b)
{
	const struct lk *x = a, *y = b;

	if (x->lv != y->lv)
		return x->lv < y->lv ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
by_lr(const void *a, const void *b)
{
	const struct lr *x = a, *y = b;

	if (x->g_kn != y->g_kn)
		return x->g_kn < y->g_kn ? -1 : 1;
	return x->prio < y->prio ? -1 : x->prio > y->prio;
}

int
kin_by_sq(const void *a, const void *b)
{
	const struct sq *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* A group of records with one key (linking id, correlation, Sequence number): the
 * records that share it, held while it is read. */
struct group {
	void	*v;
	size_t	 n, cap, sz;
};

static void
group_add(struct group *g, const void *r)
{
	g->v = xgrow(g->v, &g->cap, g->n + 1, g->sz);
	memcpy((char *)g->v + g->n * g->sz, r, g->sz);
	g->n++;
}

/* One linking id's events and flows (§1.4.4): each GPU event linked to the last
 * launch (in trace order) that links it, through its flow or as a graph launch, as
 * kin_link_gpu does. Returns how many GPU events it linked. */
static size_t
link_group(struct kin *k, const struct lk *g, size_t n, struct spsort *lr, int32_t **lnk,
    size_t *lcap)
{
	const struct lk *f = NULL, *last = NULL;
	bool has_s = false;
	int64_t tf = -1, t;
	size_t i, j, nl = 0;

	*lnk = xgrow(*lnk, lcap, n, sizeof(**lnk));
	for (i = 0; i < n; i++) {
		(*lnk)[i] = -1;
		if (g[i].kind == LK_S)
			has_s = true;
		else if (g[i].kind == LK_F)
			f = &g[i];
	}
	if (f != NULL) {
		int64_t key[2] = { f->pid, f->tid };

		if (imap_get(&k->thr, key, 2, &t))
			tf = t;
	}
	for (i = 0; i < n && tf >= 0; i++)
		if (g[i].kind == LK_EV && g[i].thr == (uint32_t)tf && g[i].pidok)
			last = &g[i];
	for (i = 0; i < n; i++) {
		if (g[i].kind != LK_EV || !IS_LAUNCH(g[i].cat))
			continue;
		if (!g[i].graph) {
			if (!has_s)
				continue;
			if (f == NULL) {
				k->n_flow_unpaired++;
				continue;
			}
			if (last != NULL && IS_GPU(last->cat)) {
				(*lnk)[last - g] = (int32_t)i;
				k->n_flow_links++;
			}
		} else
			for (j = 0; j < n; j++)
				if (g[j].kind == LK_EV && IS_GPU(g[j].cat))
					(*lnk)[j] = (int32_t)i;
	}
	for (j = 0; j < n; j++) {
		const struct lk *r, *x = &g[j];
		struct lr o;

		if ((*lnk)[j] < 0)
			continue;
		r = &g[(*lnk)[j]];
		memset(&o, 0, sizeof(o));
		o.g_kn = x->kn;
		o.g_ts = x->ts;
		o.g_dur = x->dur;
		o.g_idx = x->idx;
		o.g_name = x->name;
		o.g_comm = kin_is_comm(names_str(&k->names, x->name));
		o.r_kn = r->kn;
		o.r_idx = r->idx;
		o.r_thr = r->thr;
		o.r_ts = r->ts;
		spsort_add(lr, &o);
		nl++;
	}
	return nl;
}

void
kin_lk_of(struct kin *k, const struct xev *x, uint32_t kn, int64_t lv, struct lk *o)
{
	memset(o, 0, sizeof(*o));
	o->lv = lv;
	o->ts = x->ts;
	o->dur = x->dur;
	o->idx = x->idx;
	o->kn = kn;
	o->thr = x->thr;
	o->name = x->name;
	o->kind = LK_EV;
	o->cat = x->cat;
	o->graph = IS_LAUNCH(x->cat) && is_graph_launch(names_str(&k->names, x->name));
	o->pidok = k->thr_pid[x->thr] != NOVAL && k->thr_tid[x->thr] != NOVAL;
}

/* No flow linked anything: the correlation fallback (link_by_corr), per correlation id
 * the last GPU event linked to the last launch. */
static void
link_corr_stream(struct kin *k, struct spsort *lr)
{
	struct spsort *cr = spsort_new(sizeof(struct lk), kin_by_lk);
	const struct lk *p;
	struct lk o, g, r;
	struct xev x;
	uint64_t kn;
	bool hg = false, hr = false, any = false;
	int64_t cur = NOVAL;

	memset(&g, 0, sizeof(g));
	memset(&r, 0, sizeof(r));
	for (kn = 0; kn < k->nev; kn++) {
		xev_get(k, kn, &x);
		if (x.corr == NOVAL)
			continue;
		kin_lk_of(k, &x, (uint32_t)kn, x.corr, &o);
		if (IS_GPU(x.cat) || (IS_LAUNCH(x.cat) && !o.graph))
			spsort_add(cr, &o);
	}
	for (;;) {
		p = spsort_next(cr);
		if ((p == NULL || !any || p->lv != cur) && hg && hr) {
			struct lr l;

			memset(&l, 0, sizeof(l));
			l.prio = 1;
			l.g_kn = g.kn;
			l.g_ts = g.ts;
			l.g_dur = g.dur;
			l.g_idx = g.idx;
			l.g_name = g.name;
			l.g_comm = kin_is_comm(names_str(&k->names, g.name));
			l.r_kn = r.kn;
			l.r_idx = r.idx;
			l.r_thr = r.thr;
			l.r_ts = r.ts;
			spsort_add(lr, &l);
			k->linked_by_corr = true;
		}
		if (p == NULL)
			break;
		if (!any || p->lv != cur)
			hg = hr = false;
		any = true;
		cur = p->lv;
		if (IS_GPU(p->cat)) {
			g = *p;
			hg = true;
		} else {
			r = *p;
			hr = true;
		}
	}
	spsort_free(cr);
}

/* The links of the events and flows in k->lk (which it frees), per linking id, then,
 * when no flow linked anything, by correlation: each GPU event's links to launches
 * (struct lr), in by_lr's order. */
struct spsort *
kin_link_stream(struct kin *k)
{
	struct spsort *lr = spsort_new(sizeof(struct lr), by_lr);
	struct group grp = { NULL, 0, 0, sizeof(struct lk) };
	int32_t *lnk = NULL;
	size_t lcap = 0, nlinked = 0;
	const struct lk *q;

	for (;;) {
		q = spsort_next(k->lk);
		if (grp.n > 0 && (q == NULL || q->lv != ((struct lk *)grp.v)[0].lv)) {
			nlinked += link_group(k, grp.v, grp.n, lr, &lnk, &lcap);
			grp.n = 0;
		}
		if (q == NULL)
			break;
		group_add(&grp, q);
	}
	free(grp.v);
	free(lnk);
	spsort_free(k->lk);
	k->lk = NULL;
	if (k->n_flow_links == 0 && k->n_gpu > nlinked)
		link_corr_stream(k, lr);
	return lr;
}

/* §1.4.6, as kin_link_fwd_bwd: per Sequence number, the backward op and its forward. */
void
kin_fwd_stream(struct kin *k, struct spsort *sqs, struct spsort *fws)
{
	struct group g = { NULL, 0, 0, sizeof(struct sq) };
	const struct sq *p;
	size_t i;

	for (;;) {
		p = spsort_next(sqs);
		if (g.n > 0 && (p == NULL || p->seq != ((struct sq *)g.v)[0].seq)) {
			const struct sq *v = g.v, *bwd = NULL, *fwd = NULL;

			for (i = 0; i < g.n && bwd == NULL; i++)
				if (v[i].bwd)
					bwd = &v[i];
			for (i = 0; bwd != NULL && i < g.n; i++) {
				if (v[i].thr == bwd->thr)
					continue;
				if (fwd == NULL || v[i].ts > fwd->ts)
					fwd = &v[i];
			}
			if (fwd != NULL) {
				struct fw f = { bwd->kn, fwd->idx };

				spsort_add(fws, &f);
			}
			g.n = 0;
		}
		if (p == NULL)
			break;
		group_add(&g, p);
	}
	free(g.v);
}
