/* SPDX-License-Identifier: ISC */
/*
 * fuzz_exit: exit() interception for the fuzz targets (see fuzz.h for why), leak
 * bookkeeping of aborted runs, scratch files and the shared setup.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/allocator_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>

#include "fuzz.h"

void __wrap_exit(int status) __attribute__((noreturn));
void __real_exit(int status) __attribute__((noreturn));

FILE *fuzz_null;

static jmp_buf		 guard_env;
static int		 guarding;
static volatile int	 exit_status;

/*
 * Blocks allocated during the guarded run and not freed yet: a set of pointers (open
 * addressing, linear probing, deletion by backward shift), filled by the sanitizer's
 * malloc/free hooks. It never allocates itself.
 */
#define SETBITS	17
#define SETMAX	(1u << SETBITS)
static const void	*live[SETMAX];
static size_t		 livesz[SETMAX];
static size_t		 nlive;
static int		 logging, overflow;

static size_t
slot(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> (64 - SETBITS));
}

static void
malloc_hook(const volatile void *vp, size_t size)
{
	const void *p = (const void *)vp;
	size_t i;

	if (!logging || p == NULL)
		return;
	if (nlive >= SETMAX / 2) {
		overflow = 1;
		return;
	}
	for (i = slot(p); live[i] != NULL; i = (i + 1) & (SETMAX - 1))
		if (live[i] == p)
			return;
	live[i] = p;
	livesz[i] = size;
	nlive++;
}

static void
free_hook(const volatile void *vp)
{
	const void *p = (const void *)vp;
	size_t i, j, k;

	if (!logging || p == NULL || nlive == 0)
		return;
	for (i = slot(p); live[i] != p; i = (i + 1) & (SETMAX - 1))
		if (live[i] == NULL)
			return;
	/* Backward-shift deletion keeps every probe chain unbroken. */
	for (j = i;;) {
		live[i] = NULL;
		for (;;) {
			j = (j + 1) & (SETMAX - 1);
			if (live[j] == NULL) {
				nlive--;
				return;
			}
			k = slot(live[j]);
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			break;
		}
		live[i] = live[j];
		livesz[i] = livesz[j];
		i = j;
	}
}

/*
 * Empty the set; with ignore, tell LeakSanitizer to ignore each block first. (The set
 * is a root for LeakSanitizer: left filled, it would hide leaks.) Big blocks (the
 * readers' chunk buffers) are freed instead, or every exited run would keep a few
 * hundred KB and the fuzzer would soon run out of memory; the streams that own buffers
 * were closed before. Small blocks are kept: static caches may point to them.
 */
#define BIGBLOCK (32 * 1024)
static void
drain(int ignore)
{
	static void *big[1024];
	size_t i, nbig = 0;

	for (i = 0; i < SETMAX && nlive > 0; i++)
		if (live[i] != NULL) {
			if (ignore && livesz[i] >= BIGBLOCK && nbig < 1024)
				big[nbig++] = (void *)live[i];
			else if (ignore)
				__lsan_ignore_object(live[i]);
			live[i] = NULL;
			nlive--;
		}
	nlive = 0;
	for (i = 0; i < nbig; i++)
		free(big[i]);
}

/* Streams opened during the guarded run (fopen and friends are wrapped), closed
 * when the run exits. */
#define NSTREAMS 64
static FILE	*streams[NSTREAMS];
static size_t	 nstreams;

static FILE *
track(FILE *fp)
{
	if (fp != NULL && guarding && nstreams < NSTREAMS)
		streams[nstreams++] = fp;
	return fp;
}

static void
untrack(FILE *fp)
{
	size_t i;

	for (i = 0; i < nstreams; i++)
		if (streams[i] == fp) {
			streams[i] = streams[--nstreams];
			return;
		}
}

FILE *__real_fopen(const char *, const char *);
FILE *__real_fdopen(int, const char *);
FILE *__real_tmpfile(void);
FILE *__real_fopencookie(void *, const char *, cookie_io_functions_t);
int __real_fclose(FILE *);
FILE *__wrap_fopen(const char *, const char *);
FILE *__wrap_fdopen(int, const char *);
FILE *__wrap_tmpfile(void);
FILE *__wrap_fopencookie(void *, const char *, cookie_io_functions_t);
int __wrap_fclose(FILE *);

FILE *__wrap_fopen(const char *p, const char *m) { return track(__real_fopen(p, m)); }
FILE *__wrap_fdopen(int fd, const char *m) { return track(__real_fdopen(fd, m)); }
FILE *__wrap_tmpfile(void) { return track(__real_tmpfile()); }
FILE *
__wrap_fopencookie(void *c, const char *m, cookie_io_functions_t f)
{
	return track(__real_fopencookie(c, m, f));
}
int
__wrap_fclose(FILE *fp)
{
	untrack(fp);
	return __real_fclose(fp);
}

static void
close_streams(void)
{
	/* Newest first: a cookie stream closes the file below it. */
	while (nstreams > 0) {
		FILE *fp = streams[--nstreams];
		__real_fclose(fp);
		untrack(fp);
	}
}

#define FDMAX 1024
static unsigned char	 fd_base[FDMAX];

static void
close_new_fds(void)
{
	int fd;

	/* No opendir (it allocates): probe the descriptors directly. */
	for (fd = 3; fd < FDMAX; fd++)
		if (!fd_base[fd] && fcntl(fd, F_GETFD) != -1)
			close(fd);
}

static char	 scratch[4][64];

static void
remove_files(void)
{
	int i;

	for (i = 0; i < 4; i++)
		if (scratch[i][0] != '\0')
			unlink(scratch[i]);
}

void
fuzz_setup(void)
{
	static int done;
	int fd;

	if (done)
		return;
	done = 1;
	__sanitizer_install_malloc_and_free_hooks(malloc_hook, free_hook);
	if ((fd = open("/dev/null", O_WRONLY)) >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	fuzz_null = fopen("/dev/null", "w");
	for (fd = 0; fd < FDMAX; fd++)
		fd_base[fd] = fcntl(fd, F_GETFD) != -1;
	atexit(remove_files);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Not fuzz_setup() yet: libFuzzer opens descriptors of its own after this
	 * (-close_fd_mask), which must be part of the baseline. */
	return 0;
}

void
__wrap_exit(int status)
{
	if (guarding) {
		exit_status = status;
		longjmp(guard_env, 1);
	}
	__real_exit(status);
}

int
fuzz_guard(void (*fn)(void *), void *arg)
{
	int leaked;

	fuzz_setup();
	drain(0);
	overflow = 0;
	nstreams = 0;
	exit_status = -1;
	if (setjmp(guard_env) == 0) {
		guarding = 1;
		logging = 1;
		fn(arg);
		logging = 0;
		guarding = 0;
		/*
		 * A run that returned and left blocks behind may have leaked: check as
		 * libFuzzer's -detect_leaks would (it is off: it would also check, slowly
		 * and wrongly, every run that exited). Blocks still reachable (caches) are
		 * fine; an unreachable one is reported and is a finding.
		 */
		leaked = nlive > 0 && !overflow;
		drain(0);
		if (leaked && __lsan_do_recoverable_leak_check() != 0) {
			fprintf(stderr, "fuzz: memory leaked by a run that returned\n");
			abort();
		}
		return -1;
	}
	/* The run "exited": what it allocated is gone with the program it stands for. */
	guarding = 0;
	close_streams();
	logging = 0;
	drain(1);
	if (overflow)
		__lsan_disable();	/* cannot tell any more: stop leak reports for good */
	close_new_fds();
	clearerr(stdout);
	errno = 0;
	return exit_status;
}

const char *
fuzz_file(int n, const uint8_t *data, size_t size)
{
	char (*path)[64] = scratch;
	int fd;

	if (path[n][0] == '\0') {
		const char *dir = getenv("TMPDIR");
		snprintf(path[n], sizeof(path[n]), "%s/ttp-fuzz.%ld.%d",
		    dir != NULL && strlen(dir) < 32 ? dir : "/tmp", (long)getpid(), n);
	}
	if ((fd = open(path[n], O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		abort();
	while (size > 0) {
		ssize_t m = write(fd, data, size);
		if (m <= 0)
			abort();
		data += m;
		size -= (size_t)m;
	}
	close(fd);
	return path[n];
}

unsigned
fuzz_byte(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

void
fuzz_strict(void (*fn)(void *), void *arg)
{
	int st = fuzz_guard(fn, arg);

	if (st != -1) {
		fprintf(stderr, "fuzz: the run exited (status %d) instead of returning its "
		    "error\n", st);
		abort();
	}
}

void
fuzz_job_split(const uint8_t *data, size_t size, struct fuzz_job *jb)
{
	struct fuzz_in in = { data, size };

	jb->opt = fuzz_byte(&in);
	jb->p = in.p;
	jb->n = in.n;
}

void
fuzz_run_job(const uint8_t *data, size_t size, void (*fn)(void *), struct fuzz_job *jb)
{
	fuzz_job_split(data, size, jb);
	fuzz_guard(fn, jb);
}
