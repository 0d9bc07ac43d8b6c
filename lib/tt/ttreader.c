/* SPDX-License-Identifier: ISC */
/* ttreader: the TT-Metal CSV reader's row (tt/ttreader.h), an adapter of ttm_parse. */
#include <stdio.h>
#include <stdlib.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/stage.h"
#include "tt/ttmetal.h"
#include "tt/ttreader.h"

/* A CSV file has no signature: this row is the table's last, and takes anything. */
static int
ttm_sniff(const unsigned char *head, size_t n)
{
	return 1;
}

/* ttm_parse opens its paths again: io_open hands it the streams the inputs hold. */
static int
ttm_read(struct io_input *in, int n, const struct reader_opts *ro, struct sink *out,
    struct error *e)
{
	struct ttm_opts o = { ro->all, ro->nosort, ro->verbose };
	char **paths = xcalloc((size_t)n, sizeof(*paths));
	int i, rc;

	for (i = 0; i < n; i++)
		paths[i] = (char *)in[i].path;
	rc = ttm_parse(paths, n, &o, out->fp, e);
	for (i = 0; i < n; i++)
		io_input_close(&in[i]);
	free(paths);
	return rc;
}

const struct reader ttm_reader = {
	"ttmetal", "csv", "TT-Metal ops perf CSV", "TT-Metal ops perf CSV", "CSV file",
	"CSV files", "ttp-report FILE reports it", NULL, 0, ttm_sniff, ttm_read
};
