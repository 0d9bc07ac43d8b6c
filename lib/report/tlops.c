/* SPDX-License-Identifier: ISC */
/* tlops: the kernel launchers and ops_summary_by_category, ops_summary,
 * ops_unique_args (spec tracelens.md §3, §7.1-§7.3, §8.1). */
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

/* The tl of launchers_build's sort. */
static struct tl *cmp_tl;

/* Per op, its first GPU event in the trace's order (tl_launchers_build), for hs_cmp. */
static const size_t *cmp_firstk;

/* TraceLens's launcher order: sorted (stably) by ts, a double, from the order in which
 * the trace's GPU events first name each launcher; ops apart by less than a double's
 * precision (epoch clocks) tie. */
static int
hs_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double s = tl_ns_us(cmp_tl->op[i].hs), t = tl_ns_us(cmp_tl->op[j].hs);

	if (s != t)
		return (s > t) - (s < t);
	if (cmp_firstk[i] != cmp_firstk[j])
		return tl_kev_trace_cmp(cmp_tl, cmp_firstk[i], cmp_firstk[j]);
	return (i > j) - (i < j);
}

void
tl_launchers_build(struct tl *tl, struct launchers *L)
{
	size_t *cnt = xcalloc(tl->nop + 1, sizeof(*cnt)), *at, i, n = 0, tot = 0, *first;

	memset(L, 0, sizeof(*L));
	first = xreallocarray(NULL, tl->nop + 1, sizeof(*first));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != TL_CLS_COMM) {
			size_t o = tl_launcher_of(tl, tl->k[i].op);

			if (cnt[o]++ == 0 || tl_kev_trace_cmp(tl, i, first[o]) < 0)
				first[o] = i;
		}
	L->op = xreallocarray(NULL, tl->nop + 1, sizeof(size_t));
	for (i = 0; i < tl->nop; i++)
		if (cnt[i])
			L->op[n++] = i;
	cmp_tl = tl;
	cmp_firstk = first;
	qsort(L->op, n, sizeof(size_t), hs_cmp);
	cmp_firstk = NULL;
	free(first);
	L->n = n;
	L->k0 = xreallocarray(NULL, n + 1, sizeof(size_t));
	L->nk = xcalloc(n + 1, sizeof(size_t));
	at = xcalloc(tl->nop + 1, sizeof(size_t));
	for (i = 0; i < n; i++) {
		L->k0[i] = tot;
		at[L->op[i]] = i;
		tot += cnt[L->op[i]];
	}
	L->ev = xreallocarray(NULL, tot + 1, sizeof(size_t));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != TL_CLS_COMM) {
			size_t j = at[tl_launcher_of(tl, tl->k[i].op)];

			L->ev[L->k0[j] + L->nk[j]++] = i;
		}
	for (i = 0; i < n; i++)
		tl_sort_events(tl, L->ev + L->k0[i], L->nk[i]);
	free(cnt);
	free(at);
}

/* TraceLens's call stack of op i (§8.1, traverse_parents_and_get_callstack with the
 * "nn.Module" filter): its name, then the names of the ancestors that contain
 * "nn.Module", innermost first, each cut to 256 bytes + ".."; as a Python list repr into
 * cs. Its parent module: the second frame with every "_<digits>" run removed, or "NA". */
static void
call_stack(const struct tl *tl, size_t i, struct buf *cs, struct buf *pm)
{
	const char *n = tl_str(tl, tl->op[i].name), *f;
	size_t j, nf = 1, len;

	buf_reset(cs);
	buf_reset(pm);
	buf_addc(cs, '[');
	py_str(cs, n, strlen(n));
	for (j = TL_UP(tl->op[i]); j != NONE; j = TL_UP(tl->op[j])) {
		f = tl_str(tl, tl->op[j].name);
		if (!strstr(f, "nn.Module"))
			continue;
		len = strlen(f);
		buf_adds(cs, ", ");
		if (len > 256) {
			struct buf cut = BUF_INIT;

			buf_add(&cut, f, 256);
			buf_adds(&cut, "..");
			py_str(cs, cut.p, cut.len);
			buf_free(&cut);
		} else
			py_str(cs, f, len);
		if (nf++ == 1)
			tl_strip_num_runs(pm, f);
	}
	buf_addc(cs, ']');
	if (nf == 1)
		buf_adds(pm, "NA");
}

void
tl_launchers_modules(struct tl *tl, struct launchers *L)
{
	struct buf cs = BUF_INIT, pm = BUF_INIT;
	size_t i;

	L->pm = xreallocarray(NULL, L->n + 1, sizeof(*L->pm));
	L->cs = xreallocarray(NULL, L->n + 1, sizeof(*L->cs));
	for (i = 0; i < L->n; i++) {
		call_stack(tl, L->op[i], &cs, &pm);
		L->cs[i] = tl_intern_buf(tl, &cs);
		L->pm[i] = tl_intern_buf(tl, &pm);
	}
	buf_free(&cs);
	buf_free(&pm);
}

void
tl_launchers_free(struct launchers *L)
{
	free(L->pm);
	free(L->cs);
	free(L->op);
	free(L->k0);
	free(L->nk);
	free(L->ev);
}

void
tl_launcher_times(struct tl *tl, const struct launchers *L, struct lstat *ls)
{
	size_t i, *v = NULL, n, cap = 0;

	for (i = 0; i < L->n; i++) {
		ls[i].direct = tl_busy(tl, L->ev + L->k0[i], L->nk[i]);
		n = 0;
		tl_subtree_events(tl, L->op[i], &v, &n, &cap);
		ls[i].subtree = tl_busy(tl, v, n);
	}
	free(v);
}

/* Group launchers by a key; returns the group of each launcher, *ng the count. */
static size_t *
group_launchers(struct tl *tl, const struct launchers *L, int by_args, size_t *ng)
{
	struct names groups;
	struct buf key = BUF_INIT;
	size_t *g = xreallocarray(NULL, L->n + 1, sizeof(*g)), i;

	names_init(&groups);
	for (i = 0; i < L->n; i++) {
		const struct top *o = &tl->op[L->op[i]];

		buf_reset(&key);
		if (by_args == 0)
			buf_printf(&key, "%u", tl_op_category(tl, L->op[i]));
		else if (by_args == 1)
			buf_printf(&key, "%u", o->name);
		else
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u",
			    o->name, tl_op_category(tl, L->op[i]), o->process, o->label, o->thread,
			    TDIMS(o), TTYPES(o), TSTRIDES(o), TCONC(o));
		if (L->pm)
			buf_printf(&key, "\x1fm%u", L->pm[i]);
		if (by_args == 2 && tl->o->by_nkernels)
			buf_printf(&key, "\x1fk%zu", L->nk[i]);
		g[i] = tab_group(&groups, key.p, key.len);
	}
	*ng = groups.n;
	names_free(&groups);
	buf_free(&key);
	return g;
}

struct tab *
tl_sheet_by_category(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary_by_category");
	size_t ng, *g = group_launchers(tl, L, 0, &ng), i, r, cn, cms, cpm = 0, ccs = 0;
	struct tab_key keys[] = { { 0, 0 }, { 0, 0 } };
	struct vec *d;

	/* the inference report with parent modules: op category, parent_module, Count,
	 * call_stack_first (of the group's first launcher), ms */
	tab_col(t, "op category");
	if (L->pm)
		cpm = tab_col(t, "parent_module");
	cn = tab_col(t, "Count");
	if (L->pm)
		ccs = tab_col(t, "call_stack_first");
	cms = tab_col(t, "total_direct_kernel_time_ms");
	keys[1].col = cpm;
	d = xreallocarray(NULL, ng ? ng : 1, sizeof(*d));
	for (i = 0; i < ng; i++) {
		tab_row(t);
		d[i] = (struct vec)VEC_INIT;
	}
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, tl_str(tl, tl_op_category(tl, L->op[i])));
			tab_set_int(t, r, cn, 0);
			if (L->pm) {
				tab_set_str(t, r, cpm, tl_str(tl, L->pm[i]));
				tab_set_str(t, r, ccs, tl_str(tl, L->cs[i]));
			}
		}
		tab_cell(t, r, cn)->v.i++;
		vec_add(&d[r], ls[i].direct);
	}
	/* the sum in µs, then ms; the groups in key order, sorted by pandas */
	for (r = 0; r < ng; r++) {
		tab_set_num(t, r, cms, stat_sum(&d[r]) / 1000);
		vec_free(&d[r]);
	}
	free(d);
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, cms, 1);
	tab_percentages(t, cms);
	free(g);
	return t;
}

struct tab *
tl_sheet_ops_summary(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary");
	size_t ng, *g = group_launchers(tl, L, 1, &ng), i, j, r;
	size_t cds, css, csc = 0, cdm, csm = 0, cn, ccat, cpm = 0, ccs = 0;
	struct tab_key keys[] = { { 0, 0 }, { 0, 0 } };
	struct buf b = BUF_INIT;
	struct vec *dv, *sv;
	int inf = tl->o->inference;

	/* the inference report's layout (get_df_kernel_launchers_summary_module): the
	 * subtree count, no subtree ms; with parent modules, parent_module and
	 * call_stack_first */
	tab_col(t, "name");
	if (L->pm)
		cpm = tab_col(t, "parent_module");
	cds = tab_col(t, "total_direct_kernel_time_sum");
	css = tab_col(t, "total_subtree_kernel_time_sum");
	if (inf)
		csc = tab_col(t, "total_subtree_kernel_time_count");
	cdm = tab_col(t, "total_direct_kernel_time_ms");
	if (!inf)
		csm = tab_col(t, "total_subtree_kernel_time_ms");
	cn = tab_col(t, "Count");
	ccat = tab_col(t, "Categories");
	if (L->pm)
		ccs = tab_col(t, "call_stack_first");
	keys[1].col = cpm;
	dv = xreallocarray(NULL, ng ? ng : 1, sizeof(*dv));
	sv = xreallocarray(NULL, ng ? ng : 1, sizeof(*sv));
	for (i = 0; i < ng; i++) {
		tab_row(t);
		dv[i] = sv[i] = (struct vec)VEC_INIT;
	}
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, tl_str(tl, tl->op[L->op[i]].name));
			tab_set_int(t, r, cn, 0);
			if (inf)
				tab_set_int(t, r, csc, 0);
			if (L->pm) {
				tab_set_str(t, r, cpm, tl_str(tl, L->pm[i]));
				tab_set_str(t, r, ccs, tl_str(tl, L->cs[i]));
			}
		}
		vec_add(&dv[r], ls[i].direct);
		vec_add(&sv[r], ls[i].subtree);
		tab_cell(t, r, cn)->v.i++;
		if (inf)
			tab_cell(t, r, csc)->v.i++;
	}
	/* Categories: the sorted distinct categories of each name */
	for (r = 0; r < ng; r++) {
		const char **c = NULL;
		size_t nc = 0;

		for (i = 0; i < L->n; i++) {
			const char *s;

			if (g[i] != r)
				continue;
			s = tl_str(tl, tl_op_category(tl, L->op[i]));
			for (j = 0; j < nc && strcmp(c[j], s) != 0; j++)
				;
			if (j == nc) {
				c = xreallocarray(c, nc + 1, sizeof(*c));
				c[nc++] = s;
			}
		}
		if (nc > 1)
			qsort(c, nc, sizeof(*c), tl_str_cmp);
		buf_reset(&b);
		buf_addc(&b, '[');
		for (j = 0; j < nc; j++) {
			if (j)
				buf_adds(&b, ", ");
			py_str(&b, c[j], strlen(c[j]));
		}
		buf_addc(&b, ']');
		tab_set_str(t, r, ccat, b.p);
		tab_set_num(t, r, cds, stat_sum(&dv[r]));
		tab_set_num(t, r, css, stat_sum(&sv[r]));
		tab_set_num(t, r, cdm, tab_num(t, r, cds) / 1000);
		if (!inf)
			tab_set_num(t, r, csm, tab_num(t, r, css) / 1000);
		free(c);
		vec_free(&dv[r]);
		vec_free(&sv[r]);
	}
	free(dv);
	free(sv);
	/* groupby orders the groups by key; then pandas' sort on the direct sum */
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, cds, 1);
	tab_percentages(t, cdm);
	free(g);
	buf_free(&b);
	return t;
}

/* The six statistics pandas' agg gives, in the order of ops_unique_args. */
static void
set_stats(struct tab *t, size_t r, size_t c, const struct vec *v, int which)
{
	double s[6] = { stat_mean(v), stat_median(v), stat_std(v, 1), stat_min(v),
	    stat_max(v), stat_sum(v) };

	tab_set_num(t, r, c, s[which]);
}

struct tab *
tl_sheet_unique_args(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_unique_args");
	static const char *const st[6] = { "mean", "median", "std", "min", "max", "sum" };
	size_t ng, *g = group_launchers(tl, L, 2, &ng), i, j, r, c, cuid, ckd, cst, csum;
	size_t cpm = 0, cnk = 0, ccs = 0, kcol[9];
	struct vec *dv = xcalloc(ng + 1, sizeof(*dv)), *sv = xcalloc(ng + 1, sizeof(*sv));
	struct klist *kl = xreallocarray(NULL, L->n + 1, sizeof(*kl));
	size_t *first = xreallocarray(NULL, ng + 1, sizeof(*first));
	/* next[i]: the group's next launcher after i, NONE at its last (each group's
	 * launchers in order without a scan of all of them per group) */
	size_t *next = xreallocarray(NULL, L->n + 1, sizeof(*next));
	struct buf b = BUF_INIT, name = BUF_INIT, sum = BUF_INIT, trunc = BUF_INIT;
	struct tab_key keys[2];
	static const char *const kc[] = { "name", "op category", "process_name",
	    "process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
	    "Concrete Inputs" };

	/* the inference report adds parent_module after op category, num_kernels after
	 * Concrete Inputs and call_stack after ex_UID (§7.3, §8.1) */
	for (i = 0; i < 9; i++) {
		kcol[i] = tab_col(t, kc[i]);
		if (i == 1 && L->pm)
			cpm = tab_col(t, "parent_module");
	}
	if (tl->o->by_nkernels)
		cnk = tab_col(t, "num_kernels");
	cst = tab_col(t, "operation_count") + 1;
	csum = cst + 10;	/* total_direct_kernel_time_sum */
	for (j = 0; j < 6; j++) {
		buf_reset(&name);
		buf_printf(&name, "total_direct_kernel_time_%s", st[j]);
		tab_col(t, name.p);
		buf_reset(&name);
		buf_printf(&name, "total_subtree_kernel_time_%s", st[j]);
		tab_col(t, name.p);
	}
	cuid = tab_col(t, "ex_UID");
	if (L->pm)
		ccs = tab_col(t, "call_stack");
	ckd = tab_col(t, "kernel_details_summary");
	tab_col(t, "trunc_kernel_details");
	for (i = 0; i < ng; i++)
		first[i] = NONE;
	for (i = L->n; i-- > 0;) {
		next[i] = first[g[i]];
		first[g[i]] = i;
	}
	for (i = 0; i < L->n; i++) {
		vec_add(&dv[g[i]], ls[i].direct);
		vec_add(&sv[g[i]], ls[i].subtree);
	}
	for (r = 0; r < ng; r++) {
		const struct top *o = &tl->op[L->op[first[r]]];
		size_t n = 0;

		tab_row(t);
		tab_set_str(t, r, kcol[0], tl_str(tl, o->name));
		tab_set_str(t, r, kcol[1], tl_str(tl, tl_op_category(tl, L->op[first[r]])));
		tab_set_str(t, r, kcol[2], tl_str(tl, o->process));
		tab_set_str(t, r, kcol[3], tl_str(tl, o->label));
		tab_set_str(t, r, kcol[4], tl_str(tl, o->thread));
		tl_set_name(t, r, kcol[5], tl, TDIMS(o));
		tl_set_name(t, r, kcol[6], tl, TTYPES(o));
		tl_set_name(t, r, kcol[7], tl, TSTRIDES(o));
		tl_set_name(t, r, kcol[8], tl, TCONC(o));
		if (L->pm) {
			tab_set_str(t, r, cpm, tl_str(tl, L->pm[first[r]]));
			tab_set_str(t, r, ccs, tl_str(tl, L->cs[first[r]]));
		}
		if (tl->o->by_nkernels)
			tab_set_int(t, r, cnk, (long long)L->nk[first[r]]);
		tab_set_int(t, r, cst - 1, (long long)dv[r].n);
		for (j = 0, c = cst; j < 6; j++, c += 2) {
			set_stats(t, r, c, &dv[r], (int)j);
			set_stats(t, r, c + 1, &sv[r], (int)j);
		}
		tab_set_int(t, r, cuid, o->id);
		for (i = first[r]; i != NONE; i = next[i])
			kl[n++] = (struct klist){ L->ev + L->k0[i], L->nk[i] };
		tl_kernel_details(tl, kl, n, &sum, &trunc);
		tab_set_str(t, r, ckd, sum.p);
		tab_set_str(t, r, ckd + 1, trunc.p);
		vec_free(&dv[r]);
		vec_free(&sv[r]);
	}
	keys[0] = (struct tab_key){ csum, 1 };
	keys[1] = (struct tab_key){ cuid, 0 };
	tab_sort(t, keys, 2);
	tab_percentages(t, csum);
	free(g);
	free(dv);
	free(sv);
	free(kl);
	free(first);
	free(next);
	buf_free(&b);
	buf_free(&name);
	buf_free(&sum);
	buf_free(&trunc);
	return t;
}
