/* SPDX-License-Identifier: ISC */
/*
 * ckint: checked integer arithmetic for values that come from the input. Each helper
 * stores the exact result in *out and returns true, or returns false when the result
 * does not fit (then *out is unspecified and must not be used): the caller reports a
 * clear error with the input's place (diag.h) or rejects the record (rec_reject), never
 * goes on with a wrapped value. "i64" is long long, the type of the record API's
 * integers (rec_int, rec_set_int), 64 bits on every target.
 */
#ifndef TTP_CKINT_H
#define TTP_CKINT_H

#include <limits.h>
#include <stdbool.h>

_Static_assert(sizeof(long long) == 8 && LLONG_MAX == 0x7fffffffffffffffLL,
    "long long is 64 bits");

static inline bool
ck_add_i64(long long a, long long b, long long *out)
{
	return !__builtin_add_overflow(a, b, out);
}

static inline bool
ck_sub_i64(long long a, long long b, long long *out)
{
	return !__builtin_sub_overflow(a, b, out);
}

static inline bool
ck_mul_i64(long long a, long long b, long long *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* Products of non-negative sizes and counts (tensor elements, FLOP counts): 128 bits. */
__extension__ typedef unsigned __int128 ck_u128;

static inline bool
ck_mul_u128(ck_u128 a, ck_u128 b, ck_u128 *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

#endif
