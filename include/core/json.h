/* SPDX-License-Identifier: ISC */
/*
 * json: JSON text in and out, for documents of any size.
 *
 * Reading is a pull tokenizer over a refillable buffer: js_next returns one token at a
 * time (the document is never held whole), checks the grammar of RFC 8259 as it goes
 * (commas, colons, nesting, string escapes, UTF-8, number syntax, literals, nothing after
 * the top-level value) and keeps only the current token in memory, so a document larger
 * than memory reads in bounded space. A token longer than the token limit (default 16 MiB)
 * or nesting deeper than the depth limit (default 256) is an error, not an allocation.
 * Errors are returned (JS_ERROR) with a message and the byte offset in the decompressed
 * stream; the caller decides what to do with them.
 *
 * Number tokens keep their exact text (js_text); nothing is converted unless asked.
 * String tokens (values and keys) are available raw (the text between the quotes, escapes
 * as written) or decoded (js_str); the decoded text is NUL-terminated and may hold NUL
 * bytes from \u0000.
 *
 * Text already held whole (a record's line) is scanned by the same code without tokens or
 * refills (js_span: one value at a time, validated as above; the record module's reader).
 *
 * Writing: js_escape appends a string as a JSON string literal (invalid UTF-8 becomes
 * U+FFFD, control characters are escaped); a js_writer builds compact JSON text (arrays,
 * objects, strings, integers, exact number text, null) into a buf with the commas and
 * colons in place. The record module (core/rec.h) takes such text with rec_set_raw.
 */
#ifndef TTP_JSON_H
#define TTP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct buf;

enum js_tok {
	JS_END,		/* end of input after the complete document */
	JS_ERROR,	/* see js_error / js_offset; every later call returns JS_ERROR */
	JS_OBJECT,	/* '{' */
	JS_OBJECT_END,	/* '}' */
	JS_ARRAY,	/* '[' */
	JS_ARRAY_END,	/* ']' */
	JS_KEY,		/* a member name (a string); its value is the next token */
	JS_STRING,
	JS_NUMBER,
	JS_TRUE,
	JS_FALSE,
	JS_NULL
};

struct js_reader;

/*
 * Reads up to n bytes into buf; returns how many, 0 at end of input, or (size_t)-1 on a
 * read error (errno set). A source that reports its own errors (core/io.h) may just
 * never return -1.
 */
typedef size_t js_read_fn(void *ctx, char *buf, size_t n);

struct js_reader *js_open(js_read_fn *fn, void *ctx);
struct js_reader *js_open_fp(FILE *fp);			/* fp stays the caller's */
struct js_reader *js_open_mem(const char *p, size_t n);	/* p must outlive the reader */
void js_close(struct js_reader *rd);

/* Limits: the longest token in bytes (raw, quotes included) and the deepest nesting. */
void js_set_limits(struct js_reader *rd, size_t max_token, int max_depth);

enum js_tok js_next(struct js_reader *rd);
/* After JS_OBJECT or JS_ARRAY: consume the rest of that container, up to and including its
 * end; returns its end token, or JS_ERROR. After any other token: nothing, returns it.
 * Skipped text is checked only for matching brackets and well-formed strings. */
enum js_tok js_skip(struct js_reader *rd);
/* Inside a container: consume the rest of it, up to and including its end (after a key,
 * its value too); returns the end token, or JS_ERROR. Skipped text is checked only for
 * matching brackets and well-formed strings, not for the rest of the grammar. */
enum js_tok js_skip_rest(struct js_reader *rd);
/* After any token that starts a value (JS_OBJECT, JS_ARRAY or a scalar): append the value as
 * compact JSON text (white space dropped, strings and numbers as written) to out; returns
 * the token that ended it (its last token), or JS_ERROR. */
enum js_tok js_capture(struct js_reader *rd, struct buf *out);

/* The current token. Valid until the next js_next/js_skip/js_capture. */
enum js_tok js_tok(const struct js_reader *rd);
/* Raw text: a number's exact text; a string's or key's body between the quotes. */
const char *js_text(const struct js_reader *rd, size_t *len);
/* A string's or key's decoded text, NUL-terminated (NULL for other tokens). */
const char *js_str(struct js_reader *rd, size_t *len);
/* Whether the current string or key equals s exactly (decoded). */
bool js_is(struct js_reader *rd, const char *s);
/* Nesting depth after the current token: 0 at top level, 1 inside the top-level value... */
int js_depth(const struct js_reader *rd);
/* Byte offset in the input of the current token's first byte (or of the error). */
uint64_t js_offset(const struct js_reader *rd);
/* After JS_ERROR: what is wrong ("expected ',' or '}', got 'x'"). */
const char *js_error(const struct js_reader *rd);
/* Whether that error is the source's read error ("truncated gzip data", an I/O error,
 * the text io_strerror gives for js_open_fp's stream), not the text's: no offset applies. */
bool js_read_failed(const struct js_reader *rd);

/* --- text held whole ---------------------------------------------------------------- */

/*
 * The same scanner over text already in memory (a record's line), without tokens or
 * refills: each call scans from s->i and leaves s->i past what it scanned; on JS_ERROR,
 * s->err says what is wrong at byte s->err_at. p[len] must be a NUL byte (the scanning
 * loops stop at it); a NUL byte before it is an error.
 */
#define JS_SPAN_MAXDEPTH	1024

struct js_span {
	const char	*p;
	size_t		 len, i;
	int		 max_depth;	/* deepest nesting (default 256, at most 1024) */
	const char	*eoi;		/* the end's name in messages (default "input") */
	int		 esc;		/* the last string held escapes */
	bool		 real;		/* the last number had a fraction or an exponent */
	size_t		 err_at;
	char		 err[160];
};

void js_span_init(struct js_span *s, const char *p, size_t len);
/* Skip white space. */
static inline void
js_span_ws(struct js_span *s)
{
	const char *p = s->p;
	size_t i = s->i;

	while (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')
		i++;
	s->i = i;
}
/* A string at s->i (its '"'): JS_STRING, s->esc set when it holds escapes. */
static inline enum js_tok js_span_string(struct js_span *s);
/* A number at s->i ('-' or a digit): JS_NUMBER, s->real set; one beyond a double's
 * range (1e400) is an error. */
static inline enum js_tok js_span_number(struct js_span *s);
/* Any value at s->i (white space first), depth the nesting around it: its type (JS_OBJECT,
 * JS_ARRAY, JS_STRING, JS_NUMBER, JS_TRUE, JS_FALSE or JS_NULL) or JS_ERROR. */
enum js_tok js_span_value(struct js_span *s, int depth);
/* Record an "expected X, got Y" error at s->i; returns JS_ERROR. */
enum js_tok js_span_unexpected(struct js_span *s, const char *expected);

/* --- text helpers --------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p[i] (p[i] >= 0x80, at most len bytes), or 0. */
size_t js_utf8_len(const unsigned char *p, size_t i, size_t len);
/* Append s[0..n) as a JSON string literal, quotes included. */
void js_escape(struct buf *b, const char *s, size_t n);
/* Decode a valid string body p[0..n) (between the quotes) into out, which has room for n + 1
 * bytes; returns the decoded length and NUL-terminates. */
size_t js_unescape(char *out, const char *p, size_t n);
/* Length of the JSON number at the start of p[0..n) (the longest prefix that is one), or 0. */
size_t js_number_len(const char *p, size_t n);
/* p[0..n) as an integer when it is exactly a JSON integer within long long; else false. */
bool js_number_int(const char *p, size_t n, long long *v);

/* --- building JSON text ------------------------------------------------------------------ */

struct js_writer {
	struct buf	*b;
	bool		 comma;		/* the next member or element needs a ',' first */
};

void js_w_init(struct js_writer *w, struct buf *b);	/* appends to b from its length */
void js_w_object(struct js_writer *w);
void js_w_array(struct js_writer *w);
void js_w_end_object(struct js_writer *w);
void js_w_end_array(struct js_writer *w);
void js_w_key(struct js_writer *w, const char *k);		/* then exactly one value */
void js_w_str(struct js_writer *w, const char *s, size_t n);
void js_w_strz(struct js_writer *w, const char *s);
void js_w_int(struct js_writer *w, long long v);
/* A double in shortest round-trip form (core/numfmt.h's num_shortest, as rec_set_num
 * writes it); a non-finite one is null. */
void js_w_real(struct js_writer *w, double v);
void js_w_bool(struct js_writer *w, bool v);
void js_w_null(struct js_writer *w);
/* A value given as valid compact JSON text (a number's exact text, a captured value). */
void js_w_raw(struct js_writer *w, const char *json, size_t n);

/* --- js_span's fast paths (short plain strings, plain numbers), inline --------------- */

enum js_tok js_span_string_all(struct js_span *s);	/* the general cases */
enum js_tok js_span_number_all(struct js_span *s);

static inline enum js_tok
js_span_string(struct js_span *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	size_t i = s->i + 1;
	uint64_t v, q, b, m;

	while (i + 8 <= s->len) {
		memcpy(&v, s->p + i, 8);
		q = v ^ (ones * '"');
		b = v ^ (ones * '\\');
		/* a '"', a '\\', a control byte or a non-ASCII byte */
		m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((v - ones * 0x20) & ~v) | v;
		m &= highs;
		if (m != 0) {
			i += (size_t)__builtin_ctzll(m) >> 3;
			if (s->p[i] == '"') {
				s->esc = 0;
				s->i = i + 1;
				return JS_STRING;
			}
			break;
		}
		i += 8;
	}
#endif
	return js_span_string_all(s);
}

static inline enum js_tok
js_span_number(struct js_span *s)
{
	const char *p = s->p;
	size_t i = s->i + (p[s->i] == '-');
	bool real = false;

	/* an integer part without a leading zero, an optional fraction, no exponent */
	if (p[i] == '0')
		i++;
	else if (p[i] >= '1' && p[i] <= '9')
		while (p[++i] >= '0' && p[i] <= '9')
			;
	else
		return js_span_number_all(s);
	if (p[i] == '.' && p[i + 1] >= '0' && p[i + 1] <= '9') {
		real = true;
		i += 2;
		while (p[i] >= '0' && p[i] <= '9')
			i++;
	}
	if (p[i] == 'e' || p[i] == 'E' || p[i] == '.' || (p[i] >= '0' && p[i] <= '9') ||
	    i - s->i >= 300)
		return js_span_number_all(s);
	s->real = real;
	s->i = i;
	return JS_NUMBER;
}

#endif
