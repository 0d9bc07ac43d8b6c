/* SPDX-License-Identifier: ISC */
/*
 * json: one JSON scanner, for a streaming tokenizer over a refillable buffer and for text
 * held whole (js_span); string escaping and
 * unescaping, number text, and a compact JSON text builder (see core/json.h).
 *
 * The buffer holds the bytes from the start of the current token on; when a token runs
 * past the bytes read so far, the unread tail moves to the front (the buffer grows only
 * while one token is longer than it, up to the token limit) and more is read. A NUL
 * sentinel after the last byte read stops the scanning loops without a bounds check.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/numfmt.h"

#define CHUNK		(1u << 16)	/* bytes asked from the source at a time */
#define DEF_MAX_TOKEN	(16u << 20)
#define DEF_MAX_DEPTH	256

enum need {
	N_VALUE,		/* a value */
	N_VALUE_OR_CLOSE,	/* after '[' */
	N_KEY_OR_CLOSE,		/* after '{' */
	N_KEY,			/* after ',' in an object */
	N_COLON,		/* after a key */
	N_COMMA_OR_CLOSE,	/* after a member or element */
	N_EOF			/* after the top-level value */
};

struct js_reader {
	js_read_fn	*fn;
	void		*ctx;
	FILE		*fp;		/* js_open_fp */
	const char	*mem;		/* js_open_mem */
	size_t		 memlen, memoff;
	char		*buf;		/* cap + 1 bytes; buf[end] == 0 */
	size_t		 cap, pos, end;
	uint64_t	 base;		/* stream offset of buf[0] */
	int		 eof;
	size_t		 tok_off, tok_len;	/* current token in buf (string: body) */
	enum js_tok	 tok;
	int		 esc;		/* the current string has escapes */
	int		 decoded;	/* js_str already ran on this token */
	enum need	 need;
	int		 depth, max_depth;
	size_t		 max_token;
	char		*stack;		/* 'o' or 'a' per open container */
	uint64_t	 err_off;
	char		 err[160];
	bool		 read_failed;	/* err is the source's read error */
	struct buf	 dec;		/* decoded strings with escapes */
};

/* --- sources -------------------------------------------------------------------------- */

static size_t
read_fp(void *ctx, char *b, size_t n)
{
	struct js_reader *rd = ctx;
	size_t m = fread(b, 1, n, rd->fp);

	if (m == 0 && ferror(rd->fp))
		return (size_t)-1;
	return m;
}

static size_t
read_mem(void *ctx, char *b, size_t n)
{
	struct js_reader *rd = ctx;

	if (n > rd->memlen - rd->memoff)
		n = rd->memlen - rd->memoff;
	memcpy(b, rd->mem + rd->memoff, n);
	rd->memoff += n;
	return n;
}

/* A reader whose buffer starts at cap bytes (it grows as more() needs). */
static struct js_reader *
open_cap(js_read_fn *fn, void *ctx, size_t cap)
{
	struct js_reader *rd = xcalloc(1, sizeof(*rd));

	rd->fn = fn;
	rd->ctx = ctx;
	rd->cap = cap;
	rd->buf = xmalloc(rd->cap + 1);
	rd->buf[0] = '\0';
	rd->max_token = DEF_MAX_TOKEN;
	rd->max_depth = DEF_MAX_DEPTH;
	rd->stack = xmalloc((size_t)rd->max_depth + 1);
	rd->need = N_VALUE;
	rd->tok = JS_END;
	return rd;
}

struct js_reader *
js_open(js_read_fn *fn, void *ctx)
{
	return open_cap(fn, ctx, CHUNK * 4);
}

struct js_reader *
js_open_fp(FILE *fp)
{
	struct js_reader *rd = js_open(read_fp, NULL);

	rd->ctx = rd;
	rd->fp = fp;
	return rd;
}

struct js_reader *
js_open_mem(const char *p, size_t n)
{
	/* short texts (a record's value) without a 256 KiB buffer each */
	struct js_reader *rd = open_cap(read_mem, NULL, n < CHUNK * 4 ? n + 1 : CHUNK * 4);

	rd->ctx = rd;
	rd->mem = p;
	rd->memlen = n;
	return rd;
}

void
js_close(struct js_reader *rd)
{
	if (rd == NULL)
		return;
	free(rd->buf);
	free(rd->stack);
	buf_free(&rd->dec);
	free(rd);
}

void
js_set_limits(struct js_reader *rd, size_t max_token, int max_depth)
{
	if (max_token > 0)
		rd->max_token = max_token;
	if (max_depth > 0 && max_depth >= rd->depth) {
		rd->stack = xrealloc(rd->stack, (size_t)max_depth + 1);
		rd->max_depth = max_depth;
	}
}

/* --- errors ----------------------------------------------------------------------------- */

static enum js_tok __attribute__((format(printf, 3, 4)))
fail(struct js_reader *rd, size_t at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
	va_end(ap);
	rd->err_off = rd->base + at;
	rd->tok = JS_ERROR;
	return JS_ERROR;
}

/* A value cannot start with these: named in the message. */
static const char *
bad_word(const char *p, size_t i, size_t end)
{
	static const char *words[] = { "NaN", "Infinity", "-Infinity", "nan", "inf", "-inf" };
	size_t k, n;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		n = strlen(words[k]);
		if (end - i >= n && memcmp(p + i, words[k], n) == 0)
			return words[k];
	}
	return NULL;
}

/*
 * The message for an unexpected byte p[i] (or the end, i >= end) where expected was
 * wanted: "expected X, got 'c'", "... got byte 0xNN", "unexpected end of EOI, expected X",
 * or "NaN is not a JSON value".
 */
static void
msg_unexpected(char *err, size_t sz, const char *p, size_t i, size_t end,
    const char *expected, const char *eoi)
{
	unsigned char c = (unsigned char)p[i];
	const char *w;

	if (i >= end)
		snprintf(err, sz, "unexpected end of %s, expected %s", eoi, expected);
	else if (strncmp(expected, "a value", 7) == 0 && (w = bad_word(p, i, end)) != NULL)
		snprintf(err, sz, "%s is not a JSON value", w);
	else if (c > 0x20 && c < 0x7f)
		snprintf(err, sz, "expected %s, got '%c'", expected, c);
	else
		snprintf(err, sz, "expected %s, got byte 0x%02x", expected, c);
}

static int need_bytes(struct js_reader *rd, size_t *i, size_t *keep, size_t n);

static enum js_tok
unexpected(struct js_reader *rd, size_t i, const char *expected)
{
	msg_unexpected(rd->err, sizeof(rd->err), rd->buf, i, rd->end, expected, "input");
	rd->err_off = rd->base + i;
	rd->tok = JS_ERROR;
	return JS_ERROR;
}

/*
 * More input: keep buf[keep..end), move it to the front, read. Returns the shift (how far
 * indexes into buf moved down), 0 with rd->eof set at the end of input, or (size_t)-1 on
 * an error (already recorded).
 */
static size_t
more(struct js_reader *rd, size_t keep)
{
	size_t shift = keep, n, want;

	if (rd->eof)
		return 0;
	if (keep > 0) {
		memmove(rd->buf, rd->buf + keep, rd->end - keep);
		rd->end -= keep;
		rd->base += keep;
		rd->tok_off = rd->tok_off >= keep ? rd->tok_off - keep : 0;
	}
	if (rd->cap - rd->end < CHUNK) {
		if (rd->end > rd->max_token + 8) {
			fail(rd, 0, "token longer than %zu bytes", rd->max_token);
			return (size_t)-1;
		}
		rd->cap = rd->cap * 2;
		rd->buf = xrealloc(rd->buf, rd->cap + 1);
	}
	want = rd->cap - rd->end;
	n = rd->fn(rd->ctx, rd->buf + rd->end, want);
	if (n == (size_t)-1) {
		fail(rd, rd->end, "%s", rd->fp != NULL ? io_strerror(rd->fp, errno) :
		    strerror(errno));
		rd->read_failed = true;
		return (size_t)-1;
	}
	if (n == 0)
		rd->eof = 1;
	rd->end += n;
	rd->buf[rd->end] = '\0';
	return shift;
}

/*
 * Make sure buf[*i] is a byte of input (not the sentinel), reading more when needed;
 * keep is the first byte to keep (the token start). Adjusts *i and *keep. Returns 1 when a
 * byte is there, 0 at the end of input, -1 on error.
 */
static int
avail(struct js_reader *rd, size_t *i, size_t *keep)
{
	size_t s;

	while (*i >= rd->end) {
		if (rd->eof)
			return 0;
		s = more(rd, *keep);
		if (s == (size_t)-1)
			return -1;
		*i -= s;
		*keep -= s;
	}
	return 1;
}

/* --- scanning ------------------------------------------------------------------------- */

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static long
hex4(const char *p)
{
	long v = 0;
	int k, h;

	for (k = 0; k < 4; k++) {
		if ((h = hexval((unsigned char)p[k])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

size_t
js_utf8_len(const unsigned char *p, size_t i, size_t len)
{
	unsigned c = p[i];
	size_t n, k;
	unsigned lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (len - i < n)
		return 0;
	if (p[i + 1] < lo || p[i + 1] > hi)
		return 0;
	for (k = 2; k < n; k++)
		if (p[i + k] < 0x80 || p[i + k] > 0xbf)
			return 0;
	return n;
}

/* Byte classes inside strings: 0 plain, 1 '"', 2 '\\', 3 control, 4 non-ASCII. */
static const unsigned char sclass[256] = {
	3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3, 3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,
	0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
	0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,
	0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
	4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4, 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,
	4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4, 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,
	4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4, 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,
	4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4, 4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,
};

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL
#define HASZERO(v)	(((v) - ONES) & ~(v) & HIGHS)

/*
 * The scanners below are the one JSON scanner: the tokenizer (text arriving in pieces)
 * and js_span (text held whole) both call them. Each works on p[0..end) with a NUL at
 * p[end] (the loops stop there unchecked) and returns 1 when it scanned its piece
 * (*ip past it), 0 when the text ends inside it and more may follow (only when not
 * final; *ip is where to go on once more is there: earlier bytes are checked), or -1
 * on an error (the message in err, *ip at the bad byte).
 */

/* A string's body from *ip (past the opening quote, or where an earlier call stopped) to
 * past its closing quote; *esc is set when it holds escapes. */
static int
str_body(const char *s, size_t end, int final, size_t *ip, int *esc, char *err, size_t sz)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = *ip, n;
	long u, u2;

	for (;;) {
		/* The plain run, eight bytes at a time while possible. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		while (i + 8 <= end) {
			uint64_t v, m;

			memcpy(&v, p + i, 8);
			m = HASZERO(v ^ (ONES * '"')) | HASZERO(v ^ (ONES * '\\')) |
			    ((v - ONES * 0x20) & ~v & HIGHS) | (v & HIGHS);
			if (m != 0) {
				i += (size_t)__builtin_ctzll(m) >> 3;
				goto special;
			}
			i += 8;
		}
#endif
		while (sclass[p[i]] == 0)
			i++;
special:
		switch (sclass[p[i]]) {
		case 1:
			*ip = i + 1;
			return 1;
		case 2:
			if (end - i < 2)
				goto short_;
			*esc = 1;
			switch (p[i + 1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
			case 't':
				i += 2;
				continue;
			case 'u':
				break;
			default:
				*ip = i;
				snprintf(err, sz, "invalid escape in a string");
				return -1;
			}
			if (end - i < 6 && !final)
				goto short_;
			/* hex4 stops at the first non-hex byte: the sentinel at the latest */
			if ((u = hex4(s + i + 2)) < 0) {
				*ip = i;
				snprintf(err, sz, "invalid \\u escape in a string");
				return -1;
			}
			if (u >= 0xd800 && u <= 0xdbff) {
				if (end - i < 12 && !final)
					goto short_;
				if (p[i + 6] != '\\' || p[i + 7] != 'u' ||
				    (u2 = hex4(s + i + 8)) < 0xdc00 || u2 > 0xdfff)
					goto lone;
				i += 6;
			} else if (u >= 0xdc00 && u <= 0xdfff)
				goto lone;
			i += 6;
			continue;
lone:
			*ip = i;
			snprintf(err, sz, "lone surrogate \\u%04lX in a string", u);
			return -1;
		case 3:
			if (i >= end)
				goto short_;
			*ip = i;
			snprintf(err, sz, "control character 0x%02x in a string", p[i]);
			return -1;
		default:
			if (end - i < 4 && !final)
				goto short_;
			if ((n = js_utf8_len(p, i, end)) == 0) {
				*ip = i;
				snprintf(err, sz, "invalid UTF-8 in a string");
				return -1;
			}
			i += n;
		}
	}
short_:
	*ip = i;
	if (!final)
		return 0;
	snprintf(err, sz, "unterminated string");
	return -1;
}

static inline bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number at *ip ('-' or a digit); *real is set when it has a fraction or an exponent.
 * One too large for a double (1e400) is an error. */
static int
num_body(const char *p, size_t end, int final, size_t *ip, bool *real, char *err,
    size_t sz, const char *eoi)
{
	size_t i = *ip, start = i, intdig = 0;
	long ex = 0;
	int expneg = 0;

	*real = false;
	if (p[i] == '-')
		i++;
	if (p[i] == '0')
		i++;
	else if (digit(p[i]))
		while (digit(p[i])) {
			i++;
			intdig++;
		}
	else
		goto nodigit;
	if (p[i] == '.') {
		*real = true;
		if (!digit(p[++i]))
			goto nodigit;
		while (digit(p[i]))
			i++;
	}
	if (p[i] == 'e' || p[i] == 'E') {
		*real = true;
		i++;
		if (p[i] == '+' || p[i] == '-')
			expneg = p[i++] == '-';
		if (!digit(p[i]))
			goto nodigit;
		while (digit(p[i])) {
			if (ex < 100000)
				ex = ex * 10 + (p[i] - '0');
			i++;
		}
	}
	if (i >= end && !final)
		return 0;
	if (digit(p[i])) {
		*ip = start;
		snprintf(err, sz, "invalid number (leading zero)");
		return -1;
	}
	if (intdig > 300 || (!expneg && (long)intdig + ex > 300)) {
		/* might overflow a double: look at it closely */
		char tmp[64], *q = tmp, *big = NULL;
		double d;

		if (i - start >= sizeof(tmp))
			q = big = xmalloc(i - start + 1);
		memcpy(q, p + start, i - start);
		q[i - start] = '\0';
		d = strtod(q, NULL);
		free(big);
		if (isinf(d)) {
			*ip = start;
			snprintf(err, sz, "number out of range");
			return -1;
		}
	}
	*ip = i;
	return 1;
nodigit:
	*ip = i;
	/* more may follow, or "-Infinity" (named in the message) */
	if (!final && (i >= end || (i == start + 1 && end - start < 9)))
		return 0;
	if (i == start + 1 && bad_word(p, start, end) != NULL) {
		*ip = start;
		msg_unexpected(err, sz, p, start, end, "a value", eoi);
	} else
		msg_unexpected(err, sz, p, i, end, "a digit", eoi);
	return -1;
}

/* The string whose '"' is at buf[start]; on success the token is its body. */
static enum js_tok
scan_string(struct js_reader *rd, size_t start, enum js_tok kind)
{
	size_t i = start + 1, keep = start, s;
	int r;

	rd->esc = 0;
	while ((r = str_body(rd->buf, rd->end, rd->eof, &i, &rd->esc, rd->err,
	    sizeof(rd->err))) == 0) {
		if (i - keep > rd->max_token)
			return fail(rd, keep, "string longer than %zu bytes", rd->max_token);
		if ((s = more(rd, keep)) == (size_t)-1)
			return JS_ERROR;
		i -= s;
		keep -= s;
	}
	if (r < 0) {
		rd->err_off = rd->base + (i >= rd->end ? keep : i);	/* unterminated: its start */
		return rd->tok = JS_ERROR;
	}
	rd->tok_off = keep + 1;
	rd->tok_len = i - keep - 2;
	rd->pos = i;
	rd->tok = kind;
	rd->decoded = 0;
	if (rd->tok_len + 2 > rd->max_token)
		return fail(rd, keep, "string longer than %zu bytes", rd->max_token);
	return kind;
}

static enum js_tok
scan_number(struct js_reader *rd, size_t start)
{
	size_t i = start, keep = start, s;
	bool real;
	int r;

	while ((r = num_body(rd->buf, rd->end, rd->eof, &i, &real, rd->err, sizeof(rd->err),
	    "input")) == 0) {
		if (i - keep > 4096)
			return fail(rd, keep, "number longer than 4096 bytes");
		if ((s = more(rd, keep)) == (size_t)-1)
			return JS_ERROR;
		keep -= s;
		i = keep;	/* numbers are short: scan it again */
	}
	if (r < 0) {
		rd->err_off = rd->base + i;
		return rd->tok = JS_ERROR;
	}
	if (i - keep > 4096)
		return fail(rd, keep, "number longer than 4096 bytes");
	rd->tok_off = keep;
	rd->tok_len = i - keep;
	rd->pos = i;
	rd->tok = JS_NUMBER;
	return JS_NUMBER;
}

/* Ensure n bytes from *i are read (fewer only at the end of input). */
static int
need_bytes(struct js_reader *rd, size_t *i, size_t *keep, size_t n)
{
	size_t s;

	while (rd->end - *i < n && !rd->eof) {
		s = more(rd, *keep);
		if (s == (size_t)-1)
			return -1;
		*i -= s;
		*keep -= s;
	}
	return rd->end - *i >= n;
}

/* Not a value at buf[i]: NaN and the like by name (read far enough for them), a literal
 * misspelt, or the byte. */
static enum js_tok
bad_value(struct js_reader *rd, size_t i)
{
	size_t keep = i;
	const char *e = rd->need == N_VALUE_OR_CLOSE ? "a value or ']'" : "a value";

	if (need_bytes(rd, &i, &keep, 9) < 0)
		return JS_ERROR;
	if (bad_word(rd->buf, i, rd->end) == NULL && strchr("tfn", rd->buf[i]) != NULL &&
	    i < rd->end)
		return fail(rd, i, "bad literal (expected %s)", rd->buf[i] == 't' ? "true" :
		    rd->buf[i] == 'f' ? "false" : "null");
	return unexpected(rd, i, e);
}

static enum js_tok
scan_literal(struct js_reader *rd, size_t start, const char *word, enum js_tok t)
{
	size_t i = start, keep = start, n = strlen(word);
	int r;

	if ((r = need_bytes(rd, &i, &keep, n)) < 0)
		return JS_ERROR;
	if (r == 0 || memcmp(rd->buf + i, word, n) != 0)
		return bad_value(rd, i);
	rd->tok_off = i;
	rd->tok_len = n;
	rd->pos = i + n;
	rd->tok = t;
	return t;
}

/* After a complete value: what comes next. */
static void
after_value(struct js_reader *rd)
{
	rd->need = rd->depth == 0 ? N_EOF : N_COMMA_OR_CLOSE;
}

static enum js_tok
open_container(struct js_reader *rd, size_t i, char kind)
{
	if (rd->depth >= rd->max_depth)
		return fail(rd, i, "nesting deeper than %d", rd->max_depth);
	rd->stack[rd->depth++] = kind;
	rd->tok_off = i;
	rd->tok_len = 1;
	rd->pos = i + 1;
	rd->need = kind == 'o' ? N_KEY_OR_CLOSE : N_VALUE_OR_CLOSE;
	rd->tok = kind == 'o' ? JS_OBJECT : JS_ARRAY;
	return rd->tok;
}

static enum js_tok
close_container(struct js_reader *rd, size_t i)
{
	char kind = rd->stack[--rd->depth];

	rd->tok_off = i;
	rd->tok_len = 1;
	rd->pos = i + 1;
	after_value(rd);
	rd->tok = kind == 'o' ? JS_OBJECT_END : JS_ARRAY_END;
	return rd->tok;
}

static enum js_tok
scan_value(struct js_reader *rd, size_t i)
{
	enum js_tok t;

	switch (rd->buf[i]) {
	case '{':
		return open_container(rd, i, 'o');
	case '[':
		return open_container(rd, i, 'a');
	case '"':
		t = scan_string(rd, i, JS_STRING);
		break;
	case 't':
		t = scan_literal(rd, i, "true", JS_TRUE);
		break;
	case 'f':
		t = scan_literal(rd, i, "false", JS_FALSE);
		break;
	case 'n':
		t = scan_literal(rd, i, "null", JS_NULL);
		break;
	case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6':
	case '7': case '8': case '9':
		t = scan_number(rd, i);
		break;
	default:
		return bad_value(rd, i);
	}
	if (t != JS_ERROR)
		after_value(rd);
	return t;
}

/* What the grammar expects next, for messages. */
static const char *
expecting(const struct js_reader *rd)
{
	bool obj = rd->depth > 0 && rd->stack[rd->depth - 1] == 'o';

	switch (rd->need) {
	case N_VALUE_OR_CLOSE:
		return "a value or ']'";
	case N_KEY_OR_CLOSE:
		return "a string (member name) or '}'";
	case N_KEY:
		return "a string (member name)";
	case N_COLON:
		return "':'";
	case N_COMMA_OR_CLOSE:
		return obj ? "',' or '}'" : "',' or ']'";
	default:
		return "a value";
	}
}

enum js_tok
js_next(struct js_reader *rd)
{
	size_t i, keep;
	const char *p;
	int r;

	if (rd->tok == JS_ERROR)
		return JS_ERROR;
	i = rd->pos;
	for (;;) {
		p = rd->buf;
		while (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t')
			i++;
		if (i >= rd->end) {
			/* drop what was read: nothing before i is needed any more */
			keep = i;
			if ((r = avail(rd, &i, &keep)) < 0)
				return JS_ERROR;
			if (r == 0) {
				if (rd->need == N_EOF) {
					rd->pos = i;
					rd->tok_off = i;
					rd->tok_len = 0;
					return rd->tok = JS_END;
				}
				if (rd->base + i == 0)
					return fail(rd, i, "unexpected end of input "
					    "(empty document)");
				return unexpected(rd, i, expecting(rd));
			}
			continue;
		}
		switch (rd->need) {
		case N_EOF:
			return fail(rd, i, "content after the end of the document");
		case N_COLON:
			if (p[i] != ':')
				return unexpected(rd, i, "':'");
			i++;
			rd->need = N_VALUE;
			continue;
		case N_COMMA_OR_CLOSE:
			if (p[i] == ',') {
				i++;
				rd->need = rd->stack[rd->depth - 1] == 'o' ? N_KEY : N_VALUE;
				continue;
			}
			if (p[i] == (rd->stack[rd->depth - 1] == 'o' ? '}' : ']'))
				return close_container(rd, i);
			return unexpected(rd, i, expecting(rd));
		case N_KEY_OR_CLOSE:
			if (p[i] == '}')
				return close_container(rd, i);
			/* FALLTHROUGH */
		case N_KEY:
			if (p[i] != '"')
				return unexpected(rd, i, expecting(rd));
			if (scan_string(rd, i, JS_KEY) == JS_ERROR)
				return JS_ERROR;
			rd->need = N_COLON;
			return JS_KEY;
		case N_VALUE_OR_CLOSE:
			if (p[i] == ']')
				return close_container(rd, i);
			/* FALLTHROUGH */
		case N_VALUE:
			return scan_value(rd, i);
		}
	}
}

/*
 * Skip bytes until the container open at depth target + 1 closes: brackets are matched
 * and strings are scanned (escapes, control characters), nothing else is looked at, so
 * skipping costs little more than reading.
 */
static enum js_tok
raw_skip(struct js_reader *rd, int target)
{
	size_t i = rd->pos, keep;
	const unsigned char *p;
	int r, instr = 0;
	char want;

	for (;;) {
		p = (const unsigned char *)rd->buf;
		if (instr) {
			while (sclass[p[i]] == 0 || sclass[p[i]] == 4)
				i++;
			if (i >= rd->end)
				goto refill;
			if (p[i] == '"') {
				instr = 0;
				i++;
			} else if (p[i] == '\\') {
				keep = i;
				if ((r = need_bytes(rd, &i, &keep, 2)) < 0)
					return JS_ERROR;
				if (r == 0)
					return fail(rd, i, "unterminated string");
				i += 2;
			} else
				return fail(rd, i, "control character 0x%02x in string", p[i]);
			continue;
		}
		while (p[i] != '"' && p[i] != '{' && p[i] != '}' && p[i] != '[' &&
		    p[i] != ']' && p[i] != '\0')
			i++;
		switch (p[i]) {
		case '"':
			instr = 1;
			i++;
			continue;
		case '{':
		case '[':
			if (rd->depth >= rd->max_depth)
				return fail(rd, i, "nesting deeper than %d", rd->max_depth);
			rd->stack[rd->depth++] = p[i] == '{' ? 'o' : 'a';
			i++;
			continue;
		case '}':
		case ']':
			want = rd->stack[rd->depth - 1] == 'o' ? '}' : ']';
			if (p[i] != want)
				return unexpected(rd, i, want == '}' ? "'}'" : "']'");
			if (rd->depth - 1 == target)
				return close_container(rd, i);
			rd->depth--;
			i++;
			continue;
		}
		if (i < rd->end)
			return fail(rd, i, "NUL byte outside a string");
refill:
		keep = i;
		if ((r = avail(rd, &i, &keep)) < 0)
			return JS_ERROR;
		if (r == 0)
			return unexpected(rd, i, instr ? "'\"'" : rd->stack[rd->depth - 1] == 'o' ?
			    "'}'" : "']'");
	}
}

enum js_tok
js_skip(struct js_reader *rd)
{
	enum js_tok t = rd->tok;

	if (t != JS_OBJECT && t != JS_ARRAY)
		return t;
	return raw_skip(rd, rd->depth - 1);
}

enum js_tok
js_skip_rest(struct js_reader *rd)
{
	if (rd->tok == JS_ERROR)
		return JS_ERROR;
	if (rd->depth == 0)
		return fail(rd, rd->pos, "js_skip_rest outside a container");
	/* after a key, its value is skipped with the rest */
	return raw_skip(rd, rd->depth - 1);
}

/* Append the current scalar's JSON text (a string with its quotes). */
static void
capture_tok(struct js_reader *rd, struct buf *out)
{
	if (rd->tok == JS_STRING || rd->tok == JS_KEY) {
		buf_grow(out, rd->tok_len + 2);
		out->p[out->len++] = '"';
		memcpy(out->p + out->len, rd->buf + rd->tok_off, rd->tok_len);
		out->len += rd->tok_len;
		out->p[out->len++] = '"';
		out->p[out->len] = '\0';
	} else
		buf_add(out, rd->buf + rd->tok_off, rd->tok_len);
}

enum js_tok
js_capture(struct js_reader *rd, struct buf *out)
{
	int d;
	enum js_tok t = rd->tok;
	enum js_tok prev;

	capture_tok(rd, out);
	if (t != JS_OBJECT && t != JS_ARRAY)
		return t;
	d = rd->depth - 1;
	prev = t;
	do {
		t = js_next(rd);
		if (t == JS_ERROR)
			return t;
		if (prev != JS_OBJECT && prev != JS_ARRAY && prev != JS_KEY &&
		    t != JS_OBJECT_END && t != JS_ARRAY_END)
			buf_addc(out, ',');
		capture_tok(rd, out);
		if (t == JS_KEY)
			buf_addc(out, ':');
		prev = t;
	} while (rd->depth > d);
	return t;
}

/* --- text held whole ---------------------------------------------------------------- */

void
js_span_init(struct js_span *s, const char *p, size_t len)
{
	s->p = p;
	s->len = len;
	s->i = 0;
	s->max_depth = DEF_MAX_DEPTH;
	s->eoi = "input";
	s->esc = 0;
	s->real = false;
	s->err_at = 0;
	s->err[0] = '\0';
}

enum js_tok
js_span_unexpected(struct js_span *s, const char *expected)
{
	s->err_at = s->i;
	msg_unexpected(s->err, sizeof(s->err), s->p, s->i, s->len, expected, s->eoi);
	return JS_ERROR;
}

enum js_tok
js_span_string_all(struct js_span *s)
{
	size_t start = s->i++;
	int esc = 0;

	if (str_body(s->p, s->len, 1, &s->i, &esc, s->err, sizeof(s->err)) < 0) {
		s->err_at = s->i >= s->len ? start : s->i;	/* unterminated: its start */
		return JS_ERROR;
	}
	s->esc = esc;
	return JS_STRING;
}

enum js_tok
js_span_number_all(struct js_span *s)
{
	if (num_body(s->p, s->len, 1, &s->i, &s->real, s->err, sizeof(s->err), s->eoi) < 0) {
		s->err_at = s->i;
		return JS_ERROR;
	}
	return JS_NUMBER;
}

static enum js_tok
span_literal(struct js_span *s, const char *word, size_t n, enum js_tok t)
{
	if (s->len - s->i < n || memcmp(s->p + s->i, word, n) != 0) {
		if (bad_word(s->p, s->i, s->len) != NULL)
			return js_span_unexpected(s, "a value");
		s->err_at = s->i;
		snprintf(s->err, sizeof(s->err), "bad literal (expected %s)", word);
		return JS_ERROR;
	}
	s->i += n;
	return t;
}

/*
 * Any value at s->i, containers iteratively on a bounded stack. Returns the type of the
 * value (its first token). The NUL at p[len] matches none of the bytes looked for, so
 * the end needs no test of its own.
 */
enum js_tok
js_span_value(struct js_span *s, int depth)
{
	char stack[JS_SPAN_MAXDEPTH + 1];
	int d = 0, max = s->max_depth < JS_SPAN_MAXDEPTH ? s->max_depth : JS_SPAN_MAXDEPTH;
	enum js_tok type = JS_ERROR, t;
	const char *p = s->p;

value:
	js_span_ws(s);
	switch (p[s->i]) {
	case '"':
		t = js_span_string(s);
		break;
	case '{':
	case '[':
		if (depth + d + 1 > max) {
			s->err_at = s->i;
			snprintf(s->err, sizeof(s->err), "nesting deeper than %d", max);
			return JS_ERROR;
		}
		if (d == 0)
			type = p[s->i] == '{' ? JS_OBJECT : JS_ARRAY;
		stack[d++] = p[s->i++];
		js_span_ws(s);
		if (stack[d - 1] == '{') {
			if (p[s->i] == '}') {
				s->i++;
				d--;
				goto after;
			}
			goto key;
		}
		if (p[s->i] == ']') {
			s->i++;
			d--;
			goto after;
		}
		goto value;
	case 't':
		t = span_literal(s, "true", 4, JS_TRUE);
		break;
	case 'f':
		t = span_literal(s, "false", 5, JS_FALSE);
		break;
	case 'n':
		t = span_literal(s, "null", 4, JS_NULL);
		break;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		t = js_span_number(s);
		break;
	default:
		return js_span_unexpected(s, "a value");
	}
	if (t == JS_ERROR)
		return JS_ERROR;
	if (d == 0)
		type = t;
after:
	while (d > 0) {
		js_span_ws(s);
		if (p[s->i] == ',') {
			s->i++;
			if (stack[d - 1] == '{') {
				js_span_ws(s);
				goto key;
			}
			goto value;
		}
		if (p[s->i] == (stack[d - 1] == '{' ? '}' : ']')) {
			s->i++;
			d--;
			continue;
		}
		return js_span_unexpected(s, stack[d - 1] == '{' ? "',' or '}'" : "',' or ']'");
	}
	return type;

key:
	if (p[s->i] != '"')
		return js_span_unexpected(s, "a string (member name)");
	if (js_span_string(s) == JS_ERROR)
		return JS_ERROR;
	js_span_ws(s);
	if (p[s->i] != ':')
		return js_span_unexpected(s, "':'");
	s->i++;
	goto value;
}

/* --- the current token ------------------------------------------------------------------ */

enum js_tok
js_tok(const struct js_reader *rd)
{
	return rd->tok;
}

const char *
js_text(const struct js_reader *rd, size_t *len)
{
	if (len != NULL)
		*len = rd->tok_len;
	return rd->buf + rd->tok_off;
}

const char *
js_str(struct js_reader *rd, size_t *len)
{
	if (rd->tok != JS_STRING && rd->tok != JS_KEY)
		return NULL;
	if (!rd->esc) {
		/* the closing quote was consumed: it becomes the NUL */
		rd->buf[rd->tok_off + rd->tok_len] = '\0';
		if (len != NULL)
			*len = rd->tok_len;
		return rd->buf + rd->tok_off;
	}
	if (!rd->decoded) {
		buf_reset(&rd->dec);
		buf_grow(&rd->dec, rd->tok_len + 1);
		rd->dec.len = js_unescape(rd->dec.p, rd->buf + rd->tok_off, rd->tok_len);
		rd->decoded = 1;
	}
	if (len != NULL)
		*len = rd->dec.len;
	return rd->dec.p;
}

bool
js_is(struct js_reader *rd, const char *s)
{
	size_t n = strlen(s), m;
	const char *t;

	if (rd->tok != JS_STRING && rd->tok != JS_KEY)
		return false;
	if (!rd->esc)
		return rd->tok_len == n && memcmp(rd->buf + rd->tok_off, s, n) == 0;
	t = js_str(rd, &m);
	return m == n && memcmp(t, s, n) == 0;
}

int
js_depth(const struct js_reader *rd)
{
	return rd->depth;
}

uint64_t
js_offset(const struct js_reader *rd)
{
	if (rd->tok == JS_ERROR)
		return rd->err_off;
	/* a string token's text starts after its quote */
	if (rd->tok == JS_STRING || rd->tok == JS_KEY)
		return rd->base + rd->tok_off - 1;
	return rd->base + rd->tok_off;
}

bool
js_read_failed(const struct js_reader *rd)
{
	return rd->read_failed;
}

const char *
js_error(const struct js_reader *rd)
{
	return rd->tok == JS_ERROR ? rd->err : "";
}

/* --- text helpers ----------------------------------------------------------------------- */

static size_t
put_utf8(char *o, unsigned long u)
{
	if (u < 0x80) {
		o[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = (char)(0xc0 | (u >> 6));
		o[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		o[0] = (char)(0xe0 | (u >> 12));
		o[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		o[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (u >> 18));
	o[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	o[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

size_t
js_unescape(char *o, const char *p, size_t n)
{
	size_t i = 0, k = 0;
	unsigned long u, u2;

	while (i < n) {
		if (p[i] != '\\') {
			o[k++] = p[i++];
			continue;
		}
		switch (p[i + 1]) {
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'u':
			u = (unsigned long)hex4(p + i + 2);
			if (u >= 0xd800 && u <= 0xdbff && i + 12 <= n) {
				u2 = (unsigned long)hex4(p + i + 8);
				u = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
				i += 6;
			}
			k += put_utf8(o + k, u);
			i += 6;
			continue;
		default: o[k++] = p[i + 1]; break;
		}
		i += 2;
	}
	o[k] = '\0';
	return k;
}

void
js_escape(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	char *o;

	/* at most 6 bytes out per byte in (\u00XX; U+FFFD is 3 for 1) */
	buf_grow(b, n * 6 + 2);
	o = b->p + b->len;
	*o++ = '"';
	while (i < n) {
		/* Eight plain ASCII bytes at a time: none below 0x20 or above 0x7f, no '"'
		 * or '\\' (a byte that might be one ends the run; the loop below decides). */
		size_t run = i;

		while (run + 8 <= n) {
			uint64_t v, m;

			memcpy(&v, s + run, 8);
			m = ((v - 0x2020202020202020ULL) & ~v) |
			    (((v ^ 0x2222222222222222ULL) - 0x0101010101010101ULL) &
			    ~(v ^ 0x2222222222222222ULL)) |
			    (((v ^ 0x5c5c5c5c5c5c5c5cULL) - 0x0101010101010101ULL) &
			    ~(v ^ 0x5c5c5c5c5c5c5c5cULL)) | v;
			if ((m & 0x8080808080808080ULL) != 0)
				break;
			run += 8;
		}
		if (run > i) {
			memcpy(o, s + i, run - i);
			o += run - i;
			i = run;
			if (i >= n)
				break;
		}
		if (sclass[p[i]] == 0) {
			*o++ = (char)p[i++];
			continue;
		}
		if (p[i] >= 0x80) {
			if ((k = js_utf8_len(p, i, n)) == 0) {
				memcpy(o, "\xef\xbf\xbd", 3);
				o += 3;
				i++;
			} else {
				memcpy(o, s + i, k);
				o += k;
				i += k;
			}
			continue;
		}
		*o++ = '\\';
		switch (p[i]) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\b': *o++ = 'b'; break;
		case '\f': *o++ = 'f'; break;
		case '\n': *o++ = 'n'; break;
		case '\r': *o++ = 'r'; break;
		case '\t': *o++ = 't'; break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[p[i] >> 4];
			*o++ = hex[p[i] & 15];
		}
		i++;
	}
	*o++ = '"';
	*o = '\0';
	b->len = (size_t)(o - b->p);
}

size_t
js_number_len(const char *p, size_t n)
{
	size_t i = 0, j;

	if (i < n && p[i] == '-')
		i++;
	if (i >= n || !digit(p[i]))
		return 0;
	if (p[i] == '0')
		i++;
	else
		while (i < n && digit(p[i]))
			i++;
	if (i + 1 < n && p[i] == '.' && digit(p[i + 1])) {
		i += 2;
		while (i < n && digit(p[i]))
			i++;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		j = i + 1;
		if (j < n && (p[j] == '+' || p[j] == '-'))
			j++;
		if (j < n && digit(p[j])) {
			while (j < n && digit(p[j]))
				j++;
			i = j;
		}
	}
	return i;
}

bool
js_number_int(const char *p, size_t n, long long *v)
{
	unsigned long long u = 0, lim;
	size_t i = 0;
	bool neg = false;

	if (n == 0 || js_number_len(p, n) != n)
		return false;
	if (p[0] == '-') {
		neg = true;
		i++;
	}
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
	for (; i < n; i++) {
		if (!digit(p[i]))
			return false;
		if (u > (lim - (unsigned)(p[i] - '0')) / 10)
			return false;
		u = u * 10 + (unsigned)(p[i] - '0');
	}
	*v = neg ? (long long)(0 - u) : (long long)u;
	return true;
}

/* --- building JSON text ----------------------------------------------------------------- */

void
js_w_init(struct js_writer *w, struct buf *b)
{
	w->b = b;
	w->comma = false;
}

static inline void
sep(struct js_writer *w)
{
	if (w->comma)
		buf_addc(w->b, ',');
	w->comma = true;
}

void
js_w_object(struct js_writer *w)
{
	sep(w);
	buf_addc(w->b, '{');
	w->comma = false;
}

void
js_w_array(struct js_writer *w)
{
	sep(w);
	buf_addc(w->b, '[');
	w->comma = false;
}

void
js_w_end_object(struct js_writer *w)
{
	buf_addc(w->b, '}');
	w->comma = true;
}

void
js_w_end_array(struct js_writer *w)
{
	buf_addc(w->b, ']');
	w->comma = true;
}

void
js_w_key(struct js_writer *w, const char *k)
{
	sep(w);
	js_escape(w->b, k, strlen(k));
	buf_addc(w->b, ':');
	w->comma = false;
}

void
js_w_str(struct js_writer *w, const char *s, size_t n)
{
	sep(w);
	js_escape(w->b, s, n);
}

void
js_w_strz(struct js_writer *w, const char *s)
{
	js_w_str(w, s, strlen(s));
}

void
js_w_int(struct js_writer *w, long long v)
{
	char tmp[32];

	sep(w);
	buf_add(w->b, tmp, num_int(tmp, v, 0));
}

void
js_w_real(struct js_writer *w, double v)
{
	char tmp[NUM_BUFSZ];

	sep(w);
	if (!isfinite(v))
		buf_add(w->b, "null", 4);
	else
		buf_add(w->b, tmp, num_shortest(tmp, v));
}

void
js_w_bool(struct js_writer *w, bool v)
{
	sep(w);
	buf_adds(w->b, v ? "true" : "false");
}

void
js_w_null(struct js_writer *w)
{
	sep(w);
	buf_adds(w->b, "null");
}

void
js_w_raw(struct js_writer *w, const char *json, size_t n)
{
	sep(w);
	buf_add(w->b, json, n);
}
