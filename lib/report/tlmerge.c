/* SPDX-License-Identifier: ISC */
/* tlmerge: sheets as partial results and their merge over ranks (see report/tlmerge.h). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlcols.h"
#include "report/tlmerge.h"
#include "report/tlsheets.h"

#define HIDDEN	"\x1fpartial"	/* --partial's column: the row's captured state */
#define NST	5		/* per source and rank: n, sum, plain sum, min, max */

/* A declared aggregating column whose merge needs state. */
struct mcol {
	char	*name;
	int	 agg, fmt, arg;
	int	 src;		/* the series it aggregates: its state's index in a row */
};

struct mcell {
	int		 kind;
	long long	 i;
	double		 d;
	char		*s;
};

struct mrow {
	struct mcell	*c;		/* ncols cells (tlm_merge_cell) */
	long long	*org;		/* the rank each cell is of; NULL: the lowest rank */
	long long	*rank;		/* the ranks it holds (ascending unless unsorted) */
	double		*v;		/* nv values per rank */
	size_t		 nr, cap;
	int		 unsorted;
};

struct msheet {
	char		*name;
	char		**cols;
	size_t		 ncols;
	struct mcol	*decl;
	size_t		 ndecl, nsrc, nv;
	long long	*drank;		/* the percent denominators, two per rank */
	double		*den;
	size_t		 nden;
	struct mrow	*rows;
	size_t		 nrows, cap;
	struct names	 keys;		/* several ranks: key -> row */
	const struct rule *rule;
	int		 dropped;
};

struct tlm {
	long long	*ranks;		/* covered, ascending */
	size_t		 nranks;
	int		 unknown;	/* a partial of no known rank */
	size_t		 nparts;
	char		*opts, *where;
	char		*file;		/* one partial's trace file */
	struct msheet	*sh;
	size_t		 nsh;
	struct msheet	*cur;		/* the sheet the rows read belong to */
	long long	*prank;		/* the current partial's ranks */
	size_t		 npr;
};

/* --- the sheets that merge over ranks ---------------------------------------------- */

struct rule {
	const char	*sheet;
	const char	*keys[4];	/* the group's key columns */
	const char	*sort;		/* sorted on it, descending (pandas) */
	const char	*sort2;		/* then: a stable sort on sort (desc) and sort2 */
	const char	*pct;		/* tab_percentages over it */
	const char	*spread;	/* the spread over ranks of this column */
	const char	*uni;		/* a Python list of sorted distinct values: their
					 * union over ranks */
};

#define KSUM	"Kernel duration (\u00b5s)_sum"
#define KKEYS	{ "Parent op category", "Parent cpu_op", "Kernel name", "Kernel stream" }
#define DSUM	"total_direct_kernel_time_sum"
#define DMS	"total_direct_kernel_time_ms"
static const struct rule rules[] = {
	{ "gpu_timeline", { "type" }, NULL, NULL, NULL, NULL, NULL },
	{ "ops_summary_by_category", { "op category", "parent_module" }, DMS, NULL, DMS, NULL,
	    NULL },
	{ "ops_summary_by_phase", { "phase" }, DMS, "phase", DMS, NULL, NULL },
	{ "ops_summary", { "name", "parent_module" }, DSUM, NULL, DMS, DSUM, "Categories" },
	{ "ops_summary_prefill", { "name" }, DSUM, NULL, DMS, NULL, NULL },
	{ "ops_summary_decode", { "name" }, DSUM, NULL, DMS, NULL, NULL },
	{ "kernel_summary", KKEYS, KSUM, NULL, NULL, KSUM, NULL },
	{ "kernel_summary_prefill", KKEYS, KSUM, NULL, NULL, NULL, NULL },
	{ "kernel_summary_decode", KKEYS, KSUM, NULL, NULL, NULL, NULL },
};
#define NRULES	(sizeof(rules) / sizeof(rules[0]))

static const char *const spread_cols[] = { "min over ranks", "rank of min",
    "max over ranks", "rank of max", "cv over ranks" };

static const struct rule *
rule_of(const char *sheet)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (strcmp(rules[i].sheet, sheet) == 0)
			return &rules[i];
	return NULL;
}

static const char *const agg_names[] = { "first", "firstnum", "sum", "psum", "count",
    "mean", "median", "std", "min", "max", "pct", "custom" };
static const char *const fmt_names[] = { "num", "int", "str", "bool", "ms" };

/* Whether column c's merge needs state (the others show the lowest rank's cell). */
static int
stateful(int agg)
{
	return agg == TL_SUM || agg == TL_PSUM || agg == TL_COUNT || agg == TL_MEAN ||
	    agg == TL_MIN || agg == TL_MAX || agg == TL_PCT;
}

/* --- exact sums (Shewchuk's partials, correctly rounded: any order, one double) ----- */

struct fsum {
	double	*p;
	size_t	 n, cap;
};

static void
fsum_add(struct fsum *f, double x)
{
	size_t i, j = 0;

	if (!isfinite(x))
		return;
	for (i = 0; i < f->n; i++) {
		double y = f->p[i], hi, lo;

		if (fabs(x) < fabs(y)) {
			hi = x;
			x = y;
			y = hi;
		}
		hi = x + y;
		lo = y - (hi - x);
		if (lo != 0.0)
			f->p[j++] = lo;
		x = hi;
	}
	f->p = xgrow(f->p, &f->cap, j + 1, sizeof(*f->p));
	f->p[j++] = x;
	f->n = j;
}

static double
fsum_value(struct fsum *f)
{
	double hi = 0, lo = 0, x, y;
	size_t n = f->n;

	if (n > 0) {
		hi = f->p[--n];
		while (n > 0) {
			x = hi;
			y = f->p[--n];
			hi = x + y;
			lo = y - (hi - x);
			if (lo != 0.0)
				break;
		}
		if (n > 0 && ((lo < 0 && f->p[n - 1] < 0) || (lo > 0 && f->p[n - 1] > 0))) {
			y = lo * 2;
			x = hi + y;
			if (y == x - hi)
				hi = x;
		}
	}
	free(f->p);
	f->p = NULL;
	f->n = f->cap = 0;
	return hi;
}

/* --- capturing one rank's rows (--partial) ----------------------------------------- */

struct capsheet {
	const struct tab *t;
	struct mcol	*decl;
	size_t		 ndecl;
	int		*srcs;		/* the sheet's sources the decl columns read */
	size_t		 nsrc;
	double		 den[2];
	double		*v;		/* NST * nsrc per row captured */
	size_t		 nrows, cap;
};

static struct capsheet *caps;
static size_t ncaps;

static struct capsheet *
cap_of(const struct tab *t)
{
	size_t i;

	for (i = ncaps; i-- > 0;)
		if (caps[i].t == t)
			return &caps[i];
	return NULL;
}

static void
capture(struct tab *t, size_t r, const struct tl_col *c, size_t n, const size_t *idx,
    const struct tl_group *g)
{
	struct capsheet *cs = cap_of(t);
	size_t j, k, hc;
	double *v;

	if (cs == NULL || tab_find(t, HIDDEN) == (size_t)-1) {
		caps = xreallocarray(caps, ncaps + 1, sizeof(*caps));
		cs = &caps[ncaps++];
		memset(cs, 0, sizeof(*cs));
		cs->t = t;
		cs->den[0] = cs->den[1] = NAN;
		for (j = 0; j < n; j++) {
			if (idx[j] == TL_COL_NONE || !stateful(c[j].agg))
				continue;
			for (k = 0; k < cs->nsrc && cs->srcs[k] != c[j].src; k++)
				;
			if (k == cs->nsrc) {
				cs->srcs = xreallocarray(cs->srcs, k + 1, sizeof(*cs->srcs));
				cs->srcs[cs->nsrc++] = c[j].src;
			}
			cs->decl = xreallocarray(cs->decl, cs->ndecl + 1, sizeof(*cs->decl));
			cs->decl[cs->ndecl++] = (struct mcol){ xstrdup(c[j].name), c[j].agg,
			    c[j].fmt, c[j].arg, (int)k };
		}
		tab_col(t, HIDDEN);
	}
	hc = tab_find(t, HIDDEN);
	cs->v = xgrow(cs->v, &cs->cap, (cs->nrows + 1) * NST * (cs->nsrc + 1), sizeof(*cs->v));
	v = cs->v + cs->nrows * NST * cs->nsrc;
	for (k = 0; k < cs->nsrc; k++) {
		const struct vec *x = g->v[cs->srcs[k]];
		double p = 0;
		size_t i;

		for (i = 0; i < x->n; i++)
			p += x->v[i];
		v[k * NST] = (double)x->n;
		v[k * NST + 1] = stat_sum(x);
		v[k * NST + 2] = p;
		v[k * NST + 3] = stat_min(x);
		v[k * NST + 4] = stat_max(x);
	}
	for (j = 0; j < n; j++)
		if (idx[j] != TL_COL_NONE && c[j].agg == TL_PCT && c[j].arg >= 0 && c[j].arg < 2)
			cs->den[c[j].arg] = g->denom[c[j].arg];
	tab_set_int(t, r, hc, (long long)cs->nrows++);
}

void
tlm_capture_begin(void)
{
	tl_cols_hook = capture;
}

char *
tlm_opts_text(const struct tl_opts *o, const char *kind)
{
	struct buf b = BUF_INIT;
	char nb[NUM_BUFSZ];

	num_shortest(nb, o->micro_idle_us);
	buf_printf(&b, "%s unlinked=%d micro_idle_us=%s kernel_summary=%d short=%d", kind,
	    o->include_unlinked, nb, o->kernel_summary, o->short_kernels);
	num_shortest(nb, o->short_thresh_us);
	buf_printf(&b, " short_thresh_us=%s short_bins=%ld topk_short=%ld coll=%d "
	    "inference=%d by_module=%d by_nkernels=%d call_stack=%d pseudo_ops=%d", nb,
	    o->short_bins, o->topk_short, o->coll, o->inference, o->by_module,
	    o->by_nkernels, o->call_stack, o->pseudo_ops);
	return b.p;
}

/* --- the merge state ------------------------------------------------------------- */

static void
cell_free(struct mcell *c)
{
	free(c->s);
}

static void
row_free(struct mrow *r, size_t ncols)
{
	size_t i;

	for (i = 0; i < ncols; i++)
		cell_free(&r->c[i]);
	free(r->c);
	free(r->org);
	free(r->rank);
	free(r->v);
}

static void
sheet_free(struct msheet *s)
{
	size_t i;

	for (i = 0; i < s->nrows; i++)
		row_free(&s->rows[i], s->ncols);
	free(s->rows);
	for (i = 0; i < s->ncols; i++)
		free(s->cols[i]);
	free(s->cols);
	for (i = 0; i < s->ndecl; i++)
		free(s->decl[i].name);
	free(s->decl);
	free(s->drank);
	free(s->den);
	names_free(&s->keys);
	free(s->name);
}

struct tlm *
tlm_new(void)
{
	return xcalloc(1, sizeof(struct tlm));
}

void
tlm_free(struct tlm *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nsh; i++)
		sheet_free(&m->sh[i]);
	free(m->sh);
	free(m->ranks);
	free(m->prank);
	free(m->opts);
	free(m->where);
	free(m->file);
	free(m);
}

static size_t
col_index(const struct msheet *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i], name) == 0)
			return i;
	return (size_t)-1;
}

/* The row's lowest rank. */
static long long
row_lo(const struct mrow *r)
{
	long long lo = r->nr ? r->rank[0] : -1;
	size_t i;

	for (i = 1; r->unsorted && i < r->nr; i++)
		if (r->rank[i] < lo)
			lo = r->rank[i];
	return lo;
}

struct rkv {
	long long	 rank;
	size_t		 at;
};

static int
rkv_cmp(const void *a, const void *b)
{
	const struct rkv *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The ranks of every row in order, their values with them. */
static void
sort_rows(struct tlm *m)
{
	size_t i, j, k;

	for (i = 0; i < m->nsh; i++) {
		struct msheet *s = &m->sh[i];

		for (j = 0; j < s->nrows; j++) {
			struct mrow *r = &s->rows[j];
			struct rkv *o;
			double *v;

			if (!r->unsorted)
				continue;
			o = xreallocarray(NULL, r->nr + 1, sizeof(*o));
			v = xreallocarray(NULL, r->nr * s->nv + 1, sizeof(*v));
			for (k = 0; k < r->nr; k++)
				o[k] = (struct rkv){ r->rank[k], k };
			qsort(o, r->nr, sizeof(*o), rkv_cmp);
			for (k = 0; k < r->nr; k++) {
				r->rank[k] = o[k].rank;
				memcpy(v + k * s->nv, r->v + o[k].at * s->nv,
				    s->nv * sizeof(*v));
			}
			free(r->v);
			r->v = v;
			r->unsorted = 0;
			free(o);
		}
	}
}

/* The row's key: its cells of the rule's key columns. */
static void
row_key(const struct msheet *s, const struct mrow *r, struct buf *b)
{
	size_t k, i;

	buf_reset(b);
	for (k = 0; k < 4 && s->rule->keys[k] != NULL; k++) {
		const struct mcell *c;

		if ((i = col_index(s, s->rule->keys[k])) == (size_t)-1)
			continue;
		c = &r->c[i];
		buf_addc(b, (char)('0' + c->kind));
		if (c->kind == TAB_STR)
			buf_adds(b, c->s);
		else if (c->kind == TAB_INT || c->kind == TAB_BOOL)
			buf_printf(b, "%lld", c->i);
		else if (c->kind == TAB_NUM)
			buf_printf(b, "%a", c->d);
		buf_addc(b, '\x1f');
	}
}

/* The Python list of strings text (a repr: "['a', 'b']") as its strings, appended to
 * *v; false when text is no such list. */
static int
py_list_read(const char *text, char ***v, size_t *n)
{
	const char *p = text;
	struct buf b = BUF_INIT;
	int first = 1;

	if (*p++ != '[')
		return 0;
	while (*p != ']') {
		char q;

		if (!first) {
			if (p[0] != ',' || p[1] != ' ')
				goto bad;
			p += 2;
		}
		first = 0;
		if ((q = *p++) != '\'' && q != '"')
			goto bad;
		buf_reset(&b);
		for (; *p != q; p++) {
			if (*p == '\0')
				goto bad;
			if (*p == '\\') {
				static const char esc[] = "\\\\''\"\"n\nr\rt\t";
				const char *e;

				p++;
				if (*p == 'x' && isxdigit((unsigned char)p[1]) &&
				    isxdigit((unsigned char)p[2])) {
					char h[3] = { p[1], p[2], 0 };

					buf_addc(&b, (char)strtol(h, NULL, 16));
					p += 2;
					continue;
				}
				for (e = esc; *e != '\0' && *e != *p; e += 2)
					;
				if (*e == '\0')
					goto bad;
				buf_addc(&b, e[1]);
			} else
				buf_addc(&b, *p);
		}
		p++;
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		(*v)[(*n)++] = xstrndup(b.p ? b.p : "", b.len);
	}
	buf_free(&b);
	return p[1] == '\0';
bad:
	buf_free(&b);
	return 0;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The union of the Python lists of sorted distinct strings x and y, written as one
 * (TraceLens's Categories: sorted(set)); NULL when either is no such list. */
static char *
py_list_union(const char *x, const char *y)
{
	char **v = NULL, *out = NULL;
	size_t n = 0, i, k = 0;
	struct buf b = BUF_INIT;

	if (py_list_read(x, &v, &n) && py_list_read(y, &v, &n)) {
		if (n > 1)
			qsort(v, n, sizeof(*v), str_cmp);
		buf_addc(&b, '[');
		for (i = 0; i < n; i++) {
			if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
				continue;
			if (k++)
				buf_adds(&b, ", ");
			py_str(&b, v[i], strlen(v[i]));
		}
		buf_addc(&b, ']');
		out = xstrndup(b.p, b.len);
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	buf_free(&b);
	return out;
}

/* The rank cell j of row r is of. */
static long long
cell_org(const struct mrow *r, size_t j)
{
	return r->org != NULL ? r->org[j] : row_lo(r);
}

/* Cell j of the merge of rows a and b into a: the union of the two lists in the rule's
 * union column; else, as pandas' "first" over the ranks in order, the value of the
 * lowest rank that has one (a key's cells are equal in every rank; a column merged
 * from the rows' state is computed again). */
static void
merge_cell(const struct msheet *s, struct mrow *a, struct mrow *b, size_t j)
{
	struct mcell *x = &a->c[j], *y = &b->c[j], t;
	long long ox = cell_org(a, j), oy = cell_org(b, j);
	char *u;

	if (s->rule != NULL && s->rule->uni != NULL && strcmp(s->cols[j], s->rule->uni) == 0 &&
	    x->kind == TAB_STR && y->kind == TAB_STR &&
	    (u = py_list_union(x->s, y->s)) != NULL) {
		free(x->s);
		x->s = u;
		a->org[j] = ox < oy ? ox : oy;
	} else if ((x->kind == TAB_NONE && y->kind != TAB_NONE) ||
	    ((x->kind == TAB_NONE) == (y->kind == TAB_NONE) && oy < ox)) {
		t = *x;
		*x = *y;
		*y = t;
		a->org[j] = oy;
	} else
		a->org[j] = ox;
}

/* Merge row b's ranks into row a (b is freed): appended (sorted when used, so that
 * W ranks merge in O(W log W)); each cell as merge_cell says. */
static void
row_merge(const struct msheet *s, struct mrow *a, struct mrow *b)
{
	size_t n = a->nr + b->nr, ncols = s->ncols, nv = s->nv, j;
	long long *org = xreallocarray(NULL, ncols + 1, sizeof(*org));

	for (j = 0; j < ncols; j++)
		org[j] = cell_org(a, j);
	free(a->org);
	a->org = org;
	for (j = 0; j < ncols; j++)
		merge_cell(s, a, b, j);
	if (n > a->cap) {
		a->cap = grow_cap(a->cap, n);
		a->rank = xreallocarray(a->rank, a->cap, sizeof(*a->rank));
		a->v = xreallocarray(a->v, a->cap * nv + 1, sizeof(*a->v));
	}
	if (b->nr > 0 && a->nr > 0 && b->rank[0] < a->rank[a->nr - 1])
		a->unsorted = 1;
	memcpy(a->rank + a->nr, b->rank, b->nr * sizeof(*b->rank));
	memcpy(a->v + a->nr * nv, b->v, b->nr * nv * sizeof(*b->v));
	a->nr = n;
	a->unsorted |= b->unsorted;
	row_free(b, ncols);
}

/* Add row r to s: appended while one partial is read, matched by key after. */
static void
sheet_add_row(struct tlm *m, struct msheet *s, struct mrow *r)
{
	struct buf k = BUF_INIT;
	uint32_t i;
	int added;

	if (m->nparts > 1 && s->rule != NULL) {
		row_key(s, r, &k);
		i = names_add(&s->keys, k.p, k.len, &added);
		buf_free(&k);
		if (!added) {
			row_merge(s, &s->rows[i], r);
			return;
		}
	}
	s->rows = xgrow(s->rows, &s->cap, s->nrows + 1, sizeof(*s->rows));
	s->rows[s->nrows++] = *r;
}

/* A second partial: the sheets that do not merge over ranks go; the rows of the others
 * are matched by key from now on. */
static void
go_multi(struct tlm *m)
{
	size_t i, j, n;
	struct mrow *rows;

	for (i = 0; i < m->nsh; i++) {
		struct msheet *s = &m->sh[i];

		if (s->rule == NULL) {
			for (j = 0; j < s->nrows; j++)
				row_free(&s->rows[j], s->ncols);
			s->nrows = 0;
			s->dropped = 1;
			continue;
		}
		rows = s->rows;
		n = s->nrows;
		s->rows = NULL;
		s->nrows = s->cap = 0;
		for (j = 0; j < n; j++)
			sheet_add_row(m, s, &rows[j]);
		free(rows);
	}
}

/* --- reading partials --------------------------------------------------------------- */

static int bad(struct error *err, struct rec *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
bad(struct error *err, struct rec *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, rec_where(r), 0, -1, fmt, ap);
	va_end(ap);
	return -1;
}

/* The numbers of array key (null: NaN); -1 when it is not an array of numbers. */
static long
read_nums(struct rec *r, const char *key, double **out)
{
	struct rec_elems e;
	double *v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!rec_elems(r, key, &e))
		return rec_has(r, key) ? -1 : 0;
	while (rec_elem_next(&e)) {
		enum rec_type ty = rec_elem_type(&e, NULL);
		double d = NAN;

		if (ty != REC_NULL && !rec_elem_num(&e, NULL, &d)) {
			free(v);
			return -1;
		}
		v = xgrow(v, &cap, n + 1, sizeof(*v));
		v[n++] = d;
	}
	*out = v;
	return (long)n;
}

static int
read_header(struct tlm *m, struct rec *r, struct error *err)
{
	const char *opts = rec_str(r, "options", NULL);
	double *rk;
	long n, i;
	size_t j;

	if (opts == NULL)
		return bad(err, r, "a partial without its options%s%s", "", "");
	if (m->opts == NULL) {
		m->opts = xstrdup(opts);
		m->where = xstrdup(rec_where(r));
	} else if (strcmp(m->opts, opts) != 0) {
		struct buf b = BUF_INIT;
		int rc;

		buf_printf(&b, "%s: \"%s\"", m->where, m->opts);
		rc = bad(err, r, "partials of other options do not merge: \"%s\" and %s",
		    opts, b.p);
		buf_free(&b);
		return rc;
	}
	if ((n = read_nums(r, "ranks", &rk)) < 0)
		return bad(err, r, "partial: \"ranks\" is no list of ranks%s%s", "", "");
	m->nparts++;
	free(m->file);
	m->file = m->nparts == 1 && rec_str(r, "file", NULL) != NULL ?
	    xstrdup(rec_str(r, "file", NULL)) : NULL;
	free(m->prank);
	m->prank = xreallocarray(NULL, (size_t)n + 1, sizeof(*m->prank));
	m->npr = 0;
	if (!rec_has(r, "ranks") || n == 0) {
		m->unknown = 1;
		m->prank[m->npr++] = -1;
	}
	for (i = 0; i < n; i++) {
		long long k = (long long)rk[i];

		for (j = 0; j < m->nranks && m->ranks[j] != k; j++)
			;
		if (j < m->nranks || k < 0 || (double)k != rk[i]) {
			char nb[NUM_BUFSZ];

			int norank = k < 0 || (double)k != rk[i];

			num_shortest(nb, rk[i]);
			free(rk);
			if (norank)
				return bad(err, r, "partial: %s is no rank", nb);
			return bad(err, r, "rank %lld is in two partials", k);
		}
		m->ranks = xreallocarray(m->ranks, m->nranks + 1, sizeof(*m->ranks));
		for (j = m->nranks++; j > 0 && m->ranks[j - 1] > k; j--)
			m->ranks[j] = m->ranks[j - 1];
		m->ranks[j] = k;
		m->prank[m->npr++] = k;
	}
	free(rk);
	if (m->nparts > 1 && m->unknown)
		return bad(err, r, "a partial of no known rank (its trace said none) merges "
		    "with no other: the first partial is %s", m->where);
	if (m->nparts == 2)
		go_multi(m);
	m->cur = NULL;
	return 0;
}

/* Whether x is a rank of the partial being read. */
static int
of_partial(const struct tlm *m, double x)
{
	size_t i;

	for (i = 0; i < m->npr; i++)
		if ((double)m->prank[i] == x)
			return 1;
	return 0;
}

static int
read_sheet(struct tlm *m, struct rec *r, struct error *err)
{
	const char *name = rec_str(r, "sheet", NULL);
	struct rec_strv cols;
	struct rec_elems e;
	struct msheet *s;
	double *den, *drk;
	long nd, nr, i;
	size_t j;

	if (m->nparts == 0)
		return bad(err, r, "a partial sheet before the partial's header%s%s", "", "");
	if (name == NULL || !rec_strv(r, "cols", &cols))
		return bad(err, r, "partial_sheet: no \"sheet\" or \"cols\"%s%s", "", "");
	for (j = 0; j < m->nsh && strcmp(m->sh[j].name, name) != 0; j++)
		;
	if (j == m->nsh) {
		m->sh = xreallocarray(m->sh, m->nsh + 1, sizeof(*m->sh));
		s = &m->sh[m->nsh++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(name);
		names_init(&s->keys);
		s->rule = rule_of(name);
		s->dropped = m->nparts > 1 && s->rule == NULL;
		s->ncols = cols.n;
		s->cols = xreallocarray(NULL, cols.n + 1, sizeof(*s->cols));
		for (j = 0; j < cols.n; j++)
			s->cols[j] = xstrdup(cols.s[j]);
		if (rec_elems(r, "decl", &e))
			while (rec_elem_next(&e)) {
				const char *cn = rec_elem_str(&e, "name", NULL);
				const char *ag = rec_elem_str(&e, "agg", NULL);
				const char *fm = rec_elem_str(&e, "fmt", NULL);
				long long arg = 0, src = -1;
				size_t a, f;

				if (cn == NULL || ag == NULL || fm == NULL)
					return bad(err, r, "partial_sheet: a decl without name, "
					    "agg or fmt%s%s", "", "");
				a = names_in_list(agg_names, 12, ag, strlen(ag));
				f = names_in_list(fmt_names, 5, fm, strlen(fm));
				(void)rec_elem_int(&e, "arg", &arg);
				(void)rec_elem_int(&e, "src", &src);
				if (a == 12 || f == 5 || !stateful((int)a) || arg < 0 || arg > 1 ||
				    src < 0 || src > (long long)s->ndecl)
					return bad(err, r, "partial_sheet: decl of column %s: "
					    "unknown agg, fmt or src (agg \"%s\")", cn, ag);
				s->decl = xreallocarray(s->decl, s->ndecl + 1, sizeof(*s->decl));
				s->decl[s->ndecl++] = (struct mcol){ xstrdup(cn), (int)a, (int)f,
				    (int)arg, (int)src };
				if ((size_t)src + 1 > s->nsrc)
					s->nsrc = (size_t)src + 1;
			}
		s->nv = strcmp(name, "gpu_timeline") == 0 ? 2 : NST * s->nsrc;
	} else {
		s = &m->sh[j];
		if (s->ncols != cols.n)
			return bad(err, r, "partial_sheet %s: other columns than in an earlier "
			    "partial%s", name, "");
	}
	m->cur = s;
	if ((nr = read_nums(r, "den_ranks", &drk)) < 0 ||
	    (nd = read_nums(r, "den", &den)) < 0 || nd != 2 * nr) {
		free(drk);
		return bad(err, r, "partial_sheet %s: bad denominators%s", name, "");
	}
	s->drank = xreallocarray(s->drank, s->nden + (size_t)nr + 1, sizeof(*s->drank));
	s->den = xreallocarray(s->den, 2 * (s->nden + (size_t)nr) + 1, sizeof(*s->den));
	for (i = 0; i < nr; i++) {
		if (!of_partial(m, drk[i])) {
			free(drk);
			free(den);
			return bad(err, r, "partial_sheet %s: \"den_ranks\" are not ranks of its "
			    "partial", name);
		}
		s->drank[s->nden] = (long long)drk[i];
		s->den[2 * s->nden] = den[2 * i];
		s->den[2 * s->nden + 1] = den[2 * i + 1];
		s->nden++;
	}
	free(drk);
	free(den);
	return 0;
}

static int
read_cells(struct rec *r, struct msheet *s, struct mcell *c)
{
	struct rec_elems e;
	size_t n = 0;

	if (!rec_elems(r, "cells", &e))
		return -1;
	while (rec_elem_next(&e)) {
		enum rec_type ty = rec_elem_type(&e, NULL);
		bool bv;

		if (n == s->ncols)
			return -1;
		memset(&c[n], 0, sizeof(c[n]));
		if (ty == REC_STRING) {
			c[n].kind = TAB_STR;
			c[n].s = xstrdup(rec_elem_str(&e, NULL, NULL));
		} else if (ty == REC_INT && rec_elem_int(&e, NULL, &c[n].i)) {
			c[n].kind = TAB_INT;
		} else if (ty == REC_REAL && rec_elem_num(&e, NULL, &c[n].d)) {
			c[n].kind = TAB_NUM;
		} else if (ty == REC_BOOL && rec_elem_bool(&e, NULL, &bv)) {
			c[n].kind = TAB_BOOL;
			c[n].i = bv;
		} else if (ty != REC_NULL)
			return -1;
		n++;
	}
	return n == s->ncols ? 0 : -1;
}

static int
read_row(struct tlm *m, struct rec *r, struct error *err)
{
	struct msheet *s = m->cur;
	const char *name = rec_str(r, "sheet", NULL);
	struct mrow row;
	double *rk, *org;
	long nr, nv, no, i;

	if (s == NULL || name == NULL || strcmp(name, s->name) != 0)
		return bad(err, r, "a partial row of sheet %s not after its sheet%s",
		    name ? name : "(none)", "");
	if (s->dropped)
		return 0;
	memset(&row, 0, sizeof(row));
	row.c = xcalloc(s->ncols + 1, sizeof(*row.c));
	if (read_cells(r, s, row.c) != 0) {
		row_free(&row, s->ncols);
		return bad(err, r, "partial_row of %s: \"cells\" is not one value per column%s",
		    s->name, "");
	}
	if ((no = read_nums(r, "org", &org)) != 0) {
		for (i = 0; no == (long)s->ncols && i < no && of_partial(m, org[i]); i++)
			;
		if (i < no || no != (long)s->ncols) {
			free(org);
			row_free(&row, s->ncols);
			return bad(err, r, "partial_row of %s: \"org\" is not one rank of its "
			    "partial per column%s", s->name, "");
		}
		row.org = xreallocarray(NULL, (size_t)no + 1, sizeof(*row.org));
		for (i = 0; i < no; i++)
			row.org[i] = (long long)org[i];
		free(org);
	}
	nr = read_nums(r, "ranks", &rk);
	nv = read_nums(r, "v", &row.v);
	if (nr < 0 || nv < 0 || (size_t)nv != (size_t)nr * s->nv) {
		free(rk);
		row_free(&row, s->ncols);
		return bad(err, r, "partial_row of %s: \"ranks\" and \"v\" do not match%s",
		    s->name, "");
	}
	row.nr = row.cap = (size_t)nr;
	row.rank = xreallocarray(NULL, row.nr + 1, sizeof(*row.rank));
	for (i = 0; i < nr; i++) {
		row.rank[i] = (long long)rk[i];
		if (!of_partial(m, rk[i]) || (i > 0 && row.rank[i] <= row.rank[i - 1])) {
			free(rk);
			row_free(&row, s->ncols);
			return bad(err, r, "partial_row of %s: \"ranks\" are not ranks of its "
			    "partial, ascending", s->name);
		}
	}
	free(rk);
	sheet_add_row(m, s, &row);
	return 0;
}

int
tlm_read(struct tlm *m, struct rec_reader *rd, struct error *err)
{
	struct rec *r;
	const struct error *e;
	const char *kind;
	int rc;

	while ((r = rec_next(rd)) != NULL) {
		kind = rec_str(r, "kind", NULL);
		if (kind != NULL && strcmp(kind, "partial") == 0)
			rc = read_header(m, r, err);
		else if (kind != NULL && strcmp(kind, "partial_sheet") == 0)
			rc = read_sheet(m, r, err);
		else if (kind != NULL && strcmp(kind, "partial_row") == 0)
			rc = read_row(m, r, err);
		else
			rc = bad(err, r, "--merge reads partials (ttp-table --partial), not "
			    "records of kind %s%s", kind ? kind : "(none)", "");
		if (rc == 0 && (e = rec_bad(r)) != NULL) {
			error_set(err, e->file, e->line, e->off, "%s", e->msg);
			rc = -1;
		}
		if (rc != 0)
			return -1;
	}
	if ((e = rec_error(rd)) != NULL) {
		error_set(err, e->file, e->line, e->off, "%s", e->msg);
		return -1;
	}
	if (m->nparts == 0) {
		error_set(err, NULL, 0, -1, "--merge: no partial in the input");
		return -1;
	}
	return 0;
}

/* --- writing a partial ------------------------------------------------------------ */

static void
put_num(struct rec_build *rb, double d)
{
	char nb[NUM_BUFSZ];

	if (!isfinite(d))
		rec_build_null(rb);
	else
		rec_build_num(rb, nb, num_shortest(nb, d));
}

static void
put_cell(struct rec_build *rb, const struct mcell *c)
{
	if (c->kind == TAB_STR)
		rec_build_strz(rb, c->s);
	else if (c->kind == TAB_INT)
		rec_build_int(rb, c->i);
	else if (c->kind == TAB_NUM)
		put_num(rb, c->d);
	else if (c->kind == TAB_BOOL)
		rec_build_bool(rb, c->i != 0);
	else
		rec_build_null(rb);
}

static void
flush(struct buf *b, FILE *fp)
{
	fwrite(b->p, 1, b->len, fp);
	buf_reset(b);
}

static void
write_header(struct buf *b, const long long *rk, size_t n, int unknown, const char *opts,
    const char *file)
{
	struct rec_build rb;
	size_t i;

	rec_build_begin(&rb, b);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "partial");
	rec_build_key(&rb, "ranks");
	if (unknown)
		rec_build_null(&rb);
	else {
		rec_build_array(&rb);
		for (i = 0; i < n; i++)
			rec_build_int(&rb, rk[i]);
		rec_build_end_array(&rb);
	}
	rec_build_key(&rb, "options");
	rec_build_strz(&rb, opts);
	if (file != NULL) {
		rec_build_key(&rb, "file");
		rec_build_strz(&rb, file);
	}
	rec_build_end(&rb);
}

static void
write_sheet(struct buf *b, const struct msheet *s)
{
	struct rec_build rb;
	size_t i;

	rec_build_begin(&rb, b);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "partial_sheet");
	rec_build_key(&rb, "sheet");
	rec_build_strz(&rb, s->name);
	rec_build_key(&rb, "cols");
	rec_build_array(&rb);
	for (i = 0; i < s->ncols; i++)
		rec_build_strz(&rb, s->cols[i]);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "decl");
	rec_build_array(&rb);
	for (i = 0; i < s->ndecl; i++) {
		rec_build_object(&rb);
		rec_build_key(&rb, "name");
		rec_build_strz(&rb, s->decl[i].name);
		rec_build_key(&rb, "agg");
		rec_build_word(&rb, agg_names[s->decl[i].agg]);
		rec_build_key(&rb, "fmt");
		rec_build_word(&rb, fmt_names[s->decl[i].fmt]);
		rec_build_key(&rb, "arg");
		rec_build_int(&rb, s->decl[i].arg);
		rec_build_key(&rb, "src");
		rec_build_int(&rb, s->decl[i].src);
		rec_build_end_object(&rb);
	}
	rec_build_end_array(&rb);
	rec_build_key(&rb, "den_ranks");
	rec_build_array(&rb);
	for (i = 0; i < s->nden; i++)
		rec_build_int(&rb, s->drank[i]);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "den");
	rec_build_array(&rb);
	for (i = 0; i < 2 * s->nden; i++)
		put_num(&rb, s->den[i]);
	rec_build_end_array(&rb);
	rec_build_end(&rb);
}

static void
write_row(struct buf *b, const struct msheet *s, const struct mrow *r)
{
	struct rec_build rb;
	size_t i;

	rec_build_begin(&rb, b);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "partial_row");
	rec_build_key(&rb, "sheet");
	rec_build_strz(&rb, s->name);
	rec_build_key(&rb, "cells");
	rec_build_array(&rb);
	for (i = 0; i < s->ncols; i++)
		put_cell(&rb, &r->c[i]);
	rec_build_end_array(&rb);
	for (i = 0; r->org != NULL && i < s->ncols && r->org[i] == row_lo(r); i++)
		;
	if (r->org != NULL && i < s->ncols) {
		/* a cell of another rank than the row's lowest */
		rec_build_key(&rb, "org");
		rec_build_array(&rb);
		for (i = 0; i < s->ncols; i++)
			rec_build_int(&rb, r->org[i]);
		rec_build_end_array(&rb);
	}
	rec_build_key(&rb, "ranks");
	rec_build_array(&rb);
	for (i = 0; i < r->nr; i++)
		rec_build_int(&rb, r->rank[i]);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "v");
	rec_build_array(&rb);
	for (i = 0; i < r->nr * s->nv; i++)
		put_num(&rb, r->v[i]);
	rec_build_end_array(&rb);
	rec_build_end(&rb);
}

/* Sort the denominators by rank (several ranks: any merge order, one partial). */
static void
sort_dens(struct msheet *s)
{
	size_t i, j;

	for (i = 1; i < s->nden; i++)
		for (j = i; j > 0 && s->drank[j - 1] > s->drank[j]; j--) {
			long long t = s->drank[j];
			double d0 = s->den[2 * j], d1 = s->den[2 * j + 1];

			s->drank[j] = s->drank[j - 1];
			s->den[2 * j] = s->den[2 * j - 2];
			s->den[2 * j + 1] = s->den[2 * j - 1];
			s->drank[j - 1] = t;
			s->den[2 * j - 2] = d0;
			s->den[2 * j - 1] = d1;
		}
}

struct keyed {
	const char	*k;
	size_t		 len, row;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->k, y->k, n);

	return c != 0 ? c : x->len < y->len ? -1 : x->len > y->len;
}

/* The rows in the order a partial of several ranks writes them: by key. */
static size_t *
rows_by_key(const struct msheet *s)
{
	struct keyed *k = xcalloc(s->nrows + 1, sizeof(*k));
	size_t *o = xcalloc(s->nrows + 1, sizeof(*o)), i;
	struct buf b = BUF_INIT;

	for (i = 0; i < s->nrows; i++) {
		row_key(s, &s->rows[i], &b);
		k[i].k = xstrndup(b.p, b.len);
		k[i].len = b.len;
		k[i].row = i;
	}
	qsort(k, s->nrows, sizeof(*k), keyed_cmp);
	for (i = 0; i < s->nrows; i++) {
		o[i] = k[i].row;
		free((char *)k[i].k);
	}
	free(k);
	buf_free(&b);
	return o;
}

static int
multi(const struct tlm *m)
{
	return m->nparts > 1 || m->nranks > 1;
}

void
tlm_keep(struct tlm *m, char *const *sheets, size_t n)
{
	size_t i, j, k;

	for (i = 0; n > 0 && i < m->nsh; i++) {
		struct msheet *s = &m->sh[i];

		for (k = 0; k < n && strcmp(sheets[k], s->name) != 0; k++)
			;
		if (k < n)
			continue;
		for (j = 0; j < s->nrows; j++)
			row_free(&s->rows[j], s->ncols);
		s->nrows = 0;
		s->dropped = 2;
	}
}

void
tlm_write(struct tlm *m, FILE *fp)
{
	struct buf b = BUF_INIT;
	size_t i, j, q, *o;

	sort_rows(m);
	write_header(&b, m->ranks, m->nranks, m->unknown, m->opts, m->file);
	flush(&b, fp);
	for (q = 0; q < (multi(m) ? NRULES : 1); q++)
		for (i = 0; i < m->nsh; i++) {
			struct msheet *s = &m->sh[i];

			if (s->dropped == 2 || (multi(m) && (s->dropped ||
			    s->rule != &rules[q])))
				continue;
			if (multi(m))
				sort_dens(s);
			write_sheet(&b, s);
			flush(&b, fp);
			/* gpu_timeline keeps its types' order */
			o = multi(m) && s->rule != &rules[0] ? rows_by_key(s) : NULL;
			for (j = 0; j < s->nrows; j++) {
				write_row(&b, s, &s->rows[o ? o[j] : j]);
				flush(&b, fp);
			}
			free(o);
		}
	buf_free(&b);
}

/* One rank's sheets as a merge state of one partial (the cells as they are). */
static void
from_tabs(struct tlm *m, struct tab **t, size_t n, long long rank)
{
	size_t i, j, k, r;

	m->nparts = 1;
	if (rank < 0)
		m->unknown = 1;
	else {
		m->ranks = xcalloc(1, sizeof(*m->ranks));
		m->ranks[m->nranks++] = rank;
	}
	for (i = 0; i < n; i++) {
		const struct capsheet *cs = cap_of(t[i]);
		size_t hc = tab_find(t[i], HIDDEN), nc = 0;
		struct msheet *s;

		m->sh = xreallocarray(m->sh, m->nsh + 1, sizeof(*m->sh));
		s = &m->sh[m->nsh++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(t[i]->name);
		names_init(&s->keys);
		s->rule = rule_of(s->name);
		s->cols = xcalloc(t[i]->ncols + 1, sizeof(*s->cols));
		for (j = 0; j < t[i]->ncols; j++)
			if (j != hc)
				s->cols[nc++] = xstrdup(t[i]->cols[j]);
		s->ncols = nc;
		if (cs != NULL && hc != (size_t)-1) {
			s->decl = xcalloc(cs->ndecl + 1, sizeof(*s->decl));
			for (j = 0; j < cs->ndecl; j++) {
				s->decl[j] = cs->decl[j];
				s->decl[j].name = xstrdup(cs->decl[j].name);
			}
			s->ndecl = cs->ndecl;
			s->nsrc = cs->nsrc;
			s->nden = 1;
			s->drank = xcalloc(1, sizeof(*s->drank));
			s->drank[0] = rank;
			s->den = xcalloc(2, sizeof(*s->den));
			s->den[0] = cs->den[0];
			s->den[1] = cs->den[1];
		}
		s->nv = strcmp(s->name, "gpu_timeline") == 0 ? 2 : NST * s->nsrc;
		s->rows = xcalloc(t[i]->nrows + 1, sizeof(*s->rows));
		s->nrows = s->cap = t[i]->nrows;
		for (r = 0; r < t[i]->nrows; r++) {
			struct mrow *row = &s->rows[r];
			const struct tab_cell *h = hc == (size_t)-1 ? NULL : tab_cell(t[i], r, hc);

			row->c = xcalloc(nc + 1, sizeof(*row->c));
			for (j = 0, k = 0; j < t[i]->ncols; j++) {
				const struct tab_cell *c = tab_cell(t[i], r, j);

				if (j == hc)
					continue;
				row->c[k].kind = c->kind;
				if (c->kind == TAB_STR)
					row->c[k].s = xstrdup(tab_str(t[i], r, j));
				else if (c->kind == TAB_NUM)
					row->c[k].d = c->v.d;
				else if (c->kind == TAB_INT || c->kind == TAB_BOOL)
					row->c[k].i = c->v.i;
				k++;
			}
			if (s->nv == 0 || (s->ndecl > 0 && (h == NULL || h->kind != TAB_INT)))
				continue;
			row->nr = 1;
			row->rank = xcalloc(1, sizeof(*row->rank));
			row->rank[0] = rank;
			row->v = xcalloc(s->nv, sizeof(*row->v));
			if (s->ndecl > 0)
				memcpy(row->v, cs->v + (size_t)h->v.i * s->nv,
				    s->nv * sizeof(*row->v));
			else {
				row->v[0] = tab_num(t[i], r, 1);
				row->v[1] = tab_num(t[i], r, 2);
			}
		}
	}
}

const char *
tlm_file(const struct tlm *m)
{
	return m->file;
}

void
tlm_partial_write(FILE *fp, struct tab **s, size_t n, long long rank, const char *opts,
    const char *file)
{
	struct tlm *m = tlm_new();
	size_t i;

	m->opts = xstrdup(opts);
	m->file = file != NULL ? xstrdup(file) : NULL;
	from_tabs(m, s, n, rank);
	tlm_write(m, fp);
	tlm_free(m);
	for (i = 0; i < ncaps; i++) {
		size_t j;

		for (j = 0; j < caps[i].ndecl; j++)
			free(caps[i].decl[j].name);
		free(caps[i].decl);
		free(caps[i].srcs);
		free(caps[i].v);
	}
	free(caps);
	caps = NULL;
	ncaps = 0;
}

/* --- the merged sheets ------------------------------------------------------------ */

static void
set_cell(struct tab *t, size_t r, size_t c, const struct mcell *x)
{
	if (x->kind == TAB_STR)
		tab_set_str(t, r, c, x->s);
	else if (x->kind == TAB_INT)
		tab_set_int(t, r, c, x->i);
	else if (x->kind == TAB_NUM)
		tab_set_num(t, r, c, x->d);
	else if (x->kind == TAB_BOOL)
		tab_set_bool(t, r, c, x->i != 0);
}

static struct tab *
sheet_as_is(const struct msheet *s)
{
	struct tab *t = tab_new(s->name);
	size_t i, j, r;

	for (j = 0; j < s->ncols; j++)
		tab_col(t, s->cols[j]);
	for (i = 0; i < s->nrows; i++) {
		r = tab_row(t);
		for (j = 0; j < s->ncols; j++)
			set_cell(t, r, j, &s->rows[i].c[j]);
	}
	return t;
}

/* Column d's value over the ranks of row r. */
static double
merged_value(const struct msheet *s, const struct mrow *r, size_t d, const double *den)
{
	const struct mcol *c = &s->decl[d];
	struct fsum f = { NULL, 0, 0 };
	double n = 0, x = NAN, y;
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const double *v = r->v + i * s->nv + (size_t)c->src * NST;

		n += v[0];
		fsum_add(&f, c->agg == TL_PSUM ? v[2] : v[1]);
		y = c->agg == TL_MIN ? v[3] : v[4];
		if (!isnan(y) && (isnan(x) || (c->agg == TL_MIN ? y < x : y > x)))
			x = y;
	}
	y = fsum_value(&f);
	switch (c->agg) {
	case TL_COUNT: x = n; break;
	case TL_SUM: case TL_PSUM: x = y; break;
	case TL_MEAN: x = n > 0 ? y / n : NAN; break;
	case TL_PCT: x = y / den[c->arg] * 100; break;
	default: break;
	}
	return c->fmt == TL_MS ? x / 1000 : x;
}

/* The spread over ranks of row r's column d: min, its rank, max, its rank, cv (every
 * rank covered counts: 0 where the group has nothing). */
static void
spread(const struct tlm *m, const struct msheet *s, const struct mrow *r, size_t d,
    struct tab *t, size_t row, size_t c0)
{
	struct fsum f = { NULL, 0, 0 };
	double lo = INFINITY, hi = -INFINITY, mean, x, *v;
	long long rlo = -1, rhi = -1;
	size_t i, j = 0;

	v = xcalloc(m->nranks + 1, sizeof(*v));
	for (i = 0; i < m->nranks; i++) {
		while (j < r->nr && r->rank[j] < m->ranks[i])
			j++;
		x = j < r->nr && r->rank[j] == m->ranks[i] ? r->v[j * s->nv +
		    (size_t)s->decl[d].src * NST + 1] : 0;
		if (s->decl[d].fmt == TL_MS)
			x /= 1000;
		v[i] = x;
		fsum_add(&f, x);
		if (x < lo) {
			lo = x;
			rlo = m->ranks[i];
		}
		if (x > hi) {
			hi = x;
			rhi = m->ranks[i];
		}
	}
	mean = fsum_value(&f) / (double)m->nranks;
	for (i = 0; i < m->nranks; i++)
		fsum_add(&f, (v[i] - mean) * (v[i] - mean));
	x = sqrt(fsum_value(&f) / (double)m->nranks);
	tab_set_num(t, row, c0, lo);
	tab_set_int(t, row, c0 + 1, rlo);
	tab_set_num(t, row, c0 + 2, hi);
	tab_set_int(t, row, c0 + 3, rhi);
	tab_set_num(t, row, c0 + 4, mean != 0 ? x / mean : NAN);
	free(v);
}

static int
derived(const struct rule *u, const char *col)
{
	size_t i;

	if (u->pct != NULL && (strcmp(col, "Percentage (%)") == 0 ||
	    strcmp(col, "Cumulative Percentage (%)") == 0))
		return 1;
	for (i = 0; i < 5; i++)
		if (strcmp(col, spread_cols[i]) == 0)
			return 1;
	return 0;
}

/* The spread columns of the sorted merged sheet t: each row's state found again by its
 * key (map: s's columns in t). */
static void
spread_cols_add(const struct tlm *m, const struct msheet *s, struct tab *t,
    const size_t *map, size_t d)
{
	struct names kn;
	struct buf b = BUF_INIT;
	size_t i, j, r, c0;
	uint32_t at;

	names_init(&kn);
	for (i = 0; i < s->nrows; i++) {
		row_key(s, &s->rows[i], &b);
		names_intern(&kn, b.p, b.len);
	}
	c0 = tab_col(t, spread_cols[0]);
	for (i = 1; i < 5; i++)
		tab_col(t, spread_cols[i]);
	for (r = 0; r < t->nrows; r++) {
		struct mrow tmp;
		struct mcell *c = xcalloc(s->ncols + 1, sizeof(*c));

		for (j = 0; j < s->ncols; j++) {
			const struct tab_cell *x;

			if (map[j] == (size_t)-1)
				continue;
			x = tab_cell(t, r, map[j]);
			c[j].kind = x->kind;
			c[j].i = x->v.i;
			c[j].d = x->v.d;
			c[j].s = x->kind == TAB_STR ? (char *)tab_str(t, r, map[j]) : NULL;
		}
		tmp.c = c;
		row_key(s, &tmp, &b);
		free(c);
		if ((at = names_lookup(&kn, b.p, b.len)) != NAME_NONE)
			spread(m, s, &s->rows[at], d, t, r, c0);
	}
	buf_free(&b);
	names_free(&kn);
}

static struct tab *
sheet_merged(const struct tlm *m, struct msheet *s)
{
	struct tab *t = tab_new(s->name);
	struct tab_key keys[4];
	struct fsum f = { NULL, 0, 0 };
	double den[2];
	size_t *map = xcalloc(s->ncols + 1, sizeof(*map)), *dcol, i, j, r, nk = 0, sp = 0;

	for (j = 0; j < 2; j++) {
		for (i = 0; i < s->nden; i++)
			fsum_add(&f, s->den[2 * i + j]);
		den[j] = fsum_value(&f);
	}
	for (j = 0; j < s->ncols; j++)
		map[j] = derived(s->rule, s->cols[j]) ? (size_t)-1 : tab_col(t, s->cols[j]);
	dcol = xcalloc(s->ndecl + 1, sizeof(*dcol));
	for (i = 0; i < s->ndecl; i++) {
		dcol[i] = tab_find(t, s->decl[i].name);
		if (s->rule->spread != NULL && strcmp(s->decl[i].name, s->rule->spread) == 0)
			sp = i + 1;
	}
	for (i = 0; i < s->nrows; i++) {
		r = tab_row(t);
		for (j = 0; j < s->ncols; j++)
			if (map[j] != (size_t)-1)
				set_cell(t, r, map[j], &s->rows[i].c[j]);
		for (j = 0; j < s->ndecl; j++) {
			double x = merged_value(s, &s->rows[i], j, den);

			if (dcol[j] == (size_t)-1)
				continue;
			if (s->decl[j].fmt == TL_INT || s->decl[j].agg == TL_COUNT)
				tab_set_int(t, r, dcol[j], (long long)x);
			else
				tab_set_num(t, r, dcol[j], x);
		}
	}
	for (i = 0; i < 4 && s->rule->keys[i] != NULL; i++)
		if ((j = tab_find(t, s->rule->keys[i])) != (size_t)-1)
			keys[nk++] = (struct tab_key){ j, 0 };
	tab_sort(t, keys, nk);
	if ((j = tab_find(t, s->rule->sort)) != (size_t)-1) {
		if (s->rule->sort2 != NULL) {
			keys[0] = (struct tab_key){ j, 1 };
			keys[1] = (struct tab_key){ tab_find(t, s->rule->sort2), 0 };
			tab_sort(t, keys, keys[1].col == (size_t)-1 ? 1 : 2);
		} else
			tab_sort_pandas(t, j, 1);
	}
	if (s->rule->pct != NULL && (j = tab_find(t, s->rule->pct)) != (size_t)-1)
		tab_percentages(t, j);
	if (sp > 0)
		spread_cols_add(m, s, t, map, sp - 1);
	free(map);
	free(dcol);
	return t;
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* min, median, max of v[0 .. n) (sorted in place); NaN values left out. */
static void
stats3(double *v, size_t n, double out[3])
{
	size_t k = 0, i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), dbl_cmp);
	out[0] = k ? v[0] : NAN;
	out[1] = k == 0 ? NAN : k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	out[2] = k ? v[k - 1] : NAN;
}

/* gpu_timeline over ranks: rank, type, time ms, percent; then min, median, max. */
static struct tab *
timeline_merged(const struct tlm *m, const struct msheet *s)
{
	static const char *const st[] = { "min", "median", "max" };
	struct tab *t = tab_new(s->name);
	size_t i, j, k, r, ty = col_index(s, "type");
	double *a = xcalloc(m->nranks + 1, sizeof(*a)), *b = xcalloc(m->nranks + 1, sizeof(*b));
	double sa[3], sb[3];

	tab_col(t, "rank");
	tab_col(t, "type");
	tab_col(t, "time ms");
	tab_col(t, "percent");
	for (i = 0; i < m->nranks; i++)
		for (j = 0; j < s->nrows; j++) {
			const struct mrow *w = &s->rows[j];

			for (k = 0; k < w->nr && w->rank[k] != m->ranks[i]; k++)
				;
			if (k == w->nr)
				continue;
			r = tab_row(t);
			tab_set_int(t, r, 0, m->ranks[i]);
			if (ty != (size_t)-1)
				set_cell(t, r, 1, &w->c[ty]);
			tab_set_num(t, r, 2, w->v[2 * k]);
			tab_set_num(t, r, 3, w->v[2 * k + 1]);
		}
	for (i = 0; i < 3; i++)
		for (j = 0; j < s->nrows; j++) {
			const struct mrow *w = &s->rows[j];

			for (k = 0; k < w->nr; k++) {
				a[k] = w->v[2 * k];
				b[k] = w->v[2 * k + 1];
			}
			stats3(a, w->nr, sa);
			stats3(b, w->nr, sb);
			r = tab_row(t);
			tab_set_str(t, r, 0, st[i]);
			if (ty != (size_t)-1)
				set_cell(t, r, 1, &w->c[ty]);
			tab_set_num(t, r, 2, sa[i]);
			tab_set_num(t, r, 3, sb[i]);
		}
	free(a);
	free(b);
	return t;
}

size_t
tlm_sheets(struct tlm *m, struct tab ***out)
{
	struct tab **v = xcalloc(m->nsh + 1, sizeof(*v));
	size_t i, q, n = 0;

	sort_rows(m);
	if (!multi(m)) {
		for (i = 0; i < m->nsh; i++)
			v[n++] = sheet_as_is(&m->sh[i]);
		*out = v;
		return n;
	}
	{
		struct buf b = BUF_INIT;

		for (i = 0; i < m->nsh; i++)
			if (m->sh[i].dropped || m->sh[i].rule == NULL)
				buf_printf(&b, "%s%s", b.len ? ", " : "", m->sh[i].name);
		if (b.len > 0)
			note("the merge of %zu ranks leaves out the sheets of one rank: %s",
			    m->nranks, b.p);
		buf_free(&b);
	}
	for (q = 0; q < NRULES; q++)
		for (i = 0; i < m->nsh; i++) {
			struct msheet *s = &m->sh[i];

			if (s->dropped || s->rule != &rules[q])
				continue;
			sort_dens(s);
			v[n++] = q == 0 ? timeline_merged(m, s) : sheet_merged(m, s);
		}
	*out = v;
	return n;
}
