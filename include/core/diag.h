/* SPDX-License-Identifier: ISC */
/*
 * diag: the one way ttp programs report errors and warnings, and allocate memory.
 *
 * Every message goes to stderr as "prog: [file:line: ]text". Exit statuses are the
 * project's: 0 success, 1 bad data or runtime error, 2 usage error.
 */
#ifndef TTP_DIAG_H
#define TTP_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#define EXIT_DATA  1	/* bad input data, I/O or runtime error */
#define EXIT_USAGE 2	/* bad command line */

/* Error about the input at file:line (line 0: no line), then exit 1. */
void die_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
/* Error about the input at a "file:line" location string, then exit 1. */
void die_where(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* General error, then exit with status. */
void die(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* Usage error: message, a hint to --help, exit 2. */
void die_usage(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* The usage error for what getopt_long(3) returned as ch ('?' or ':'), called with
 * opterr = 0 and an optstring that starts with ':'. Exit 2. */
void die_getopt(int ch, char *const argv[]) __attribute__((noreturn));

/*
 * Bad input found by a reader (csvread, ttmetal, kineto, ...), returned to its caller
 * instead of ending the process: the program decides to stop (error_die, the message and
 * status the reader's own die_at would have given) or to warn and go on (error_warn).
 * Where: file (NULL: none) and a 1-based line, or else a byte offset (-1: none). The
 * strings belong to the error: error_free releases them; error_set replaces them.
 */
struct error {
	char		*file;
	long long	 line;
	long long	 off;
	char		*msg;
};
#define ERROR_INIT { NULL, 0, -1, NULL }

void error_set(struct error *e, const char *file, long long line, long long off,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void error_vset(struct error *e, const char *file, long long line, long long off,
    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
void error_move(struct error *to, struct error *from);	/* from is left empty */
int error_is_set(const struct error *e);
/* "prog: file:line: msg", "prog: file: byte N: msg", "prog: file: msg" or "prog: msg". */
void error_die(const struct error *e) __attribute__((noreturn));
void error_warn(const struct error *e);
void error_free(struct error *e);

/* Warnings, never fatal. */
void warn_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void warn_where(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A warning with no location ("prog: text"), never silenced. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like warning, but only the first time key is seen in this process. Returns 1 if printed. */
int warning_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Advisory notes ("prog: text"): what a run did or assumed, normal on good input. -q
 * (diag_set_quiet) silences them; errors and warnings still appear. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like note, but only the first time key is seen in this process. Returns 1 if printed. */
int note_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_set_quiet(int quiet);
int diag_quiet(void);

/* Plain message line on stderr, no program name (informational, as the reference prints). */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that never returns NULL: out of memory is an error (exit 1). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
/* The one way an array grows. grow_cap: the capacity that an array of cap items takes to hold
 * n > cap items, cap doubled (from 8) until it does; exits when that overflows a size_t.
 * xgrow: make p, an array of *cap items of size bytes, hold at least n items (growing it to
 * grow_cap and setting *cap when it is short; new items are uninitialised) and return it.
 * Arrays that share one capacity grow it with grow_cap, then each with xreallocarray. */
size_t grow_cap(size_t cap, size_t n);
void *xgrow(void *p, size_t *cap, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
