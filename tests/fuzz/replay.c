/* SPDX-License-Identifier: ISC */
/*
 * replay: a main() for a fuzz target built with the ordinary compiler (no libFuzzer), so
 * that `make check` replays tests/fuzz/regress/ on every build, plain and sanitized.
 * Usage: fuzz_TARGET FILE...: each file is one input, run as libFuzzer would run it; a
 * finding ends the process as it would under libFuzzer (a sanitizer report, an abort).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static int
replay(const char *path)
{
	FILE *fp;
	uint8_t *data = NULL;
	size_t n = 0, cap = 0, m;

	if ((fp = fopen(path, "rb")) == NULL) {
		perror(path);
		return 1;
	}
	do {
		if (n == cap) {
			uint8_t *p;
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(data, cap)) == NULL) {
				perror("realloc");
				exit(1);
			}
			data = p;
		}
		m = fread(data + n, 1, cap - n, fp);
		n += m;
	} while (m > 0);
	if (ferror(fp)) {
		perror(path);
		fclose(fp);
		free(data);
		return 1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		rc |= replay(argv[i]);
	return rc;
}
