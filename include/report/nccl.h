/* SPDX-License-Identifier: ISC */
/*
 * nccl: TraceLens's multi-rank collective report (NcclAnalyser, as
 * TraceLens_generate_multi_rank_collective_report_pytorch writes it) from the collective
 * records ttp-filter --collectives writes for each rank's trace (kind "coll", one per
 * collective kernel, and kind "rank", one per trace). Collectives are matched across
 * ranks as TraceLens matches them: by their order in time on each rank (simplified
 * mode: no process-group names and one stream per rank) or within each process group
 * (regular mode); where every collective carries Kineto's Seq ("seq"), by it instead
 * (its index in its group is its Seq less the group's lowest, so a collective one rank
 * lacks leaves a gap rather than shifting the later ones). Sheets in TraceLens's order: nccl_summary_implicit_sync,
 * nccl_summary_long, nccl_summary_all2allv, nccl_all2allv_heatmap (when asked),
 * nccl_long, nccl_implicit_sync, nccl_all2allv, straggler_summary; then, where TraceLens
 * fails the whole report (a collective whose metadata differ between ranks, a
 * collective some rank of its group lacks), nccl_unmatched lists those collectives and
 * the other sheets leave them out.
 */
#ifndef TTP_NCCL_H
#define TTP_NCCL_H

#include <stddef.h>

struct rec;
struct tab;
struct error;
struct nc;

struct nc_opts {
	long long	gpus_per_node;	/* 0: rank 0's device count (its "rank" record) */
	long long	world_size;	/* 0: the highest rank + 1 */
	int		heatmap;	/* add nccl_all2allv_heatmap */
};
#define NC_OPTS_INIT	{ 0, 0, 0 }

struct nc *nc_new(void);
void nc_free(struct nc *nc);
/* Take a record: 1 if it is a collective record ("coll" or "rank"), else 0. A bad one
 * is marked (rec_reject) and not kept. A "group" record (a process group's rank list,
 * for the kernels of that group on its rank that leave it out) is kept but returns 0:
 * a single trace's sheets read it too. */
int nc_add(struct nc *nc, struct rec *r);
/* Number of records taken. */
size_t nc_count(const struct nc *nc);
/* Build the sheets; their number, *out freed with nc_sheets_free. 0 with err set when
 * there is nothing to report (no collective kernel). */
size_t nc_sheets(struct nc *nc, const struct nc_opts *o, struct tab ***out,
    struct error *err);
void nc_sheets_free(struct tab **s, size_t n);
/* The same sheets handed to fn one by one, in the same order, fn owning each (tab_free):
 * whole (chunk 0), or the large ones (nccl_long, nccl_summary_long and the per-rank
 * sheets) in parts of about chunk cells each, more non-zero on every part but a sheet's
 * last; the parts of a sheet have its columns, and their rows follow on. Returns the
 * number of sheets, 0 with err set as nc_sheets. The environment variable TTP_NC_PART=N
 * (cells) forces small parts, for tests. */
size_t nc_sheets_each(struct nc *nc, const struct nc_opts *o, size_t chunk,
    void (*fn)(struct tab *, int more, void *), void *ctx, struct error *err);

#endif
