/* SPDX-License-Identifier: ISC */
/*
 * rec: the record module. It owns the representation of a ttp record (one NDJSON line)
 * and everything about reading, validating, querying, changing and writing records.
 *
 * Representation. A record keeps its line text as read and an index of its top-level
 * keys: for each, the key span, the value span and the value's type, built in one pass
 * over the line by json.c's scanner (js_span: the same one that tokenizes documents,
 * over text held whole); this module keeps only the record's logic (keys, their index,
 * duplicates, whether the line is compact). Lookups go
 * through a small hash table over the decoded keys. Values are decoded only when asked
 * for, into a per-record arena whose memory never moves, so every pointer the getters
 * return stays valid until the record is reset (the reader's next line) or freed.
 *
 * Changes (set, delete) are kept in a list beside the text. Writing merges them: the
 * original keys come first in their order, each with its original bytes unless changed
 * (a deleted one is dropped, a deleted-then-set one keeps its place); keys that were not
 * in the line follow in the order they were first set (a new key that is deleted and
 * set again goes to the end). Output is compact: {"k":v,...}. An untouched value is
 * written with its original bytes (inner whitespace included), so a compact input line
 * comes back byte for byte, minus leading/trailing whitespace and the "\r" of "\r\n".
 *
 * Numbers: a JSON integer that fits in long long is REC_INT; a bigger one reads as
 * REC_REAL for rec_type/rec_num and is an error for rec_int. A number too big for a
 * double (1e400) is an error on read ("number out of range").
 *
 * Strings set by a program are written with '"', '\\' and control characters escaped
 * (\b \f \n \r \t, others \u00XX); UTF-8 is kept as is; invalid UTF-8 in a set string
 * is replaced by U+FFFD so that the output is always valid JSON.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/numfmt.h"
#include "core/rec.h"

#define REC_MAXDEPTH	1000	/* nesting levels, the record's own object included */

/* --- arena: bump allocation in blocks that never move ------------------------------ */

struct ablk {
	struct ablk	*next;
	size_t		 cap, used;
	char		 data[];
};

struct arena {
	struct ablk	*head;
};

static void *
arena_alloc(struct arena *a, size_t n)
{
	struct ablk *b = a->head;
	size_t cap;

	n = (n + 7) & ~(size_t)7;
	if (b == NULL || b->cap - b->used < n) {
		cap = b == NULL ? 4096 : b->cap * 2;
		if (cap > (1 << 20))
			cap = 1 << 20;
		if (cap < n)
			cap = n;
		b = xmalloc(sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

/* Keep the newest block, free the others. */
static void
arena_reset(struct arena *a)
{
	struct ablk *b, *next;

	if (a->head == NULL)
		return;
	for (b = a->head->next; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	a->head->next = NULL;
	a->head->used = 0;
}

static void
arena_free(struct arena *a)
{
	struct ablk *b, *next;

	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

static char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* --- the record ----------------------------------------------------------------- */

/* Scanner types; T_BIGINT is an integer that does not fit in long long. */
enum { T_NULL = 1, T_BOOL, T_INT, T_REAL, T_STRING, T_ARRAY, T_OBJECT };

struct field {
	const char	*key;		/* decoded key (into text, or arena when escaped) */
	size_t		 klen;
	size_t		 kofs, kraw;	/* key span in text, quotes included */
	size_t		 vofs, vlen;	/* value span in text */
	unsigned	 hash;
	unsigned char	 type;
	unsigned char	 vesc;		/* string value holds escapes */
	int		 chg;		/* index of its change, or -1 */
	const char	*dec;		/* cached decoded string value, or NULL */
	size_t		 declen;
	const char	*kdec;		/* NUL-terminated key, made by rec_key */
};

struct change {
	char		*key;		/* decoded key, NUL-terminated (arena) */
	size_t		 klen;
	char		*val;		/* JSON text (arena) */
	size_t		 vlen, vcap;
	int		 field;		/* original field index, or -1 for a new key */
	unsigned char	 type;
	unsigned char	 del;		/* deleted */
	unsigned char	 dead;		/* a new key that was deleted: ignored */
	const char	*dec;		/* cached decoded string value */
	size_t		 declen;
};

struct rec {
	const char	*text;		/* the line (the reader's buffer, or owned) */
	size_t		 len;
	char		*owned;		/* text when the record owns it */
	size_t		 ostart, oend;	/* the object's span: '{' .. past '}' */
	int		 compact;	/* no whitespace between top-level tokens */
	struct field	*f;
	size_t		 nf, fcap;
	unsigned	*ht;		/* field index + 1, open addressing */
	size_t		 htcap;
	struct change	*ch;
	size_t		 nch, chcap;
	size_t		 nlive;		/* changes that add a new key (not dead) */
	size_t		 ndel;		/* changes that delete an original key */
	struct arena	 ar;
	/* where: name + line for reader records, or a fixed string */
	const char	*wname;
	long		 wline;
	char		*wfixed;
	char		*wbuf;
	size_t		 wcap;
	struct buf	 out;		/* line being formatted */
	struct error	 bad;		/* the first thing found wrong with it (rec_bad) */
};

struct rec_reader {
	char		**paths;
	int		  npaths, next;
	int		  owned;	/* paths is ours (rec_open) */
	FILE		 *fp;
	const char	 *name;
	long		  line;
	/* REC_SLOTS records, each with its own line buffer, used in turn: a record stays
	 * valid for the next REC_SLOTS - 1 calls (badrec's look-ahead) */
	char		 *buf[REC_SLOTS];
	size_t		  bufcap[REC_SLOTS];
	struct rec	  rec[REC_SLOTS];
	unsigned	  slot;		/* the slot of the last call */
	struct error	  err;		/* the error of the last rec_next */
	int		  fatal;	/* ... a read error: the input ends there */
};

static const char *type_names[] = {
	"nothing", "null", "a boolean", "an integer", "a real number", "a string",
	"an array", "an object"
};

/* A word-at-a-time multiplicative hash (keys are short; FNV's byte chain was slow). */
static unsigned
hash_bytes(const char *s, size_t n)
{
	uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ULL, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		s += 8;
		n -= 8;
	}
	if (n > 0) {
		w = 0;
		while (n > 0)
			w = (w << 8) | (unsigned char)s[--n];
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	h ^= h >> 32;
	return (unsigned)h;
}

const char *
rec_where(const struct rec *r)
{
	struct rec *w = (struct rec *)r;
	size_t n;

	if (r->wfixed != NULL)
		return r->wfixed;
	if (r->wname == NULL)
		return "-";
	n = strlen(r->wname);
	if (w->wcap < n + 1 + NUM_INTSZ) {
		w->wbuf = xrealloc(w->wbuf, n + 1 + NUM_INTSZ);
		w->wcap = n + 1 + NUM_INTSZ;
	}
	/* "%s:%ld" without printf: this runs once a record in some programs */
	memcpy(w->wbuf, r->wname, n);
	w->wbuf[n] = ':';
	num_int(w->wbuf + n + 1, r->wline, 0);
	return w->wbuf;
}

void
rec_reject(struct rec *r, const char *fmt, ...)
{
	va_list ap;

	if (error_is_set(&r->bad))
		return;
	va_start(ap, fmt);
	if (r->wfixed != NULL)
		error_vset(&r->bad, r->wfixed, 0, -1, fmt, ap);
	else
		error_vset(&r->bad, r->wname != NULL ? r->wname : "-", r->wline, -1, fmt, ap);
	va_end(ap);
}

const struct error *
rec_bad(const struct rec *r)
{
	return error_is_set(&r->bad) ? &r->bad : NULL;
}

/* --- scanning: json.c's scanner over the line ---------------------------------------- */

/* Bad input in r's line, returned: err gets r's place (as rec_where names it) and the
 * message; -1 for rec_index to return. */
static int __attribute__((format(printf, 3, 4)))
rec_fail(const struct rec *r, struct error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (r->wfixed != NULL)
		error_vset(err, r->wfixed, 0, -1, fmt, ap);
	else
		error_vset(err, r->wname != NULL ? r->wname : "-", r->wline, -1, fmt, ap);
	va_end(ap);
	return -1;
}

/* A scanning error: "not JSON: what at column N" (a NUL byte: "NUL byte in record"). */
static int
span_fail(const struct rec *r, const struct js_span *s, struct error *err)
{
	if (s->err_at < s->len && s->p[s->err_at] == '\0')
		return rec_fail(r, err, "NUL byte in record");
	return rec_fail(r, err, "not JSON: %s at column %zu", s->err, s->err_at + 1);
}

/* The record type of a value js_span scanned. */
static int
span_type(const struct js_span *s, enum js_tok t)
{
	switch (t) {
	case JS_OBJECT: return T_OBJECT;
	case JS_ARRAY: return T_ARRAY;
	case JS_STRING: return T_STRING;
	case JS_NUMBER: return s->real ? T_REAL : T_INT;
	case JS_TRUE: case JS_FALSE: return T_BOOL;
	default: return T_NULL;
	}
}

/* --- decoding strings ----------------------------------------------------------- */

static const char *
decode_str(struct arena *a, const char *raw, size_t rawlen, int esc, size_t *outlen)
{
	char *o;

	/* raw includes the quotes */
	if (!esc) {
		o = arena_strndup(a, raw + 1, rawlen - 2);
		*outlen = rawlen - 2;
		return o;
	}
	o = arena_alloc(a, rawlen - 1);
	*outlen = js_unescape(o, raw + 1, rawlen - 2);
	return o;
}

/* --- building the index ------------------------------------------------------- */

static void
ht_clear(struct rec *r, size_t want)
{
	size_t cap = 64;

	while (cap < want * 2)
		cap *= 2;
	if (cap != r->htcap) {
		free(r->ht);
		r->ht = xcalloc(cap, sizeof(*r->ht));
		r->htcap = cap;
	} else
		memset(r->ht, 0, cap * sizeof(*r->ht));
}

/* Insert field fi; returns the index of an existing field with the same key, or -1. */
static long
ht_insert(struct rec *r, size_t fi)
{
	struct field *f = &r->f[fi], *g;
	size_t mask = r->htcap - 1, h = f->hash & mask;

	while (r->ht[h] != 0) {
		g = &r->f[r->ht[h] - 1];
		if (g->hash == f->hash && g->klen == f->klen &&
		    memcmp(g->key, f->key, f->klen) == 0)
			return (long)(r->ht[h] - 1);
		h = (h + 1) & mask;
	}
	r->ht[h] = (unsigned)fi + 1;
	return -1;
}

static void
ht_rebuild(struct rec *r)
{
	size_t i;

	ht_clear(r, r->nf + 1);
	for (i = 0; i < r->nf; i++)
		(void)ht_insert(r, i);
}

static struct field *
field_find(struct rec *r, const char *key, size_t klen, unsigned h)
{
	struct field *g;
	size_t mask, i;

	if (r->nf == 0)
		return NULL;
	mask = r->htcap - 1;
	for (i = h & mask; r->ht[i] != 0; i = (i + 1) & mask) {
		g = &r->f[r->ht[i] - 1];
		if (g->hash == h && g->klen == klen && memcmp(g->key, key, klen) == 0)
			return g;
	}
	return NULL;
}

/* Forget the record's contents, keep its memory. */
static void
rec_reset(struct rec *r)
{
	r->nf = 0;
	r->nch = 0;
	r->nlive = 0;
	r->ndel = 0;
	r->compact = 1;
	r->ostart = r->oend = 0;
	arena_reset(&r->ar);
	if (r->bad.msg != NULL)
		error_free(&r->bad);
}

/* The line does not open an object: what it is instead, in the message. -1. */
static int
not_object(const struct rec *r, struct js_span *s, struct error *err)
{
	if (r->wline == 1 && memmem(s->p, s->len, "OP CODE", 7) != NULL)
		return rec_fail(r, err, "a TT-Metal ops CSV, not ttp records: run "
		    "ttp-parse first (ttp-parse FILE | %s), or ttp-report FILE",
		    getprogname());
	if (strchr("[\"-0123456789tfn", s->p[s->i]) != NULL)
		return rec_fail(r, err, "record is not a JSON object");
	js_span_unexpected(s, "'{'");
	return span_fail(r, s, err);
}

/* A key that the record has already: its name in the message, control characters,
 * quotes and backslashes escaped, at most about 200 bytes of it. -1. */
static int
dup_fail(const struct rec *r, const struct field *f, struct error *err)
{
	char msg[300];
	size_t k, o = 0;

	for (k = 0; k < f->klen && o < 200; k++) {
		unsigned char c = (unsigned char)f->key[k];

		if (c < 0x20 || c == '"' || c == '\\')
			o += (size_t)snprintf(msg + o, sizeof(msg) - o, "\\u%04x", c);
		else
			msg[o++] = (char)c;
	}
	msg[o] = '\0';
	return rec_fail(r, err, "duplicate key \"%s\"", msg);
}

/* White space at s, skipped: a line that has some is not compact. */
static inline void
skip_ws(struct rec *r, struct js_span *s)
{
	size_t ws = s->i;

	js_span_ws(s);
	if (s->i != ws)
		r->compact = 0;
}

/* The member at s, "key": value, as r's next field. 0, or -1 for bad input (err). */
static inline int
index_member(struct rec *r, struct js_span *s, struct error *err)
{
	struct field *f;
	size_t ks, kend, ws;
	enum js_tok t;

	if (s->i >= s->len || s->p[s->i] != '"') {
		js_span_unexpected(s, "a string (member name)");
		return span_fail(r, s, err);
	}
	ks = s->i;
	if (js_span_string(s) == JS_ERROR)
		return span_fail(r, s, err);
	kend = s->i;
	r->f = xgrow(r->f, &r->fcap, r->nf + 1, sizeof(*r->f));
	f = &r->f[r->nf];
	f->kofs = ks;
	f->kraw = kend - ks;
	if (s->esc)
		f->key = decode_str(&r->ar, s->p + ks, kend - ks, 1, &f->klen);
	else {
		f->key = s->p + ks + 1;
		f->klen = kend - ks - 2;
	}
	f->hash = hash_bytes(f->key, f->klen);
	f->chg = -1;
	f->dec = NULL;
	f->kdec = NULL;
	ws = s->i;
	js_span_ws(s);
	if (s->i >= s->len || s->p[s->i] != ':') {
		js_span_unexpected(s, "':'");
		return span_fail(r, s, err);
	}
	s->i++;
	js_span_ws(s);
	if (s->i != ws + 1)
		r->compact = 0;
	f->vofs = s->i;
	/* scalars first, the rest through the general scanner */
	s->esc = 0;
	if (s->p[s->i] == '"')
		t = js_span_string(s);
	else if (s->p[s->i] >= '0' && s->p[s->i] <= '9')
		t = js_span_number(s);
	else
		t = js_span_value(s, 1);
	if (t == JS_ERROR)
		return span_fail(r, s, err);
	f->type = (unsigned char)span_type(s, t);
	f->vesc = (unsigned char)(t == JS_STRING && s->esc);
	f->vlen = s->i - f->vofs;
	if (r->nf * 2 + 2 > r->htcap)
		ht_rebuild(r);
	if (ht_insert(r, r->nf) >= 0)
		return dup_fail(r, f, err);
	r->nf++;
	return 0;
}

/*
 * Index the line text[0..len) into r (already reset, text set). Returns 0 for a blank
 * line, 1 for a record, -1 for bad input (err set).
 */
static int
rec_index(struct rec *r, struct error *err)
{
	struct js_span s;

	js_span_init(&s, r->text, r->len);
	s.max_depth = REC_MAXDEPTH;
	s.eoi = "line";
	js_span_ws(&s);
	if (s.i >= s.len)
		return 0;
	if (s.p[s.i] != '{')
		return not_object(r, &s, err);
	r->ostart = s.i++;
	ht_clear(r, 0);
	skip_ws(r, &s);
	if (s.i < s.len && s.p[s.i] == '}') {
		s.i++;
		goto done;
	}
	for (;;) {
		if (index_member(r, &s, err) < 0)
			return -1;
		skip_ws(r, &s);
		if (s.i < s.len && s.p[s.i] == ',') {
			s.i++;
			skip_ws(r, &s);
			continue;
		}
		if (s.i < s.len && s.p[s.i] == '}') {
			s.i++;
			break;
		}
		js_span_unexpected(&s, "',' or '}'");
		return span_fail(r, &s, err);
	}
done:
	r->oend = s.i;
	js_span_ws(&s);
	if (s.i < s.len) {
		js_span_unexpected(&s, "the end of the line");
		return span_fail(r, &s, err);
	}
	return 1;
}

/* --- reading ------------------------------------------------------------------- */

static void
rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->compact = 1;
	r->bad = (struct error)ERROR_INIT;
}

static void
rec_fini(struct rec *r)
{
	free(r->owned);
	free(r->f);
	free(r->ht);
	free(r->ch);
	arena_free(&r->ar);
	free(r->wfixed);
	free(r->wbuf);
	buf_free(&r->out);
	error_free(&r->bad);
}

struct rec_reader *
rec_open_list(char **paths, int npaths)
{
	struct rec_reader *rd = xcalloc(1, sizeof(*rd));
	size_t i;

	rd->paths = paths;
	rd->npaths = npaths;
	rd->err = (struct error)ERROR_INIT;
	for (i = 0; i < REC_SLOTS; i++)
		rec_init(&rd->rec[i]);
	return rd;
}

struct rec_reader *
rec_open(const char *path)
{
	struct rec_reader *rd = rec_open_list(NULL, 0);

	if (path != NULL) {
		rd->paths = xmalloc(sizeof(char *));
		rd->paths[0] = xstrdup(path);
		rd->npaths = 1;
		rd->owned = 1;
	}
	return rd;
}

/* Open the next input; false when there is none. */
static int
reader_advance(struct rec_reader *rd)
{
	const char *path;

	if (rd->fp != NULL) {
		io_close(rd->fp);
		rd->fp = NULL;
	}
	if (rd->npaths == 0 ? rd->next > 0 : rd->next >= rd->npaths)
		return 0;
	path = rd->npaths == 0 ? NULL : rd->paths[rd->next];
	rd->next++;
	rd->name = io_name(path);
	rd->line = 0;
	if ((rd->fp = io_open_error(path, &rd->err)) == NULL) {
		rd->fatal = 1;
		return 0;
	}
	return 1;
}

struct rec *
rec_next(struct rec_reader *rd)
{
	struct rec *r;
	unsigned k;
	ssize_t n;
	char save;
	int st;

	if (rd->fatal)
		return NULL;
	error_free(&rd->err);
	k = rd->slot = (rd->slot + 1) % REC_SLOTS;
	r = &rd->rec[k];
	for (;;) {
		if (rd->fp == NULL && !reader_advance(rd))
			return NULL;
		errno = 0;
		n = getline(&rd->buf[k], &rd->bufcap[k], rd->fp);
		if (n < 0) {
			if (ferror(rd->fp)) {
				error_set(&rd->err, rd->name, 0, -1, "%s",
				    io_strerror(rd->fp, errno));
				rd->fatal = 1;
				return NULL;
			}
			if (!reader_advance(rd))
				return NULL;
			continue;
		}
		rd->line++;
		rec_reset(r);
		r->text = rd->buf[k];
		r->len = (size_t)n;
		if (n > 0 && rd->buf[k][n - 1] == '\n')
			r->len--;
		r->wname = rd->name;
		r->wline = rd->line;
		/* the scanner's sentinel; the newline goes back for rec_write */
		save = rd->buf[k][r->len];
		rd->buf[k][r->len] = '\0';
		st = rec_index(r, &rd->err);
		rd->buf[k][r->len] = save;
		if (st < 0)
			return NULL;
		if (st > 0)
			return r;
	}
}

const struct error *
rec_error(const struct rec_reader *rd)
{
	return error_is_set(&rd->err) ? &rd->err : NULL;
}

bool
rec_error_final(const struct rec_reader *rd)
{
	return rd->fatal;
}

void
rec_close(struct rec_reader *rd)
{
	size_t i;

	if (rd == NULL)
		return;
	if (rd->fp != NULL)
		io_close(rd->fp);
	if (rd->owned) {
		free(rd->paths[0]);
		free(rd->paths);
	}
	for (i = 0; i < REC_SLOTS; i++) {
		rec_fini(&rd->rec[i]);
		free(rd->buf[i]);
	}
	error_free(&rd->err);
	free(rd);
}

struct rec *
rec_parse(const char *line, size_t len, const char *where, struct error *err)
{
	struct rec *r = xmalloc(sizeof(*r));

	rec_init(r);
	r->owned = xmalloc(len + 1);
	memcpy(r->owned, line, len);
	r->owned[len] = '\0';
	r->text = r->owned;
	r->len = len;
	r->wfixed = xstrdup(where != NULL ? where : "-");
	switch (rec_index(r, err)) {
	case -1:
		rec_free(r);
		return NULL;
	case 0:
		/* A blank line is the empty record. */
		r->ostart = r->oend = 0;
		break;
	}
	return r;
}

/* --- records --------------------------------------------------------------------- */

struct rec *
rec_new(void)
{
	struct rec *r = xmalloc(sizeof(*r));

	rec_init(r);
	r->text = "";
	return r;
}

static void change_copy(struct rec *to, const struct change *c);

struct rec *
rec_dup(const struct rec *r)
{
	struct error err = ERROR_INIT;
	struct rec *d;
	size_t i;

	/* the text parsed before: an error here would be this module's own */
	if ((d = rec_parse(r->text, r->len, rec_where(r), &err)) == NULL)
		error_die(&err);
	for (i = 0; i < r->nch; i++)
		change_copy(d, &r->ch[i]);
	if (error_is_set(&r->bad))
		error_set(&d->bad, r->bad.file, r->bad.line, r->bad.off, "%s", r->bad.msg);
	return d;
}

void
rec_free(struct rec *r)
{
	if (r == NULL)
		return;
	rec_fini(r);
	free(r);
}

/* --- lookup ---------------------------------------------------------------------- */

/* The value of key: either a field (untouched) or a change. */
struct val {
	struct field	*f;
	struct change	*c;
	const char	*p;	/* JSON text */
	size_t		 len;
	int		 type;
};

static struct change *
change_find_new(struct rec *r, const char *key, size_t klen)
{
	size_t i;

	if (r->nlive == 0)
		return NULL;
	for (i = 0; i < r->nch; i++) {
		struct change *c = &r->ch[i];
		if (c->field < 0 && !c->dead && c->klen == klen &&
		    memcmp(c->key, key, klen) == 0)
			return c;
	}
	return NULL;
}

/* Find key; returns false when absent (deleted counts as absent). */
static int
lookup(struct rec *r, const char *key, struct val *v)
{
	size_t klen = strlen(key);
	struct field *f;
	struct change *c;

	v->f = NULL;
	v->c = NULL;
	if ((f = field_find(r, key, klen, hash_bytes(key, klen))) != NULL) {
		if (f->chg < 0) {
			v->f = f;
			v->p = r->text + f->vofs;
			v->len = f->vlen;
			v->type = f->type;
			return 1;
		}
		c = &r->ch[f->chg];
	} else if ((c = change_find_new(r, key, klen)) == NULL)
		return 0;
	if (c->del)
		return 0;
	v->c = c;
	v->p = c->val;
	v->len = c->vlen;
	v->type = c->type;
	return 1;
}

/* Parse an integer's text; false if it does not fit in long long. */
static int
parse_ll(const char *p, size_t n, long long *out)
{
	unsigned long long v = 0, lim;
	size_t i = 0;
	int neg = 0;

	if (n > 0 && p[0] == '-') {
		neg = 1;
		i = 1;
	}
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
	for (; i < n; i++) {
		unsigned d = (unsigned)(p[i] - '0');
		if (v > (lim - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	if (neg)
		*out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
	else
		*out = (long long)v;
	return 1;
}

static double
parse_double(const char *p, size_t n)
{
	char tmp[64], *q = tmp, *big = NULL;
	double d;

	if (n >= sizeof(tmp))
		q = big = xmalloc(n + 1);
	memcpy(q, p, n);
	q[n] = '\0';
	d = strtod(q, NULL);
	free(big);
	return d;
}

/* The public type: T_INT that does not fit reads as REC_REAL. */
static enum rec_type
pub_type(const struct val *v)
{
	long long ll;

	switch (v->type) {
	case T_NULL: return REC_NULL;
	case T_BOOL: return REC_BOOL;
	case T_INT:
		if (v->len < 19 || parse_ll(v->p, v->len, &ll))
			return REC_INT;
		return REC_REAL;
	case T_REAL: return REC_REAL;
	case T_STRING: return REC_STRING;
	case T_ARRAY: return REC_ARRAY;
	default: return REC_OBJECT;
	}
}

enum rec_type
rec_type(struct rec *r, const char *key)
{
	struct val v;

	if (!lookup(r, key, &v))
		return REC_ABSENT;
	return pub_type(&v);
}

bool
rec_has(struct rec *r, const char *key)
{
	struct val v;

	return lookup(r, key, &v) && v.type != T_NULL;
}

/* Marks r bad; the getter then reads key as missing. */
static void
wrong_type(struct rec *r, const char *key, const char *want, const struct val *v)
{
	rec_reject(r, "key \"%s\": expected %s, got %s", key, want, type_names[v->type]);
}

const char *
rec_str(struct rec *r, const char *key, size_t *len)
{
	struct val v;
	size_t n;

	if (!lookup(r, key, &v) || v.type == T_NULL)
		return NULL;
	if (v.type != T_STRING) {
		wrong_type(r, key, "a string", &v);
		return NULL;
	}
	if (v.f != NULL) {
		if (v.f->dec == NULL)
			v.f->dec = decode_str(&r->ar, v.p, v.len, v.f->vesc, &v.f->declen);
		if (len != NULL)
			*len = v.f->declen;
		return v.f->dec;
	}
	if (v.c->dec == NULL) {
		v.c->dec = decode_str(&r->ar, v.p, v.len,
		    memchr(v.p, '\\', v.len) != NULL, &n);
		v.c->declen = n;
	}
	if (len != NULL)
		*len = v.c->declen;
	return v.c->dec;
}

bool
rec_int(struct rec *r, const char *key, long long *out)
{
	struct val v;
	long long ll;

	if (!lookup(r, key, &v) || v.type == T_NULL)
		return false;
	if (v.type != T_INT) {
		wrong_type(r, key, "an integer", &v);
		return false;
	}
	if (!parse_ll(v.p, v.len, &ll)) {
		rec_reject(r, "key \"%s\": integer out of range", key);
		return false;
	}
	if (out != NULL)
		*out = ll;
	return true;
}

bool
rec_num(struct rec *r, const char *key, double *out)
{
	struct val v;
	long long ll;
	double d;

	if (!lookup(r, key, &v) || v.type == T_NULL)
		return false;
	if (v.type == T_INT && v.len < 16 && parse_ll(v.p, v.len, &ll))
		d = (double)ll;		/* exact below 2^53 */
	else if (v.type == T_INT || v.type == T_REAL)
		d = parse_double(v.p, v.len);
	else {
		wrong_type(r, key, "a number", &v);
		return false;
	}
	if (out != NULL)
		*out = d;
	return true;
}

/* For the figure getters: 0 when key is absent, 1 when null (*out = NaN), 2 otherwise. */
static int
fig_null(struct rec *r, const char *key, double *out)
{
	struct val v;

	if (!lookup(r, key, &v))
		return 0;
	if (v.type != T_NULL)
		return 2;
	if (out != NULL)
		*out = NAN;
	return 1;
}

bool
rec_fig(struct rec *r, const char *key, double *out)
{
	int k = fig_null(r, key, out);

	return k == 2 ? rec_num(r, key, out) : k == 1;
}

bool
rec_ifig(struct rec *r, const char *key, double *out)
{
	long long ll;
	int k = fig_null(r, key, out);

	if (k < 2)
		return k == 1;
	if (!rec_int(r, key, &ll))
		return false;
	if (ll <= -(1LL << 53) || ll >= 1LL << 53) {
		rec_reject(r, "key \"%s\": integer out of range", key);
		return false;
	}
	if (out != NULL)
		*out = (double)ll;
	return true;
}

bool
rec_bool(struct rec *r, const char *key, bool *out)
{
	struct val v;

	if (!lookup(r, key, &v) || v.type == T_NULL)
		return false;
	if (v.type != T_BOOL) {
		wrong_type(r, key, "a boolean", &v);
		return false;
	}
	if (out != NULL)
		*out = v.p[0] == 't';
	return true;
}

static size_t
skip_blank(const char *p, size_t i, size_t n)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i;
}

bool
rec_strv(struct rec *r, const char *key, struct rec_strv *v)
{
	struct val x;
	size_t i, k, cnt = 0;
	int pass;

	memset(v, 0, sizeof(*v));
	if (!lookup(r, key, &x) || x.type == T_NULL)
		return false;
	if (x.type != T_ARRAY) {
		rec_reject(r, "key \"%s\": expected an array of strings", key);
		return false;
	}
	/* the value is valid JSON: count the strings, then decode them */
	for (pass = 0; pass < 2; pass++) {
		cnt = 0;
		for (i = skip_blank(x.p, 1, x.len); i < x.len && x.p[i] != ']';
		    i = skip_blank(x.p, i, x.len)) {
			if (x.p[i] == ',')
				i = skip_blank(x.p, i + 1, x.len);
			if (x.p[i] != '"') {
				rec_reject(r, "key \"%s\": expected an array of strings", key);
				memset(v, 0, sizeof(*v));
				return false;
			}
			for (k = i + 1; x.p[k] != '"'; k += x.p[k] == '\\' ? 2 : 1)
				;
			if (pass == 1)
				v->s[cnt] = rec_decode(r, x.p + i, k + 1 - i, &v->len[cnt]);
			cnt++;
			i = k + 1;
		}
		if (pass == 0) {
			v->s = arena_alloc(&r->ar, (cnt + 1) * sizeof(*v->s));
			v->len = arena_alloc(&r->ar, (cnt + 1) * sizeof(*v->len));
		}
	}
	v->n = cnt;
	return true;
}

/* Over the array value of key (NUL-terminated, rec_raw's): s just inside it. */
static bool
array_open(struct rec *r, const char *key, struct js_span *s)
{
	size_t len;
	const char *p;

	if (rec_type(r, key) != REC_ARRAY || (p = rec_raw(r, key, &len)) == NULL)
		return false;
	js_span_init(s, p, len);
	s->max_depth = JS_SPAN_MAXDEPTH;
	js_span_ws(s);
	s->i++;
	return true;
}

/* To the next element of the array s is in (k: the elements passed); false at its end. */
static bool
array_next(struct js_span *s, size_t k)
{
	js_span_ws(s);
	if (k > 0 && s->p[s->i] == ',') {
		s->i++;
		js_span_ws(s);
	}
	return s->p[s->i] != ']';
}

/* At an object: to the value of its member name (the first, or the last where the name
 * repeats); false when it has none. */
static bool
member_of(struct rec *r, struct js_span *s, const char *name, bool last)
{
	size_t ks, kl, n = strlen(name), k, at = 0;
	const char *key;
	bool found = false;

	if (s->p[s->i] != '{')
		return false;
	s->i++;
	for (k = 0; array_next(s, k) && s->p[s->i] != '}'; k++) {
		ks = s->i;
		js_span_string(s);
		key = s->p + ks + 1;
		kl = s->i - ks - 2;
		if (s->esc)
			key = rec_decode(r, s->p + ks, s->i - ks, &kl);
		js_span_ws(s);
		s->i++;		/* ':' */
		js_span_ws(s);
		if (kl == n && memcmp(key, name, n) == 0) {
			if (!last)
				return true;
			found = true;
			at = s->i;
		}
		js_span_value(s, 0);
	}
	if (found)
		s->i = at;
	return found;
}

/* At an array: its integers into d (at most max); their count, or -1 when it holds
 * anything else or more. */
static int
dims_at(struct js_span *s, long long *d, int max)
{
	const char *num;
	size_t k;
	int n = 0;

	if (s->p[s->i] != '[')
		return -1;
	s->i++;
	for (k = 0; array_next(s, k); k++) {
		num = s->p + s->i;
		if (n == max || js_span_value(s, 0) != JS_NUMBER || s->real ||
		    !js_number_int(num, (size_t)(s->p + s->i - num), &d[n]))
			return -1;
		n++;
	}
	return n;
}

size_t
rec_count(struct rec *r, const char *key)
{
	struct js_span s;
	size_t k = 0;

	if (!array_open(r, key, &s))
		return 0;
	for (; array_next(&s, k); k++)
		js_span_value(&s, 0);
	return k;
}

int
rec_dims(struct rec *r, const char *key, size_t i, const char *member, long long *d,
    int max)
{
	struct js_span s;
	size_t k;

	if (!array_open(r, key, &s))
		return -1;
	for (k = 0; array_next(&s, k) && k < i; k++)
		js_span_value(&s, 0);
	if (k < i || s.p[s.i] == ']' || !member_of(r, &s, member, false))
		return -1;
	return dims_at(&s, d, max);
}

bool
rec_strv_of(struct rec *r, const char *key, const char *member, struct rec_strv *v)
{
	struct js_span s;
	size_t k, cnt = rec_count(r, key), start;

	memset(v, 0, sizeof(*v));
	if (!array_open(r, key, &s))
		return false;
	v->s = arena_alloc(&r->ar, (cnt + 1) * sizeof(*v->s));
	v->len = arena_alloc(&r->ar, (cnt + 1) * sizeof(*v->len));
	for (k = 0; array_next(&s, k); k++) {
		size_t at = s.i;

		if (member_of(r, &s, member, false) && s.p[s.i] == '"') {
			start = s.i;
			js_span_string(&s);
			v->s[v->n] = rec_decode(r, s.p + start, s.i - start, &v->len[v->n]);
			v->n++;
		}
		/* on to the element's end, wherever member_of stopped */
		s.i = at;
		js_span_value(&s, 0);
	}
	return true;
}

bool
rec_elems(struct rec *r, const char *key, struct rec_elems *e)
{
	e->r = r;
	e->k = 0;
	e->at = 0;
	e->done = !array_open(r, key, &e->s);
	return !e->done;
}

bool
rec_elem_next(struct rec_elems *e)
{
	if (e->done)
		return false;
	if (e->k > 0) {
		e->s.i = e->at;
		js_span_value(&e->s, 0);
	}
	if (!array_next(&e->s, e->k)) {
		e->done = true;
		return false;
	}
	e->at = e->s.i;
	e->k++;
	return true;
}

/* s at member of the current element (the element itself for NULL); false when the
 * element is not an object that has it. */
static bool
elem_value(struct rec_elems *e, const char *member, struct js_span *s)
{
	js_span_init(s, e->s.p, e->s.len);
	s->max_depth = JS_SPAN_MAXDEPTH;
	s->i = e->at;
	return !e->done && e->k > 0 && (member == NULL || member_of(e->r, s, member, true));
}

/* The type of the (valid) value at s; an integer beyond long long is a real, as
 * rec_type has it. */
static enum rec_type
type_at(const struct js_span *s)
{
	const char *p = s->p + s->i;
	long long ll;

	switch (*p) {
	case '{': return REC_OBJECT;
	case '[': return REC_ARRAY;
	case '"': return REC_STRING;
	case 't': case 'f': return REC_BOOL;
	case 'n': return REC_NULL;
	}
	return js_number_int(p, js_number_len(p, s->len - s->i), &ll) ? REC_INT : REC_REAL;
}

enum rec_type
rec_elem_type(struct rec_elems *e, const char *member)
{
	struct js_span s;

	return elem_value(e, member, &s) ? type_at(&s) : REC_ABSENT;
}

const char *
rec_elem_str(struct rec_elems *e, const char *member, size_t *len)
{
	struct js_span s;
	size_t start;

	if (!elem_value(e, member, &s) || s.p[s.i] != '"')
		return NULL;
	start = s.i;
	js_span_string(&s);
	return rec_decode(e->r, s.p + start, s.i - start, len);
}

bool
rec_elem_int(struct rec_elems *e, const char *member, long long *v)
{
	struct js_span s;
	const char *p;

	if (!elem_value(e, member, &s) || type_at(&s) != REC_INT)
		return false;
	p = s.p + s.i;
	return js_number_int(p, js_number_len(p, s.len - s.i), v);
}

bool
rec_elem_num(struct rec_elems *e, const char *member, double *v)
{
	struct js_span s;
	enum rec_type t;

	if (!elem_value(e, member, &s) || ((t = type_at(&s)) != REC_INT && t != REC_REAL))
		return false;
	*v = parse_double(s.p + s.i, js_number_len(s.p + s.i, s.len - s.i));
	return true;
}

bool
rec_elem_bool(struct rec_elems *e, const char *member, bool *v)
{
	struct js_span s;

	if (!elem_value(e, member, &s) || type_at(&s) != REC_BOOL)
		return false;
	*v = s.p[s.i] == 't';
	return true;
}

int
rec_elem_dims(struct rec_elems *e, const char *member, long long *d, int max)
{
	struct js_span s;

	return elem_value(e, member, &s) ? dims_at(&s, d, max) : -1;
}

/* The value at s and what it holds, in preorder, appended to *t (n of *cap nodes used). */
static void
tree_add(struct js_span *s, struct rec_node **t, size_t *n, size_t *cap)
{
	size_t me = (*n)++, k = 0;
	struct rec_node *x;
	char open = s->p[s->i];

	*t = xgrow(*t, cap, *n, sizeof(**t));
	x = &(*t)[me];
	memset(x, 0, sizeof(*x));
	x->type = type_at(s);
	if (x->type == REC_INT)
		(void)js_number_int(s->p + s->i, js_number_len(s->p + s->i, s->len - s->i),
		    &x->i);
	if (open == '[' || open == '{') {
		s->i++;
		for (; array_next(s, k) && s->p[s->i] != '}'; k++) {
			if (open == '{') {	/* the member's name and ':' */
				js_span_string(s);
				js_span_ws(s);
				s->i++;
				js_span_ws(s);
			}
			tree_add(s, t, n, cap);
		}
		s->i++;
	} else
		js_span_value(s, 0);
	(*t)[me].n = k;
	(*t)[me].size = *n - me;
}

const struct rec_node *
rec_elem_tree(struct rec_elems *e, const char *member, size_t *nnodes)
{
	struct js_span s;
	struct rec_node *t = NULL, *out;
	size_t n = 0, cap = 0;

	if (nnodes != NULL)
		*nnodes = 0;
	if (!elem_value(e, member, &s))
		return NULL;
	tree_add(&s, &t, &n, &cap);
	out = arena_alloc(&e->r->ar, n * sizeof(*out));
	memcpy(out, t, n * sizeof(*out));
	free(t);
	if (nnodes != NULL)
		*nnodes = n;
	return out;
}

const char *
rec_raw(struct rec *r, const char *key, size_t *len)
{
	struct val v;

	if (!lookup(r, key, &v))
		return NULL;
	if (len != NULL)
		*len = v.len;
	if (v.c != NULL)
		return v.c->val;	/* NUL-terminated already */
	return arena_strndup(&r->ar, v.p, v.len);
}

const char *
rec_decode(struct rec *r, const char *s, size_t n, size_t *len)
{
	size_t k;
	const char *o = decode_str(&r->ar, s, n, memchr(s, '\\', n) != NULL, &k);

	if (len != NULL)
		*len = k;
	return o;
}

const char *
rec_key(struct rec *r, size_t i)
{
	size_t k;
	struct field *f;

	for (k = 0; k < r->nf; k++) {
		f = &r->f[k];
		if (f->chg >= 0 && r->ch[f->chg].del)
			continue;
		if (i-- == 0) {
			if (f->kdec == NULL)
				f->kdec = arena_strndup(&r->ar, f->key, f->klen);
			return f->kdec;
		}
	}
	for (k = 0; k < r->nch; k++) {
		struct change *c = &r->ch[k];
		if (c->field >= 0 || c->dead)
			continue;
		if (i-- == 0)
			return c->key;
	}
	return NULL;
}

/* --- changing ------------------------------------------------------------------ */

/* The change for key, created if needed (not deleted afterwards: caller sets). */
static struct change *
change_get(struct rec *r, const char *key, size_t klen)
{
	struct field *f;
	struct change *c;

	f = field_find(r, key, klen, hash_bytes(key, klen));
	if (f != NULL && f->chg >= 0) {
		c = &r->ch[f->chg];
		if (c->del) {
			c->del = 0;
			r->ndel--;
		}
		return c;
	}
	if (f == NULL && (c = change_find_new(r, key, klen)) != NULL)
		return c;
	r->ch = xgrow(r->ch, &r->chcap, r->nch + 1, sizeof(*r->ch));
	c = &r->ch[r->nch];
	memset(c, 0, sizeof(*c));
	c->key = arena_strndup(&r->ar, key, klen);
	c->klen = klen;
	if (f != NULL) {
		c->field = (int)(f - r->f);
		f->chg = (int)r->nch;
	} else {
		c->field = -1;
		r->nlive++;
	}
	r->nch++;
	return c;
}

/* Set key to the JSON text p[0..n) of the given type. */
static void
set_text(struct rec *r, const char *key, size_t klen, const char *p, size_t n, int type)
{
	struct change *c = change_get(r, key, klen);

	if (n + 1 > c->vcap) {
		c->vcap = n + 1 < 24 ? 24 : n + 1;
		c->val = arena_alloc(&r->ar, c->vcap);
	}
	memmove(c->val, p, n);
	c->val[n] = '\0';
	c->vlen = n;
	c->type = (unsigned char)type;
	c->dec = NULL;
}

static void
change_copy(struct rec *to, const struct change *c)
{
	if (c->dead)
		return;
	if (c->del) {
		rec_del(to, c->key);
		return;
	}
	set_text(to, c->key, c->klen, c->val, c->vlen, c->type);
}

/* Append s[0..n) as a JSON string (quotes included) to b. */
void
rec_set_strn(struct rec *r, const char *key, const char *s, size_t len)
{
	struct buf *b = &r->out;

	buf_reset(b);
	js_escape(b, s, len);
	set_text(r, key, strlen(key), b->p, b->len, T_STRING);
}

void
rec_set_str(struct rec *r, const char *key, const char *s)
{
	if (s == NULL)
		rec_set_null(r, key);
	else
		rec_set_strn(r, key, s, strlen(s));
}

void
rec_set_int(struct rec *r, const char *key, long long v)
{
	char tmp[NUM_INTSZ];
	size_t n = num_int(tmp, v, 0);

	set_text(r, key, strlen(key), tmp, n, T_INT);
}

void
rec_set_num(struct rec *r, const char *key, double v)
{
	char tmp[NUM_BUFSZ];
	size_t n;

	if (!isfinite(v)) {
		rec_set_null(r, key);
		return;
	}
	n = num_shortest(tmp, v);
	set_text(r, key, strlen(key), tmp, n,
	    strpbrk(tmp, ".eE") != NULL ? T_REAL : T_INT);
}

void
rec_set_ifig(struct rec *r, const char *key, double v)
{
	/* Range first: converting a double beyond long long is undefined. */
	if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(long long)v)
		rec_set_int(r, key, (long long)v);
	else
		rec_set_num(r, key, v);
}

void
rec_set_bool(struct rec *r, const char *key, bool v)
{
	set_text(r, key, strlen(key), v ? "true" : "false", v ? 4 : 5, T_BOOL);
}

void
rec_set_null(struct rec *r, const char *key)
{
	set_text(r, key, strlen(key), "null", 4, T_NULL);
}

void
rec_set_strv(struct rec *r, const char *key, const char *const *sv, const size_t *len,
    size_t n)
{
	struct buf *b = &r->out;
	size_t i;

	buf_reset(b);
	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		js_escape(b, sv[i], len ? len[i] : strlen(sv[i]));
	}
	buf_addc(b, ']');
	set_text(r, key, strlen(key), b->p, b->len, T_ARRAY);
}

void
rec_set_raw(struct rec *r, const char *key, const char *json, size_t len)
{
	struct js_span s;
	enum js_tok t;
	char *copy;

	/* a copy with the scanner's NUL sentinel */
	copy = xmalloc(len + 1);
	memcpy(copy, json, len);
	copy[len] = '\0';
	js_span_init(&s, copy, len);
	s.max_depth = REC_MAXDEPTH;
	if ((t = js_span_value(&s, 1)) != JS_ERROR) {
		js_span_ws(&s);
		if (s.i != len)
			t = js_span_unexpected(&s, "the end of the value");
	}
	if (t == JS_ERROR) {
		if (s.err_at < len && copy[s.err_at] == '\0')
			die(EXIT_DATA, "rec_set_raw: NUL byte in JSON");
		die(EXIT_DATA, "rec_set_raw: invalid JSON: %s at column %zu", s.err,
		    s.err_at + 1);
	}
	free(copy);
	/* trim the whitespace around it */
	while (len > 0 && strchr(" \t\r\n", json[len - 1]) != NULL)
		len--;
	while (*json == ' ' || *json == '\t' || *json == '\r' || *json == '\n') {
		json++;
		len--;
	}
	set_text(r, key, strlen(key), json, len, span_type(&s, t));
}

void
rec_del(struct rec *r, const char *key)
{
	size_t klen = strlen(key);
	struct field *f;
	struct change *c;

	f = field_find(r, key, klen, hash_bytes(key, klen));
	if (f != NULL) {
		if (f->chg < 0)
			(void)change_get(r, key, klen);
		c = &r->ch[f->chg];
		if (!c->del) {
			c->del = 1;
			r->ndel++;
		}
		return;
	}
	if ((c = change_find_new(r, key, klen)) != NULL) {
		c->dead = 1;
		r->nlive--;
	}
}

/* --- writing ---------------------------------------------------------------------- */

void
rec_format(struct rec *r, struct buf *b)
{
	size_t i, n = 0, need;
	struct field *f;
	struct change *c;
	char *o;

	if (r->nch == 0 && r->compact && r->oend > r->ostart) {
		buf_add(b, r->text + r->ostart, r->oend - r->ostart);
		buf_addc(b, '\n');
		return;
	}
	/* The original keys and values, then the changed values: an upper bound. */
	need = r->len + 3;
	for (i = 0; i < r->nch; i++)
		need += r->ch[i].vlen + 2;
	buf_grow(b, need);
	o = b->p + b->len;
	*o++ = '{';
	for (i = 0; i < r->nf; i++) {
		f = &r->f[i];
		c = f->chg < 0 ? NULL : &r->ch[f->chg];
		if (c != NULL && c->del)
			continue;
		if (n++ > 0)
			*o++ = ',';
		memcpy(o, r->text + f->kofs, f->kraw);
		o += f->kraw;
		*o++ = ':';
		if (c == NULL) {
			memcpy(o, r->text + f->vofs, f->vlen);
			o += f->vlen;
		} else {
			memcpy(o, c->val, c->vlen);
			o += c->vlen;
		}
	}
	b->len = (size_t)(o - b->p);
	for (i = 0; i < r->nch; i++) {
		c = &r->ch[i];
		if (c->field >= 0 || c->dead)
			continue;
		if (n++ > 0)
			buf_addc(b, ',');
		js_escape(b, c->key, c->klen);
		buf_addc(b, ':');
		buf_add(b, c->val, c->vlen);
	}
	buf_add(b, "}\n", 2);
}

void
rec_line_add(struct buf *out, const char *line, size_t len, const char *members,
    size_t mlen)
{
	size_t end = len, open;

	while (end > 0 && line[end - 1] != '}')
		end--;
	if (end == 0)
		die(EXIT_DATA, "rec_line_add: not a record line");
	end--;
	for (open = end; open > 0 && (line[open - 1] == ' ' || line[open - 1] == '\t'); open--)
		;
	buf_add(out, line, end);
	if (mlen > 0 && !(open > 0 && line[open - 1] == '{'))
		buf_addc(out, ',');
	buf_add(out, members, mlen);
	buf_add(out, "}\n", 2);
}

void
rec_write(struct rec *r, FILE *fp)
{
	size_t n;

	if (r->nch == 0 && r->compact && r->oend > r->ostart) {
		n = r->oend - r->ostart;
		if (r->oend < r->len + 1 && r->text[r->oend] == '\n') {
			/* the line's own newline follows the object */
			if (fwrite_unlocked(r->text + r->ostart, 1, n + 1, fp) != n + 1)
				io_write_error(fp, "stdout");
			return;
		}
		if (fwrite_unlocked(r->text + r->ostart, 1, n, fp) != n ||
		    putc_unlocked('\n', fp) == EOF)
			io_write_error(fp, "stdout");
		return;
	}
	buf_reset(&r->out);
	rec_format(r, &r->out);
	if (fwrite_unlocked(r->out.p, 1, r->out.len, fp) != r->out.len)
		io_write_error(fp, "stdout");
}

/* --- building records ----------------------------------------------------------------- */

void
rec_build_begin(struct rec_build *rb, struct buf *b)
{
	js_w_init(&rb->w, b);
	js_w_object(&rb->w);
}

void
rec_build_more(struct rec_build *rb, struct buf *b)
{
	js_w_init(&rb->w, b);
	rb->w.comma = true;
}

void
rec_build_end(struct rec_build *rb)
{
	buf_add(rb->w.b, "}\n", 2);
	rb->w.comma = true;
}

void
rec_build_keyn(struct rec_build *rb, const char *k, size_t n)
{
	if (rb->w.comma)
		buf_addc(rb->w.b, ',');
	js_escape(rb->w.b, k, n);
	buf_addc(rb->w.b, ':');
	rb->w.comma = false;
}

/* The comma before a value or member, if one is due. */
static inline void
build_sep(struct rec_build *rb)
{
	struct buf *b = rb->w.b;

	if (rb->w.comma) {
		if (b->cap - b->len < 2)
			buf_grow(b, 1);
		b->p[b->len++] = ',';
	}
	rb->w.comma = true;
}

void
rec_build_str(struct rec_build *rb, const char *s, size_t n)
{
	build_sep(rb);
	js_escape(rb->w.b, s, n);
}

void
rec_build_strz(struct rec_build *rb, const char *s)
{
	js_w_str(&rb->w, s, strlen(s));
}

void
rec_build_int(struct rec_build *rb, long long v)
{
	struct buf *b = rb->w.b;

	if (b->cap - b->len < NUM_INTSZ + 2)
		buf_grow(b, NUM_INTSZ + 1);
	if (rb->w.comma)
		b->p[b->len++] = ',';
	rb->w.comma = true;
	b->len += num_int(b->p + b->len, v, 0);
}

void
rec_build_num(struct rec_build *rb, const char *text, size_t n)
{
	build_sep(rb);
	buf_add(rb->w.b, text, n);
}

void
rec_build_raw(struct rec_build *rb, const char *json, size_t n)
{
	js_w_raw(&rb->w, json, n);
}

void
rec_build_bool(struct rec_build *rb, bool v)
{
	js_w_bool(&rb->w, v);
}

void
rec_build_null(struct rec_build *rb)
{
	js_w_null(&rb->w);
}

void
rec_build_array(struct rec_build *rb)
{
	js_w_array(&rb->w);
}

void
rec_build_end_array(struct rec_build *rb)
{
	js_w_end_array(&rb->w);
}

void
rec_build_object(struct rec_build *rb)
{
	js_w_object(&rb->w);
}

void
rec_build_end_object(struct rec_build *rb)
{
	js_w_end_object(&rb->w);
}

struct rec_build_mark
rec_build_mark(const struct rec_build *rb)
{
	struct rec_build_mark m = { rb->w.b->len, rb->w.comma };

	return m;
}

void
rec_build_rewind(struct rec_build *rb, struct rec_build_mark m)
{
	rb->w.b->len = m.len;
	if (rb->w.b->p != NULL)
		rb->w.b->p[m.len] = '\0';
	rb->w.comma = m.comma;
}
