/* SPDX-License-Identifier: ISC */
/*
 * ttmetal: TT-Metal "ops perf results" CSV rows to ttp records (ttp-record(5)).
 *
 * Reads one or more CSV files (merged as tt-perf-report merges them: device ids offset
 * by file index times the first file's device count, ids continuing across files),
 * detects the CSV format (v1, v2, v2.1) over all headers, resolves the architecture and
 * worker-core budget of v2.1 traces, and writes one NDJSON record per row to its sink,
 * ordered by HOST START TS with a stable sort (rows without one last) unless told not
 * to. Sorted input streams with constant memory (a first pass over regular files checks
 * the order); otherwise the records are spooled to a temporary file and only a small
 * index (about 32 bytes per row) is kept in memory.
 */
#ifndef TTP_TTMETAL_H
#define TTP_TTMETAL_H

#include <stdio.h>

struct ttm_opts {
	int	all;		/* also keep every other column under its header name */
	int	nosort;		/* keep file order (tt-perf-report's --tracing-mode) */
	int	verbose;	/* print tt-perf-report's informational messages */
};

/* Parse paths (npaths 0: stdin; "-" at most once) and write the records to out (the
 * sink: the standard output, or a memory stream; write errors are named "stdout").
 * Returns 0, or -1 on bad input: then *err (ERROR_INIT or set before; core/diag.h)
 * says where and what, and the records before the bad row have been written. A path
 * that does not open is a message and exit 1. */
struct error;
int ttm_parse(char **paths, int npaths, const struct ttm_opts *o, FILE *out,
    struct error *err);

#endif
