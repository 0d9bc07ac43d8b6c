/* SPDX-License-Identifier: ISC */
/*
 * xsrc: a large protobuf file read in bounded windows. A plain file is read with pread;
 * gzip input and pipes are first copied (inflated) into an unlinked temporary file,
 * which is then read the same way. Nothing keeps the whole file in memory: xsrc_get
 * hands out a window of the bytes asked for (a read ahead of 1 MiB, or the request when
 * larger), valid until the next call.
 *
 * xsrc_it streams the fields of a message that lies at [off, off+len) in the file
 * (core/pb.h's pb_head over the window): the caller gets each field's head and decides
 * to load its payload (xsrc_get(f.at, f.v)), to descend into it (another xsrc_it) or to
 * pass over it. Errors carry the file and the byte offset.
 */
#ifndef TTP_XSRC_H
#define TTP_XSRC_H

#include <stdint.h>
#include <stdio.h>

#include "core/pb.h"

struct error;

struct xsrc {
	const char	*name;		/* for messages */
	int		 fd;
	FILE		*tmp;		/* the copy, when there is one */
	uint64_t	 size;
	unsigned char	*buf;
	size_t		 cap, blen;
	uint64_t	 boff;
};

/* Open path ("-" or NULL: standard input); 0, or -1 and e set. */
int xsrc_open(struct xsrc *s, const char *path, struct error *e);
void xsrc_close(struct xsrc *s);
/* The len bytes at off (valid until the next call), or NULL and e set when they run
 * past the end of the file or cannot be read. */
const unsigned char *xsrc_get(struct xsrc *s, uint64_t off, uint64_t len, struct error *e);

struct xsrc_it {
	struct xsrc	*s;
	uint64_t	 pos, end;
	const char	*what;		/* the message's name, for errors */
};

void xsrc_it_init(struct xsrc_it *it, struct xsrc *s, uint64_t off, uint64_t len,
    const char *what);
/* The next field's head: PB_OK, PB_END, or PB_ERR with e set ("file: byte N: ..."). A
 * LEN field's payload is checked to lie inside the message and passed over. */
int xsrc_next(struct xsrc_it *it, struct pb_field *f, struct error *e);

#endif
