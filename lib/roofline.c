/* SPDX-License-Identifier: ISC */
/*
 * roofline: ttp's roofline extras for every op (bytes, FLOP model, intensity,
 * attainable and achieved throughput, bandwidth, PM efficiency, grid advice). These
 * keys sit beside tt-perf-report's figures and never change them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwspec.h"
#include "metrics.h"
#include "roofline.h"

static double
elements(const struct mtensor *t)
{
	/* Exact in 64 bits for any real tensor; rounded once to a double. */
	return (double)(t->shape[0] * t->shape[1] * t->shape[2] * t->shape[3]);
}

static void
count_bytes(const struct rop *r, struct rextra *x)
{
	size_t i;

	for (i = 0; i < r->ntensors; i++) {
		const struct mtensor *t = &r->tensors[i];
		double b;

		if (!t->present || !t->has_shape || t->dtype == NULL || t->mem == NULL)
			continue;
		b = elements(t) * metrics_dtype_size(t->dtype);
		x->has_bytes = true;
		if (strstr(t->mem, "DRAM") != NULL)
			x->bytes += b;
		else if (strstr(t->mem, "L1") != NULL)
			x->l1_bytes += b;
	}
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
		if (m->has_mkn) {
			__extension__ unsigned __int128 p = (unsigned __int128)2 *
			    (unsigned long long)m->mkn[0];

			p = p * (unsigned long long)m->mkn[1] * (unsigned long long)m->mkn[2] *
			    (unsigned long long)m->batch;
			x->flops = (double)p;
			x->has_flops = true;
			x->flops_model = m->is_matmul ? "matmul" : "conv";
		}
		return;
	}
	if (strstr(label, "ScaledDotProductAttention") != NULL || strstr(label, "SDPA") != NULL) {
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
	if (strcmp(m->category, "DM") == 0 || strcmp(m->category, "TM") == 0) {
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

	if (m->is_matmul && m->bound == BOUND_FLOP && m->has_mm_cores &&
	    m->mm_cores < op->worker_cores) {
		x->has_grid = true;
		snprintf(x->grid_advice, sizeof(x->grid_advice),
		    "Increase grid size (currently using %lld of %d worker cores)",
		    m->mm_cores, op->worker_cores);
	}
}
