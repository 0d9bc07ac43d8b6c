/* SPDX-License-Identifier: ISC */
/*
 * summary: the grouped ("stacked") summary of tt-perf-report (docs/tt-perf-report.md §19):
 * groups of ops by op name, op name + input-0 memory, category (and, beyond the reference,
 * by device or phase), optionally per device; its text table, its CSV and its plot.
 *
 * Beyond the reference, a group can be any record key or a list of keys and report
 * names ("loc_line", "phase,iter", "line" for loc_file,loc_line): the label joins the
 * parts with ':', and the table shows Total %, Device Time Sum, Op Count and the op
 * names in the group (the costliest first) instead of the FLOPs columns.
 *
 * The summary is a tab (tab.h), the one column/group-by model of the reports: grouped
 * with tab_group, aggregated with pandas' groupby statistics (stat_gsum, ...), ordered
 * with tab_sort and printed by tab_print and tab_write_csv.
 */
#ifndef TTP_SUMMARY_H
#define TTP_SUMMARY_H

#include <stdio.h>

struct table;
struct tab;

enum group_by {
	GROUP_OP, GROUP_MEMORY, GROUP_CATEGORY, GROUP_DEVICE, GROUP_PHASE,
	GROUP_KEYS		/* record keys, or more than one part */
};

#define GROUP_MAXPARTS	4
#define GROUP_KEY	(-1)	/* a part that is a record key */

/* A --group-by value, parsed. */
struct group_spec {
	int		 by;			/* one report name, or GROUP_KEYS */
	size_t		 nparts;
	int		 part[GROUP_MAXPARTS];	/* GROUP_OP ... GROUP_PHASE or GROUP_KEY */
	const char	*keys[GROUP_MAXPARTS];	/* the GROUP_KEY parts' keys, in order */
	size_t		 nkeys;
	char		 text[128];		/* the value as given: the label's header */
	char		 copy[128];		/* the parts, NUL-separated */
};

struct summary;

/* Parse a --group-by value: a report name (op, memory, category, device, phase), a
 * record key, "line" (loc_file,loc_line), or up to GROUP_MAXPARTS of these separated by
 * commas. Returns 0, or -1 with *err set to a static message. */
int summary_parse_spec(const char *s, struct group_spec *g, const char **err);
/* For the ops of a PyTorch trace: every part a record key (op, category and phase are
 * the keys of those names), so that the summary has the record keys' layout. Returns 0,
 * or -1 with *err set (memory and device have no key in PyTorch records). */
int summary_spec_torch(struct group_spec *g, const char **err);
/* Once the table is read (its group keys set from g->keys): 0, or -1 with *err set to
 * an error naming the key when no op record has one of the spec's record keys. */
struct error;
int summary_check_keys(const struct table *t, const struct group_spec *g,
    struct error *err);
/* Build the summary of the table's ops (signposts left out). per_device: one group
 * per label and device, with a Device column (reference --no-merge-devices). NULL
 * when there is no op to summarise. */
struct summary *summary_build(const struct table *t, const struct group_spec *g,
    int per_device);
void summary_free(struct summary *s);
/* Keep only the first n groups as they print (Total % stays that of all). */
void summary_top(struct summary *s, size_t n);
/* Number of distinct devices among the summary's groups (per-device mode). */
size_t summary_ndevices(const struct summary *s);

/* The printed block: blank line, title, header, rows (colour: op names coloured). */
/* width: fitted to it as tab_print fits a tab (0: the reference's layout). */
void summary_print(FILE *fp, const struct summary *s, int colour, size_t width);
/* The summary's table, one row per group in the CSV's order (for the HTML page). */
const struct tab *summary_tab(const struct summary *s);
/* The summary CSV (LF, %.2f). Returns 0 or -1 with errno set. */
int summary_write_csv(const char *path, const struct summary *s);
/* The SVG plot through plot.h. Returns 0 or -1 with errno set. */
int summary_write_svg(const char *path, const struct summary *s, int classic);
/* The plot in a chart format (chart.h: CHART_SVG is summary_write_svg's file, CHART_PNG
 * and CHART_PDF are drawn through cairo). Returns 0 or -1 with errno set; a missing
 * font is an error message and exit 1. */
int summary_write_plot(const char *path, const struct summary *s, int classic, int fmt);
/* The summary as a Markdown table. */
void summary_markdown(FILE *fp, const struct summary *s);

#endif
