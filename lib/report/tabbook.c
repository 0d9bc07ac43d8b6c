/* SPDX-License-Identifier: ISC */
/* tabbook: a tab's xlsx form, whole or in parts (libxlsxwriter's constant-memory mode):
 * sheet names, column widths, Excel's row limit continued on further sheets, write
 * errors (report/tab.h). */
#include <stdlib.h>
#include <string.h>

#include <xlsxwriter.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "report/tab.h"
#include "report/texttab.h"

/* --- xlsx --------------------------------------------------------------------------- */

struct tab_book {
	lxw_workbook	*wb;
	lxw_format	*bold;
	struct outfile	*out;	/* libxlsxwriter writes its temporary by name at close */
};

static char book_err[256];

struct tab_book *
tab_book_new(const char *path)
{
	struct tab_book *b = xcalloc(1, sizeof(*b));
	const char *tmp = getenv("TMPDIR");
	lxw_workbook_options opt = { 0 };
	struct error e = ERROR_INIT;

	if ((b->out = outfile_open(path, &e)) == NULL) {
		snprintf(book_err, sizeof(book_err), "%s", e.msg);
		error_free(&e);
		free(b);
		return NULL;
	}
	/* constant memory: each row goes to a temporary file (in TMPDIR, as the spool's)
	 * as it is written, instead of every cell waiting in memory for the close; strings
	 * are written in their cells (inline) instead of a shared table */
	opt.constant_memory = LXW_TRUE;
	opt.tmpdir = tmp != NULL && *tmp != '\0' ? (char *)tmp : NULL;
	if ((b->wb = workbook_new_opt(outfile_tmpname(b->out), &opt)) == NULL) {
		snprintf(book_err, sizeof(book_err), "%s: cannot create the workbook", path);
		outfile_abort(b->out);
		free(b);
		return NULL;
	}
	b->bold = workbook_add_format(b->wb);
	format_set_bold(b->bold);
	return b;
}

#define XLSX_MAXSTR 32767	/* Excel's limit on a cell's characters */
#define XLSX_MAXWIDTH 60
#define XLSX_MAXNAME 31		/* and on a sheet name's */
/* Excel's rows per sheet (LXW_ROW_MAX) less the header row */
#define XLSX_MAXROWS ((size_t)LXW_ROW_MAX - 1)

/* A failed write: the message, -1. */
static int
book_fail(struct tab_book *bk, const char *sheet, size_t row, lxw_error e)
{
	snprintf(book_err, sizeof(book_err), "%s: sheet %s, row %zu: %s", outfile_path(bk->out), sheet,
	    row, lxw_strerror(e));
	return -1;
}

/* One cell of t into the sheet: its width in w (the widest so far). */
static lxw_error
book_cell(struct buf *b, lxw_worksheet *ws, const struct tab *t, const struct tab_cell *c,
    lxw_row_t r, lxw_col_t col, double *w)
{
	double cw = 0;
	lxw_error e = LXW_NO_ERROR;

	switch (c->kind) {
	case TAB_INT:
		e = worksheet_write_number(ws, r, col, (double)c->v.i, NULL);
		cw = 8;
		break;
	case TAB_NUM:
		e = worksheet_write_number(ws, r, col, c->v.d, NULL);
		cw = 12;
		break;
	case TAB_BOOL:
		e = worksheet_write_boolean(ws, r, col, (int)c->v.i, NULL);
		cw = 6;
		break;
	case TAB_STR: {
		const char *s = names_str(&t->strs, c->v.s);
		size_t len = strlen(s);

		if (len > XLSX_MAXSTR) {
			buf_reset(b);
			buf_add(b, s, ttab_u8prefix(s, len, XLSX_MAXSTR - 3));
			buf_adds(b, "...");
			s = b->p;
			len = b->len;
		}
		e = worksheet_write_string(ws, r, col, s, NULL);
		cw = (double)ttab_u8width(s, len);
		break;
	}
	default:
		break;
	}
	if (cw > *w)
		*w = cw;
	return e;
}

/* Rows [from, to) of t as the sheet name, under the header row. */
static int
book_sheet(struct tab_book *bk, const struct tab *t, const char *name, size_t from,
    size_t to)
{
	size_t i, j, k, nk;
	lxw_worksheet *ws;
	lxw_error e = LXW_NO_ERROR;
	struct buf b = BUF_INIT;
	double *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
	int rc = 0;

	if ((ws = workbook_add_worksheet(bk->wb, name)) == NULL) {
		snprintf(book_err, sizeof(book_err), "%s: sheet %s: cannot add it", outfile_path(bk->out),
		    name);
		free(w);
		return -1;
	}
	for (j = k = 0; j < t->ncols && e == LXW_NO_ERROR; j++) {
		if (t->fmts[j].flags & TAB_COL_NOFILE)
			continue;
		e = worksheet_write_string(ws, 0, (lxw_col_t)k, t->cols[j], bk->bold);
		w[k++] = (double)ttab_u8width(t->cols[j], strlen(t->cols[j]));
	}
	if (e != LXW_NO_ERROR)
		rc = book_fail(bk, name, 1, e);
	nk = k;
	for (i = from; rc == 0 && i < to; i++) {
		lxw_row_t r = (lxw_row_t)(i - from + 1);

		for (j = k = 0; j < t->ncols && e == LXW_NO_ERROR; j++) {
			if (t->fmts[j].flags & TAB_COL_NOFILE)
				continue;
			e = book_cell(&b, ws, t, tab_cell(t, i, j), r, (lxw_col_t)k, &w[k]);
			k++;
		}
		if (e != LXW_NO_ERROR)
			rc = book_fail(bk, name, (size_t)r + 1, e);
	}
	for (j = 0; rc == 0 && j < nk; j++)
		if ((e = worksheet_set_column(ws, (lxw_col_t)j, (lxw_col_t)j,
		    (w[j] > XLSX_MAXWIDTH ? XLSX_MAXWIDTH : w[j]) + 2, NULL)) != LXW_NO_ERROR)
			rc = book_fail(bk, name, 1, e);
	if (rc == 0)
		worksheet_freeze_panes(ws, 1, 0);
	buf_free(&b);
	free(w);
	return rc;
}

int
tab_book_add(struct tab_book *bk, const struct tab *t)
{
	char name[XLSX_MAXNAME + 1], part[XLSX_MAXNAME + 1], sfx[24];
	size_t i, n, from = 0, p;

	/* sheet names: at most 31 characters, none of []:*?/\ */
	for (i = n = 0; t->name[i] && n < XLSX_MAXNAME; i++)
		name[n++] = strchr("[]:*?/\\", t->name[i]) ? '_' : t->name[i];
	name[n] = '\0';
	/* a sheet past Excel's rows goes on in "name (2)", "name (3)", ... (the name cut
	 * to leave room for the number), each with the header row */
	for (p = 1; p == 1 || from < t->nrows; p++) {
		size_t to = t->nrows - from > XLSX_MAXROWS ? from + XLSX_MAXROWS : t->nrows;

		if (p == 1)
			snprintf(part, sizeof(part), "%s", name);
		else {
			int m = snprintf(sfx, sizeof(sfx), " (%zu)", p);

			snprintf(part, sizeof(part), "%.*s%s",
			    (int)(n < XLSX_MAXNAME - (size_t)m ? n : XLSX_MAXNAME - (size_t)m),
			    name, sfx);
		}
		if (book_sheet(bk, t, part, from, to) != 0)
			return -1;
		from = to;
	}
	if (p == 3)	/* said, so that a reader of the first sheet alone knows */
		note("sheet %s: %zu rows, more than an Excel sheet holds: continued in sheet "
		    "\"%s\"", name, t->nrows, part);
	else if (p > 3)
		note("sheet %s: %zu rows, more than an Excel sheet holds: continued in %zu more "
		    "sheets, up to \"%s\"", name, t->nrows, p - 2, part);
	return 0;
}

int
tab_book_close(struct tab_book *bk)
{
	lxw_error e = workbook_close(bk->wb);
	struct error err = ERROR_INIT;
	int rc = 0;

	if (e != LXW_NO_ERROR) {
		snprintf(book_err, sizeof(book_err), "%s: %s", outfile_path(bk->out),
		    lxw_strerror(e));
		outfile_abort(bk->out);
		rc = -1;
	} else if (outfile_commit(bk->out, &err) != 0) {
		snprintf(book_err, sizeof(book_err), "%s", err.msg);
		error_free(&err);
		rc = -1;
	}
	free(bk);
	return rc;
}

const char *
tab_book_error(void)
{
	return book_err;
}

/* --- a sheet in parts (issue 26) ------------------------------------------------------ */

/* One sheet of a workbook written part by part: what tab_book_add does with one tab. */
struct tab_part {
	struct tab_book	*bk;
	char		 name[XLSX_MAXNAME + 1], sheet[XLSX_MAXNAME + 1];
	size_t		 n;		/* name's length */
	size_t		 p;		/* the sheet's number: 1, then "name (2)", ... */
	lxw_worksheet	*ws;
	size_t		 row;		/* rows in the current sheet */
	size_t		 total;		/* rows in all */
	double		*w;		/* the current sheet's column widths */
	size_t		 nk;
	struct buf	 b;
	int		 rc;
};

/* Start sheet number p->p with t's header row. */
static int
part_open(struct tab_part *p, const struct tab *t)
{
	lxw_error e = LXW_NO_ERROR;
	char sfx[24];
	size_t j, k;

	if (p->p == 1)
		snprintf(p->sheet, sizeof(p->sheet), "%s", p->name);
	else {
		int m = snprintf(sfx, sizeof(sfx), " (%zu)", p->p);

		snprintf(p->sheet, sizeof(p->sheet), "%.*s%s",
		    (int)(p->n < XLSX_MAXNAME - (size_t)m ? p->n : XLSX_MAXNAME - (size_t)m),
		    p->name, sfx);
	}
	if ((p->ws = workbook_add_worksheet(p->bk->wb, p->sheet)) == NULL) {
		snprintf(book_err, sizeof(book_err), "%s: sheet %s: cannot add it",
		    outfile_path(p->bk->out), p->sheet);
		return -1;
	}
	free(p->w);
	p->w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*p->w));
	for (j = k = 0; j < t->ncols && e == LXW_NO_ERROR; j++) {
		if (t->fmts[j].flags & TAB_COL_NOFILE)
			continue;
		e = worksheet_write_string(p->ws, 0, (lxw_col_t)k, t->cols[j], p->bk->bold);
		p->w[k++] = (double)ttab_u8width(t->cols[j], strlen(t->cols[j]));
	}
	p->nk = k;
	p->row = 0;
	return e != LXW_NO_ERROR ? book_fail(p->bk, p->sheet, 1, e) : 0;
}

/* The current sheet's column widths and frozen header. */
static int
part_close(struct tab_part *p)
{
	lxw_error e;
	size_t j;

	for (j = 0; j < p->nk; j++)
		if ((e = worksheet_set_column(p->ws, (lxw_col_t)j, (lxw_col_t)j,
		    (p->w[j] > XLSX_MAXWIDTH ? XLSX_MAXWIDTH : p->w[j]) + 2, NULL)) !=
		    LXW_NO_ERROR)
			return book_fail(p->bk, p->sheet, 1, e);
	worksheet_freeze_panes(p->ws, 1, 0);
	return 0;
}

int
tab_book_begin(struct tab_book *bk, const struct tab *t, struct tab_part **out)
{
	struct tab_part *p = xcalloc(1, sizeof(*p));
	size_t i;

	*out = p;
	p->bk = bk;
	for (i = 0; t->name[i] && p->n < XLSX_MAXNAME; i++)
		p->name[p->n++] = strchr("[]:*?/\\", t->name[i]) ? '_' : t->name[i];
	p->name[p->n] = '\0';
	p->p = 1;
	p->rc = part_open(p, t);
	if (p->rc == 0)
		p->rc = tab_book_more(p, t);
	return p->rc;
}

int
tab_book_more(struct tab_part *p, const struct tab *t)
{
	lxw_error e = LXW_NO_ERROR;
	size_t i, j, k;

	for (i = 0; p->rc == 0 && i < t->nrows; i++) {
		lxw_row_t r;

		if (p->row == XLSX_MAXROWS) {
			if ((p->rc = part_close(p)) != 0)
				break;
			p->p++;
			if ((p->rc = part_open(p, t)) != 0)
				break;
		}
		r = (lxw_row_t)(p->row + 1);
		for (j = k = 0; j < t->ncols && e == LXW_NO_ERROR; j++) {
			if (t->fmts[j].flags & TAB_COL_NOFILE)
				continue;
			e = book_cell(&p->b, p->ws, t, tab_cell(t, i, j), r, (lxw_col_t)k,
			    &p->w[k]);
			k++;
		}
		if (e != LXW_NO_ERROR)
			p->rc = book_fail(p->bk, p->sheet, (size_t)r + 1, e);
		p->row++;
		p->total++;
	}
	return p->rc;
}

int
tab_book_end(struct tab_part *p)
{
	int rc = p->rc;

	if (rc == 0)
		rc = part_close(p);
	if (rc == 0 && p->p == 2)
		note("sheet %s: %zu rows, more than an Excel sheet holds: continued in sheet "
		    "\"%s\"", p->name, p->total, p->sheet);
	else if (rc == 0 && p->p > 2)
		note("sheet %s: %zu rows, more than an Excel sheet holds: continued in %zu more "
		    "sheets, up to \"%s\"", p->name, p->total, p->p - 1, p->sheet);
	buf_free(&p->b);
	free(p->w);
	free(p);
	return rc;
}
