/* SPDX-License-Identifier: ISC */
/* ttreader: TT-Metal ops perf CSV files as a row of ttp-parse's readers (core/reader.h):
 * what no other row claims, every input merged into one stream (tt/ttmetal.h). */
#ifndef TTP_TTREADER_H
#define TTP_TTREADER_H

#include "core/reader.h"

extern const struct reader ttm_reader;

#endif
