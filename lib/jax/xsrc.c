/* SPDX-License-Identifier: ISC */
/* xsrc: a large protobuf file read in bounded windows (jax/xsrc.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/io.h"
#include "jax/xsrc.h"

#define XSRC_WINDOW	(1u << 20)

/* Copy what fp gives (inflated by io_open) into an unlinked temporary file. */
static int
copy_in(struct xsrc *s, FILE *fp, struct error *e)
{
	char *b = xmalloc(1 << 16);
	size_t n;

	if ((s->tmp = tmpfile()) == NULL) {
		error_set(e, NULL, 0, -1, "temporary file: %s", strerror(errno));
		free(b);
		return -1;
	}
	while ((n = fread(b, 1, 1 << 16, fp)) > 0)
		if (fwrite(b, 1, n, s->tmp) != n) {
			error_set(e, NULL, 0, -1, "temporary file: %s", strerror(errno));
			free(b);
			return -1;
		}
	free(b);
	if (ferror(fp)) {
		error_set(e, s->name, 0, -1, "%s", io_strerror(fp, errno));
		return -1;
	}
	if (fflush(s->tmp) != 0) {
		error_set(e, NULL, 0, -1, "temporary file: %s", strerror(errno));
		return -1;
	}
	s->fd = fileno(s->tmp);
	s->size = (uint64_t)ftello(s->tmp);
	return 0;
}

int
xsrc_open(struct xsrc *s, const char *path, struct error *e)
{
	unsigned char magic[2];
	struct stat st;
	FILE *fp;
	int fd, rc;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->name = io_name(path);
	if (path != NULL && strcmp(path, "-") != 0) {
		if ((fd = open(path, O_RDONLY)) < 0) {
			error_set(e, NULL, 0, -1, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b)) {
			s->fd = fd;
			s->size = (uint64_t)st.st_size;
			return 0;
		}
		close(fd);
	}
	if ((fp = io_open_error(path, e)) == NULL)
		return -1;
	rc = copy_in(s, fp, e);
	io_close(fp);
	return rc;
}

void
xsrc_close(struct xsrc *s)
{
	if (s->tmp != NULL)
		fclose(s->tmp);
	else if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

const unsigned char *
xsrc_get(struct xsrc *s, uint64_t off, uint64_t len, struct error *e)
{
	uint64_t want;
	size_t got;
	ssize_t m;

	if (off > s->size || len > s->size - off) {
		error_set(e, s->name, 0, (long long)off,
		    "%llu bytes wanted, the file ends %llu bytes on",
		    (unsigned long long)len, (unsigned long long)(s->size - (off < s->size ?
		    off : s->size)));
		return NULL;
	}
	if (off >= s->boff && off + len <= s->boff + s->blen)
		return s->buf + (off - s->boff);
	want = len > XSRC_WINDOW ? len : XSRC_WINDOW;
	if (want > s->size - off)
		want = s->size - off;
	if (want > s->cap) {
		free(s->buf);
		s->buf = xmalloc((size_t)want + 1);
		s->cap = (size_t)want;
	}
	for (got = 0; got < want; got += (size_t)m) {
		m = pread(s->fd, s->buf + got, (size_t)want - got, (off_t)(off + got));
		if (m < 0 && errno == EINTR) {
			m = 0;
			continue;
		}
		if (m <= 0) {
			s->blen = 0;
			error_set(e, s->name, 0, (long long)(off + got), "%s",
			    m < 0 ? strerror(errno) : "file shrank while being read");
			return NULL;
		}
	}
	s->boff = off;
	s->blen = (size_t)want;
	return s->buf;
}

void
xsrc_it_init(struct xsrc_it *it, struct xsrc *s, uint64_t off, uint64_t len,
    const char *what)
{
	it->s = s;
	it->pos = off;
	it->end = off + len;
	it->what = what;
}

int
xsrc_next(struct xsrc_it *it, struct pb_field *f, struct error *e)
{
	const unsigned char *p;
	const char *msg = NULL;
	uint64_t n;
	int k;

	if (it->pos >= it->end)
		return PB_END;
	n = it->end - it->pos;
	if (n > 32)
		n = 32;
	if (it->pos >= it->s->boff && it->pos + n <= it->s->boff + it->s->blen)
		p = it->s->buf + (it->pos - it->s->boff);	/* xsrc_get's hit, inline */
	else if ((p = xsrc_get(it->s, it->pos, n, e)) == NULL)
		return PB_ERR;
	/* the usual head: a one-byte tag and a length or value of one or two bytes */
	if (n >= 3 && p[0] >= 8 && p[0] < 0x80 && ((p[0] & 7) == PB_VARINT ||
	    (p[0] & 7) == PB_LEN) && (p[1] < 0x80 || p[2] < 0x80)) {
		k = p[1] < 0x80 ? 2 : 3;
		f->num = p[0] >> 3;
		f->wt = (enum pb_wt)(p[0] & 7);
		f->v = k == 2 ? p[1] : (uint64_t)(p[1] & 0x7f) | (uint64_t)p[2] << 7;
		f->data = NULL;
		f->off = it->pos;
		f->at = it->pos + (uint64_t)k;
	} else if ((k = pb_head(p, (size_t)n, it->pos, f, &msg)) <= 0) {
		error_set(e, it->s->name, 0, (long long)it->pos, "%s: %s", it->what,
		    k == 0 ? "field cut short by the end of its message" : msg);
		it->pos = it->end;
		return PB_ERR;
	}
	it->pos += (uint64_t)k;
	if (f->wt == PB_LEN) {
		if (f->v > it->end - it->pos) {
			error_set(e, it->s->name, 0, (long long)f->off,
			    "%s: field %u: length %llu runs past the end of its message",
			    it->what, f->num, (unsigned long long)f->v);
			it->pos = it->end;
			return PB_ERR;
		}
		it->pos += f->v;
	}
	return PB_OK;
}
