/* SPDX-License-Identifier: ISC */
/* jreader: the XSpace reader's row (jax/jreader.h), an adapter of xplane_parse. */
#include <stdio.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/stage.h"
#include "jax/jreader.h"
#include "jax/xplane.h"

/* xplane_sniff reads a plane's head: the first 512 bytes are plenty. */
static int
xplane_head(const unsigned char *head, size_t n)
{
	return xplane_sniff(head, n < 512 ? n : 512);
}

/* The reader seeks: an input that cannot (a pipe) is copied once into a temporary file,
 * which it opens by path. */
static int
xplane_read(struct io_input *in, int n, const struct reader_opts *ro, struct sink *out,
    struct error *e)
{
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		if (rc == 0 && (rc = io_input_spool(&in[i], e)) == 0)
			rc = xplane_parse(in[i].path, in[i].name, ro->verbose, out->fp, e);
		io_input_close(&in[i]);
	}
	return rc;
}

const struct reader xplane_reader = {
	"xplane", NULL, "JAX profile (XSpace)", "JAX profile (XSpace)", "JAX profile",
	"JAX profiles", "ttp-tracelens --jax --profile_path FILE reports it",
	"not a JAX profile (XSpace)", 0, xplane_head, xplane_read
};
