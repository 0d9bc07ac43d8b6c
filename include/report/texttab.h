/* SPDX-License-Identifier: ISC */
/*
 * texttab: the one printer of the reports' tables, as aligned text for the terminal or as
 * a GitHub-flavoured Markdown table.
 *
 * A table has columns (header, alignment in text, alignment in Markdown). In text, a column is as wide as the widest of its header and the cells fitted
 * to it (ttab_fit), widths counted as colour_width counts them (ANSI colours take no
 * room, a UTF-8 character one), cells are padded to it and separated by two spaces.
 * In Markdown, widths do not matter: a cell's '|' is escaped and a newline becomes a
 * space. Rows are built cell by cell in column order and written whole. Which columns
 * a table shows is its caller's choice (tab.h's tab_print shows a tab's text columns).
 *
 *	struct ttab tb;
 *	ttab_init(&tb, NCOLS, TTAB_TEXT);
 *	ttab_column(&tb, C_NAME, "Name", TTAB_LEFT, TTAB_LEFT);
 *	... ttab_fit(&tb, C_NAME, s, n) for every cell ...
 *	ttab_header(&tb, fp); ttab_rule(&tb, fp);
 *	for each row: ttab_cell(&tb, s, n) per column, then ttab_row(&tb, fp);
 *	ttab_free(&tb);
 */
#ifndef TTP_TEXTTAB_H
#define TTP_TEXTTAB_H

#include <stddef.h>
#include <stdio.h>

#include "core/buf.h"

enum ttab_align { TTAB_LEFT, TTAB_RIGHT };

/* ttab_init flags */
#define TTAB_TEXT	0x0	/* aligned text */
#define TTAB_MARKDOWN	0x1	/* a Markdown table */
#define TTAB_HEADLEFT	0x2	/* text headers left-aligned whatever the column's alignment */
#define TTAB_TRIM	0x4	/* text lines without trailing spaces (a wide last column) */

struct ttab_col {
	const char	*header;	/* not copied: must outlive the table */
	int		 align;		/* in text */
	int		 mdalign;	/* in Markdown */
	size_t		 width;		/* visible width in text */
};

struct ttab {
	struct ttab_col	*cols;
	size_t		 ncols;
	int		 flags;
	struct buf	 line;		/* the row being built */
	size_t		 next;		/* its next column */
	int		 started;	/* a shown cell was added to it */
};

/* ncols columns, left-aligned, without header until ttab_column. */
void ttab_init(struct ttab *t, size_t ncols, int flags);
void ttab_free(struct ttab *t);
/* Column col's header (its width the header's at least) and alignments. */
void ttab_column(struct ttab *t, size_t col, const char *header, int align, int mdalign);
/* Widen column col to the visible width of s[0..n), or to at least width. */
void ttab_fit(struct ttab *t, size_t col, const char *s, size_t n);
void ttab_minwidth(struct ttab *t, size_t col, size_t width);

/* The header: in text one padded line; in Markdown the header line and the alignment line. */
void ttab_header(struct ttab *t, FILE *fp);
/* In text, a line of '-' as wide as the table; nothing in Markdown. */
void ttab_rule(const struct ttab *t, FILE *fp);
/* The next cell of the row being built. */
void ttab_cell(struct ttab *t, const char *s, size_t n);
/* Write the row (cells not given are empty) and start the next one. */
void ttab_row(struct ttab *t, FILE *fp);

/* Display width of UTF-8 text (code points), and the byte length of its first w. */
size_t ttab_u8width(const char *s, size_t n);
size_t ttab_u8prefix(const char *s, size_t n, size_t w);
/* out = s[0..n) cut to w code points: when it does not fit, its start and its end with
 * one '…' between them (the end tells "_sum" from "_mean", an op from its shape). */
void ttab_cut(struct buf *out, const char *s, size_t n, size_t w);

#endif
