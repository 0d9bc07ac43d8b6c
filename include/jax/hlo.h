/* SPDX-License-Identifier: ISC */
/*
 * hlo: the HLO modules a JAX profile embeds (an xla.HloProto per compiled program, the
 * "Hlo Proto" stat of /host:metadata), read without a schema (core/pb.h): each
 * instruction's name, opcode, shapes, metadata, custom-call target, backend config,
 * dot and convolution dimension numbers, its operands and whether it is the root of
 * its computation; and the text XLA prints for them (shapes "bf16[1,16]{1,0}", the
 * "metadata={...}" attribute), from which TraceLens's report takes its values (spec
 * docs/jax.md §1.7). Field numbers: docs/jax.md §1.3. Ids are 64-bit.
 */
#ifndef TTP_HLO_H
#define TTP_HLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/names.h"

struct error;

/* A byte range inside the module's bytes (len 0: absent). */
struct hlo_span {
	uint32_t	off, len;
};

struct hlo_instr {
	struct hlo_span	 name, opcode, shape, metadata, target, config, fusion_kind;
	struct hlo_span	 dot, conv, window;
	struct hlo_span	 self;		/* the instruction's own bytes */
	int64_t		 id;
	uint32_t	 comp;		/* index of its computation */
	uint32_t	 ops, nops;	/* its operand ids: hlo_module.opids[ops..ops+nops) */
	uint32_t	 called, ncalled;	/* called computation ids, likewise */
	int64_t		 feature_groups;
	bool		 root;
};

struct hlo_module {
	unsigned char	*bytes;		/* the HloProto, owned */
	size_t		 len;
	struct hlo_span	 name, entry;
	struct hlo_instr *ins;
	size_t		 nins;
	int64_t		*opids;
	size_t		 nopids;
	int64_t		*comp_ids;	/* each computation's id */
	uint32_t	*comp_first;	/* its first instruction (ncomps + 1 entries) */
	size_t		 ncomps;
	struct names	 names;		/* instruction names; index -> by_name */
	uint32_t	*by_name;
	struct hlo_key	*keys;		/* (computation, id) -> instruction, sorted */
};

/*
 * Parse an HloProto of len bytes (taken over: freed with the module), found at file
 * offset off of file (for messages). 0, or -1 with e set.
 */
int hlo_parse(struct hlo_module *m, unsigned char *bytes, size_t len, uint64_t off,
    const char *file, struct error *e);
void hlo_free(struct hlo_module *m);

/* The instruction named name (without '%'), or NULL. */
const struct hlo_instr *hlo_find(const struct hlo_module *m, const char *name, size_t n);
/* Operand k of ins, or NULL when its id names no instruction of ins's computation. */
const struct hlo_instr *hlo_operand(const struct hlo_module *m, const struct hlo_instr *ins,
    size_t k);
/* The computation with this id (its index), or -1. */
long hlo_comp(const struct hlo_module *m, int64_t id);
/* The bytes of a span. */
const char *hlo_str(const struct hlo_module *m, struct hlo_span s);

/* XLA's text of a ShapeProto span: "bf16[1,16]{1,0}", "f32[]", "(s32[], u8[4]{0})". */
void hlo_shape_text(const struct hlo_module *m, struct hlo_span shape, struct buf *out);
/* The element type of a shape (PrimitiveType number; 13 tuple), its dims (at most max
 * into d; their number, or -1 for more) and layout (minor_to_major into l when l is not
 * NULL; its length in *nl, -1 when the shape has no layout). */
int hlo_shape_dims(const struct hlo_module *m, struct hlo_span shape, int *etype,
    int64_t *d, int max, int64_t *l, int *nl);
/* Tuple element k of a tuple shape (len 0 when there is none). */
struct hlo_span hlo_tuple_elem(const struct hlo_module *m, struct hlo_span shape, size_t k);
/* The lower-case HLO name of a PrimitiveType ("bf16"), or NULL when unknown. */
const char *hlo_type_name(int etype);
/* XLA's "metadata={op_type=\"..\" op_name=\"..\" ...}" text (nothing when empty). */
void hlo_metadata_text(const struct hlo_module *m, const struct hlo_instr *ins,
    struct buf *out);
/* One field of the OpMetadata (op_type 1, op_name 2, source_file 3) or NULL; *n its length. */
const char *hlo_metadata_str(const struct hlo_module *m, const struct hlo_instr *ins,
    int field, size_t *n);
long long hlo_metadata_line(const struct hlo_module *m, const struct hlo_instr *ins);
/*
 * Whether TraceLens (HEAD) parses the instruction's line of the module's text (spec
 * docs/jax.md §1.7): not a ROOT line, and either printed with metadata or holding one of its
 * dtype substrings. The line is XLA's text as far as these tests need it (name, shape,
 * opcode, operand names, custom-call target, metadata, backend config).
 */
bool hlo_tl_listed(const struct hlo_module *m, const struct hlo_instr *ins);
/*
 * A matrix multiplication's sizes by HLO's meaning (docs/jax.md §12.5): B the product of
 * the batch dimensions, M of the lhs's other free dimensions, N of the rhs's, K of the
 * contracting ones. For a dot, from its dimension numbers; for a cuBLAS / hipBLASLt
 * custom call (target with "matmul", "gemm" or "cublas"), from its dimension numbers or
 * else its backend config's; for a fusion (a Triton GEMM fusion), from the first dot of
 * the computation it calls. *dot is the instruction whose operands were read (for their
 * dtypes), in its own computation. false when ins is none of these or the shapes do not
 * agree with the dimension numbers.
 */
bool hlo_gemm(const struct hlo_module *m, const struct hlo_instr *ins, int64_t bmnk[4],
    const struct hlo_instr **dot);

/* The packed or repeated int64 values of field num inside a message span, at most max. */
int hlo_ints(const struct hlo_module *m, struct hlo_span msg, unsigned num, int64_t *v,
    int max);

#endif
