/* SPDX-License-Identifier: ISC */
/*
 * io: opening inputs (stdin, files, gzip transparently) and finishing stdout, with the
 * one policy for write errors: a closed pipe ends the program quietly, anything else is
 * one message and exit 1.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/outfile.h"
#include "core/spool.h"

static int finishing;
static struct src *open_srcs;
static FILE *stdin_fp;		/* standard input, once opened: opened again, it is the same */
static struct io_input *held;	/* inputs io_input_open opened, not yet handed to a reader */

const char *
io_name(const char *path)
{
	return (path == NULL || strcmp(path, "-") == 0) ? "<stdin>" : path;
}

/*
 * A source behind a stdio cookie: the bytes peeked at to detect gzip come first, then
 * the rest of the underlying stream, inflated when it is gzip (concatenated members
 * included, and zero bytes of padding after a member).
 */
struct src {
	struct src	*next;	/* open sources, so an exit mid-read leaks nothing */
	FILE		*cfp;	/* the stream io_open returned */
	FILE		*fp;	/* the file, or NULL for stdin */
	char		 err[160];	/* why the last read failed (io_strerror) */
	int		 fd;
	const char	*name;
	int		 gz, eof, zdone;
	unsigned char	 pre[2];
	size_t		 npre, ipre;
	unsigned char	*back;	/* bytes read ahead (io_input's head), served first */
	size_t		 nback, iback;
	z_stream	 zs;
	unsigned char	 in[1 << 16];
};

/* A read that failed: the reason kept for io_strerror, -1 for stdio (its error flag). */
static ssize_t
src_fail(struct src *s, const char *msg, const char *detail)
{
	snprintf(s->err, sizeof(s->err), "%s%s%s", msg, detail != NULL ? ": " : "",
	    detail != NULL ? detail : "");
	errno = EIO;
	return -1;
}

/* Bytes of the underlying stream, or -1 on a read error (s->err set). */
static ssize_t
src_raw(struct src *s, unsigned char *buf, size_t size)
{
	size_t n = 0;

	while (s->ipre < s->npre && n < size)
		buf[n++] = s->pre[s->ipre++];
	/* read(2), not fread: a pipe's data is passed on as soon as it arrives. */
	while (n == 0 && size > 0 && !s->eof) {
		ssize_t m = read(s->fd, buf, size);
		if (m < 0 && errno == EINTR)
			continue;
		if (m < 0)
			return src_fail(s, strerror(errno), NULL);
		if (m == 0)
			s->eof = 1;
		n = (size_t)m;
	}
	return (ssize_t)n;
}

/* After a gzip member: pass over zero bytes, up to the next other byte (left in zs's
 * input) or the end (avail_in 0). -1 on a read error. */
static int
skip_zeros(struct src *s)
{
	ssize_t m;

	for (;;) {
		while (s->zs.avail_in > 0 && *s->zs.next_in == 0) {
			s->zs.next_in++;
			s->zs.avail_in--;
		}
		if (s->zs.avail_in > 0)
			return 0;
		if ((m = src_raw(s, s->in, sizeof(s->in))) < 0)
			return -1;
		if (m == 0)
			return 0;
		s->zs.avail_in = (unsigned)m;
		s->zs.next_in = s->in;
	}
}

static ssize_t
src_read(void *cookie, char *buf, size_t size)
{
	struct src *s = cookie;
	ssize_t m;
	int rc;

	if (s->iback < s->nback) {
		m = (ssize_t)(s->nback - s->iback < size ? s->nback - s->iback : size);
		memcpy(buf, s->back + s->iback, (size_t)m);
		s->iback += (size_t)m;
		return m;
	}
	if (!s->gz)
		return src_raw(s, (unsigned char *)buf, size);
	if (size > 1 << 30)
		size = 1 << 30;
	s->zs.next_out = (unsigned char *)buf;
	s->zs.avail_out = (unsigned)size;
	while (s->zs.avail_out == size && !s->zdone) {
		if (s->zs.avail_in == 0) {
			if ((m = src_raw(s, s->in, sizeof(s->in))) < 0)
				return -1;
			s->zs.avail_in = (unsigned)m;
			s->zs.next_in = s->in;
			if (s->zs.avail_in == 0)
				return src_fail(s, "truncated gzip data", NULL);
		}
		rc = inflate(&s->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* Another member may follow, after zero bytes of padding (a tape
			 * block's; gzip -t, zcat and Python's gzip pass over them). */
			if (skip_zeros(s) < 0)
				return -1;
			if (s->zs.avail_in == 0)
				s->zdone = 1;
			else if (inflateReset(&s->zs) != Z_OK)
				return src_fail(s, "bad gzip data", NULL);
		} else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return src_fail(s, "bad gzip data", s->zs.msg ? s->zs.msg :
			    "inflate failed");
	}
	return (ssize_t)(size - s->zs.avail_out);
}

static int
src_close(void *cookie)
{
	struct src *s = cookie, **pp;

	if (s->gz)
		inflateEnd(&s->zs);
	for (pp = &open_srcs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	if (s->fp != NULL)
		fclose(s->fp);
	free(s->back);
	free(s);
	return 0;
}

int
io_peek(FILE *fp)
{
	int c;

	while ((c = getc(fp)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		;
	if (c != EOF)
		ungetc(c, fp);
	return c;
}

const char *
io_strerror(FILE *fp, int errnum)
{
	struct src *s;

	for (s = open_srcs; s != NULL; s = s->next)
		if (s->cfp == fp && s->err[0] != '\0')
			return s->err;
	return strerror(errnum != 0 ? errnum : EIO);
}

FILE *
io_open(const char *path)
{
	struct error e = ERROR_INIT;
	FILE *fp = io_open_error(path, &e);

	if (fp == NULL)
		error_die(&e);
	return fp;
}

static int
same_path(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "-", b != NULL ? b : "-") == 0;
}

/* The stream io_input_open opened for path and no reader has taken yet, now taken. */
static FILE *
take_held(const char *path)
{
	struct io_input *in;

	for (in = held; in != NULL; in = in->next)
		if (!in->taken && same_path(in->path, path)) {
			in->taken = 1;
			return in->fp;
		}
	return NULL;
}

static FILE *open_new(const char *path, struct error *e);

FILE *
io_open_error(const char *path, struct error *e)
{
	FILE *fp;

	if ((fp = take_held(path)) != NULL)
		return fp;
	return open_new(path, e);
}

static FILE *
open_new(const char *path, struct error *e)
{
	FILE *fp = NULL, *cfp;
	struct src *s;
	ssize_t m;
	struct stat st;
	cookie_io_functions_t fns = { src_read, NULL, NULL, src_close };

	if ((path == NULL || strcmp(path, "-") == 0) && stdin_fp != NULL)
		return stdin_fp;
	if (path != NULL && strcmp(path, "-") != 0) {
		if ((fp = fopen(path, "r")) == NULL) {
			error_set(e, path, 0, -1, "%s", strerror(errno));
			return NULL;
		}
		setvbuf(fp, NULL, _IOFBF, 1 << 17);
	}
	/* no output of this run may replace an input (outfile.h) */
	outfile_protect_fd(fp != NULL ? fileno(fp) : STDIN_FILENO);
	s = xcalloc(1, sizeof(*s));
	s->fp = fp;
	s->fd = fp != NULL ? fileno(fp) : STDIN_FILENO;
	s->name = io_name(path);
	/* Peek at two bytes with read(2), so that nothing is buffered behind our back. */
	while (s->npre < 2) {
		m = read(s->fd, s->pre + s->npre, 2 - s->npre);
		if (m < 0 && errno == EINTR)
			continue;
		if (m < 0) {
			error_set(e, s->name, 0, -1, "%s", strerror(errno));
			if (fp != NULL)
				fclose(fp);
			free(s);
			return NULL;
		}
		if (m == 0)
			break;
		s->npre += (size_t)m;
	}
	if (s->npre == 2 && s->pre[0] == 0x1f && s->pre[1] == 0x8b) {
		s->gz = 1;
		if (inflateInit2(&s->zs, 15 + 16) != Z_OK)
			die(EXIT_DATA, "%s: cannot start gzip decoder", s->name);
	} else if (fp != NULL && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(s->fd, 0, SEEK_SET) == 0) {
		/* A plain regular file: read it through stdio directly (a device that
		 * seeks does not rewind: it goes on through the cookie). */
		free(s);
		return fp;
	}
	if ((cfp = fopencookie(s, "r", fns)) == NULL)
		die(EXIT_DATA, "%s: %s", s->name, strerror(errno));
	s->cfp = cfp;
	s->next = open_srcs;
	open_srcs = s;
	setvbuf(cfp, NULL, _IOFBF, 1 << 17);
	if (fp == NULL)
		stdin_fp = cfp;
	return cfp;
}

/* The source behind a stream io_open returned, or NULL for a plain regular file. */
static struct src *
src_of(FILE *fp)
{
	struct src *s;

	for (s = open_srcs; s != NULL; s = s->next)
		if (s->cfp == fp)
			return s;
	return NULL;
}

/* Read the head of a cookie stream ahead, to be served again first. -1 on a read
 * error (e set). */
static int
read_head(struct io_input *in, struct src *s, struct error *e)
{
	ssize_t m;

	/* a stream: enough to tell the formats apart, without waiting for more */
	while (in->nhead < IO_HEAD_MIN) {
		m = src_read(s, (char *)in->head + in->nhead, sizeof(in->head) - in->nhead);
		if (m < 0) {
			error_set(e, in->name, 0, -1, "%s", s->err[0] != '\0' ? s->err :
			    strerror(errno));
			return -1;
		}
		if (m == 0)
			break;
		in->nhead += (size_t)m;
	}
	s->back = xmalloc(in->nhead > 0 ? in->nhead : 1);
	memcpy(s->back, in->head, in->nhead);
	s->nback = in->nhead;
	s->iback = 0;
	return 0;
}

int
io_input_open(struct io_input *in, const char *path, struct error *e)
{
	struct stat st;
	struct src *s;
	ssize_t m;

	memset(in, 0, sizeof(*in));
	in->path = path != NULL ? path : "-";
	in->name = io_name(path);
	in->sfd = -1;
	if ((in->fp = open_new(path, e)) == NULL)
		return -1;
	if ((s = src_of(in->fp)) == NULL) {
		/* a plain regular file: its head by pread */
		in->regular = 1;
		while (in->nhead < sizeof(in->head)) {
			m = pread(fileno(in->fp), in->head + in->nhead,
			    sizeof(in->head) - in->nhead, (off_t)in->nhead);
			if (m < 0 && errno == EINTR)
				continue;
			if (m < 0) {
				error_set(e, in->name, 0, -1, "%s", strerror(errno));
				break;
			}
			if (m == 0)
				break;
			in->nhead += (size_t)m;
		}
	} else {
		in->regular = s->fp != NULL && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
		read_head(in, s, e);
	}
	/* A regular file opens again for its reader (no descriptor or buffer held per
	 * input meanwhile); anything else is held for it. */
	if (in->regular || error_is_set(e)) {
		io_close(in->fp);
		in->fp = NULL;
		return error_is_set(e) ? -1 : 0;
	}
	in->next = held;
	held = in;
	return 0;
}

FILE *
io_input_stream(struct io_input *in, struct error *e)
{
	FILE *fp;

	if (in->fp != NULL) {
		in->taken = 1;
		return in->fp;
	}
	if ((fp = open_new(in->path, e)) != NULL)
		in->fp = fp;
	return fp;
}

int
io_input_spool(struct io_input *in, struct error *e)
{
	char *b;
	size_t n;
	int fd;

	if (in->regular)
		return 0;
	fd = spool_tmpfd();
	b = xmalloc(1 << 16);
	while ((n = fread(b, 1, 1 << 16, in->fp)) > 0)
		if (spool_writefd(fd, b, n) != 0) {
			error_set(e, NULL, 0, -1, "temporary file: %s", strerror(errno));
			break;
		}
	free(b);
	if (!error_is_set(e) && ferror(in->fp))
		error_set(e, in->name, 0, -1, "%s", io_strerror(in->fp, errno));
	io_close(in->fp);
	if (error_is_set(e)) {
		close(fd);
		return -1;
	}
	in->sfd = fd;
	snprintf(in->spath, sizeof(in->spath), "/dev/fd/%d", fd);
	in->path = in->spath;
	in->regular = 1;
	return 0;
}

void
io_input_close(struct io_input *in)
{
	if (in->fp != NULL)
		io_close(in->fp);
	in->fp = NULL;
	if (in->sfd >= 0)
		close(in->sfd);
	in->sfd = -1;
}

void
io_close(FILE *fp)
{
	struct io_input **pp;

	for (pp = &held; fp != NULL && *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->fp == fp) {
			(*pp)->fp = NULL;
			*pp = (*pp)->next;
			break;
		}
	if (fp != NULL && fp == stdin_fp)
		stdin_fp = NULL;
	if (fp != NULL && fp != stdin)
		fclose(fp);
}

/* Pipes between the stages carry hundreds of MB: a larger pipe buffer than the 64 KiB
 * default means far fewer context switches. Best effort: failure changes nothing. */
static void
widen_pipe(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

void
io_init(void)
{
	widen_pipe(STDIN_FILENO);
	widen_pipe(STDOUT_FILENO);
	signal(SIGPIPE, SIG_DFL);
	setvbuf(stdout, NULL, _IOFBF, 1 << 17);
	atexit(io_finish);
}

void
io_write_error(FILE *fp, const char *name)
{
	int e = errno;

	if (e == EPIPE) {
		/* The reader went away: end as a default SIGPIPE would, silently. */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		_exit(141);
	}
	fprintf(stderr, "%s: write error on %s: %s\n", getprogname(), name,
	    e ? strerror(e) : "I/O error");
	if (finishing)
		_exit(EXIT_DATA);
	/* Do not let io_finish report it again. */
	finishing = 1;
	exit(EXIT_DATA);
}

void
io_check_stdout(void)
{
	if (ferror(stdout))
		io_write_error(stdout, "stdout");
}

void
io_finish(void)
{
	if (finishing)
		return;
	finishing = 1;
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		io_write_error(stdout, "stdout");
	if (fclose(stdout) != 0)
		io_write_error(stdout, "stdout");
}

void
io_stdin_or_usage(int nfiles, void (*usage)(FILE *))
{
	if (nfiles == 0 && isatty(STDIN_FILENO)) {
		usage(stderr);
		exit(EXIT_USAGE);
	}
}
