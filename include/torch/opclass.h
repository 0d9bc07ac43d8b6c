/* SPDX-License-Identifier: ISC */
/*
 * opclass: TraceLens's op registry for PyTorch ops (docs/tracelens.md §3): for
 * each op name it knows, the op category ("GEMM", "CONV_fwd", "elementwise", ...),
 * the perf-model class that models it (TraceLens's class name, or NULL for the
 * category-only ops) and the family of its roofline sheet ("GEMM", "SDPA",
 * "UnaryElementwise", "Normalization", ...). The one table of PyTorch op classes.
 */
#ifndef TTP_TORCH_OPCLASS_H
#define TTP_TORCH_OPCLASS_H

#include <stdbool.h>
#include <stddef.h>

struct opclass {
	const char	*name;		/* op name, exact: "aten::addmm" */
	const char	*category;	/* op category */
	const char	*model;		/* TraceLens's perf-model class, or NULL */
	const char	*family;	/* roofline-sheet family, or NULL without a model */
};

/* The registry entry of an op name, or NULL when the name is not registered. */
const struct opclass *opclass_find(const char *name);

/*
 * The op category of docs/tracelens.md §3: the registry's, else "triton" or
 * "record_param_comms" by name prefix, else from the name of the op's first kernel
 * (by start time; NULL when it has none): "void at::native..." containing
 * "elementwise", "reduce" or "multi_tensor_apply"; else "other".
 */
const char *opclass_category(const char *name, const char *first_kernel);

/*
 * Whether TraceLens's report leaves out the backward rows of the forward op called
 * name (aten::convolution, ConvBias_, ...: their backward ops have models of their
 * own, whose rows the bwd sheet shows instead).
 */
bool opclass_bwd_dropped(const char *name);

/*
 * The one family-to-sheet rule (docs/tracelens.md §3.3): the roofline sheet of TraceLens's
 * report that shows a modelled op of sheet family family (a registry family, or a
 * category or sheet name). A name ending in "_fwd" or "_bwd" is its own sheet; GEMM
 * and the element-wise families are one sheet each, and so is Normalization in the
 * training report; the others are split into FAMILY_fwd and FAMILY_bwd (bwd: the op's
 * row is a backward one), FAMILY_fwd only in the inference report. Returns family
 * itself or buf, which holds size bytes.
 */
const char *opclass_sheet(const char *family, bool bwd, bool inference, char *buf,
    size_t size);

/*
 * Whether s[0..n) is an ATen op name that TraceLens's Triton model knows (the op names
 * it splits "triton_poi_fused_add_bitwise_and_mul_0" into). opclass_aten_ops: the
 * whole list, in byte order, and its length.
 */
bool opclass_aten_op(const char *s, size_t n);
size_t opclass_aten_ops(const char *const **list);

#endif
