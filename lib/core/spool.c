/* SPDX-License-Identifier: ISC */
/*
 * spool: an append-only temporary file of record lines, read back by offset through
 * a window buffer (see spool.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

struct spool *
spool_open(void)
{
	struct spool *sp = xcalloc(1, sizeof(*sp));
	char path[4096];
	sigset_t set, old;
	int e;

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
	sp->fd = mkstemp(path);
	e = errno;
	if (sp->fd != -1)
		unlink(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (sp->fd == -1)
		die(EXIT_DATA, "%s: cannot create a temporary file: %s", path, strerror(e));
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
