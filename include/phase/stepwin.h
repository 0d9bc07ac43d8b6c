/* SPDX-License-Identifier: ISC */
/*
 * stepwin: a window of inference steps out of a PyTorch record stream (ttp-filter
 * --steps, --steady-state), as a stream: no trace file is rewritten.
 *
 * The steps of a rank are its step annotations (step.h) of the best tier its trace has
 * (the detailed engine formats if any, else the native ones, else profiler steps),
 * numbered from 1 in time order, as ttp-phase --by steps numbers them. The leading
 * trace record of each rank lists its signposts in order, so the window is known before
 * the first op arrives. Kept: every record that is not an op, a gpu record or a
 * signpost; the window's step annotations and the signposts that start inside them;
 * the ops whose host start falls inside a kept step; the gpu records of kept ops. The
 * kept step annotations get a "step" key, their number in the whole run, which
 * ttp-phase --by steps takes as the iter of their ops.
 */
#ifndef TTP_STEPWIN_H
#define TTP_STEPWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct badrec;
struct error;
struct rec_reader;

struct stepwin_opts {
	long long	from, to;	/* --steps FROM:TO, both included; to -1: the last */
	bool		steady;		/* --steady-state instead */
	long long	num_steps;	/* TraceLens's --num-steps (default 32) */
	bool		verbose;
	struct badrec	*bad;		/* what a bad record means (badrec.h); NULL: stop */
};

#define STEPWIN_NUM_STEPS 32

/* Parse "A:B", "A:", ":B" or "A" (steps from 1) into o->from, o->to; NULL or the
 * reason it is not a range. */
const char *stepwin_parse(const char *s, struct stepwin_opts *o);

/*
 * Read every record of rd and write the window's records to out; 0. A record it
 * cannot use (a trace record without a signpost list, a record of a rank before its
 * trace record, a key of the wrong type) is bad: o->bad decides, and a skipped one
 * changes no window. A trace with no step annotations the option can use: -1 and err
 * set, at that trace record ("file:line: --steps: no step annotations in this trace").
 */
int stepwin_run(struct rec_reader *rd, FILE *out, const struct stepwin_opts *o,
    struct error *err);

/* The largest steady-state region of a run of n steps whose request counts are
 * nreq[0..n) (docs/tracelens.md §9.1, TraceLens's identify_steady_state_regions and the
 * largest of its regions): a step is near the peak when |nreq - max| <= max(1, thr *
 * max), thr 0.1 (0.2 when n < num_steps); a region opens once more than 5 near-peak
 * steps were counted and closes when the count falls back to 0; without any region,
 * the middle of the run. [*start, *end) in step indexes; *nregions: how many regions
 * were found (0: the middle was taken). n > 0. */
void stepwin_steady(const long long *nreq, size_t n, long long num_steps, size_t *start,
    size_t *end, size_t *nregions);

#endif
