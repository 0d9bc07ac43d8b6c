/* SPDX-License-Identifier: ISC */
/*
 * io: opening inputs and finishing output.
 *
 * io_open reads a path ("-" is stdin) and transparently decompresses gzip input.
 * Write errors on stdout are handled in one place: a closed pipe (EPIPE, also when
 * SIGPIPE is ignored) ends the program quietly; any other error (a full disk) is
 * one message and exit 1.
 */
#ifndef TTP_IO_H
#define TTP_IO_H

#include <stdio.h>

/* Open path for reading ("-" or NULL: stdin). Gzip is detected by its magic bytes.
 * On failure: message "prog: path: strerror", exit 1. */
FILE *io_open(const char *path);
/* The same, returning the failure: NULL and e set ("path: strerror"). */
struct error;
FILE *io_open_error(const char *path, struct error *e);
/* Why the last read from fp (io_open's) failed, for a reader that saw ferror(fp):
 * "truncated gzip data", "bad gzip data: ...", or else strerror(errnum) (EIO for 0).
 * Reads never end the process: a failed read sets the stream's error flag. */
const char *io_strerror(FILE *fp, int errnum);
/* The first byte of fp that is not white space (left unread, the white space before it
 * consumed), or EOF. Standard input opened again with io_open before io_close is the
 * same stream, so a program may peek at it and then hand "-" to a reader. */
int io_peek(FILE *fp);
/*
 * An input opened once (ttp-parse, which reads an input's first bytes to choose its
 * reader). A path that cannot be opened twice (a FIFO, /dev/fd/N from a shell's
 * process substitution, a device, a socket, standard input) must not be: io_input_open
 * opens it, reads its first bytes (inflated when it is gzip) ahead, to be served again,
 * and holds the stream: the next io_open of the same path (by a reader that takes
 * paths) or io_input_stream gets that stream, from its first byte. A regular file has
 * its head read (pread; inflated through a stream when gzip) and is closed: it opens
 * again for its reader, so that many inputs hold no descriptor or buffer each. A reader
 * that needs to seek (JAX's XSpace) has a non-regular input copied once into an
 * unlinked temporary file first (io_input_spool): path then names that copy
 * ("/dev/fd/N", a regular file) while name stays the user's.
 */
#define IO_HEAD		4096	/* head[]'s size: a regular file's head fills it */
#define IO_HEAD_MIN	512	/* a stream's: at least this much, unless it ends first */
struct io_input {
	struct io_input	*next;		/* held inputs (io.c's) */
	const char	*path;		/* for a reader that opens by path ("-": stdin) */
	const char	*name;		/* for messages */
	FILE		*fp;		/* a held stream (not a regular file's), or NULL */
	int		 regular;	/* a regular file: path may be opened again */
	int		 taken;		/* an io_open has returned fp */
	int		 sfd;		/* io_input_spool's copy, or -1 */
	char		 spath[32];
	unsigned char	 head[IO_HEAD];	/* the first bytes (fewer: the whole input) */
	size_t		 nhead;
};
/* 0, or -1 with e set (the path does not open, a read error). in must stay in place
 * until io_input_close. */
int io_input_open(struct io_input *in, const char *path, struct error *e);
/* The input's stream from its first byte: the held one, or a regular file opened again
 * (io_open's rules); NULL with e set when it does not open. io_input_close closes it. */
FILE *io_input_stream(struct io_input *in, struct error *e);
/* A non-regular input copied into a temporary file (see above); 0 or -1 with e set. */
int io_input_spool(struct io_input *in, struct error *e);
/* Close the stream if no reader did, and the copy. */
void io_input_close(struct io_input *in);

/* Close what io_open returned (stdin is left open). */
void io_close(FILE *fp);
/* A filter given no file reads standard input; at a terminal that is a wait for input
 * nobody means to type: then usage(stderr) and exit 2. */
void io_stdin_or_usage(int nfiles, void (*usage)(FILE *));
/* The name to show for path in messages ("-"/NULL → "<stdin>"). */
const char *io_name(const char *path);

/* Call at program start: line-buffering off, SIGPIPE left at its default. */
void io_init(void);
/* Check stdout after writing: on error, handle as above. Cheap; call per record or batch. */
void io_check_stdout(void);
/* Report a write error on fp (named name) with errno as set by the failed call. */
void io_write_error(FILE *fp, const char *name) __attribute__((noreturn));
/* Flush and close stdout, checking for errors. Call (or return from main) at exit;
 * io_init registers it with atexit. */
void io_finish(void);

#endif
