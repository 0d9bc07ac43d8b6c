/* SPDX-License-Identifier: ISC */
/*
 * tlcommon: what the files of TraceLens's sheets share (tlsheets.c and the sheet
 * families: tlkernels, tlops, tlphase, tlunified, tlroof, tlcoll; tlrows, tlcols and
 * tlpseudo). Sections (§) are docs/tracelens.md's.
 * Private to lib/report.
 */
#ifndef TTP_REPORT_TLCOMMON_H
#define TTP_REPORT_TLCOMMON_H

#include <stddef.h>
#include <stdint.h>

#include "report/tab.h"
#include "report/tlcols.h"
#include "report/tltree.h"

struct buf;

#define NONE TL_NONE

/* Op o's argument reprs (tl_arg_repr). */
#define TDIMS(o)	tl_arg_repr(tl, (o), 0)
#define TTYPES(o)	tl_arg_repr(tl, (o), 1)
#define TSTRIDES(o)	tl_arg_repr(tl, (o), 2)
#define TCONC(o)	tl_arg_repr(tl, (o), 3)

/* Launchers: ops with at least one linked, non-communication GPU event, in ts order,
 * each with those events (its direct kernels) sorted by ts. */
struct launchers {
	uint32_t *op;		/* op index per launcher */
	uint32_t *k0, *nk;	/* direct events in ev[k0 .. k0+nk) */
	size_t	*ev;
	size_t	 n;
	uint32_t *pm, *cs;	/* with by_module: parent_module, call stack (§8.1) */
};

/* --- kernel details (§7.3) ---------------------------------------------------------- */

struct klist {
	const size_t	*ev;
	size_t		 n;
};

/* --- ops_summary_by_category, ops_summary, ops_unique_args (§7.1-§7.3) -------------- */

/* A launcher's busy time of its subtree's kernels (that of its own kernels, cheap to
 * work out again from its sorted events, is tl_launcher_direct's). */
struct lstat {
	double	subtree;
};

/* --- the workbook ------------------------------------------------------------------- */

/* Where the sheets go as they are built: fn takes each (and frees it); part, when
 * set, takes the sheets of a row per group (tl_push_groups) in parts of rows rows, more
 * set on each but the last. */
struct sink {
	void	(*fn)(struct tab *, void *);
	void	 *ctx;
	size_t	  n;
	void	(*part)(struct tab *, int more, void *);
	size_t	  rows;
};

/* A sheet of a row per group in TraceLens's order (tab_sort by the sort column
 * descending, empty last, then ex_UID, then the groups' order), built row by row in
 * that order: what the sheet's tab would be after tab_sort (and tab_percentages over
 * the sort column when pct is set), without holding it whole when the sink takes
 * parts. t has the columns and no rows; key[g] is the value group g's row has in the
 * sort column (before the cell: a non-finite one is empty, and tl_push_groups makes
 * it NaN in key), uid(ctx, g) its ex_UID (asked on ties of the key); row fills row r
 * of a part with group g's values. t and key are the caller's. A sheet of another order
 * sets cmp (key and uid NULL, pct 0): cmp(ctx, a, b) < 0 when group a's row comes before group b's; only the
 * first rows rows of that order are written. */
struct tl_grows {
	struct tab	 *t;
	size_t		  ng;
	double		 *key;
	long long	(*uid)(void *ctx, size_t g);
	size_t		  keycol;
	int		  pct;
	void		(*row)(void *ctx, struct tab *t, size_t r, size_t g);
	void		 *ctx;
	int		(*cmp)(void *ctx, size_t a, size_t b);
	size_t		  rows;
};

/* --- per-op perf rows (§5) ---------------------------------------------------------- */

/* One row of unified_perf_summary or of a roofline sheet before grouping. */
struct prow {
	uint32_t	 op;		/* the op the row describes (or the synthetic's parent) */
	uint32_t	 as;		/* the op whose name, UID, thread and arguments it
					 * shows: op, or the forward op of backward figures */
	long long	 uid;
	uint32_t	 name, cat;
	uint8_t		 model, hasmodel, synth;
	double		 dur_us, ktime, flops, bytes, roof_us;
	size_t		*ev;		/* its GPU events, sorted by ts */
	size_t		 nev;
};

/* Op o's param j: its name and its value's repr; own GPU event j of op o. */
#define PK(o, j)	tl_param(tl, tl_mod(tl, (o)), (j), 0)
#define PV(o, j)	tl_param(tl, tl_mod(tl, (o)), (j), 1)
#define OEV(o, j)	(tl->oev[(o)->ev0 + (j)])

/* A group of perf rows (unified_perf_summary, the roofline sheets): its members' series
 * of each source, in member order, for the declared columns. */
enum { PG_DUR, PG_KT, PG_TB, PG_TF, PG_GF, PG_MB, PG_FB, PG_PCT, PG_ROOF, PG_NV };
struct pgroup {
	struct tl		*tl;
	const struct prow	*p;
	const uint32_t		*m;		/* the members: indices in p */
	size_t			 nm;
	struct vec		 v[PG_NV];
	const struct vec	*vp[PG_NV];	/* &v[j], for struct tl_group */
};
/* Fill g's series from members m[0 .. nm) of p; tl_pgroup_free frees them. */
void tl_pgroup(struct pgroup *g, struct tl *tl, const struct prow *p, const uint32_t *m,
    size_t nm);
void tl_pgroup_free(struct pgroup *g);
/* The roofline bound of the group's first member that has a roofline time, or
 * NAME_NONE. */
uint32_t tl_pgroup_bound(const struct pgroup *g);

/* tlcoll.c */
struct tab *tl_sheet_coll(struct tl *tl);

/* tlkernels.c */
struct tab *tl_sheet_timeline(const struct tl_timeline *tm, const struct tl_opts *o);
struct tab *tl_sheet_kernel_summary(struct tl *tl, double total_us, const char *phase);
struct tab *tl_sheet_short_histogram(struct tl *tl, const struct tl_opts *o);
void tl_sheet_short_summary(struct tl *tl, const struct tl_opts *o, double total_us,
    struct sink *sk);

/* tlops.c */
void tl_launchers_build(struct tl *tl, struct launchers *L);
void tl_launchers_modules(struct tl *tl, struct launchers *L);
void tl_launchers_free(struct launchers *L);
void tl_launcher_times(struct tl *tl, const struct launchers *L, struct lstat *ls);
double tl_launcher_direct(const struct tl *tl, const struct launchers *L, size_t i);
struct tab *tl_sheet_by_category(struct tl *tl, const struct launchers *L,
    const struct lstat *ls);
struct tab *tl_sheet_ops_summary(struct tl *tl, const struct launchers *L,
    const struct lstat *ls);
void tl_sheet_unique_args(struct tl *tl, const struct launchers *L,
    const struct lstat *ls, struct sink *sk);

/* tlphase.c */
/* The phase sheets read only the launchers' own kernels (tl_launcher_direct). */
struct tab *tl_sheet_by_phase(struct tl *tl, const struct launchers *L);
struct tab *tl_sheet_phase(struct tl *tl, const struct launchers *L, const char *phase);

/* tlpseudo.c */
const char *tl_pseudo_ops(struct tl *tl);

/* tlroof.c */
void tl_sheets_roofline(struct tl *tl, struct sink *sk);

/* tlrows.c */
void tl_kernel_details_order(const struct tl *tl, const struct klist *in, size_t n,
    struct buf *sum, struct buf *trunc, size_t *order, const struct klist **tplp,
    int stacks);
void tl_kernel_details(const struct tl *tl, const struct klist *in, size_t n,
    struct buf *sum, struct buf *trunc);
void tl_prow_metrics(const struct prow *p, double *tflops, double *tbps);
void tl_prow_events(struct tl *tl, struct prow *p, size_t i);
size_t tl_group_ids(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key),
    void *ctx, uint32_t **gid);
size_t tl_group_by(size_t n, void (*keyfn)(void *ctx, size_t i, struct buf *key),
    void *ctx, uint32_t **start, uint32_t **members);
void tl_args_key(struct tl *tl, struct buf *key, size_t x, uint32_t name, uint32_t cat);

/* tlsheets.c */
void tl_push(struct sink *sk, struct tab *t);
/* Hand the sheet on (whole or in parts); frees gs->t. */
void tl_push_groups(struct sink *sk, const struct tl_grows *gs);
void tl_set_name(struct tab *t, size_t r, size_t c, const struct tl *tl, uint32_t s);
int tl_str_cmp(const void *a, const void *b);
void tl_strip_num_runs(struct buf *b, const char *f);

/* tlunified.c */
void tl_sheet_unified(struct tl *tl, struct sink *sk);
void tl_kernel_stack(const struct tl *tl, size_t k, struct buf *b);

#endif
