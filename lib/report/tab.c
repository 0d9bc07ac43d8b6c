/* SPDX-License-Identifier: ISC */
/* tab: typed tables, grouping, sorting and their CSV, text, Markdown and xlsx forms. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <xlsxwriter.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/numfmt.h"
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
	free(t->cells);
	names_free(&t->strs);
	free(t->name);
	free(t);
}

size_t
tab_col(struct tab *t, const char *name)
{
	if (t->nrows != 0) {
		/* a column after rows: re-lay the cells out with one more per row */
		struct tab_cell *c = xcalloc(t->caprows * (t->ncols + 1), sizeof(*c));
		size_t i;

		for (i = 0; i < t->nrows; i++)
			memcpy(c + i * (t->ncols + 1), t->cells + i * t->ncols,
			    t->ncols * sizeof(*c));
		free(t->cells);
		t->cells = c;
	}
	t->cols = xgrow(t->cols, &t->capcols, t->ncols + 1, sizeof(*t->cols));
	t->cols[t->ncols] = xstrdup(name);
	return t->ncols++;
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

/* Put row idx[i] at row i. */
static void
permute(struct tab *t, const size_t *idx)
{
	struct tab_cell *cells;
	size_t i;

	cells = xreallocarray(NULL, t->caprows * t->ncols, sizeof(*cells));
	for (i = 0; i < t->nrows; i++)
		memcpy(cells + i * t->ncols, t->cells + idx[i] * t->ncols,
		    t->ncols * sizeof(*cells));
	free(t->cells);
	t->cells = cells;
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

struct tab *
tab_project(const struct tab *t, const char *name, const char *const *cols)
{
	struct tab *p = tab_new(name);
	size_t *src = NULL, n = 0, i, j, c;

	for (i = 0; cols[i]; i++)
		if ((c = tab_find(t, cols[i])) != (size_t)-1) {
			src = xreallocarray(src, n + 1, sizeof(*src));
			src[n++] = c;
			tab_col(p, cols[i]);
		}
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

/* The cell as pandas' to_csv writes it (without quoting). */
static void
cell_text(const struct tab *t, const struct tab_cell *c, struct buf *b)
{
	char nb[NUM_BUFSZ];
	size_t n;

	switch (c->kind) {
	case TAB_INT:
		n = num_int(nb, c->v.i, 0);
		buf_add(b, nb, n);
		break;
	case TAB_NUM:
		n = num_shortest(nb, c->v.d);
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

static void
csv_field(FILE *fp, const char *s, size_t n)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fwrite(s, 1, n, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

int
tab_write_csv(const struct tab *t, FILE *fp)
{
	struct buf b = BUF_INIT;
	size_t i, j;

	for (j = 0; j < t->ncols; j++) {
		if (j)
			fputc(',', fp);
		csv_field(fp, t->cols[j], strlen(t->cols[j]));
	}
	fputc('\n', fp);
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->ncols; j++) {
			if (j)
				fputc(',', fp);
			buf_reset(&b);
			buf_adds(&b, "");
			cell_text(t, tab_cell(t, i, j), &b);
			csv_field(fp, b.p, b.len);
		}
		fputc('\n', fp);
	}
	buf_free(&b);
	return ferror(fp) ? -1 : 0;
}

/* The cell as the terminal and Markdown show it: numbers with three decimals. */
static void
cell_show(const struct tab *t, const struct tab_cell *c, struct buf *b)
{
	char nb[NUM_BUFSZ];
	size_t n;
	const char *s;

	if (c->kind == TAB_NUM) {
		double a = fabs(c->v.d);

		/* three decimals; tiny values with three significant digits (no locale is
		 * ever set, so the decimal point stays a point) */
		if (a == 0 || a >= 0.001)
			n = num_fixed(nb, c->v.d, 3, 0);
		else
			n = (size_t)snprintf(nb, sizeof(nb), "%.3g", c->v.d);
		buf_add(b, nb, n);
		return;
	}
	if (c->kind != TAB_STR) {
		cell_text(t, c, b);
		return;
	}
	/* one line per cell */
	for (s = names_str(&t->strs, c->v.s); *s; s++)
		buf_addc(b, *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
}

/* Display width of UTF-8 text: code points. */
static size_t
u8width(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/* Byte length of the first w code points of s (n bytes). */
static size_t
u8prefix(const char *s, size_t n, size_t w)
{
	size_t i = 0, k = 0;

	while (i < n) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (k == w)
				break;
			k++;
		}
		i++;
	}
	return i;
}

static int
is_right(const struct tab_cell *c)
{
	return c->kind == TAB_INT || c->kind == TAB_NUM;
}

/* s[0..n) cut to w code points, ending in "..." when cut, into out. */
static void
cut_cell(struct buf *out, const char *s, size_t n, size_t w)
{
	buf_reset(out);
	buf_adds(out, "");
	if (u8width(s, n) <= w) {
		buf_add(out, s, n);
		return;
	}
	buf_add(out, s, u8prefix(s, n, w > 3 ? w - 3 : 0));
	if (w > 3)
		buf_adds(out, "...");
}

#define TEXT_MAX 48
#define TEXT_MIN 10

/* The table through the one table printer (report/texttab.h): in text, the widest
 * columns cut to fit width; in Markdown, whole cells. */
static int
tab_write_ttab(const struct tab *t, FILE *fp, size_t top, size_t width, int md)
{
	size_t nr = top && top < t->nrows ? top : t->nrows, i, j, total;
	size_t nc = t->ncols ? t->ncols : 1;
	size_t *w = xcalloc(nc, sizeof(*w));
	int *right = xcalloc(nc, sizeof(*right));
	struct buf *hdr = xcalloc(nc, sizeof(*hdr));
	struct buf b = BUF_INIT, c = BUF_INIT;
	struct ttab tb;

	for (j = 0; j < t->ncols; j++)
		w[j] = u8width(t->cols[j], strlen(t->cols[j]));
	for (i = 0; i < nr; i++)
		for (j = 0; j < t->ncols; j++) {
			const struct tab_cell *x = tab_cell(t, i, j);
			size_t cw;

			buf_reset(&b);
			buf_adds(&b, "");
			cell_show(t, x, &b);
			if ((cw = u8width(b.p, b.len)) > w[j])
				w[j] = cw;
			right[j] |= is_right(x);
		}
	/* text columns at most TEXT_MAX wide; then the widest columns, one character at
	 * a time, down to TEXT_MIN, until the line fits */
	for (j = 0; !md && width && j < t->ncols; j++)
		if (!right[j] && w[j] > TEXT_MAX)
			w[j] = TEXT_MAX;
	while (!md && width && t->ncols) {
		size_t wide = 0;

		total = 0;
		for (j = 0; j < t->ncols; j++) {
			total += w[j] + (j ? 2 : 0);
			if (w[j] > w[wide])
				wide = j;
		}
		if (total <= width || w[wide] <= TEXT_MIN)
			break;
		w[wide]--;
	}
	ttab_init(&tb, nc, md ? TTAB_MARKDOWN : TTAB_TEXT);
	for (j = 0; j < t->ncols; j++) {
		int a = right[j] ? TTAB_RIGHT : TTAB_LEFT;

		if (md)
			buf_adds(&hdr[j], t->cols[j]);
		else
			cut_cell(&hdr[j], t->cols[j], strlen(t->cols[j]), w[j]);
		ttab_column(&tb, j, hdr[j].p, a, a);
		ttab_minwidth(&tb, j, w[j]);
	}
	ttab_header(&tb, fp);
	ttab_rule(&tb, fp);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < t->ncols; j++) {
			buf_reset(&b);
			buf_adds(&b, "");
			cell_show(t, tab_cell(t, i, j), &b);
			if (md)
				ttab_cell(&tb, b.p, b.len);
			else {
				cut_cell(&c, b.p, b.len, w[j]);
				ttab_cell(&tb, c.p, c.len);
			}
		}
		ttab_row(&tb, fp);
	}
	if (!md && nr < t->nrows)
		fprintf(fp, "... %zu more rows\n", t->nrows - nr);
	ttab_free(&tb);
	for (j = 0; j < nc; j++)
		buf_free(&hdr[j]);
	free(hdr);
	buf_free(&b);
	buf_free(&c);
	free(w);
	free(right);
	return ferror(fp) ? -1 : 0;
}

int
tab_write_text(const struct tab *t, FILE *fp, size_t top, size_t width)
{
	return tab_write_ttab(t, fp, top, width, 0);
}

int
tab_write_md(const struct tab *t, FILE *fp, size_t top)
{
	return tab_write_ttab(t, fp, top, 0, 1);
}

/* --- xlsx --------------------------------------------------------------------------- */

struct tab_book {
	lxw_workbook	*wb;
	lxw_format	*bold;
	char		*path;
};

static char book_err[256];

struct tab_book *
tab_book_new(const char *path)
{
	struct tab_book *b = xcalloc(1, sizeof(*b));

	/* the default "constant memory" off: sheets are small, and strings are shared */
	if ((b->wb = workbook_new(path)) == NULL) {
		snprintf(book_err, sizeof(book_err), "%s: cannot create the workbook", path);
		free(b);
		return NULL;
	}
	b->bold = workbook_add_format(b->wb);
	format_set_bold(b->bold);
	b->path = xstrdup(path);
	return b;
}

#define XLSX_MAXSTR 32767	/* Excel's limit on a cell's characters */
#define XLSX_MAXWIDTH 60

void
tab_book_add(struct tab_book *bk, const struct tab *t)
{
	char name[32];
	size_t i, j, n;
	lxw_worksheet *ws;
	struct buf b = BUF_INIT;
	double *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));

	/* sheet names: at most 31 characters, none of []:*?/\ */
	for (i = n = 0; t->name[i] && n < 31; i++)
		name[n++] = strchr("[]:*?/\\", t->name[i]) ? '_' : t->name[i];
	name[n] = '\0';
	ws = workbook_add_worksheet(bk->wb, name);
	if (ws == NULL)
		return;
	for (j = 0; j < t->ncols; j++) {
		worksheet_write_string(ws, 0, (lxw_col_t)j, t->cols[j], bk->bold);
		w[j] = (double)u8width(t->cols[j], strlen(t->cols[j]));
	}
	for (i = 0; i < t->nrows; i++) {
		lxw_row_t r = (lxw_row_t)(i + 1);

		for (j = 0; j < t->ncols; j++) {
			const struct tab_cell *c = tab_cell(t, i, j);
			lxw_col_t col = (lxw_col_t)j;
			double cw = 0;

			switch (c->kind) {
			case TAB_INT:
				worksheet_write_number(ws, r, col, (double)c->v.i, NULL);
				cw = 8;
				break;
			case TAB_NUM:
				worksheet_write_number(ws, r, col, c->v.d, NULL);
				cw = 12;
				break;
			case TAB_BOOL:
				worksheet_write_boolean(ws, r, col, (int)c->v.i, NULL);
				cw = 6;
				break;
			case TAB_STR: {
				const char *s = names_str(&t->strs, c->v.s);
				size_t len = strlen(s);

				if (len > XLSX_MAXSTR) {
					buf_reset(&b);
					buf_add(&b, s, u8prefix(s, len, XLSX_MAXSTR - 3));
					buf_adds(&b, "...");
					s = b.p;
					len = b.len;
				}
				worksheet_write_string(ws, r, col, s, NULL);
				cw = (double)u8width(s, len);
				break;
			}
			default:
				break;
			}
			if (cw > w[j])
				w[j] = cw;
		}
	}
	for (j = 0; j < t->ncols; j++)
		worksheet_set_column(ws, (lxw_col_t)j, (lxw_col_t)j,
		    (w[j] > XLSX_MAXWIDTH ? XLSX_MAXWIDTH : w[j]) + 2, NULL);
	worksheet_freeze_panes(ws, 1, 0);
	buf_free(&b);
	free(w);
}

int
tab_book_close(struct tab_book *bk)
{
	lxw_error e = workbook_close(bk->wb);
	int rc = 0;

	if (e != LXW_NO_ERROR) {
		snprintf(book_err, sizeof(book_err), "%s: %s", bk->path, lxw_strerror(e));
		rc = -1;
	}
	free(bk->path);
	free(bk);
	return rc;
}

const char *
tab_book_error(void)
{
	return book_err;
}

/* --- aggregation -------------------------------------------------------------------- */

void
vec_add(struct vec *v, double d)
{
	v->v = xgrow(v->v, &v->cap, v->n + 1, sizeof(*v->v));
	v->v[v->n++] = d;
}

void
vec_free(struct vec *v)
{
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

size_t
stat_count(const struct vec *v)
{
	size_t i, n = 0;

	for (i = 0; i < v->n; i++)
		n += !isnan(v->v[i]);
	return n;
}

/* pandas' group_sum: Kahan's compensated sum, in the values' order */
double
stat_sum(const struct vec *v)
{
	double s = 0, c = 0, y, t;
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i])) {
			y = v->v[i] - c;
			t = s + y;
			c = t - s - y;
			s = t;
		}
	return s;
}

/* numpy's pairwise_sum (loops_utils.h) over n doubles: below 8 a plain loop, up to 128
 * eight running sums combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) then the rest,
 * above that the two halves (the first a multiple of 8 long) summed apart. */
static double
np_pairwise(const double *a, size_t n)
{
	double r[8], res = 0;
	size_t i, j, n2;

	if (n < 8) {
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - n % 8; i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	return np_pairwise(a, n2) + np_pairwise(a + n2, n - n2);
}

double
stat_npsum(const struct vec *v)
{
	return 0.0 + np_pairwise(v->v, v->n);
}

double
stat_npmean(const struct vec *v)
{
	return v->n ? stat_npsum(v) / (double)v->n : NAN;
}

double
stat_npstd(const struct vec *v)
{
	struct vec d = VEC_INIT;
	double m = stat_npmean(v), s;
	size_t i;

	if (v->n == 0)
		return NAN;
	for (i = 0; i < v->n; i++)
		vec_add(&d, (v->v[i] - m) * (v->v[i] - m));
	s = sqrt(stat_npmean(&d));
	vec_free(&d);
	return s;
}

double
stat_mean(const struct vec *v)
{
	size_t n = stat_count(v);

	return n ? stat_sum(v) / (double)n : NAN;
}

/* pandas' group_var: Welford's running mean and sum of squares */
double
stat_std(const struct vec *v, int ddof)
{
	size_t n = 0, i;
	double mean = 0, m2 = 0, old;

	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i])) {
			n++;
			old = mean;
			mean += (v->v[i] - old) / (double)n;
			m2 += (v->v[i] - mean) * (v->v[i] - old);
		}
	if (n <= (size_t)ddof)
		return NAN;
	return sqrt(m2 / (double)(n - (size_t)ddof));
}

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
stat_median(const struct vec *v)
{
	double *c, m;
	size_t n = 0, i;

	c = xreallocarray(NULL, v->n ? v->n : 1, sizeof(*c));
	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i]))
			c[n++] = v->v[i];
	if (n == 0) {
		free(c);
		return NAN;
	}
	qsort(c, n, sizeof(*c), dcmp);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

double
stat_min(const struct vec *v)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i]) && (isnan(m) || v->v[i] < m))
			m = v->v[i];
	return m;
}

double
stat_max(const struct vec *v)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i]) && (isnan(m) || v->v[i] > m))
			m = v->v[i];
	return m;
}

uint32_t
tab_group(struct names *groups, const char *key, size_t len)
{
	return names_intern(groups, key, len);
}
