/* SPDX-License-Identifier: ISC */
/* tab: typed tables, sorting (pandas' orders) and their CSV, text and Markdown forms; the
 * xlsx form is tabbook.c's, the aggregations tabstat.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>


#include "core/buf.h"
#include "core/diag.h"
#include "core/numfmt.h"
#include "report/colour.h"
#include "report/opcsv.h"
#include "report/tab.h"
#include "report/texttab.h"

struct tab *
tab_new(const char *name)
{
	struct tab *t = xcalloc(1, sizeof(*t));

	t->name = xstrdup(name);
	names_init(&t->strs);
	return t;
}

void
tab_free(struct tab *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->fmts);
	free(t->cells);
	names_free(&t->strs);
	free(t->name);
	free(t);
}

size_t
tab_col(struct tab *t, const char *name)
{
	if (t->caprows != 0) {
		/* a column after rows (or after room for them, tab_reserve): the cells
		 * re-laid out with one more per row, in place (from the last row down,
		 * each row moves to or past where it was), so that the table is never
		 * held twice */
		size_t nc = t->ncols + 1, i;

		t->cells = xreallocarray(t->cells, t->caprows * nc, sizeof(*t->cells));
		for (i = t->nrows; i-- > 0;) {
			memmove(t->cells + i * nc, t->cells + i * t->ncols,
			    t->ncols * sizeof(*t->cells));
			memset(t->cells + i * nc + t->ncols, 0, sizeof(*t->cells));
		}
	}
	if (t->ncols == t->capcols) {
		t->capcols = grow_cap(t->capcols, t->ncols + 1);
		t->cols = xreallocarray(t->cols, t->capcols, sizeof(*t->cols));
		t->fmts = xreallocarray(t->fmts, t->capcols, sizeof(*t->fmts));
	}
	t->cols[t->ncols] = xstrdup(name);
	t->fmts[t->ncols] = (struct tab_fmt)TAB_FMT_INIT;
	return t->ncols++;
}

void
tab_format(struct tab *t, size_t col, const struct tab_fmt *f)
{
	t->fmts[col] = *f;
}

size_t
tab_find(const struct tab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return (size_t)-1;
}

size_t
tab_row(struct tab *t)
{
	if (t->nrows == t->caprows) {
		t->caprows = grow_cap(t->caprows, t->nrows + 1);
		t->cells = xreallocarray(t->cells, t->caprows * (t->ncols ? t->ncols : 1),
		    sizeof(*t->cells));
	}
	memset(t->cells + t->nrows * t->ncols, 0, t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

void
tab_reserve(struct tab *t, size_t nrows)
{
	if (nrows <= t->caprows)
		return;
	t->cells = xreallocarray(t->cells, nrows * (t->ncols ? t->ncols : 1),
	    sizeof(*t->cells));
	t->caprows = nrows;
}

struct tab_cell *
tab_cell(const struct tab *t, size_t row, size_t col)
{
	return t->cells + row * t->ncols + col;
}

void
tab_set_int(struct tab *t, size_t row, size_t col, long long v)
{
	struct tab_cell *c = tab_cell(t, row, col);

	c->kind = TAB_INT;
	c->v.i = v;
}

void
tab_set_num(struct tab *t, size_t row, size_t col, double v)
{
	struct tab_cell *c = tab_cell(t, row, col);

	if (!isfinite(v)) {
		c->kind = TAB_NONE;
		return;
	}
	c->kind = TAB_NUM;
	c->v.d = v;
}

void
tab_set_strn(struct tab *t, size_t row, size_t col, const char *s, size_t n)
{
	struct tab_cell *c = tab_cell(t, row, col);

	c->kind = TAB_STR;
	c->v.s = names_intern(&t->strs, s, n);
}

void
tab_set_str(struct tab *t, size_t row, size_t col, const char *s)
{
	tab_set_strn(t, row, col, s, strlen(s));
}

void
tab_set_bool(struct tab *t, size_t row, size_t col, int v)
{
	struct tab_cell *c = tab_cell(t, row, col);

	c->kind = TAB_BOOL;
	c->v.i = v != 0;
}

double
tab_num(const struct tab *t, size_t row, size_t col)
{
	const struct tab_cell *c = tab_cell(t, row, col);

	switch (c->kind) {
	case TAB_INT: case TAB_BOOL: return (double)c->v.i;
	case TAB_NUM: return c->v.d;
	default: return NAN;
	}
}

const char *
tab_str(const struct tab *t, size_t row, size_t col)
{
	const struct tab_cell *c = tab_cell(t, row, col);

	return c->kind == TAB_STR ? names_str(&t->strs, c->v.s) : "";
}

/* --- sorting ------------------------------------------------------------------------ */

static const struct tab *sort_tab;
static const struct tab_key *sort_keys;
static size_t sort_nkeys;

static int
cell_cmp(const struct tab *t, const struct tab_cell *a, const struct tab_cell *b)
{
	int na = a->kind == TAB_NONE, nb = b->kind == TAB_NONE;
	int sa = a->kind == TAB_STR, sb = b->kind == TAB_STR;
	double x, y;

	if (na || nb)
		return na - nb;
	if (sa || sb) {
		if (sa != sb)
			return sa - sb;
		return strcmp(names_str(&t->strs, a->v.s), names_str(&t->strs, b->v.s));
	}
	if (a->kind != TAB_NUM && b->kind != TAB_NUM)
		return (a->v.i > b->v.i) - (a->v.i < b->v.i);
	x = a->kind == TAB_NUM ? a->v.d : (double)a->v.i;
	y = b->kind == TAB_NUM ? b->v.d : (double)b->v.i;
	return (x > y) - (x < y);
}

static int
row_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, k;

	for (k = 0; k < sort_nkeys; k++) {
		const struct tab_cell *ca = tab_cell(sort_tab, a, sort_keys[k].col);
		const struct tab_cell *cb = tab_cell(sort_tab, b, sort_keys[k].col);
		int c = cell_cmp(sort_tab, ca, cb);

		/* empty cells stay last in either direction, as pandas' na_position */
		if (c != 0) {
			if (ca->kind == TAB_NONE || cb->kind == TAB_NONE)
				return c;
			return sort_keys[k].desc ? -c : c;
		}
	}
	return (a > b) - (a < b);
}

/* Put row idx[i] at row i (idx a permutation), in place: each cycle of the
 * permutation rotated through one spare row, so that the table is never held twice. */
static void
permute(struct tab *t, const size_t *idx)
{
	size_t nc = t->ncols, i, j, k;
	size_t rowsz = nc * sizeof(*t->cells);
	struct tab_cell *spare;
	unsigned char *done;

	if (nc == 0)
		return;
	spare = xreallocarray(NULL, nc, sizeof(*spare));
	done = xcalloc(t->nrows / 8 + 1, 1);
	for (i = 0; i < t->nrows; i++) {
		if ((done[i / 8] >> (i % 8) & 1) || idx[i] == i)
			continue;
		memcpy(spare, t->cells + i * nc, rowsz);
		for (j = i;; j = k) {
			done[j / 8] |= (unsigned char)(1u << (j % 8));
			k = idx[j];
			if (k == i) {
				memcpy(t->cells + j * nc, spare, rowsz);
				break;
			}
			memcpy(t->cells + j * nc, t->cells + k * nc, rowsz);
		}
	}
	free(done);
	free(spare);
}

void
tab_sort(struct tab *t, const struct tab_key *keys, size_t nkeys)
{
	size_t *idx, i;

	if (t->nrows < 2)
		return;
	idx = xreallocarray(NULL, t->nrows, sizeof(*idx));
	for (i = 0; i < t->nrows; i++)
		idx[i] = i;
	sort_tab = t;
	sort_keys = keys;
	sort_nkeys = nkeys;
	qsort(idx, t->nrows, sizeof(*idx), row_cmp);
	permute(t, idx);
	free(idx);
}

/* Heap slot k (1-based, as the heap's arithmetic) of the array a. */
#define HEAP(a, k) ((a)[(k) - 1])

/* Sift x down the heap a[1..n] from slot i, as numpy's heapsort does. */
static void
np_sift(const double *v, size_t *a, size_t i, size_t n, size_t x)
{
	size_t j;

	for (j = 2 * i; j <= n; i = j, j *= 2) {
		if (j < n && v[HEAP(a, j)] < v[HEAP(a, j + 1)])
			j++;
		if (!(v[x] < v[HEAP(a, j)]))
			break;
		HEAP(a, i) = HEAP(a, j);
	}
	HEAP(a, i) = x;
}

/* numpy's heapsort of the indices a[0..n) by v (the fallback of its introsort). */
static void
np_heapsort(const double *v, size_t *a, size_t n)
{
	size_t l, x;

	for (l = n / 2; l > 0; l--)
		np_sift(v, a, l, n, HEAP(a, l));
	for (; n > 1; n--) {
		x = HEAP(a, n);
		HEAP(a, n) = HEAP(a, 1);
		np_sift(v, a, 1, n - 1, x);
	}
}

#define SWAPZ(x, y) do { size_t sw_ = (x); (x) = (y); (y) = sw_; } while (0)

/*
 * numpy's argsort of doubles with its default kind, "quicksort" (numpy 1.24's introsort,
 * not stable): partitions around the median of three until a part has 16 elements or
 * fewer (the smaller side first, the larger waiting on a stack), then insertion sort;
 * heapsort past 2 * floor(log2 n) levels.
 * v holds no NaN. Sorts the indices a[0..n).
 */
static void
np_argsort(const double *v, size_t *a, size_t n)
{
	struct { size_t l, r; int depth; } stack[128], *sp = stack;
	size_t l = 0, r = n - 1, m, i, j, x;
	int depth = 0;
	double p;

	if (n < 2)
		return;
	for (x = n; x > 1; x >>= 1)
		depth += 2;
	for (;;) {
		if (depth < 0) {
			np_heapsort(v, a + l, r - l + 1);
			goto pop;
		}
		while (r - l > 15) {
			m = l + (r - l) / 2;
			if (v[a[m]] < v[a[l]])
				SWAPZ(a[m], a[l]);
			if (v[a[r]] < v[a[m]])
				SWAPZ(a[r], a[m]);
			if (v[a[m]] < v[a[l]])
				SWAPZ(a[m], a[l]);
			p = v[a[m]];
			i = l;
			j = r - 1;
			SWAPZ(a[m], a[j]);
			for (;;) {
				while (v[a[++i]] < p)
					;
				while (p < v[a[--j]])
					;
				if (i >= j)
					break;
				SWAPZ(a[i], a[j]);
			}
			SWAPZ(a[i], a[r - 1]);
			/* the larger side waits on the stack */
			if (i - l < r - i) {
				sp->l = i + 1, sp->r = r;
				r = i - 1;
			} else {
				sp->l = l, sp->r = i - 1;
				l = i + 1;
			}
			sp->depth = --depth;
			sp++;
		}
		for (i = l + 1; i <= r; i++) {
			x = a[i];
			p = v[x];
			for (j = i; j > l && p < v[a[j - 1]]; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
pop:
		if (sp == stack)
			break;
		sp--;
		l = sp->l, r = sp->r, depth = sp->depth;
	}
}

void
tab_sort_pandas(struct tab *t, size_t col, int desc)
{
	size_t *rows, *perm, *idx, n = 0, k, i;
	double *v;

	if (t->nrows < 2)
		return;
	rows = xreallocarray(NULL, t->nrows, sizeof(*rows));
	perm = xreallocarray(NULL, t->nrows, sizeof(*perm));
	idx = xreallocarray(NULL, t->nrows, sizeof(*idx));
	v = xreallocarray(NULL, t->nrows, sizeof(*v));
	/* pandas' nargsort: the values that are not NaN, reversed for a descending sort,
	 * argsorted, the order reversed back; the NaN rows after them in table order */
	for (i = 0; i < t->nrows; i++)
		if (!isnan(tab_num(t, i, col)))
			rows[n++] = i;
	for (k = 0; k < n; k++)
		perm[k] = k;
	if (desc)
		for (k = 0; k < n / 2; k++)
			SWAPZ(rows[k], rows[n - 1 - k]);
	for (k = 0; k < n; k++)
		v[k] = tab_num(t, rows[k], col);
	np_argsort(v, perm, n);
	for (k = 0; k < n; k++)
		idx[desc ? n - 1 - k : k] = rows[perm[k]];
	for (i = 0, k = n; i < t->nrows; i++)
		if (isnan(tab_num(t, i, col)))
			idx[k++] = i;
	permute(t, idx);
	free(rows);
	free(perm);
	free(idx);
	free(v);
}

/* A new tab named name with columns src[0..n) of t, in that order. */
static struct tab *
project(const struct tab *t, const char *name, const size_t *src, size_t n)
{
	struct tab *p = tab_new(name);
	size_t i, j;

	for (j = 0; j < n; j++)
		tab_format(p, tab_col(p, t->cols[src[j]]), &t->fmts[src[j]]);
	for (i = 0; i < t->nrows; i++) {
		size_t r = tab_row(p);

		for (j = 0; j < n; j++) {
			const struct tab_cell *x = tab_cell(t, i, src[j]);

			if (x->kind == TAB_STR)
				tab_set_str(p, r, j, names_str(&t->strs, x->v.s));
			else
				*tab_cell(p, r, j) = *x;
		}
	}
	return p;
}

struct tab *
tab_project(const struct tab *t, const char *name, const char *const *cols)
{
	struct tab *p;
	size_t *src = NULL, n = 0, i, c;

	for (i = 0; cols[i]; i++)
		if ((c = tab_find(t, cols[i])) != (size_t)-1) {
			src = xreallocarray(src, n + 1, sizeof(*src));
			src[n++] = c;
		}
	p = project(t, name, src, n);
	free(src);
	return p;
}

struct tab *
tab_copy(const struct tab *t, const char *name)
{
	size_t *src = xreallocarray(NULL, t->ncols ? t->ncols : 1, sizeof(*src)), i;
	struct tab *p;

	for (i = 0; i < t->ncols; i++)
		src[i] = i;
	p = project(t, name, src, t->ncols);
	free(src);
	return p;
}

void
tab_truncate(struct tab *t, size_t n)
{
	if (n < t->nrows)
		t->nrows = n;
}

void
tab_percentages(struct tab *t, size_t col)
{
	size_t pc = tab_col(t, "Percentage (%)"), cc = tab_col(t, "Cumulative Percentage (%)");
	struct vec all = VEC_INIT;
	double total, cum = 0;
	size_t i;

	/* as pandas: Series.sum is numpy's sum with NaN as 0; NaN left out of the
	 * running sum */
	for (i = 0; i < t->nrows; i++)
		vec_add(&all, isnan(tab_num(t, i, col)) ? 0 : tab_num(t, i, col));
	total = stat_npsum(&all);
	vec_free(&all);
	for (i = 0; i < t->nrows; i++) {
		double p = tab_num(t, i, col) / total * 100;

		if (isnan(p))
			continue;
		cum += p;
		tab_set_num(t, i, pc, p);
		tab_set_num(t, i, cc, cum);
	}
}

/* --- output ------------------------------------------------------------------------- */

/* The cell as pandas' to_csv writes it (without quoting); dec >= 0: a number cell
 * with that many decimals (its float_format). */
static void
cell_text(const struct tab *t, const struct tab_cell *c, int dec, struct buf *b)
{
	char nb[NUM_BUFSZ];
	size_t n;

	switch (c->kind) {
	case TAB_INT:
		n = num_int(nb, c->v.i, 0);
		buf_add(b, nb, n);
		break;
	case TAB_NUM:
		n = dec >= 0 ? num_fixed(nb, c->v.d, dec, 0) : num_shortest(nb, c->v.d);
		buf_add(b, nb, n);
		break;
	case TAB_STR:
		buf_adds(b, names_str(&t->strs, c->v.s));
		break;
	case TAB_BOOL:
		buf_adds(b, c->v.i ? "True" : "False");
		break;
	default:
		break;
	}
}

int
tab_write_csv(const struct tab *t, FILE *fp)
{
	return tab_write_csv_part(t, fp, 1);
}

int
tab_write_csv_part(const struct tab *t, FILE *fp, int header)
{
	struct buf b = BUF_INIT;
	size_t i, j, k;

	for (j = k = 0; header && j < t->ncols; j++) {
		if (t->fmts[j].flags & TAB_COL_NOFILE)
			continue;
		if (k++)
			fputc(',', fp);
		csv_field(fp, t->cols[j], strlen(t->cols[j]));
	}
	if (header)
		fputc('\n', fp);
	for (i = 0; i < t->nrows; i++) {
		for (j = k = 0; j < t->ncols; j++) {
			if (t->fmts[j].flags & TAB_COL_NOFILE)
				continue;
			if (k++)
				fputc(',', fp);
			buf_reset(&b);
			buf_adds(&b, "");
			cell_text(t, tab_cell(t, i, j), t->fmts[j].dec, &b);
			csv_field(fp, b.p, b.len);
		}
		fputc('\n', fp);
	}
	buf_free(&b);
	return ferror(fp) ? -1 : 0;
}

/* The cell as the terminal and Markdown show it: numbers with three decimals, or as
 * the column's format says. */
static void
cell_show(const struct tab *t, const struct tab_cell *c, const struct tab_fmt *f,
    struct buf *b)
{
	char nb[NUM_BUFSZ];
	size_t n;
	const char *s;

	if (f->dec >= 0 && (c->kind == TAB_NUM || c->kind == TAB_INT)) {
		n = num_fixed(nb, c->kind == TAB_NUM ? c->v.d : (double)c->v.i, f->dec,
		    f->thousands);
		buf_add(b, nb, n);
		if (f->unit)
			buf_adds(b, f->unit);
		return;
	}
	if (c->kind == TAB_NUM) {
		double a = fabs(c->v.d);

		/* three decimals; tiny values with three significant digits (no locale is
		 * ever set, so the decimal point stays a point) */
		if (a == 0 || a >= 0.001)
			n = num_fixed(nb, c->v.d, 3, 0);
		else
			n = (size_t)snprintf(nb, sizeof(nb), "%.3g", c->v.d);
		buf_add(b, nb, n);
		if (f->unit)
			buf_adds(b, f->unit);
		return;
	}
	if (c->kind != TAB_STR) {
		cell_text(t, c, -1, b);
		if (c->kind == TAB_INT && f->unit)
			buf_adds(b, f->unit);
		return;
	}
	/* one line per cell */
	for (s = names_str(&t->strs, c->v.s); *s; s++)
		buf_addc(b, *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
}

void
tab_show(const struct tab *t, size_t row, size_t col, struct buf *b)
{
	buf_adds(b, "");
	cell_show(t, tab_cell(t, row, col), &t->fmts[col], b);
}

const char *
tab_header(const struct tab *t, size_t col)
{
	return t->fmts[col].text ? t->fmts[col].text : t->cols[col];
}

static int
is_right(const struct tab_cell *c)
{
	return c->kind == TAB_INT || c->kind == TAB_NUM;
}

#define TEXT_MAX 48	/* a text column is never wider, when there is a width budget */
#define TEXT_MIN 12	/* columns are cut down to width / 8 between these two, not */
#define TEXT_CUT 24	/* below: the head and tail of a header stay readable */

/* Text alignment of a column: as its format says, else right when a cell is a number. */
static int
col_align(int align, int numeric)
{
	if (align == TAB_AUTO)
		return numeric ? TTAB_RIGHT : TTAB_LEFT;
	return align == TAB_RIGHT ? TTAB_RIGHT : TTAB_LEFT;
}

/* What tab_print knows of each shown column. */
struct pcol {
	size_t	 col;		/* the tab's column */
	size_t	 natural;	/* the widest of its header and shown cells */
	size_t	 numw;		/* its widest number */
	size_t	 floor;		/* it is not cut below this */
	size_t	 w;		/* its width in the block being printed */
	int	 right;		/* a shown cell is a number */
	struct buf hdr;		/* its header as the terminal shows it */
};

/* The least width of a column: its numbers whole, its header and text down to min
 * (the rows' names, the first column, down to twice that). */
static size_t
col_floor(const struct pcol *c, size_t min)
{
	size_t f = c->natural < min ? c->natural : min;

	return c->numw > f ? c->numw : f;
}

/* Headers of the columns p[b[0..nb)] that show alike, cut to their widths (floors:
 * to their floors), get one more character each until they differ or are whole. Cut in
 * the middle, two headers that differ at some width differ at every larger one. */
static void
distinct(struct pcol *p, const size_t *b, size_t nb, int floors)
{
	struct buf x = BUF_INIT, y = BUF_INIT;
	size_t i, j;
	int again;

	do {
		again = 0;
		for (i = 0; i < nb; i++)
			for (j = i + 1; j < nb; j++) {
				struct pcol *a = &p[b[i]], *c = &p[b[j]];
				size_t *aw = floors ? &a->floor : &a->w;
				size_t *cw = floors ? &c->floor : &c->w;
				size_t af = ttab_u8width(a->hdr.p, a->hdr.len);
				size_t cf = ttab_u8width(c->hdr.p, c->hdr.len);

				if (*aw >= af && *cw >= cf)
					continue;	/* whole: equal names stay equal */
				ttab_cut(&x, a->hdr.p, a->hdr.len, *aw);
				ttab_cut(&y, c->hdr.p, c->hdr.len, *cw);
				if (strcmp(x.p, y.p) != 0)
					continue;
				if (*aw < af) {
					(*aw)++;
					again = 1;
				}
				if (*cw < cf) {
					(*cw)++;
					again = 1;
				}
			}
	} while (again);
	buf_free(&x);
	buf_free(&y);
}

/* Widths of the block's columns p[b[0..nb)]: the natural ones, text capped at TEXT_MAX,
 * then the widest cut one character at a time down to its floor until the line fits
 * width. Headers that the cut would make equal are widened until they differ. Returns
 * the line's width. */
static size_t
fit_block(struct pcol *p, const size_t *b, size_t nb, size_t width)
{
	size_t i, total;

	for (i = 0; i < nb; i++) {
		struct pcol *c = &p[b[i]];

		c->w = c->natural;
		if (!c->right && c->w > TEXT_MAX)
			c->w = TEXT_MAX > c->floor ? TEXT_MAX : c->floor;
	}
	for (;;) {
		size_t wide = nb;

		total = 0;
		for (i = 0; i < nb; i++) {
			struct pcol *c = &p[b[i]];

			total += c->w + (i ? 2 : 0);
			if (c->w > c->floor && (wide == nb || c->w > p[b[wide]].w))
				wide = i;
		}
		if (total <= width || wide == nb)
			break;
		p[b[wide]].w--;
	}
	distinct(p, b, nb, 0);
	for (i = total = 0; i < nb; i++)
		total += p[b[i]].w + (i ? 2 : 0);
	return total;
}

/* The rows of the block's columns: header, rule, rows. */
static void
print_block(const struct tab *t, FILE *fp, struct pcol *p, const size_t *b, size_t nb,
    size_t nr, size_t width, int flags)
{
	int md = (flags & TAB_PRINT_MD) != 0, colour = !md && (flags & TAB_PRINT_COLOUR);
	struct buf x = BUF_INIT, c = BUF_INIT;
	struct ttab tb;
	size_t i, k;

	ttab_init(&tb, nb, (md ? TTAB_MARKDOWN : TTAB_TEXT) |
	    ((flags & TAB_PRINT_TRIM) ? TTAB_TRIM : 0));
	for (k = 0; k < nb; k++) {
		struct pcol *pc = &p[b[k]];
		const struct tab_fmt *f = &t->fmts[pc->col];

		if (!md && width)
			ttab_cut(&x, pc->hdr.p, pc->hdr.len, pc->w);
		else {
			buf_reset(&x);
			buf_add(&x, pc->hdr.p, pc->hdr.len);
			buf_adds(&x, "");
		}
		/* ttab keeps the header's pointer: the column's own buffer holds it */
		buf_reset(&pc->hdr);
		buf_add(&pc->hdr, x.p, x.len);
		buf_adds(&pc->hdr, "");
		ttab_column(&tb, k, pc->hdr.p, col_align(f->align, pc->right),
		    col_align(f->mdalign, pc->right));
		if (!md)
			ttab_minwidth(&tb, k, width ? pc->w : pc->natural);
	}
	ttab_header(&tb, fp);
	ttab_rule(&tb, fp);
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nb; k++) {
			const struct pcol *pc = &p[b[k]];
			const struct tab_cell *cell = tab_cell(t, i, pc->col);

			buf_reset(&x);
			buf_adds(&x, "");
			cell_show(t, cell, &t->fmts[pc->col], &x);
			if (md) {
				ttab_cell(&tb, x.p, x.len);
				continue;
			}
			if (width)
				ttab_cut(&c, x.p, x.len, pc->w);
			else {
				buf_reset(&c);
				buf_add(&c, x.p, x.len);
				buf_adds(&c, "");
			}
			if (colour && (t->fmts[pc->col].flags & TAB_COL_OPCOLOUR) &&
			    cell->kind == TAB_STR) {
				buf_reset(&x);
				colour_add(&x, 1, colour_for_op(names_str(&t->strs, cell->v.s)),
				    c.p, c.len);
				ttab_cell(&tb, x.p ? x.p : "", x.len);
			} else
				ttab_cell(&tb, c.p, c.len);
		}
		ttab_row(&tb, fp);
	}
	if (flags & TAB_PRINT_ENDRULE)
		ttab_rule(&tb, fp);
	ttab_free(&tb);
	buf_free(&x);
	buf_free(&c);
}

/*
 * In text with a width budget, a table too wide for it is cut in blocks of columns
 * printed one after the other (as pandas prints a wide frame), each block led by the
 * table's first column (the rows' names) so that its rows can be told apart; within a
 * block the widest columns are cut down to TEXT_MIN until the line fits.
 */
/* The next block of columns from *next on (of ns) into b, its count returned: the first
 * column (after the first block), then as many as fit at their floors in width, all of
 * them when width is 0; the widened headers may not fit, then the last column waits for
 * the next block. */
static size_t
next_block(struct pcol *p, size_t *b, size_t *next, size_t ns, size_t width)
{
	size_t nb = 0, used = 0;
	int label = *next > 0;

	if (label) {
		b[nb++] = 0;
		used = p[0].floor;
	}
	do {
		used += (nb ? 2 : 0) + p[*next].floor;
		b[nb++] = (*next)++;
	} while (*next < ns && (!width || used + 2 + p[*next].floor <= width));
	while (width && fit_block(p, b, nb, width) > width && nb > (label ? 2u : 1u)) {
		nb--;
		(*next)--;
	}
	return nb;
}

int
tab_print(const struct tab *t, FILE *fp, size_t top, size_t width, int flags)
{
	size_t nr = top && top < t->nrows ? top : t->nrows, i, k, ns = 0;
	size_t nc = t->ncols ? t->ncols : 1, *b, *b_all, nb, next, nblocks = 0, min;
	struct pcol *p = xcalloc(nc, sizeof(*p));
	int md = (flags & TAB_PRINT_MD) != 0;
	struct buf x = BUF_INIT;

	for (k = 0; k < t->ncols; k++)
		if (!(t->fmts[k].flags & TAB_COL_NOTEXT))
			p[ns++].col = k;
	for (k = 0; k < ns; k++) {
		const char *h = t->fmts[p[k].col].text ? t->fmts[p[k].col].text :
		    t->cols[p[k].col];

		buf_adds(&p[k].hdr, h);
		p[k].natural = ttab_u8width(h, strlen(h));
	}
	for (i = 0; i < nr; i++)
		for (k = 0; k < ns; k++) {
			const struct tab_cell *cell = tab_cell(t, i, p[k].col);
			size_t cw;

			buf_reset(&x);
			buf_adds(&x, "");
			cell_show(t, cell, &t->fmts[p[k].col], &x);
			cw = ttab_u8width(x.p, x.len);
			if (cw > p[k].natural)
				p[k].natural = cw;
			if (is_right(cell)) {
				p[k].right = 1;
				if (cw > p[k].numw)
					p[k].numw = cw;
			}
		}
	b = xcalloc(nc, sizeof(*b));
	b_all = xcalloc(nc, sizeof(*b_all));
	min = width / 8 < TEXT_MIN ? TEXT_MIN : width / 8 > TEXT_CUT ? TEXT_CUT : width / 8;
	for (k = 0; k < ns; k++) {
		p[k].floor = col_floor(&p[k], k == 0 ? 2 * min : min);
		b_all[k] = k;
	}
	/* headers that differ at their floors differ in whichever blocks they land */
	if (!md && width)
		distinct(p, b_all, ns, 1);
	if (ns == 0)		/* a table without columns (pandas' DataFrame()): nothing */
		goto out;
	for (next = 0; next < ns; ) {
		nb = next_block(p, b, &next, ns, md ? 0 : width);
		if (nblocks++ > 0)
			fputc('\n', fp);	/* blocks after the first: a blank line */
		print_block(t, fp, p, b, nb, nr, width, flags);
		/* the label column's header was cut for this block: show it whole again */
		buf_reset(&p[0].hdr);
		buf_adds(&p[0].hdr, t->fmts[p[0].col].text ? t->fmts[p[0].col].text :
		    t->cols[p[0].col]);
	}
	if (!md && nr < t->nrows)
		fprintf(fp, "... %zu more rows\n", t->nrows - nr);
out:
	for (k = 0; k < nc; k++)
		buf_free(&p[k].hdr);
	free(p);
	free(b);
	free(b_all);
	buf_free(&x);
	return ferror(fp) ? -1 : 0;
}

int
tab_write_text(const struct tab *t, FILE *fp, size_t top, size_t width)
{
	return tab_print(t, fp, top, width, 0);
}

int
tab_write_md(const struct tab *t, FILE *fp, size_t top)
{
	return tab_print(t, fp, top, 0, TAB_PRINT_MD);
}

/* --- blocks of columns for a streamed table ---------------------------------------- */

/* The widths and cut headers of block b[0..nb) of p, kept in bl. */
static void
keep_block(struct tab_block *bl, struct pcol *p, const size_t *b, size_t nb)
{
	struct buf x = BUF_INIT;
	size_t k;

	bl->n = nb;
	bl->col = xcalloc(nb, sizeof(*bl->col));
	bl->w = xcalloc(nb, sizeof(*bl->w));
	bl->hdr = xcalloc(nb, sizeof(*bl->hdr));
	for (k = 0; k < nb; k++) {
		struct pcol *pc = &p[b[k]];

		ttab_cut(&x, pc->hdr.p, pc->hdr.len, pc->w);
		bl->col[k] = pc->col;
		bl->w[k] = pc->w;
		bl->hdr[k] = xstrdup(x.p);
		/* as print_block: the header stays cut for the blocks after this one */
		buf_reset(&pc->hdr);
		buf_add(&pc->hdr, x.p, x.len);
		buf_adds(&pc->hdr, "");
	}
	buf_free(&x);
}

/* tab_print's choice of blocks (text at a width), the cells measured by the caller. */
void
tab_layout(struct tab_layout *l, const struct tab_lcol *c, size_t ncols, size_t width)
{
	struct pcol *p = xcalloc(ncols ? ncols : 1, sizeof(*p));
	size_t *b = xcalloc(ncols ? ncols : 1, sizeof(*b)), *b_all = xcalloc(ncols ? ncols : 1,
	    sizeof(*b_all));
	size_t k, nb, next, cap = 0, min;

	memset(l, 0, sizeof(*l));
	min = width / 8 < TEXT_MIN ? TEXT_MIN : width / 8 > TEXT_CUT ? TEXT_CUT : width / 8;
	for (k = 0; k < ncols; k++) {
		p[k].col = k;
		buf_adds(&p[k].hdr, c[k].header);
		p[k].natural = c[k].natural;
		p[k].numw = c[k].numw;
		p[k].right = c[k].right;
		p[k].floor = col_floor(&p[k], k == 0 ? 2 * min : min);
		b_all[k] = k;
	}
	distinct(p, b_all, ncols, 1);
	for (next = 0; next < ncols; ) {
		nb = next_block(p, b, &next, ncols, width);
		l->b = xgrow(l->b, &cap, l->n + 1, sizeof(*l->b));
		keep_block(&l->b[l->n++], p, b, nb);
		buf_reset(&p[0].hdr);
		buf_adds(&p[0].hdr, c[0].header);
	}
	for (k = 0; k < ncols; k++)
		buf_free(&p[k].hdr);
	free(p);
	free(b);
	free(b_all);
}

void
tab_layout_free(struct tab_layout *l)
{
	size_t i, k;

	for (i = 0; i < l->n; i++) {
		for (k = 0; k < l->b[i].n; k++)
			free(l->b[i].hdr[k]);
		free(l->b[i].col);
		free(l->b[i].w);
		free(l->b[i].hdr);
	}
	free(l->b);
	memset(l, 0, sizeof(*l));
}
