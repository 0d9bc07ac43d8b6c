/* SPDX-License-Identifier: ISC */
/*
 * kinwrite: the Kineto reader's records (ttp-record(5)), written from the output items
 * (kinpriv.h's struct oi) in kin_by_oi's order: the trace record (with the signposts, the
 * counts of what was linked and ignored) and the process groups' records first, then
 * each op with its own GPU events right after it, the other GPU events and the
 * signposts at their own start. Both paths end here: kin_join_stream makes the
 * streaming path's items from what its passes learnt, kintree.c's kin_write_records
 * the in-memory path's; kin_write_stream writes either.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "kinpriv.h"

static void
set_id(struct kin *k, struct rec *r, const char *key, int64_t v)
{
	if (v == NOVAL)
		return;
	if (v >= STRVAL && v <= STRMAX) {
		uint32_t i = (uint32_t)(v - STRVAL);

		rec_set_strn(r, key, k->strs.str[i], k->strs.len[i]);
	} else
		rec_set_int(r, key, v);
}

/* A new record of kind for the event at traceEvents[idx]. */
static struct rec *
new_rec_idx(struct kin *k, const char *kind, uint32_t idx)
{
	struct rec *r = rec_new();

	rec_set_str(r, "kind", kind);
	rec_set_str(r, "trace", "kineto");
	rec_set_int(r, "id", idx);
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	return r;
}

static void
set_name(struct kin *k, struct rec *r, const char *key, uint32_t name)
{
	rec_set_strn(r, key, k->names.str[name], k->names.len[name]);
}

/* pid, tid and the names of the thread, the process and its labels, for thread thr. */
static void
set_thread_thr(struct kin *k, struct rec *r, uint32_t thr)
{
	int64_t key[2] = { k->thr_pid[thr], k->thr_tid[thr] }, x;

	set_id(k, r, "pid", key[0]);
	set_id(k, r, "tid", key[1]);
	if (imap_get(&k->thread_name, key, 2, &x))
		set_name(k, r, "thread", (uint32_t)x);
	if (imap_get(&k->process_name, key, 1, &x))
		set_name(k, r, "process", (uint32_t)x);
	if (imap_get(&k->process_label, key, 1, &x))
		set_name(k, r, "process_label", (uint32_t)x);
}

/* A GPU event's class, from its name, category and flags (F_COMM). */
static const char *
gpu_class_of(const struct kin *k, uint32_t name, int cat, int flags)
{
	const char *s = names_str(&k->names, name);
	size_t n = strlen(s);

	if (cat == C_MEMCPY)
		return "memcpy";
	if (cat == C_KERNEL) {
		/* ROCm's legacy copy and fill kernels (docs/tracelens.md §2) */
		if (n > 3 && strcmp(s + n - 3, ".kd") == 0)
			n -= 3;
		if (n > 12 && strncmp(s, "MEMORY_COPY_", 12) == 0 &&
		    ((n - 12 == 14 && (strncmp(s + 12, "HOST_TO_DEVICE", 14) == 0 ||
		    strncmp(s + 12, "DEVICE_TO_HOST", 14) == 0)) ||
		    (n - 12 == 16 && strncmp(s + 12, "DEVICE_TO_DEVICE", 16) == 0)))
			return "memcpy";
		if (strncmp(s, "__amd_rocclr_copyBuffer", 23) == 0) {
			size_t i = 23;

			if (n - i >= 4 && strncmp(s + i, "Rect", 4) == 0)
				i += 4;
			if (n - i >= 7 && strncmp(s + i, "Aligned", 7) == 0)
				i += 7;
			if (i == n)
				return "memcpy";
		}
		if (strncmp(s, "__amd_rocclr_fillBuffer", 23) == 0 &&
		    (n == 23 || (n == 30 && strncmp(s + 23, "Aligned", 7) == 0)))
			return "comp";
	}
	return (flags & F_COMM) ? "comm" : "comp";
}

static const char *
gpu_kind(int cat)
{
	return cat == C_KERNEL ? "kernel" : cat == C_MEMCPY ? "memcpy" : "memset";
}

static const struct kin *cmp_ign;

static int
by_ignored(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t nx = cmp_ign->ign_n[x], ny = cmp_ign->ign_n[y];

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* "ignored_cats": each category of the events not read, with its count, most first
 * (ties in the order met). */
static void
set_ignored_cats(struct kin *k, struct rec *r)
{
	size_t n = k->ign_cats.n, i;
	uint32_t *v = xreallocarray(NULL, n + 1, sizeof(*v));
	struct js_writer w;

	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	cmp_ign = k;
	qsort(v, n, sizeof(*v), by_ignored);
	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++) {
		js_w_object(&w);
		js_w_key(&w, "cat");
		js_w_str(&w, k->ign_cats.str[v[i]], k->ign_cats.len[v[i]]);
		js_w_key(&w, "n");
		js_w_int(&w, (long long)k->ign_n[v[i]]);
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
	rec_set_raw(r, "ignored_cats", k->tmp.p, k->tmp.len);
	free(v);
}

/* The trace record; sig: its "signposts", a JSON array. */
static void
write_trace_rec(struct kin *k, const struct buf *sig)
{
	struct rec *r = rec_new();

	rec_set_str(r, "kind", "trace");
	rec_set_str(r, "trace", "kineto");
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	rec_set_str(r, "file", k->file);
	rec_set_str(r, "format", "kineto");
	if (k->devices.len > 0)
		rec_set_raw(r, "devices", k->devices.p, k->devices.len);
	rec_set_raw(r, "signposts", sig->p, sig->len);
	if (k->has_dist) {
		rec_set_raw(r, "distributed", k->dist.p, k->dist.len);
		/* TraceLens's gpus_per_node: the GPUs the rank's node shows */
		if (k->rank >= 0 && rec_count(r, "devices") > 0)
			rec_set_int(r, "gpus_per_node", (long long)rec_count(r, "devices"));
	}
	rec_set_int(r, "events", k->nevents);
	rec_set_str(r, "linking_key", k->key_corr ? "correlation" : "External id");
	rec_set_str(r, "linked_by", k->linked_by_corr ? "correlation" : "flow");
	rec_set_int(r, "gpu_events", (long long)k->n_gpu);
	rec_set_int(r, "unlinked", (long long)k->n_unlinked);
	rec_set_bool(r, "gpu_only", !k->has_cpu_op);
	rec_set_int(r, "ignored", (long long)k->n_ignored);
	set_ignored_cats(k, r);
	rec_set_int(r, "flows_unpaired", (long long)k->n_flow_unpaired);
	if (k->n_inexact > 0)
		rec_set_int(r, "times_rounded", (long long)k->n_inexact);	/* to whole ns */
	if (k->cap_folder != NULL) {
		rec_set_str(r, "capture_folder", k->cap_folder);
		rec_set_int(r, "capture_merged", (long long)k->cap_merged);
		rec_set_int(r, "capture_events", (long long)k->cap_events);
		if (k->cap_classified)
			rec_set_bool(r, "capture_classified", true);
	}
	rec_write(r, k->out);
	rec_free(r);
}

/* One "group" record per process group its collective kernels name: its name and its
 * rank list as the kernels' args write them (Process Group Name, Process Group Ranks),
 * which their gpu records leave out: at 1,024 ranks the list would be most of them. */
static void
write_groups(struct kin *k)
{
	size_t i;

	for (i = 0; i < k->pg.n; i++) {
		struct rec *r = rec_new();
		uint32_t rl = k->pg_ranks[i];

		rec_set_str(r, "kind", "group");
		rec_set_str(r, "trace", "kineto");
		if (k->rank >= 0)
			rec_set_int(r, "rank", k->rank);
		rec_set_raw(r, "group", k->pg.str[i], k->pg.len[i]);
		rec_set_raw(r, "group_ranks", k->pgr.str[rl], k->pgr.len[rl]);
		rec_write(r, k->out);
		rec_free(r);
	}
}

/* --- the output items --------------------------------------------------------------- */

int
kin_by_oi(const void *a, const void *b)
{
	const struct oi *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	if (x->t2 != y->t2)
		return x->t2 < y->t2 ? -1 : 1;
	return x->e.idx < y->e.idx ? -1 : x->e.idx > y->e.idx;
}

int
kin_by_an(const void *a, const void *b)
{
	const struct an *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* "kernels" of an op: its GPU events g[0..n), in time order. */
static void
set_kernels(struct kin *k, struct rec *r, const struct oi *g, size_t n)
{
	struct js_writer w;
	size_t i;

	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++) {
		const struct xev *e = &g[i].e;

		js_w_object(&w);
		js_w_key(&w, "id");
		js_w_int(&w, e->idx);
		js_w_key(&w, "name");
		js_w_str(&w, k->names.str[e->name], k->names.len[e->name]);
		if (e->stream != NOVAL) {
			js_w_key(&w, "stream");
			js_w_int(&w, e->stream);
		}
		js_w_key(&w, "start_ns");
		js_w_int(&w, e->ts);
		js_w_key(&w, "ns");
		js_w_int(&w, e->dur);
		js_w_key(&w, "class");
		js_w_strz(&w, gpu_class_of(k, e->name, e->cat, e->flags));
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
	rec_set_raw(r, "kernels", k->tmp.p, k->tmp.len);
}

/* An op's record from its output item and its GPU events g[0..n) (time order): own
 * kernels, device_ns and the launcher flag from them, the rest from the item. */
static void
write_op(struct kin *k, const struct oi *o, const struct oi *g, size_t n,
    struct spool *txt)
{
	const struct xev *v = &o->e;
	struct rec *r = new_rec_idx(k, "op", v->idx);
	int64_t a = 0, b = 0, busy = 0;
	size_t i, nc = 0;

	set_name(k, r, "op", v->name);
	rec_set_str(r, "cat", kin_catname[v->cat]);
	if (o->parent >= 0)
		rec_set_int(r, "parent", o->parent);
	for (i = 0; i < n; i++) {	/* busy time of the non-communication ones */
		const struct xev *e = &g[i].e;

		if (e->flags & F_COMM)
			continue;
		if (nc++ == 0) {
			a = e->ts;
			b = e->ts + e->dur;
		} else if (e->ts <= b) {
			if (e->ts + e->dur > b)
				b = e->ts + e->dur;
		} else {
			busy += b - a;
			a = e->ts;
			b = e->ts + e->dur;
		}
	}
	rec_set_bool(r, "launcher", nc > 0);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	if (nc > 0)
		rec_set_int(r, "device_ns", busy + (b - a));
	if (o->ns > 0)
		rec_set_int(r, "subtree_ns", o->busy);
	if (n > 0)
		set_kernels(k, r, g, n);
	if (o->ns > n && o->slen > 0)
		rec_set_raw(r, "subtree_kernels", spool_get(txt, o->soff, o->slen), o->slen);
	if (v->in_len > 0)
		rec_set_raw(r, "in", spool_get(k->sp, v->in_off, v->in_len), v->in_len);
	set_thread_thr(k, r, v->thr);
	if (v->seq != NOVAL)
		rec_set_int(r, "seq", v->seq);
	if (o->fwd >= 0)
		rec_set_int(r, "fwd", o->fwd);
	set_id(k, r, "ext", v->ext);
	rec_write(r, k->out);
	rec_free(r);
}

static void
write_gpu(struct kin *k, const struct oi *o)
{
	const struct xev *g = &o->e;
	struct rec *r = new_rec_idx(k, "gpu", g->idx);

	set_name(k, r, "name", g->name);
	rec_set_str(r, "gpu", gpu_kind(g->cat));
	rec_set_str(r, "class", gpu_class_of(k, g->name, g->cat, g->flags));
	if (g->stream != NOVAL)
		rec_set_int(r, "stream", g->stream);
	if (g->device != NOVAL)
		rec_set_int(r, "device", g->device);
	rec_set_int(r, "start_ns", g->ts);
	rec_set_int(r, "ns", g->dur);
	if (o->launcher >= 0) {
		rec_set_int(r, "launched_by", o->launcher);
		if (o->via >= 0)
			rec_set_int(r, "launch_via", o->via);
	}
	set_id(k, r, "correlation", g->corr);
	if (g->in_len > 0)
		rec_set_raw(r, "comm", spool_get(k->sp, g->in_off, g->in_len), g->in_len);
	rec_write(r, k->out);
	rec_free(r);
}

static void
write_signpost(struct kin *k, const struct oi *o)
{
	const struct xev *v = &o->e;
	struct rec *r = new_rec_idx(k, "signpost", v->idx);

	set_name(k, r, "name", v->name);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	set_thread_thr(k, r, v->thr);
	rec_write(r, k->out);
	rec_free(r);
}

/* The events joined with what the passes learnt of them (all sorted by kept number),
 * each record to write as an output item; the signposts apart. */
void
kin_join_stream(struct kin *k, struct spsort *trs, struct spsort *fws, struct spsort *res,
    struct spsort *out, struct spsort *ans)
{
	const struct tr *t = spsort_next(trs);
	const struct fw *f = spsort_next(fws);
	const struct subres *s = spsort_next(res);
	uint64_t kn;
	struct oi o;

	for (kn = 0; kn < k->nev; kn++) {
		bool frec = false;

		memset(&o, 0, sizeof(o));
		xev_get(k, kn, &o.e);
		o.parent = o.fwd = o.launcher = o.via = -1;
		while (t != NULL && t->kn < kn)
			t = spsort_next(trs);
		while (f != NULL && f->kn < kn)
			f = spsort_next(fws);
		while (s != NULL && s->kn < kn)
			s = spsort_next(res);
		if (t != NULL && t->kn == kn) {
			frec = t->frec;
			o.parent = t->parent;
			o.launcher = t->launcher;
			o.via = t->via;
			if (t->launcher >= 0) {
				o.t = t->lts;
				o.grp = (uint32_t)t->launcher;
				o.sub = 1;
				o.t2 = o.e.ts;
			}
		}
		if (IS_GPU(o.e.cat)) {
			if (kin_is_comm(names_str(&k->names, o.e.name)))
				o.e.flags |= F_COMM;
			if (o.launcher < 0) {
				o.t = o.e.ts;
				o.grp = o.e.idx;
			}
			spsort_add(out, &o);
			continue;
		}
		if (o.e.cat == C_ANNOT) {
			struct an a = { o.e.ts, o.e.idx, o.e.name };

			o.t = o.e.ts;
			o.grp = o.e.idx;
			spsort_add(out, &o);
			spsort_add(ans, &a);
			continue;
		}
		if (!frec)
			continue;
		o.t = o.e.ts;
		o.grp = o.e.idx;
		if (f != NULL && f->kn == kn)
			o.fwd = f->fwd;
		if (s != NULL && s->kn == kn) {
			o.ns = s->ns;
			o.busy = s->busy;
			o.soff = s->off;
			o.slen = s->len;
		}
		spsort_add(out, &o);
	}
}

void
kin_write_stream(struct kin *k, struct spsort *out, struct spsort *ans, struct spool *txt)
{
	struct buf sig = BUF_INIT;
	struct js_writer w;
	const struct an *a;
	const struct oi *p;
	struct oi *g = NULL, cur;
	size_t ng, cap = 0, i;

	js_w_init(&w, &sig);
	js_w_array(&w);
	while ((a = spsort_next(ans)) != NULL)
		js_w_str(&w, k->names.str[a->name], k->names.len[a->name]);
	js_w_end_array(&w);
	write_trace_rec(k, &sig);
	write_groups(k);
	buf_free(&sig);
	p = spsort_next(out);
	while (p != NULL) {
		cur = *p;
		if (IS_GPU(cur.e.cat)) {
			write_gpu(k, &cur);
			p = spsort_next(out);
			continue;
		}
		if (cur.e.cat == C_ANNOT) {
			write_signpost(k, &cur);
			p = spsort_next(out);
			continue;
		}
		/* an op: its own GPU events follow it */
		ng = 0;
		while ((p = spsort_next(out)) != NULL && p->sub == 1 && p->grp == cur.e.idx) {
			g = xgrow(g, &cap, ng + 1, sizeof(*g));
			g[ng++] = *p;
		}
		write_op(k, &cur, g, ng, txt);
		for (i = 0; i < ng; i++)
			write_gpu(k, &g[i]);
	}
	free(g);
}
