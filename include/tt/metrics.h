/* SPDX-License-Identifier: ISC */
/*
 * metrics: tt-perf-report's per-op analysis, computed as its Python computes it (same
 * doubles, same order of operations): the report's OP Code and Math Fidelity cells,
 * matmul/conv throughput (DRAM GB/s and %, TFLOP/s and %), halo labels, program-config
 * facts, Bound, the math-fidelity verdict, matmul advice and the op category.
 *
 * A figure that does not apply is unset (has_* false). A missing duration or CORE COUNT
 * (trace-capture rows, docs/tt-perf-report.md §10.1) makes the figures that depend on it
 * NaN, set, as the reference's arithmetic does: they apply but cannot be computed (records
 * carry them as null). Bad input (no shapes, a zero duration, unknown fidelity or datatype,
 * a conv without window_hw) leaves the figures that cannot be computed unset and prints one
 * warning per reason and op name (note_once); never inf.
 */
#ifndef TTP_METRICS_H
#define TTP_METRICS_H

#include <stdbool.h>

#include "core/buf.h"
#include "core/hwspec.h"

/* One tensor of an op: physical shape [W, Z, Y, X], datatype, memory placement. */
struct mtensor {
	bool		 present;	/* the group exists in the record */
	bool		 has_shape;
	long long	 shape[4];
	const char	*dtype;		/* "BFLOAT16", NULL when missing */
	const char	*mem;		/* "DEV_0_DRAM_INTERLEAVED", NULL when missing */
};

/* What the analysis reads from an op record. Strings may be NULL (missing). */
struct mop {
	const char	*where;		/* "file:line" for warnings, or NULL */
	const char	*op;		/* OP CODE */
	const char	*attrs;		/* ATTRIBUTES */
	const char	*fidelity;	/* MATH FIDELITY */
	bool		 has_dur;
	double		 dur_ns;	/* DEVICE KERNEL DURATION [ns] */
	bool		 has_cores;
	long long	 cores;		/* CORE COUNT */
	struct mtensor	 in0, in1, out0;
	const struct hwspec *hw;	/* architecture */
	int		 worker_cores;	/* the arch's worker cores for this trace */
};

enum bound { BOUND_NONE, BOUND_DRAM, BOUND_FLOP, BOUND_BOTH, BOUND_SLOW, BOUND_HOST };
enum verdict {
	VERDICT_NONE, VERDICT_SUFFICIENT, VERDICT_TOO_HIGH, VERDICT_TOO_LOW,
	VERDICT_NOT_APPLICABLE, VERDICT_UNKNOWN
};

#define MADVICE_MAX 8

struct mresult {
	struct buf	 label;		/* the report's OP Code cell */
	struct buf	 math;		/* Math Fidelity cell; len 0 = empty */
	bool		 has_dram;
	double		 dram_gbps, dram_pct;
	bool		 has_tflops, has_flops_pct;
	double		 tflops, flops_pct;
	enum bound	 bound;
	bool		 is_matmul, is_conv, is_halo, is_host;
	unsigned	 opc;		/* opclass_report of the label: OPC_HOST... */
	bool		 dram_sharded;
	bool		 has_in0_block_w, has_sub_h, has_sub_w;
	long long	 in0_block_w, sub_h, sub_w;
	bool		 has_report_cores;
	double		 report_cores;	/* the Cores cell when it differs from CORE COUNT
					 * (12 DRAM-sharded; NaN without CORE COUNT) */
	bool		 has_mkn;	/* matmul, conv: the M x K x N of the label */
	long long	 mkn[3], batch;	/* batch = W * Z (matmul), 1 (conv) */
	bool		 has_mm_cores;
	long long	 mm_cores;	/* cores the peak was computed for (matmul, conv) */
	enum verdict	 verdict;	/* matmul and OptimizedConvNew ops; NONE otherwise */
	const char	*verdict_msg;	/* "" when none */
	bool		 has_advice;	/* matmul ops */
	int		 nadvice;
	const char	*advice[MADVICE_MAX];
	struct buf	 advbuf;	/* storage of advice texts */
	size_t		 advoff[MADVICE_MAX];	/* (private) offsets into advbuf */
	const char	*category;	/* "Compute", "DM", "TM", "Host", "Other" */
};

void metrics_init(struct mresult *m);
void metrics_free(struct mresult *m);
/* Analyse one op; m is reset first. Warnings go through note_once. */
void metrics_analyse(const struct mop *op, struct mresult *m);

/* Pieces, exposed for the tests and for roofline.c. */
/* Bytes per element (tt-perf-report: first decimal number of the name / 8, else 4). */
double metrics_dtype_size(const char *dtype);
/* Short datatype names: FLOAT32 FP32, BFLOAT16 BF16, BFLOAT8_B BFP8, BFLOAT4_B BFP4. */
const char *metrics_dtype_short(const char *dtype);
/* Spec 9: the Math Fidelity cell of an op that is not a matmul or conv, "in0, in1 => out"
 * with the dtypes shortened (NULL: absent) and stripped, into b (empty). */
struct buf;
void metrics_math_plain(struct buf *b, const char *in0, const char *in1, const char *out);
/* Spec 17.3. fid is the fidelity name (first word of the Math Fidelity cell). */
enum verdict metrics_fidelity_verdict(const char *in0, const char *in1, const char *out,
    const char *fid, const char **msg);
const char *metrics_verdict_name(enum verdict v);
const char *metrics_bound_name(enum bound b);
/* Spec 13: Bound from DRAM % and FLOPs % (has_* false = empty). */
enum bound metrics_bound(bool has_dram, double dram_pct, bool has_flops, double flops_pct);
/* The compatible FLOP count 2 x M x K x N x batch of a matmul or conv (m->mkn, m->batch):
 * the exact product (Python's ints), rounded once to a double. False when a factor is
 * negative or the product is beyond 128 bits (a conv window from absurd attributes). */
bool metrics_mkn_flops(const struct mresult *m, double *flops);
/* Spec 21: category of an OP Code cell (first word). Warns once per unknown name. */
const char *metrics_category(const char *label);
/* Whether metrics_category notes an op it counts as Other (off by default: a user
 * cannot act on it; the programs turn it on with -v twice). */
void metrics_category_notes(int on);

#endif
