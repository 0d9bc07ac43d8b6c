/* SPDX-License-Identifier: ISC */
/* tlkernels: gpu_timeline, kernel_summary and the short-kernel sheets (spec
 * tracelens.md §2, §7.6, §7.7). */
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

struct tab *
tl_sheet_kernel_summary(struct tl *tl, double total_us, const char *phase)
{
	struct tab *t;
	struct tab_groups gr;
	size_t i, g;
	struct buf key = BUF_INIT;
	double all = 0;

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
		    tl->op[tl_launcher_of(tl, k->op)].phase != ph))
			continue;
		cat = kernel_parent_cat(tl, k);
		par = k->op == NONE ? NAME_NONE : tl->op[k->op].name;
		buf_reset(&key);
		buf_printf(&key, "%u\x1f%u\x1f%u\x1f%lld", cat, par, k->name, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
		all += k->dur;
	}
	tab_col(t, "Parent op category");
	tab_col(t, "Parent cpu_op");
	tab_col(t, "Kernel name");
	tab_col(t, "Kernel stream");
	tab_col(t, "Kernel duration (\u00b5s)_sum");
	tab_col(t, "Kernel duration (\u00b5s)_count");
	tab_col(t, "Kernel duration (\u00b5s)_mean");
	tab_col(t, "Kernel duration (\u00b5s)_min");
	tab_col(t, "Kernel duration (\u00b5s)_max");
	tab_col(t, "Percent of kernels time (%)");
	if (phase == NULL)
		tab_col(t, "Percent of total time (%)");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&gr.vals[g]);

		tl_set_name(t, r, 0, tl, kernel_parent_cat(tl, k));
		if (k->op != NONE)
			tab_set_str(t, r, 1, tl_str(tl, tl->op[k->op].name));
		tab_set_str(t, r, 2, tl_str(tl, k->name));
		tab_set_int(t, r, 3, k->stream);
		tab_set_num(t, r, 4, sum);
		tab_set_int(t, r, 5, (long long)gr.vals[g].n);
		tab_set_num(t, r, 6, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, 7, stat_min(&gr.vals[g]));
		tab_set_num(t, r, 8, stat_max(&gr.vals[g]));
		tab_set_num(t, r, 9, sum / all * 100);
		if (phase == NULL)
			tab_set_num(t, r, 10, sum / total_us * 100);
	}
	{
		/* groupby orders groups by key (empty last); then pandas' sort on the sum */
		struct tab_key keys[] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } };

		tab_sort(t, keys, 4);
		tab_sort_pandas(t, 4, 1);
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

struct tab *
tl_sheet_short_summary(struct tl *tl, const struct tl_opts *o, double total_us)
{
	struct tab *t = tab_new("short_kernels_summary");
	bool gpu = tl_gpu_only(tl);
	struct tab_groups gr;
	size_t i, g, c0, nshort = 0;
	struct buf key = BUF_INIT;

	tab_groups_init(&gr);
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		const struct top *op;

		if (k->gpu != TL_GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		nshort++;
		buf_reset(&key);
		if (gpu)
			buf_printf(&key, "%u", k->name);
		else {
			/* dropna: no cpu_op parent (unlinked, runtime launches) or a
			 * missing argument list (NaN) drops out */
			if (k->op == NONE || (op = &tl->op[k->op])->runtime ||
			    TDIMS(op) == NAME_NONE || TSTRIDES(op) == NAME_NONE ||
			    TCONC(op) == NAME_NONE)
				continue;
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u", op->name, TDIMS(op),
			    TSTRIDES(op), TCONC(op), k->name);
		}
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
	}
	if (nshort == 0) {
		/* no short kernel: pandas' DataFrame(), written as an empty line */
		tab_groups_free(&gr);
		buf_free(&key);
		return t;
	}
	if (gr.n == 0) {
		/* every short kernel dropped (no shapes in the trace): pandas' empty
		 * groupby keeps only its two header rows, (Kernel duration (µs); sum,
		 * count, mean), which the second row here stands for */
		for (i = 0; i < 3; i++)
			tab_col(t, "Kernel duration (\u00b5s)");
		g = tab_row(t);
		tab_set_str(t, g, 0, "sum");
		tab_set_str(t, g, 1, "count");
		tab_set_str(t, g, 2, "mean");
		tab_groups_free(&gr);
		buf_free(&key);
		return t;
	}
	if (!gpu) {
		tab_col(t, "Parent cpu_op");
		tab_col(t, "Input dims");
		tab_col(t, "Input strides");
		tab_col(t, "Concrete Inputs");
	}
	c0 = tab_col(t, "Kernel name");
	tab_col(t, "Short Kernel duration (\u00b5s) sum");
	tab_col(t, "Short Kernel count");
	tab_col(t, "Short Kernel duration (\u00b5s) mean");
	tab_col(t, "Short Kernel duration (\u00b5s) percent of total time");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&gr.vals[g]);

		if (!gpu) {
			const struct top *op = &tl->op[k->op];

			tab_set_str(t, r, 0, tl_str(tl, op->name));
			tl_set_name(t, r, 1, tl, TDIMS(op));
			tl_set_name(t, r, 2, tl, TSTRIDES(op));
			tl_set_name(t, r, 3, tl, TCONC(op));
		}
		tab_set_str(t, r, c0, tl_str(tl, k->name));
		tab_set_num(t, r, c0 + 1, sum);
		tab_set_int(t, r, c0 + 2, (long long)gr.vals[g].n);
		tab_set_num(t, r, c0 + 3, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, c0 + 4, sum / total_us * 100);
	}
	{
		struct tab_key keys[] = { { c0 + 1, 1 }, { c0 + 2, 0 }, { c0 + 3, 0 },
		    { c0 + 4, 0 } };

		tab_sort(t, keys, 4);
	}
	if (o->topk_short >= 0)
		tab_truncate(t, (size_t)o->topk_short);
	tab_groups_free(&gr);
	buf_free(&key);
	return t;
}
