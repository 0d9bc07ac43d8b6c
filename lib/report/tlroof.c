/* SPDX-License-Identifier: ISC */
/* tlroof: the per-family roofline sheets (docs/tracelens.md §3.3, §7.5). */
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
#include "torch/opclass.h"
#include "tlcommon.h"

/* --- per-family roofline sheets (§3.3, §7.5) ---------------------------------------- */

static const char *const binary_ops[] = {
	"aten::div", "aten::div_", "aten::mul", "aten::mul_", "aten::add", "aten::add_",
	"aten::sigmoid_backward", "aten::threshold_backward", "LigerSiLUMulFunction", NULL
};

/* Sheet families in TraceLens's registry order; each fwd before its bwd. */
static const char *const families[] = {
	"GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd", "InferenceAttention_fwd",
	"BinaryElementwise", "UnaryElementwise", "GroupedGEMM_fwd", "GroupedGEMM_bwd",
	"MoE_comm_fwd", "MoE_comm_bwd", "SSM_fwd", "SSM_bwd", "RoPE_fwd", "RoPE_bwd",
	"CrossEntropy_fwd", "CrossEntropy_bwd", "MoE_fused_fwd", "MoE_unfused_fwd",
	"MoE_aux_fwd", "RMSNorm_fwd", "elementwise_fwd", "GroupQuant_fwd", "FusedRoPE_fwd",
	"CustomCollective_fwd", "mHC_fwd", "Normalization", "Normalization_fwd", "Reduce_fwd", "Reduce_bwd", NULL
};

/* The roofline sheet of a modelled op: ttp-roofline's "sheet" key, or else derived from
 * its category as TraceLens names its sheets. */
static uint32_t
op_sheet(struct tl *tl, size_t i)
{
	struct top *o = &tl->op[i];
	/* a modelled op has figures (has_sheet) */
	struct tmod *m = &tl->mod[o->mod];
	const char *c, *n = tl_str(tl, o->name);
	char sheet[128];
	size_t j;

	if (m->sheet != NAME_NONE) {
		/* ttp-roofline names the training report's sheets; the inference report
		 * splits Normalization too (Normalization_fwd) */
		if (tl->o->inference)
			m->sheet = tl_intern(tl, opclass_sheet(tl_str(tl, m->sheet), false, true,
			    sheet, sizeof(sheet)));
		return m->sheet;
	}
	c = tl_str(tl, tl_op_category(tl, i));
	if (strcmp(c, "elementwise") == 0) {
		for (j = 0; binary_ops[j] && strcmp(binary_ops[j], n) != 0; j++)
			;
		return m->sheet = tl_intern(tl, binary_ops[j] ? "BinaryElementwise" :
		    "UnaryElementwise");
	}
	if (strncmp(c, "NORM_", 5) == 0)
		c = "Normalization";
	else if (strcmp(c, "reduce") == 0)
		c = "Reduce";
	return m->sheet = tl_intern(tl, opclass_sheet(c, false, tl->o->inference, sheet,
	    sizeof(sheet)));
}

/* A modelled CPU op of a roofline sheet: TraceLens's sheets list registered names, so
 * TorchInductor's Triton kernels (category "triton"), modelled by name pattern, have
 * none. */
static int
has_sheet(struct tl *tl, size_t i)
{
	const struct top *o = &tl->op[i];

	return o->model && !o->runtime && strcmp(tl_str(tl, tl_op_category(tl, i)), "triton") != 0;
}

/* A row of a roofline sheet before grouping, 8 bytes: the modelled op and the op it
 * shows (the op, or the forward op of backward figures). Its events, figures and
 * kernel time are made again when its group's row is built (frow_full). */
struct frow {
	uint32_t	op, as;
};

/* The rows of a roofline sheet in the order of the ops they show (rank, id), equal
 * ones in their order. */
static const struct tl *sort_tl;

static int
as_cmp(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;
	const struct top *ox = &sort_tl->op[x->as], *oy = &sort_tl->op[y->as];
	long long rx = tl_op_rank(sort_tl, ox), ry = tl_op_rank(sort_tl, oy);

	if (rx != ry)
		return (rx > ry) - (rx < ry);
	if (ox->id != oy->id)
		return (ox->id > oy->id) - (ox->id < oy->id);
	return (x->op > y->op) - (x->op < y->op);
}

static void
sort_as(const struct tl *tl, struct frow *p, size_t n)
{
	sort_tl = tl;
	qsort(p, n, sizeof(*p), as_cmp);
	sort_tl = NULL;
}

/* Row r in full, as the sheet's columns take it: its figures, its events sorted by
 * ts, its kernel time. */
static void
frow_full(struct tl *tl, const struct frow *r, struct prow *p)
{
	const struct tmod *m = tl_mod(tl, &tl->op[r->op]);

	memset(p, 0, sizeof(*p));
	p->op = r->op;
	p->as = r->as;
	p->uid = tl->op[r->as].id;
	p->flops = m->flops;
	p->bytes = m->bytes;
	p->roof_us = m->roof_us;
	tl_prow_events(tl, p, r->op);
}

/* The value of param key of op o (its repr), or NULL when o has none. */
static const char *
param_of(const struct tl *tl, const struct top *o, uint32_t key)
{
	size_t i;

	for (i = 0; i < tl_mod(tl, o)->np; i++)
		if (PK(o, i) == key)
			return tl_str(tl, PV(o, i));
	return NULL;
}

/* Python's repr of an int: digits after an optional minus. */
static bool
is_int_repr(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* ... or of a float: "1.5", "1e-05", "inf", "-inf", "nan". */
static bool
is_float_repr(const char *s)
{
	char *end;

	if (strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0)
		return true;
	if (!strpbrk(s, ".e") || !(isdigit((unsigned char)*s) || *s == '-'))
		return false;
	(void)strtod(s, &end);
	return *end == '\0' && end != s;
}

/* The roofline sheets' param columns as TraceLens's DataFrame holds them before
 * astype(str): a column that some op of the sheet lacks holds NaN there, and when its
 * other values are all numbers pandas makes it float64, so an int shows as a float
 * ("64.0"). Per column (pk[j]): whether it is such a float column. */
static bool *
param_columns(const struct tl *tl, const struct frow *p, size_t n, const uint32_t *pk,
    size_t npk)
{
	bool *fl = xcalloc(npk ? npk : 1, sizeof(*fl));
	size_t i, j;

	for (j = 0; j < npk; j++) {
		bool missing = false, numeric = true;

		for (i = 0; i < n; i++) {
			const char *v = param_of(tl, &tl->op[p[i].op], pk[j]);

			if (v == NULL)
				missing = true;
			else if (!is_int_repr(v) && !is_float_repr(v))
				numeric = false;
		}
		fl[j] = missing && numeric;
	}
	return fl;
}

/* Cell (r, col) of a roofline sheet: op o's param key after astype(str), "nan" where o
 * lacks it (TraceLens groups and shows the strings), an int as a float in a float
 * column. */
static void
param_cell(const struct tl *tl, struct tab *t, size_t r, size_t col, const struct top *o,
    uint32_t key, bool isfloat)
{
	const char *v = param_of(tl, o, key);
	struct buf b = BUF_INIT;

	if (v == NULL)
		v = "nan";
	else if (isfloat && is_int_repr(v)) {
		py_float(&b, strtod(v, NULL));
		buf_addc(&b, '\0');
		v = b.p;
	}
	tab_set_str(t, r, col, v);
	buf_free(&b);
}

/* A roofline sheet's first-member sources (the series are struct pgroup's). */
enum { FF_NAME = PG_NV, FF_NK, FF_PROC, FF_LABEL, FF_THREAD, FF_SPEC, FF_BOUND, FF_LDIMS,
	FF_LTYPES, FF_LSTRIDES, FF_LCONC, FF_UID };
/* Its columns after name and the param columns. */
enum { FC_NK, FC_GF, FC_MB, FC_FB, FC_TBMEAN, FC_TBMEDIAN, FC_TBSTD, FC_TBMIN, FC_TBMAX,
	FC_TFMEAN, FC_TFMEDIAN, FC_TFSTD, FC_TFMIN, FC_TFMAX, FC_PROC, FC_LABEL, FC_THREAD,
	FC_SPEC, FC_ROOF, FC_BOUND, FC_PMEAN, FC_PMEDIAN, FC_PSTD, FC_PMIN, FC_PMAX, FC_KDS,
	FC_TKD, FC_DIMS, FC_TYPES, FC_STRIDES, FC_CONC, FC_KTMEAN, FC_KTMEDIAN, FC_KTSTD,
	FC_KTMIN, FC_KTMAX, FC_KTSUM, FC_COUNT, FC_UID, FC_N };
#define FC_NKERNELS	1u	/* --group_by_num_kernels: the op's kernels, its subtree's */
#define FC_ROOFLINE	2u

static const struct tl_col fcols[FC_N] = {
	[FC_NK] = { "num_kernels", FF_NK, TL_FIRST, TL_INT, FC_NKERNELS, 0 },
	[FC_GF] = { "GFLOPS_first", PG_GF, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[FC_MB] = { "Data Moved (MB)_first", PG_MB, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[FC_FB] = { "FLOPS/Byte_first", PG_FB, TL_FIRSTNUM, TL_NUM, 0, 0 },
	[FC_TBMEAN] = { "TB/s_mean", PG_TB, TL_MEAN, TL_NUM, 0, 0 },
	[FC_TBMEDIAN] = { "TB/s_median", PG_TB, TL_MEDIAN, TL_NUM, 0, 0 },
	[FC_TBSTD] = { "TB/s_std", PG_TB, TL_STD, TL_NUM, 0, 0 },
	[FC_TBMIN] = { "TB/s_min", PG_TB, TL_MIN, TL_NUM, 0, 0 },
	[FC_TBMAX] = { "TB/s_max", PG_TB, TL_MAX, TL_NUM, 0, 0 },
	[FC_TFMEAN] = { "TFLOPS/s_mean", PG_TF, TL_MEAN, TL_NUM, 0, 0 },
	[FC_TFMEDIAN] = { "TFLOPS/s_median", PG_TF, TL_MEDIAN, TL_NUM, 0, 0 },
	[FC_TFSTD] = { "TFLOPS/s_std", PG_TF, TL_STD, TL_NUM, 0, 0 },
	[FC_TFMIN] = { "TFLOPS/s_min", PG_TF, TL_MIN, TL_NUM, 0, 0 },
	[FC_TFMAX] = { "TFLOPS/s_max", PG_TF, TL_MAX, TL_NUM, 0, 0 },
	[FC_PROC] = { "process_name_first", FF_PROC, TL_FIRST, TL_STR, 0, 0 },
	[FC_LABEL] = { "process_label_first", FF_LABEL, TL_FIRST, TL_STR, 0, 0 },
	[FC_THREAD] = { "thread_name_first", FF_THREAD, TL_FIRST, TL_STR, 0, 0 },
	[FC_SPEC] = { "Compute Spec", FF_SPEC, TL_FIRST, TL_STR, 0, 0 },
	[FC_ROOF] = { "Roofline Time (\u00b5s)_first", PG_ROOF, TL_FIRSTNUM, TL_NUM,
	    FC_ROOFLINE, 0 },
	[FC_BOUND] = { "Roofline Bound_first", FF_BOUND, TL_FIRST, TL_STR, FC_ROOFLINE, 0 },
	[FC_PMEAN] = { "Pct Roofline_mean", PG_PCT, TL_MEAN, TL_NUM, FC_ROOFLINE, 0 },
	[FC_PMEDIAN] = { "Pct Roofline_median", PG_PCT, TL_MEDIAN, TL_NUM, FC_ROOFLINE, 0 },
	[FC_PSTD] = { "Pct Roofline_std", PG_PCT, TL_STD, TL_NUM, FC_ROOFLINE, 0 },
	[FC_PMIN] = { "Pct Roofline_min", PG_PCT, TL_MIN, TL_NUM, FC_ROOFLINE, 0 },
	[FC_PMAX] = { "Pct Roofline_max", PG_PCT, TL_MAX, TL_NUM, FC_ROOFLINE, 0 },
	[FC_KDS] = { "kernel_details__summarize_kernel_stats", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[FC_TKD] = { "trunc_kernel_details", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[FC_DIMS] = { "Input Dims_first", FF_LDIMS, TL_FIRST, TL_STR, 0, 0 },
	[FC_TYPES] = { "Input type_first", FF_LTYPES, TL_FIRST, TL_STR, 0, 0 },
	[FC_STRIDES] = { "Input Strides_first", FF_LSTRIDES, TL_FIRST, TL_STR, 0, 0 },
	[FC_CONC] = { "Concrete Inputs_first", FF_LCONC, TL_FIRST, TL_STR, 0, 0 },
	[FC_KTMEAN] = { "Kernel Time (\u00b5s)_mean", PG_KT, TL_MEAN, TL_NUM, 0, 0 },
	[FC_KTMEDIAN] = { "Kernel Time (\u00b5s)_median", PG_KT, TL_MEDIAN, TL_NUM, 0, 0 },
	[FC_KTSTD] = { "Kernel Time (\u00b5s)_std", PG_KT, TL_STD, TL_NUM, 0, 0 },
	[FC_KTMIN] = { "Kernel Time (\u00b5s)_min", PG_KT, TL_MIN, TL_NUM, 0, 0 },
	[FC_KTMAX] = { "Kernel Time (\u00b5s)_max", PG_KT, TL_MAX, TL_NUM, 0, 0 },
	[FC_KTSUM] = { "Kernel Time (\u00b5s)_sum", PG_KT, TL_SUM, TL_NUM, 0, 0 },
	[FC_COUNT] = { "name_count", PG_KT, TL_COUNT, TL_INT, 0, 0 },
	[FC_UID] = { "UID_first", FF_UID, TL_FIRST, TL_INT, 0, 0 },
};

/* The first member's values (its forward op's, for backward figures); Compute Spec is
 * the first that has one. */
static void
ffirst(void *ctx, int src, struct tl_val *v)
{
	const struct pgroup *g = ctx;
	struct tl *tl = g->tl;
	const struct prow *p0 = &g->p[g->m[0]];
	const struct top *as = &tl->op[p0->as];
	uint32_t s = NAME_NONE;
	size_t i;

	switch (src) {
	case FF_NAME: s = as->name; break;
	case FF_PROC: s = tl_op_who(tl, as, TL_PROCESS); break;
	case FF_LABEL: s = tl_op_who(tl, as, TL_LABEL); break;
	case FF_THREAD: s = tl_op_who(tl, as, TL_THREAD); break;
	case FF_BOUND: s = tl_pgroup_bound(g); break;
	case FF_LDIMS: case FF_LTYPES: case FF_LSTRIDES: case FF_LCONC: {
		const char *l = tl_arg_list(tl, as, src - FF_LDIMS);

		if (l != NULL)
			*v = tl_val_str(l);
		return;
	}
	case FF_SPEC:
		for (i = 0; i < g->nm && s == NAME_NONE; i++)
			s = tl_mod(tl, &tl->op[g->p[g->m[i]].op])->spec;
		break;
	case FF_NK:
		*v = (struct tl_val){ TAB_INT, (long long)p0->nev, 0, NULL };
		return;
	case FF_UID:
		*v = (struct tl_val){ TAB_INT, p0->uid, 0, NULL };
		return;
	}
	if (s != NAME_NONE)
		*v = tl_val_str(tl_str(tl, s));
}

/* The rows of family fam's sheet: every modelled op of the family, in id order
 * (TraceLens's event order); *pk (*npk) the param names in order of appearance. */
static struct frow *
family_rows(struct tl *tl, uint32_t fam, size_t *np, uint32_t **pk, size_t *npk)
{
	struct frow *p;
	size_t n = 0, i, j, c, nbwd = 0;

	*pk = NULL;
	*npk = 0;
	for (i = 0; i < tl->nop; i++)
		n += has_sheet(tl, tl->byid[i]) && op_sheet(tl, tl->byid[i]) == fam;
	p = xreallocarray(NULL, n + 1, sizeof(*p));
	for (n = 0, i = 0; i < tl->nop; i++) {
		size_t x = tl->byid[i];
		const struct top *o = &tl->op[x];

		if (!has_sheet(tl, x) || op_sheet(tl, x) != fam)
			continue;
		p[n].op = p[n].as = (uint32_t)x;
		/* backward figures (ttp-roofline's bwd_of): TraceLens's row is the
		 * forward op's, with the backward op's kernels */
		if (tl_mod(tl, o)->bwd_of >= 0 && (j = tl_find_op(tl, tl_op_rank(tl, o),
		    tl_mod(tl, o)->bwd_of)) != NONE) {
			p[n].as = (uint32_t)j;
			nbwd++;
		}
		for (j = 0; j < tl_mod(tl, o)->np; j++) {
			for (c = 0; c < *npk && (*pk)[c] != PK(o, j); c++)
				;
			if (c == *npk) {
				*pk = xreallocarray(*pk, *npk + 1, sizeof(**pk));
				(*pk)[(*npk)++] = PK(o, j);
			}
		}
		n++;
	}
	if (nbwd > 0)	/* in the forward ops' order, as TraceLens's rows */
		sort_as(tl, p, n);
	*np = n;
	return p;
}

struct fkey {
	struct tl		*tl;
	const struct frow	*p;
	const uint32_t		*nev;	/* with by_nkernels: each row's kernel count */
};

/* A roofline row's group key: its name, params (and kernel count). */
static void
frow_key(void *ctx, size_t i, struct buf *key)
{
	const struct fkey *k = ctx;
	struct tl *tl = k->tl;
	const struct top *o = &tl->op[k->p[i].op];
	size_t j;

	buf_printf(key, "%u", tl->op[k->p[i].as].name);
	for (j = 0; j < tl_mod(tl, o)->np; j++)
		buf_printf(key, "\x1f%u=%u", PK(o, j), PV(o, j));
	if (k->nev != NULL)
		buf_printf(key, "\x1fk%u", k->nev[i]);
}

/* A roofline sheet's groups, for tl_push_groups. */
struct fgroups {
	struct tl		*tl;
	const struct frow	*p;
	const uint32_t		*start, *mem;
	const size_t		*idx;
	const uint32_t		*pk;
	const bool		*pfloat;
	size_t			 npk;
	struct buf		 sum, trunc;
};

static void
family_row(void *ctx, struct tab *t, size_t r, size_t grp_i)
{
	struct fgroups *f = ctx;
	struct tl *tl = f->tl;
	size_t nm = f->start[grp_i + 1] - f->start[grp_i], i, j;
	const uint32_t *mem = f->mem + f->start[grp_i];
	struct prow *p = xreallocarray(NULL, nm, sizeof(*p));
	uint32_t *m = xreallocarray(NULL, nm, sizeof(*m));
	struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
	struct pgroup g;
	struct tl_group grp = { g.vp, ffirst, &g, NULL };

	for (i = 0; i < nm; i++) {
		frow_full(tl, &f->p[mem[i]], &p[i]);
		m[i] = (uint32_t)i;
	}
	tl_pgroup(&g, tl, p, m, nm);
	tab_set_str(t, r, 0, tl_str(tl, tl->op[p[0].as].name));
	for (j = 0; j < f->npk; j++)
		param_cell(tl, t, r, 1 + j, &tl->op[p[0].op], f->pk[j], f->pfloat[j]);
	tl_cols_row(t, r, fcols, FC_N, f->idx, &grp);
	for (i = 0; i < nm; i++)
		kl[i] = (struct klist){ p[i].ev, p[i].nev };
	tl_kernel_details(tl, kl, nm, &f->sum, &f->trunc);
	/* every event carries a kernel_details list, [] for an op with no kernels
	 * (CPU-only instances), and _summarize_kernel_stats gives [] for a group
	 * of empty lists; trunc_kernel_details is None there */
	tab_set_str(t, r, f->idx[FC_KDS], f->sum.p);
	if (f->sum.len > 2)
		tab_set_str(t, r, f->idx[FC_TKD], f->trunc.p);
	tl_pgroup_free(&g);
	free(kl);
	free(m);
	for (i = 0; i < nm; i++)
		free(p[i].ev);
	free(p);
}

/* A group's UID_first: its first row's. */
static long long
family_uid(void *ctx, size_t g)
{
	const struct fgroups *f = ctx;

	return f->tl->op[f->p[f->mem[f->start[g]]].as].id;
}

static void
sheet_family(struct tl *tl, uint32_t fam, struct sink *sk)
{
	struct tab *t = tab_new(tl_str(tl, fam));
	struct frow *p;
	struct fkey fk;
	double *kt;
	uint32_t *nev = NULL;
	uint32_t *pk;
	bool *pfloat;
	size_t n, npk, i, j, ng, idx[FC_N];
	uint32_t *start, *mem;
	struct buf name = BUF_INIT;
	struct fgroups f;
	struct tl_grows gs;
	double *key;

	p = family_rows(tl, fam, &n, &pk, &npk);
	tab_col(t, "name");
	for (j = 0; j < npk; j++) {
		buf_reset(&name);
		buf_printf(&name, "param: %s", tl_str(tl, pk[j]));
		tab_col(t, name.p);
	}
	tl_cols_add(t, fcols, FC_N, (tl->o->by_nkernels ? FC_NKERNELS : 0) |
	    (tl->roofline ? FC_ROOFLINE : 0), idx);
	pfloat = param_columns(tl, p, n, pk, npk);
	/* each row's kernel time (and kernel count), the rest made again by row */
	kt = xreallocarray(NULL, n + 1, sizeof(*kt));
	if (tl->o->by_nkernels)
		nev = xreallocarray(NULL, n + 1, sizeof(*nev));
	for (i = 0; i < n; i++) {
		struct prow q;

		frow_full(tl, &p[i], &q);
		kt[i] = q.ktime;
		if (nev != NULL)
			nev[i] = (uint32_t)q.nev;
		free(q.ev);
	}
	fk = (struct fkey){ tl, p, nev };
	ng = tl_group_by(n, frow_key, &fk, &start, &mem);
	free(nev);
	key = xreallocarray(NULL, ng + 1, sizeof(*key));
	/* the order: Kernel Time sum (pandas' sum of the members'), UID_first */
	for (i = 0; i < ng; i++) {
		struct stat_acc a;

		memset(&a, 0, sizeof(a));
		for (j = start[i]; j < start[i + 1]; j++)
			stat_acc_add(&a, kt[mem[j]]);
		key[i] = stat_acc_sum(&a);
	}
	free(kt);
	f = (struct fgroups){ tl, p, start, mem, idx, pk, pfloat, npk, BUF_INIT, BUF_INIT };
	gs = (struct tl_grows){ t, ng, key, family_uid, idx[FC_KTSUM], 0, family_row, &f,
	    NULL, 0 };
	tl_push_groups(sk, &gs);
	free(key);
	free(start);
	free(mem);
	free(pk);
	free(pfloat);
	free(p);
	buf_free(&name);
	buf_free(&f.sum);
	buf_free(&f.trunc);
}

void
tl_sheets_roofline(struct tl *tl, struct sink *sk)
{
	uint32_t *fam = NULL;
	size_t nf = 0, i, j;

	for (i = 0; i < tl->nop; i++) {
		uint32_t f;

		if (!has_sheet(tl, i))
			continue;
		f = op_sheet(tl, i);
		for (j = 0; j < nf && fam[j] != f; j++)
			;
		if (j == nf) {
			fam = xreallocarray(fam, nf + 1, sizeof(*fam));
			fam[nf++] = f;
		}
	}
	/* registry order first, then any other family in order of appearance */
	for (i = 0; families[i]; i++)
		for (j = 0; j < nf; j++)
			if (fam[j] != NAME_NONE && strcmp(tl_str(tl, fam[j]), families[i]) == 0) {
				sheet_family(tl, fam[j], sk);
				fam[j] = NAME_NONE;
			}
	for (j = 0; j < nf; j++)
		if (fam[j] != NAME_NONE)
			sheet_family(tl, fam[j], sk);
	free(fam);
}
