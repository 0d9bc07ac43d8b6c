/* SPDX-License-Identifier: ISC */
/*
 * jaxsheets: TraceLens's JAX report (docs/jax.md §2-§7) from the records ttp-parse
 * writes for an xplane.pb (kind "trace" and "gpu", trace "xplane"), with the perf-model
 * keys ttp-roofline adds to them (perf_model, flops, bytes, params) for the op_* sheets.
 * Sheets in TraceLens's order: gpu_timeline, gpu_events_averages, kernel_launchers,
 * kernel_launchers_summary, kernel_launchers_summary_by_category,
 * kernel_launchers_unique_args, df_xla_perf, xla_summary, then op_<category> for the
 * categories whose kernels have a perf model. Each sheet is a tab (report/tab.h).
 */
#ifndef TTP_JAXSHEETS_H
#define TTP_JAXSHEETS_H

#include <stddef.h>

struct rec;
struct tab;
struct error;
struct jx;

struct jx *jx_new(void);
void jx_free(struct jx *jx);
/* Take a record: 1 if it is a record of an xplane.pb, else 0. */
int jx_add(struct jx *jx, struct rec *r);
/* Number of records taken. */
size_t jx_count(const struct jx *jx);
/* Build the sheets; their number, *out freed with jx_sheets_free. 0 with err set when
 * there is nothing TraceLens could report (no GPU: a TPU profile). */
size_t jx_sheets(struct jx *jx, struct tab ***out, struct error *err);
void jx_sheets_free(struct tab **s, size_t n);

/*
 * The same sheets handed to fn as they are built, so that a writer holds one part of
 * one sheet at a time: fn owns each tab (tab_free). A sheet with a row per kernel
 * (kernel_launchers, df_xla_perf) comes in parts of a few thousand rows, each a tab of
 * the sheet's name and columns; JX_FIRST marks a sheet's first part (a new sheet: its
 * header), JX_LAST its last (a sheet of one part has both). The rows of the parts, in
 * order, are the sheet's. Returns the number of sheets; 0 with err set as jx_sheets.
 * Memory: the distinct strings the sheets print and 8 bytes per kernel (32 with a perf
 * model); the events are sorted through temporary files.
 */
#define JX_FIRST	0x1
#define JX_LAST		0x2
typedef void (*jx_sheet_fn)(struct tab *t, unsigned flags, void *ctx);
size_t jx_sheets_each(struct jx *jx, jx_sheet_fn fn, void *ctx, struct error *err);

#endif
