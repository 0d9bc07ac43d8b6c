/* SPDX-License-Identifier: ISC */
/*
 * sheetout: TraceLens's sheet sets written as ttp-table's options ask
 * (report/tableout.h): the PyTorch sheets (report/tlsheets.h), the JAX report
 * (report/jaxsheets.h) and the multi-rank collective report (report/nccl.h), each to
 * a directory of CSVs (--csv-dir), a workbook (--xlsx), the HTML page (--html,
 * --format html, report/page.h), standard output (text, Markdown, --format csv), or as
 * a partial (--partial, report/tlmerge.h); --print-summary's terminal summary; the
 * notes of --sheet names the input has no sheet of; --plot-phases' charts.
 *
 * Into one directory or one workbook, each sheet is written as soon as it is built,
 * the large ones in parts, so that one part of one sheet is held at a time (issue 24).
 * The CSVs of a directory are written to temporaries and renamed into place only after
 * the last is written: a failure leaves none of them half-written.
 *
 * The sheets handed in stay the caller's (sheetout_write); the builders' are freed
 * here. Errors end the program (core/diag.h: "ttp-table: FILE: what is wrong", exit 1;
 * a usage error, exit 2, for a --csv-dir file that is an input of the run, or
 * --format csv of several sheets).
 */
#ifndef TTP_REPORT_SHEETOUT_H
#define TTP_REPORT_SHEETOUT_H

#include <stddef.h>

struct jx;
struct nc;
struct tab;
struct tableout_opts;
struct tl;

/* The sheets s[0 .. n) of a --merge, written as the options ask (a merge's partial
 * is tlm_write's, report/tlmerge.h). */
void sheetout_write(const struct tableout_opts *o, struct tab **s, size_t n);
/* TraceLens's sheets of a PyTorch trace. */
void sheetout_torch(const struct tableout_opts *o, struct tl *tl);
/* TraceLens's JAX report of an xplane.pb's records. */
void sheetout_jax(const struct tableout_opts *o, struct jx *jx);
/* The multi-rank collective report of collective records (tl: the PyTorch trace's
 * state, for its notes). */
void sheetout_nccl(const struct tableout_opts *o, struct nc *nc, struct tl *tl);
/* --plot-phases DIR: the inference-phase charts of the phase sheets met, when some
 * phase has ops; o->phase_charts is freed and set to NULL. */
void sheetout_phase_plots(struct tableout_opts *o);

#endif
