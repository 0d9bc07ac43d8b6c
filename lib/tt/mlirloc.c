/* SPDX-License-Identifier: ISC */
/*
 * mlirloc: a recursive-descent reader of MLIR location text (see mlirloc.h). Strings
 * are decoded into one buffer, each frame NUL-terminated; the pointers are made at the
 * end, once the buffer has stopped moving.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/numfmt.h"
#include "tt/mlirloc.h"

struct p {
	struct mlirloc	*l;
	const char	*s;
	size_t		 n, i;
	const char	*err;
};

void
mlirloc_init(struct mlirloc *l)
{
	memset(l, 0, sizeof(*l));
}

void
mlirloc_free(struct mlirloc *l)
{
	buf_free(&l->mem);
	free(l->offs);
	free(l->frames);
	mlirloc_init(l);
}

static void
ws(struct p *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	    p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static int
fail(struct p *p, const char *what)
{
	if (p->err == NULL)
		p->err = what;
	return -1;
}

/* The punctuation c, after spaces. */
static int
expect(struct p *p, char c, const char *what)
{
	ws(p);
	if (p->i >= p->n || p->s[p->i] != c)
		return fail(p, what);
	p->i++;
	return 0;
}

/* The keyword w, after spaces, not followed by an identifier character. */
static int
keyword(struct p *p, const char *w)
{
	size_t k = strlen(w);

	ws(p);
	if (p->n - p->i < k || memcmp(p->s + p->i, w, k) != 0)
		return 0;
	if (p->i + k < p->n && (isalnum((unsigned char)p->s[p->i + k]) || p->s[p->i + k] == '_'))
		return 0;
	p->i += k;
	return 1;
}

/* A quoted string at p->i, decoded and appended to mem (not terminated). */
static int
string(struct p *p)
{
	struct buf *b = &p->l->mem;

	p->i++;		/* the opening quote */
	while (p->i < p->n && p->s[p->i] != '"') {
		size_t run = 0;
		char c;

		/* plain bytes, copied at once (the text need not be NUL-terminated) */
		while (p->i + run < p->n && p->s[p->i + run] != '"' &&
		    p->s[p->i + run] != '\\' && p->s[p->i + run] != '\0')
			run++;
		if (run > 0) {
			buf_add(b, p->s + p->i, run);
			p->i += run;
			continue;
		}
		c = p->s[p->i++];
		if (c == '\0')
			return fail(p, "NUL byte in a string");
		if (c != '\\') {
			buf_addc(b, c);
			continue;
		}
		if (p->i >= p->n)
			break;
		c = p->s[p->i++];
		switch (c) {
		case '\\': case '"': buf_addc(b, c); break;
		case 'n': buf_addc(b, '\n'); break;
		case 't': buf_addc(b, '\t'); break;
		default:
			if (p->i < p->n && isxdigit((unsigned char)c) &&
			    isxdigit((unsigned char)p->s[p->i])) {
				char h[3] = { c, p->s[p->i++], '\0' };
				long v = strtol(h, NULL, 16);

				if (v == 0)
					return fail(p, "NUL byte in a string");
				buf_addc(b, (char)v);
			} else {
				p->i -= 2;	/* at the backslash */
				return fail(p, "bad escape in a string");
			}
		}
	}
	if (p->i >= p->n)
		return fail(p, "unterminated string");
	p->i++;
	return 0;
}

/* Unsigned decimal digits after spaces; -1 when there are none. */
static int
number(struct p *p, long long *v)
{
	unsigned long long u = 0;
	size_t start;

	ws(p);
	start = p->i;
	while (p->i < p->n && isdigit((unsigned char)p->s[p->i])) {
		if (u > 999999999999ULL)
			return fail(p, "number too large");
		u = u * 10 + (unsigned)(p->s[p->i++] - '0');
	}
	if (p->i == start)
		return -1;
	*v = (long long)u;
	return 0;
}

static void
add_frame(struct p *p, size_t off)
{
	struct mlirloc *l = p->l;

	buf_addc(&l->mem, '\0');
	l->offs = xgrow(l->offs, &l->capframes, l->nframes + 1, sizeof(*l->offs));
	l->offs[l->nframes++] = off;
}

static int loc(struct p *p, int depth);

/* ":N" */
static void
putnum(struct buf *b, long long v)
{
	char t[NUM_INTSZ];

	buf_addc(b, ':');
	buf_add(b, t, num_int(t, v, 0));
}

/* "file":L[:C][ to [L][:C]] with the string already read at mem[off..]. */
static int
file_frame(struct p *p, size_t off)
{
	struct mlirloc *l = p->l;
	long long line, col = -1, x;
	size_t flen = l->mem.len - off;

	p->i++;		/* ':' */
	if (number(p, &line) != 0)
		return fail(p, "expected a line number");
	ws(p);
	if (p->i < p->n && p->s[p->i] == ':') {
		p->i++;
		if (number(p, &col) != 0)
			return fail(p, "expected a column number");
	}
	if (keyword(p, "to")) {		/* a range: its end is not kept */
		int any = number(p, &x) == 0;

		ws(p);
		if (p->i < p->n && p->s[p->i] == ':') {
			p->i++;
			if (number(p, &x) != 0)
				return fail(p, "expected a column number");
			any = 1;
		}
		if (!any)
			return fail(p, "expected the end of a range");
	}
	if (p->err != NULL)
		return -1;
	if (!l->hasfile) {
		/* the file name alone, then the frame text that repeats it */
		l->hasfile = 1;
		l->fileoff = off;
		l->line = line;
		l->col = col;
		buf_addc(&l->mem, '\0');
		buf_grow(&l->mem, flen + 1);
		memcpy(l->mem.p + l->mem.len, l->mem.p + off, flen);
		off = l->mem.len;
		l->mem.len += flen;
		l->mem.p[l->mem.len] = '\0';
	}
	putnum(&l->mem, line);
	if (col >= 0)
		putnum(&l->mem, col);
	add_frame(p, off);
	return 0;
}

/* One location, without the loc(...) wrapper (which is accepted too). */
static int
loc(struct p *p, int depth)
{
	struct mlirloc *l = p->l;

	if (depth > MLIRLOC_MAXDEPTH)
		return fail(p, "locations nested too deeply");
	ws(p);
	if (p->i >= p->n)
		return fail(p, "expected a location");
	if (p->s[p->i] == '"') {
		size_t off = l->mem.len;

		if (string(p) != 0)
			return -1;
		ws(p);
		if (p->i < p->n && p->s[p->i] == ':')
			return file_frame(p, off);
		/* a name, over an optional child */
		add_frame(p, off);
		if (!l->hasname) {
			l->hasname = 1;
			l->nameoff = off;
		}
		if (p->i < p->n && p->s[p->i] == '(') {
			p->i++;
			if (loc(p, depth + 1) != 0)
				return -1;
			return expect(p, ')', "expected ')'");
		}
		return 0;
	}
	if (p->s[p->i] == '#') {
		size_t start = p->i++, off = l->mem.len;

		while (p->i < p->n && (isalnum((unsigned char)p->s[p->i]) ||
		    p->s[p->i] == '_' || p->s[p->i] == '.' || p->s[p->i] == '$' ||
		    p->s[p->i] == '-'))
			p->i++;
		if (p->i == start + 1)
			return fail(p, "expected an alias name after '#'");
		buf_add(&l->mem, p->s + start, p->i - start);
		add_frame(p, off);
		return 0;
	}
	if (keyword(p, "unknown"))
		return 0;
	if (keyword(p, "loc")) {
		if (expect(p, '(', "expected '('") != 0 || loc(p, depth + 1) != 0)
			return -1;
		return expect(p, ')', "expected ')'");
	}
	if (keyword(p, "callsite")) {
		if (expect(p, '(', "expected '('") != 0 || loc(p, depth + 1) != 0)
			return -1;
		if (!keyword(p, "at"))
			return fail(p, "expected 'at'");
		if (loc(p, depth + 1) != 0)
			return -1;
		return expect(p, ')', "expected ')'");
	}
	if (keyword(p, "fused")) {
		ws(p);
		if (p->i < p->n && p->s[p->i] == '<') {
			/* metadata attribute: skipped, brackets balanced, strings respected */
			int nest = 0;

			do {
				char c;

				if (p->i >= p->n)
					return fail(p, "unterminated fused<...> metadata");
				c = p->s[p->i];
				if (c == '"') {
					size_t m = l->mem.len;

					if (string(p) != 0)
						return -1;
					l->mem.len = m;
					if (l->mem.p != NULL)
						l->mem.p[m] = '\0';
					continue;
				}
				if (c == '<' || c == '(' || c == '[' || c == '{')
					nest++;
				else if (c == '>' || c == ')' || c == ']' || c == '}')
					nest--;
				p->i++;
			} while (nest > 0);
		}
		if (expect(p, '[', "expected '['") != 0)
			return -1;
		ws(p);
		if (p->i < p->n && p->s[p->i] == ']') {
			p->i++;
			return 0;
		}
		for (;;) {
			if (loc(p, depth + 1) != 0)
				return -1;
			ws(p);
			if (p->i < p->n && p->s[p->i] == ',') {
				p->i++;
				continue;
			}
			return expect(p, ']', "expected ',' or ']'");
		}
	}
	return fail(p, "expected a location");
}

int
mlirloc_parse(struct mlirloc *l, const char *s, size_t n, const char **err, size_t *at)
{
	struct p p = { l, s, n, 0, NULL };
	int rv;

	buf_reset(&l->mem);
	l->nframes = 0;
	l->hasfile = l->hasname = 0;
	l->file = l->name = NULL;
	l->line = 0;
	l->col = -1;
	rv = loc(&p, 0);
	if (rv == 0) {
		ws(&p);
		if (p.i < n)
			rv = fail(&p, "unexpected text after the location");
	}
	if (rv != 0) {
		*err = p.err;
		*at = p.i;
		l->nframes = 0;
		l->hasfile = l->hasname = 0;
		l->line = 0;
		l->col = -1;
		return -1;
	}
	if (l->nframes > 0) {
		l->frames = xreallocarray(l->frames, l->nframes, sizeof(*l->frames));
		for (size_t k = 0; k < l->nframes; k++)
			l->frames[k] = l->mem.p + l->offs[k];
	}
	if (l->hasfile)
		l->file = l->mem.p + l->fileoff;
	if (l->hasname)
		l->name = l->mem.p + l->nameoff;
	return 0;
}

/* --- PROGRAM_METADATA -------------------------------------------------------------- */

/* A quoted key or value ('...' or "..."), not decoded; its text in *k, *kn. */
static int
pyquoted(struct p *p, const char **k, size_t *kn)
{
	char q = p->s[p->i++];
	size_t start = p->i;

	while (p->i < p->n && p->s[p->i] != q) {
		if (p->s[p->i] == '\\' && p->i + 1 < p->n)
			p->i++;
		p->i++;
	}
	if (p->i >= p->n)
		return fail(p, "unterminated string");
	*k = p->s + start;
	*kn = p->i - start;
	p->i++;
	return 0;
}

int
mlir_program_meta(const char *s, size_t n, long long *prog, long long *loop,
    const char **err, size_t *at)
{
	struct p p = { NULL, s, n, 0, NULL };

	*prog = *loop = -1;
	if (expect(&p, '{', "expected '{'") != 0)
		goto bad;
	ws(&p);
	if (p.i < n && p.s[p.i] == '}') {
		p.i++;
		goto end;
	}
	for (;;) {
		const char *k, *v;
		size_t kn, vn;
		long long x;
		int neg = 0;

		ws(&p);
		if (p.i >= n || (p.s[p.i] != '\'' && p.s[p.i] != '"')) {
			fail(&p, "expected a quoted key");
			goto bad;
		}
		if (pyquoted(&p, &k, &kn) != 0 || expect(&p, ':', "expected ':'") != 0)
			goto bad;
		ws(&p);
		if (p.i < n && (p.s[p.i] == '\'' || p.s[p.i] == '"')) {
			if (pyquoted(&p, &v, &vn) != 0)
				goto bad;
		} else {
			if (p.i < n && p.s[p.i] == '-') {
				neg = 1;
				p.i++;
			}
			if (number(&p, &x) == 0) {
				if (neg)
					;	/* not a program or loop number */
				else if (kn == 13 && memcmp(k, "program_index", 13) == 0)
					*prog = x;
				else if (kn == 11 && memcmp(k, "loop_number", 11) == 0)
					*loop = x;
			} else {
				/* another value (True, None, 1.5, ...): skipped */
				if (p.err != NULL)
					goto bad;
				while (p.i < n && p.s[p.i] != ',' && p.s[p.i] != ';' &&
				    p.s[p.i] != '}')
					p.i++;
			}
		}
		ws(&p);
		if (p.i < n && (p.s[p.i] == ',' || p.s[p.i] == ';')) {
			p.i++;
			continue;
		}
		if (expect(&p, '}', "expected ',' or '}'") != 0)
			goto bad;
		break;
	}
end:
	ws(&p);
	if (p.i == n)
		return 0;
	fail(&p, "unexpected text after the dict");
bad:
	*err = p.err;
	*at = p.i;
	*prog = *loop = -1;
	return -1;
}
