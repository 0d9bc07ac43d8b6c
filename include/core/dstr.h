/* SPDX-License-Identifier: ISC */
/*
 * dstr: an intern table whose text lives on disk. Each distinct string once, known by
 * an index in order of first appearance, as in core/names.h; but the bytes go to an
 * unlinked temporary file (core/spool.h's, created at the first 64 KB) and only 8 bytes
 * per string stay in memory (its offset and a fingerprint of its hash) with a hash
 * table of 4-byte slots. Interning compares the bytes read back when a fingerprint
 * matches; reads go through a small cache. For the many long strings a program keeps
 * and prints once (ttp-table's argument reprs), not for names read in inner loops.
 * I/O errors are one message and exit 1.
 */
#ifndef TTP_DSTR_H
#define TTP_DSTR_H

#include <stddef.h>
#include <stdint.h>

/* dstr_get's strings stay valid until this many more dstr_get calls. */
#define DSTR_LIVE	16
/* The most strings a table holds (indexes are below it). */
#define DSTR_MAX	((uint32_t)INT32_MAX)

struct dstr;

struct dstr *dstr_new(void);
/* The index of s[0..len) (s may hold NULs), added when new. */
uint32_t dstr_intern(struct dstr *d, const char *s, size_t len);
/* String i, NUL-terminated: valid until DSTR_LIVE more dstr_get calls on d. */
const char *dstr_get(struct dstr *d, uint32_t i);
size_t dstr_len(const struct dstr *d, uint32_t i);
size_t dstr_count(const struct dstr *d);
/* Give back what only interning needs (the table; the entries' spare room): reads cost
 * the same, and a later dstr_intern builds the table again. */
void dstr_freeze(struct dstr *d);
void dstr_free(struct dstr *d);

#endif
