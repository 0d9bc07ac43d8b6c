/* SPDX-License-Identifier: ISC */
/* xhlo: the HLO modules an XSpace embeds in its metadata plane, parsed when a kernel
 * first names one, and the HLO facts of a kernel's instruction as record members
 * (docs/jax.md §10). */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/pb.h"
#include "core/rec.h"
#include "jax/hlo.h"
#include "xpriv.h"

/* The HLO members of a kernel record repeat for every run of its instruction (every
 * step): built once per instruction and copied, up to this many bytes in all. */
#define HCACHE_MAX	(16u << 20)

struct module *
xp_find_module(struct xp *x, const char *mod, const long long *program_id)
{
	struct module *hit = NULL;
	size_t i, n = 0;

	for (i = 0; i < x->nmods; i++) {
		if (strcmp(x->mods[i].name, mod) != 0)
			continue;
		if (program_id != NULL && x->mods[i].program_id == *program_id)
			return &x->mods[i];
		hit = &x->mods[i];
		n++;
	}
	return program_id == NULL && n == 1 ? hit : NULL;
}

struct hlo_module *
xp_module_hlo(struct xp *x, struct module *m)
{
	const unsigned char *p;
	unsigned char *copy;
	struct error e = ERROR_INIT;

	if (m->loaded)
		return &m->m;
	if (m->failed || m->len == 0 || m->len > ((uint64_t)1 << 31))
		return NULL;
	if ((p = xsrc_get(&x->src, m->off, m->len, &e)) == NULL) {
		error_warn(&e);
		error_free(&e);
		m->failed = true;
		return NULL;
	}
	copy = xmalloc((size_t)m->len + 1);
	memcpy(copy, p, (size_t)m->len);
	if (hlo_parse(&m->m, copy, (size_t)m->len, m->off, x->name, &e) != 0) {
		/* a module that does not parse: its kernels go without HLO facts */
		error_warn(&e);
		error_free(&e);
		hlo_free(&m->m);
		m->failed = true;
		return NULL;
	}
	m->loaded = true;
	return &m->m;
}

void
xp_collect_modules(struct xp *x, struct plane *pl)
{
	size_t i, k;
	const char *nm, *lp;
	char *end;

	for (i = 0; i < pl->nevmd; i++) {
		const struct evmd *md = &pl->evmd[i];
		struct module m;

		if (md->name == NAME_NONE)
			continue;
		memset(&m, 0, sizeof(m));
		for (k = 0; k < md->nst; k++) {
			const struct xstat *s = &pl->stats[md->st + k];
			if (s->kind == S_BYTES && s->md == pl->s_hlo_proto) {
				m.off = s->u;
				m.len = s->len;
			}
		}
		if (m.len == 0)
			continue;
		nm = names_str(&pl->strs, md->name);
		m.key = xstrdup(nm);
		m.program_id = -1;
		lp = strrchr(nm, '(');
		if (lp != NULL && lp != nm && nm[strlen(nm) - 1] == ')') {
			m.name = xstrndup(nm, (size_t)(lp - nm));
			m.program_id = strtoll(lp + 1, &end, 10);
			if (*end != ')')
				m.program_id = -1;
		} else
			m.name = xstrdup(nm);
		x->mods = xgrow(x->mods, &x->capmods, x->nmods + 1, sizeof(*x->mods));
		x->mods[x->nmods++] = m;
	}
}

/* The shape of an HLO instruction as record members: text, dims, dtype, layout. */
static void
build_shape(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    struct hlo_span shape)
{
	int64_t d[64], l[64];
	int et, n, nl, i;
	const char *tn;

	buf_reset(&x->tmp);
	hlo_shape_text(m, shape, &x->tmp);
	rec_build_key(rb, "text");
	rec_build_str(rb, x->tmp.p != NULL ? x->tmp.p : "", x->tmp.len);
	n = hlo_shape_dims(m, shape, &et, d, 64, l, &nl);
	tn = hlo_type_name(et);
	rec_build_key(rb, "dtype");
	if (tn != NULL)
		rec_build_strz(rb, tn);
	else
		rec_build_null(rb);
	if (et == 13)
		return;
	rec_build_key(rb, "shape");
	rec_build_array(rb);
	for (i = 0; i < n; i++)
		rec_build_int(rb, d[i]);
	rec_build_end_array(rb);
	if (nl >= 0 && nl <= 64) {
		rec_build_key(rb, "layout");
		rec_build_array(rb);
		for (i = 0; i < nl; i++)
			rec_build_int(rb, l[i]);
		rec_build_end_array(rb);
	}
}

static void
build_ints(struct rec_build *rb, const struct hlo_module *m, struct hlo_span msg,
    unsigned num, const char *key)
{
	int64_t v[64];
	int n, i;

	n = hlo_ints(m, msg, num, v, 64);
	rec_build_key(rb, key);
	rec_build_array(rb);
	for (i = 0; i < n && i < 64; i++)
		rec_build_int(rb, v[i]);
	rec_build_end_array(rb);
}

/* The instruction's own texts: opcode, custom-call target, fusion kind, its metadata's
 * op type, op name and source line, the metadata as text. */
static void
build_hlo_texts(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    const struct hlo_instr *ins)
{
	const char *s;
	size_t n;
	long long line;

	rec_build_key(rb, "opcode");
	rec_build_str(rb, hlo_str(m, ins->opcode), ins->opcode.len);
	if (ins->target.len > 0) {
		rec_build_key(rb, "custom_call_target");
		rec_build_str(rb, hlo_str(m, ins->target), ins->target.len);
	}
	if (ins->fusion_kind.len > 0) {
		rec_build_key(rb, "fusion_kind");
		rec_build_str(rb, hlo_str(m, ins->fusion_kind), ins->fusion_kind.len);
	}
	if ((s = hlo_metadata_str(m, ins, 1, &n)) != NULL) {
		rec_build_key(rb, "op_type");
		rec_build_str(rb, s, n);
	}
	if ((s = hlo_metadata_str(m, ins, 2, &n)) != NULL) {
		rec_build_key(rb, "op_name");
		rec_build_str(rb, s, n);
	}
	if ((s = hlo_metadata_str(m, ins, 3, &n)) != NULL) {
		buf_reset(&x->tmp);
		buf_add(&x->tmp, s, n);
		if ((line = hlo_metadata_line(m, ins)) != 0)
			buf_printf(&x->tmp, ":%lld", line);
		rec_build_key(rb, "source");
		rec_build_str(rb, x->tmp.p, x->tmp.len);
	}
	buf_reset(&x->tmp);
	hlo_metadata_text(m, ins, &x->tmp);
	if (x->tmp.len > 0) {
		rec_build_key(rb, "hlo_metadata");
		rec_build_str(rb, x->tmp.p, x->tmp.len);
	}
}

/* The operands ("in": name, shape, listed) and results ("out", one per tuple element,
 * and "out_text") of the instruction. */
static void
build_hlo_io(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    const struct hlo_instr *ins)
{
	const struct hlo_instr *op;
	struct hlo_span e;
	size_t k;

	rec_build_key(rb, "in");
	rec_build_array(rb);
	for (k = 0; k < ins->nops; k++) {
		rec_build_object(rb);
		if ((op = hlo_operand(m, ins, k)) != NULL) {
			rec_build_key(rb, "name");
			rec_build_str(rb, hlo_str(m, op->name), op->name.len);
			build_shape(rb, x, m, op->shape);
			rec_build_key(rb, "listed");
			rec_build_bool(rb, hlo_tl_listed(m, op));
		}
		rec_build_end_object(rb);
	}
	rec_build_end_array(rb);
	rec_build_key(rb, "out");
	rec_build_array(rb);
	if ((e = hlo_tuple_elem(m, ins->shape, 0)).len == 0) {
		rec_build_object(rb);
		build_shape(rb, x, m, ins->shape);
		rec_build_end_object(rb);
	} else
		for (k = 0; (e = hlo_tuple_elem(m, ins->shape, k)).len > 0; k++) {
			rec_build_object(rb);
			build_shape(rb, x, m, e);
			rec_build_end_object(rb);
		}
	rec_build_end_array(rb);
	buf_reset(&x->tmp);
	hlo_shape_text(m, ins->shape, &x->tmp);
	rec_build_key(rb, "out_text");
	rec_build_str(rb, x->tmp.p != NULL ? x->tmp.p : "", x->tmp.len);
}

/* A matrix multiplication's sizes by HLO's meaning (B, M, N, K) and, for a fusion's
 * dot, its operands' dtypes. */
static void
build_gemm(struct rec_build *rb, const struct hlo_module *m, const struct hlo_instr *ins)
{
	static const char *const keys[4] = { "B", "M", "N", "K" };
	const struct hlo_instr *dot, *o;
	const char *tn;
	int64_t bmnk[4], d[1];
	size_t k;
	int et;

	if (!hlo_gemm(m, ins, bmnk, &dot))
		return;
	for (k = 0; k < 4; k++) {
		rec_build_key(rb, keys[k]);
		rec_build_int(rb, bmnk[k]);
	}
	if (dot == ins)
		return;
	rec_build_key(rb, "gemm_dtypes");
	rec_build_array(rb);
	for (k = 0; k < 2; k++) {
		tn = NULL;
		if ((o = hlo_operand(m, dot, k)) != NULL) {
			(void)hlo_shape_dims(m, o->shape, &et, d, 0, NULL, NULL);
			tn = hlo_type_name(et);
		}
		if (tn != NULL)
			rec_build_strz(rb, tn);
		else
			rec_build_null(rb);
	}
	rec_build_end_array(rb);
}

/* A convolution's kernel: its input features (C_in / groups) and spatial extents, by
 * the dimension numbers: what each output element sums over. */
static void
build_conv_kernel(struct rec_build *rb, const struct hlo_module *m,
    const struct hlo_instr *ins)
{
	int64_t kif[2], ks[16], kd[16];
	const struct hlo_instr *kop = hlo_operand(m, ins, 1);
	int nkif = hlo_ints(m, ins->conv, 3, kif, 2);
	int nks = hlo_ints(m, ins->conv, 6, ks, 16), nkd = -1, et, j;
	bool ok;

	if (kop != NULL)
		nkd = hlo_shape_dims(m, kop->shape, &et, kd, 16, NULL, NULL);
	if (nkif == 0) {
		/* a proto3 int64 left out is 0 */
		kif[0] = 0;
		nkif = 1;
	}
	ok = nkif == 1 && nks >= 0 && nks <= 16 && nkd > 0 && kif[0] >= 0 && kif[0] < nkd;
	for (j = 0; ok && j < nks; j++)
		ok = ks[j] >= 0 && ks[j] < nkd;
	if (ok) {
		rec_build_key(rb, "conv_kernel");
		rec_build_array(rb);
		rec_build_int(rb, kd[kif[0]]);
		for (j = 0; j < nks; j++)
			rec_build_int(rb, kd[ks[j]]);
		rec_build_end_array(rb);
	}
}

/* A convolution's dimension numbers, feature group count and kernel. */
static void
build_conv(struct rec_build *rb, const struct hlo_module *m, const struct hlo_instr *ins)
{
	static const struct { unsigned num; const char *key; } convdims[] = {
		{ 7, "input_batch" }, { 8, "input_feature" }, { 11, "input_spatial" },
		{ 3, "kernel_input_feature" }, { 4, "kernel_output_feature" },
		{ 6, "kernel_spatial" }, { 9, "output_batch" }, { 10, "output_feature" },
		{ 12, "output_spatial" }
	};
	size_t k;

	rec_build_key(rb, "conv");
	rec_build_object(rb);
	for (k = 0; k < sizeof(convdims) / sizeof(convdims[0]); k++)
		build_ints(rb, m, ins->conv, convdims[k].num, convdims[k].key);
	rec_build_end_object(rb);
	if (ins->feature_groups > 0) {
		rec_build_key(rb, "feature_group_count");
		rec_build_int(rb, ins->feature_groups);
	}
	build_conv_kernel(rb, m, ins);
}

/* A window's dimensions, each an object of the sizes it sets. */
static void
build_window(struct rec_build *rb, const struct hlo_module *m, const struct hlo_instr *ins)
{
	static const char *const wkeys[] = { NULL, "size", "stride", "padding_low",
	    "padding_high", "window_dilation", "base_dilation" };
	struct pb_iter it;
	struct pb_field f;
	struct hlo_span d;
	unsigned w;

	rec_build_key(rb, "window");
	rec_build_array(rb);
	pb_init(&it, m->bytes + ins->window.off, ins->window.len, 0);
	while (pb_next(&it, &f) == PB_OK) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		d.off = (uint32_t)(f.data - m->bytes);
		d.len = (uint32_t)f.v;
		rec_build_object(rb);
		for (w = 1; w <= 6; w++) {
			int64_t v = 0;
			if (hlo_ints(m, d, w, &v, 1) > 0) {
				rec_build_key(rb, wkeys[w]);
				rec_build_int(rb, v);
			}
		}
		rec_build_end_object(rb);
	}
	rec_build_end_array(rb);
}

/* The HLO facts of the instruction a kernel ran (docs/jax.md §10). */
static void
build_hlo(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    const struct hlo_instr *ins)
{
	build_hlo_texts(rb, x, m, ins);
	rec_build_key(rb, "root");
	rec_build_bool(rb, ins->root);
	build_hlo_io(rb, x, m, ins);
	if (ins->config.len > 0) {
		rec_build_key(rb, "backend_config");
		rec_build_str(rb, hlo_str(m, ins->config), ins->config.len);
	}
	if (ins->dot.len > 0) {
		rec_build_key(rb, "dot");
		rec_build_object(rb);
		build_ints(rb, m, ins->dot, 1, "lhs_contracting");
		build_ints(rb, m, ins->dot, 2, "rhs_contracting");
		build_ints(rb, m, ins->dot, 3, "lhs_batch");
		build_ints(rb, m, ins->dot, 4, "rhs_batch");
		rec_build_end_object(rb);
	}
	build_gemm(rb, m, ins);
	if (ins->conv.len > 0)
		build_conv(rb, m, ins);
	if (ins->window.len > 0)
		build_window(rb, m, ins);
}

/* The members of build_hlo, with "listed" first, from the cache when built before. */
void
xp_hlo_members(struct rec_build *rb, struct xp *x, struct module *mm,
    const struct hlo_instr *ins)
{
	const struct hlo_module *hm = &mm->m;
	size_t k = (size_t)(ins - hm->ins), start;

	if (mm->hcache == NULL && hm->nins > 0) {
		mm->hcache = xcalloc(hm->nins, sizeof(*mm->hcache));
		mm->hcache_len = xcalloc(hm->nins, sizeof(*mm->hcache_len));
	}
	if (mm->hcache != NULL && mm->hcache[k] != 0) {
		/* a member follows the module's name: the comma is due, and stays due */
		buf_add(&x->out, x->hcache.p + mm->hcache[k] - 1, mm->hcache_len[k]);
		return;
	}
	start = x->out.len;
	rec_build_key(rb, "listed");
	rec_build_bool(rb, hlo_tl_listed(hm, ins));
	build_hlo(rb, x, hm, ins);
	if (mm->hcache != NULL && x->hcache.len + (x->out.len - start) <= HCACHE_MAX) {
		mm->hcache[k] = (uint32_t)x->hcache.len + 1;
		mm->hcache_len[k] = (uint32_t)(x->out.len - start);
		buf_add(&x->hcache, x->out.p + start, x->out.len - start);
	}
}
