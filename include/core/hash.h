/* SPDX-License-Identifier: ISC */
/*
 * hash: the one hash of a byte string, for the intern and group tables (core/names,
 * core/dstr, the sheets' group tables, the collective report's values). FNV-1a over
 * 64 bits: fast on the short keys these tables hold, and good enough in its low bits
 * for power-of-two tables. Not for anything an adversary must not collide: every
 * table compares the bytes on a hash match.
 */
#ifndef TTP_HASH_H
#define TTP_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t
hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 14695981039346656037ULL;

	while (n-- > 0) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

#endif
