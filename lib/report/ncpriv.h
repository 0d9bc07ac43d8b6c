/* SPDX-License-Identifier: ISC */
/*
 * ncpriv: the private state of the multi-rank collective report (report/nccl.h), shared
 * by its files and by no other module:
 *   nccl.c	the records in: collective, rank and group records to compact collectives
 *   ncval.c	the string store and the value table; values into a sheet's cells
 *   ncpandas.c	what pandas does to the sheets: column types, groupby, aggregations,
 *		sort order
 *   ncmatch.c	collectives matched across ranks, and the check that each is whole
 *   ncout.c	sheets made and handed over, whole or in parts; node columns; wide sheets
 *   ncsync.c	implicit sync: nccl_implicit_sync, its summary, straggler_summary
 *   nclong.c	nccl_long and nccl_summary_long
 *   nca2a.c	all_to_allv: nccl_all2allv, its summary, nccl_all2allv_heatmap
 *   ncsheets.c	the sheets in TraceLens's order (nc_sheets_each)
 */
#ifndef TTP_NCPRIV_H
#define TTP_NCPRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/names.h"

struct rec;
struct spool;
struct tab;
struct vec;

/* A value as TraceLens's DataFrame holds it: None, an int, a float or a string (a JSON
 * array becomes its tuple's repr). */
enum { V_NONE, V_INT, V_NUM, V_STR };

struct val {
	int		 t;
	long long	 i;
	double		 d;
	uint32_t	 s;	/* string: its id (nc_intern) */
};

/* The per-rank fields of a collective, in nccl_long's names (nc_fname). */
enum {
	F_PG, F_PGRANKS, F_CNAME, F_GSIZE, F_DTYPE, F_INNEL, F_OUTNEL, F_INSPLIT, F_OUTSPLIT,
	F_STREAM, F_INMB, F_OUTMB, NF
};
extern const char *const nc_fname[NF];

/*
 * A collective kernel of a rank, compact (issue 27: a reduce over 1,024 ranks x 100
 * collectives stays under 64 MB): its fields are ids in the value table (0: None), whose
 * strings are interned, the long ones (split sizes, rank lists) kept in a spool file.
 */
struct coll {
	long long	 id;		/* the event's position in its trace */
	double		 ts, dur;	/* µs, as TraceLens's doubles */
	long long	 idx;		/* index_in_group */
	long long	 seq;		/* Kineto's Seq, or -1 */
	int		 rank;
	uint32_t	 cid;		/* collective_id, a string id */
	uint32_t	 f[NF];		/* value ids */
	unsigned char	 ts_int, dur_int;	/* start_ns, ns: whole µs */
};

struct rankinfo {
	int		 rank;
	long long	 devices;
	char		*where;
};

/* A string of BIG_MIN bytes or more: in the spool, found again by its hash. */
struct bigstr {
	uint64_t	 off, hash;
	size_t		 len;
};
#define BIG_MIN		96
#define BIG_ID		0x80000000u
#define NSBUF		4	/* nc_str()'s results alive at once */

struct nc {
	struct names	 s;		/* the short strings */
	struct spool	*sp;		/* the long ones ... */
	struct bigstr	*big;
	size_t		 nbig, capbig;
	struct names	 bigkey;	/* ... by (hash, length): their index */
	char		*sbuf[NSBUF];	/* nc_str()'s copies of long strings */
	size_t		 scap[NSBUF];
	uint32_t	 sid[NSBUF];
	unsigned	 snext;
	struct val	*vt;		/* the value table; vt[0] is None */
	size_t		 nvt, capvt;
	struct names	 vkey;		/* (type, payload): index in vt, less 1 */
	struct coll	*c;
	size_t		 n, cap, nrec;
	struct rankinfo	*ri;
	size_t		 nri, capri;
	struct names	 gkey;		/* "group" records: (rank, group) ... */
	uint32_t	*granks;	/* ... to the group's rank list (a value id) */
	size_t		 capg;
	bool		 simplified, ts_int, dur_int;
	struct buf	 b;
};

#define S(nc, i) nc_str((nc), (i))
#define V(nc, id) (&(nc)->vt[(id)])

/* One collective: its events on the ranks, in nccl_long's order (by rank). */
struct cgroup {
	size_t	*ev;
	size_t	 n, cap;
};

/* The ranks of the input: sorted, each's index (rix, by rank), and marks by index. */
struct rankset {
	int		*r;
	size_t		 n;
	int		*rix;		/* maxrank + 1 of them */
	uint32_t	*want, *have;	/* stamps, by index */
	uint32_t	 stamp;
};

/* the figures of one row of nccl_implicit_sync */
struct isrow {
	size_t	 g;		/* its collective */
	double	 lat, skew_s, skew_e, avg_wait, full, algo, bus, latest_s;
	int	 earliest;
};

/* an all_to_allv row's start and end */
struct a2row {
	double	es, le;
};

/* groupby(...).agg: group keys of the rows' values (value ids); NULL-free keys only
 * (dropna) */
struct kgroup {
	uint32_t	*key;
	size_t		*rows;
	size_t		 n, cap;
};

/* the four aggregations of TraceLens's --agg_metrics default, and more */
enum { A_MEAN, A_MEDIAN, A_MIN, A_MAX, A_SUM, A_STD };
extern const char *const nc_agg_name[];

/* Where the sheets go: nc_sheets_each's callback, whole or in parts. */
struct out {
	void		(*fn)(struct tab *, int, void *);
	void		*ctx;
	size_t		 chunk;		/* cells in a part; 0: whole sheets */
	long long	 gpn, ws;
	size_t		 n;		/* sheets handed over */
};

/* A sheet made row by row: its columns, its row count, and what fills row i (into row
 * r of t, setting *pg to the row's Process Group Ranks string id when it has one). */
struct gen {
	const char		*name;
	const char *const	*cols;
	size_t			 ncols, nrows;
	void			(*fill)(struct nc *, struct tab *, size_t, size_t, void *,
				    uint32_t *);
	void			*arg;
};

/*
 * A wide sheet (nccl_implicit_sync, nccl_all2allv): its general columns, then per rank
 * columns (rank_N_what) in the order TraceLens's DataFrame gets them: by collective, its
 * ranks' first kinds, then its ranks' later kinds, each the first time it is met.
 */
struct wide {
	const char	**cols;		/* general, then per rank */
	size_t		  ngen, ncols;
	size_t		  nkind;
	int		 *pos;		/* column of (rank index, kind), -1: none */
	struct tab	 *gt;		/* the general columns' rows (the sheet's order) */
	size_t		 *grow;		/* each row's collective (index in gs) */
	const struct cgroup *gs;
	struct rankset	 *rs;
	void		 *arg;
};

static inline double
val_num(const struct val *v)
{
	return v->t == V_INT ? (double)v->i : v->t == V_NUM ? v->d : NAN;
}

/* the column of (rank, kind) in a wide sheet */
static inline size_t
nc_wpos(const struct wide *w, int rank, size_t kind)
{
	return (size_t)w->pos[(size_t)w->rs->rix[rank] * w->nkind + kind];
}

/* nccl.c */
int nc_dtype_bytes(struct nc *nc, const struct val *v);
void nc_join_groups(struct nc *nc);

/* ncval.c */
uint32_t nc_intern(struct nc *nc, const char *s, size_t n);
const char *nc_str(struct nc *nc, uint32_t id);
uint32_t nc_val_id(struct nc *nc, const struct val *v);
uint32_t nc_str_val(struct nc *nc, const char *s);
bool nc_id_eq(struct nc *nc, uint32_t a, uint32_t b);
int nc_val_cmp(struct nc *nc, const struct val *a, const struct val *b);
void nc_val_text(struct nc *nc, struct buf *b, const struct val *v);
void nc_set_val(struct nc *nc, struct tab *t, size_t row, size_t col, const struct val *v);
void nc_set_id(struct nc *nc, struct tab *t, size_t row, size_t col, uint32_t id);
void nc_set_time(struct tab *t, size_t row, size_t col, double v, bool isint);
size_t nc_col(struct tab *t, const char *name);
void nc_copy_cell(struct tab *to, size_t row, size_t col_to, const struct tab *from,
    size_t r, size_t c);
size_t nc_coll_row(struct nc *nc, struct tab *t, const struct coll *c, const int *fields,
    size_t nf);

/* ncpandas.c */
void nc_types_scan(const struct tab *t, unsigned char *fl);
void nc_types_apply(struct tab *t, const unsigned char *fl);
void nc_pandas_types(struct tab *t);
double nc_round1(double x);
struct kgroup *nc_group_by(struct nc *nc, size_t n, size_t nk,
    void (*keyf)(struct nc *, size_t, uint32_t *, void *), void *arg, size_t *ng);
void nc_kgroups_free(struct kgroup *gs, size_t n);
void nc_set_agg(struct tab *t, size_t row, size_t col, const struct vec *v, int a,
    bool isint);
size_t *nc_pandas_order(const double *v, const bool *isint, size_t n);

/* ncmatch.c */
void nc_match(struct nc *nc);
struct cgroup *nc_coll_groups(struct nc *nc, size_t *ng);
void nc_rankset_init(struct nc *nc, struct rankset *rs);
void nc_rankset_free(struct rankset *rs);
size_t nc_pg_ranks(struct nc *nc, const struct val *v, long long *out, size_t max);
bool nc_check_group(struct nc *nc, const struct cgroup *g, struct rankset *rs,
    const int *fields, size_t nf, struct tab *u);

/* ncout.c */
void nc_hand(struct out *o, struct tab *t, int more);
void nc_hand_whole(struct nc *nc, struct out *o, struct tab *t, bool node);
void nc_emit(struct nc *nc, struct out *o, const struct gen *g);
void nc_wide_cols(struct nc *nc, struct wide *w, const char *const *kinds, size_t nkind,
    size_t nfirst, const struct cgroup *gs, const size_t *grp, size_t nrows);
void nc_wide_free(struct wide *w);
const struct cgroup *nc_wide_general(struct nc *nc, const struct wide *w, struct tab *t,
    size_t row, size_t i, uint32_t *pg);

/* ncsync.c */
void nc_isync_figures(struct nc *nc, const struct cgroup *gs, size_t ng,
    struct rankset *rs, struct tab *u, struct isrow *rows, size_t *nrows, struct wide *wi);
void nc_sheet_summary_isync(struct nc *nc, struct tab *t, const struct isrow *rows,
    size_t nrows, const struct cgroup *gs);
void nc_sheet_isync(struct nc *nc, struct out *o, struct wide *wi, size_t nrows);
void nc_sheet_straggler(struct nc *nc, struct tab *t, const struct isrow *rows,
    size_t nrows, const struct cgroup *gs, const struct wide *w);

/* nclong.c */
void nc_sheet_long(struct nc *nc, struct out *o);
void nc_sheet_summary_long(struct nc *nc, struct out *o);

/* nca2a.c */
void nc_a2a_figures(struct nc *nc, const struct cgroup *gs, size_t ng,
    struct rankset *rs, struct tab *u, struct a2row *ar, size_t *na2a, struct wide *wa);
void nc_sheet_summary_a2a(struct nc *nc, struct tab *t, const struct tab *d);
void nc_sheet_a2a(struct nc *nc, struct out *o, struct wide *wa, size_t na2a);
void nc_sheet_heatmap(struct nc *nc, struct out *o, long long ws);

#endif
