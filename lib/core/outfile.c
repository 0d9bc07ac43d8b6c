/* SPDX-License-Identifier: ISC */
/*
 * outfile: output files through a temporary beside the target, renamed into place (see
 * outfile.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/outfile.h"

#define TMPBASE_MAX 200	/* bytes of the target's name kept in the temporary's */

struct outfile {
	struct outfile	*next;
	FILE		*fp;
	char		*path;	/* the target, as given */
	char		*tmp;	/* the temporary; NULL when the target is written directly */
};

struct file_id {
	dev_t	dev;
	ino_t	ino;
};

static struct file_id *inputs;
static size_t ninputs, cinputs;
/* The temporaries not yet committed or aborted: removed at exit and on a fatal signal.
 * Changed only with those signals blocked; the handler only reads it. */
static struct outfile *volatile open_files;
static int handlers_set;
static const int fatal_sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
#define NFATAL (sizeof(fatal_sigs) / sizeof(fatal_sigs[0]))

static void
add_id(const struct stat *st)
{
	size_t i;

	if (!S_ISREG(st->st_mode))
		return;
	for (i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return;
	if (ninputs == cinputs) {
		cinputs = cinputs ? 2 * cinputs : 8;
		inputs = xreallocarray(inputs, cinputs, sizeof(*inputs));
	}
	inputs[ninputs].dev = st->st_dev;
	inputs[ninputs].ino = st->st_ino;
	ninputs++;
}

void
outfile_protect(const char *path)
{
	struct stat st;

	if (path != NULL && stat(path, &st) == 0)
		add_id(&st);
}

void
outfile_protect_fd(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0)
		add_id(&st);
}

int
outfile_is_input(const char *path)
{
	struct stat st;
	size_t i;

	if (stat(path, &st) != 0)
		return 0;
	for (i = 0; i < ninputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return 1;
	return 0;
}

static void
on_fatal(int sig)
{
	struct outfile *f;
	int e = errno;

	for (f = open_files; f != NULL; f = f->next)
		if (f->tmp != NULL)
			unlink(f->tmp);
	errno = e;
	/* SA_RESETHAND restored the default: the signal ends the process once this returns */
	raise(sig);
}

static void
at_exit(void)
{
	while (open_files != NULL)
		outfile_abort(open_files);
}

static void
set_handlers(void)
{
	struct sigaction sa, old;
	size_t i;

	if (handlers_set)
		return;
	handlers_set = 1;
	atexit(at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NFATAL; i++)
		sigaddset(&sa.sa_mask, fatal_sigs[i]);
	for (i = 0; i < NFATAL; i++) {
		/* an ignored signal stays ignored; a program's own handler stays its own */
		if (sigaction(fatal_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(fatal_sigs[i], &sa, NULL);
	}
}

static void
block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NFATAL; i++)
		sigaddset(&set, fatal_sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
link_open(struct outfile *f)
{
	sigset_t old;

	block(&old);
	f->next = open_files;
	open_files = f;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
unlink_open(struct outfile *f)
{
	struct outfile **p;
	sigset_t old;

	block(&old);
	for (p = (struct outfile **)&open_files; *p != NULL; p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
free_file(struct outfile *f)
{
	free(f->path);
	free(f->tmp);
	free(f);
}

/* Whether path's directory is under /proc (/proc/self/fd/1, /dev/fd/1). */
static int
dir_in_proc(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d, *r;
	int yes;

	if (slash == NULL)
		d = xstrdup(".");
	else if (slash == path)
		d = xstrdup("/");
	else {
		d = xstrdup(path);
		d[slash - path] = '\0';
	}
	r = realpath(d, NULL);
	yes = r != NULL && strncmp(r, "/proc/", 6) == 0;
	free(r);
	free(d);
	return yes;
}

/* Whether path is a descriptor's alias (/dev/stdout, /dev/fd/N, /proc/self/fd/N): a link
 * that leads through /proc, to whatever the descriptor is (a pipe, a device, a file the
 * shell opened). Those are written directly: renaming over /dev/stdout would replace it. */
static int
fd_alias(const char *path)
{
	char *cur = xstrdup(path), *t;
	char buf[4096];
	struct stat st;
	ssize_t n;
	int hops, yes = 0;

	for (hops = 0; hops < 40; hops++) {
		if (dir_in_proc(cur)) {
			yes = 1;
			break;
		}
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		if ((n = readlink(cur, buf, sizeof(buf) - 1)) < 0)
			break;
		buf[n] = '\0';
		if (buf[0] == '/' || strrchr(cur, '/') == NULL) {
			t = xstrdup(buf);
		} else {
			size_t dl = (size_t)(strrchr(cur, '/') - cur) + 1;

			t = xmalloc(dl + (size_t)n + 1);
			memcpy(t, cur, dl);
			memcpy(t + dl, buf, (size_t)n + 1);
		}
		free(cur);
		cur = t;
	}
	free(cur);
	return yes;
}

/* The temporary's name: DIR/.BASE.XXXXXX beside path. NULL when path names no file
 * (it ends in '/'). */
static char *
tmp_name(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0, blen = strlen(base);
	char *t;

	if (blen == 0)
		return NULL;
	if (blen > TMPBASE_MAX)
		blen = TMPBASE_MAX;
	t = xmalloc(dlen + blen + 9);
	memcpy(t, path, dlen);
	t[dlen] = '.';
	memcpy(t + dlen + 1, base, blen);
	memcpy(t + dlen + 1 + blen, ".XXXXXX", 8);
	return t;
}

int
outfile_is_stream(const char *path)
{
	struct stat st;

	return strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    fd_alias(path);
}

struct outfile *
outfile_open(const char *path, struct error *e)
{
	struct outfile *f;
	struct stat st, lst;
	mode_t mode, mask;
	int fd, have = stat(path, &st) == 0;

	if (have && outfile_is_input(path)) {
		error_set(e, NULL, 0, -1, "%s: is an input of this run: the output would "
		    "replace it (give another output name)", path);
		errno = EEXIST;
		return NULL;
	}
	if (have && S_ISDIR(st.st_mode)) {
		error_set(e, NULL, 0, -1, "%s: %s", path, strerror(EISDIR));
		errno = EISDIR;
		return NULL;
	}
	set_handlers();
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	if ((have && !S_ISREG(st.st_mode)) || fd_alias(path)) {
		/* a device or FIFO (/dev/null), a descriptor (/dev/stdout): written directly */
		if ((f->fp = fopen(path, "w")) == NULL) {
			int en = errno;

			error_set(e, NULL, 0, -1, "%s: %s", path, strerror(en));
			free_file(f);
			errno = en;
			return NULL;
		}
		link_open(f);
		return f;
	}
	if ((f->tmp = tmp_name(path)) == NULL) {
		error_set(e, NULL, 0, -1, "%s: %s", path, strerror(EISDIR));
		free_file(f);
		errno = EISDIR;
		return NULL;
	}
	/* the mode of the file it replaces (not of a link's target), else 0666 less umask */
	if (lstat(path, &lst) == 0 && S_ISREG(lst.st_mode)) {
		mode = lst.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	{
		sigset_t old;

		/* created and listed with the fatal signals held: no window leaves it behind */
		block(&old);
		fd = mkstemp(f->tmp);
		if (fd >= 0) {
			f->next = open_files;
			open_files = f;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (fd < 0) {
		int en = errno;

		error_set(e, NULL, 0, -1, "%s: cannot create a temporary file beside it: %s",
		    path, strerror(en));
		free_file(f);
		errno = en;
		return NULL;
	}
	if (fchmod(fd, mode) != 0 || (f->fp = fdopen(fd, "w")) == NULL) {
		int en = errno;

		error_set(e, NULL, 0, -1, "%s: %s", f->tmp, strerror(en));
		close(fd);
		outfile_abort(f);
		errno = en;
		return NULL;
	}
	return f;
}

FILE *
outfile_fp(struct outfile *f)
{
	return f->fp;
}

const char *
outfile_tmpname(const struct outfile *f)
{
	return f->tmp != NULL ? f->tmp : f->path;
}

const char *
outfile_path(const struct outfile *f)
{
	return f->path;
}

int
outfile_commit(struct outfile *f, struct error *e)
{
	int bad = 0, err = 0;

	if (fflush(f->fp) != 0 || ferror(f->fp)) {
		bad = 1;
		err = errno;
	}
	if (fclose(f->fp) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	f->fp = NULL;
	if (!bad && f->tmp != NULL && rename(f->tmp, f->path) != 0) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		err = err != 0 ? err : EIO;
		error_set(e, NULL, 0, -1, "%s: %s", f->path, strerror(err));
		outfile_abort(f);
		errno = err;
		return -1;
	}
	unlink_open(f);
	free_file(f);
	return 0;
}

void
outfile_abort(struct outfile *f)
{
	unlink_open(f);
	if (f->fp != NULL)
		fclose(f->fp);
	if (f->tmp != NULL)
		unlink(f->tmp);
	free_file(f);
}
