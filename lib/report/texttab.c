/* SPDX-License-Identifier: ISC */
/*
 * texttab: aligned text and Markdown tables (see texttab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "report/colour.h"
#include "report/texttab.h"

#define SEP	"  "	/* between text cells */

void
ttab_init(struct ttab *t, size_t ncols, int flags)
{
	memset(t, 0, sizeof(*t));
	t->cols = xcalloc(ncols ? ncols : 1, sizeof(*t->cols));
	t->ncols = ncols;
	t->flags = flags;
}

void
ttab_free(struct ttab *t)
{
	free(t->cols);
	buf_free(&t->line);
	memset(t, 0, sizeof(*t));
}

void
ttab_column(struct ttab *t, size_t col, const char *header, int align, int mdalign)
{
	struct ttab_col *c = &t->cols[col];

	c->header = header;
	c->align = align;
	c->mdalign = mdalign;
	ttab_fit(t, col, header, strlen(header));
}

void
ttab_minwidth(struct ttab *t, size_t col, size_t width)
{
	if (width > t->cols[col].width)
		t->cols[col].width = width;
}

void
ttab_fit(struct ttab *t, size_t col, const char *s, size_t n)
{
	ttab_minwidth(t, col, colour_width(s, n));
}

/* The visible width of a whole text line: the columns and their separators. */
static size_t
linewidth(const struct ttab *t)
{
	size_t i, w = 0;

	for (i = 0; i < t->ncols; i++)
		w += t->cols[i].width;
	return t->ncols > 0 ? w + (t->ncols - 1) * (sizeof(SEP) - 1) : 0;
}

static void
spaces(struct buf *b, size_t n)
{
	if (n == 0)
		return;
	buf_grow(b, n);
	memset(b->p + b->len, ' ', n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Cell s[0..n) of column col, aligned as align. */
static void
put(struct ttab *t, size_t col, const char *s, size_t n, int align)
{
	struct buf *b = &t->line;
	size_t i;

	if (b->len == 0 && (t->flags & TTAB_MARKDOWN))
		buf_addc(b, '|');
	if (t->flags & TTAB_MARKDOWN) {
		buf_addc(b, ' ');
		for (i = 0; i < n; i++) {
			if (s[i] == '|')
				buf_addc(b, '\\');
			buf_addc(b, s[i] == '\n' ? ' ' : s[i]);
		}
		buf_add(b, " |", 2);
	} else {
		size_t vis = colour_width(s, n);
		size_t pad = vis < t->cols[col].width ? t->cols[col].width - vis : 0;

		if (t->started)
			buf_add(b, SEP, sizeof(SEP) - 1);
		if (align != TTAB_LEFT)
			spaces(b, pad);
		buf_add(b, s, n);
		if (align == TTAB_LEFT)
			spaces(b, pad);
	}
	t->started = 1;
}

static void
endline(struct ttab *t, FILE *fp)
{
	if (t->flags & TTAB_TRIM)
		while (t->line.len > 0 && t->line.p[t->line.len - 1] == ' ')
			t->line.len--;
	buf_addc(&t->line, '\n');
	fwrite(t->line.p, 1, t->line.len, fp);
	buf_reset(&t->line);
	t->next = 0;
	t->started = 0;
}

void
ttab_header(struct ttab *t, FILE *fp)
{
	size_t i;

	buf_reset(&t->line);
	t->started = 0;
	for (i = 0; i < t->ncols; i++) {
		const struct ttab_col *c = &t->cols[i];
		const char *h = c->header ? c->header : "";

		put(t, i, h, strlen(h), (t->flags & TTAB_HEADLEFT) ? TTAB_LEFT : c->align);
	}
	endline(t, fp);
	if (!(t->flags & TTAB_MARKDOWN))
		return;
	buf_addc(&t->line, '|');
	for (i = 0; i < t->ncols; i++)
		buf_adds(&t->line, t->cols[i].mdalign == TTAB_LEFT ? " :--- |" : " ---: |");
	endline(t, fp);
}

void
ttab_rule(const struct ttab *t, FILE *fp)
{
	size_t n;

	if (t->flags & TTAB_MARKDOWN)
		return;
	for (n = linewidth(t); n > 0; n--)
		fputc('-', fp);
	fputc('\n', fp);
}

void
ttab_cell(struct ttab *t, const char *s, size_t n)
{
	if (t->next >= t->ncols)
		die(EXIT_DATA, "ttab_cell: more cells than the table's %zu columns", t->ncols);
	put(t, t->next, s, n, t->cols[t->next].align);
	t->next++;
}

void
ttab_row(struct ttab *t, FILE *fp)
{
	while (t->next < t->ncols)
		ttab_cell(t, "", 0);
	endline(t, fp);
}

/* Display width of UTF-8 text: code points. */
size_t
ttab_u8width(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/* Byte length of the first w code points of s (n bytes). */
size_t
ttab_u8prefix(const char *s, size_t n, size_t w)
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

/* s[0..n) cut to w code points, the middle left out and marked with one '…' when it
 * does not fit: the start of a name and its end (the part that tells "_sum" from
 * "_mean", a kernel's name from its namespace) both stay. */
void
ttab_cut(struct buf *out, const char *s, size_t n, size_t w)
{
	size_t total = ttab_u8width(s, n), head, tail, skip;

	buf_reset(out);
	buf_adds(out, "");
	if (total <= w) {
		buf_add(out, s, n);
		return;
	}
	if (w == 0)
		return;
	head = (w - 1) / 2;
	tail = w - 1 - head;
	buf_add(out, s, ttab_u8prefix(s, n, head));
	buf_adds(out, "\u2026");
	skip = ttab_u8prefix(s, n, total - tail);
	buf_add(out, s + skip, n - skip);
}

