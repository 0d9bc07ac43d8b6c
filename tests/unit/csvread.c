/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for csvread: the same input read in every chunk size from 1 byte up gives
 * the same header, rows, fields and line numbers (BOM, CRLF, quoted cells spanning
 * lines and chunks, blank lines, multibyte UTF-8 cut by a chunk end, no final newline);
 * bad input is an error returned, with file and line, after the rows before it; and
 * lines split in place (no quotes) give the rows libcsv gives (csvr_split_lines off).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/csvread.h"
#include "core/diag.h"
#include "tap.h"

static const char input[] =
    "\xEF\xBB\xBF" "OP CODE,OP TYPE,ATTRIBUTES\r\n"
    "MatmulDeviceOperation,tt_dnn_device,\"{'a': 'b, c'}\"\r\n"
    "\r\n"
    "\"multi\r\nline \"\"cell\"\"\",x,\r\n"
    "\xCE\xBC" "s \xE2\x9C\x85 \xF0\x9F\x9A\x80,  spaced  ,\"\"\n"
    ",,\r\n"
    "last,row,no newline";

/* Lines the in-place split reads and lines next to them that it must leave to libcsv:
 * a lone CR ending a row, a CR inside a line, CR CR LF, blank lines of CRs, spaces and
 * tabs, empty fields, a quoted line between plain ones, a quoted cell that begins
 * after a lone CR and spans lines, a last line without newline. */
static const char plain[] =
    "a,b,c\n"
    " x , y\t,z \r\n"
    ",,\n"
    "\r\n"
    "\n"
    "p,q,r\rs,t,u\n"
    "1,2,3\r\r\n"
    "\"q\",\"\",w\n"
    "4,5,6\r\n"
    "\r\r\n"
    "m,n,o\r\"x\n"
    "y\",z,w\n"
    "7,8,";

/* Render every row of text as "line|f1|f2|..." lines, header first; split: lines
 * without quotes split in place. */
static char *
render_text(const char *text, size_t len, size_t chunk, int split)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	struct csvr *r;
	const struct csvr_row *row;
	struct buf b = BUF_INIT;

	if (fp == NULL)
		return NULL;
	r = csvr_open_fp(fp, "mem", chunk);
	csvr_split_lines(r, split);
	buf_printf(&b, "header %zu", csvr_ncols(r));
	for (size_t i = 0; i < csvr_ncols(r); i++)
		buf_printf(&b, "|%s", csvr_colname(r, i));
	buf_addc(&b, '\n');
	while ((row = csvr_next(r)) != NULL) {
		buf_printf(&b, "%ld", row->line);
		for (size_t i = 0; i < row->n; i++) {
			buf_printf(&b, "|%s", row->f[i]);
			if (strlen(row->f[i]) != row->len[i])
				buf_adds(&b, "<len mismatch>");
		}
		buf_addc(&b, '\n');
	}
	buf_printf(&b, "rows %zu\n", csvr_nrows(r));
	csvr_close(r);
	fclose(fp);
	return b.p;
}

/* Read text in chunks of chunk bytes: "rows N, line L: message" (or "rows N, no error"),
 * and whether a read after the error still gives NULL; split: lines split in place. */
static char *
bad(const char *text, size_t n, size_t chunk, int split)
{
	FILE *fp = fmemopen((void *)text, n, "r");
	struct csvr *r = csvr_open_fp(fp, "bad.csv", chunk);
	const struct error *e;
	struct buf b = BUF_INIT;
	size_t rows = 0;

	csvr_split_lines(r, split);
	while (csvr_next(r) != NULL)
		rows++;
	if ((e = csvr_error(r)) == NULL)
		buf_printf(&b, "rows %zu, no error", rows);
	else
		buf_printf(&b, "rows %zu, %s:%lld: %s%s", rows, e->file, e->line, e->msg,
		    csvr_next(r) != NULL || csvr_error(r) != e ? " (then more)" : "");
	csvr_close(r);
	fclose(fp);
	return b.p;
}

static void
bad_case(const char *text, size_t n, const char *want, const char *name)
{
	for (size_t chunk = 1; chunk <= 64; chunk *= 4)
		for (int split = 1; split >= 0; split--) {
			char *got = bad(text, n, chunk, split);
			char title[128];

			snprintf(title, sizeof(title), "%s (chunk %zu%s)", name, chunk,
			    split ? "" : ", libcsv only");
			is_str(got, want, title);
			free(got);
		}
}

static char *
render(size_t chunk)
{
	return render_text(input, sizeof(input) - 1, chunk, 1);
}

int
main(void)
{
	const char *want =
	    "header 3|OP CODE|OP TYPE|ATTRIBUTES\n"
	    "2|MatmulDeviceOperation|tt_dnn_device|{'a': 'b, c'}\n"
	    "4|multi\r\nline \"cell\"|x|\n"
	    "6|\xCE\xBCs \xE2\x9C\x85 \xF0\x9F\x9A\x80|  spaced  |\n"
	    "7|||\n"
	    "8|last|row|no newline\n"
	    "rows 5\n";
	char *ref = render(0);
	int allsame = 1;
	size_t bad = 0;

	is_str(ref, want, "default chunk: header, fields, line numbers");
	for (size_t chunk = 1; chunk <= sizeof(input) + 1; chunk++) {
		char *got = render(chunk);

		if (got == NULL || strcmp(got, want) != 0) {
			if (allsame)
				bad = chunk;
			allsame = 0;
		}
		free(got);
	}
	if (!ok(allsame, "chunk sizes 1..%zu give the same rows", sizeof(input) + 1))
		printf("#   first differing chunk size: %zu\n", bad);
	{
		FILE *fp = fmemopen((void *)input, sizeof(input) - 1, "r");
		struct csvr *r = csvr_open_fp(fp, "mem", 7);
		const struct csvr_row *row;

		ok(csvr_col(r, "ATTRIBUTES") == 2, "column by name");
		ok(csvr_col(r, "NOPE") == -1, "absent column is -1");
		csvr_want(r, 2, false);
		row = csvr_next(r);
		ok(row != NULL && strcmp(row->f[2], "") == 0 && row->len[2] == 0 &&
		    strcmp(row->f[0], "MatmulDeviceOperation") == 0,
		    "unwanted column reads as empty, others kept");
		csvr_close(r);
		fclose(fp);
	}
	free(ref);

#define BAD(text, want, name) bad_case(text, sizeof(text) - 1, want, name)
	BAD("a,b\n1,2\n3\n4,5\n", "rows 1, bad.csv:3: row has 1 field, header has 2",
	    "a ragged row, after the rows before it");
	BAD("a,b\n1,\"2\n", "rows 0, bad.csv:2: unterminated quote", "unterminated quote");
	BAD("a,b\n1,2\"x\"\n", "rows 0, bad.csv:2: misplaced quote", "misplaced quote");
	BAD("a,b\n1,2\n3,\0\n", "rows 1, bad.csv:3: NUL byte in input (binary file?)",
	    "a NUL byte");
	BAD("a,b\n\x01,2\n", "rows 0, bad.csv:2: control character 0x01 in input (binary "
	    "file?)", "a control character");
	BAD("a,b\n\xC3(,2\n", "rows 0, bad.csv:2: invalid UTF-8", "invalid UTF-8");
	BAD("a,b\n1,\xE2\x82", "rows 0, bad.csv:2: invalid UTF-8", "UTF-8 cut by the end");
	BAD("", "rows 0, bad.csv:1: empty file: no header", "an empty file");
	BAD("\0a,b\n", "rows 0, bad.csv:1: NUL byte in input (binary file?)",
	    "a bad header is the error, not an empty file");
	BAD("a,b\n1,2", "rows 1, no error", "no error");
	{
		const char *pwant =
		    "header 3|a|b|c\n"
		    "2| x | y\t|z \n"
		    "3|||\n"
		    "6|p|q|r\n"
		    "6|s|t|u\n"
		    "7|1|2|3\n"
		    "8|q||w\n"
		    "9|4|5|6\n"
		    "11|m|n|o\n"
		    "12|x\ny|z|w\n"
		    "13|7|8|\n"
		    "rows 10\n";
		int same = 1;

		ref = render_text(plain, sizeof(plain) - 1, 0, 1);
		is_str(ref, pwant, "lines split in place: the rows, fields and lines libcsv gives");
		free(ref);
		/* (libcsv's own row lines may differ by chunk size: a row that begins after
		 * a lone CR is dated by the line its first field ends on) */
		for (size_t chunk = 1; chunk <= sizeof(plain) + 1; chunk++) {
			char *lib = render_text(plain, sizeof(plain) - 1, chunk, 0);
			char *got = render_text(plain, sizeof(plain) - 1, chunk, 1);

			if (lib == NULL || got == NULL || strcmp(got, lib) != 0) {
				if (same)
					printf("#   differs: chunk %zu\n", chunk);
				same = 0;
			}
			free(lib);
			free(got);
		}
		ok(same, "split in place or by libcsv, chunk sizes 1..%zu: the same rows",
		    sizeof(plain) + 1);
	}
	return tap_done();
}
