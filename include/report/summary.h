/* SPDX-License-Identifier: ISC */
/*
 * summary: the grouped ("stacked") summary of tt-perf-report (spec 19): groups of ops
 * by op name, op name + input-0 memory, category (and, beyond the reference, by
 * device or phase), optionally per device; its text table, its CSV and its plot.
 */
#ifndef TTP_SUMMARY_H
#define TTP_SUMMARY_H

#include <stdio.h>

struct table;

enum group_by { GROUP_OP, GROUP_MEMORY, GROUP_CATEGORY, GROUP_DEVICE, GROUP_PHASE };

struct summary;

/* Parse a --group-by value; -1 if unknown. */
int summary_parse_group(const char *s);
/* Build the summary of the table's ops (signposts left out). per_device: one group
 * per label and device, with a Device column (reference --no-merge-devices). NULL
 * when there is no op to summarise. */
struct summary *summary_build(const struct table *t, int group_by, int per_device);
void summary_free(struct summary *s);
/* Number of distinct devices among the summary's groups (per-device mode). */
size_t summary_ndevices(const struct summary *s);

/* The printed block: blank line, title, header, rows (colour: op names coloured). */
void summary_print(FILE *fp, const struct summary *s, int colour);
/* The summary CSV (LF, %.2f). Returns 0 or -1 with errno set. */
int summary_write_csv(const char *path, const struct summary *s);
/* The SVG plot through plot.h. Returns 0 or -1 with errno set. */
int summary_write_svg(const char *path, const struct summary *s, int classic);
/* The summary as a Markdown table. */
void summary_markdown(FILE *fp, const struct summary *s);

#endif
