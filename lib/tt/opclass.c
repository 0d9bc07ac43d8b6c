/* SPDX-License-Identifier: ISC */
/*
 * opclass: the TT-Metal op-kind table and its lookups (see opclass.h).
 */
#include <string.h>

#include "tt/opclass.h"

#define C	"Compute"
#define DM	"DM"
#define TM	"TM"

/*
 * The rows whose substring facets have an order come first, in it: docs/tt-perf-report.md
 * §16's colour list ((torch) red, Matmul magenta, the convolutions orange, LayerNorm and
 * the collectives cyan, attention decode and KV-cache ops blue), then the access models
 * (an embedding but not its backward pass gathers; a slice write, and a sharded-to-
 * interleaved partial, update part of their output; a slice, and an interleaved-to-
 * sharded partial, read part of their input). Then the other rows with a kind or a
 * model, then the rest of docs/tt-perf-report.md §21's category lists, in their order.
 */
static const struct opkind table[] = {
	/* pattern, unless, flags, category, access, flop, colour */
#define R(pat, ...)	{ pat, sizeof(pat) - 1, __VA_ARGS__ }
	R("(torch)", NULL, OPC_HOST, "Host", 0, 0, OPCOL_RED),
	R("Matmul", NULL, OPC_MATMUL, C, 0, 0, OPCOL_MAGENTA),
	R("OptimizedConvNew", NULL, OPC_CONV | OPC_CONV_NEW, C, 0, 0, OPCOL_ORANGE),
	R("Conv2d", NULL, OPC_CONV, C, 0, 0, OPCOL_ORANGE),
	R("LayerNorm", NULL, 0, C, 0, 0, OPCOL_CYAN),
	R("AllGather", NULL, OPC_COLLECTIVE, NULL, 0, 0, OPCOL_CYAN),
	R("AllReduce", NULL, OPC_COLLECTIVE, NULL, 0, 0, OPCOL_CYAN),
	R("ScaledDotProductAttentionDecode", NULL, 0, C, 0, 0, OPCOL_BLUE),
	R("ScaledDotProductAttentionGQADecode", NULL, 0, NULL, 0, 0, OPCOL_BLUE),
	R("NlpCreateHeadsDeviceOperation", NULL, 0, NULL, 0, 0, OPCOL_BLUE),
	R("NLPConcatHeadsDecodeDeviceOperation", NULL, 0, TM, 0, 0, OPCOL_BLUE),
	R("UpdateCache", NULL, 0, NULL, 0, 0, OPCOL_BLUE),
	R("Embedding", "Backward", 0, NULL, OPA_GATHER, 0, 0),
	R("SliceWrite", NULL, 0, DM, OPA_SLICE_WRITE, 0, 0),
	R("ShardedToInterleavedPartial", NULL, 0, DM, OPA_SLICE_WRITE, 0, 0),
	R("Slice", NULL, 0, TM, OPA_SLICE, 0, 0),
	R("InterleavedToShardedPartial", NULL, 0, DM, OPA_SLICE, 0, 0),
	R("ScaledDotProductAttention", NULL, 0, C, 0, OPF_SDPA, 0),
	R("SDPA", NULL, 0, NULL, 0, OPF_SDPA, 0),
	R("HaloDeviceOperation", NULL, OPC_HALO, NULL, 0, 0, 0),
	R("ReduceScatter", NULL, OPC_COLLECTIVE, DM, 0, 0, 0),
	R("Decode", NULL, OPC_DECODE, NULL, 0, 0, 0),
	R("Cache", NULL, OPC_DECODE, NULL, 0, 0, 0),
	/* Compute */
	R("AllGatherMatmul", NULL, 0, C, 0, 0, 0),
	R("RotaryEmbeddingLlama", NULL, 0, C, 0, 0, 0),
	R("SDPAOperation", NULL, 0, C, 0, 0, 0),
	R("BinaryNg", NULL, 0, C, 0, 0, 0),
	R("Binary", NULL, 0, C, 0, 0, 0),
	R("Unary", NULL, 0, C, 0, 0, 0),
	R("Pool2D", NULL, 0, C, 0, 0, 0),
	R("UpSample", NULL, 0, C, 0, 0, 0),
	R("UpsampleOperation", NULL, 0, C, 0, 0, 0),
	R("GroupNorm", NULL, 0, C, 0, 0, 0),
	R("GridSample", NULL, 0, C, 0, 0, 0),
	R("Accumulation", NULL, 0, C, 0, 0, 0),
	R("Reduce", NULL, 0, C, 0, 0, 0),
	R("Softmax", NULL, 0, C, 0, 0, 0),
	R("Embeddings", NULL, 0, C, 0, 0, 0),
	R("MinimalMatmulOp", NULL, 0, C, 0, 0, 0),
	R("IntImg", NULL, 0, C, 0, 0, 0),
	R("GridSampleOperation", NULL, 0, C, 0, 0, 0),
	/* DM */
	R("PagedUpdateCacheDeviceOperation", NULL, 0, DM, 0, 0, 0),
	R("Move", NULL, 0, DM, 0, 0, 0),
	R("Copy", NULL, 0, DM, 0, 0, 0),
	R("InterleavedToSharded", NULL, 0, DM, 0, 0, 0),
	R("ShardedToInterleaved", NULL, 0, DM, 0, 0, 0),
	R("Halo", NULL, 0, DM, 0, 0, 0),
	R("Where", NULL, 0, DM, 0, 0, 0),
	R("CloneOperation", NULL, 0, DM, 0, 0, 0),
	R("Reshard", NULL, 0, DM, 0, 0, 0),
	R("PaddedSlice", NULL, 0, DM, 0, 0, 0),
	/* TM */
	R("NLPCreateHeadsDecodeDeviceOperation", NULL, 0, TM, 0, 0, 0),
	R("Fold", NULL, 0, TM, 0, 0, 0),
	R("CreateQKVHeadsDeviceOperation", NULL, 0, TM, 0, 0, 0),
	R("ConcatenateHeads", NULL, 0, TM, 0, 0, 0),
	R("Reshape", NULL, 0, TM, 0, 0, 0),
	R("Transpose", NULL, 0, TM, 0, 0, 0),
	R("Permute", NULL, 0, TM, 0, 0, 0),
	R("Concat", NULL, 0, TM, 0, 0, 0),
	R("Split", NULL, 0, TM, 0, 0, 0),
	R("TilizeWithValPadding", NULL, 0, TM, 0, 0, 0),
	R("Tilize", NULL, 0, TM, 0, 0, 0),
	R("UntilizeWithUnpadding", NULL, 0, TM, 0, 0, 0),
	R("Untilize", NULL, 0, TM, 0, 0, 0),
	R("Typecast", NULL, 0, TM, 0, 0, 0),
	R("NLPConcatHeads", NULL, 0, TM, 0, 0, 0),
	R("NlpCreateHeads", NULL, 0, TM, 0, 0, 0),
	R("Ternary", NULL, 0, TM, 0, 0, 0),
	R("FillPad", NULL, 0, TM, 0, 0, 0),
	R("PadDeviceOperation", NULL, 0, TM, 0, 0, 0),
#undef R
};

#define NROWS	(sizeof(table) / sizeof(table[0]))

const struct opkind *
opkind_table(size_t *n)
{
	*n = NROWS;
	return table;
}

/* The rows up to the last one with a substring facet (they come first): the lookups by
 * substring need not look further. */
static size_t
nsub(void)
{
	static size_t n;
	size_t i;

	if (n == 0)
		for (i = 0; i < NROWS; i++)
			if (table[i].flags != 0 || table[i].access != OPA_TENSORS ||
			    table[i].flop != OPF_NONE || table[i].colour != 0)
				n = i + 1;
	return n;
}

/* Whether row k's pattern is in s[0..n) (NUL-terminated s when n is OPK_CSTR) and its
 * "unless" text is not. */
static bool
holds(const struct opkind *k, const char *s, size_t n)
{
	if (n == OPK_CSTR)
		return strstr(s, k->pat) != NULL &&
		    (k->unless == NULL || strstr(s, k->unless) == NULL);
	return memmem(s, n, k->pat, k->len) != NULL &&
	    (k->unless == NULL || memmem(s, n, k->unless, strlen(k->unless)) == NULL);
}

unsigned
opkind_flags(const char *s, size_t n, unsigned mask)
{
	unsigned f = 0;
	size_t i, ns = nsub();

	for (i = 0; i < ns; i++)
		if ((table[i].flags & mask) != 0 && holds(&table[i], s, n))
			f |= table[i].flags;
	return f & mask;
}

const char *
opkind_category(const char *w, size_t n)
{
	static const char suffix[] = "DeviceOperation";
	size_t i, k;

	for (i = 0; i < NROWS; i++) {
		if (table[i].category == NULL)
			continue;
		k = table[i].len;
		if ((n == k || (n == k + sizeof(suffix) - 1 &&
		    memcmp(w + k, suffix, sizeof(suffix) - 1) == 0)) &&
		    memcmp(w, table[i].pat, k) == 0)
			return table[i].category;
	}
	return NULL;
}

int
opkind_access(const char *s)
{
	size_t i, ns = nsub();

	for (i = 0; i < ns; i++)
		if (table[i].access != OPA_TENSORS && holds(&table[i], s, OPK_CSTR))
			return table[i].access;
	return OPA_TENSORS;
}

int
opkind_flop(const char *s)
{
	size_t i, ns = nsub();

	for (i = 0; i < ns; i++)
		if (table[i].flop != OPF_NONE && holds(&table[i], s, OPK_CSTR))
			return table[i].flop;
	return OPF_NONE;
}

int
opkind_colour(const char *s)
{
	size_t i, ns = nsub();

	for (i = 0; i < ns; i++)
		if (table[i].colour != 0 && holds(&table[i], s, OPK_CSTR))
			return table[i].colour;
	return 0;
}

bool
opclass_host(const char *name)
{
	return opkind_flags(name, OPK_CSTR, OPC_HOST) != 0;
}

bool
opclass_matmul(const char *name, size_t n)
{
	return opkind_flags(name, n, OPC_MATMUL) != 0;
}

bool
opclass_conv(const char *name)
{
	return opkind_flags(name, OPK_CSTR, OPC_CONV) != 0;
}

bool
opclass_halo(const char *name)
{
	return opkind_flags(name, OPK_CSTR, OPC_HALO) != 0;
}

bool
opclass_collective(const char *name)
{
	return opkind_flags(name, OPK_CSTR, OPC_COLLECTIVE) != 0;
}

unsigned
opclass_report(const char *label, size_t n)
{
	return opkind_flags(label, n, OPC_HOST | OPC_MATMUL | OPC_CONV_NEW);
}

bool
opclass_device_type(const char *op_type)
{
	return op_type != NULL && strcmp(op_type, "tt_dnn_device") == 0;
}
