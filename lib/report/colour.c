/* SPDX-License-Identifier: ISC */
/*
 * colour: ANSI colours for the report (docs/tt-perf-report.md §16), the auto/always/never
 * decision and the visible width of text that may hold escapes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "report/colour.h"
#include "tt/opclass.h"

int
colour_parse_mode(const char *s)
{
	if (strcmp(s, "auto") == 0 || strcmp(s, "tty") == 0 || strcmp(s, "if-tty") == 0)
		return COLOUR_AUTO;
	if (strcmp(s, "always") == 0 || strcmp(s, "yes") == 0 || strcmp(s, "force") == 0)
		return COLOUR_ALWAYS;
	if (strcmp(s, "never") == 0 || strcmp(s, "no") == 0 || strcmp(s, "none") == 0)
		return COLOUR_NEVER;
	return -1;
}

int
colour_wanted(int mode, FILE *fp)
{
	const char *nc;

	if (mode == COLOUR_ALWAYS)
		return 1;
	if (mode == COLOUR_NEVER)
		return 0;
	nc = getenv("NO_COLOR");
	if (nc != NULL && *nc != '\0')
		return 0;
	return isatty(fileno(fp));
}

void
colour_add(struct buf *b, int on, int c, const char *s, size_t n)
{
	if (!on || c == COL_NONE) {
		buf_add(b, s, n);
		return;
	}
	{
		char esc[16] = "\033[38;5;";
		size_t k = 7;

		if (c >= 100)
			esc[k++] = (char)('0' + c / 100);
		if (c >= 10)
			esc[k++] = (char)('0' + c / 10 % 10);
		esc[k++] = (char)('0' + c % 10);
		esc[k++] = 'm';
		buf_add(b, esc, k);
	}
	buf_add(b, s, n);
	buf_add(b, "\033[0m", 4);
}

/* The colours of op names are the op-kind table's (tt/opclass.h), in its palette. */
_Static_assert((int)OPCOL_RED == (int)COL_RED && (int)OPCOL_BLUE == (int)COL_BLUE &&
    (int)OPCOL_MAGENTA == (int)COL_MAGENTA && (int)OPCOL_CYAN == (int)COL_CYAN &&
    (int)OPCOL_ORANGE == (int)COL_ORANGE,
    "tt/opclass.h's colours are report/colour.h's palette indexes");

int
colour_for_op(const char *label)
{
	int c = opkind_colour(label);

	return c != 0 ? c : COL_WHITE;
}

size_t
colour_width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0x1b && i + 1 < n && s[i + 1] == '[') {
			size_t j = i + 2;

			while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
				j++;
			if (j < n && s[j] == 'm') {
				i = j;
				continue;
			}
		}
		if ((c & 0xc0) != 0x80)
			w++;
	}
	return w;
}
