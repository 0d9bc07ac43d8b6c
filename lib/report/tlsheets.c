/* SPDX-License-Identifier: ISC */
/* tlsheets: TraceLens's sheets in their order, each handed on as built (spec
 * docs/tracelens.md §7); the helpers the sheet families share. */
#include <ctype.h>
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

const char *const tl_sheet_names[] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary_by_phase", "ops_summary",
	"ops_unique_args", "unified_perf_summary", "ops_summary_prefill",
	"ops_summary_decode", "<family>", "kernel_summary", "kernel_summary_prefill",
	"kernel_summary_decode", "short_kernel_histogram",
	"short_kernels_summary", "coll_analysis", NULL
};

void
tl_set_name(struct tab *t, size_t r, size_t c, const struct tl *tl, uint32_t s)
{
	if (s != NAME_NONE)
		tab_set_str(t, r, c, tl_str(tl, s));
}

/* s with every "_<digits>" run removed (TraceLens's re.sub(r"_\d+", "", s)), into b. */
void
tl_strip_num_runs(struct buf *b, const char *f)
{
	size_t k = 0, len = strlen(f);

	while (k < len) {
		if (f[k] == '_' && k + 1 < len && isdigit((unsigned char)f[k + 1])) {
			for (k++; k < len && isdigit((unsigned char)f[k]); k++)
				;
			continue;
		}
		buf_addc(b, f[k++]);
	}
}

int
tl_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
tl_push(struct sink *sk, struct tab *t)
{
	if (t->nrows == 0 && strncmp(t->name, "short_kernel", 12) != 0) {
		tab_free(t);
		return;
	}
	sk->n++;
	sk->fn(t, sk->ctx);
}

/* tl_push_groups' order (tab_sort's on the sort column, descending, and ex_UID; or
 * the sheet's own, gs_cur's cmp). */
static const double *gs_key;
static const struct tl_grows *gs_cur;

static int
gs_cmp_own(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return gs_cur->cmp(gs_cur->ctx, x, y);
}

static int
gs_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double kx = gs_key[x], ky = gs_key[y];
	int nx = isnan(kx), ny = isnan(ky);
	long long ux, uy;

	if (nx || ny) {
		if (nx != ny)	/* empty last in either direction */
			return nx - ny;
	} else if (kx != ky)
		return kx < ky ? 1 : -1;
	if ((ux = gs_cur->uid(gs_cur->ctx, x)) != (uy = gs_cur->uid(gs_cur->ctx, y)))
		return (ux > uy) - (ux < uy);
	return (x > y) - (x < y);
}

/* The groups in the sheet's order; gs->key[] made what its cells hold (non-finite:
 * empty). */
static uint32_t *
gs_order(const struct tl_grows *gs)
{
	uint32_t *ord = xreallocarray(NULL, gs->ng + 1, sizeof(*ord));
	double *key = gs->key;
	size_t g;

	for (g = 0; g < gs->ng; g++)
		ord[g] = (uint32_t)g;
	if (gs->cmp != NULL) {
		gs_cur = gs;
		qsort(ord, gs->ng, sizeof(*ord), gs_cmp_own);
		gs_cur = NULL;
		return ord;
	}
	for (g = 0; g < gs->ng; g++)
		if (!isfinite(key[g]))
			key[g] = NAN;
	gs_key = key;
	gs_cur = gs;
	qsort(ord, gs->ng, sizeof(*ord), gs_cmp);
	gs_key = NULL;
	gs_cur = NULL;
	return ord;
}

/* tab_percentages' total: numpy's sum of the sort column in the sheet's order, NaN as
 * 0. */
static double
gs_total(const double *key, const uint32_t *ord, size_t ng)
{
	struct vec all = VEC_INIT;
	double total;
	size_t i;

	for (i = 0; i < ng; i++)
		vec_add(&all, isnan(key[ord[i]]) ? 0 : key[ord[i]]);
	total = stat_npsum(&all);
	vec_free(&all);
	return total;
}

void
tl_push_groups(struct sink *sk, const struct tl_grows *gs)
{
	size_t nw = gs->cmp != NULL && gs->rows < gs->ng ? gs->rows : gs->ng;
	int parts = sk->part != NULL && sk->rows > 0 && nw > 0;
	size_t per = parts ? sk->rows : nw, i = 0, j, n, pc = 0, cc = 0;
	double *key = gs->key, total = 0, cum = 0;
	uint32_t *ord = gs_order(gs);
	struct tab *t;

	if (parts && gs->pct) {
		pc = tab_col(gs->t, "Percentage (%)");
		cc = tab_col(gs->t, "Cumulative Percentage (%)");
		total = gs_total(key, ord, gs->ng);
	}
	do {
		t = parts ? tab_copy(gs->t, gs->t->name) : gs->t;
		n = nw - i < per ? nw - i : per;
		tab_reserve(t, n);
		for (j = 0; j < n; j++, i++) {
			size_t r = tab_row(t);
			double p;

			gs->row(gs->ctx, t, r, ord[i]);
			if (!parts || !gs->pct || isnan(p = key[ord[i]] / total * 100))
				continue;
			cum += p;
			tab_set_num(t, r, pc, p);
			tab_set_num(t, r, cc, cum);
		}
		if (!parts) {
			if (gs->pct)
				tab_percentages(t, gs->keycol);
			tl_push(sk, t);
		} else
			sk->part(t, i < nw, sk->ctx);
	} while (i < nw);
	if (parts) {
		sk->n++;
		tab_free(gs->t);
	}
	free(ord);
}

/* tl_sheets_parts with whole sheets. */
size_t
tl_sheets_each(struct tl *tl, const struct tl_opts *o, void (*fn)(struct tab *, void *),
    void *ctx, struct error *err)
{
	return tl_sheets_parts(tl, o, fn, NULL, 0, ctx, err);
}

size_t
tl_sheets_parts(struct tl *tl, const struct tl_opts *o, void (*fn)(struct tab *, void *),
    void (*part)(struct tab *, int, void *), size_t rows, void *ctx, struct error *err)
{
	struct tl_timeline tm;
	struct launchers L;
	struct lstat *ls;
	struct tab *ph[2];
	const char *why;
	struct sink sink = { fn, ctx, 0, part, rows }, *sk = &sink;

	tl->o = o;
	if (error_is_set(&tl->refused)) {
		error_set(err, tl->refused.file, tl->refused.line, tl->refused.off, "%s",
		    tl->refused.msg);
		return 0;
	}
	tl_link(tl);
	if (o->pseudo_ops && (why = tl_pseudo_ops(tl)) != NULL) {
		error_set(err, NULL, 0, -1, "--enable_pseudo_ops: the trace has %s, whose "
		    "pseudo ops ttp does not build yet", why);
		return 0;
	}
	tl_timeline(tl, o->include_unlinked, o->micro_idle_us, &tm);
	tl_push(sk, tl_sheet_timeline(&tm, o));
	if (!tl_gpu_only(tl)) {
		tl_launchers_build(tl, &L);
		if (o->by_module)
			tl_launchers_modules(tl, &L);
		ls = xreallocarray(NULL, L.n + 1, sizeof(*ls));
		tl_launcher_times(tl, &L, ls);
		tl_push(sk, tl_sheet_by_category(tl, &L, ls));
		tl_push(sk, tl_sheet_by_phase(tl, &L));
		tl_push(sk, tl_sheet_ops_summary(tl, &L, ls));
		tl_sheet_unique_args(tl, &L, ls, sk);
		/* the phase sheets (a row per name) read the launchers, which the sheets
		 * of a row per op after them do not: made now and the launchers freed,
		 * handed on where the inference-phase branch puts them */
		ph[0] = tl_sheet_phase(tl, &L, "prefill");
		ph[1] = tl_sheet_phase(tl, &L, "decode");
		free(ls);
		tl_launchers_free(&L);
		tl_sheet_unified(tl, sk);
		tl_push(sk, ph[0]);
		tl_push(sk, ph[1]);
		tl_sheets_roofline(tl, sk);
	}
	if (o->kernel_summary) {
		tl_push(sk, tl_sheet_kernel_summary(tl, tm.total, NULL));
		tl_push(sk, tl_sheet_kernel_summary(tl, tm.total, "prefill"));
		tl_push(sk, tl_sheet_kernel_summary(tl, tm.total, "decode"));
	}
	if (o->short_kernels) {
		tl_push(sk, tl_sheet_short_histogram(tl, o));
		tl_sheet_short_summary(tl, o, tm.total, sk);
	}
	if (o->coll && !o->inference && !tl_gpu_only(tl))
		tl_push(sk, tl_sheet_coll(tl));
	return sink.n;
}

struct collect {
	struct tab	**v;
	size_t		  n;
};

static void
collect(struct tab *t, void *ctx)
{
	struct collect *c = ctx;

	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = t;
}

size_t
tl_sheets(struct tl *tl, const struct tl_opts *o, struct tab ***out, struct error *err)
{
	struct collect c = { NULL, 0 };

	tl_sheets_each(tl, o, collect, &c, err);
	*out = c.v;
	return c.n;
}

void
tl_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}
