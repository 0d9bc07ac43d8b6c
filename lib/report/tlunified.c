/* SPDX-License-Identifier: ISC */
/* tlunified: unified_perf_summary, with its call stacks and entry points (spec
 * docs/tracelens.md §7.4, §8.1). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

/* --- unified_perf_summary (§7.4) ---------------------------------------------------- */

/* The rows of unified_perf_summary before grouping, 12 bytes each: what its group's
 * key and the sheet's order need (its op, its kernel time); a synthetic row's GPU event
 * and name beside, 8 bytes more. The rest (its events, figures, UID) is made again from
 * its op when its group's row is built (uprow). */
struct ucoll {
	uint32_t	*op;		/* per row: the op it shows; a synthetic row's
					 * launch */
	double		*kt;		/* per row: its kernel time (the busy time of
					 * its events) */
	size_t		 n, cap, capkt;
	size_t		 nop;		/* rows of ops; the synthetic ones follow */
	uint32_t	*sk, *sname;	/* per synthetic row x (at x - nop): its GPU
					 * event, its name */
	char		*covered;	/* per GPU event */
	uint8_t		*sub;		/* per op: SUB_EV, SUB_MODEL */
	size_t		*ev, nev, cev;	/* a row's events */
};
#define SUB_EV		1u	/* a GPU event in the subtree */
#define SUB_MODEL	2u	/* a descendant has a model */

/* A new row of op i with kernel time kt. */
static void
ucoll_add(struct ucoll *u, size_t i, double kt)
{
	u->op = xgrow(u->op, &u->cap, u->n + 1, sizeof(*u->op));
	u->kt = xgrow(u->kt, &u->capkt, u->n + 1, sizeof(*u->kt));
	u->op[u->n] = (uint32_t)i;
	u->kt[u->n++] = kt;
}

/* Whether row x is a synthetic one. */
#define USYNTH(u, x)	((x) >= (u)->nop)

/* Per op of root i's subtree: its GPU events and whether a descendant has a model.
 * Ops in preorder, then taken in reverse: each after all its descendants. */
static void
subtree_facts(const struct tl *tl, struct ucoll *u, size_t i)
{
	struct tl_walk w = { NULL, 0, 0 }, pre = { NULL, 0, 0 };
	size_t j, k;

	tl_walk_push(&w, i);
	while (w.n > 0) {
		i = w.s[--w.n];
		tl_walk_push(&pre, i);
		tl_walk_push_kids(tl, &w, i);
	}
	while (pre.n > 0) {
		const struct top *o = &tl->op[i = pre.s[--pre.n]];

		u->sub[i] = tl_op_nev(o) > 0 ? SUB_EV : 0;
		for (j = 0; j < tl_op_nkid(o); j++) {
			k = tl->kids[o->kid0 + j];
			u->sub[i] |= u->sub[k] | (tl->op[k].hasmodel ? SUB_MODEL : 0);
		}
	}
	free(w.s);
	free(pre.s);
}

static int
has_own_compute(const struct tl *tl, size_t i)
{
	size_t j;

	for (j = 0; j < tl_op_nev(&tl->op[i]); j++)
		if (tl->k[OEV(&tl->op[i], j)].cls != TL_CLS_COMM)
			return 1;
	return 0;
}

static void urow(struct tl *tl, struct ucoll *u, size_t i);

/* The rows of root i's subtree, in preorder: the first op down each path that is a
 * row (or none where no GPU event runs below); with count, only counted in u->n. */
static void
ucollect(struct tl *tl, struct ucoll *u, size_t i, int count)
{
	struct tl_walk w = { NULL, 0, 0 };

	tl_walk_push(&w, i);
	while (w.n > 0) {
		const struct top *o = &tl->op[i = w.s[--w.n]];

		if (!(u->sub[i] & SUB_EV))
			continue;
		/* python frames and launches under them pass through: only CPU ops are
		 * rows */
		if (o->runtime || (!o->hasmodel && ((u->sub[i] & SUB_MODEL) ||
		    !has_own_compute(tl, i))))
			tl_walk_push_kids(tl, &w, i);
		else if (count)
			u->n++;
		else
			urow(tl, u, i);
	}
	free(w.s);
}

/* Op o's host duration in us: exact when host_end_ns - host_start_ns fits, else (ends no real
 * trace has, e.g. INT64_MIN) the difference of the doubles, so that the row still comes. */
static double
host_us(const struct top *o)
{
	long long d;

	if (ck_sub_i64(o->he, o->hs, &d))
		return (double)d / 1000.0;
	return ((double)o->he - (double)o->hs) / 1000.0;
}

/* A row for op i. */
static void
urow(struct tl *tl, struct ucoll *u, size_t i)
{
	size_t j;

	u->nev = 0;
	tl_subtree_events(tl, i, &u->ev, &u->nev, &u->cev);
	tl_sort_events(tl, u->ev, u->nev);
	ucoll_add(u, i, tl_busy(tl, u->ev, u->nev));
	for (j = 0; j < u->nev; j++)
		u->covered[u->ev[j]] = 1;
}

/* A synthetic row for GPU event k that no collected op covers. */
static void
usynth(struct tl *tl, struct ucoll *u, size_t k)
{
	const struct gpuev *e = &tl->k[k];
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s->%s (Synthetic Op)", tl_str(tl, tl->op[e->op].name),
	    tl_str(tl, e->name));
	u->sk[u->n - u->nop] = (uint32_t)k;
	u->sname[u->n - u->nop] = tl_intern_buf(tl, &b);
	ucoll_add(u, e->op, tl_busy(tl, &k, 1));
	buf_free(&b);
}

/* Row x's name: a synthetic row's own, else its op's. */
static uint32_t
urow_name(const struct tl *tl, const struct ucoll *u, size_t x)
{
	return USYNTH(u, x) ? u->sname[x - u->nop] : tl->op[u->op[x]].name;
}

/* A synthetic row's op category. */
static uint32_t
usynth_cat(struct tl *tl, const struct top *o, size_t op)
{
	return o->runtime && o->cat == NAME_NONE ? tl_intern(tl, "other") :
	    tl_op_category(tl, op);
}

/* Row x of u in full, as the sheet's columns take it. */
static void
uprow(struct tl *tl, const struct ucoll *u, size_t x, struct prow *p)
{
	uint32_t op = u->op[x];
	const struct top *o = &tl->op[op];

	memset(p, 0, sizeof(*p));
	p->op = p->as = op;
	p->name = urow_name(tl, u, x);
	p->dur_us = host_us(o);
	if (USYNTH(u, x)) {
		/* no overflow: tltree.c takes ids up to 2^62 */
		p->uid = tl->maxid + 1 + (long long)(x - u->nop);
		p->cat = usynth_cat(tl, o, op);
		p->synth = 1;
		p->flops = p->bytes = p->roof_us = NAN;
		p->ev = xmalloc(sizeof(*p->ev));
		p->ev[0] = u->sk[x - u->nop];
		p->nev = 1;
		p->ktime = u->kt[x];
		return;
	}
	p->uid = o->id;
	p->cat = tl_op_category(tl, op);
	p->model = o->model && tl_mod(tl, o)->bwd_of < 0;
	p->hasmodel = o->hasmodel;
	p->flops = p->model ? tl_mod(tl, o)->flops : NAN;
	p->bytes = p->model ? tl_mod(tl, o)->bytes : NAN;
	p->roof_us = p->model ? tl_mod(tl, o)->roof_us : NAN;
	tl_prow_events(tl, p, op);
}

/* unified_perf_summary's first-member sources (the series are struct pgroup's). */
enum { UF_NAME = PG_NV, UF_CAT, UF_PROC, UF_LABEL, UF_THREAD, UF_DIMS, UF_TYPES,
	UF_STRIDES, UF_CONC, UF_UID, UF_SPEC, UF_PARAMS, UF_HASMODEL, UF_BOUND };
/* Its columns: TraceLens's, then the roofline's (ttp-roofline gave roofline times)
 * and the call stacks (--include_call_stack). */
enum { UC_NAME, UC_CAT, UC_PROC, UC_LABEL, UC_THREAD, UC_DIMS, UC_TYPES, UC_STRIDES,
	UC_CONC, UC_UID, UC_COUNT, UC_DSUM, UC_DMEAN, UC_DSTD, UC_GF, UC_MB, UC_FB, UC_SPEC,
	UC_TBMEAN, UC_TBSTD, UC_TFMEAN, UC_TFSTD, UC_KTMEAN, UC_KTSTD, UC_KTSUM, UC_DMEDIAN,
	UC_DMIN, UC_DMAX, UC_TBMEDIAN, UC_TBMIN, UC_TBMAX, UC_TFMEDIAN, UC_TFMIN, UC_TFMAX,
	UC_KTMEDIAN, UC_KTMIN, UC_KTMAX, UC_KDS, UC_TKD, UC_PARAMS, UC_HASMODEL, UC_BOUND,
	UC_ROOF, UC_PMEAN, UC_PMEDIAN, UC_PSTD, UC_PMIN, UC_PMAX, UC_ENTRY, UC_STACK, UC_N };
#define UC_ROOFLINE	1u
#define UC_CALLSTACK	2u

static const struct tl_col ucols[UC_N] = {
	[UC_NAME] = { "name", UF_NAME, TL_FIRST, TL_STR, 0, 0 },
	[UC_CAT] = { "op category", UF_CAT, TL_FIRST, TL_STR, 0, 0 },
	[UC_PROC] = { "process_name", UF_PROC, TL_FIRST, TL_STR, 0, 0 },
	[UC_LABEL] = { "process_label", UF_LABEL, TL_FIRST, TL_STR, 0, 0 },
	[UC_THREAD] = { "thread_name", UF_THREAD, TL_FIRST, TL_STR, 0, 0 },
	[UC_DIMS] = { "Input Dims", UF_DIMS, TL_FIRST, TL_STR, 0, 0 },
	[UC_TYPES] = { "Input type", UF_TYPES, TL_FIRST, TL_STR, 0, 0 },
	[UC_STRIDES] = { "Input Strides", UF_STRIDES, TL_FIRST, TL_STR, 0, 0 },
	[UC_CONC] = { "Concrete Inputs", UF_CONC, TL_FIRST, TL_STR, 0, 0 },
	[UC_UID] = { "ex_UID", UF_UID, TL_FIRST, TL_INT, 0, 0 },
	[UC_COUNT] = { "operation_count", PG_DUR, TL_COUNT, TL_INT, 0, 0 },
	[UC_DSUM] = { "total_duration_us", PG_DUR, TL_SUM, TL_NUM, 0, 0 },
	[UC_DMEAN] = { "mean_duration_us", PG_DUR, TL_MEAN, TL_NUM, 0, 0 },
	[UC_DSTD] = { "std_duration_us", PG_DUR, TL_STD, TL_NUM, 0, 0 },
	[UC_GF] = { "GFLOPS", PG_GF, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[UC_MB] = { "Data Moved (MB)", PG_MB, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[UC_FB] = { "FLOPS/Byte", PG_FB, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[UC_SPEC] = { "Compute Spec", UF_SPEC, TL_FIRST, TL_STR, 0, 0 },
	[UC_TBMEAN] = { "TB/s_mean", PG_TB, TL_MEAN, TL_NUM, 0, 0 },
	[UC_TBSTD] = { "TB/s_std", PG_TB, TL_STD, TL_NUM, 0, 0 },
	[UC_TFMEAN] = { "TFLOPS/s_mean", PG_TF, TL_MEAN, TL_NUM, 0, 0 },
	[UC_TFSTD] = { "TFLOPS/s_std", PG_TF, TL_STD, TL_NUM, 0, 0 },
	[UC_KTMEAN] = { "Kernel Time (\u00b5s)_mean", PG_KT, TL_MEAN, TL_NUM, 0, 0 },
	[UC_KTSTD] = { "Kernel Time (\u00b5s)_std", PG_KT, TL_STD, TL_NUM, 0, 0 },
	[UC_KTSUM] = { "Kernel Time (\u00b5s)_sum", PG_KT, TL_SUM, TL_NUM, 0, 0 },
	[UC_DMEDIAN] = { "duration_us_median", PG_DUR, TL_MEDIAN, TL_NUM, 0, 0 },
	[UC_DMIN] = { "duration_us_min", PG_DUR, TL_MIN, TL_NUM, 0, 0 },
	[UC_DMAX] = { "duration_us_max", PG_DUR, TL_MAX, TL_NUM, 0, 0 },
	[UC_TBMEDIAN] = { "TB/s_median", PG_TB, TL_MEDIAN, TL_NUM, 0, 0 },
	[UC_TBMIN] = { "TB/s_min", PG_TB, TL_MIN, TL_NUM, 0, 0 },
	[UC_TBMAX] = { "TB/s_max", PG_TB, TL_MAX, TL_NUM, 0, 0 },
	[UC_TFMEDIAN] = { "TFLOPS/s_median", PG_TF, TL_MEDIAN, TL_NUM, 0, 0 },
	[UC_TFMIN] = { "TFLOPS/s_min", PG_TF, TL_MIN, TL_NUM, 0, 0 },
	[UC_TFMAX] = { "TFLOPS/s_max", PG_TF, TL_MAX, TL_NUM, 0, 0 },
	[UC_KTMEDIAN] = { "Kernel Time (\u00b5s)_median", PG_KT, TL_MEDIAN, TL_NUM, 0, 0 },
	[UC_KTMIN] = { "Kernel Time (\u00b5s)_min", PG_KT, TL_MIN, TL_NUM, 0, 0 },
	[UC_KTMAX] = { "Kernel Time (\u00b5s)_max", PG_KT, TL_MAX, TL_NUM, 0, 0 },
	[UC_KDS] = { "kernel_details_summary", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[UC_TKD] = { "trunc_kernel_details", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[UC_PARAMS] = { "perf_params", UF_PARAMS, TL_FIRST, TL_STR, 0, 0 },
	[UC_HASMODEL] = { "has_perf_model", UF_HASMODEL, TL_FIRST, TL_BOOL, 0, 0 },
	[UC_BOUND] = { "Roofline Bound", UF_BOUND, TL_FIRST, TL_STR, UC_ROOFLINE, 0 },
	[UC_ROOF] = { "Roofline Time (\u00b5s)_first", PG_ROOF, TL_FIRSTNUM, TL_NUM,
	    UC_ROOFLINE, 0 },
	[UC_PMEAN] = { "Pct Roofline_mean", PG_PCT, TL_MEAN, TL_NUM, UC_ROOFLINE, 0 },
	[UC_PMEDIAN] = { "Pct Roofline_median", PG_PCT, TL_MEDIAN, TL_NUM, UC_ROOFLINE, 0 },
	[UC_PSTD] = { "Pct Roofline_std", PG_PCT, TL_STD, TL_NUM, UC_ROOFLINE, 0 },
	[UC_PMIN] = { "Pct Roofline_min", PG_PCT, TL_MIN, TL_NUM, UC_ROOFLINE, 0 },
	[UC_PMAX] = { "Pct Roofline_max", PG_PCT, TL_MAX, TL_NUM, UC_ROOFLINE, 0 },
	[UC_ENTRY] = { "entry_point", 0, TL_CUSTOM, TL_STR, UC_CALLSTACK, 0 },
	[UC_STACK] = { "call_stack_full", 0, TL_CUSTOM, TL_STR, UC_CALLSTACK, 0 },
};

/* The first member's values; Compute Spec and perf_params are the first modelled
 * member's. */
static void
ufirst(void *ctx, int src, struct tl_val *v)
{
	const struct pgroup *g = ctx;
	struct tl *tl = g->tl;
	const struct prow *p0 = &g->p[g->m[0]];
	const struct top *o = &tl->op[p0->op];
	uint32_t s = NAME_NONE;
	size_t i;

	switch (src) {
	case UF_NAME: s = p0->name; break;
	case UF_CAT: s = p0->cat; break;
	case UF_PROC: s = tl_op_who(tl, o, TL_PROCESS); break;
	case UF_LABEL: s = tl_op_who(tl, o, TL_LABEL); break;
	case UF_THREAD: s = tl_op_who(tl, o, TL_THREAD); break;
	case UF_BOUND: s = tl_pgroup_bound(g); break;
	case UF_UID:
		*v = (struct tl_val){ TAB_INT, p0->uid, 0, NULL };
		return;
	case UF_DIMS: case UF_TYPES: case UF_STRIDES: case UF_CONC:
		if (!(p0->synth && o->runtime))
			s = tl_arg_repr(tl, o, src - UF_DIMS);
		break;
	case UF_SPEC: case UF_PARAMS: case UF_HASMODEL:
		for (i = 0; i < g->nm; i++) {
			const struct prow *q = &g->p[g->m[i]];

			if (src == UF_SPEC && q->model &&
			    tl_mod(tl, &tl->op[q->op])->spec != NAME_NONE) {
				s = tl_mod(tl, &tl->op[q->op])->spec;
				break;
			}
			if (src != UF_SPEC && q->model) {
				s = tl_mod(tl, &tl->op[q->op])->params;
				break;
			}
		}
		/* has_perf_model: a model whose figures failed (an InferenceAttention
		 * op without its step annotation, a model_error) leaves the row with no
		 * perf_params */
		if (src == UF_HASMODEL) {
			*v = (struct tl_val){ TAB_BOOL, i < g->nm || p0->hasmodel, 0, NULL };
			return;
		}
		break;
	}
	if (s != NAME_NONE)
		*v = tl_val_str(tl_str(tl, s));
}

static void
unified_row(struct tl *tl, struct tab *t, size_t r, const size_t *idx, const struct prow *p,
    const uint32_t *m, size_t nm)
{
	struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
	struct buf sum = BUF_INIT, trunc = BUF_INIT;
	struct pgroup g;
	struct tl_group grp = { g.vp, ufirst, &g, NULL };
	size_t i;

	tl_pgroup(&g, tl, p, m, nm);
	tl_cols_row(t, r, ucols, UC_N, idx, &grp);
	for (i = 0; i < nm; i++)
		kl[i] = (struct klist){ p[m[i]].ev, p[m[i]].nev };
	/* TraceLens's python frames (add_python_func) put each kernel's call stack in
	 * the summary; --include_call_stack moves them to call_stack_full */
	tl_kernel_details_order(tl, kl, nm, &sum, &trunc, NULL, NULL, !p[m[0]].synth &&
	    (tl->o->by_module || tl->capture) && !tl->o->call_stack);
	tab_set_str(t, r, idx[UC_KDS], sum.p);
	tab_set_str(t, r, idx[UC_TKD], trunc.p);
	tl_pgroup_free(&g);
	free(kl);
	buf_free(&sum);
	buf_free(&trunc);
}

/* --- call_stack_full and entry_point (§8.1, --include_call_stack) ------------------ */

/* The frames collect_unified_perf_events keeps: CPU ops, and python frames and launches
 * whose name has "nn.Module", "::" or "/". */
static int
cs_keep(const struct tl *tl, size_t i)
{
	const char *n = tl_str(tl, tl->op[i].name);

	return !tl->op[i].runtime || strstr(n, "nn.Module") || strstr(n, "::") ||
	    strchr(n, '/');
}

struct frames {
	char	**f;
	size_t	  n, cap;
};

static void
frames_add(struct frames *v, const char *s, int strip)
{
	struct buf b = BUF_INIT;

	if (strip)
		tl_strip_num_runs(&b, s);
	else
		buf_adds(&b, s);
	v->f = xgrow(v->f, &v->cap, v->n + 1, sizeof(*v->f));
	v->f[v->n++] = xstrdup(b.p ? b.p : "");
	buf_free(&b);
}

static void
frames_free(struct frames *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->f[i]);
	free(v->f);
	v->f = NULL;
	v->n = v->cap = 0;
}

/* Kernel k's chain in its row: the kept frames from the root down to the row's op, then
 * those between it and the kernel's launch (one walk up from the record right above the
 * launch: python frames under the launching op, or the launching op), then the kernel's
 * name. */
static void
kernel_chain(const struct tl *tl, size_t k, struct frames *v)
{
	size_t *path = NULL, np = 0, cap = 0, j;

	for (j = tl->k[k].vop != NONE ? tl->k[k].vop : tl->k[k].op; j != NONE;
	    j = TL_UP(tl->op[j])) {
		path = xgrow(path, &cap, np + 1, sizeof(*path));
		path[np++] = j;
	}
	while (np > 0) {
		j = path[--np];
		if (cs_keep(tl, j))
			frames_add(v, tl_str(tl, tl->op[j].name), 1);
	}
	free(path);
	frames_add(v, tl_str(tl, tl->k[k].name), 0);
}

static void
py_list_of(struct buf *b, char *const *f, size_t n)
{
	size_t i;

	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		py_str(b, f[i], strlen(f[i]));
	}
	buf_addc(b, ']');
}

/* Kernel k's call stack (its chain without its own name) as a Python list. */
void
tl_kernel_stack(const struct tl *tl, size_t k, struct buf *b)
{
	struct frames v = { NULL, 0, 0 };

	kernel_chain(tl, k, &v);
	py_list_of(b, v.f, v.n > 0 ? v.n - 1 : 0);
	frames_free(&v);
}

static const char *const wrap_files[] = { "torch/_ops.py", "torch/nn/modules/module.py",
	"torch/utils/_contextlib.py", "torch/utils/_device.py", "torch/_tensor.py",
	"torch/functional.py", "torch/overrides.py", "torch/_inductor/", "torch/_functorch/",
	"torch/distributed/c10d_logger.py", "triton/backends/", NULL };

static const char *const wrap_funcs[] = { "__torch_function__", "_call_impl",
	"_wrapped_call_impl", "decorate_context", "dispatch_wrapper", "handle_torch_function",
	"wrapper", "custom_wrapper", "wrapper_custom", "outer_wrapper", NULL };

/* The part after the last "): ", or the whole frame. */
static const char *
frame_func(const char *f)
{
	const char *p = f, *q;

	while ((q = strstr(p, "): ")) != NULL)
		p = q + 3;
	return p;
}

static int
is_wrapper_frame(const char *f)
{
	size_t i;

	if (strncmp(f, "<built-in", 9) == 0 || strncmp(f, "pybind11_builtins", 17) == 0 ||
	    strncmp(f, "nn.Module:", 10) == 0)
		return 1;
	for (i = 0; wrap_files[i]; i++)
		if (strstr(f, wrap_files[i]))
			return 1;
	if (strstr(f, "): "))
		for (i = 0; wrap_funcs[i]; i++)
			if (strcmp(frame_func(f), wrap_funcs[i]) == 0)
				return 1;
	return 0;
}

/* _find_entry_point over the flattened frames: the op by name (or without a trailing
 * _<digits>), searched from the end; inward, the first .py frame whose function holds
 * the op's local name; else outward, the first .py frame that is no wrapper. */
static const char *
entry_point(const struct frames *v, const char *op)
{
	const char *loc = op, *q;
	struct buf stripped = BUF_INIT;
	char *lower;
	size_t i, k, idx = NONE, len;
	const char *found = NULL;

	for (i = v->n; i-- > 0;)
		if (strcmp(v->f[i], op) == 0) {
			idx = i;
			break;
		}
	len = strlen(op);
	for (k = len; k > 0 && isdigit((unsigned char)op[k - 1]); k--)
		;
	if (idx == NONE && k < len && k > 0 && op[k - 1] == '_') {
		buf_add(&stripped, op, k - 1);
		for (i = v->n; i-- > 0;)
			if (strcmp(v->f[i], stripped.p) == 0) {
				idx = i;
				break;
			}
	}
	buf_free(&stripped);
	if (idx == NONE)
		return "Not found";
	while ((q = strstr(loc, "::")) != NULL)
		loc = q + 2;
	lower = xstrdup(loc);
	for (i = 0; lower[i]; i++)
		lower[i] = (char)tolower((unsigned char)lower[i]);
	for (i = idx + 1; i < v->n && !found; i++) {
		char *fn;

		if (!strstr(v->f[i], ".py"))
			continue;
		fn = xstrdup(frame_func(v->f[i]));
		for (k = 0; fn[k]; k++)
			fn[k] = (char)tolower((unsigned char)fn[k]);
		if (strstr(fn, lower))
			found = v->f[i];
		free(fn);
	}
	free(lower);
	for (i = idx; !found && i-- > 0;)
		if (strstr(v->f[i], ".py") && !is_wrapper_frame(v->f[i]))
			found = v->f[i];
	return found ? found : "Not found";
}

/* call_stack_full and entry_point of a unified row group (members m of p). */
static void
unified_stack(struct tl *tl, struct tab *t, size_t r, size_t col, const struct prow *p,
    const uint32_t *m, size_t nm)
{
	struct klist *kl = xreallocarray(NULL, nm + 1, sizeof(*kl));
	const struct klist *tpl = NULL;
	const struct prow *q = NULL;
	struct buf sum = BUF_INIT, trunc = BUF_INIT, out = BUF_INIT;
	struct frames *ch, flat = { NULL, 0, 0 };
	size_t *order, i, j, n, pre, minl;

	for (i = 0; i < nm; i++)
		kl[i] = (struct klist){ p[m[i]].ev, p[m[i]].nev };
	order = xreallocarray(NULL, nm ? p[m[0]].nev + 1 : 1, sizeof(*order));
	for (i = 0; i < nm && !q; i++)
		if (p[m[i]].nev)
			q = &p[m[i]];
	if (q == NULL) {
		tab_set_str(t, r, col, "Not found");
		tab_set_str(t, r, col + 1, "Not found");
		goto out;
	}
	order = xreallocarray(order, q->nev + 1, sizeof(*order));
	tl_kernel_details_order(tl, kl, nm, &sum, &trunc, order, &tpl, 0);
	n = q->nev;
	ch = xcalloc(n + 1, sizeof(*ch));
	for (j = 0; j < n; j++) {
		size_t k = q->ev[order[j]];

		if (q->synth)
			frames_add(&ch[j], tl_str(tl, tl->k[k].name), 0);
		else
			kernel_chain(tl, k, &ch[j]);
	}
	if (n == 1) {
		py_list_of(&out, ch[0].f, ch[0].n);
		for (i = 0; i < ch[0].n; i++)
			frames_add(&flat, ch[0].f[i], 0);
	} else {
		minl = ch[0].n;
		for (j = 1; j < n; j++)
			if (ch[j].n < minl)
				minl = ch[j].n;
		for (pre = 0; pre < minl; pre++) {
			for (j = 1; j < n && strcmp(ch[j].f[pre], ch[0].f[pre]) == 0; j++)
				;
			if (j < n)
				break;
		}
		buf_addc(&out, '[');
		for (i = 0; i < pre; i++) {
			if (i)
				buf_adds(&out, ", ");
			py_str(&out, ch[0].f[i], strlen(ch[0].f[i]));
			frames_add(&flat, ch[0].f[i], 0);
		}
		for (j = 0; j < n; j++) {
			size_t d, x;

			for (d = 0; d < j; d++) {	/* unique tails, first seen order */
				if (ch[d].n != ch[j].n)
					continue;
				for (x = pre; x < ch[j].n && strcmp(ch[d].f[x], ch[j].f[x]) == 0; x++)
					;
				if (x == ch[j].n)
					break;
			}
			if (d < j)
				continue;
			if (pre || j)
				buf_adds(&out, ", ");
			py_list_of(&out, ch[j].f + pre, ch[j].n - pre);
			for (x = pre; x < ch[j].n; x++)
				frames_add(&flat, ch[j].f[x], 0);
		}
		buf_addc(&out, ']');
	}
	tab_set_str(t, r, col, entry_point(&flat, tl_str(tl, p[m[0]].name)));
	tab_set_str(t, r, col + 1, out.p);
	for (j = 0; j < n; j++)
		frames_free(&ch[j]);
	free(ch);
	frames_free(&flat);
out:
	free(order);
	free(kl);
	buf_free(&sum);
	buf_free(&trunc);
	buf_free(&out);
}

struct syn {
	size_t		k;
	long long	rank, id;
	size_t		group;
};

static int
syn_cmp(const void *a, const void *b)
{
	const struct syn *x = a, *y = b;

	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->k > y->k) - (x->k < y->k);
}

/* unified_perf_summary's groups, for tl_push_groups. */
struct ugroups {
	struct tl		*tl;
	const struct ucoll	*u;
	const uint32_t		*start, *mem;
	const size_t		*idx;
};

/* Group g's row: its members in full (uprow), then the columns. */
static void
ugroup_row(void *ctx, struct tab *t, size_t r, size_t g)
{
	const struct ugroups *ug = ctx;
	size_t nm = ug->start[g + 1] - ug->start[g], i;
	struct prow *p = xreallocarray(NULL, nm, sizeof(*p));
	uint32_t *m = xreallocarray(NULL, nm, sizeof(*m));

	for (i = 0; i < nm; i++) {
		uprow(ug->tl, ug->u, ug->mem[ug->start[g] + i], &p[i]);
		m[i] = (uint32_t)i;
	}
	unified_row(ug->tl, t, r, ug->idx, p, m, nm);
	if (ug->tl->o->call_stack)
		unified_stack(ug->tl, t, r, ug->idx[UC_ENTRY], p, m, nm);
	for (i = 0; i < nm; i++)
		free(p[i].ev);
	free(p);
	free(m);
}

/* The synthetic rows, in the trace's event order: the kernels with no cpu_op above
 * grouped by their launch (in order of its first kernel), then those under one. */
static void
usynths(struct tl *tl, struct ucoll *u)
{
	size_t nc = 0, i;
	uint32_t *first = NULL;
	struct syn *c;

	for (i = 0; i < tl->nk; i++)
		nc += tl->k[i].op != NONE && !u->covered[i] && tl->k[i].cls != TL_CLS_COMM;
	c = xreallocarray(NULL, nc + 1, sizeof(*c));
	if (nc > 0) {
		first = xreallocarray(NULL, tl->nop + 1, sizeof(*first));
		for (i = 0; i < tl->nop; i++)
			first[i] = UINT32_MAX;
	}
	for (nc = 0, i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->op == NONE || u->covered[i] || k->cls == TL_CLS_COMM)
			continue;
		c[nc++] = (struct syn){ i, tl_kev_rank(tl, k), k->id, 0 };
	}
	qsort(c, nc, sizeof(*c), syn_cmp);
	for (i = 0; i < nc; i++) {
		size_t op = tl->k[c[i].k].op;

		if (first[op] == UINT32_MAX)
			first[op] = (uint32_t)i;
		c[i].group = tl->op[op].runtime ? first[op] : nc;
		c[i].rank = 0;
		c[i].id = (long long)i;
	}
	qsort(c, nc, sizeof(*c), syn_cmp);
	/* the rows exactly: the ops' and these */
	u->nop = u->n;
	u->cap = u->capkt = u->n + nc + 1;
	u->op = xreallocarray(u->op, u->cap, sizeof(*u->op));
	u->kt = xreallocarray(u->kt, u->capkt, sizeof(*u->kt));
	u->sk = xreallocarray(NULL, nc + 1, sizeof(*u->sk));
	u->sname = xreallocarray(NULL, nc + 1, sizeof(*u->sname));
	for (i = 0; i < nc; i++)
		usynth(tl, u, c[i].k);
	free(c);
	free(first);
}

struct ukey {
	struct tl		*tl;
	const struct ucoll	*u;
};

/* Row x's group key: a synthetic row under a launch with no op above it by its name
 * and category, every other by its op's arguments too (tl_args_key). */
static void
ukey(void *ctx, size_t x, struct buf *key)
{
	const struct ukey *k = ctx;
	uint32_t op = k->u->op[x], name = urow_name(k->tl, k->u, x), cat;
	const struct top *o = &k->tl->op[op];

	if (!USYNTH(k->u, x)) {
		tl_args_key(k->tl, key, op, name, tl_op_category(k->tl, op));
		return;
	}
	cat = usynth_cat(k->tl, o, op);
	if (o->runtime)
		buf_printf(key, "%u\x1f%u", name, cat);
	else
		tl_args_key(k->tl, key, op, name, cat);
}

/* Each group's Kernel Time sum (pandas' sum of its members' kernel times): the
 * sheet's order, then its ex_UID (ugroup_uid). */
static void
ugroup_keys(const struct ucoll *u, const uint32_t *start, const uint32_t *mem, size_t ng,
    double *key)
{
	size_t g, i;

	for (g = 0; g < ng; g++) {
		struct stat_acc a;

		memset(&a, 0, sizeof(a));
		for (i = start[g]; i < start[g + 1]; i++)
			stat_acc_add(&a, u->kt[mem[i]]);
		key[g] = stat_acc_sum(&a);
	}
}

/* A group's ex_UID: its first member's. */
static long long
ugroup_uid(void *ctx, size_t g)
{
	const struct ugroups *ug = ctx;
	const struct ucoll *u = ug->u;
	size_t x = ug->mem[ug->start[g]];

	return !USYNTH(u, x) ? ug->tl->op[u->op[x]].id :
	    ug->tl->maxid + 1 + (long long)(x - u->nop);
}

void
tl_sheet_unified(struct tl *tl, struct sink *sk)
{
	struct tab *t = tab_new("unified_perf_summary");
	struct ucoll u;
	size_t i, ng, *roots, nroots = 0, ri, idx[UC_N];
	uint32_t *start, *mem;
	struct ugroups ug;
	struct ukey uk;
	struct tl_grows gs;
	double *key;

	memset(&u, 0, sizeof(u));
	u.covered = xcalloc(tl->nk + 1, 1);
	u.sub = xcalloc(tl->nop + 1, 1);
	for (i = 0; i < tl->nop; i++)
		nroots += TL_UP(tl->op[i]) == NONE;
	roots = xreallocarray(NULL, nroots + 1, sizeof(*roots));
	for (nroots = 0, i = 0; i < tl->nop; i++)
		if (TL_UP(tl->op[i]) == NONE)
			roots[nroots++] = i;
	tl_tie_runs(tl, roots, nroots);
	for (ri = 0; ri < nroots; ri++) {
		i = roots[ri];
		subtree_facts(tl, &u, i);
		/* python roots too: their frames pass through (§7.4) */
		if (!tl->op[i].runtime || tl->op[i].python)
			ucollect(tl, &u, i, 1);
	}
	/* the rows of ops counted, then made (the synthetic ones come after) */
	u.cap = u.capkt = u.n + 1;
	u.op = xreallocarray(NULL, u.cap, sizeof(*u.op));
	u.kt = xreallocarray(NULL, u.capkt, sizeof(*u.kt));
	u.n = 0;
	for (ri = 0; ri < nroots; ri++) {
		i = roots[ri];
		if (!tl->op[i].runtime || tl->op[i].python)
			ucollect(tl, &u, i, 0);
	}
	free(roots);
	free(u.sub);
	free(u.ev);
	usynths(tl, &u);
	free(u.covered);
	tl_cols_add(t, ucols, UC_N, (tl->roofline ? UC_ROOFLINE : 0) |
	    (tl->o->call_stack ? UC_CALLSTACK : 0), idx);
	uk = (struct ukey){ tl, &u };
	ng = tl_group_by(u.n, ukey, &uk, &start, &mem);
	key = xreallocarray(NULL, ng + 1, sizeof(*key));
	ugroup_keys(&u, start, mem, ng, key);
	ug = (struct ugroups){ tl, &u, start, mem, idx };
	gs = (struct tl_grows){ t, ng, key, ugroup_uid, idx[UC_KTSUM], 1, ugroup_row, &ug,
	    NULL, 0 };
	tl_push_groups(sk, &gs);
	free(key);
	free(start);
	free(mem);
	free(u.op);
	free(u.kt);
	free(u.sk);
	free(u.sname);
}
