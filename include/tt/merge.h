/* SPDX-License-Identifier: ISC */
/*
 * merge: tt-perf-report's device step (spec section 8, quirks Q8, Q9, Q33, Q43) over
 * ttp-filter's per-record summaries: keep per-device rows, or merge the devices' queues
 * of "tt_dnn_device" ops step by step (the longest duration wins; collectives get the
 * mean duration on the lowest device's row), then order the result by op ID.
 */
#ifndef TTP_MERGE_H
#define TTP_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Number of distinct devices among the entries sel[0..n). */
size_t merge_count_devices(const struct fent *e, const uint32_t *sel, size_t n);

#endif
