/* SPDX-License-Identifier: ISC */
/* tlunified: unified_perf_summary, with its call stacks and entry points (spec
 * tracelens.md §7.4, §8.1). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

/* --- unified_perf_summary (§7.4) ---------------------------------------------------- */

struct ucoll {
	struct prow	*r;
	size_t		 n, cap;
	char		*covered;	/* per GPU event */
	int		*submodel;	/* per op: a descendant has a model */
	size_t		*subn;		/* per op: GPU events in the subtree */
};

static struct prow *
ucoll_add(struct ucoll *u)
{
	u->r = xgrow(u->r, &u->cap, u->n + 1, sizeof(*u->r));
	memset(&u->r[u->n], 0, sizeof(u->r[0]));
	return &u->r[u->n++];
}

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

		u->subn[i] = o->nev;
		u->submodel[i] = 0;
		for (j = 0; j < o->nkid; j++) {
			k = tl->kids[o->kid0 + j];
			u->subn[i] += u->subn[k];
			u->submodel[i] |= u->submodel[k] || tl->op[k].hasmodel;
		}
	}
	free(w.s);
	free(pre.s);
}

static int
has_own_compute(const struct tl *tl, size_t i)
{
	size_t j;

	for (j = 0; j < tl->op[i].nev; j++)
		if (tl->k[OEV(&tl->op[i], j)].cls != TL_CLS_COMM)
			return 1;
	return 0;
}

static void urow(struct tl *tl, struct ucoll *u, size_t i);

/* The rows of root i's subtree, in preorder: the first op down each path that is a
 * row (or none where no GPU event runs below). */
static void
ucollect(struct tl *tl, struct ucoll *u, size_t i)
{
	struct tl_walk w = { NULL, 0, 0 };

	tl_walk_push(&w, i);
	while (w.n > 0) {
		const struct top *o = &tl->op[i = w.s[--w.n]];

		if (u->subn[i] == 0)
			continue;
		/* python frames and launches under them pass through: only CPU ops are
		 * rows */
		if (o->runtime || (!o->hasmodel && (u->submodel[i] ||
		    !has_own_compute(tl, i))))
			tl_walk_push_kids(tl, &w, i);
		else
			urow(tl, u, i);
	}
	free(w.s);
}

/* A row for op i. */
static void
urow(struct tl *tl, struct ucoll *u, size_t i)
{
	const struct top *o = &tl->op[i];
	struct prow *p;
	size_t j;

	p = ucoll_add(u);
	p->op = i;
	p->uid = o->id;
	p->name = o->name;
	p->cat = tl_op_category(tl, i);
	p->model = o->model && o->bwd_of < 0;
	p->hasmodel = o->hasmodel;
	p->dur_us = (double)(o->he - o->hs) / 1000.0;
	p->flops = p->model ? o->flops : NAN;
	p->bytes = p->model ? o->bytes : NAN;
	p->roof_us = p->model ? o->roof_us : NAN;
	tl_prow_events(tl, p, i);
	for (j = 0; j < p->nev; j++)
		u->covered[p->ev[j]] = 1;
}

/* A synthetic row for GPU event k that no collected op covers. */
static void
usynth(struct tl *tl, struct ucoll *u, size_t k, long long uid)
{
	const struct gpuev *e = &tl->k[k];
	const struct top *o = &tl->op[e->op];
	struct prow *p = ucoll_add(u);
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s->%s (Synthetic Op)", tl_str(tl, o->name), tl_str(tl, e->name));
	p->op = e->op;
	p->uid = uid;
	p->name = tl_intern_buf(tl, &b);
	p->cat = o->runtime && o->cat == NAME_NONE ? tl_intern(tl, "other") :
	    tl_op_category(tl, e->op);
	p->synth = 1;
	p->dur_us = (double)(o->he - o->hs) / 1000.0;
	p->flops = p->bytes = p->roof_us = NAN;
	p->ev = xmalloc(sizeof(*p->ev));
	p->ev[0] = k;
	p->nev = 1;
	p->ktime = tl_busy(tl, p->ev, 1);
	buf_free(&b);
}

static const char *const unified_cols[] = {
	"name", "op category", "process_name", "process_label", "thread_name", "Input Dims",
	"Input type", "Input Strides", "Concrete Inputs", "ex_UID", "operation_count",
	"total_duration_us", "mean_duration_us", "std_duration_us", "GFLOPS",
	"Data Moved (MB)", "FLOPS/Byte", "Compute Spec", "TB/s_mean", "TB/s_std",
	"TFLOPS/s_mean", "TFLOPS/s_std", "Kernel Time (\u00b5s)_mean",
	"Kernel Time (\u00b5s)_std", "Kernel Time (\u00b5s)_sum", "duration_us_median",
	"duration_us_min", "duration_us_max", "TB/s_median", "TB/s_min", "TB/s_max",
	"TFLOPS/s_median", "TFLOPS/s_min", "TFLOPS/s_max", "Kernel Time (\u00b5s)_median",
	"Kernel Time (\u00b5s)_min", "Kernel Time (\u00b5s)_max", "kernel_details_summary",
	"trunc_kernel_details", "perf_params", "has_perf_model", NULL
};

static void
unified_row(struct tl *tl, struct tab *t, size_t r, const struct prow *p, const size_t *m,
    size_t nm)
{
	const struct top *o = &tl->op[p[m[0]].op];
	struct vec dur = VEC_INIT, kt = VEC_INIT, tb = VEC_INIT, tf = VEC_INIT;
	struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
	double *gf = xreallocarray(NULL, nm, sizeof(double));
	double *mb = xreallocarray(NULL, nm, sizeof(double));
	double *fb = xreallocarray(NULL, nm, sizeof(double));
	struct buf sum = BUF_INIT, trunc = BUF_INIT;
	long long uid = p[m[0]].uid;
	size_t i, spec = NONE, model = NONE;
	int synth = p[m[0]].synth;

	for (i = 0; i < nm; i++) {
		const struct prow *q = &p[m[i]];
		double tflops, tbps;

		tl_prow_metrics(q, &tflops, &tbps);
		vec_add(&dur, q->dur_us);
		vec_add(&kt, q->ktime);
		vec_add(&tb, tbps);
		vec_add(&tf, tflops);
		gf[i] = q->flops / 1e9;
		mb[i] = q->bytes / 1048576;
		fb[i] = q->bytes != 0 ? q->flops / q->bytes : NAN;
		kl[i] = (struct klist){ q->ev, q->nev };
		if (spec == NONE && q->model && tl->op[q->op].spec != NAME_NONE)
			spec = q->op;
		if (model == NONE && q->model)
			model = q->op;
	}
	tab_set_str(t, r, 0, tl_str(tl, p[m[0]].name));
	tab_set_str(t, r, 1, tl_str(tl, p[m[0]].cat));
	tab_set_str(t, r, 2, tl_str(tl, o->process));
	tab_set_str(t, r, 3, tl_str(tl, o->label));
	tab_set_str(t, r, 4, tl_str(tl, o->thread));
	if (!(synth && o->runtime)) {
		tl_set_name(t, r, 5, tl, TDIMS(o));
		tl_set_name(t, r, 6, tl, TTYPES(o));
		tl_set_name(t, r, 7, tl, TSTRIDES(o));
		tl_set_name(t, r, 8, tl, TCONC(o));
	}
	tab_set_int(t, r, 9, uid);
	tab_set_int(t, r, 10, (long long)nm);
	tab_set_num(t, r, 11, stat_sum(&dur));
	tab_set_num(t, r, 12, stat_mean(&dur));
	tab_set_num(t, r, 13, stat_std(&dur, 1));
	tab_set_num(t, r, 14, tl_first_num(gf, nm));
	tab_set_num(t, r, 15, tl_first_num(mb, nm));
	tab_set_num(t, r, 16, tl_first_num(fb, nm));
	if (spec != NONE)
		tab_set_str(t, r, 17, tl_str(tl, tl->op[spec].spec));
	tab_set_num(t, r, 18, stat_mean(&tb));
	tab_set_num(t, r, 19, stat_std(&tb, 1));
	tab_set_num(t, r, 20, stat_mean(&tf));
	tab_set_num(t, r, 21, stat_std(&tf, 1));
	tab_set_num(t, r, 22, stat_mean(&kt));
	tab_set_num(t, r, 23, stat_std(&kt, 1));
	tab_set_num(t, r, 24, stat_sum(&kt));
	tab_set_num(t, r, 25, stat_median(&dur));
	tab_set_num(t, r, 26, stat_min(&dur));
	tab_set_num(t, r, 27, stat_max(&dur));
	tab_set_num(t, r, 28, stat_median(&tb));
	tab_set_num(t, r, 29, stat_min(&tb));
	tab_set_num(t, r, 30, stat_max(&tb));
	tab_set_num(t, r, 31, stat_median(&tf));
	tab_set_num(t, r, 32, stat_min(&tf));
	tab_set_num(t, r, 33, stat_max(&tf));
	tab_set_num(t, r, 34, stat_median(&kt));
	tab_set_num(t, r, 35, stat_min(&kt));
	tab_set_num(t, r, 36, stat_max(&kt));
	/* TraceLens's python frames (add_python_func) put each kernel's call stack in
	 * the summary; --include_call_stack moves them to call_stack_full */
	tl_kernel_details_order(tl, kl, nm, &sum, &trunc, NULL, NULL, !synth &&
	    (tl->o->by_module || tl->capture) && !tl->o->call_stack);
	tab_set_str(t, r, 37, sum.p);
	tab_set_str(t, r, 38, trunc.p);
	if (model != NONE && tl->op[model].params != NAME_NONE)
		tab_set_str(t, r, 39, tl_str(tl, tl->op[model].params));
	/* has_perf_model: a model whose figures failed (an InferenceAttention op without its
	 * step annotation, a model_error) leaves the row with no perf_params */
	tab_set_bool(t, r, 40, model != NONE || p[m[0]].hasmodel);
	vec_free(&dur);
	vec_free(&kt);
	vec_free(&tb);
	vec_free(&tf);
	free(kl);
	free(gf);
	free(mb);
	free(fb);
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
    const size_t *m, size_t nm)
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

struct tab *
tl_sheet_unified(struct tl *tl)
{
	struct tab *t = tab_new("unified_perf_summary");
	struct ucoll u;
	size_t i, ng, *start, *mem, rc, cs = 0, *roots, nroots = 0, ri;
	long long uid = tl->maxid + 1;
	struct tab_key keys[] = { { 24, 1 }, { 9, 0 } };

	memset(&u, 0, sizeof(u));
	u.covered = xcalloc(tl->nk + 1, 1);
	u.submodel = xcalloc(tl->nop + 1, sizeof(int));
	u.subn = xcalloc(tl->nop + 1, sizeof(size_t));
	roots = xreallocarray(NULL, tl->nop + 1, sizeof(*roots));
	for (i = 0; i < tl->nop; i++)
		if (TL_UP(tl->op[i]) == NONE)
			roots[nroots++] = i;
	tl_tie_runs(tl, roots, nroots);
	for (ri = 0; ri < nroots; ri++) {
		i = roots[ri];
		subtree_facts(tl, &u, i);
		/* python roots too: their frames pass through (§7.4) */
		if (!tl->op[i].runtime || tl->op[i].python)
			ucollect(tl, &u, i);
	}
	free(roots);
	/* synthetic rows, in the trace's event order: the kernels with no cpu_op above
	 * grouped by their launch (in order of its first kernel), then those under one */
	{
		size_t nc = 0, *first = xreallocarray(NULL, tl->nop + 1, sizeof(size_t));
		struct syn *c = xreallocarray(NULL, tl->nk + 1, sizeof(*c));

		for (i = 0; i < tl->nop; i++)
			first[i] = NONE;
		for (i = 0; i < tl->nk; i++) {
			const struct gpuev *k = &tl->k[i];

			if (k->op == NONE || u.covered[i] || k->cls == TL_CLS_COMM)
				continue;
			c[nc++] = (struct syn){ i, k->rank, k->id, 0 };
		}
		qsort(c, nc, sizeof(*c), syn_cmp);
		for (i = 0; i < nc; i++) {
			size_t op = tl->k[c[i].k].op;

			if (first[op] == NONE)
				first[op] = i;
			c[i].group = tl->op[op].runtime ? first[op] : nc;
			c[i].rank = 0;
			c[i].id = (long long)i;
		}
		qsort(c, nc, sizeof(*c), syn_cmp);
		for (i = 0; i < nc; i++)
			usynth(tl, &u, c[i].k, uid++);
		free(c);
		free(first);
	}
	for (i = 0; unified_cols[i]; i++)
		tab_col(t, unified_cols[i]);
	rc = tl->roofline ? tl_roof_cols(t, "Roofline Bound", "Roofline Time (\u00b5s)_first", 0) : 0;
	if (tl->o->call_stack) {
		cs = tab_col(t, "entry_point");
		tab_col(t, "call_stack_full");
	}
	ng = tl_group_rows(tl, u.r, u.n, 0, &start, &mem);
	for (i = 0; i < ng; i++) {
		size_t r = tab_row(t);

		unified_row(tl, t, r, u.r, mem + start[i], start[i + 1] - start[i]);
		if (tl->roofline)
			tl_roof_row(tl, t, r, rc, 0, u.r, mem + start[i], start[i + 1] - start[i]);
		if (tl->o->call_stack)
			unified_stack(tl, t, r, cs, u.r, mem + start[i], start[i + 1] - start[i]);
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 24);
	free(start);
	free(mem);
	tl_prow_free(u.r, u.n);
	free(u.covered);
	free(u.submodel);
	free(u.subn);
	return t;
}
