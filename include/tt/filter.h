/* SPDX-License-Identifier: ISC */
/*
 * filter: ttp-filter's selection, start to end. It reads records, keeps a compact
 * summary of each (window.h) and spools their lines (spool.h), then selects exactly the
 * ops tt-perf-report analyses, in its order: signpost window, device merge (merge.h),
 * Op-to-Op gap clearing, --id-range, then the record filters (--no-host-ops, --op,
 * --exclude-op, --phase, and tt-mlir's const-eval, input-layout-conversion, program and
 * loop selections). With --ignore-signposts --no-merge-devices
 * and more than one device, no look-ahead is needed and records stream through. When
 * the input starts with ttp-parse's "trace" record (the devices, ids ascending, the
 * signposts), the window (default or named) and the merge stream too: the merge's
 * per-device queues hold only the records that wait for a step (merge.h).
 */
#ifndef TTP_FILTER_H
#define TTP_FILTER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/rec.h"
#include "tt/window.h"

struct badrec;
struct error;

struct filter_opts {
	struct wopts	 w;		/* the signpost window (w.verbose = verbose) */
	bool		 no_merge;	/* --no-merge-devices */
	bool		 has_idrange;
	struct idrange	 idrange;	/* --id-range */
	bool		 has_devices;
	struct devlist	 devices;	/* --device: records of other devices are dropped first */
	bool		 no_host_ops;	/* --no-host-ops */
	/* tt-mlir traces: FILTER_DROP drops the ops whose boolean key is true,
	 * FILTER_ONLY keeps only those */
	int		 const_eval;	/* --no-const-eval, --const-eval-only */
	int		 layout_conv;	/* --no-input-layout-conversion, --...-only */
	long long	 program, loop;	/* --program, --loop: -1 for any */
	const char	*phase;		/* --phase: ops whose phase is this */
	long long	 iter;		/* --iter: ops whose iter is this; -1 for any */
	char		**ops;		/* --op GLOB (any of them) */
	size_t		 nops;
	char		**xops;		/* --exclude-op GLOB */
	size_t		 nxops;
	bool		 verbose;
	struct badrec	*bad;		/* what a bad record means (badrec.h); NULL: stop */
};

enum { FILTER_KEEP, FILTER_DROP, FILTER_ONLY };

/*
 * Read every record of rd, write the selection to out; 0. A record the filter cannot
 * use (an op or signpost without an id, one that breaks the trace record's promise, a
 * key of the wrong type) is bad: o->bad decides, and a skipped one leaves no trace. A
 * selection that keeps nothing (--op, --phase, --device, ... that match no record) or a
 * named signpost that is not there: -1 and err set ("prog: message" is the program's
 * error_die), output written so far stays written.
 */
int filter_run(struct rec_reader *rd, FILE *out, const struct filter_opts *o,
    struct error *err);

#endif
