/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for texttab: widths from headers and fitted cells counted without colour
 * escapes and by UTF-8 character, left and right alignment, left headers, the rule,
 * missing cells, and Markdown's escaping and alignment line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/texttab.h"
#include "tap.h"

enum { A, B, C, NC };

/* Render a small table into a string. */
static char *
render(int flags)
{
	static const char *rows[][NC] = {
		{ "x", "\033[38;5;9m12\033[0m", "\xce\xbcs" },
		{ "long name", "3", "a|b\nc" },
	};
	struct ttab tb;
	char *p = NULL;
	size_t n = 0, i, j;
	FILE *fp = open_memstream(&p, &n);

	ttab_init(&tb, NC, flags);
	ttab_column(&tb, A, "Name", TTAB_LEFT, TTAB_LEFT);
	ttab_column(&tb, B, "N", TTAB_RIGHT, TTAB_RIGHT);
	ttab_column(&tb, C, "Unit", TTAB_RIGHT, TTAB_LEFT);
	ttab_minwidth(&tb, C, 5);
	for (i = 0; i < 2; i++)
		for (j = 0; j < NC; j++)
			ttab_fit(&tb, j, rows[i][j], j == C ? 3 : strlen(rows[i][j]));
	ttab_header(&tb, fp);
	ttab_rule(&tb, fp);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < NC; j++)
			ttab_cell(&tb, rows[i][j], strlen(rows[i][j]));
		ttab_row(&tb, fp);
	}
	ttab_cell(&tb, "only", 4);
	ttab_row(&tb, fp);
	ttab_free(&tb);
	fclose(fp);
	return p;
}

int
main(void)
{
	char *s;

	s = render(TTAB_TEXT);
	is_str(s,
	    "Name        N   Unit\n"
	    "--------------------\n"
	    "x          \033[38;5;9m12\033[0m     \xce\xbcs\n"
	    "long name   3  a|b\nc\n"
	    "only                \n",
	    "text: widths without escapes, UTF-8 by character, aligned, minimum width");
	free(s);
	s = render(TTAB_TEXT | TTAB_HEADLEFT);
	is_str(s,
	    "Name       N   Unit \n"
	    "--------------------\n"
	    "x          \033[38;5;9m12\033[0m     \xce\xbcs\n"
	    "long name   3  a|b\nc\n"
	    "only                \n",
	    "text: headers left-aligned");
	free(s);
	s = render(TTAB_MARKDOWN);
	is_str(s,
	    "| Name | N | Unit |\n"
	    "| :--- | ---: | :--- |\n"
	    "| x | \033[38;5;9m12\033[0m | \xce\xbcs |\n"
	    "| long name | 3 | a\\|b c |\n"
	    "| only |  |  |\n",
	    "markdown: '|' escaped, newline a space, alignment line");
	free(s);
	return tap_done();
}
