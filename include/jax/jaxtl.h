/* SPDX-License-Identifier: ISC */
/*
 * jaxtl: what TraceLens's JAX report sees of a kernel, from ttp-parse's gpu record of
 * an xplane.pb (docs/jax.md §1.5-§1.8, §3.1, §6): its category by name and HLO op, the
 * HLO-text fragments TraceLens cuts out of the instruction's printed line (operands as
 * their instructions' result texts or "%name", an index=N comment before every fifth, the
 * metadata, custom-call target and backend config cut by its regexes), the perf model
 * those select, and the models themselves (jax_gemm, jax_conv, jax_te_fused_attn) with
 * TraceLens's quirks. Works from records only; the table and roofline stages share it.
 */
#ifndef TTP_JAXTL_H
#define TTP_JAXTL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"

struct rec;

/* §1.8: "GEMM", "FA BWD", ..., "Uncategorized Events/XLA" (static strings). */
const char *jax_category(const char *name, const char *hlo_op);
/* The categories in TraceLens's order (the op_* sheets'), NULL-terminated, without
 * the uncategorised one. */
extern const char *const jax_categories[];

#define JAX_MAXDIMS 8

/* One operand's first shape match (§3.1's regex): dtype text and dims. */
struct jax_shape {
	char		dtype[16];
	long long	d[JAX_MAXDIMS];
	int		nd;
};

struct jax_tl {
	bool		 meta;		/* TraceLens attaches HLO metadata (linked, listed) */
	char		*target;	/* custom_call_target="..." cut; NULL: 'NA' */
	char		*metadata;	/* metadata={... cut; NULL: 'NA' */
	char		*config;	/* backend_config={... cut; NULL: none */
	char		*output;	/* the line's output token */
	char		**ops;		/* operand texts (meta only) */
	size_t		 nops;
	struct jax_shape *in;		/* the operands that match §3.1's regex */
	size_t		 nin;
	const char	*category;
	const char	*model;		/* jax_gemm, jax_conv, ..., "rest" */
};

/* Fill v from a gpu record (strings owned by v). */
void jax_tl_read(struct rec *r, struct jax_tl *v);
void jax_tl_free(struct jax_tl *v);

/* The first §3.1 match in text; false when there is none. */
bool jax_shape_match(const char *text, struct jax_shape *s);

/* A perf model's figures: params as a JSON object's text ({"convNd":"conv3d",...}). */
struct jax_perf {
	double		flops, bytes;	/* bytes NaN: no bytes per element */
	struct buf	params;
};

/* Run v's model; 0, or -1 with a message in err (TraceLens raises there: docs/jax.md §6.4's
 * packed TE layout, §6.2's GEMM text oddities). "rest": 1 (no model). */
int jax_perf_run(const struct jax_tl *v, const char *kname, struct jax_perf *p,
    struct buf *err);

/*
 * Beyond TraceLens (docs/jax.md §11): the figures by HLO's meaning and a roofline from
 * the device planes' own capability stats, no arch file. jax_devs_read takes the trace
 * record's devices (per pid: a GPU's peak TFLOP/s per dtype from its clock, core count
 * and compute capability, its memory bandwidth; a TPU's own peak figures); jax_hlo_add
 * adds to a gpu record whose instruction is a matrix multiplication (B, M, N, K from
 * ttp-parse: cuBLAS/hipBLASLt custom calls, XLA dots, Triton GEMM fusions) or a
 * convolution its true cost (hlo_model, hlo_flops, hlo_bytes, hlo_intensity), and to
 * those and to TPU op records (flops, bytes from XLA's cost model) the roofline
 * (compute_spec, peak_tflops, peak_tbps, hlo_tflops, hlo_tbps, roof, roof_tflops,
 * roof_pct). Keys: ttp-record(5).
 */
struct jax_dev {
	long long	pid;
	double		tflops[4];	/* peak: f32, f16, bf16, fp8; 0 unknown */
	double		tbps;		/* memory bandwidth, TB/s; 0 unknown */
	bool		tpu;
};

struct jax_devs {
	struct jax_dev	*d;
	size_t		 n;
};

void jax_devs_read(struct jax_devs *d, struct rec *trace);
void jax_devs_free(struct jax_devs *d);
void jax_hlo_add(const struct jax_devs *d, struct rec *r);

#endif
