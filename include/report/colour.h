/* SPDX-License-Identifier: ISC */
/*
 * colour: ANSI colouring of report cells as tt-perf-report does it (docs/tt-perf-report.md
 * §16), the --color=auto|always|never decision, and the visible width of coloured text.
 *
 * A colour is a 256-colour palette index written as ESC[38;5;<n>m ... ESC[0m; the
 * reference wraps even an empty string when a cell has a colour, and so do we.
 */
#ifndef TTP_COLOUR_H
#define TTP_COLOUR_H

#include <stddef.h>
#include <stdio.h>

struct buf;

enum colour {
	COL_NONE = -1,
	COL_GREY = 8,
	COL_RED = 9,
	COL_GREEN = 10,
	COL_YELLOW = 11,
	COL_BLUE = 12,
	COL_MAGENTA = 13,
	COL_CYAN = 14,
	COL_WHITE = 15,
	COL_ORANGE = 208
};

enum colour_mode { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER };

/* Parse "auto", "always", "never" (also "yes"/"no"/"force"/"none"); -1 if unknown. */
int colour_parse_mode(const char *s);
/* Whether to colour output going to fp: always, never, or auto (fp is a terminal
 * and NO_COLOR is unset or empty). */
int colour_wanted(int mode, FILE *fp);

/* Append s[0..n) to b, wrapped in colour c when on and c != COL_NONE. */
void colour_add(struct buf *b, int on, int c, const char *s, size_t n);
/* The colour of an op name (§16's ordered substring list; white when none). */
int colour_for_op(const char *label);
/* Visible width: UTF-8 code points outside ESC[...m sequences (Python's len of the
 * text with the escapes removed). */
size_t colour_width(const char *s, size_t n);

#endif
