/* SPDX-License-Identifier: ISC */
/* pb: the protobuf wire format without a schema (core/pb.h). */
#include <string.h>

#include "core/pb.h"

void
pb_init(struct pb_iter *it, const void *data, size_t len, uint64_t off)
{
	it->start = it->p = data;
	it->end = it->p + len;
	it->off = off;
	it->err = NULL;
	it->err_off = off;
}

int
pb_varint(const unsigned char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < 10; i++) {
		if (i == n)
			return 0;
		if (i == 9 && p[i] > 1)
			return -1;	/* more than 64 bits */
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if ((p[i] & 0x80) == 0) {
			*v = x;
			return (int)i + 1;
		}
	}
	return -1;
}

int
pb_head(const unsigned char *p, size_t n, uint64_t off, struct pb_field *f,
    const char **err)
{
	uint64_t tag, v;
	int k, m;

	f->data = NULL;
	f->off = off;
	if ((k = pb_varint(p, n, &tag)) <= 0) {
		if (k < 0)
			*err = "bad varint in a field tag";
		return k;
	}
	if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) {
		*err = "field number 0 or beyond 2^29";
		return -1;
	}
	f->num = (uint32_t)(tag >> 3);
	switch (tag & 7) {
	case PB_VARINT:
	case PB_LEN:
		if ((m = pb_varint(p + k, n - (size_t)k, &v)) <= 0) {
			if (m < 0)
				*err = (tag & 7) == PB_LEN ? "bad varint in a length" :
				    "bad varint";
			return m;
		}
		f->wt = (enum pb_wt)(tag & 7);
		f->v = v;
		f->at = off + (uint64_t)k + (uint64_t)m;
		return k + m;
	case PB_I64:
	case PB_I32:
		m = (tag & 7) == PB_I64 ? 8 : 4;
		if (n - (size_t)k < (size_t)m)
			return 0;
		v = 0;
		while (m-- > 0)
			v = (v << 8) | p[k + m];
		f->wt = (enum pb_wt)(tag & 7);
		f->v = v;
		f->at = off + (uint64_t)k;
		return k + ((tag & 7) == PB_I64 ? 8 : 4);
	default:
		*err = (tag & 7) == 3 || (tag & 7) == 4 ? "protobuf groups are not supported" :
		    "bad wire type";
		return -1;
	}
}

static int
fail(struct pb_iter *it, const char *msg, uint64_t off)
{
	it->err = msg;
	it->err_off = off;
	it->p = it->end;
	return PB_ERR;
}

int
pb_next(struct pb_iter *it, struct pb_field *f)
{
	uint64_t here;
	size_t left;
	const char *msg = NULL;
	int k;

	if (it->err != NULL)
		return PB_ERR;
	if (it->p >= it->end)
		return PB_END;
	here = it->off + (uint64_t)(it->p - it->start);
	left = (size_t)(it->end - it->p);
	if ((k = pb_head(it->p, left, here, f, &msg)) <= 0)
		return fail(it, k == 0 ? "field cut short by the end of its message" : msg,
		    here);
	it->p += k;
	if (f->wt == PB_LEN) {
		if (f->v > (uint64_t)(it->end - it->p))
			return fail(it, "length runs past the end of its message", here);
		f->data = it->p;
		it->p += f->v;
	}
	return PB_OK;
}

int
pb_next_varint(struct pb_iter *it, uint64_t *v)
{
	uint64_t here;
	int k;

	if (it->err != NULL)
		return PB_ERR;
	if (it->p >= it->end)
		return PB_END;
	here = it->off + (uint64_t)(it->p - it->start);
	if ((k = pb_varint(it->p, (size_t)(it->end - it->p), v)) <= 0)
		return fail(it, k == 0 ? "packed varint cut short" : "bad packed varint", here);
	it->p += k;
	return PB_OK;
}

int64_t
pb_sint(uint64_t v)
{
	return (int64_t)v;
}

double
pb_double(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}
