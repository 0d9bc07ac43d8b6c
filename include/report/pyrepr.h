/* SPDX-License-Identifier: ISC */
/*
 * pyrepr: values written as Python's repr() writes them, for the cells of TraceLens's
 * sheets (pandas writes lists, tuples and dicts with repr): strings in single quotes
 * (double when the text holds a single quote and no double one), floats in shortest
 * round-trip form ("64.0", "1e-05"), True/False/None, tuples with the one-element comma.
 */
#ifndef TTP_PYREPR_H
#define TTP_PYREPR_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

#define PY_TUPLE 1	/* JSON arrays as tuples (else lists) */
#define PY_REAL 2	/* every JSON number as a float */

void py_str(struct buf *b, const char *s, size_t n);
void py_float(struct buf *b, double d);
void py_int(struct buf *b, long long v);
/* The JSON value json[0..n) (valid text, e.g. a record's rec_raw): arrays as tuples or
 * lists (flags), objects as dicts (keys in their order, up to a NUL), null as None,
 * integers as int, reals as float; when an integer is beyond long long, every integer of
 * the value as a float (as the sheets read values through jansson before). False, and
 * b holding part of it, when the text is not one JSON value. */
bool py_json(struct buf *b, const char *json, size_t n, int flags);
/* The repr s[0..n) that py_json wrote with PY_TUPLE, as it writes it without: each
 * tuple outside the strings a list ("(1,)" is "[1]"), the rest byte for byte. */
void py_tuple_list(struct buf *b, const char *s, size_t n);
/* Whether an integer of the JSON text json[0..n) is beyond long long. */
bool py_json_bigint(const char *json, size_t n);

#endif
