/* SPDX-License-Identifier: ISC */
/*
 * kineto: PyTorch profiler (Kineto chrome-trace JSON) traces to ttp records.
 *
 * The trace is read once, one event at a time through the core JSON tokenizer (never as
 * a whole document); each event the records need is kept as a compact summary (about 120
 * bytes) and the argument lists of CPU ops go to a spool. Then the host call tree and the
 * CPU-to-GPU links are built exactly as TraceLens builds them (docs/tracelens.md §1.4,
 * §1.5: the linking key, ac2g flows, graph launches, the "bleed" rule, launchers, the
 * forward/backward link by Sequence number), and the records are written (ttp-record(5)):
 * a leading "trace" record, then "op", "gpu" and "signpost" records in time order (a GPU
 * event right after the op that launched it; unlinked ones at their own start).
 *
 * Times are exact integer nanoseconds: the trace's microseconds with three decimals are
 * converted as decimal text, never through a double.
 *
 * Bad input (not JSON, not a trace, truncated, an event without ts or dur, a token over
 * the tokenizer's limit, nesting too deep) is an error returned to the caller: file, byte
 * offset and what (with the event's index where there is one), before any record is
 * written. What TraceLens skips (flows
 * without a partner, events of unknown kinds) is counted in the trace record and, with
 * verbose, noted on stderr.
 */
#ifndef TTP_KINETO_H
#define TTP_KINETO_H

#include <stdio.h>

/* The ranks the traces read so far claim, and their files: two traces of one rank in
 * one stream are an error. Zeroed to start; kineto_ranks_free frees it. */
struct kineto_ranks {
	long long	*rank;
	char		**file;
	size_t		 n, cap;
};

struct kineto_opts {
	int	python;		/* python_function events join the tree and become op records */
	int	verbose;	/* say what was skipped */
	const char *capture;	/* a folder of graph-capture traces to merge (TraceLens's
				 * --capture_folder; implies python), or NULL */
	int	has_rank;	/* rank: the trace's rank when distributedInfo has none (--rank) */
	long long rank;
	struct kineto_ranks *claimed;	/* or NULL: no check across traces */
};

/*
 * Read one trace from fp (named name in messages) and write its records to out (the
 * sink: the standard output, or a memory stream). The
 * trace's rank (torch/collect.h's coll_trace_rank: distributedInfo, else o->rank, else
 * the file name's, else pos when >= 0, the input's position when several are read at
 * once) goes on every record; a trace without one writes no "rank". A rank o->claimed
 * holds already is an error naming both files, before any record of this trace is
 * written. Returns 0, or -1 on bad input: then *err (core/diag.h) says where and what.
 */
struct error;
int kineto_parse(FILE *fp, const char *name, int pos, const struct kineto_opts *o,
    FILE *out, struct error *err);
void kineto_ranks_free(struct kineto_ranks *c);

#endif
