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
