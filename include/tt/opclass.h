/* SPDX-License-Identifier: ISC */
/*
 * opclass: the TT-Metal op-kind table, the one place for what an op's name says about
 * it (tt-perf-report's substring and category rules, docs/tt-perf-report.md §9, §13, §16,
 * §17, §21, and ttp's own models): which kind of op it is (host fallback, matmul,
 * convolution, halo, collective, decode step), its op category (Compute, DM, TM, Host), how
 * it touches its tensors (the roofline's access model), its FLOP model, and the colour the
 * report gives its name. The filter, the merge, the metrics, the roofline, the report's
 * colours and the phases all read it; a new op kind is one row in lib/tt/opclass.c.
 *
 * A row holds a pattern and the facets it decides. Its category applies to a label
 * whose first word (Python's str.split()[0]) is the pattern, or the pattern followed by
 * "DeviceOperation" (§21; no word matches two rows). Its other facets apply to a
 * name that contains the pattern (and not the row's "unless" text): the kind flags of
 * every such row add up, the access model, FLOP model and colour are the first such
 * row's that sets them, in the table's order (§16's colour order, then the access
 * models' precedence). The rows with such facets come before the rows with only a
 * category.
 */
#ifndef TTP_OPCLASS_H
#define TTP_OPCLASS_H

#include <stdbool.h>
#include <stddef.h>

/* Kind flags. OPC_HOST, OPC_MATMUL and OPC_CONV_NEW are also what tt-perf-report's
 * report makes of an op (opclass_report). */
enum {
	OPC_HOST = 1,		/* a host fallback: "(torch)" */
	OPC_MATMUL = 2,		/* a matmul: "Matmul" (M x K x N, Bound, advice) */
	OPC_CONV_NEW = 4,	/* an OptimizedConvNew (fidelity coloured as a matmul's) */
	OPC_CONV = 8,		/* a convolution: "OptimizedConvNew" or "Conv2d" */
	OPC_HALO = 16,		/* the halo exchange of a convolution */
	OPC_COLLECTIVE = 32,	/* devices need not agree on it (the device merge) */
	OPC_DECODE = 64		/* an LLM decode step's: "Decode", or "Cache" (the KV cache;
				 * ttp-phase's evidence for naming a repetition decode) */
};

/* Access models: how an op touches its tensors (ttp-roofline's bytes; see roofline.c) */
enum { OPA_TENSORS, OPA_GATHER, OPA_SLICE, OPA_SLICE_WRITE };

/* FLOP models (ttp-roofline's flops_model): a matmul's and a convolution's follow their
 * kind (OPC_MATMUL, OPC_CONV: 2 M K N); the rows' column sets the others a name decides
 * (attention: 4 B H Sq Sk D); an op none sets follows its category and access (Compute:
 * one operation per element; DM, TM and any access but OPA_TENSORS: none). */
enum { OPF_NONE, OPF_SDPA };

/* The report's colours of op names: 256-colour palette indexes, those of
 * report/colour.h; 0 in a row: it sets none (white, by default). */
enum {
	OPCOL_RED = 9, OPCOL_BLUE = 12, OPCOL_MAGENTA = 13, OPCOL_CYAN = 14,
	OPCOL_ORANGE = 208
};

struct opkind {
	const char	*pat;		/* the pattern */
	size_t		 len;		/* its length */
	const char	*unless;	/* a name that also holds this is no match (NULL) */
	unsigned	 flags;		/* OPC_* */
	const char	*category;	/* "Compute", "DM", "TM", "Host", or NULL */
	unsigned char	 access;	/* OPA_*; OPA_TENSORS: sets none */
	unsigned char	 flop;		/* OPF_*; OPF_NONE: sets none */
	short		 colour;	/* OPCOL_*, 0: sets none */
};

/* The table, for tests: its rows and their count. */
const struct opkind *opkind_table(size_t *n);

/* The kind flags of the rows in mask whose pattern s[0..n) contains (OR); n is
 * OPK_CSTR for a NUL-terminated s. */
#define OPK_CSTR	((size_t)-1)
unsigned opkind_flags(const char *s, size_t n, unsigned mask);
/* The category of the label whose first word is w[0..n) (§21), NULL when no row
 * names it. */
const char *opkind_category(const char *w, size_t n);
/* The access model, FLOP model and colour of the first row in NUL-terminated s that
 * sets one: OPA_TENSORS, OPF_NONE and 0 when none does. */
int opkind_access(const char *s);
int opkind_flop(const char *s);
int opkind_colour(const char *s);

/* A host fallback: "(torch)" in the name (or in the label the report shows). */
bool opclass_host(const char *name);
/* A matmul: "Matmul" in the name or label; n bytes, not NUL-terminated. */
bool opclass_matmul(const char *name, size_t n);
/* A convolution: "OptimizedConvNew" or "Conv2d". */
bool opclass_conv(const char *name);
/* The halo exchange of a convolution. */
bool opclass_halo(const char *name);
/* A collective (AllGather, ReduceScatter, AllReduce): devices need not agree on it. */
bool opclass_collective(const char *name);
/* OP TYPE of an op that ran on the device ("tt_dnn_device"); NULL is not one. */
bool opclass_device_type(const char *op_type);

/*
 * What tt-perf-report's report makes of an op by its OP Code cell (§9, §13, §16, §17): a
 * host op, a matmul (Bound, advice, the Matmul Optimization list), an OptimizedConvNew (its
 * Math Fidelity cell coloured as a matmul's): the flags OPC_HOST, OPC_MATMUL and
 * OPC_CONV_NEW of the label. ttp-roofline computes them on the label and
 * writes them as the booleans host, matmul and conv_new (ttp-record(5)); ttp-table reads
 * those, and calls this only for records without them (no ttp-roofline ran: on the op
 * name; records of an older ttp-roofline: on their label).
 */
unsigned opclass_report(const char *label, size_t n);

#endif
