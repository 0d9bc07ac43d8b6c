/* SPDX-License-Identifier: ISC */
/*
 * fuzz: what the libFuzzer targets share (see fuzz.h): the setup, scratch files, the
 * options byte, and the run of one input.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

FILE *fuzz_null;

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
	if ((fd = open("/dev/null", O_WRONLY)) >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	if ((fuzz_null = fopen("/dev/null", "w")) == NULL)
		abort();
	atexit(remove_files);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Not fuzz_setup() yet: libFuzzer sets up its descriptors (-close_fd_mask) after
	 * this. */
	return 0;
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
	fuzz_setup();
	fn(arg);
}

void
fuzz_job_split(const uint8_t *data, size_t size, struct fuzz_job *jb)
{
	struct fuzz_in in = { data, size };

	jb->opt = fuzz_byte(&in);
	jb->p = in.p;
	jb->n = in.n;
}
