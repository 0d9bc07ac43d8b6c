/* SPDX-License-Identifier: ISC */
/*
 * period: finding the longest periodic stretch ("run") of a symbol sequence, in
 * O(n log n) time, deterministically (used by ttp-phase --by repeat; see phase.h).
 */
#ifndef TTP_PERIOD_H
#define TTP_PERIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A periodic stretch: sym[start .. start+len) has period `period` (sym[i] == sym[i+period])
 * and len >= 2 * period. */
struct period {
	size_t	start;
	size_t	len;
	size_t	period;
};

/* The maximal periodic stretch of sym[0..n) with period p and length >= 2p that covers
 * the most symbols; ties: the smaller period, then the earlier start. False (out
 * untouched) if there is none.
 * O(n log n) time on op traces (O(n log^2 n) at worst), deterministic; memory beside
 * sym: about 10 bytes per symbol when the sequence holds a repeat of 16 or more symbols
 * (12 while the tables are built), none otherwise; n < 2^32 - 1. */
bool period_find(const uint32_t *sym, size_t n, struct period *out);

#endif
