/* SPDX-License-Identifier: ISC */
/*
 * tensor: reading the tensor arrays of an op record ("in", "out"; see ttp-record(5))
 * without building JSON trees. The one place that knows how a tensor is written in a
 * record: every program that needs shapes, datatypes or memory placements reads them
 * here.
 *
 * A tensor array is null or an array whose elements are null (an empty group before
 * a non-empty one) or objects {"shape":[d0,...], "logical":[d0,...], "layout":s,
 * "dtype":s, "mem":s}, each member optional or null. Shapes have any rank from 0 to
 * TENSOR_MAXRANK (PyTorch: 0 to 8; TT-Metal: 4, [W, Z, Y, X]), outermost first, and at
 * most 2^53 elements. "logical" absent (or null) with a shape means the shape (ttp-parse
 * writes it only where padding makes it differ), so a tensor with a shape always
 * has_logical. Other members are skipped. A value of another type marks the record
 * bad (rec_reject, e.g. "file:line: in[0].shape: expected an array of at most 8
 * non-negative integers") and tensor_read returns 0: the caller's program decides
 * (core/badrec.h).
 */
#ifndef TTP_TENSOR_H
#define TTP_TENSOR_H

#include <stdbool.h>
#include <stddef.h>

struct rec;

#define TENSOR_MAXRANK	8

/* A shape: rank extents, outermost first. */
struct dims {
	int		 rank;
	long long	 d[TENSOR_MAXRANK];
};

struct tensor {
	bool		 present;	/* an object (false: null) */
	bool		 has_shape, has_logical;
	struct dims	 shape;		/* physical (padded) */
	struct dims	 logical;	/* the shape's when not written */
	/* NUL-terminated and decoded, NULL when absent; owned by the record (valid until
	 * the reader moves on or the record is freed: see rec_decode). */
	const char	*layout, *dtype, *mem;
};

/* Read up to max tensors of the array key ("in" or "out") of r into t[0..]; returns
 * how many slots were filled (index = tensor number; 0 when the key is absent or
 * null, or the array is bad: then rec_bad(r) says why). Elements past max are not
 * looked at. */
size_t tensor_read(struct rec *r, const char *key, struct tensor *t, size_t max);

/* TT-Metal's [W, Z, Y, X] of d: its extents padded on the left with 1s to four. False
 * (and nothing written) when d has more than four. */
bool dims_wzyx(const struct dims *d, long long wzyx[4]);

#endif
