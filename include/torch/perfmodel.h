/* SPDX-License-Identifier: ISC */
/*
 * perfmodel: TraceLens's perf models of PyTorch ops (docs/tracelens.md §4):
 * from an op's arguments (Kineto's Input Dims, Input type, Input Strides and Concrete
 * Inputs, one struct targ per argument), the FLOPs and bytes moved it implies, its
 * compute spec ("matrix_bf16", "vector_fp32", ...) and the parameters the model read,
 * with TraceLens's key names, order and value types. Forward models, the backward
 * formulas of forward ops (measured on their linked backward ops) and the backward ops
 * that have models of their own. The models keep TraceLens's quirks, so the figures
 * are the ones its sheets show; perf_quirk says where a figure is knowingly rough.
 */
#ifndef TTP_TORCH_PERFMODEL_H
#define TTP_TORCH_PERFMODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"

#define TARG_MAXRANK 16

enum tshape { TSHAPE_NONE, TSHAPE_FLAT, TSHAPE_LIST };

/* One argument of an op: an entry of the record's "in" array. */
struct rec_node;

struct targ {
	enum tshape	 shape;		/* NONE: no shape; FLAT: dims[0..rank); LIST: a
					 * TensorList (a list of shapes) */
	int		 rank;
	long long	 dims[TARG_MAXRANK];
	const char	*dtype;		/* Input type; "" when absent, never NULL */
	bool		 has_strides;	/* strides is a flat list of integers */
	int		 nstrides;
	long long	 strides[TARG_MAXRANK];
	const char	*value;		/* Concrete Inputs; "" when absent, never NULL */
	const struct rec_node *shape_tree;	/* LIST: the shape's nested lists (core/rec.h),
					 * or NULL */
};

/* The attention counts of the step annotation that encloses an op (TraceLens's
 * apply_annotation and chunk_stats), which the InferenceAttention models read. */
struct tanno {
	bool		 sqsk;		/* the annotation carries the counts */
	long long	 c_sq, c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk;
};

struct targs {
	size_t		 n;
	struct targ	*a;
	bool		 strides_known;	/* some argument has strides (else: None) */
	const struct tanno *anno;	/* the enclosing step's counts, or NULL */
};

/* A number as Python has it: an exact integer or a double. */
struct pynum {
	bool		 isint;
	long long	 i;
	double		 d;
};

double pynum_double(struct pynum v);

struct tperf {
	struct pynum	 flops;
	bool		 has_bytes;	/* false: TraceLens's None (unknown bytes) */
	struct pynum	 bytes;
	const char	*maf;		/* "matrix" or "vector" */
	const char	*prec;		/* "bf16", "fp32", ..., or NULL when unknown */
	struct buf	 params;	/* the model's parameters, in TraceLens's order:
					 * the JSON text of an object */
	const char	*quirk;		/* a known roughness of these figures, or NULL */
	const char	*lists[4];	/* the params that are Python lists (the other
					 * arrays are tuples) */
	size_t		 nlists;
	char		 err[200];	/* why the model failed (PERF_ERROR) */
};

enum perf_status {
	PERF_OK,
	PERF_NONE,		/* no model for this op (or TraceLens's NotImplemented) */
	PERF_ERROR		/* the model failed on these arguments: err says why */
};

/*
 * Apply the model class named model (an opclass's) of the op called name to its
 * arguments; kernels are the names of its own kernels by start time (GEMMs read the
 * transpose flags from them). bwd: the backward formulas of a forward model, for the
 * op's linked backward pass. On PERF_OK the caller frees out->params (perf_free).
 */
enum perf_status perf_apply(const char *model, const char *name, const struct targs *a,
    const char *const *kernels, size_t nkernels, bool bwd, struct tperf *out);

/*
 * TraceLens's TritonCompiledPerfModel of a TorchInductor kernel op (triton_poi_*,
 * triton_red_*, triton_per_*) from the trace's own arguments: FLOPs per element of the
 * fused ops named in the kernel name times xnumel and rnumel (the integers of Concrete
 * Inputs), bytes of the tensors of c10:: dtypes (a pointwise kernel writes its first
 * tensor's width once more per element), compute spec vector_<dtype>. PERF_NONE when
 * the name is not such a kernel or no integer is there (TraceLens: no model).
 */
enum perf_status perf_triton(const char *name, const struct targs *a, struct tperf *out);
void perf_free(struct tperf *p);

/*
 * A perf-model class ttp implements (torch/opclass.c maps op names to classes): one row
 * of the model table, with TraceLens's backward rules. perf_model: the row of a class
 * name, or NULL when ttp has no such model (TraceLens has more, mostly extensions).
 */
struct pmctx;			/* a model's arguments and output (private) */
struct perfmodel {
	const char	*model;		/* TraceLens's class name: "aten_conv" */
	/* the model function, or NULL for TraceLens's NotImplemented (InstanceNormBwd) */
	void		(*apply)(struct pmctx *c, const struct perfmodel *m, bool bwd);
	int		 variant;	/* which form of its family's model */
	bool		 bwd;		/* TraceLens applies its backward formulas to the
					 * op's linked backward op */
	const char	*bwd_category;	/* the category of those backward rows ("CONV_bwd"),
					 * or NULL when they keep the op's */
};

const struct perfmodel *perf_model(const char *model);

/* TraceLens's bytes per element of a dtype name (name2bpe), or 0 when unknown. */
int perf_bpe(const char *dtype);
/* TraceLens's precision of a dtype name (torch_dtype_map): "bf16", ..., or NULL. */
const char *perf_precision(const char *dtype);

#endif
