/* SPDX-License-Identifier: ISC */
/*
 * phasechart: the five inference-phase charts of TraceLens's phase-analysis branch
 * (docs/tracelens.md §9.2; the branch's inference_phase_plots.py at d8acb562), drawn
 * through chart.h from the phase sheets ops_summary_prefill and ops_summary_decode:
 *
 *   phase_overview           time share (pie), op counts, time per op, a table
 *   time_distributions       top 10 ops by time per phase, histograms of op times
 *   operation_frequencies    most frequent ops per phase, count against time
 *   performance_bottlenecks  slowest ops per call, top contributors to phase time
 *   detailed_breakdowns      time by op type per phase, total and average, a table
 *
 * Each is a 15 x 12 in figure of four panels, as the branch's; times in ms. The caller
 * hands every sheet to phasechart_add (the others are ignored) and then writes them.
 */
#ifndef TTP_PHASECHART_H
#define TTP_PHASECHART_H

#include <stddef.h>

struct error;
struct phasechart;
struct tab;

struct phasechart *phasechart_new(void);
/* Take what the charts need of t when it is a phase sheet (by its name); 1 if taken. */
int phasechart_add(struct phasechart *pc, const struct tab *t);
/* Whether some phase has ops (the branch draws nothing otherwise). */
int phasechart_has_data(const struct phasechart *pc);
/* Draw the charts into the existing directory dir as NAME.png|.svg|.pdf (fmt, chart.h)
 * at dpi, titled with name (the trace's). announce, when not NULL, is called with each path
 * before it is written. Returns how many were written, or -1 with err set. */
int phasechart_write(struct phasechart *pc, const char *dir, int fmt, double dpi,
    const char *name, void (*announce)(const char *path), struct error *err);
void phasechart_free(struct phasechart *pc);

#endif
