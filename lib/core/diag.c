/* SPDX-License-Identifier: ISC */
/*
 * diag: error and warning messages ("prog: file:line: text" on stderr), exit statuses,
 * and the allocation functions that turn out-of-memory into an error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/names.h"

static void oom(void) __attribute__((noreturn));

static void
vmsg(const char *file, long line, const char *where, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", getprogname());
	if (where != NULL)
		fprintf(stderr, "%s: ", where);
	else if (file != NULL && line > 0)
		fprintf(stderr, "%s:%ld: ", file, line);
	else if (file != NULL)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
die_at(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(file, line, NULL, fmt, ap);
	va_end(ap);
	exit(EXIT_DATA);
}

void
die_where(const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, where, fmt, ap);
	va_end(ap);
	exit(EXIT_DATA);
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

void
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, NULL, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", getprogname());
	exit(EXIT_USAGE);
}

/* Whether a is a cluster of short options ("-qv") holding c. */
static int
is_cluster(const char *a, int c)
{
	return a != NULL && a[0] == '-' && a[1] != '-' && a[1] != '\0' && strchr(a + 1, c) != NULL;
}

/* A bad option in arg: a usage error, with a hint when arg is a file named like an
 * option (-v.json). */
static void __attribute__((noreturn))
bad_option(const char *what, const char *arg)
{
	if (access(arg, F_OK) == 0)
		die_usage("%s; to read the file %s, write ./%s or put -- before it", what, arg,
		    arg);
	die_usage("%s", what);
}

void
die_getopt(int ch, char *const argv[])
{
	const char *prev = argv[optind - 1], *cur = argv[optind], *cl = NULL;
	char what[64];
	size_t n;

	if (ch == ':')
		die_usage("option requires an argument: %s", prev);
	/* An unknown short option: getopt leaves optind on its cluster until the cluster's
	 * last letter, so the cluster is argv[optind] (-v.json stopped at '.') or, when the
	 * letter ended it, argv[optind - 1]. An unknown long option has optopt 0. */
	if (optopt > 0 && optopt < 128) {
		n = prev != NULL ? strlen(prev) : 0;
		if (is_cluster(prev, optopt) && prev[n - 1] == optopt)
			cl = prev;
		else if (is_cluster(cur, optopt))
			cl = cur;
		else if (is_cluster(prev, optopt))
			cl = prev;
	}
	if (cl != NULL) {
		if (isprint(optopt))
			snprintf(what, sizeof(what), "unknown option: -%c", optopt);
		else
			snprintf(what, sizeof(what), "unknown option in %.40s", cl);
		if (strlen(cl) > 2 && isprint(optopt))
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " in %.30s", cl);
		bad_option(what, cl);
	}
	if (prev[0] == '-' && prev[1] == '-' && strchr(prev, '=') != NULL && optopt != 0)
		die_usage("option takes no argument: %s", prev);
	snprintf(what, sizeof(what), "unknown option: %.40s", prev);
	bad_option(what, prev);
}

void
error_vset(struct error *e, const char *file, long long line, long long off,
    const char *fmt, va_list ap)
{
	error_free(e);
	e->file = file != NULL ? xstrdup(file) : NULL;
	e->line = line > 0 ? line : 0;
	e->off = off >= 0 ? off : -1;
	if (vasprintf(&e->msg, fmt, ap) < 0)
		oom();
}

void
error_set(struct error *e, const char *file, long long line, long long off,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(e, file, line, off, fmt, ap);
	va_end(ap);
}

void
error_move(struct error *to, struct error *from)
{
	error_free(to);
	*to = *from;
	*from = (struct error)ERROR_INIT;
}

int
error_is_set(const struct error *e)
{
	return e->msg != NULL;
}

static void
error_print(const struct error *e)
{
	const char *msg = e->msg != NULL ? e->msg : "unknown error";

	fflush(stdout);
	fprintf(stderr, "%s: ", getprogname());
	if (e->file != NULL && e->line > 0)
		fprintf(stderr, "%s:%lld: ", e->file, e->line);
	else if (e->file != NULL && e->off >= 0)
		fprintf(stderr, "%s: byte %lld: ", e->file, e->off);
	else if (e->file != NULL)
		fprintf(stderr, "%s: ", e->file);
	fprintf(stderr, "%s\n", msg);
}

void
error_die(const struct error *e)
{
	error_print(e);
	exit(EXIT_DATA);
}

void
error_warn(const struct error *e)
{
	error_print(e);
}

void
error_free(struct error *e)
{
	free(e->file);
	free(e->msg);
	*e = (struct error)ERROR_INIT;
}

void
warn_at(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(file, line, NULL, fmt, ap);
	va_end(ap);
}

void
warn_where(const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, where, fmt, ap);
	va_end(ap);
}

static int quiet;

void
diag_set_quiet(int q)
{
	quiet = q;
}

int
diag_quiet(void)
{
	return quiet;
}

void
warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, NULL, fmt, ap);
	va_end(ap);
}

void
note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg(NULL, 0, NULL, fmt, ap);
	va_end(ap);
}

/* The keys note_once has seen. */
static struct names seen;

static int
vonce(const char *key, const char *fmt, va_list ap)
{
	int added;

	names_add(&seen, key, strlen(key), &added);
	if (!added)
		return 0;
	vmsg(NULL, 0, NULL, fmt, ap);
	return 1;
}

int
warning_once(const char *key, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vonce(key, fmt, ap);
	va_end(ap);
	return r;
}

int
note_once(const char *key, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (quiet)
		return 0;
	va_start(ap, fmt);
	r = vonce(key, fmt, ap);
	va_end(ap);
	return r;
}

void
say(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn))
oom(void)
{
	die(EXIT_DATA, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if ((p = reallocarray(p, n ? n : 1, size ? size : 1)) == NULL)
		oom();
	return p;
}

size_t
grow_cap(size_t cap, size_t n)
{
	size_t c = cap ? cap : 8;

	while (c < n) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	return c;
}

void *
xgrow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c;

	if (n <= *cap)
		return p;
	c = grow_cap(*cap, n);
	p = xreallocarray(p, c, size);
	*cap = c;
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom();
	return p;
}
