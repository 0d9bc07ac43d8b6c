/* SPDX-License-Identifier: ISC */
/* tlroof: the per-family roofline sheets (spec tracelens.md §3.3, §7.5). */
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
	const char *c, *n = tl_str(tl, o->name);
	char sheet[128];
	size_t j;

	if (o->sheet != NAME_NONE) {
		/* ttp-roofline names the training report's sheets; the inference report
		 * splits Normalization too (Normalization_fwd) */
		if (tl->o->inference)
			o->sheet = tl_intern(tl, opclass_sheet(tl_str(tl, o->sheet), false, true,
			    sheet, sizeof(sheet)));
		return o->sheet;
	}
	c = tl_str(tl, tl_op_category(tl, i));
	if (strcmp(c, "elementwise") == 0) {
		for (j = 0; binary_ops[j] && strcmp(binary_ops[j], n) != 0; j++)
			;
		return o->sheet = tl_intern(tl, binary_ops[j] ? "BinaryElementwise" :
		    "UnaryElementwise");
	}
	if (strncmp(c, "NORM_", 5) == 0)
		c = "Normalization";
	else if (strcmp(c, "reduce") == 0)
		c = "Reduce";
	return o->sheet = tl_intern(tl, opclass_sheet(c, false, tl->o->inference, sheet,
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

/* The rows of a roofline sheet in the order of the ops they show (rank, id), equal
 * ones in their order. */
static const struct tl *sort_tl;

static int
as_cmp(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	const struct top *ox = &sort_tl->op[x->as], *oy = &sort_tl->op[y->as];

	if (ox->rank != oy->rank)
		return (ox->rank > oy->rank) - (ox->rank < oy->rank);
	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->op > y->op) - (x->op < y->op);
}

static void
sort_as(const struct tl *tl, struct prow *p, size_t n)
{
	sort_tl = tl;
	qsort(p, n, sizeof(*p), as_cmp);
	sort_tl = NULL;
}

/* The value of param key of op o (its repr), or NULL when o has none. */
static const char *
param_of(const struct tl *tl, const struct top *o, uint32_t key)
{
	size_t i;

	for (i = 0; i < o->np; i++)
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
param_columns(const struct tl *tl, const struct prow *p, size_t n, const uint32_t *pk,
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

static struct tab *
sheet_family(struct tl *tl, uint32_t fam)
{
	struct tab *t = tab_new(tl_str(tl, fam));
	struct prow *p = NULL;
	uint32_t *pk = NULL;
	bool *pfloat;
	size_t n = 0, pcap = 0, npk = 0, i, j, r, ng, *start, *mem, c0, c, rc, k, cnk = 0, nbwd = 0;
	static const char *const st[] = { "mean", "median", "std", "min", "max" };
	struct buf name = BUF_INIT, sum = BUF_INIT, trunc = BUF_INIT;

	/* every modelled op of the family, in id order (TraceLens's event order) */
	for (i = 0; i < tl->nop; i++) {
		size_t x = tl->byid[i];
		const struct top *o = &tl->op[x];

		if (!has_sheet(tl, x) || op_sheet(tl, x) != fam)
			continue;
		p = xgrow(p, &pcap, n + 1, sizeof(*p));
		memset(&p[n], 0, sizeof(*p));
		p[n].op = p[n].as = x;
		/* backward figures (ttp-roofline's bwd_of): TraceLens's row is the
		 * forward op's, with the backward op's kernels */
		if (o->bwd_of >= 0 && (j = tl_find_op(tl, o->rank, o->bwd_of)) != NONE) {
			p[n].as = j;
			nbwd++;
		}
		p[n].uid = tl->op[p[n].as].id;
		p[n].flops = o->flops;
		p[n].bytes = o->bytes;
		p[n].roof_us = o->roof_us;
		tl_prow_events(tl, &p[n], x);
		for (j = 0; j < o->np; j++) {
			for (c = 0; c < npk && pk[c] != PK(o, j); c++)
				;
			if (c == npk) {
				pk = xreallocarray(pk, npk + 1, sizeof(*pk));
				pk[npk++] = PK(o, j);
			}
		}
		n++;
	}
	if (nbwd > 0)	/* in the forward ops' order, as TraceLens's rows */
		sort_as(tl, p, n);
	tab_col(t, "name");
	for (j = 0; j < npk; j++) {
		buf_reset(&name);
		buf_printf(&name, "param: %s", tl_str(tl, pk[j]));
		tab_col(t, name.p);
	}
	/* --group_by_num_kernels: the op's kernels, its whole subtree's */
	if (tl->o->by_nkernels)
		cnk = tab_col(t, "num_kernels");
	c0 = tab_col(t, "GFLOPS_first");
	tab_col(t, "Data Moved (MB)_first");
	tab_col(t, "FLOPS/Byte_first");
	for (j = 0; j < 5; j++) {
		buf_reset(&name);
		buf_printf(&name, "TB/s_%s", st[j]);
		tab_col(t, name.p);
	}
	for (j = 0; j < 5; j++) {
		buf_reset(&name);
		buf_printf(&name, "TFLOPS/s_%s", st[j]);
		tab_col(t, name.p);
	}
	tab_col(t, "process_name_first");
	tab_col(t, "process_label_first");
	tab_col(t, "thread_name_first");
	tab_col(t, "Compute Spec");
	rc = tl->roofline ? tl_roof_cols(t, "Roofline Bound_first", "Roofline Time (\u00b5s)_first", 1) : 0;
	k = tab_col(t, "kernel_details__summarize_kernel_stats");
	tab_col(t, "trunc_kernel_details");
	tab_col(t, "Input Dims_first");
	tab_col(t, "Input type_first");
	tab_col(t, "Input Strides_first");
	tab_col(t, "Concrete Inputs_first");
	for (j = 0; j < 6; j++) {
		buf_reset(&name);
		buf_printf(&name, "Kernel Time (\u00b5s)_%s", j < 5 ? st[j] : "sum");
		tab_col(t, name.p);
	}
	tab_col(t, "name_count");
	tab_col(t, "UID_first");
	pfloat = param_columns(tl, p, n, pk, npk);
	ng = tl_group_rows(tl, p, n, 1, &start, &mem);
	c = c0 + 13;
	for (r = 0; r < ng; r++) {
		size_t nm = start[r + 1] - start[r], *m = mem + start[r];
		const struct top *o = &tl->op[p[m[0]].op], *as = &tl->op[p[m[0]].as];
		struct vec tb = VEC_INIT, tf = VEC_INIT, kt = VEC_INIT;
		struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
		double gf = NAN, mb = NAN, fb = NAN;
		uint32_t spec = NAME_NONE;

		tab_row(t);
		for (i = 0; i < nm; i++) {
			const struct prow *q = &p[m[i]];
			double tflops, tbps;

			tl_prow_metrics(q, &tflops, &tbps);
			vec_add(&tb, tbps);
			vec_add(&tf, tflops);
			vec_add(&kt, q->ktime);
			kl[i] = (struct klist){ q->ev, q->nev };
			if (isnan(gf))
				gf = q->flops / 1e9;
			if (isnan(mb))
				mb = q->bytes / 1048576;
			if (isnan(fb) && q->bytes != 0)
				fb = q->flops / q->bytes;
			if (spec == NAME_NONE)
				spec = tl->op[q->op].spec;
		}
		tab_set_str(t, r, 0, tl_str(tl, as->name));
		for (j = 0; j < npk; j++)
			param_cell(tl, t, r, 1 + j, o, pk[j], pfloat[j]);
		if (tl->o->by_nkernels)
			tab_set_int(t, r, cnk, (long long)p[m[0]].nev);
		tab_set_num(t, r, c0, gf);
		tab_set_num(t, r, c0 + 1, mb);
		tab_set_num(t, r, c0 + 2, fb);
		for (j = 0; j < 5; j++) {
			tab_set_num(t, r, c0 + 3 + j, tl_stat_of(&tb, (int)j));
			tab_set_num(t, r, c0 + 8 + j, tl_stat_of(&tf, (int)j));
		}
		tab_set_str(t, r, c, tl_str(tl, as->process));
		tab_set_str(t, r, c + 1, tl_str(tl, as->label));
		tab_set_str(t, r, c + 2, tl_str(tl, as->thread));
		tl_set_name(t, r, c + 3, tl, spec);
		tl_kernel_details(tl, kl, nm, &sum, &trunc);
		/* every event carries a kernel_details list, [] for an op with no kernels
		 * (CPU-only instances), and _summarize_kernel_stats gives [] for a group
		 * of empty lists; trunc_kernel_details is None there */
		tab_set_str(t, r, k, sum.p);
		if (sum.len > 2)
			tab_set_str(t, r, k + 1, trunc.p);
		tl_set_name(t, r, k + 2, tl, LDIMS(as));
		tl_set_name(t, r, k + 3, tl, LTYPES(as));
		tl_set_name(t, r, k + 4, tl, LSTRIDES(as));
		tl_set_name(t, r, k + 5, tl, LCONC(as));
		for (j = 0; j < 6; j++)
			tab_set_num(t, r, k + 6 + j, tl_stat_of(&kt, (int)j));
		tab_set_int(t, r, k + 12, (long long)nm);
		tab_set_int(t, r, k + 13, p[m[0]].uid);
		if (tl->roofline)
			tl_roof_row(tl, t, r, rc, 1, p, m, nm);
		vec_free(&tb);
		vec_free(&tf);
		vec_free(&kt);
		free(kl);
	}
	{
		struct tab_key keys[] = { { k + 11, 1 }, { k + 13, 0 } };

		tab_sort(t, keys, 2);
	}
	free(start);
	free(mem);
	free(pk);
	free(pfloat);
	tl_prow_free(p, n);
	buf_free(&name);
	buf_free(&sum);
	buf_free(&trunc);
	return t;
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
				tl_push(sk, sheet_family(tl, fam[j]));
				fam[j] = NAME_NONE;
			}
	for (j = 0; j < nf; j++)
		if (fam[j] != NAME_NONE)
			tl_push(sk, sheet_family(tl, fam[j]));
	free(fam);
}
