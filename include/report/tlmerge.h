/* SPDX-License-Identifier: ISC */
/*
 * tlmerge: a sheet set as partial results (ttp-table --partial) and their merge
 * (ttp-table --merge), records of kinds "partial", "partial_sheet" and "partial_row"
 * (ttp-record(5)).
 *
 * A partial is a header (the ranks it covers, the options that shaped the sheets as
 * text, the trace file of a rank's partial), then each sheet as ttp-table would write it: its columns, its declared
 * aggregating columns (report/tlcols.h) and, per rank, the denominators of its percent
 * columns; then each row's cells and, per rank, the state each declared aggregation
 * needs to merge (the group's count, its compensated and its plain sum, its min and
 * max, that rank's figures as the rank's report has them). gpu_timeline's rows carry
 * the rank's time and percent.
 *
 * Merging partials that cover one rank gives back that rank's sheets cell for cell.
 * Merging partials of several ranks (each rank in one partial at most, the options
 * equal) gives the sheets over ranks: gpu_timeline one row per rank and type, then the
 * min, median and max over ranks of each type; the ops_summary and kernel_summary
 * sheets (and by category, by phase, per phase) with their groups matched by key,
 * counts and sums added over ranks (sums of the ranks' figures, correctly rounded:
 * the same double whatever the order or merge tree), means recomputed from them,
 * min and max over ranks, percentages from the merged totals; ops_summary and
 * kernel_summary also get each group's spread over ranks. The other sheets (per-UID
 * and per-shape tables, short kernels, coll_analysis, the JAX and collective
 * reports) are one rank's: they are left out of a merge of several ranks.
 */
#ifndef TTP_REPORT_TLMERGE_H
#define TTP_REPORT_TLMERGE_H

#include <stddef.h>
#include <stdio.h>

struct error;
struct rec_reader;
struct tab;
struct tl_opts;

/* Start capturing the rows tl_cols_row fills (for tlm_partial_write). */
void tlm_capture_begin(void);
/* One rank's sheets s[0 .. n) as a partial to fp: rank < 0 when unknown; opts says
 * what shaped them (tlm_opts_text). */
void tlm_partial_write(FILE *fp, struct tab **s, size_t n, long long rank,
    const char *opts, const char *file);
/* The options of tl_opts that shape the sheets, as text (free it). */
char *tlm_opts_text(const struct tl_opts *o, const char *kind);

struct tlm;
struct tlm *tlm_new(void);
void tlm_free(struct tlm *m);
/* Read every partial of rd into m. -1 with err set on a record that is no partial, or
 * partials that do not merge (other options, a rank twice). */
int tlm_read(struct tlm *m, struct rec_reader *rd, struct error *err);
/* The merged sheets (free each with tab_free and the array with free); notes on what
 * a merge of several ranks leaves out go to stderr. */
size_t tlm_sheets(struct tlm *m, struct tab ***out);
/* The trace file of a merge of one partial (its trace record's), else NULL. */
const char *tlm_file(const struct tlm *m);
/* Keep only the sheets named sheets[0 .. n) (all when n is 0): the others are not
 * written (tlm_write; ttp-table --merge --partial --sheet). */
void tlm_keep(struct tlm *m, char *const *sheets, size_t n);
/* The merged state as one partial to fp. */
void tlm_write(struct tlm *m, FILE *fp);

#endif
