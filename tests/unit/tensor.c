/* SPDX-License-Identifier: ISC */
/* Unit tests for tensor: reading the "in"/"out" tensor arrays of records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
#include "core/tensor.h"
#include "tap.h"

static struct rec *
parse(const char *s)
{
	return tap_rec(s, strlen(s), "t:7");
}

static bool
dims_are(const struct dims *d, long long w, long long z, long long y, long long x)
{
	return d->rank == 4 && d->d[0] == w && d->d[1] == z && d->d[2] == y && d->d[3] == x;
}

static void
test_full(void)
{
	struct rec *r = parse("{\"kind\":\"op\",\"in\":[{\"shape\":[1,2,32,64],"
	    "\"logical\":[1,2,3,60],\"layout\":\"TILE\",\"dtype\":\"BFLOAT16\","
	    "\"mem\":\"DEV_0_DRAM_INTERLEAVED\"},{\"shape\":[1,1,32,32],\"dtype\":"
	    "\"BFLOAT8_B\"}],\"out\":[{\"shape\":[9,8,7,6],\"mem\":\"DEV_1_L1_INTERLEAVED\"}]}");
	struct tensor t[4];

	ok(tensor_read(r, "in", t, 4) == 2, "two inputs");
	ok(t[0].present && t[0].has_shape && t[0].has_logical, "in[0]: present, both shapes");
	ok(dims_are(&t[0].shape, 1, 2, 32, 64), "in[0].shape");
	ok(dims_are(&t[0].logical, 1, 2, 3, 60), "in[0].logical");
	is_str(t[0].layout, "TILE", "in[0].layout");
	is_str(t[0].dtype, "BFLOAT16", "in[0].dtype");
	is_str(t[0].mem, "DEV_0_DRAM_INTERLEAVED", "in[0].mem");
	ok(t[1].present && t[1].has_shape && t[1].has_logical &&
	    dims_are(&t[1].logical, 1, 1, 32, 32), "in[1]: no logical shape: the shape's");
	ok(t[1].layout == NULL && t[1].mem == NULL, "in[1]: absent strings are NULL");
	is_str(t[1].dtype, "BFLOAT8_B", "in[1].dtype");
	ok(tensor_read(r, "out", t, 4) == 1 && dims_are(&t[0].shape, 9, 8, 7, 6),
	    "out[0].shape");
	is_str(t[0].mem, "DEV_1_L1_INTERLEAVED", "out[0].mem");
	ok(tensor_read(r, "in", t, 1) == 1 && dims_are(&t[0].shape, 1, 2, 32, 64),
	    "max 1: the rest skipped");
	ok(tensor_read(r, "in", t, 0) == 0, "max 0: nothing read");
	ok(tensor_read(r, "nope", t, 4) == 0, "absent key: no tensors");
	rec_free(r);
}

static void
test_nulls(void)
{
	struct rec *r = parse("{\"in\":[null,{\"shape\":null,\"dtype\":null},"
	    "{\"shape\":[1,1,1,1]}],\"out\":null}");
	struct tensor t[4];

	memset(t, 0xff, sizeof(t));
	ok(tensor_read(r, "in", t, 4) == 3, "nulls in between are counted");
	ok(!t[0].present && !t[0].has_shape && t[0].dtype == NULL, "in[0] null: not present");
	ok(t[1].present && !t[1].has_shape && t[1].dtype == NULL, "null members: absent");
	ok(t[2].present && dims_are(&t[2].shape, 1, 1, 1, 1), "in[2] after the nulls");
	ok(tensor_read(r, "out", t, 4) == 0, "out null: no tensors");
	rec_free(r);
	r = parse("{\"in\":[]}");
	ok(tensor_read(r, "in", t, 4) == 0, "empty array");
	rec_free(r);
}

static void
test_text(void)
{
	static const char changed[] = "[{\"shape\":[4,3,2,1],\"dtype\":\"FLOAT32\"}]";
	/* Spaces everywhere, members skipped (nested, with escapes and brackets in
	 * strings), escaped strings and keys, a duplicate member (the last wins). */
	struct rec *r = parse("{ \"in\" : [ { \"x\" : { \"a\" : [ 1 , { \"b\" : \"]}\\\"\" } ] } ,"
	    " \"logical\" : [ 1 , 1 , 7 , 2 ] , \"dtype\" : \"BF\\u004c\\\"OAT\\n\" ,"
	    " \"sh\\u0061pe\" : [ 0 , 0 , 0 , 12345678901234 ] , \"mem\" : \"L1\" ,"
	    " \"mem\" : \"DRAM\\u00e9\" } , null ] }");
	struct tensor t[4];

	ok(tensor_read(r, "in", t, 4) == 2, "spaces and skipped members");
	ok(dims_are(&t[0].logical, 1, 1, 7, 2), "logical after a skipped member");
	is_str(t[0].dtype, "BFL\"OAT\n", "escapes decoded");
	ok(t[0].has_shape && dims_are(&t[0].shape, 0, 0, 0, 12345678901234),
	    "escaped key, big dimension");
	is_str(t[0].mem, "DRAM\xc3\xa9", "duplicate member: the last wins; \\u00e9 as UTF-8");
	ok(!t[1].present, "a null after spaces");
	rec_free(r);

	/* A value set by the program (not from the line) reads the same. */

	r = parse("{\"kind\":\"op\"}");
	rec_set_raw(r, "out", changed, strlen(changed));
	ok(tensor_read(r, "out", t, 4) == 1 && dims_are(&t[0].shape, 4, 3, 2, 1),
	    "a changed value");
	is_str(t[0].dtype, "FLOAT32", "a changed value: its string");
	rec_free(r);
}

/* tensor_read on the record s: it must read nothing and mark the record bad with want
 * ("where: message"), the process going on. */
static void
fails(const char *s, const char *want)
{
	struct tensor t[4];
	struct rec *r = parse(s);
	size_t n = tensor_read(r, "in", t, 4);
	const struct error *e = rec_bad(r);
	char got[512] = "";

	if (e != NULL)
		snprintf(got, sizeof(got), "%s: %s\n", e->file, e->msg);
	if (!ok(n == 0 && e != NULL && strcmp(got, want) == 0, "error: %s", s))
		printf("#   read %zu, error: %s", n, e != NULL ? got : "(none)\n");
	rec_free(r);
}

static void
test_types(void)
{
	static const char d4[] = "expected an array of at most 8 non-negative integers\n";
	char want[256];

	fails("{\"in\":\"x\"}", "t:7: in: expected an array of tensors\n");
	fails("{\"in\":{}}", "t:7: in: expected an array of tensors\n");
	fails("{\"in\":[null,7]}", "t:7: in[1]: expected a tensor object or null\n");
	fails("{\"in\":[[1,1,1,1]]}", "t:7: in[0]: expected a tensor object or null\n");
#define DIMS(rec, member) do {						\
		snprintf(want, sizeof(want), "t:7: in[0].%s: %s", member, d4); \
		fails(rec, want);					\
	} while (0)
	DIMS("{\"in\":[{\"shape\":[1,1,\"x\",3]}]}", "shape");
	DIMS("{\"in\":[{\"shape\":[1,1,3,4,5,6,7,8,9]}]}", "shape");
	DIMS("{\"in\":[{\"shape\":[1,-1,3,4]}]}", "shape");
	DIMS("{\"in\":[{\"shape\":[1,1.5,3,4]}]}", "shape");
	DIMS("{\"in\":[{\"shape\":[1,1e3,3,4]}]}", "shape");
	DIMS("{\"in\":[{\"shape\":[1,9223372036854775808,3,4]}]}", "shape");
	DIMS("{\"in\":[{\"logical\":\"1,1,1,1\"}]}", "logical");
	DIMS("{\"in\":[{\"logical\":{}}]}", "logical");
#undef DIMS
	fails("{\"in\":[{\"shape\":[1,1,1,1]},{\"dtype\":16}]}",
	    "t:7: in[1].dtype: expected a string\n");
	fails("{\"in\":[{\"mem\":[\"L1\"]}]}", "t:7: in[0].mem: expected a string\n");
	fails("{\"in\":[{\"layout\":true}]}", "t:7: in[0].layout: expected a string\n");
}

/* Any rank from 0 to 8; TT's [W, Z, Y, X] padded on the left. */
static void
test_ranks(void)
{
	struct rec *r = parse("{\"in\":[{\"shape\":[]},{\"shape\":[7]},{\"shape\":"
	    "[2,3,4,5,6,7,8,9]},{\"shape\":[3, 5],\"logical\":[1,2,3,4]}]}");
	struct tensor t[4];
	long long w[4] = { 0, 0, 0, 0 };

	ok(tensor_read(r, "in", t, 4) == 4, "four tensors of ranks 0, 1, 8, 2");
	ok(t[0].has_shape && t[0].shape.rank == 0, "rank 0: a scalar");
	ok(t[1].shape.rank == 1 && t[1].shape.d[0] == 7, "rank 1");
	ok(t[2].shape.rank == 8 && t[2].shape.d[0] == 2 && t[2].shape.d[7] == 9, "rank 8");
	ok(dims_wzyx(&t[3].shape, w) && w[0] == 1 && w[1] == 1 && w[2] == 3 && w[3] == 5,
	    "dims_wzyx pads on the left");
	ok(dims_wzyx(&t[0].shape, w) && w[0] == 1 && w[3] == 1, "dims_wzyx of a scalar");
	ok(!dims_wzyx(&t[2].shape, w) && w[0] == 1, "dims_wzyx: rank 8 is not TT's");
	ok(dims_wzyx(&t[3].logical, w) && w[0] == 1 && w[3] == 4, "rank 4 as it is");
	rec_free(r);
}

int
main(void)
{
	setprogname("tensor");
	test_full();
	test_nulls();
	test_text();
	test_types();
	test_ranks();
	return tap_done();
}
