/* SPDX-License-Identifier: ISC */
/*
 * csvread: reading a CSV file row by row over libcsv, with the checks a trace reader
 * needs and "file:line: message" errors.
 *
 * The input is opened with io_open (stdin for "-", gzip transparently) and read in
 * chunks and taken one physical line at a time, so every row knows the line it starts
 * on and an error in a row is reported before anything after it is read. A line with
 * no quote that begins a row is split at its commas in place (most trace lines: the
 * fields libcsv would give, without its per-byte cost or a copy); libcsv reads the rest.
 * Accepted: a UTF-8 BOM (stripped), CRLF or LF line ends, blank lines (skipped), quoted
 * fields (RFC 4180, also spanning lines), spaces kept as data, cells of any size.
 * Errors, returned (csvr_error: file, line and message; the caller decides what to do):
 * empty file (no header), a row whose field count differs from the header's, an
 * unterminated or misplaced quote, a NUL byte, another control character (binary data),
 * invalid UTF-8, a read error. The first error ends the input.
 * The first row is the header; columns are found by name.
 */
#ifndef TTP_CSVREAD_H
#define TTP_CSVREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct csvr;

/* One row: n fields (n == the header's column count for data rows). Field i is f[i]
 * (NUL-terminated, len[i] bytes; "" when empty or not wanted). Valid until the next
 * csvr_next or csvr_close. */
struct csvr_row {
	long		  line;		/* physical line the row starts on (1-based) */
	size_t		  n;
	const char	**f;
	const size_t	 *len;
};

#define CSVR_CHUNK (256 * 1024)	/* default read size */

/* Open path ("-": stdin; a path that does not open: message, exit 1) and read its
 * header row. A bad header is an error (csvr_error), not a NULL: the reader then has
 * no columns and no rows. */
struct csvr *csvr_open(const char *path);
/* The same over an open stream; name is used in messages; chunk is the read size
 * (0: default); the stream is not closed by csvr_close. */
struct csvr *csvr_open_fp(FILE *fp, const char *name, size_t chunk);
void csvr_close(struct csvr *r);
/* The error that ended the input, or NULL. Valid until csvr_close. */
struct error;
const struct error *csvr_error(const struct csvr *r);

const char *csvr_name(const struct csvr *r);	/* as shown in messages */
size_t csvr_ncols(const struct csvr *r);
const char *csvr_colname(const struct csvr *r, size_t i);
/* Index of the first column named name, or -1. */
int csvr_col(const struct csvr *r, const char *name);
/* Keep (true, the default) or skip (false) the text of column i in data rows; skipped
 * fields read as "". Saves copying cells nobody reads. */
void csvr_want(struct csvr *r, size_t i, bool want);
void csvr_want_none(struct csvr *r);

/* Split lines without quotes at their commas in place (true, the default: libcsv
 * reads only the lines that need it) or give every line to libcsv (false). The rows
 * are the same either way; the switch is for tests that compare the two. */
void csvr_split_lines(struct csvr *r, bool on);

/* The next data row, or NULL at the end of the input or on an error (csvr_error). */
const struct csvr_row *csvr_next(struct csvr *r);
/* Number of data rows returned so far. */
size_t csvr_nrows(const struct csvr *r);

/* Split s[0..n), a line without quotes or line end, at its commas: the first max
 * fields (start, length) into f[] and len[], as a csvr would read them. Returns how
 * many were stored: fewer than max when the line has fewer. For a quick look at a few
 * columns of a plain file (ttp-parse's first pass). */
size_t csv_split_plain(const char *s, size_t n, size_t max, const char **f, size_t *len);

#endif
