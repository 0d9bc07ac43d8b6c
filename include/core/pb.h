/* SPDX-License-Identifier: ISC */
/*
 * pb: the protobuf wire format, read without a schema (no generated code). A message is
 * a run of fields, each a tag (field number << 3 | wire type) and a value: a varint
 * (wire type 0), 8 bytes (1), a length and that many bytes (2: strings, bytes, nested
 * messages, packed repeated scalars) or 4 bytes (5). Groups (3, 4) are refused, as is
 * field number 0 and a varint longer than 10 bytes.
 *
 * pb_iter walks the fields of a byte range in memory; every offset it reports is the
 * range's file offset (off) plus the position in it, so a caller that holds only a
 * window of a large file can still name the byte at fault. pb_head decodes a field's
 * head alone (its payload may lie beyond the bytes given), for readers that stream a
 * message too large to hold: they read the head, then decide to load, skip or descend
 * into the payload. Nothing here allocates or ends the process.
 */
#ifndef TTP_PB_H
#define TTP_PB_H

#include <stddef.h>
#include <stdint.h>

enum pb_wt { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

struct pb_field {
	uint32_t		 num;	/* field number, > 0 */
	enum pb_wt		 wt;
	uint64_t		 v;	/* varint, I64 or I32 value; LEN: the length */
	const unsigned char	*data;	/* LEN: the payload (pb_next only) */
	uint64_t		 off;	/* file offset of the tag */
	uint64_t		 at;	/* file offset of the value (LEN: its payload) */
};

struct pb_iter {
	const unsigned char	*p, *start, *end;
	uint64_t		 off;	/* file offset of start */
	const char		*err;	/* after PB_ERR: what is wrong */
	uint64_t		 err_off;	/* and at which file offset */
};

#define PB_END	0
#define PB_OK	1
#define PB_ERR	(-1)

void pb_init(struct pb_iter *it, const void *data, size_t len, uint64_t off);
/* The next field: PB_OK, PB_END after the last, PB_ERR (it->err, it->err_off) on a
 * malformed field; after PB_ERR every call returns PB_ERR. */
int pb_next(struct pb_iter *it, struct pb_field *f);
/* The next element of a packed repeated varint field (pb_init over its payload). */
int pb_next_varint(struct pb_iter *it, uint64_t *v);

/* One varint at p (n bytes there): its length in bytes, or 0 when it is cut short by n,
 * -1 when it is longer than 10 bytes or overflows 64 bits. */
int pb_varint(const unsigned char *p, size_t n, uint64_t *v);
/*
 * A field's head at p (n bytes there, the file offset off): tag and, for varint, I64 and
 * I32, the value; for LEN the length (f->v) with f->at the payload's offset. Returns the
 * head's length, 0 when the n bytes end inside it (give more), or -1 with *err set.
 * f->data is left NULL.
 */
int pb_head(const unsigned char *p, size_t n, uint64_t off, struct pb_field *f,
    const char **err);

/* Values of the scalar wire types. */
int64_t pb_sint(uint64_t v);		/* int64 as written (two's complement) */
double pb_double(uint64_t v);		/* fixed64 bits as a double */

#endif
