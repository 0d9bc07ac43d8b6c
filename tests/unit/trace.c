/* SPDX-License-Identifier: ISC */
/* Unit tests for trace: records' kinds and traces, typed and strict; the leading trace
 * record of each format as ttp-parse writes it, its keys of other types read as missing
 * without making the record bad. */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
#include "core/trace.h"
#include "tap.h"

static struct rec *
rec(const char *s)
{
	return tap_rec(s, strlen(s), "t:1");
}

int
main(void)
{
	static const char tt[] = "{\"kind\":\"trace\",\"trace\":\"ttmetal\",\"file\":\"a.csv\","
	    "\"format\":\"ttmetal\",\"fmt\":\"v2.1\",\"devices\":[0,1],"
	    "\"signposts\":[\"warmup\",\"measure\"],\"ids_ascending\":true}";
	static const char kt[] = "{\"kind\":\"trace\",\"trace\":\"kineto\",\"file\":\"k.json\","
	    "\"devices\":[{\"id\":0,\"name\":\"NVIDIA H100\"}],\"signposts\":[\"ProfilerStep#6\"],"
	    "\"rank\":3}";
	static const char odd[] = "{\"kind\":\"trace\",\"trace\":7,\"fmt\":1,\"devices\":{},"
	    "\"signposts\":[\"a\",2],\"ids_ascending\":\"yes\",\"rank\":1.5}";
	struct trace_info t;
	struct rec *r;

	r = rec("{\"kind\":\"op\",\"trace\":\"kineto\"}");
	ok(rec_kind(r) == KIND_OP && rec_trace(r) == TRACE_KINETO, "op of a PyTorch trace");
	ok(!trace_read(r, &t) && t.trace == TRACE_NONE, "an op is not a trace record");
	rec_free(r);
	r = rec("{\"kind\":\"gpu\",\"trace\":\"xplane\"}");
	ok(rec_kind(r) == KIND_GPU && rec_trace(r) == TRACE_XPLANE, "gpu of a JAX trace");
	rec_free(r);
	r = rec("{\"kind\":\"signposts\",\"trace\":\"kinet\"}");
	ok(rec_kind(r) == KIND_OTHER && rec_trace(r) == TRACE_OTHER, "near misses are other");
	rec_free(r);
	r = rec("{\"kind\":1,\"trace\":null}");
	ok(rec_kind(r) == KIND_NONE && rec_trace(r) == TRACE_NONE, "wrong types read as none");
	ok(rec_bad(r) != NULL && strstr(rec_bad(r)->msg, "\"kind\"") != NULL,
	    "and mark the record bad, as rec_str does");
	rec_free(r);
	r = rec("{\"kind\":\"group\",\"trace\":\"kineto\"}");
	ok(rec_kind(r) == KIND_GROUP, "a process group's record");
	rec_free(r);
	is_str(rec_kind_name(KIND_SIGNPOST), "signpost", "kind names");
	is_str(rec_kind_name(KIND_GROUP), "group", "the group kind's name");
	is_str(trace_kind_name(TRACE_TTMETAL), "ttmetal", "trace names");
	ok(rec_kind_name(KIND_OTHER) == NULL && trace_kind_name(TRACE_NONE) == NULL,
	    "no name for none and other");

	r = rec(tt);
	ok(trace_read(r, &t) && t.trace == TRACE_TTMETAL, "TT-Metal trace record");
	is_str(t.fmt, "v2.1", "its fmt");
	is_str(t.file, "a.csv", "its file");
	ok(t.ids_ascending, "its ids ascend");
	ok(t.devices != NULL && t.devices_len == 5 && memcmp(t.devices, "[0,1]", 5) == 0,
	    "its devices as JSON text");
	ok(t.has_signposts && t.signposts.n == 2 && strcmp(t.signposts.s[1], "measure") == 0,
	    "its signposts");
	ok(!t.has_rank, "no rank");
	rec_free(r);
	r = rec(kt);
	ok(trace_read(r, &t) && t.trace == TRACE_KINETO && t.fmt == NULL &&
	    !t.ids_ascending, "PyTorch trace record");
	ok(t.has_rank && t.rank == 3, "its rank");
	ok(t.has_signposts && t.signposts.n == 1, "its signposts");
	rec_free(r);
	r = rec(odd);
	ok(trace_read(r, &t) && t.trace == TRACE_NONE && t.fmt == NULL && t.devices == NULL &&
	    !t.has_signposts && !t.ids_ascending && !t.has_rank,
	    "keys of other types promise nothing");
	ok(rec_bad(r) == NULL, "and do not make the record bad");
	rec_free(r);
	return tap_done();
}
