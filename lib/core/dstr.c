/* SPDX-License-Identifier: ISC */
/*
 * dstr: an intern table whose text is on disk (see dstr.h). The strings are appended,
 * each with a NUL, to a write buffer that goes to a temporary file when full; string i
 * is the bytes from its offset to the next string's. Per string in memory: one 64-bit
 * entry (a 36-bit offset, the top 28 bits of its 64-bit FNV-1a hash) and, at a load of
 * at most 2/3, one or two 4-byte slots of an open-addressing table indexed by the top
 * bits of the hash (so that the table grows from the entries alone, without reading
 * the strings back). Reads go through a cache of 4 KB blocks of the file (direct-mapped,
 * 1 MB), so that strings read in about the order they were added (a sheet's rows) cost
 * one read a block; a string across two blocks or longer is read alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/hash.h"
#include "core/dstr.h"
#include "core/spool.h"

#define WBUF		65536		/* the write buffer */
#define OFFBITS		36		/* 64 GB of text */
#define FPBITS		(64 - OFFBITS)
#define OFFMASK		(((uint64_t)1 << OFFBITS) - 1)
#define ENT_OFF(e)	((e) & OFFMASK)
#define ENT_FP(e)	((e) >> OFFBITS)
#define BLK		4096		/* the read cache's blocks ... */
#define NBLK		256		/* ... and their number */

struct dblock {
	uint64_t	 no;		/* block number + 1, 0: empty */
	size_t		 have;		/* bytes read (the file may have ended there) */
	char		*p;
};

struct dring {
	char	*p;
	size_t	 cap;
};

struct dstr {
	int		 fd;		/* -1 until the first flush */
	uint64_t	 size, flushed;	/* bytes appended; those in the file */
	char		*wbuf;
	size_t		 wlen;
	uint64_t	*ent;
	size_t		 n, cap;
	uint32_t	*tab;		/* index + 1, 0: empty */
	unsigned	 bits;		/* the table has 1 << bits slots */
	struct dblock	*blk;
	struct dring	 ring[DSTR_LIVE];
	unsigned	 next;
	char		*scratch;	/* a long string read back */
	size_t		 scap;
};

struct dstr *
dstr_new(void)
{
	struct dstr *d = xcalloc(1, sizeof(*d));

	d->fd = -1;
	d->wbuf = xmalloc(WBUF);
	d->bits = 8;
	d->tab = xcalloc((size_t)1 << d->bits, sizeof(*d->tab));
	d->blk = xcalloc(NBLK, sizeof(*d->blk));
	return d;
}

void
dstr_free(struct dstr *d)
{
	size_t i;

	if (d == NULL)
		return;
	if (d->fd >= 0)
		close(d->fd);
	for (i = 0; i < NBLK; i++)
		free(d->blk[i].p);
	for (i = 0; i < DSTR_LIVE; i++)
		free(d->ring[i].p);
	free(d->blk);
	free(d->scratch);
	free(d->wbuf);
	free(d->ent);
	free(d->tab);
	free(d);
}

size_t
dstr_count(const struct dstr *d)
{
	return d->n;
}

size_t
dstr_len(const struct dstr *d, uint32_t i)
{
	uint64_t end = (size_t)i + 1 < d->n ? ENT_OFF(d->ent[i + 1]) : d->size;

	return (size_t)(end - ENT_OFF(d->ent[i]) - 1);
}

static void
write_out(struct dstr *d, const char *p, size_t n)
{
	if (d->fd < 0)
		d->fd = spool_tmpfd();
	if (spool_writefd(d->fd, p, n) != 0)
		die(EXIT_DATA, "temporary file: %s", strerror(errno));
	d->flushed += n;
}

static void
flush(struct dstr *d)
{
	write_out(d, d->wbuf, d->wlen);
	d->wlen = 0;
}

static void
read_at(struct dstr *d, char *dst, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t r = pread(d->fd, dst, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die(EXIT_DATA, "temporary file: %s", r < 0 ? strerror(errno) :
			    "shorter than written");
		dst += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
}

/* The len bytes of string i (not NUL-terminated): valid until the next call. */
static const char *
text_of(struct dstr *d, uint32_t i, size_t len)
{
	uint64_t off = ENT_OFF(d->ent[i]), no = off / BLK, at = no * BLK;
	struct dblock *c = &d->blk[no % NBLK];

	if (off >= d->flushed)
		return d->wbuf + (off - d->flushed);
	if (len == 0)
		return "";
	if ((off + len - 1) / BLK == no) {	/* in one block */
		if (c->no != no + 1 || off + len > at + c->have) {
			if (c->p == NULL)
				c->p = xmalloc(BLK);
			c->have = d->flushed - at < BLK ? (size_t)(d->flushed - at) : BLK;
			read_at(d, c->p, c->have, at);
			c->no = no + 1;
		}
		return c->p + (off - at);
	}
	d->scratch = xgrow(d->scratch, &d->scap, len, 1);
	read_at(d, d->scratch, len, off);
	return d->scratch;
}

/* Twice the slots, placed again from the entries' fingerprints. */
static void
grow_table(struct dstr *d)
{
	size_t i, j, mask;

	if (d->bits >= FPBITS)
		die(EXIT_DATA, "more than %zu distinct strings in a string store", d->n);
	free(d->tab);
	d->bits++;
	mask = ((size_t)1 << d->bits) - 1;
	d->tab = xcalloc(mask + 1, sizeof(*d->tab));
	for (i = 0; i < d->n; i++) {
		for (j = (size_t)(ENT_FP(d->ent[i]) >> (FPBITS - d->bits)); d->tab[j] != 0;
		    j = (j + 1) & mask)
			;
		d->tab[j] = (uint32_t)i + 1;
	}
}

/* The slot of s (its index + 1 there), or the empty slot where it goes (0 there). */
static size_t
find(struct dstr *d, const char *s, size_t len, uint64_t fp)
{
	size_t mask = ((size_t)1 << d->bits) - 1, j;

	for (j = (size_t)(fp >> (FPBITS - d->bits)); d->tab[j] != 0; j = (j + 1) & mask) {
		uint32_t k = d->tab[j] - 1;

		if (ENT_FP(d->ent[k]) == fp && dstr_len(d, k) == len &&
		    memcmp(text_of(d, k, len), s, len) == 0)
			break;
	}
	return j;
}

static void
append(struct dstr *d, const char *s, size_t len)
{
	if (d->wlen + len + 1 > WBUF) {
		flush(d);
		if (len + 1 > WBUF) {	/* a long one: straight to the file */
			write_out(d, s, len);
			write_out(d, "", 1);
			d->size += len + 1;
			return;
		}
	}
	memcpy(d->wbuf + d->wlen, s, len);
	d->wbuf[d->wlen + len] = '\0';
	d->wlen += len + 1;
	d->size += len + 1;
}

void
dstr_freeze(struct dstr *d)
{
	free(d->tab);
	d->tab = NULL;
	if (d->n > 0 && d->cap > d->n) {
		d->ent = xreallocarray(d->ent, d->n, sizeof(*d->ent));
		d->cap = d->n;
	}
}

uint32_t
dstr_intern(struct dstr *d, const char *s, size_t len)
{
	uint64_t fp = hash_bytes(s, len) >> OFFBITS;
	size_t j;

	if (d->tab == NULL) {	/* frozen: the table again, as large as it was */
		d->bits--;
		grow_table(d);
	}
	j = find(d, s, len, fp);

	if (d->tab[j] != 0)
		return d->tab[j] - 1;
	if (d->n >= DSTR_MAX)
		die(EXIT_DATA, "more than %u distinct strings in a string store", DSTR_MAX);
	if (len >= OFFMASK || d->size > OFFMASK - len - 1)
		die(EXIT_DATA, "a string store over %llu bytes",
		    (unsigned long long)OFFMASK);
	if (3 * (d->n + 1) > ((size_t)2 << d->bits)) {
		grow_table(d);
		j = find(d, s, len, fp);
	}
	d->ent = xgrow(d->ent, &d->cap, d->n + 1, sizeof(*d->ent));
	d->ent[d->n] = d->size | fp << OFFBITS;
	d->tab[j] = (uint32_t)d->n + 1;
	append(d, s, len);
	return (uint32_t)d->n++;
}

const char *
dstr_get(struct dstr *d, uint32_t i)
{
	struct dring *r;
	size_t len;

	if (i >= d->n)
		return "None";	/* as names_str */
	len = dstr_len(d, i);
	r = &d->ring[d->next++ % DSTR_LIVE];
	if (r->cap > 65536 && len < 65536) {	/* a long string's room, given back */
		free(r->p);
		r->p = NULL;
		r->cap = 0;
	}
	r->p = xgrow(r->p, &r->cap, len + 1, 1);
	memcpy(r->p, text_of(d, i, len), len);
	r->p[len] = '\0';
	return r->p;
}
