/* SPDX-License-Identifier: ISC */
/*
 * tableout: ttp-table's output options, and the files of the TT report (the --csv op
 * table, the summary's CSV and plot beside it).
 *
 * struct tableout_opts is what the command's options say about the output; ttp-table
 * fills it (its defaults are in its main) and the output modules only read it: this
 * one, report/page.h (the HTML page) and report/sheetout.h (TraceLens's sheet sets).
 * The few fields the command sets while it reads (trace_file, the counts of PyTorch
 * ops) are the command's to set and free.
 *
 * Errors: every function here ends the program on an error, as a command does
 * (core/diag.h: "ttp-table: file: what is wrong", exit 1; die_usage for an output that
 * is an input of the run, exit 2); none returns one.
 */
#ifndef TTP_REPORT_TABLEOUT_H
#define TTP_REPORT_TABLEOUT_H

#include <stddef.h>

#include "report/nccl.h"
#include "report/tlsheets.h"

struct phasechart;
struct summary;
struct table;

struct tableout_opts {
	const char	*csv, *summary_file, *stacked_csv;
	int		 advice, raw, summary, group_by, classic, per_device, verbose;
	int		 nverbose;	/* -v given this many times */
	int		 colour_mode, markdown, sort, percent_shown;
	long long	 top;		/* -1: all rows */
	double		 min_pct;
	unsigned	 given;		/* the command's: options that may conflict */
	/* PyTorch sheets */
	const char	*csv_dir, *xlsx;
	char		**sheets;
	size_t		 nsheets;
	long long	 width;
	int		 sheet_csv, print_summary;
	int		 html_stdout;	/* --format html */
	const char	*html;		/* --html FILE */
	struct tl_opts	 tl;
	struct nc_opts	 nc;		/* the multi-rank collective report */
	/* --partial, --merge (report/tlmerge.h): the sheets as partial records, and
	 * their merge */
	int		 partial, merge;
	/* --plot-format (chart.h's CHART_*): the summary plot's, the phase charts' */
	int		 plot_format;
	/* --plot-phases DIR, --plot-dpi, --plot-title: the inference-phase charts
	 * (phasechart.h), collected in phase_charts (NULL: none) */
	const char	*plot_phases_dir;
	long		 plot_dpi;
	const char	*plot_title;
	struct phasechart *phase_charts;
	/* The first trace record's file (NULL: none): the page's title names it, a
	 * partial records it. */
	char		*trace_file;
	/* PyTorch op records read, and those with ttp-roofline's category: none means
	 * that ttp-roofline was left out of the pipeline (no roofline sheets, no
	 * categories). */
	size_t		 torch_ops, torch_categorised;
};

/* The width text sheets are fitted to: given (--width) when >= 0; else, when standard
 * output is a terminal, $COLUMNS or the terminal's width; else 200 (a file, a pipe). */
size_t tableout_width(long long given);

/* An output named by the command line (opt names it in the message) that is an input
 * of the run (core/outfile.h's protected files): a usage error, exit 2. NULL and "-"
 * pass. */
void tableout_check(const char *opt, const char *path);

/* BASE of the summary files (D5): --summary-file, else --stacked-csv, else the --csv
 * path without its extension plus "_stacked"; a trailing ".csv" is dropped. NULL when
 * there is none (no --csv, or --csv is a stream). The caller frees it. */
char *tableout_summary_base(const struct tableout_opts *o);

/* The summary's files: BASE.csv and its plot BASE.svg (.png, .pdf: plot_format);
 * nothing when there is no BASE. */
void tableout_summary_files(const struct tableout_opts *o, const struct summary *s);

/* --csv FILE: the compatible op CSV of t, to FILE ("-": standard output). */
void tableout_op_csv(const struct tableout_opts *o, const struct table *t);

#endif
