/* SPDX-License-Identifier: ISC */
/*
 * interval: the interval algebra of TraceLens's GPU timelines (busy time, exposed
 * communication and memcpy time), on double-precision microsecond intervals as TraceLens
 * computes them. Shared by the PyTorch sheets (tlsheets) and the JAX sheets (jaxsheets).
 */
#ifndef TTP_REPORT_INTERVAL_H
#define TTP_REPORT_INTERVAL_H

#include <stddef.h>

struct iv {
	double	s, e;	/* start and end, e >= s */
};

/* Sort v by start and merge overlapping and touching intervals in place; the new
 * count. */
size_t iv_merge(struct iv *v, size_t n);
/* The summed length of n intervals, in order. */
double iv_len(const struct iv *v, size_t n);
/* a minus b, both sorted and disjoint, into out (room for na + nb intervals); the
 * count. */
size_t iv_sub(const struct iv *a, size_t na, const struct iv *b, size_t nb, struct iv *out);

#endif
