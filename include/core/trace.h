/* SPDX-License-Identifier: ISC */
/*
 * trace: typed access to what every stage asks of a record (its kind, the trace it
 * comes from) and the one parser of the leading "trace" record (ttp-record(5)), which
 * says what the records after it promise: their format, devices, signposts, order.
 *
 * rec_kind and rec_trace are strict, as rec_str is: a "kind" or "trace" of another type
 * reads as missing (KIND_NONE, TRACE_NONE) and marks the record bad (rec_bad), for the
 * program's policy (core/badrec.h). trace_read is lenient, as the order judge is: a key
 * of another type promises nothing and does not mark the record bad; a stage that needs
 * a key checks it itself (rec_reject) with its own message. Strings belong to the
 * record (valid until it changes or the reader moves on, as rec_str's).
 */
#ifndef TTP_TRACE_H
#define TTP_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/rec.h"

/* A record's "kind". */
enum rec_kind {
	KIND_NONE,		/* no "kind" string */
	KIND_TRACE, KIND_OP, KIND_GPU, KIND_SIGNPOST,
	KIND_GROUP,		/* a process group's rank list (ttp-record(5)) */
	KIND_OTHER		/* a kind ttp does not know (passed through) */
};
/* The trace a record comes from, its "trace". */
enum trace_kind {
	TRACE_NONE,		/* no "trace" string */
	TRACE_TTMETAL,		/* TT-Metal ops perf CSV (tt/) */
	TRACE_KINETO,		/* PyTorch profiler (torch/) */
	TRACE_XPLANE,		/* JAX / XLA XSpace (jax/) */
	TRACE_OTHER
};

enum rec_kind rec_kind(struct rec *r);
enum trace_kind rec_trace(struct rec *r);
/* The names as records spell them ("op", "kineto"); NULL for NONE and OTHER. */
const char *rec_kind_name(enum rec_kind k);
const char *trace_kind_name(enum trace_kind t);

/* What a trace record says. */
struct trace_info {
	enum trace_kind	 trace;
	const char	*file;		/* "file" (one input), or NULL */
	const char	*fmt;		/* TT-Metal: "v1", "v2", "v2.1"; NULL */
	bool		 ids_ascending;	/* TT-Metal: op and signpost ids ascend */
	const char	*devices;	/* "devices" as JSON text (an array), or NULL */
	size_t		 devices_len;
	bool		 has_signposts;	/* "signposts" is an array of strings: */
	struct rec_strv	 signposts;	/* their names, in the order they come */
	bool		 has_rank;	/* "rank": one of several traces read at once */
	long long	 rank;
};

/* Whether r is a trace record; if so, *t what it says (else *t is cleared). */
bool trace_read(struct rec *r, struct trace_info *t);

#endif
