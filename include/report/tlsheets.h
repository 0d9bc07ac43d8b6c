/* SPDX-License-Identifier: ISC */
/*
 * tlsheets: TraceLens's sheets (docs/tracelens.md §2, §7) from the records of a PyTorch
 * profiler trace: kind "gpu" (every GPU event), kind "op" (CPU ops and orphan launches,
 * with ttp-roofline's category, flops, bytes, params and roofline keys when present).
 *
 * The sheets keep TraceLens's quirks: busy times are Σ(end − start) over intervals merged
 * in double-precision microseconds on the absolute timestamps (redone from start_ns and
 * ns); kernel_summary and the kernel details use the raw durations; percentages, sorts
 * and column orders are the reference's. Each sheet is a tab (report/tab.h).
 */
#ifndef TTP_TLSHEETS_H
#define TTP_TLSHEETS_H

#include <math.h>
#include <stddef.h>

#include "report/tltree.h"

struct rec;
struct tab;
struct tl;

struct tl_opts {
	int	include_unlinked;	/* gpu_timeline counts kernels with no launcher */
	double	micro_idle_us;		/* NAN: one idle_time row */
	int	kernel_summary;		/* --enable_kernel_summary */
	int	short_kernels;		/* --short_kernel_study */
	double	short_thresh_us;	/* default 10 */
	long	short_bins;		/* default 100 */
	long	topk_short;		/* -1: all */
	int	coll;			/* coll_analysis (not in the inference report) */
	/* TraceLens's inference report (docs/tracelens.md §8, §8.1): */
	int	inference;		/* every family but GEMM and the elementwise ones
					 * is <fam>_fwd (Normalization_fwd) */
	int	by_module;		/* --group_by_parent_module: parent_module and the
					 * call stack (nn.Module frames of ttp-parse -p) */
	int	by_nkernels;		/* --group_by_num_kernels: num_kernels */
	int	call_stack;		/* --include_call_stack: entry_point, call_stack_full
					 * in unified_perf_summary (needs ttp-parse -p) */
	int	pseudo_ops;		/* --enable_pseudo_ops: sglang_profiler:: names lose
					 * their _<digits>; a trace that would get pseudo ops
					 * (fused MoE, MLA, ...) is an error: not built yet */
};

#define TL_OPTS_INIT { 0, NAN, 1, 1, 10.0, 100, -1, 1, 0, 0, 0, 0, 0 }

/* Build the sheets in TraceLens's order (empty ones left out, except the short-kernel
 * sheets when asked for). Returns their number; *out is an array the caller frees with
 * tl_sheets_free. 0 with *err set (and *out NULL) when the trace cannot be reported
 * with these options (pseudo_ops on a trace that opens a pseudo-op gate). */
struct error;
size_t tl_sheets(struct tl *tl, const struct tl_opts *o, struct tab ***out,
    struct error *err);
void tl_sheets_free(struct tab **s, size_t n);
/* The same sheets handed to fn one by one as each is built, in the same order: fn owns
 * each (tab_free), so that only one is held at a time. Returns how many. */
size_t tl_sheets_each(struct tl *tl, const struct tl_opts *o,
    void (*fn)(struct tab *, void *), void *ctx, struct error *err);
/* The same, but the sheets of a row per op or per distinct-arguments group
 * (ops_unique_args, unified_perf_summary, the roofline sheets) handed to part in parts
 * of at most rows rows (tabs of the sheet's name and columns; more is set on each but
 * the last; part owns each), built in the sheet's final order so that no such sheet is
 * held whole (issue 24). The parts joined are the sheet fn would get. rows 0: every
 * sheet whole, to fn. */
size_t tl_sheets_parts(struct tl *tl, const struct tl_opts *o,
    void (*fn)(struct tab *, void *), void (*part)(struct tab *, int more, void *),
    size_t rows, void *ctx, struct error *err);
/* The names of the sheets tl_sheets can build, NULL-terminated ("<family>" stands for
 * the per-family roofline sheets). */
extern const char *const tl_sheet_names[];

#endif
