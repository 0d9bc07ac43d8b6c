/* SPDX-License-Identifier: ISC */
/*
 * kcat: the name-based GPU kernel categories of TraceLens's inference-phase branch
 * (categorize_kernel_by_name in TraceLens/TreePerf/tree_perf.py at d8acb562; spec
 * docs/tracelens.md §9.2): "GEMM-cuBLAS", "Memory-Set", "PagedAttention-Compute",
 * "Norm-RMS", ... or "Uncategorized". Substring rules in the reference's order, quirks
 * included (a "conv" inside "convert" is a convolution).
 */
#ifndef TTP_KCAT_H
#define TTP_KCAT_H

#include <stddef.h>

/* The category of the kernel name s[0..n) (a static string). */
const char *kcat_name(const char *s, size_t n);

#endif
