/* SPDX-License-Identifier: ISC */
/*
 * merge: tt-perf-report's device step (docs/tt-perf-report.md §8, quirks Q8, Q9, Q33, Q43) over
 * ttp-filter's per-record summaries: keep per-device rows, or merge the devices' queues
 * of "tt_dnn_device" ops step by step (the longest duration wins; collectives get the
 * mean duration on the lowest device's row), then order the result by op ID.
 */
#ifndef TTP_MERGE_H
#define TTP_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "tt/window.h"

/*
 * sel[0..n): the window, indices into e in stream order. Writes the analysed sequence
 * to out (room for n) and returns its length. A merged collective's entry gets
 * FE_SETDUR with e[].dur set to the mean (NaN when no device had a duration).
 * no_merge keeps per-device rows when the window holds more than one device.
 * Messages: the reference's informational ones with say() under verbose, its warnings
 * with note().
 */
size_t merge_devices(struct fent *e, const uint32_t *sel, size_t n, const struct names *nm,
    bool no_merge, bool verbose, uint32_t *out);

/*
 * The merge step by step, for the batch above and for ttp-filter's streaming merge:
 * per-device queues of device ops (their positions; entry pos is e[pos - base]) and
 * the step loop. A step takes the head of every queue; merge_ready says whether every
 * queue has one, so that a step made now is the step the whole input would make.
 */
struct merge {
	const struct names *nm;
	size_t		 ndev;
	int64_t		*dev;		/* the queues' devices, ascending */
	struct mqueue {
		uint64_t *v;
		size_t	  head, n, cap;
	}		*q;
	size_t		 nempty;	/* queues without a head */
	size_t		 step, nwarn;
	uint64_t	*group;
	size_t		*missing;
	struct buf	 b;
};

/* Queues for the devices devs[0..ndev) (ascending, distinct). */
void merge_init(struct merge *m, const int64_t *devs, size_t ndev, const struct names *nm);
/* The index of d in devs[0..n) (ascending), or n when it is not there. */
size_t merge_devindex(const int64_t *devs, size_t n, int64_t d);
/* Queue the device op at pos on its device (one of merge_init's). */
void merge_push(struct merge *m, int64_t device, uint64_t pos);
/* Every queue has a head. */
bool merge_ready(const struct merge *m);
/*
 * One step over the heads (an empty queue is a device missing the op: a warning); false
 * when every queue is empty. *chosen: the op that stands for the step (a collective's
 * gets FE_SETDUR and the mean duration); the group's other ops get FE_SKIP.
 */
bool merge_step(struct merge *m, struct fent *e, uint64_t base, uint64_t *chosen);
/* After the last step: how many warnings were not shown; frees m. */
void merge_done(struct merge *m);
/* merge_free: what merge_done frees, without its last warning (an input that ended in
 * an error); a merge that is done or zeroed is left as it is. */
void merge_free(struct merge *m);

/* Number of distinct devices among the entries sel[0..n). */
size_t merge_count_devices(const struct fent *e, const uint32_t *sel, size_t n);

#endif
