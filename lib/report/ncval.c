/* SPDX-License-Identifier: ISC */
/*
 * ncval: the collective report's values (ncpriv.h): its string store (short strings
 * interned, long ones, split sizes and rank lists, in a spool file once per content),
 * its value table (one id per type and payload), values compared as pandas compares
 * them, and values written into a sheet's cells.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/hash.h"
#include "core/names.h"
#include "core/spool.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "ncpriv.h"

/* --- strings ----------------------------------------------------------------------- */

/* A string's id: a short one interned, a long one in the spool (once per content). */
uint32_t
nc_intern(struct nc *nc, const char *s, size_t n)
{
	struct { uint64_t h; uint64_t n; } key;
	struct bigstr *b;
	uint32_t k;
	int added;

	if (n < BIG_MIN)
		return names_intern(&nc->s, s, n);
	key.h = hash_bytes(s, n);
	key.n = n;
	k = names_add(&nc->bigkey, (const char *)&key, sizeof(key), &added);
	if (!added) {
		/* the same hash and length: the same string, unless they collide */
		if (memcmp(nc_str(nc, BIG_ID | k), s, n) == 0)
			return BIG_ID | k;
		return names_intern(&nc->s, s, n);
	}
	if (nc->sp == NULL)
		nc->sp = spool_open();
	nc->big = xgrow(nc->big, &nc->capbig, (size_t)k + 1, sizeof(*nc->big));
	b = &nc->big[k];
	b->off = spool_add(nc->sp, s, n);
	b->hash = key.h;
	b->len = n;
	nc->nbig = (size_t)k + 1;
	return BIG_ID | k;
}

/* A string's text; a long one is read back into one of NSBUF buffers, so that the
 * last NSBUF results stay valid. */
const char *
nc_str(struct nc *nc, uint32_t id)
{
	const struct bigstr *b;
	unsigned i;

	if (!(id & BIG_ID))
		return names_str(&nc->s, id);
	for (i = 0; i < NSBUF; i++)
		if (nc->sid[i] == id)
			return nc->sbuf[i];
	b = &nc->big[id & ~BIG_ID];
	i = nc->snext++ % NSBUF;
	if (nc->scap[i] < b->len + 1) {
		free(nc->sbuf[i]);
		nc->scap[i] = b->len + 1;
		nc->sbuf[i] = xreallocarray(NULL, nc->scap[i], 1);
	}
	spool_pread(nc->sp, b->off, nc->sbuf[i], b->len);
	nc->sbuf[i][b->len] = '\0';
	nc->sid[i] = id;
	return nc->sbuf[i];
}

/* A value's id in the value table (0: None): one per type and payload. */
uint32_t
nc_val_id(struct nc *nc, const struct val *v)
{
	unsigned char key[1 + sizeof(long long)];
	long long p;
	uint32_t k;
	int added;

	if (v->t == V_NONE)
		return 0;
	p = v->t == V_INT ? v->i : v->t == V_STR ? (long long)v->s : 0;
	if (v->t == V_NUM)
		memcpy(&p, &v->d, sizeof(p));
	key[0] = (unsigned char)v->t;
	memcpy(key + 1, &p, sizeof(p));
	k = names_add(&nc->vkey, (const char *)key, sizeof(key), &added);
	if (added) {
		nc->vt = xgrow(nc->vt, &nc->capvt, (size_t)k + 2, sizeof(*nc->vt));
		nc->vt[k + 1] = *v;
		nc->nvt = (size_t)k + 2;
	}
	return k + 1;
}

uint32_t
nc_str_val(struct nc *nc, const char *s)
{
	struct val v = { V_STR, 0, 0, 0 };

	v.s = nc_intern(nc, s, strlen(s));
	return nc_val_id(nc, &v);
}

/* --- values ------------------------------------------------------------------------ */

static bool
val_eq(struct nc *nc, const struct val *a, const struct val *b)
{
	if (a->t == V_NONE || b->t == V_NONE)
		return a->t == b->t;
	if (a->t == V_STR || b->t == V_STR)
		return a->t == b->t && a->s == b->s;
	if (a->t == V_INT && b->t == V_INT)
		return a->i == b->i;
	return val_num(a) == val_num(b);
}

bool
nc_id_eq(struct nc *nc, uint32_t a, uint32_t b)
{
	return a == b || val_eq(nc, V(nc, a), V(nc, b));
}

/* pandas' sort of group keys: numbers before strings */
int
nc_val_cmp(struct nc *nc, const struct val *a, const struct val *b)
{
	double x, y;

	if (a->t == V_STR || b->t == V_STR) {
		if (a->t != b->t)
			return a->t == V_STR ? 1 : -1;
		if (a->s == b->s)
			return 0;
		return strcmp(S(nc, a->s), S(nc, b->s));
	}
	x = val_num(a);
	y = val_num(b);
	if (a->t == V_INT && b->t == V_INT)
		return (a->i > b->i) - (a->i < b->i);
	return (x > y) - (x < y);
}

void
nc_val_text(struct nc *nc, struct buf *b, const struct val *v)
{
	switch (v->t) {
	case V_NONE: buf_adds(b, "None"); break;
	case V_INT: py_int(b, v->i); break;
	case V_NUM: py_float(b, v->d); break;
	default: buf_adds(b, S(nc, v->s)); break;
	}
}

/* --- cells ------------------------------------------------------------------------- */

void
nc_set_val(struct nc *nc, struct tab *t, size_t row, size_t col, const struct val *v)
{
	switch (v->t) {
	case V_INT: tab_set_int(t, row, col, v->i); break;
	case V_NUM: tab_set_num(t, row, col, v->d); break;
	case V_STR: tab_set_str(t, row, col, S(nc, v->s)); break;
	default: break;
	}
}

void
nc_set_id(struct nc *nc, struct tab *t, size_t row, size_t col, uint32_t id)
{
	nc_set_val(nc, t, row, col, V(nc, id));
}

/* a time: an integer when every value of its column is one */
void
nc_set_time(struct tab *t, size_t row, size_t col, double v, bool isint)
{
	if (isint && isfinite(v))
		tab_set_int(t, row, col, (long long)v);
	else
		tab_set_num(t, row, col, v);
}

size_t
nc_col(struct tab *t, const char *name)
{
	size_t c = tab_find(t, name);

	return c != (size_t)-1 ? c : tab_col(t, name);
}

void
nc_copy_cell(struct tab *to, size_t row, size_t col_to, const struct tab *from, size_t r,
    size_t c)
{
	const struct tab_cell *x = tab_cell(from, r, c);

	switch (x->kind) {
	case TAB_INT: tab_set_int(to, row, col_to, x->v.i); break;
	case TAB_NUM: tab_set_num(to, row, col_to, x->v.d); break;
	case TAB_STR: tab_set_str(to, row, col_to, tab_str(from, r, c)); break;
	case TAB_BOOL: tab_set_bool(to, row, col_to, (int)x->v.i); break;
	default: break;
	}
}

/* A new row of t: c's collective_id in its first column, then c's fields (nf of them)
 * in the columns of their names. */
size_t
nc_coll_row(struct nc *nc, struct tab *t, const struct coll *c, const int *fields, size_t nf)
{
	size_t row = tab_row(t), j;

	tab_set_str(t, row, 0, S(nc, c->cid));
	for (j = 0; j < nf; j++)
		nc_set_id(nc, t, row, tab_find(t, nc_fname[fields[j]]), c->f[fields[j]]);
	return row;
}
