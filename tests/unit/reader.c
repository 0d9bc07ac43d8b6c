/* SPDX-License-Identifier: ISC */
/* Unit tests for the table of readers (core/reader.h): each row's sniff on the heads of
 * real inputs, the order of the rows, and each row's parse of an input opened once
 * (core/io.h's io_input), its records read back from a memory sink. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/reader.h"
#include "jax/jreader.h"
#include "torch/kreader.h"
#include "tt/ttreader.h"
#include "tap.h"

static const struct reader *const table[] = {
	&xplane_reader, &kineto_reader, &ttm_reader, NULL
};

/* The row that claims path's head, the input left open in *in. */
static const struct reader *
sniff(struct io_input *in, const char *path)
{
	struct error e = ERROR_INIT;

	if (io_input_open(in, path, &e) != 0)
		error_die(&e);
	return reader_find(table, in->head, in->nhead);
}

/* r's records of path, written into memory (stdout pointed at a memory stream for the
 * call); NULL and *rc -1 when the parse fails (the message in e). */
static char *
parse(const struct reader *r, const char *path, int *rc, struct error *e)
{
	struct reader_opts o = { 0, 0, 0, 0, NULL };
	struct io_input in;
	FILE *saved = stdout, *mem;
	char *buf = NULL;
	size_t len = 0;

	if (io_input_open(&in, path, e) != 0) {
		*rc = -1;
		return NULL;
	}
	fflush(stdout);
	if ((mem = open_memstream(&buf, &len)) == NULL)
		return NULL;
	stdout = mem;
	*rc = r->parse(&in, 1, &o, e);
	fclose(mem);
	stdout = saved;
	return buf;
}

static size_t
lines(const char *s)
{
	size_t n = 0;

	for (; s != NULL && *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

static void
check(const struct reader *r, const char *path, const char *first, size_t nlines)
{
	struct error e = ERROR_INIT;
	int rc;
	char *out = parse(r, path, &rc, &e);

	ok(rc == 0 && out != NULL && strncmp(out, first, strlen(first)) == 0,
	    "%s: %s's records start with its trace record", r->name, path);
	ok(lines(out) == nlines, "%s: %zu records (want %zu)", path, lines(out), nlines);
	free(out);
	error_free(&e);
}

int
main(void)
{
	static const unsigned char json[] = " \r\n\t[{}]", csv[] = "OP CODE,OP TYPE\n";
	struct io_input in;
	struct error e = ERROR_INIT;
	char *out;
	int rc;

	ok(kineto_reader.sniff(json, sizeof(json) - 1), "JSON after white space is Kineto");
	ok(!kineto_reader.sniff(csv, sizeof(csv) - 1), "a CSV header is not Kineto");
	ok(!kineto_reader.sniff(json, 4), "white space alone is not Kineto");
	ok(!xplane_reader.sniff(json, sizeof(json) - 1), "JSON is not an XSpace");
	ok(reader_find(table, csv, 0) == &ttm_reader, "an empty input goes to the CSV reader");
	ok(sniff(&in, "tests/data/sample.csv") == &ttm_reader, "sample.csv: TT-Metal CSV");
	io_input_close(&in);
	ok(sniff(&in, "tests/data/kineto/basic.json") == &kineto_reader, "basic.json: Kineto");
	io_input_close(&in);
	ok(sniff(&in, "tests/data/jax/small.xplane.pb") == &xplane_reader,
	    "small.xplane.pb: XSpace");
	io_input_close(&in);
	ok(ttm_reader.expect != NULL && strcmp(ttm_reader.expect, "csv") == 0 &&
	    strcmp(kineto_reader.expect, "json") == 0, "--expect's words");
	ok((kineto_reader.flags & READER_CAPTURE) && !(ttm_reader.flags & READER_CAPTURE),
	    "only Kineto takes a capture folder");

	check(&ttm_reader, "tests/data/sample.csv", "{\"kind\":\"trace\",\"trace\":\"ttmetal\"",
	    39);
	check(&kineto_reader, "tests/data/kineto/basic.json",
	    "{\"kind\":\"trace\",\"trace\":\"kineto\"", 9);
	check(&xplane_reader, "tests/data/jax/small.xplane.pb",
	    "{\"kind\":\"trace\",\"trace\":\"xplane\"", 7);

	out = parse(&kineto_reader, "tests/data/sample.csv", &rc, &e);
	ok(rc == -1 && error_is_set(&e) && out != NULL && *out == '\0',
	    "Kineto on a CSV: an error, no record");
	ok(e.file != NULL && strcmp(e.file, "tests/data/sample.csv") == 0,
	    "the error names the input");
	free(out);
	error_free(&e);
	out = parse(&kineto_reader, "tests/data/no-such-file", &rc, &e);
	ok(rc == -1 && out == NULL && e.msg != NULL, "a missing input: an error");
	error_free(&e);
	return tap_done();
}
