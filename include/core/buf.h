/* SPDX-License-Identifier: ISC */
/* buf: a growable byte buffer, always NUL-terminated. */
#ifndef TTP_BUF_H
#define TTP_BUF_H

#include <stddef.h>

struct buf {
	char	*p;	/* data, NUL-terminated (p[len] == 0) once anything was added */
	size_t	 len;
	size_t	 cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_grow(struct buf *b, size_t extra);	/* room for extra more bytes + NUL */
void buf_add(struct buf *b, const void *p, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_reset(struct buf *b);			/* len = 0, keeps memory */
void buf_free(struct buf *b);

#endif
