/* SPDX-License-Identifier: ISC */
/* buf: growable byte buffers, always NUL-terminated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"

void
buf_grow(struct buf *b, size_t extra)
{
	size_t need;

	if (extra > (size_t)-1 / 2 - b->len)
		die(EXIT_DATA, "out of memory");
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	if (b->cap == 0)
		b->cap = 256;
	while (b->cap < need)
		b->cap *= 2;
	b->p = xrealloc(b->p, b->cap);
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->cap - b->len <= n)	/* room for n bytes and the NUL? */
		buf_grow(b, n);
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	if (b->cap - b->len < 2)
		buf_grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	/* Format straight into the free space; only a too-small buffer formats twice. */
	if (b->cap - b->len < 64)
		buf_grow(b, 64);
	room = b->cap - b->len;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(EXIT_DATA, "buf_printf: bad format");
	if ((size_t)n >= room) {
		buf_grow(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

void
buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
