/* SPDX-License-Identifier: ISC */
/*
 * roofline: ttp's roofline extras for every op (bytes, FLOP model, intensity,
 * attainable and achieved throughput, bandwidth, PM efficiency, grid advice). These
 * keys sit beside tt-perf-report's figures and never change them. Also the record
 * side of ttp-roofline: reading an op record (its tensors through tensor.h),
 * choosing its architecture, and writing the keys.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "core/diag.h"

#include "core/hwspec.h"
#include "tt/metrics.h"
#include "tt/opclass.h"
#include "core/rec.h"
#include "tt/roofline.h"
#include "core/tensor.h"

#define MAXTENSORS 64

static double
elements(const struct mtensor *t)
{
	/* Exact in 64 bits for any real tensor; rounded once to a double. */
	return (double)(t->shape[0] * t->shape[1] * t->shape[2] * t->shape[3]);
}

/*
 * How an op touches its tensors (the op-kind table's access column, tt/opclass.c). Most
 * read and write every element of each; these do not, and counting whole tensors made
 * them claim many times the DRAM bandwidth:
 *   gather       embeddings: the indices, then one table row per output row; the
 *                table is read only as much as the output holds
 *   slice        slices and interleaved-to-sharded-partial: the output-sized part of
 *                the input is read
 *   slice-write  slice writes and sharded-to-interleaved-partial: the input is written
 *                into part of an output that is also an input (updated in place), so
 *                the output moves only as many elements as the first input has
 */
static const char *const access_names[] = { "tensors", "gather", "slice", "slice-write" };

/* The access model of an op (tt/opclass.h's table: OPA_*) */
static int
op_access(const char *op)
{
	return op == NULL ? OPA_TENSORS : opkind_access(op);
}

static void
add_bytes(struct rextra *x, const struct mtensor *t, double elems)
{
	double b = elems * metrics_dtype_size(t->dtype);

	x->has_bytes = true;
	if (strstr(t->mem, "DRAM") != NULL)
		x->bytes += b;
	else if (strstr(t->mem, "L1") != NULL)
		x->l1_bytes += b;
}

static bool
usable(const struct mtensor *t)
{
	return t->present && t->has_shape && t->dtype != NULL && t->mem != NULL;
}

static void
count_bytes(const struct rop *r, struct rextra *x)
{
	const struct mop *op = r->mop;
	int acc = op_access(op->op);
	const struct mtensor *in0 = &op->in0, *in1 = &op->in1, *out = &op->out0;
	size_t i;

	x->bytes_model = access_names[OPA_TENSORS];
	switch (acc) {
	case OPA_GATHER:	/* indices, rows of the table, output */
		if (!usable(in0) || !usable(in1) || !usable(out))
			break;
		add_bytes(x, in0, elements(in0));
		add_bytes(x, in1, elements(out));
		add_bytes(x, out, elements(out));
		x->bytes_model = access_names[acc];
		return;
	case OPA_SLICE:		/* the output-sized part of the input, the output */
		if (!usable(in0) || !usable(out))
			break;
		add_bytes(x, in0, elements(out) < elements(in0) ? elements(out) : elements(in0));
		add_bytes(x, out, elements(out));
		x->bytes_model = access_names[acc];
		return;
	case OPA_SLICE_WRITE:	/* the input, and as much of the output */
		if (!usable(in0) || !usable(out))
			break;
		add_bytes(x, in0, elements(in0));
		add_bytes(x, out, elements(in0) < elements(out) ? elements(in0) : elements(out));
		x->bytes_model = access_names[acc];
		return;
	default:
		break;
	}
	for (i = 0; i < r->ntensors; i++)
		if (usable(&r->tensors[i]))
			add_bytes(x, &r->tensors[i], elements(&r->tensors[i]));
}

static void
count_flops(const struct rop *r, const struct mresult *m, struct rextra *x)
{
	const struct mop *op = r->mop;
	const char *label = m->label.p;
	double big = 0;
	size_t i;

	if (m->is_matmul || m->is_conv) {
		/* The compatible count: 2 * M * K * N * batch (exact product, rounded once). */
		if (m->has_mkn && metrics_mkn_flops(m, &x->flops)) {
			x->has_flops = true;
			x->flops_model = m->is_matmul ? "matmul" : "conv";
		}
		return;
	}
	if (opkind_flop(label) == OPF_SDPA) {
		/* Q [B, H, Sq, D] x K^T and P x V: 4 * B * H * Sq * Sk * D. */
		const struct mtensor *q = &op->in0, *k = &op->in1;

		if (q->has_shape && k->has_shape) {
			x->flops = 4.0 * q->shape[0] * q->shape[1] * q->shape[2] * k->shape[2] *
			    q->shape[3];
			x->has_flops = true;
			x->flops_model = "sdpa";
		}
		return;
	}
	/* gathers and slices move data and compute nothing, whatever their category */
	if (strcmp(m->category, "DM") == 0 || strcmp(m->category, "TM") == 0 ||
	    op_access(op->op) != OPA_TENSORS) {
		x->flops = 0;
		x->has_flops = true;
		x->flops_model = "none";
		return;
	}
	if (strcmp(m->category, "Compute") != 0)
		return;
	/* Element-wise, normalisation, reduction, pooling: one operation per element of
	 * the largest tensor (a lower bound). */
	for (i = 0; i < r->ntensors; i++)
		if (r->tensors[i].present && r->tensors[i].has_shape &&
		    elements(&r->tensors[i]) > big)
			big = elements(&r->tensors[i]);
	if (big > 0) {
		x->flops = big;
		x->has_flops = true;
		x->flops_model = "elementwise";
	}
}

void
roofline_analyse(const struct rop *r, const struct mresult *m, struct rextra *x)
{
	const struct mop *op = r->mop;
	const struct hwspec *hw = op->hw;
	double t = 0, cores, tf, peak, memroof, achieved, attain;
	bool timed = op->has_dur && op->dur_ns > 0;
	int fid;

	memset(x, 0, sizeof(*x));
	if (m->is_host || hw == NULL)
		return;
	if (timed)
		t = op->dur_ns * 1e-9;
	if (r->has_pm_ideal && r->pm_ideal_ns > 1 && timed) {
		x->has_pm_eff = true;
		x->pm_eff_pct = r->pm_ideal_ns / op->dur_ns * 100;
		if (x->pm_eff_pct > 100)
			x->unsure[x->nunsure++] = "pm_eff_pct";
	}
	count_bytes(r, x);
	if (!x->has_bytes)
		return;
	if (timed && x->bytes > 0) {
		x->has_bw = true;
		x->bw_gbps = x->bytes / t / 1e9;
		x->bw_pct = x->bw_gbps / hw->dram_gbps * 100;
	}
	count_flops(r, m, x);
	if (!x->has_flops)
		return;
	if (x->bytes > 0) {
		x->has_intensity = true;
		x->intensity = x->flops / x->bytes;
	}

	/* The compute roof: the op's fidelity (HiFi4 when it has none the arch models)
	 * on the cores the op ran on (for matmul and conv: the cores the compatible
	 * FLOPs % uses). */
	fid = hwspec_fidelity(op->fidelity);
	if ((tf = hwspec_tflops(hw, fid)) <= 0)
		tf = hwspec_tflops(hw, FID_HIFI4);
	if (m->has_mm_cores)
		cores = (double)m->mm_cores;
	else if (op->has_cores)
		cores = (double)op->cores;
	else
		cores = op->worker_cores;
	if (tf <= 0 || cores <= 0)
		return;
	peak = tf * 1e12 * cores;
	x->has_roof = true;
	x->peak_tflops = peak / 1e12;
	if (x->bytes > 0) {
		memroof = x->intensity * hw->dram_gbps * 1e9;
		attain = memroof < peak ? memroof : peak;
		x->roof = memroof < peak ? "memory" : "compute";
	} else {
		attain = peak;
		x->roof = "compute";
	}
	x->roof_tflops = attain / 1e12;
	if (!timed)
		return;
	achieved = x->flops / t;
	if (attain > 0) {
		x->has_roof_pct = true;
		x->roof_pct = achieved / attain * 100;
	} else if (x->has_bw) {
		/* No FLOPs at all: on the memory roof, the share is the bandwidth's. */
		x->has_roof_pct = true;
		x->roof_pct = x->bw_pct;
	}
	if (x->has_roof_pct && x->roof_pct > 100)
		x->unsure[x->nunsure++] = "roof_pct";

	if (m->is_matmul && m->bound == BOUND_FLOP && m->has_mm_cores &&
	    m->mm_cores < op->worker_cores) {
		x->has_grid = true;
		snprintf(x->grid_advice, sizeof(x->grid_advice),
		    "Increase grid size (currently using %lld of %d worker cores)",
		    m->mm_cores, op->worker_cores);
	}
}

/* --- records: reading an op record, writing the keys ------------------------------ */

/* Tensors of one key into t[0..max); returns how many. A bad tensor marks r bad. */
static size_t
read_tensors(struct rec *r, const char *key, struct mtensor *t, size_t max)
{
	struct tensor in[MAXTENSORS];
	size_t i, n;

	n = tensor_read(r, key, in, max);
	for (i = 0; i < n; i++) {
		t[i].present = in[i].present;
		/* TT-Metal tensors are [W, Z, Y, X]; a rank above 4 is not one */
		if (in[i].has_shape && !dims_wzyx(&in[i].shape, t[i].shape)) {
			rec_reject(r, "%s[%zu].shape: expected at most 4 dimensions", key, i);
			return i;
		}
		t[i].has_shape = in[i].has_shape;
		t[i].dtype = in[i].dtype;
		t[i].mem = in[i].mem;
	}
	return n;
}

/*
 * The architecture for one record: --override-arch, the record's "arch", or --arch.
 * NULL when the record names one that is not known (r is then bad) or names none and
 * --arch named no known one. *named: the record's "arch" when it decided.
 */
static const struct hwspec *
resolve_arch(struct rec *r, const struct roofline_opts *o, int *worker, const char **named)
{
	static const char *last_arch;
	static const struct hwspec *last_hw;
	const struct hwspec *hw;
	const char *arch;
	long long wc;

	*named = NULL;
	if (o->override != NULL) {
		*worker = o->override->worker_cores;
		return o->override;
	}
	arch = rec_str(r, "arch", NULL);
	if (arch == NULL) {
		if (o->arch == NULL)
			return NULL;
		*worker = o->arch->worker_cores;
		return o->arch;
	}
	if (last_arch != NULL && strcmp(arch, last_arch) == 0)
		hw = last_hw;
	else {
		if ((hw = hwspec_find(arch)) == NULL) {
			rec_reject(r, "unknown architecture: %s (known: %s; --spec FILE adds one)",
			    arch, hwspec_names());
			return NULL;
		}
		free((void *)last_arch);
		last_arch = xstrdup(arch);
		last_hw = hw;
	}
	*named = arch;
	*worker = hw->worker_cores;
	if (rec_int(r, "worker_cores", &wc) && wc > 0 && wc < 1000000)
		*worker = (int)wc;
	return hw;
}

/* The reference's messages about the architecture, once: said for a good record. */
static void
arch_say(const struct roofline_opts *o, const struct hwspec *hw, const char *named)
{
	static bool said;
	char key[128];

	if (o->override != NULL)
		return;
	if (named == NULL) {
		if (o->verbose && !said) {
			say("Architecture: %s, Worker cores: %d", hw->name, hw->worker_cores);
			said = true;
		}
		return;
	}
	if (o->arch_arg != NULL) {
		snprintf(key, sizeof(key), "arch-ignored:%.100s", named);
		warning_once(key, "Warning: Ignoring user-specified architecture: %s, CSV "
		    "detected %s architecture", o->arch_arg, named);
	}
}

/* A figure: absent when it does not apply, null when NaN (ttp-record(5)). */
static void
set_opt_num(struct rec *r, const char *key, bool has, double v)
{
	if (has)
		rec_set_num(r, key, v);
	else
		rec_del(r, key);
}

static void
set_opt_int(struct rec *r, const char *key, bool has, long long v)
{
	if (has)
		rec_set_int(r, key, v);
	else
		rec_del(r, key);
}

/* Byte and FLOP counts: integers when they are exact integers. */
static void
set_count(struct rec *r, const char *key, bool has, double v)
{
	if (has)
		rec_set_ifig(r, key, v);
	else
		rec_del(r, key);
}

static void
write_metrics(struct rec *r, const struct mresult *m)
{
	const char *s;

	rec_set_str(r, "label", m->label.p);
	if (m->math.len > 0)
		rec_set_str(r, "math", m->math.p);
	else
		rec_del(r, "math");
	set_opt_num(r, "dram_gbps", m->has_dram, m->dram_gbps);
	set_opt_num(r, "dram_pct", m->has_dram, m->dram_pct);
	set_opt_num(r, "tflops", m->has_tflops, m->tflops);
	set_opt_num(r, "flops_pct", m->has_flops_pct, m->flops_pct);
	if ((s = metrics_bound_name(m->bound)) != NULL)
		rec_set_str(r, "bound", s);
	else
		rec_del(r, "bound");
	rec_set_bool(r, "dram_sharded", m->dram_sharded);
	set_opt_int(r, "in0_block_w", m->has_in0_block_w, m->in0_block_w);
	set_opt_int(r, "out_subblock_h", m->has_sub_h, m->sub_h);
	set_opt_int(r, "out_subblock_w", m->has_sub_w, m->sub_w);
	if (m->has_report_cores)
		rec_set_ifig(r, "report_cores", m->report_cores);	/* NaN: null */
	else
		rec_del(r, "report_cores");
	if ((s = metrics_verdict_name(m->verdict)) != NULL)
		rec_set_str(r, "fidelity_verdict", s);
	else
		rec_del(r, "fidelity_verdict");
	if (m->has_advice)
		rec_set_strv(r, "advice", m->advice, NULL, (size_t)m->nadvice);
	else
		rec_del(r, "advice");
	rec_set_str(r, "category", m->category);
	rec_set_bool(r, "host", (m->opc & OPC_HOST) != 0);
	rec_set_bool(r, "matmul", (m->opc & OPC_MATMUL) != 0);
	rec_set_bool(r, "conv_new", (m->opc & OPC_CONV_NEW) != 0);
}

static void
write_extras(struct rec *r, const struct rextra *x, const struct mop *op, bool host)
{
	if (host) {
		rec_del(r, "hw");
		rec_del(r, "hw_cores");
	} else {
		rec_set_str(r, "hw", op->hw->name);
		rec_set_int(r, "hw_cores", op->worker_cores);
	}
	set_count(r, "bytes", x->has_bytes, x->bytes);
	set_count(r, "l1_bytes", x->has_bytes, x->l1_bytes);
	if (x->has_bytes)
		rec_set_str(r, "bytes_model", x->bytes_model);
	else
		rec_del(r, "bytes_model");
	set_count(r, "flops", x->has_flops, x->flops);
	if (x->has_flops)
		rec_set_str(r, "flops_model", x->flops_model);
	else
		rec_del(r, "flops_model");
	set_opt_num(r, "intensity", x->has_intensity, x->intensity);
	set_opt_num(r, "roof_tflops", x->has_roof, x->roof_tflops);
	if (x->has_roof)
		rec_set_str(r, "roof", x->roof);
	else
		rec_del(r, "roof");
	set_opt_num(r, "roof_pct", x->has_roof_pct, x->roof_pct);
	set_opt_num(r, "bw_gbps", x->has_bw, x->bw_gbps);
	set_opt_num(r, "pm_eff_pct", x->has_pm_eff, x->pm_eff_pct);
	if (x->nunsure > 0)
		rec_set_strv(r, "unsure", x->unsure, NULL, x->nunsure);
	else
		rec_del(r, "unsure");
	if (x->has_grid)
		rec_set_str(r, "grid_advice", x->grid_advice);
	else
		rec_del(r, "grid_advice");
}

int
roofline_record(struct rec *r, const struct roofline_opts *o, struct mresult *m)
{
	struct mtensor t[MAXTENSORS];
	struct mop op;
	struct rop rop;
	struct rextra x;
	const char *where = rec_where(r), *named;
	double d;
	size_t nin, n;

	/* every value first: a bad record leaves no message and no figure */
	memset(&op, 0, sizeof(op));
	memset(&rop, 0, sizeof(rop));
	/* Warnings name the trace row (src) when the record has one. */
	op.where = rec_str(r, "src", NULL);
	if (op.where == NULL)
		op.where = where;
	op.op = rec_str(r, "op", NULL);
	op.attrs = rec_str(r, "attrs", NULL);
	op.fidelity = rec_str(r, "fidelity", NULL);
	op.has_dur = rec_num(r, "device_ns", &op.dur_ns);
	if (rec_num(r, "cores", &d)) {
		/* Range first: converting a double beyond long long is undefined. */
		if (!(d >= 0 && d <= 1e9) || d != (double)(long long)d)
			rec_reject(r, "key \"cores\": expected an integer from 0 to 1e9");
		else {
			op.has_cores = true;
			op.cores = (long long)d;
		}
	}
	if (rec_bad(r) != NULL)
		return 0;
	if ((op.hw = resolve_arch(r, o, &op.worker_cores, &named)) == NULL)
		return rec_bad(r) != NULL ? 0 : -1;

	nin = read_tensors(r, "in", t, MAXTENSORS / 2);
	n = nin + read_tensors(r, "out", t + nin, MAXTENSORS - nin);
	if (o->extras)
		rop.has_pm_ideal = rec_num(r, "pm_ideal_ns", &rop.pm_ideal_ns);
	if (rec_bad(r) != NULL)
		return 0;
	if (nin > 0)
		op.in0 = t[0];
	if (nin > 1)
		op.in1 = t[1];
	if (n > nin)
		op.out0 = t[nin];

	arch_say(o, op.hw, named);
	metrics_analyse(&op, m);
	write_metrics(r, m);
	if (o->extras) {
		rop.mop = &op;
		rop.tensors = t;
		rop.ntensors = n;
		roofline_analyse(&rop, m, &x);
		write_extras(r, &x, &op, m->is_host);
	}
	return 0;
}
