/* SPDX-License-Identifier: ISC */
/*
 * csvscan: the floor for ttp-parse: a bare libcsv scan of a CSV file that counts
 * fields and rows and nothing else (same parser options as lib/core/csvread.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include <csv.h>

static unsigned long nfields, nrows;

static void
cb_field(void *s, size_t len, void *arg)
{
	(void)s;
	(void)len;
	(void)arg;
	nfields++;
}

static void
cb_row(int c, void *arg)
{
	(void)c;
	(void)arg;
	nrows++;
}

static int
keep_spaces(unsigned char c)
{
	(void)c;
	return 0;
}

int
main(int argc, char *argv[])
{
	static char buf[256 * 1024];
	struct csv_parser p;
	FILE *fp;
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: csvscan FILE\n");
		return 2;
	}
	if ((fp = fopen(argv[1], "rb")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return 1;
	csv_set_space_func(&p, keep_spaces);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (csv_parse(&p, buf, n, cb_field, cb_row, NULL) != n) {
			fprintf(stderr, "csvscan: %s\n", csv_strerror(csv_error(&p)));
			return 1;
		}
	if (csv_fini(&p, cb_field, cb_row, NULL) != 0) {
		fprintf(stderr, "csvscan: %s\n", csv_strerror(csv_error(&p)));
		return 1;
	}
	csv_free(&p);
	fclose(fp);
	printf("%lu rows, %lu fields\n", nrows, nfields);
	return 0;
}
