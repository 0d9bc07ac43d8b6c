/* SPDX-License-Identifier: ISC */
/*
 * rec: reading and writing ttp records (NDJSON: one JSON object per line).
 *
 * This is the only module that knows how a record is represented. A record read from
 * input keeps its line text and an index of its top-level keys; values are decoded only
 * when asked for. Changes (set, delete) are kept beside the text and merged when the
 * record is written, so keys a program does not touch pass through byte for byte, in
 * their order, and new keys are appended at the end in the order they were first set.
 * A stage that reads a few keys and adds a few never rebuilds the whole record.
 *
 * Reading: every line is validated as one JSON object (RFC 8259, UTF-8, no NaN/Inf,
 * unique top-level keys, nesting depth bounded); "\r\n" is accepted; blank lines are
 * skipped. Anything else is an error returned to the caller (struct error, core/diag.h:
 * the file, the line and the message), which decides to stop (error_die: "prog:
 * file:line: message", exit 1) or to warn and go on.
 *
 * Typed access is strict, and never ends the process: asking rec_int for a key that
 * holds a string reads it as missing and marks the record bad ("file:line: key \"id\":
 * expected an integer, got a string"; rec_bad). A stage that finds a record it cannot
 * use marks it the same way (rec_reject). The program, once the stage is done with the
 * record, decides what a bad record means: stop (error_die) or warn, count and skip
 * (core/badrec.h). An absent key and a JSON null both read as "missing" (the getters
 * return false/NULL), except for the figure getters (rec_fig, rec_ifig), which read null
 * as NaN.
 */
#ifndef TTP_REC_H
#define TTP_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

struct rec;
struct rec_reader;

enum rec_type {
	REC_ABSENT, REC_NULL, REC_BOOL, REC_INT, REC_REAL, REC_STRING, REC_ARRAY, REC_OBJECT
};

/* --- reading ---------------------------------------------------------------------- */

/* Open a record stream: path "-" or NULL is stdin; gzip is read transparently. */
struct rec_reader *rec_open(const char *path);
/* Open a list of paths in turn (none: stdin). The reader moves to the next at EOF. */
struct rec_reader *rec_open_list(char **paths, int npaths);
/* Next record, or NULL at the end of input or on an error (rec_error tells which). The
 * record belongs to the reader and is valid for the next REC_SLOTS - 1 calls (so that
 * badrec can look ahead); rec_dup it to keep it longer.
 * After a bad line, the next call goes on with the line after it (a program that skips
 * bad records calls again; one that stops does not); after a read error every later
 * call returns NULL. A file that does not open and a read error (a broken gzip stream)
 * are errors of that kind ("file: message"). */
struct rec *rec_next(struct rec_reader *rd);
#define REC_SLOTS	10
/* The error of the last rec_next that returned NULL, or NULL at the end of input. Valid
 * until the next rec_next or rec_close. */
struct error;
const struct error *rec_error(const struct rec_reader *rd);
/* Whether that error ended the input (a read error): no later call returns a record. */
bool rec_error_final(const struct rec_reader *rd);
void rec_close(struct rec_reader *rd);

/* Parse one line (without its newline) as a record; where names it in messages
 * ("file:line", given whole as the error's file). A bad line: NULL and err set (errors
 * as for rec_next). Caller frees with rec_free. */
struct rec *rec_parse(const char *line, size_t len, const char *where,
    struct error *err);

/* --- records ---------------------------------------------------------------------- */

struct rec *rec_new(void);			/* an empty record: {} */
struct rec *rec_dup(const struct rec *r);	/* independent copy, changes included */
void rec_free(struct rec *r);
const char *rec_where(const struct rec *r);	/* "file:line" of the input line, or "-" */

/* --- bad records ----------------------------------------------------------------------- */

/* The first thing found wrong with r (a getter's type error, a rec_reject), or NULL.
 * Valid until r is reset (the reader's next line) or freed; rec_dup copies it. */
const struct error *rec_bad(const struct rec *r);
/* Mark r bad: "file:line: message" at r's place, unless it is bad already (the first
 * error is the one reported). The stage then treats the record as it would a missing
 * value and leaves the decision to the program. */
void rec_reject(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --- reading values (missing = absent or null) ------------------------------------- */

enum rec_type rec_type(struct rec *r, const char *key);
bool rec_has(struct rec *r, const char *key);		/* present and not null */
/* Decoded string, NUL-terminated, owned by the record (valid until it changes or is
 * freed). NULL when missing. If len is not NULL it gets the length (strings may hold
 * NUL bytes from \u0000). */
const char *rec_str(struct rec *r, const char *key, size_t *len);
bool rec_int(struct rec *r, const char *key, long long *v);	/* integers only */
bool rec_num(struct rec *r, const char *key, double *v);	/* integer or real */
bool rec_bool(struct rec *r, const char *key, bool *v);
/*
 * Figures (ttp-record(5)): a figure that does not apply is absent; one
 * that applies but cannot be computed (tt-perf-report's NaN) is null. These read null as
 * NaN and return true, absent as false; rec_set_num writes NaN back as null.
 */
bool rec_fig(struct rec *r, const char *key, double *v);	/* a number or null */
bool rec_ifig(struct rec *r, const char *key, double *v);	/* an integer (|v| < 2^53) or null */
/* An array of strings: each decoded, NUL-terminated, owned by the record as rec_str's
 * are (s[i], len[i], i < n). False when missing; anything but an array of strings is an
 * error about the input. */
struct rec_strv {
	const char	**s;
	size_t		 *len;
	size_t		  n;
};
bool rec_strv(struct rec *r, const char *key, struct rec_strv *v);
/*
 * Inside arrays of objects (a PyTorch op's "in", "kernels"), leniently: what is not there
 * or not of the type asked for reads as missing, not as an error. rec_count: the number
 * of elements of the array key (0 when it is not an array). rec_dims: the integers of
 * key[i].member, an array of at most max of them, into d; their count, or -1. rec_strv_of:
 * the strings key[].member of the elements that have one, owned by the record as
 * rec_strv's are; false when key is not an array.
 */
size_t rec_count(struct rec *r, const char *key);
int rec_dims(struct rec *r, const char *key, size_t i, const char *member, long long *d,
    int max);
bool rec_strv_of(struct rec *r, const char *key, const char *member, struct rec_strv *v);
/*
 * Element by element over an array (a PyTorch op's "in" or "kernels", the trace's
 * "devices"), in one pass and as leniently as rec_dims:
 *
 *	struct rec_elems e;
 *
 *	if (rec_elems(r, "kernels", &e))
 *		while (rec_elem_next(&e))
 *			name = rec_elem_str(&e, "name", NULL);
 *
 * The rec_elem_ getters read member of the current element, an object (or the element
 * itself when member is NULL). A member that is not there, or not of the type asked
 * for, reads as missing (REC_ABSENT, NULL, false, -1), never as an error; where an
 * object repeats a name, the last one counts (as Python's json reads it). An integer
 * beyond long long is a real. Strings are decoded and owned by the record as
 * rec_decode's are. The record must not change during the walk.
 */
struct rec_elems {
	struct rec	*r;
	struct js_span	 s;		/* over the array's text */
	size_t		 k;		/* elements reached */
	size_t		 at;		/* where the current one starts */
	bool		 done;
};
/* Open the array value of key; false (and no elements) when it is not an array. */
bool rec_elems(struct rec *r, const char *key, struct rec_elems *e);
/* To the next element (the first, after rec_elems); false after the last. */
bool rec_elem_next(struct rec_elems *e);
enum rec_type rec_elem_type(struct rec_elems *e, const char *member);
const char *rec_elem_str(struct rec_elems *e, const char *member, size_t *len);
bool rec_elem_int(struct rec_elems *e, const char *member, long long *v);
bool rec_elem_bool(struct rec_elems *e, const char *member, bool *v);
bool rec_elem_num(struct rec_elems *e, const char *member, double *v);	/* int or real */
/* As rec_dims: the integers of an array of at most max of them into d; count or -1. */
int rec_elem_dims(struct rec_elems *e, const char *member, long long *d, int max);
/*
 * A nested value as a tree: its nodes in preorder, the value itself first; each array's
 * elements (an object's member values, names dropped) follow it, a node's next sibling
 * is size nodes on. Owned by the record as rec_decode's strings are; NULL (and *nnodes
 * 0) when missing.
 */
struct rec_node {
	enum rec_type	 type;
	size_t		 n;		/* an array's elements, an object's members */
	size_t		 size;		/* nodes in its subtree, itself included */
	long long	 i;		/* a REC_INT's value */
};
const struct rec_node *rec_elem_tree(struct rec_elems *e, const char *member,
    size_t *nnodes);
/* The value's JSON text as it stands in the record (after changes); NULL if absent. */
const char *rec_raw(struct rec *r, const char *key, size_t *len);

/* Decode a JSON string literal s[0..n) (quotes included; valid JSON, e.g. a piece of a
 * rec_raw text) into memory owned by r, NUL-terminated; it stays valid until the reader
 * moves on or r is freed (changes to r do not free it). If len is not NULL it gets the
 * decoded length. */
const char *rec_decode(struct rec *r, const char *s, size_t n, size_t *len);

/* Iterate over the keys in output order: i from 0 while rec_key returns non-NULL. */
const char *rec_key(struct rec *r, size_t i);

/* --- changing values ---------------------------------------------------------------- */

void rec_set_str(struct rec *r, const char *key, const char *s);
void rec_set_strn(struct rec *r, const char *key, const char *s, size_t len);
void rec_set_int(struct rec *r, const char *key, long long v);
/* A finite double, written in shortest round-trip form; a non-finite one sets null. */
void rec_set_num(struct rec *r, const char *key, double v);
/* A figure that is an integer: written as one when v is integral, else as rec_set_num
 * (NaN: null). */
void rec_set_ifig(struct rec *r, const char *key, double v);
void rec_set_bool(struct rec *r, const char *key, bool v);
void rec_set_null(struct rec *r, const char *key);
/* An array of n strings (len NULL: each NUL-terminated). */
void rec_set_strv(struct rec *r, const char *key, const char *const *s, const size_t *len,
    size_t n);
/* Set a value from JSON text the caller guarantees is valid (e.g. from rec_raw). */
void rec_set_raw(struct rec *r, const char *key, const char *json, size_t len);
void rec_del(struct rec *r, const char *key);

/* --- writing ------------------------------------------------------------------------ */

/* Write the record as one compact line plus "\n". Write errors are handled by io.h
 * (quiet on a closed pipe, one message and exit 1 otherwise). */
void rec_write(struct rec *r, FILE *fp);
/* Append the record's line (with "\n") to a caller's buffer; returns the new length. */
struct buf;
void rec_format(struct rec *r, struct buf *out);
/* Append to out a line that rec_format wrote (len bytes, "\n" included) with members
 * added at the end of its object: members is JSON text "\"k\":v,..." (json.h's writer
 * makes it) for keys the line does not have. For stages that keep lines, not records. */
void rec_line_add(struct buf *out, const char *line, size_t len, const char *members,
    size_t mlen);

/* --- building records ----------------------------------------------------------------- */

/*
 * A record made from scratch, member by member, straight into a buffer: for the readers of
 * trace formats, which make every record (the edit interface above is for stages that
 * change records they read). A member is a key, then one value; values inside arrays and
 * objects are written without keys. Keys given to rec_build_key are the program's own
 * names (plain ASCII, nothing to escape); rec_build_keyn takes any text (e.g. a column
 * name) and escapes it. Strings are escaped as rec_set_str's (invalid UTF-8 becomes
 * U+FFFD); a number is given as its text, which must be a valid JSON number.
 */
struct rec_build {
	struct js_writer w;
};
/* Where a record can be cut back to (rec_build_rewind). */
struct rec_build_mark {
	size_t		 len;
	bool		 comma;
};

void rec_build_begin(struct rec_build *rb, struct buf *b);	/* '{' */
/* More members of a record whose first part is in another buffer (after a member). */
void rec_build_more(struct rec_build *rb, struct buf *b);
void rec_build_end(struct rec_build *rb);			/* '}' and the newline */
/* The hot calls, inline: a key or a string value that is the program's own text
 * (plain ASCII, nothing to escape; a literal's length is known when compiling). */
static inline void
rec_build_plain(struct rec_build *rb, const char *k, size_t n, bool key)
{
	struct buf *b = rb->w.b;
	char *o;

	if (b->cap - b->len < n + 5)
		buf_grow(b, n + 4);
	o = b->p + b->len;
	if (rb->w.comma)
		*o++ = ',';
	*o++ = '"';
	memcpy(o, k, n);
	o += n;
	*o++ = '"';
	if (key)
		*o++ = ':';
	*o = '\0';
	b->len = (size_t)(o - b->p);
	rb->w.comma = !key;
}
static inline void
rec_build_key(struct rec_build *rb, const char *k)
{
	rec_build_plain(rb, k, strlen(k), true);
}
static inline void
rec_build_word(struct rec_build *rb, const char *s)
{
	rec_build_plain(rb, s, strlen(s), false);
}
void rec_build_keyn(struct rec_build *rb, const char *k, size_t n);
void rec_build_str(struct rec_build *rb, const char *s, size_t n);
void rec_build_strz(struct rec_build *rb, const char *s);
void rec_build_int(struct rec_build *rb, long long v);
void rec_build_num(struct rec_build *rb, const char *text, size_t n);
/* JSON text the caller guarantees valid: values (comma-separated in an array) taken from
 * records. */
void rec_build_raw(struct rec_build *rb, const char *json, size_t n);
void rec_build_bool(struct rec_build *rb, bool v);
void rec_build_null(struct rec_build *rb);
void rec_build_array(struct rec_build *rb);
void rec_build_end_array(struct rec_build *rb);
void rec_build_object(struct rec_build *rb);
void rec_build_end_object(struct rec_build *rb);
struct rec_build_mark rec_build_mark(const struct rec_build *rb);
void rec_build_rewind(struct rec_build *rb, struct rec_build_mark m);

#endif
