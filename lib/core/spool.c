/* SPDX-License-Identifier: ISC */
/*
 * spool: an append-only temporary file of record lines, read back by offset through
 * a window buffer (see spool.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/spool.h"

#define WBUFSZ	(1u << 20)	/* write buffer and read window: 1 MB each */

struct spool {
	int	 fd;
	uint64_t size;		/* bytes appended (file + wbuf) */
	uint64_t flushed;	/* bytes in the file */
	char	*wbuf;		/* pending appends */
	size_t	 wlen;
	char	*rbuf;		/* read window: file bytes [rbase, rbase + rlen) */
	size_t	 rlen, rcap;
	uint64_t rbase;
};

static const char *
tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d != NULL && *d != '\0' ? d : "/tmp";
}

int
spool_tmpfd(void)
{
	char path[4096];
	sigset_t set, old;
	int fd, e;

	if ((size_t)snprintf(path, sizeof(path), "%s/ttp-spool.XXXXXX", tmpdir()) >= sizeof(path))
		die(EXIT_DATA, "TMPDIR too long");
	/* created and unlinked with the fatal signals held: a signal in between would
	 * leave the file behind in TMPDIR */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, &old);
	fd = mkstemp(path);
	e = errno;
	if (fd != -1)
		unlink(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd == -1)
		die(EXIT_DATA, "%s: cannot create a temporary file: %s", path, strerror(e));
	return fd;
}

int
spool_writefd(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

struct spool *
spool_open(void)
{
	struct spool *sp = xcalloc(1, sizeof(*sp));

	sp->fd = spool_tmpfd();
	sp->wbuf = xmalloc(WBUFSZ);
	sp->rcap = WBUFSZ;
	sp->rbuf = xmalloc(sp->rcap);
	return sp;
}

static void
writeall(struct spool *sp, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = pwrite(sp->fd, p, n, (off_t)sp->flushed);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_DATA, "temporary file: %s", strerror(errno));
		}
		p += w;
		n -= (size_t)w;
		sp->flushed += (uint64_t)w;
	}
}

static void
flush(struct spool *sp)
{
	writeall(sp, sp->wbuf, sp->wlen);
	sp->wlen = 0;
}

uint64_t
spool_add(struct spool *sp, const char *p, size_t len)
{
	uint64_t off = sp->size;

	if (sp->wlen + len > WBUFSZ) {
		flush(sp);
		if (len > WBUFSZ) {
			writeall(sp, p, len);
			sp->size += len;
			return off;
		}
	}
	memcpy(sp->wbuf + sp->wlen, p, len);
	sp->wlen += len;
	sp->size += len;
	return off;
}

uint64_t
spool_size(const struct spool *sp)
{
	return sp->size;
}

static void
readat(struct spool *sp, char *dst, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t r = pread(sp->fd, dst, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_DATA, "temporary file: %s", strerror(errno));
		}
		if (r == 0)
			die(EXIT_DATA, "temporary file: unexpected end of file");
		dst += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
}

/* Fill the window with the bytes from off: the whole window when the read continues the
 * last one (a replay in file order), else only the len bytes asked for. */
static void
fill(struct spool *sp, uint64_t off, size_t len)
{
	size_t want;

	if (sp->wlen > 0)
		flush(sp);
	if (len > sp->rcap) {
		sp->rcap = len;
		free(sp->rbuf);
		sp->rbuf = xmalloc(sp->rcap);
	}
	want = len;
	if (off >= sp->rbase && off <= sp->rbase + sp->rlen)
		want = sp->rcap;
	if (want > sp->flushed - off)
		want = (size_t)(sp->flushed - off);
	readat(sp, sp->rbuf, want, off);
	sp->rbase = off;
	sp->rlen = want;
}

const char *
spool_get(struct spool *sp, uint64_t off, size_t len)
{
	if (off > sp->size || len > sp->size - off)
		die(EXIT_DATA, "temporary file: read beyond its end");
	if (!(off >= sp->rbase && off + len <= sp->rbase + sp->rlen))
		fill(sp, off, len);
	return sp->rbuf + (off - sp->rbase);
}

const char *
spool_line(struct spool *sp, uint64_t *off, size_t *len)
{
	uint64_t o = *off;
	size_t have;
	const char *p, *nl;

	if (o >= sp->size)
		return NULL;
	for (;;) {
		if (!(o >= sp->rbase && o < sp->rbase + sp->rlen))
			fill(sp, o, 1);
		p = sp->rbuf + (o - sp->rbase);
		have = (size_t)(sp->rbase + sp->rlen - o);
		if ((nl = memchr(p, '\n', have)) != NULL) {
			*len = (size_t)(nl - p) + 1;
			break;
		}
		if (o + have == sp->size) {
			*len = have;
			break;
		}
		/* a line longer than what the window holds from o: a bigger window */
		fill(sp, o, have < sp->rcap ? sp->rcap : 2 * have);
	}
	*off = o + *len;
	return p;
}

void
spool_pread(struct spool *sp, uint64_t off, void *dst, size_t len)
{
	if (off > sp->size || len > sp->size - off)
		die(EXIT_DATA, "temporary file: read beyond its end");
	if (sp->wlen > 0 && off + len > sp->flushed)
		flush(sp);
	readat(sp, dst, len, off);
}

void
spool_reset(struct spool *sp)
{
	if (ftruncate(sp->fd, 0) != 0)
		die(EXIT_DATA, "temporary file: %s", strerror(errno));
	sp->size = sp->flushed = 0;
	sp->wlen = sp->rlen = 0;
	sp->rbase = 0;
}

void
spool_close(struct spool *sp)
{
	if (sp == NULL)
		return;
	close(sp->fd);
	free(sp->wbuf);
	free(sp->rbuf);
	free(sp);
}

/* --- spsort ------------------------------------------------------------------------------ */

#define MERGEBUF	((size_t)64 << 10)	/* largest read buffer of a run */

struct run {
	uint64_t off;		/* the next unread record in the spool */
	uint64_t left;		/* records not yet read into buf */
	char	*buf;		/* records [pos, len) read, not yet returned */
	size_t	 pos, len;
};

struct spsort {
	size_t	 recsz;
	int	(*cmp)(const void *, const void *);
	char	*mem;			/* the run being filled */
	size_t	 n, cap, runcap;	/* records in mem, its room, a run's records */
	uint32_t *ord;			/* mem's records in order (sort_mem) */
	uint64_t count;
	struct spool *sp;
	uint64_t *roff, *rn;		/* each run written: offset, records */
	size_t	 nruns, caprun;
	/* merging */
	bool	 merging;
	struct run *run;
	size_t	*heap, nheap;
	size_t	 memnext;		/* the one run in memory: the next record */
	ssize_t	 last;			/* the run of the record returned last, -1: none */
};

struct spsort *
spsort_new(size_t recsz, int (*cmp)(const void *, const void *))
{
	struct spsort *s = xcalloc(1, sizeof(*s));
	const char *e = getenv("TTP_SPSORT_RUN");

	s->recsz = recsz;
	s->cmp = cmp;
	s->runcap = SPSORT_RUN / recsz;
	if (e != NULL && *e != '\0' && atol(e) > 0)
		s->runcap = (size_t)atol(e);
	if (s->runcap == 0)
		s->runcap = 1;
	if (s->runcap > UINT32_MAX)
		s->runcap = UINT32_MAX;
	s->last = -1;
	return s;
}

uint64_t
spsort_count(const struct spsort *s)
{
	return s->count;
}

size_t
spsort_runs(const struct spsort *s)
{
	return s->nruns;
}

static int
by_ord(const void *a, const void *b, void *ctx)
{
	const struct spsort *s = ctx;

	return s->cmp(s->mem + (size_t)*(const uint32_t *)a * s->recsz,
	    s->mem + (size_t)*(const uint32_t *)b * s->recsz);
}

/* s->ord: the records in mem in order. An index is sorted, not the records: glibc's
 * qsort would copy a run of records into a buffer of its own. */
static void
sort_mem(struct spsort *s)
{
	size_t i;

	free(s->ord);
	s->ord = xreallocarray(NULL, s->n + 1, sizeof(*s->ord));
	for (i = 0; i < s->n; i++)
		s->ord[i] = (uint32_t)i;
	qsort_r(s->ord, s->n, sizeof(*s->ord), by_ord, s);
}

static void
spill(struct spsort *s)
{
	size_t i;

	if (s->n == 0)
		return;
	sort_mem(s);
	if (s->sp == NULL)
		s->sp = spool_open();
	if (s->nruns == s->caprun) {
		s->caprun = grow_cap(s->caprun, s->nruns + 1);
		s->roff = xreallocarray(s->roff, s->caprun, sizeof(*s->roff));
		s->rn = xreallocarray(s->rn, s->caprun, sizeof(*s->rn));
	}
	s->roff[s->nruns] = spool_size(s->sp);
	for (i = 0; i < s->n; i++)
		spool_add(s->sp, s->mem + (size_t)s->ord[i] * s->recsz, s->recsz);
	s->rn[s->nruns++] = s->n;
	s->n = 0;
	free(s->ord);
	s->ord = NULL;
}

void
spsort_add(struct spsort *s, const void *rec)
{
	if (s->merging)
		die(EXIT_DATA, "spsort: record added after the merge began");
	if (s->n == s->runcap)
		spill(s);
	if (s->n == s->cap) {
		s->cap = grow_cap(s->cap, s->n + 1);
		if (s->cap > s->runcap)
			s->cap = s->runcap;
		s->mem = xreallocarray(s->mem, s->cap, s->recsz);
	}
	memcpy(s->mem + s->n * s->recsz, rec, s->recsz);
	s->n++;
	s->count++;
}

/* Run r's buffer refilled from the spool; false when the run is done. */
static bool
refill(struct spsort *s, struct run *r, size_t bufrecs)
{
	size_t n;

	if (r->pos < r->len)
		return true;
	if (r->left == 0)
		return false;
	n = r->left < bufrecs ? (size_t)r->left : bufrecs;
	spool_pread(s->sp, r->off, r->buf, n * s->recsz);
	r->off += (uint64_t)n * s->recsz;
	r->left -= n;
	r->pos = 0;
	r->len = n;
	return true;
}

static const void *
head(const struct spsort *s, size_t r)
{
	return s->run[r].buf + s->run[r].pos * s->recsz;
}

static bool
before(const struct spsort *s, size_t a, size_t b)
{
	int c = s->cmp(head(s, a), head(s, b));

	return c < 0 || (c == 0 && a < b);
}

static void
sift_down(struct spsort *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < s->nheap && before(s, s->heap[l], s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && before(s, s->heap[l + 1], s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

static size_t
bufrecs(const struct spsort *s)
{
	size_t b = SPSORT_RUN / s->nruns;

	if (b > MERGEBUF)
		b = MERGEBUF;
	b /= s->recsz;
	return b == 0 ? 1 : b;
}

static void
start_merge(struct spsort *s)
{
	size_t i, nb;

	s->merging = true;
	if (s->nruns == 0) {	/* everything in memory */
		sort_mem(s);
		s->memnext = 0;
		return;
	}
	spill(s);
	free(s->mem);
	s->mem = NULL;
	s->cap = 0;
	nb = bufrecs(s);
	s->run = xcalloc(s->nruns, sizeof(*s->run));
	s->heap = xreallocarray(NULL, s->nruns, sizeof(*s->heap));
	for (i = 0; i < s->nruns; i++) {
		struct run *r = &s->run[i];

		r->off = s->roff[i];
		r->left = s->rn[i];
		r->buf = xreallocarray(NULL, nb, s->recsz);
		if (refill(s, r, nb))
			s->heap[s->nheap++] = i;
	}
	for (i = s->nheap / 2; i-- > 0;)
		sift_down(s, i);
}

const void *
spsort_next(struct spsort *s)
{
	if (!s->merging)
		start_merge(s);
	if (s->nruns == 0)
		return s->memnext < s->n ? s->mem + s->recsz * s->ord[s->memnext++] : NULL;
	if (s->last >= 0) {	/* the record returned last: its run moves on */
		struct run *r = &s->run[s->last];

		r->pos++;
		if (!refill(s, r, bufrecs(s)))
			s->heap[0] = s->heap[--s->nheap];
		if (s->nheap > 0)
			sift_down(s, 0);
		s->last = -1;
	}
	if (s->nheap == 0)
		return NULL;
	s->last = (ssize_t)s->heap[0];
	return head(s, s->heap[0]);
}

void
spsort_free(struct spsort *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->run != NULL)
		for (i = 0; i < s->nruns; i++)
			free(s->run[i].buf);
	free(s->run);
	free(s->heap);
	free(s->mem);
	free(s->ord);
	free(s->roff);
	free(s->rn);
	spool_close(s->sp);
	free(s);
}
