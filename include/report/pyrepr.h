/* SPDX-License-Identifier: ISC */
/*
 * pyrepr: values written as Python's repr() writes them, for the cells of TraceLens's
 * sheets (pandas writes lists, tuples and dicts with repr): strings in single quotes
 * (double when the text holds a single quote and no double one), floats in shortest
 * round-trip form ("64.0", "1e-05"), True/False/None, tuples with the one-element comma.
 */
#ifndef TTP_PYREPR_H
#define TTP_PYREPR_H

#include <jansson.h>

struct buf;

#define PY_TUPLE 1	/* JSON arrays as tuples (else lists) */

void py_str(struct buf *b, const char *s, size_t n);
void py_float(struct buf *b, double d);
void py_int(struct buf *b, long long v);
/* A JSON value: arrays as tuples or lists (flags), objects as dicts, null as None,
 * integers as int, reals as float. */
void py_json(struct buf *b, const json_t *v, int flags);

#endif
