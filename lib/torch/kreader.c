/* SPDX-License-Identifier: ISC */
/* kreader: the PyTorch trace reader's row (torch/kreader.h), an adapter of
 * kineto_parse. */
#include <stdio.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/stage.h"
#include "torch/kineto.h"
#include "torch/kreader.h"

/* A JSON document: its first byte that is not white space opens an object or array. */
static int
kineto_sniff(const unsigned char *head, size_t n)
{
	size_t i = 0;

	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
	    head[i] == '\n'))
		i++;
	return i < n && (head[i] == '{' || head[i] == '[');
}

/* Each trace on its own, with its rank (torch/collect.h's rule; with several traces and
 * no other rank, its place); two traces of one rank are an error. */
static int
kineto_read(struct io_input *in, int n, const struct reader_opts *ro, struct sink *out,
    struct error *e)
{
	struct kineto_ranks claimed = { NULL, NULL, 0, 0 };
	struct kineto_opts o = { ro->python, ro->verbose, ro->capture, ro->has_rank, ro->rank,
	    &claimed };
	FILE *fp;
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = (fp = io_input_stream(&in[i], e)) == NULL ? -1 :
			    kineto_parse(fp, in[i].name, n > 1 ? i : -1, &o, out->fp, e);
		io_input_close(&in[i]);
	}
	kineto_ranks_free(&claimed);
	return rc;
}

const struct reader kineto_reader = {
	"kineto", "json", "PyTorch profiler trace (JSON)",
	"PyTorch profiler trace (Kineto JSON)", "JSON trace", "PyTorch traces",
	"ttp-tracelens --profile_json_path FILE reports it", NULL, READER_CAPTURE | READER_RANK,
	kineto_sniff, kineto_read
};
