/* SPDX-License-Identifier: ISC */
/* tlkernels: gpu_timeline, kernel_summary and the short-kernel sheets (spec
 * docs/tracelens.md §2, §7.6, §7.7). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

static void
tl_row3(struct tab *t, const char *type, double us, double total)
{
	size_t r = tab_row(t);

	tab_set_str(t, r, 0, type);
	tab_set_num(t, r, 1, us / 1e3);
	tab_set_num(t, r, 2, total != 0 ? us / total * 100 : NAN);
}

struct tab *
tl_sheet_timeline(const struct tl_timeline *tm, const struct tl_opts *o)
{
	struct tab *t = tab_new("gpu_timeline");

	tab_col(t, "type");
	tab_col(t, "time ms");
	tab_col(t, "percent");
	tl_row3(t, "computation_time", tm->comp, tm->total);
	tl_row3(t, "exposed_comm_time", tm->xcomm, tm->total);
	tl_row3(t, "exposed_memcpy_time", tm->xmemcpy, tm->total);
	tl_row3(t, "busy_time", tm->busy, tm->total);
	if (isnan(o->micro_idle_us))
		tl_row3(t, "idle_time", tm->idle, tm->total);
	else {
		tl_row3(t, "micro_idle_time", tm->micro, tm->total);
		tl_row3(t, "macro_idle_time", tm->macro, tm->total);
	}
	tl_row3(t, "total_time", tm->total, tm->total);
	tl_row3(t, "total_comm_time", tm->comm, tm->total);
	tl_row3(t, "total_memcpy_time", tm->memcpy, tm->total);
	return t;
}

static uint32_t
kernel_parent_cat(struct tl *tl, const struct gpuev *k)
{
	const struct top *o;

	if (k->op == NONE)
		return NAME_NONE;
	o = &tl->op[k->op];
	if (o->runtime)
		return tl_intern(tl, strcasestr(tl_str(tl, o->name), "cudagraph") ||
		    strcasestr(tl_str(tl, o->name), "graphlaunch") ? "graph" : "runtime");
	return tl_op_category(tl, k->op);
}

/* kernel_summary's sources: a group's first kernel, its durations. */
enum { KS_CAT, KS_PARENT, KS_NAME, KS_STREAM, KS_DUR };
/* With a phase, no percent of the total time. */
#define KS_ALL	1u

enum { KSC_CAT, KSC_PARENT, KSC_NAME, KSC_STREAM, KSC_SUM, KSC_COUNT, KSC_MEAN, KSC_MIN,
	KSC_MAX, KSC_PCT, KSC_PCT_ALL, KS_NCOLS };
static const struct tl_col ks_cols[KS_NCOLS] = {
	[KSC_CAT] = { "Parent op category", KS_CAT, TL_FIRST, TL_STR, 0, 0 },
	[KSC_PARENT] = { "Parent cpu_op", KS_PARENT, TL_FIRST, TL_STR, 0, 0 },
	[KSC_NAME] = { "Kernel name", KS_NAME, TL_FIRST, TL_STR, 0, 0 },
	[KSC_STREAM] = { "Kernel stream", KS_STREAM, TL_FIRST, TL_INT, 0, 0 },
	[KSC_SUM] = { "Kernel duration (\u00b5s)_sum", KS_DUR, TL_SUM, TL_NUM, 0, 0 },
	[KSC_COUNT] = { "Kernel duration (\u00b5s)_count", KS_DUR, TL_COUNT, TL_INT, 0, 0 },
	[KSC_MEAN] = { "Kernel duration (\u00b5s)_mean", KS_DUR, TL_MEAN, TL_NUM, 0, 0 },
	[KSC_MIN] = { "Kernel duration (\u00b5s)_min", KS_DUR, TL_MIN, TL_NUM, 0, 0 },
	[KSC_MAX] = { "Kernel duration (\u00b5s)_max", KS_DUR, TL_MAX, TL_NUM, 0, 0 },
	[KSC_PCT] = { "Percent of kernels time (%)", KS_DUR, TL_PCT, TL_NUM, 0, 0 },
	[KSC_PCT_ALL] = { "Percent of total time (%)", KS_DUR, TL_PCT, TL_NUM, KS_ALL, 1 },
};

struct kfirst {
	struct tl		*tl;
	const struct gpuev	*k;
};

static void
ks_first(void *ctx, int src, struct tl_val *v)
{
	struct kfirst *f = ctx;
	const struct gpuev *k = f->k;
	uint32_t cat;

	if (src == KS_CAT && (cat = kernel_parent_cat(f->tl, k)) != NAME_NONE)
		*v = tl_val_str(tl_str(f->tl, cat));
	else if (src == KS_PARENT && k->op != NONE)
		*v = tl_val_str(tl_str(f->tl, f->tl->op[k->op].name));
	else if (src == KS_NAME)
		*v = tl_val_str(tl_str(f->tl, k->name));
	else if (src == KS_STREAM)
		*v = (struct tl_val){ TAB_INT, k->stream, 0, NULL };
}

struct tab *
tl_sheet_kernel_summary(struct tl *tl, double total_us, const char *phase)
{
	struct tab *t;
	struct tab_groups gr;
	size_t i, g, idx[KS_NCOLS];
	struct buf key = BUF_INIT;
	double den[2] = { 0, total_us };
	struct kfirst f = { tl, NULL };
	const struct vec *v[KS_DUR + 1];
	struct tl_group grp = { v, ks_first, &f, den };

	/* kernel_summary_<phase>: the kernels of the launchers ttp-phase tagged phase,
	 * percentages within the phase, no percent of the total time (as the
	 * inference-phase branch's get_df_kernel_summary_by_inference_phase) */
	uint32_t ph = phase ? names_lookup(&tl->str, phase, strlen(phase)) : NAME_NONE;

	buf_printf(&key, "kernel_summary%s%s", phase ? "_" : "", phase ? phase : "");
	t = tab_new(key.p);
	tab_groups_init(&gr);
	for (i = 0; i < tl->nk && (phase == NULL || ph != NAME_NONE); i++) {
		const struct gpuev *k = &tl->k[i];
		uint32_t cat, par;

		if (k->gpu != TL_GPU_KERNEL)
			continue;
		if (phase != NULL && (k->op == NONE ||
		    tl_op_phase(tl, &tl->op[tl_launcher_of(tl, k->op)]) != ph))
			continue;
		cat = kernel_parent_cat(tl, k);
		par = k->op == NONE ? NAME_NONE : tl->op[k->op].name;
		buf_reset(&key);
		buf_printf(&key, "%u\x1f%u\x1f%u\x1f%lld", cat, par, k->name, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
		den[0] += k->dur;
	}
	tl_cols_add(t, ks_cols, KS_NCOLS, phase == NULL ? KS_ALL : 0, idx);
	for (g = 0; g < gr.n; g++) {
		f.k = &tl->k[gr.first[g]];
		v[KS_DUR] = &gr.vals[g];
		tl_cols_row(t, tab_row(t), ks_cols, KS_NCOLS, idx, &grp);
	}
	{
		/* groupby orders groups by key (empty last); then pandas' sort on the sum */
		struct tab_key keys[] = { { idx[KSC_CAT], 0 }, { idx[KSC_PARENT], 0 },
		    { idx[KSC_NAME], 0 }, { idx[KSC_STREAM], 0 } };

		tab_sort(t, keys, 4);
		tab_sort_pandas(t, idx[KSC_SUM], 1);
	}
	tab_groups_free(&gr);
	buf_free(&key);
	return t;
}

struct tab *
tl_sheet_short_histogram(struct tl *tl, const struct tl_opts *o)
{
	struct tab *t = tab_new("short_kernel_histogram");
	double lo = INFINITY, hi = -INFINITY, *edge;
	long long *cnt;
	size_t i, nb = (size_t)o->short_bins, n = 0;

	tab_col(t, "bin_start");
	tab_col(t, "bin_end");
	tab_col(t, "count");
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu == TL_GPU_KERNEL && k->dur < o->short_thresh_us) {
			lo = k->dur < lo ? k->dur : lo;
			hi = k->dur > hi ? k->dur : hi;
			n++;
		}
	}
	if (n == 0 || nb == 0)
		return t;
	if (lo == hi) {		/* numpy widens an empty range by 0.5 each side */
		lo -= 0.5;
		hi += 0.5;
	}
	edge = xreallocarray(NULL, nb + 1, sizeof(*edge));
	cnt = xcalloc(nb, sizeof(*cnt));
	for (i = 0; i <= nb; i++)
		edge[i] = lo + (double)i * ((hi - lo) / (double)nb);
	edge[nb] = hi;
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		size_t b;

		if (k->gpu != TL_GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		b = (size_t)((k->dur - lo) * ((double)nb / (hi - lo)));
		if (b >= nb)
			b = nb - 1;
		if (b > 0 && k->dur < edge[b])
			b--;
		else if (b + 1 < nb && k->dur >= edge[b + 1])
			b++;
		cnt[b]++;
	}
	for (i = 0; i < nb; i++) {
		size_t r = tab_row(t);

		tab_set_num(t, r, 0, edge[i]);
		tab_set_num(t, r, 1, edge[i + 1]);
		tab_set_int(t, r, 2, cnt[i]);
	}
	free(edge);
	free(cnt);
	return t;
}

/* short_kernels_summary's sources: a group's first kernel and its op, its durations. */
enum { SK_PARENT, SK_DIMS, SK_STRIDES, SK_CONC, SK_NAME, SK_DUR };
/* The op columns: not in a GPU-only trace. */
#define SK_OPS	1u

enum { SKC_PARENT, SKC_DIMS, SKC_STRIDES, SKC_CONC, SKC_NAME, SKC_SUM, SKC_COUNT, SKC_MEAN,
	SKC_PCT, SK_NCOLS };
static const struct tl_col sk_cols[SK_NCOLS] = {
	[SKC_PARENT] = { "Parent cpu_op", SK_PARENT, TL_FIRST, TL_STR, SK_OPS, 0 },
	[SKC_DIMS] = { "Input dims", SK_DIMS, TL_FIRST, TL_STR, SK_OPS, 0 },
	[SKC_STRIDES] = { "Input strides", SK_STRIDES, TL_FIRST, TL_STR, SK_OPS, 0 },
	[SKC_CONC] = { "Concrete Inputs", SK_CONC, TL_FIRST, TL_STR, SK_OPS, 0 },
	[SKC_NAME] = { "Kernel name", SK_NAME, TL_FIRST, TL_STR, 0, 0 },
	[SKC_SUM] = { "Short Kernel duration (\u00b5s) sum", SK_DUR, TL_SUM, TL_NUM, 0, 0 },
	[SKC_COUNT] = { "Short Kernel count", SK_DUR, TL_COUNT, TL_INT, 0, 0 },
	[SKC_MEAN] = { "Short Kernel duration (\u00b5s) mean", SK_DUR, TL_MEAN, TL_NUM, 0,
	    0 },
	[SKC_PCT] = { "Short Kernel duration (\u00b5s) percent of total time", SK_DUR,
	    TL_PCT, TL_NUM, 0, 0 },
};

static void
sk_first(void *ctx, int src, struct tl_val *v)
{
	struct kfirst *f = ctx;
	const struct tl *tl = f->tl;
	const struct top *op = f->k->op != NONE ? &tl->op[f->k->op] : NULL;
	uint32_t s = src == SK_NAME ? f->k->name : op == NULL ? NAME_NONE :
	    src == SK_PARENT ? op->name : src == SK_DIMS ? TDIMS(op) :
	    src == SK_STRIDES ? TSTRIDES(op) : TCONC(op);

	if (s != NAME_NONE)
		*v = tl_val_str(tl_str(tl, s));
}

/* short_kernels_summary's groups: the short kernels kept (ks, in trace order) grouped,
 * each group's kernels chained (first[g] its first, an index in ks; next[i] the one
 * after ks[i] in its group, SK_END after its last), its count, sum and mean as its
 * cells hold them; 24 bytes a group and 8 a kernel, where a key and a vector per group
 * held some 200 and the whole table before it was sorted. */
#define SK_END	UINT32_MAX
struct skgroups {
	struct tl		*tl;
	uint32_t		*ks, *first, *next, *cnt;
	double			*sum, *mean;
	double			 total;
	const size_t		*idx;
	struct vec		 d;
};

/* Whether short kernel k has a row (dropna: no cpu_op parent (unlinked, runtime
 * launches) or a missing argument list (NaN) drops out; a GPU-only trace keeps all). */
static bool
sk_kept(const struct tl *tl, const struct gpuev *k, bool gpu)
{
	const struct top *op;

	if (gpu)
		return true;
	if (k->op == NONE || (op = &tl->op[k->op])->runtime)
		return false;
	return TDIMS(op) != NAME_NONE && TSTRIDES(op) != NAME_NONE && TCONC(op) != NAME_NONE;
}

static void
sk_key(void *ctx, size_t i, struct buf *key)
{
	const struct skgroups *s = ctx;
	const struct tl *tl = s->tl;
	const struct gpuev *k = &tl->k[s->ks[i]];
	const struct top *op;

	if (tl_gpu_only(tl)) {
		buf_printf(key, "%u", k->name);
		return;
	}
	op = &tl->op[k->op];
	buf_printf(key, "%u\x1f%u\x1f%u\x1f%u\x1f%u", op->name, TDIMS(op), TSTRIDES(op),
	    TCONC(op), k->name);
}

/* Two numbers as tab_sort orders their cells: a non-finite one (an empty cell) last
 * in either direction. */
static int
sk_num_cmp(double x, double y, int desc)
{
	int nx = !isfinite(x), ny = !isfinite(y), c;

	if (nx || ny)
		return nx - ny;
	c = (x > y) - (x < y);
	return desc ? -c : c;
}

/* The sheet's order: tab_sort by the sum descending, then the count, the mean and the
 * percent ascending, ties in group order. */
static int
sk_cmp(void *ctx, size_t a, size_t b)
{
	const struct skgroups *s = ctx;
	int c;

	if ((c = sk_num_cmp(s->sum[a], s->sum[b], 1)) != 0)
		return c;
	if (s->cnt[a] != s->cnt[b])
		return (s->cnt[a] > s->cnt[b]) - (s->cnt[a] < s->cnt[b]);
	if ((c = sk_num_cmp(s->mean[a], s->mean[b], 0)) != 0)
		return c;
	if ((c = sk_num_cmp(s->sum[a] / s->total * 100, s->sum[b] / s->total * 100, 0)) != 0)
		return c;
	return (a > b) - (a < b);
}

static void
sk_row(void *ctx, struct tab *t, size_t r, size_t g)
{
	struct skgroups *s = ctx;
	struct kfirst f = { s->tl, &s->tl->k[s->ks[s->first[g]]] };
	const struct vec *v[SK_DUR + 1];
	struct tl_group grp = { v, sk_first, &f, &s->total };
	uint32_t i;

	s->d.n = 0;
	for (i = s->first[g]; i != SK_END; i = s->next[i])
		vec_add(&s->d, s->tl->k[s->ks[i]].dur);
	v[SK_DUR] = &s->d;
	tl_cols_row(t, r, sk_cols, SK_NCOLS, s->idx, &grp);
}

/* The groups' chains, counts, sums and means (pandas' over the durations in trace
 * order). */
static void
sk_stats(struct skgroups *s, uint32_t *gid, size_t n, size_t ng)
{
	uint32_t *first = xreallocarray(NULL, ng + 1, sizeof(*first)), i;
	uint32_t *cnt = xreallocarray(NULL, ng + 1, sizeof(*cnt));
	double *sum = xreallocarray(NULL, ng + 1, sizeof(*sum));
	double *mean = xreallocarray(NULL, ng + 1, sizeof(*mean));
	size_t g;

	for (g = 0; g < ng; g++)
		first[g] = SK_END;
	for (g = n; g-- > 0;) {		/* gid[] turns into next[] */
		i = gid[g];
		gid[g] = first[i];
		first[i] = (uint32_t)g;
	}
	for (g = 0; g < ng; g++) {
		struct stat_acc a;

		memset(&a, 0, sizeof(a));
		cnt[g] = 0;
		for (i = first[g]; i != SK_END; i = gid[i]) {
			stat_acc_add(&a, s->tl->k[s->ks[i]].dur);
			cnt[g]++;
		}
		sum[g] = stat_acc_sum(&a);
		mean[g] = stat_acc_mean(&a);
	}
	s->first = first;
	s->next = gid;
	s->cnt = cnt;
	s->sum = sum;
	s->mean = mean;
}

void
tl_sheet_short_summary(struct tl *tl, const struct tl_opts *o, double total_us,
    struct sink *sk)
{
	struct tab *t = tab_new("short_kernels_summary");
	bool gpu = tl_gpu_only(tl);
	size_t i, r, n = 0, ng, nshort = 0, idx[SK_NCOLS];
	uint32_t *ks, *gid;
	struct skgroups s;
	struct tl_grows gs;

	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != TL_GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		nshort++;
		n += sk_kept(tl, k, gpu);
	}
	if (nshort == 0) {
		/* no short kernel: pandas' DataFrame(), written as an empty line */
		tl_push(sk, t);
		return;
	}
	if (n == 0) {
		/* every short kernel dropped (no shapes in the trace): pandas' empty
		 * groupby keeps only its two header rows, (Kernel duration (µs); sum,
		 * count, mean), which the second row here stands for */
		for (i = 0; i < 3; i++)
			tab_col(t, "Kernel duration (\u00b5s)");
		r = tab_row(t);
		tab_set_str(t, r, 0, "sum");
		tab_set_str(t, r, 1, "count");
		tab_set_str(t, r, 2, "mean");
		tl_push(sk, t);
		return;
	}
	ks = xreallocarray(NULL, n + 1, sizeof(*ks));
	for (n = 0, i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu == TL_GPU_KERNEL && k->dur < o->short_thresh_us &&
		    sk_kept(tl, k, gpu))
			ks[n++] = (uint32_t)i;
	}
	memset(&s, 0, sizeof(s));
	s.tl = tl;
	s.ks = ks;
	s.total = total_us;
	s.idx = idx;
	ng = tl_group_ids(n, sk_key, &s, &gid);
	sk_stats(&s, gid, n, ng);
	tl_cols_add(t, sk_cols, SK_NCOLS, gpu ? 0 : SK_OPS, idx);
	gs = (struct tl_grows){ t, ng, NULL, NULL, 0, 0, sk_row, &s, sk_cmp,
	    o->topk_short >= 0 ? (size_t)o->topk_short : ng };
	tl_push_groups(sk, &gs);
	free(ks);
	free(s.first);
	free(s.next);
	free(s.cnt);
	free(s.sum);
	free(s.mean);
	vec_free(&s.d);
}
