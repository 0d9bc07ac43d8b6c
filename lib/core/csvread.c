/* SPDX-License-Identifier: ISC */
/*
 * csvread: CSV rows over libcsv with line numbers, header lookup by name and the input
 * checks (encoding, binary data, quoting, ragged rows) described in csvread.h.
 *
 * Bytes are read in chunks and cut at newlines; each piece is checked (NUL, control
 * characters, UTF-8, the latter with a state kept across pieces). A whole line without
 * quotes read between rows is split in place (split_line: its fields point into the
 * chunk); any other piece is given to csv_parse, whose callbacks store the fields of the
 * current row in one byte buffer. Finished rows wait in a small queue; csvr_next hands
 * them out one by one and feeds more only when the queue is empty, so a bad row is
 * reported after every row before it was returned. The first error is kept (fail) and
 * ends the input: the rows queued with it are dropped, csvr_next returns NULL and
 * csvr_error says what.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "core/buf.h"
#include "core/csvread.h"
#include "core/diag.h"
#include "core/io.h"

struct fld {
	size_t	off;		/* in data; SIZE_MAX: not stored; FLD_CHUNK: at ptr */
	size_t	len;
	const char *ptr;	/* a row split in place (split_line): in the chunk */
};

#define FLD_CHUNK (SIZE_MAX - 1)

struct rowq {
	size_t	first;		/* index of the row's first field in flds */
	size_t	n;
	long	line;
};

struct csvr {
	FILE		*fp;
	int		 own;		/* fp from io_open: close it */
	char		*name;
	struct csv_parser p;

	unsigned char	*chunk;
	size_t		 chunksz, cpos, cend;
	int		 eof, started, finished;
	int		 noplain;	/* every line through libcsv (csvr_split_lines) */
	int		 clean;		/* libcsv is between rows: a line may be split */

	long		 line;		/* line of the next byte to feed */
	int		 in_row;
	long		 row_line;

	/* UTF-8 state across pieces */
	int		 u_need;
	unsigned char	 u_lo, u_hi;

	/* rows being built and finished */
	struct buf	 data;
	struct fld	*flds;
	size_t		 nflds, capflds;
	size_t		 cur_first;	/* first field of the row being built */
	size_t		 cur_data;	/* its data start */
	struct rowq	*rows;
	size_t		 nrows, caprows, rcur;

	/* header */
	char		**cols;
	size_t		 ncols;
	int		 have_header;
	unsigned char	*want;		/* NULL: all */

	/* the row handed out */
	const char	**optr;
	size_t		 *olen;
	size_t		  ocap;
	struct csvr_row	  orow;
	size_t		  nout;

	struct error	  err;		/* the first error; then the input has ended */
};

static const char empty[1] = "";

/* Keep the first error (at line, 0: none) and end the input there. */
static void __attribute__((format(printf, 3, 4)))
fail(struct csvr *r, long line, const char *fmt, ...)
{
	va_list ap;

	if (error_is_set(&r->err))
		return;
	va_start(ap, fmt);
	error_vset(&r->err, r->name, line, -1, fmt, ap);
	va_end(ap);
	r->finished = 1;
}

const struct error *
csvr_error(const struct csvr *r)
{
	return error_is_set(&r->err) ? &r->err : NULL;
}

const char *
csvr_name(const struct csvr *r)
{
	return r->name;
}

size_t
csvr_ncols(const struct csvr *r)
{
	return r->ncols;
}

const char *
csvr_colname(const struct csvr *r, size_t i)
{
	return i < r->ncols ? r->cols[i] : NULL;
}

int
csvr_col(const struct csvr *r, const char *name)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (strcmp(r->cols[i], name) == 0)
			return (int)i;
	return -1;
}

void
csvr_want(struct csvr *r, size_t i, bool want)
{
	if (i >= r->ncols)
		return;
	if (r->want == NULL) {
		r->want = xmalloc(r->ncols);
		memset(r->want, 1, r->ncols);
	}
	r->want[i] = want;
}

void
csvr_want_none(struct csvr *r)
{
	if (r->want == NULL)
		r->want = xmalloc(r->ncols ? r->ncols : 1);
	memset(r->want, 0, r->ncols);
}

void
csvr_split_lines(struct csvr *r, bool on)
{
	r->noplain = !on;
}

size_t
csvr_nrows(const struct csvr *r)
{
	return r->nout;
}

/* --- libcsv callbacks ------------------------------------------------------------- */

static void
cb_field(void *s, size_t len, void *arg)
{
	struct csvr *r = arg;
	struct fld *f;
	size_t idx;

	if (!r->in_row) {
		r->in_row = 1;
		r->row_line = r->line;
	}
	r->flds = xgrow(r->flds, &r->capflds, r->nflds + 1, sizeof(*r->flds));
	idx = r->nflds - r->cur_first;
	f = &r->flds[r->nflds++];
	f->len = len;
	if (len == 0 || (r->have_header && r->want != NULL &&
	    (idx >= r->ncols || !r->want[idx]))) {
		f->off = SIZE_MAX;
		f->len = 0;
		return;
	}
	f->off = r->data.len;
	buf_add(&r->data, s, len);
	buf_addc(&r->data, '\0');
}

static void
cb_row(int c, void *arg)
{
	struct csvr *r = arg;
	size_t n = r->nflds - r->cur_first;

	(void)c;
	if (!r->in_row) {		/* libcsv does not report empty rows; be safe */
		r->row_line = r->line;
	}
	if (r->have_header && n != r->ncols) {
		fail(r, r->row_line, "row has %zu field%s, header has %zu", n,
		    n == 1 ? "" : "s", r->ncols);
		return;
	}
	r->rows = xgrow(r->rows, &r->caprows, r->nrows + 1, sizeof(*r->rows));
	r->rows[r->nrows].first = r->cur_first;
	r->rows[r->nrows].n = n;
	r->rows[r->nrows].line = r->row_line;
	r->nrows++;
	r->cur_first = r->nflds;
	r->cur_data = r->data.len;
	r->in_row = 0;
}

/* --- input checks ----------------------------------------------------------------- */

/* Returns 0. */
static int
bad_byte(struct csvr *r, unsigned char c)
{
	if (c == 0)
		fail(r, r->line, "NUL byte in input (binary file?)");
	else if (c < 0x20)
		fail(r, r->line, "control character 0x%02x in input (binary file?)", c);
	else
		fail(r, r->line, "invalid UTF-8");
	return 0;
}

/* Check bytes: printable ASCII fast, then control characters and UTF-8 sequences.
 * Returns 1, or 0 after fail. */
static int
check_bytes(struct csvr *r, const unsigned char *s, size_t n)
{
	const uint64_t hi = 0x8080808080808080ULL, add = 0x6060606060606060ULL;
	size_t i = 0;

	while (i < n) {
		unsigned char c;

		if (r->u_need == 0) {
			while (i + 8 <= n) {
				uint64_t w;

				memcpy(&w, s + i, 8);
				if ((w & hi) != 0 || ((w + add) & hi) != hi)
					break;
				i += 8;
			}
			if (i >= n)
				break;
		}
		c = s[i++];
		if (r->u_need > 0) {
			if (c < r->u_lo || c > r->u_hi)
				return bad_byte(r, 0x80);
			r->u_need--;
			r->u_lo = 0x80;
			r->u_hi = 0xBF;
			continue;
		}
		if (c < 0x80) {
			if (c < 0x20 && c != '\t' && c != '\r' && c != '\n')
				return bad_byte(r, c);
			continue;
		}
		r->u_lo = 0x80;
		r->u_hi = 0xBF;
		if (c >= 0xC2 && c <= 0xDF)
			r->u_need = 1;
		else if (c == 0xE0) {
			r->u_need = 2;
			r->u_lo = 0xA0;
		} else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
			r->u_need = 2;
		else if (c == 0xED) {
			r->u_need = 2;
			r->u_hi = 0x9F;
		} else if (c == 0xF0) {
			r->u_need = 3;
			r->u_lo = 0x90;
		} else if (c >= 0xF1 && c <= 0xF3)
			r->u_need = 3;
		else if (c == 0xF4) {
			r->u_need = 3;
			r->u_hi = 0x8F;
		} else
			return bad_byte(r, 0x80);
	}
	return 1;
}

/* --- feeding ---------------------------------------------------------------------- */

static void
fill(struct csvr *r)
{
	size_t want = r->chunksz, n;

	r->cpos = r->cend = 0;
	if (r->eof)
		return;
	if (!r->started)
		want = want < 3 ? 3 : want;	/* see a whole BOM at once */
	n = 0;
	while (n < want) {
		size_t m = fread(r->chunk + n, 1, want - n, r->fp);

		if (m == 0) {
			if (ferror(r->fp))
				fail(r, 0, "%s", io_strerror(r->fp, errno));
			r->eof = 1;
			break;
		}
		n += m;
		if (r->started)
			break;
	}
	r->cend = n;
	if (!r->started) {
		r->started = 1;
		if (n >= 3 && r->chunk[0] == 0xEF && r->chunk[1] == 0xBB && r->chunk[2] == 0xBF)
			r->cpos = 3;
	}
}

static int
blank_piece(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* The first ',' in s[i..end), or end. Eight bytes at a time: a byte of x = v ^ ",,,..."
 * is zero where v has a comma, and the lowest byte the zero-byte test flags is exact
 * (its false positives lie only above a true zero). */
static size_t
find_comma(const unsigned char *s, size_t i, size_t end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

	while (i + 8 <= end) {
		uint64_t v, x, m;

		memcpy(&v, s + i, 8);
		x = v ^ (ones * ',');
		m = (x - ones) & ~x & highs;
		if (m != 0)
			return i + (size_t)(__builtin_ctzll(m) >> 3);
		i += 8;
	}
#endif
	while (i < end && s[i] != ',')
		i++;
	return i;
}

size_t
csv_split_plain(const char *s, size_t n, size_t max, const char **f, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t nf = 0, start = 0;

	while (nf < max) {
		size_t pos = find_comma(u, start, n);

		f[nf] = s + start;
		len[nf++] = pos - start;
		if (pos == n)
			break;
		start = pos + 1;
	}
	return nf;
}

/*
 * A whole line (s[n - 1] is its '\n') read outside any row, split at its commas in
 * place when it holds no quote and no carriage return but one before the newline: the
 * fields libcsv would give (spaces kept, empty fields empty), without copying them.
 * Each field is NUL-terminated where its comma (or line end) was; they stay valid until
 * the chunk is refilled, which is after the row was handed out. Returns 0 (nothing
 * done) for a line libcsv must read.
 */
static int
split_line(struct csvr *r, unsigned char *s, size_t n)
{
	size_t end, start = 0, idx = 0;
	const unsigned char *cr;

	if (n == 0)
		return 0;
	end = n - 1;
	if (memchr(s, '"', end) != NULL)
		return 0;
	if ((cr = memchr(s, '\r', end)) != NULL) {
		if (cr != s + end - 1)
			return 0;
		end--;
	}
	if (end == 0)
		return 1;	/* a blank line: libcsv skips it too */
	r->in_row = 1;
	r->row_line = r->line;
	for (;;) {
		size_t pos = find_comma(s, start, end);
		struct fld *f;

		r->flds = xgrow(r->flds, &r->capflds, r->nflds + 1, sizeof(*r->flds));
		f = &r->flds[r->nflds++];
		f->len = pos - start;
		if (f->len == 0 || (r->have_header && r->want != NULL &&
		    (idx >= r->ncols || !r->want[idx]))) {
			f->off = SIZE_MAX;
			f->len = 0;
		} else {
			f->off = FLD_CHUNK;
			f->ptr = (const char *)s + start;
		}
		s[pos] = '\0';
		idx++;
		if (pos == end)
			break;
		start = pos + 1;
	}
	cb_row('\n', r);
	return 1;
}

/* Feed one piece (up to and including a newline, or the rest of the chunk). Returns 0
 * at the end of the input (after finishing the parser). */
static int
feed(struct csvr *r)
{
	unsigned char *s, *nl;
	size_t n, nrows;

	if (r->finished)
		return 0;
	while (r->cpos >= r->cend && !r->eof)
		fill(r);	/* a chunk can be all BOM */
	if (r->finished)	/* a read error */
		return 0;
	if (r->cpos >= r->cend) {
		if (r->u_need > 0)
			return bad_byte(r, 0x80);
		if (csv_fini(&r->p, cb_field, cb_row, r) != 0) {
			if (csv_error(&r->p) == CSV_EPARSE)
				fail(r, r->in_row ? r->row_line : r->line, "unterminated quote");
			else
				fail(r, 0, "%s", csv_strerror(csv_error(&r->p)));
		}
		r->finished = 1;
		return 0;
	}
	s = r->chunk + r->cpos;
	nl = memchr(s, '\n', r->cend - r->cpos);
	n = nl ? (size_t)(nl - s) + 1 : r->cend - r->cpos;
	if (!check_bytes(r, s, n))
		return 0;
	if (nl != NULL && r->clean && !r->noplain && split_line(r, s, n)) {
		if (error_is_set(&r->err))	/* from cb_row */
			return 0;
		r->cpos += n;
		r->line++;
		return 1;
	}
	if (!r->in_row && !blank_piece(s, n)) {
		r->in_row = 1;
		r->row_line = r->line;
	}
	nrows = r->nrows;
	if (csv_parse(&r->p, s, n, cb_field, cb_row, r) != n) {
		if (csv_error(&r->p) == CSV_EPARSE)
			fail(r, r->line, "misplaced quote");
		else
			fail(r, 0, "%s", csv_strerror(csv_error(&r->p)));
	}
	if (error_is_set(&r->err))	/* also from cb_row */
		return 0;
	/* Between rows again when a row ended at this line's end: with no CR but one
	 * before the newline, a row can end nowhere else (a blank line keeps the state:
	 * it may be inside a quoted field). */
	if (nl != NULL && r->nrows > nrows) {
		const unsigned char *cr = memchr(s, '\r', n);

		r->clean = cr == NULL || cr == nl - 1;
	} else if (!(r->clean && nl != NULL && blank_piece(s, n)))
		r->clean = 0;
	r->cpos += n;
	if (nl != NULL)
		r->line++;
	return 1;
}

/* Drop the rows handed out; keep the row being built. */
static void
compact(struct csvr *r)
{
	size_t nkeep = r->nflds - r->cur_first;
	size_t dkeep = r->data.len - r->cur_data;

	if (r->cur_first > 0) {
		for (size_t i = 0; i < nkeep; i++) {
			struct fld *f = &r->flds[r->cur_first + i];

			if (f->off != SIZE_MAX && f->off != FLD_CHUNK)
				f->off -= r->cur_data;
			r->flds[i] = *f;
		}
	}
	if (r->cur_data > 0 && dkeep > 0)
		memmove(r->data.p, r->data.p + r->cur_data, dkeep);
	r->data.len = dkeep;
	r->nflds = nkeep;
	r->cur_first = 0;
	r->cur_data = 0;
	r->nrows = r->rcur = 0;
}

/* The next finished row (raw), or NULL at the end or on an error. */
static struct rowq *
next_raw(struct csvr *r)
{
	if (error_is_set(&r->err))
		return NULL;
	if (r->rcur == r->nrows) {
		compact(r);
		while (r->nrows == 0)
			if (!feed(r) && (r->nrows == 0 || error_is_set(&r->err)))
				return NULL;
	}
	return &r->rows[r->rcur++];
}

static void
unpack(struct csvr *r, struct rowq *q)
{
	if (q->n > r->ocap) {
		r->ocap = q->n;
		r->optr = xreallocarray(r->optr, r->ocap, sizeof(*r->optr));
		r->olen = xreallocarray(r->olen, r->ocap, sizeof(*r->olen));
	}
	for (size_t i = 0; i < q->n; i++) {
		struct fld *f = &r->flds[q->first + i];

		r->optr[i] = f->off == SIZE_MAX ? empty : f->off == FLD_CHUNK ? f->ptr :
		    r->data.p + f->off;
		r->olen[i] = f->len;
	}
	r->orow.line = q->line;
	r->orow.n = q->n;
	r->orow.f = r->optr;
	r->orow.len = r->olen;
}

const struct csvr_row *
csvr_next(struct csvr *r)
{
	struct rowq *q = next_raw(r);

	if (q == NULL)
		return NULL;
	/* Rows queued with the header (a lone CR ends a row too: "h1,h2\rx\n") were
	 * not checked by cb_row. */
	if (q->n != r->ncols) {
		fail(r, q->line, "row has %zu field%s, header has %zu", q->n,
		    q->n == 1 ? "" : "s", r->ncols);
		return NULL;
	}
	unpack(r, q);
	r->nout++;
	return &r->orow;
}

static int
keep_spaces(unsigned char c)
{
	(void)c;
	return 0;
}

struct csvr *
csvr_open_fp(FILE *fp, const char *name, size_t chunk)
{
	struct csvr *r = xcalloc(1, sizeof(*r));
	struct rowq *q;

	r->fp = fp;
	r->name = xstrdup(name);
	r->chunksz = chunk ? chunk : CSVR_CHUNK;
	r->chunk = xmalloc(r->chunksz < 3 ? 3 : r->chunksz);
	r->line = 1;
	r->clean = 1;
	r->u_lo = 0x80;
	r->u_hi = 0xBF;
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		die(EXIT_DATA, "out of memory");
	csv_set_space_func(&r->p, keep_spaces);
	csv_set_blk_size(&r->p, 64 * 1024);
	q = next_raw(r);
	if (q == NULL) {
		fail(r, 1, "empty file: no header");
		r->cols = xmalloc(sizeof(*r->cols));
		return r;
	}
	r->ncols = q->n;
	r->cols = xreallocarray(NULL, q->n ? q->n : 1, sizeof(*r->cols));
	for (size_t i = 0; i < q->n; i++) {
		struct fld *f = &r->flds[q->first + i];

		r->cols[i] = f->off == SIZE_MAX ? xstrdup("") : f->off == FLD_CHUNK ?
		    xstrndup(f->ptr, f->len) : xstrndup(r->data.p + f->off, f->len);
	}
	r->have_header = 1;
	return r;
}

struct csvr *
csvr_open(const char *path)
{
	FILE *fp = io_open(path);
	struct csvr *r = csvr_open_fp(fp, io_name(path), 0);

	r->own = 1;
	return r;
}

void
csvr_close(struct csvr *r)
{
	if (r == NULL)
		return;
	if (r->own)
		io_close(r->fp);
	csv_free(&r->p);
	for (size_t i = 0; i < r->ncols; i++)
		free(r->cols[i]);
	free(r->cols);
	free(r->want);
	free(r->name);
	free(r->chunk);
	buf_free(&r->data);
	free(r->flds);
	free(r->rows);
	free(r->optr);
	free(r->olen);
	error_free(&r->err);
	free(r);
}
