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

static int finishing;
static struct src *open_srcs;
static FILE *stdin_fp;		/* standard input, once opened: opened again, it is the same */

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

FILE *
io_open_error(const char *path, struct error *e)
{
	FILE *fp = NULL, *cfp;
	struct src *s;
	ssize_t m;
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
	} else if (fp != NULL && lseek(s->fd, 0, SEEK_SET) == 0) {
		/* A plain regular file: read it through stdio directly. */
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

void
io_close(FILE *fp)
{
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
