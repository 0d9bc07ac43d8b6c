/* SPDX-License-Identifier: ISC */
/* Unit tests for the table of readers (core/reader.h): each row's sniff on the heads of
 * real inputs, the order of the rows, and each row's parse of an input opened once
 * (core/io.h's io_input) into a memory sink (core/stage.h), its records read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/reader.h"
#include "core/rec.h"
#include "core/stage.h"
#include "core/trace.h"
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

/* r's records of path, written into a memory sink (core/stage.h); NULL and *rc -1
 * when the input does not open (the message in e). */
static char *
parse(const struct reader *r, const char *path, int *rc, struct error *e)
{
	struct reader_opts o = { 0, 0, 0, 0, NULL, 0, 0 };
	struct io_input in;
	struct sink s;
	char *buf;

	if (io_input_open(&in, path, e) != 0) {
		*rc = -1;
		return NULL;
	}
	sink_memory(&s);
	*rc = r->parse(&in, 1, &o, &s, e);
	buf = xstrdup(sink_text(&s, NULL));
	sink_close(&s);
	return buf;
}

/* The records of text: how many of each kind (trace, op, gpu, signpost), and whether
 * every line is a record of one trace (want) with a kind; the first is its trace
 * record. */
static bool
kinds(const char *text, enum trace_kind want, size_t count[KIND_OTHER + 1])
{
	const char *p = text, *nl;
	bool good = true;
	size_t i = 0;

	memset(count, 0, (KIND_OTHER + 1) * sizeof(*count));
	for (; p != NULL && *p != '\0'; p = nl + 1, i++) {
		struct error e = ERROR_INIT;
		struct rec *r;
		enum rec_kind k;

		if ((nl = strchr(p, '\n')) == NULL)
			return false;
		if ((r = rec_parse(p, (size_t)(nl - p), "mem:1", &e)) == NULL) {
			error_free(&e);
			return false;
		}
		k = rec_kind(r);
		count[k]++;
		good = good && k != KIND_NONE && rec_trace(r) == want &&
		    (i == 0) == (k == KIND_TRACE) && rec_bad(r) == NULL;
		rec_free(r);
	}
	return good && i > 0;
}

static size_t
lines(const char *s)
{
	size_t n = 0;

	for (; s != NULL && *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/* r's records of path: the first its trace record, then ops, gpu records and
 * signposts of that trace, so many of each. */
static void
check(const struct reader *r, const char *path, enum trace_kind t, size_t nop, size_t ngpu,
    size_t nsignpost)
{
	struct error e = ERROR_INIT;
	size_t n[KIND_OTHER + 1];
	int rc;
	char *out = parse(r, path, &rc, &e);

	ok(rc == 0 && out != NULL && kinds(out, t, n),
	    "%s: %s's records, its trace record first", r->name, path);
	ok(n[KIND_TRACE] == 1 && n[KIND_OP] == nop && n[KIND_GPU] == ngpu &&
	    n[KIND_SIGNPOST] == nsignpost && lines(out) == 1 + nop + ngpu + nsignpost +
	    n[KIND_GROUP], "%s: %zu ops, %zu gpu, %zu signposts (want %zu, %zu, %zu)", path,
	    n[KIND_OP], n[KIND_GPU], n[KIND_SIGNPOST], nop, ngpu, nsignpost);
	free(out);
	error_free(&e);
}

/* A pipe (as a shell's <(...) gives one) is held: its head read ahead, the same stream
 * handed to the reader that opens the path, from its first byte. */
static void
held_pipe(void)
{
	static const char text[] = "  {\"traceEvents\":[]}";
	struct io_input in;
	struct error e = ERROR_INIT;
	char path[32], got[64];
	int fd[2];
	FILE *fp;
	size_t n;

	if (pipe(fd) != 0 || write(fd[1], text, sizeof(text) - 1) != sizeof(text) - 1)
		die(EXIT_DATA, "pipe");
	close(fd[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	ok(io_input_open(&in, path, &e) == 0 && !in.regular && in.fp != NULL,
	    "a pipe: held");
	ok(in.nhead == sizeof(text) - 1 && memcmp(in.head, text, in.nhead) == 0,
	    "its head: the whole of a short input");
	fp = io_open(path);
	ok(fp == in.fp, "io_open of its path: the held stream");
	n = fread(got, 1, sizeof(got), fp);
	ok(n == sizeof(text) - 1 && memcmp(got, text, n) == 0, "read from its first byte");
	io_close(fp);
	ok(in.fp == NULL, "closed by the reader: no longer held");
	io_input_close(&in);
	close(fd[0]);
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
	ok(in.regular && in.fp == NULL && in.nhead == IO_HEAD, "a regular file: a full head, "
	    "no stream held");
	io_input_close(&in);
	held_pipe();
	ok(sniff(&in, "tests/data/kineto/basic.json") == &kineto_reader, "basic.json: Kineto");
	io_input_close(&in);
	ok(sniff(&in, "tests/data/jax/small.xplane.pb") == &xplane_reader,
	    "small.xplane.pb: XSpace");
	io_input_close(&in);
	ok(ttm_reader.expect != NULL && strcmp(ttm_reader.expect, "csv") == 0 &&
	    strcmp(kineto_reader.expect, "json") == 0, "--expect's words");
	ok((kineto_reader.flags & READER_CAPTURE) && !(ttm_reader.flags & READER_CAPTURE),
	    "only Kineto takes a capture folder");

	check(&ttm_reader, "tests/data/sample.csv", TRACE_TTMETAL, 36, 0, 2);
	check(&kineto_reader, "tests/data/kineto/basic.json", TRACE_KINETO, 3, 4, 1);
	check(&xplane_reader, "tests/data/jax/small.xplane.pb", TRACE_XPLANE, 0, 6, 0);

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
