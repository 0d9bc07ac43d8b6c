/* SPDX-License-Identifier: ISC */
/* xevents: the events of a line, decoded in place from the file's window and walked in
 * file order (docs/jax.md §1); the stats they carry. */
#include <string.h>

#include "core/diag.h"
#include "core/names.h"
#include "core/pb.h"
#include "xpriv.h"

/* pb_next, with the fields of events (a one-byte tag, a varint or a length of at most
 * nine bytes) decoded inline; anything else, errors included, goes to pb_next. Returns
 * the field's tag (number << 3 | wire type, from registers: reading f's members back
 * right after they are stored stalls), PB_END or PB_ERR. */
static inline long
fast_next(struct pb_iter *it, struct pb_field *f)
{
	const unsigned char *p = it->p, *end = it->end;
	uint64_t v = 0;
	unsigned t, i;
	int rc;

	if (it->err != NULL || end - p < 2)
		goto slow;
	t = p[0];
	if (t >= 0x80 || t < 8 || ((t & 7) != PB_VARINT && (t & 7) != PB_LEN))
		goto slow;
	for (i = 1;; i++) {
		if (i > 9 || p + i >= end)
			goto slow;
		v |= (uint64_t)(p[i] & 0x7f) << (7 * (i - 1));
		if ((p[i] & 0x80) == 0)
			break;
	}
	i++;
	if ((t & 7) == PB_LEN && v > (uint64_t)(end - p - i))
		goto slow;
	f->num = t >> 3;
	f->wt = (enum pb_wt)(t & 7);
	f->v = v;
	f->off = it->off + (uint64_t)(p - it->start);
	f->at = f->off + i;
	f->data = NULL;
	p += i;
	if ((t & 7) == PB_LEN) {
		f->data = p;
		p += v;
	}
	it->p = p;
	return (long)t;
slow:
	if ((rc = pb_next(it, f)) != PB_OK)
		return rc;
	return (long)f->num << 3 | (long)f->wt;
}

/* Decode the XEvent at [p, p+n) (file offset off); its stats into st. String values are
 * interned only when strings is set (the emitting pass), never while counting. */
int
xp_decode_event(struct xp *x, struct plane *pl, const unsigned char *p, uint64_t n,
    uint64_t off, struct event *e, struct xstat *st, size_t *nst, size_t maxst,
    bool strings)
{
	struct pb_iter it, si;
	struct pb_field f, g;
	long t, u;
	int rc;

	memset(e, 0, sizeof(*e));
	*nst = 0;
	if (strings)
		buf_reset(&x->estr);
	pb_init(&it, p, (size_t)n, off);
	while ((t = fast_next(&it, &f)) > 0) {
		if (t == (1 << 3 | PB_VARINT))
			e->md = (int64_t)f.v;
		else if (t == (2 << 3 | PB_VARINT))
			e->off_ps = (int64_t)f.v;
		else if (t == (3 << 3 | PB_VARINT))
			e->dur_ps = f.v;
		else if (t == (4 << 3 | PB_LEN) && *nst < maxst) {
			struct xstat *s = &st[*nst];

			memset(s, 0, sizeof(*s));
			s->s = NAME_NONE;
			pb_init(&si, f.data, (size_t)f.v, f.at);
			while ((u = fast_next(&si, &g)) > 0) {
				switch (u >> 3) {
				case 1: s->md = (int64_t)g.v; break;
				case 2: s->kind = S_DOUBLE; s->u = g.v; break;
				case 3: s->kind = S_UINT; s->u = g.v; break;
				case 4: s->kind = S_INT; s->u = g.v; break;
				case 5:
					if ((u & 7) != PB_LEN || !strings)
						break;
					s->kind = S_ESTR;
					s->u = x->estr.len;
					buf_add(&x->estr, (const char *)g.data, (size_t)g.v);
					buf_addc(&x->estr, '\0');
					break;
				case 6: s->kind = S_BYTES; s->u = g.at; s->len = g.v; break;
				case 7: s->kind = S_REF; s->u = g.v; break;
				default: break;
				}
			}
			if (u == PB_ERR) {
				error_set(x->err, x->name, 0, (long long)si.err_off, "XStat: %s",
				    si.err);
				return -1;
			}
			(*nst)++;
		}
	}
	rc = (int)t;
	if (rc == PB_ERR) {
		error_set(x->err, x->name, 0, (long long)it.err_off, "XEvent: %s", it.err);
		return -1;
	}
	if (e->off_ps < 0) {
		error_set(x->err, x->name, 0, (long long)off, "XEvent: negative offset_ps");
		return -1;
	}
	e->meta = xp_find_evmd(pl, e->md);
	return 0;
}


/* The event's start as (ns, ps remainder). */
void
xp_event_start(const struct line *ln, const struct event *e, int64_t *ns, uint32_t *rem)
{
	*ns = ln->ts_ns + e->off_ps / 1000;
	*rem = (uint32_t)(e->off_ps % 1000);
}

/* Walk the events of line li: fn(x, pl, li, event, stats, nstats, file off, len). */
typedef int (*event_fn)(struct xp *, struct plane *, size_t, const struct event *,
    const struct xstat *, size_t, uint64_t, uint64_t, void *);

/* The fields of line li from file offset from on, one at a time through xsrc_it:
 * xp_walk_line's way past anything out of the ordinary, and its messages. */
static int
walk_slow(struct xp *x, struct plane *pl, size_t li, uint64_t from, event_fn fn, void *arg,
    size_t maxst, struct xstat *st)
{
	struct line *ln = &pl->lines[li];
	struct xsrc_it it;
	struct pb_field f;
	struct event e;
	const unsigned char *p;
	size_t nst;
	int rc;

	xsrc_it_init(&it, &x->src, from, ln->off + ln->len - from, "XLine");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num != 4 || f.wt != PB_LEN)
			continue;
		if (f.v > (1u << 24))
			return xp_fail(x, f.off, "XLine", "an event of more than 16 MiB");
		if ((p = xp_load(x, &f)) == NULL)
			return -1;
		if (xp_decode_event(x, pl, p, f.v, f.at, &e, st, &nst, maxst, false) != 0)
			return -1;
		if (fn(x, pl, li, &e, st, nst, f.at, f.v, arg) != 0)
			return -1;
	}
	return rc == PB_ERR ? -1 : 0;
}

/*
 * An event the counting pass need not decode on a plane whose counts matter to no UID
 * (links_only): its fields but its metadata id, offset and duration, well-formed
 * varints of at most 9 bytes (an offset that is not negative), no stats of its own nor
 * by its metadata, so that it carries no correlation_id. Anything else is decoded, and
 * its errors reported, as always.
 */
/* The length of the varint at p, 8 bytes readable there: 1 to 8, 0 when longer. */
static inline unsigned
varint_len8(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w, m;

	memcpy(&w, p, 8);
	m = ~w & 0x8080808080808080ULL;
	return m ? (unsigned)(__builtin_ctzll(m) >> 3) + 1 : 0;
#else
	unsigned i;

	for (i = 0; i < 8; i++)
		if ((p[i] & 0x80) == 0)
			return i + 1;
	return 0;
#endif
}

static bool
plain_event(const struct plane *pl, const unsigned char *p, uint64_t n,
    const unsigned char *lim)
{
	const unsigned char *e = p + n;
	const struct evmd *m;
	int64_t md = 0;

	while (p < e) {
		unsigned t = *p++, i;
		uint64_t v = 0;

		if (t != (1 << 3) && t != (2 << 3) && t != (3 << 3))
			return false;
		if (t != (1 << 3) && lim - p >= 8 && (i = varint_len8(p)) != 0) {
			/* an offset or a duration: passed over */
			if (i > (uint64_t)(e - p))
				return false;
			p += i;
			continue;
		}
		for (i = 0;; i++) {
			if (i >= 9 || p + i >= e)
				return false;
			v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
			if ((p[i] & 0x80) == 0)
				break;
		}
		p += i + 1;
		if (t == (1 << 3))
			md = (int64_t)v;
	}
	m = xp_find_evmd(pl, md);
	return m == NULL || m->nst == 0;
}

/* Walk the events of line li: fn(x, pl, li, event, stats, nstats, file off, len), which
 * must not read the file (the window stays in use). The
 * line's bytes come in windows of WALK_CHUNK, its fields read in place; from a field
 * that is not a plain event head (a long tag, a group, a length past the line's end, an
 * event over 16 MiB) walk_slow goes on, so that errors read as they always have. */
int
xp_walk_line(struct xp *x, struct plane *pl, size_t li, event_fn fn, void *arg, size_t maxst)
{
	struct line *ln = &pl->lines[li];
	struct xstat st[MAXSTATS];
	struct event e;
	uint64_t pos = ln->off, end = ln->off + ln->len;
	size_t nst;

	while (pos < end) {
		uint64_t n = end - pos < xp_walk_chunk() ? end - pos : xp_walk_chunk();
		const unsigned char *p = xsrc_get(&x->src, pos, n, x->err), *q, *qe;

		if (p == NULL)
			return -1;
		for (q = p, qe = p + n; q < qe;) {
			uint64_t v = 0, left = (uint64_t)(qe - q);
			unsigned t = q[0], i;

			/* a one-byte tag of a varint or LEN field, its value in place */
			if (t >= 0x80 || t < 8 || ((t & 7) != PB_VARINT && (t & 7) != PB_LEN))
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			for (i = 1; i < left && i <= 10; i++) {
				v |= (uint64_t)(q[i] & 0x7f) << (7 * (i - 1));
				if ((q[i] & 0x80) == 0)
					break;
			}
			if (i >= left || i > 9) {
				if (i >= left && pos + n < end && q > p)
					break;		/* cut by the window: read on from q */
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			}
			i++;
			if ((t & 7) == PB_VARINT) {
				q += i;
				continue;
			}
			if (v > left - i) {
				if (pos + n < end && q > p && v <= (1u << 24))
					break;		/* cut by the window */
				if (pos + n < end && v <= (1u << 24) && v + i <= end - pos) {
					/* one field larger than a window: read it whole */
					n = v + i;
					if ((p = xsrc_get(&x->src, pos, n, x->err)) == NULL)
						return -1;
					q = p;
					qe = p + n;
					continue;
				}
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			}
			if ((t >> 3) == 4) {
				uint64_t at = pos + (uint64_t)(q - p) + i;

				if (v > (1u << 24))
					return walk_slow(x, pl, li, at - i, fn, arg, maxst, st);
				if (pl->links_only && plain_event(pl, q + i, v, qe)) {
					q += i + v;
					continue;
				}
				if (xp_decode_event(x, pl, q + i, v, at, &e, st, &nst, maxst,
				    false) != 0)
					return -1;
				if (fn(x, pl, li, &e, st, nst, at, v, arg) != 0)
					return -1;
			}
			q += i + v;
		}
		pos += (uint64_t)(q - p);
	}
	return 0;
}

const struct xstat *
xp_find_stat(const struct plane *pl, const struct event *e, const struct xstat *st,
    size_t nst, int64_t md)
{
	size_t i;

	if (md == INT64_MIN)
		return NULL;
	for (i = nst; i-- > 0;)
		if (st[i].md == md)
			return &st[i];
	if (e->meta != NULL)
		for (i = e->meta->nst; i-- > 0;)
			if (pl->stats[e->meta->st + i].md == md)
				return &pl->stats[e->meta->st + i];
	return NULL;
}

bool
xp_stat_u64(const struct xstat *s, uint64_t *v)
{
	if (s == NULL)
		return false;
	if (s->kind == S_UINT || s->kind == S_INT) {
		*v = s->u;
		return true;
	}
	if (s->kind == S_DOUBLE) {
		double d = pb_double(s->u);
		if (!(d >= 0 && d < 1.8e19))
			return false;
		*v = (uint64_t)d;
		return true;
	}
	return false;
}

const char *
xp_stat_text(const struct xp *x, const struct plane *pl, const struct xstat *s)
{
	if (s == NULL)
		return NULL;
	if (s->kind == S_ESTR)
		return x->estr.p + s->u;
	if (s->kind == S_STR)
		return names_str(&pl->strs, s->s);
	if (s->kind == S_REF)
		return xp_stat_name(pl, (int64_t)s->u);
	return NULL;
}
