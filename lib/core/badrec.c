/* SPDX-License-Identifier: ISC */
/*
 * badrec: stop at a bad record, or warn, count and skip it (core/badrec.h).
 */
#include <stdbool.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/rec.h"

/* A bad record under the policy: returns when it is skipped. */
static void
take(struct badrec *b, const struct error *e)
{
	if (!b->skip)
		error_die(e);
	if (b->n++ < BADREC_SHOWN)
		error_warn(e);
}

struct rec *
badrec_next(struct badrec *b, struct rec_reader *rd)
{
	const struct error *e;
	struct rec *r;

	for (;;) {
		if ((r = rec_next(rd)) != NULL)
			return r;
		if ((e = rec_error(rd)) == NULL)
			return NULL;
		if (rec_error_final(rd))
			error_die(e);
		take(b, e);
	}
}

bool
badrec_check(struct badrec *b, struct rec *r)
{
	const struct error *e = rec_bad(r);

	if (e == NULL)
		return false;
	take(b, e);
	return true;
}

void
badrec_end(const struct badrec *b)
{
	if (b->n > BADREC_SHOWN)
		warning("skipped %llu bad records (the first %d shown)", b->n, BADREC_SHOWN);
	else if (b->n > 0)
		warning("skipped %llu bad record%s", b->n, b->n == 1 ? "" : "s");
}
