/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for pb, the protobuf wire iterator: every wire type, varints at their
 * limits (10 bytes, 2^64-1), packed varints, file offsets in the fields and in the
 * errors, and every malformed input it must refuse (cut varints and lengths, groups,
 * field 0, an 11-byte varint, a length past the end) without reading past the range.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pb.h"
#include "tap.h"

/* A copy of n bytes in a block of exactly n bytes, so a read past it is caught. */
static unsigned char *
exact(const char *s, size_t n)
{
	unsigned char *p = malloc(n ? n : 1);

	memcpy(p, s, n);
	return p;
}

static void
test_fields(void)
{
	/* 1: varint 150; 2: "hi"; 3: fixed64 1.5; 4: fixed32 7; 5: varint 2^64-1 */
	static const char m[] =
	    "\x08\x96\x01"
	    "\x12\x02hi"
	    "\x19\x00\x00\x00\x00\x00\x00\xf8\x3f"
	    "\x25\x07\x00\x00\x00"
	    "\x28\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01";
	unsigned char *p = exact(m, sizeof(m) - 1);
	struct pb_iter it;
	struct pb_field f;

	pb_init(&it, p, sizeof(m) - 1, 1000);
	ok(pb_next(&it, &f) == PB_OK && f.num == 1 && f.wt == PB_VARINT && f.v == 150 &&
	    f.off == 1000, "varint field at its file offset");
	ok(pb_next(&it, &f) == PB_OK && f.num == 2 && f.wt == PB_LEN && f.v == 2 &&
	    memcmp(f.data, "hi", 2) == 0 && f.at == 1005, "length-delimited field");
	ok(pb_next(&it, &f) == PB_OK && f.num == 3 && f.wt == PB_I64 &&
	    pb_double(f.v) == 1.5, "fixed64 double");
	ok(pb_next(&it, &f) == PB_OK && f.num == 4 && f.wt == PB_I32 && f.v == 7,
	    "fixed32");
	ok(pb_next(&it, &f) == PB_OK && f.num == 5 && f.v == UINT64_MAX &&
	    pb_sint(f.v) == -1, "10-byte varint: 2^64-1, int64 -1");
	ok(pb_next(&it, &f) == PB_END && pb_next(&it, &f) == PB_END, "end, and stays there");
	free(p);
}

static void
test_packed(void)
{
	static const char m[] = "\x01\xac\x02\xff\xff\xff\xff\x0f";
	unsigned char *p = exact(m, sizeof(m) - 1);
	struct pb_iter it;
	uint64_t v[4];
	int n = 0;

	pb_init(&it, p, sizeof(m) - 1, 0);
	while (n < 4 && pb_next_varint(&it, &v[n]) == PB_OK)
		n++;
	ok(n == 3 && v[0] == 1 && v[1] == 300 && v[2] == 0xffffffffu, "packed varints");
	free(p);
	p = exact("\x01\x80", 2);
	pb_init(&it, p, 2, 50);
	ok(pb_next_varint(&it, &v[0]) == PB_OK && pb_next_varint(&it, &v[0]) == PB_ERR &&
	    it.err_off == 51, "a packed varint cut short: error at its offset");
	free(p);
}

static void
bad(const char *m, size_t n, uint64_t want_off, const char *what)
{
	unsigned char *p = exact(m, n);
	struct pb_iter it;
	struct pb_field f;
	int rc;

	pb_init(&it, p, n, 100);
	while ((rc = pb_next(&it, &f)) == PB_OK)
		;
	ok(rc == PB_ERR && it.err != NULL && it.err_off == want_off &&
	    pb_next(&it, &f) == PB_ERR, "%s (%s at %llu)", what, it.err ? it.err : "-",
	    (unsigned long long)it.err_off);
	free(p);
}

static void
test_bad(void)
{
	bad("\x08", 1, 100, "varint value cut");
	bad("\x08\x01\x12\x05hi", 6, 102, "length past the end");
	bad("\x12", 1, 100, "length cut");
	bad("\x0b\x00", 2, 100, "group start");
	bad("\x0c", 1, 100, "group end");
	bad("\x00\x00", 2, 100, "field number 0");
	bad("\x0e", 1, 100, "wire type 6");
	bad("\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 12, 100, "11-byte varint");
	bad("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 11, 100, "varint beyond 2^64");
	bad("\x19\x00\x00\x00", 4, 100, "fixed64 cut");
	bad("\x80", 1, 100, "tag cut");
}

static void
test_head(void)
{
	struct pb_field f;
	const char *err = NULL;
	/* a LEN field of 1,000,000 bytes, of which only the head is at hand */
	unsigned char h[] = { 0x1a, 0xc0, 0x84, 0x3d };

	ok(pb_head(h, 4, 10, &f, &err) == 4 && f.num == 3 && f.wt == PB_LEN &&
	    f.v == 1000000 && f.at == 14, "pb_head: a field whose payload is elsewhere");
	ok(pb_head(h, 3, 10, &f, &err) == 0, "pb_head: a head cut by the window: 0");
}

int
main(void)
{
	test_fields();
	test_packed();
	test_bad();
	test_head();
	return tap_done();
}
