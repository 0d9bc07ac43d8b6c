/* SPDX-License-Identifier: ISC */
/* trace: records' kinds and traces, and the leading trace record (core/trace.h). */
#include <string.h>

#include "core/trace.h"

static const char *const kinds[] = {
	[KIND_TRACE] = "trace", [KIND_OP] = "op", [KIND_GPU] = "gpu",
	[KIND_SIGNPOST] = "signpost", [KIND_GROUP] = "group"
};
static const char *const traces[] = {
	[TRACE_TTMETAL] = "ttmetal", [TRACE_KINETO] = "kineto", [TRACE_XPLANE] = "xplane"
};

/* The string value of key, leniently: NULL unless it is a string. */
static const char *
str(struct rec *r, const char *key, size_t *len)
{
	return rec_type(r, key) == REC_STRING ? rec_str(r, key, len) : NULL;
}

/* The index in names[lo..hi] of s (len bytes), or other. */
static int
lookup(const char *const *names, int lo, int hi, const char *s, size_t len, int other)
{
	int i;

	for (i = lo; i <= hi; i++)
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	return other;
}

/* Strict, as rec_str: a "kind" of another type marks r bad. */
enum rec_kind
rec_kind(struct rec *r)
{
	size_t len;
	const char *s = rec_str(r, "kind", &len);

	return s == NULL ? KIND_NONE :
	    (enum rec_kind)lookup(kinds, KIND_TRACE, KIND_GROUP, s, len, KIND_OTHER);
}

static enum trace_kind
trace_of(const char *s, size_t len)
{
	return s == NULL ? TRACE_NONE :
	    (enum trace_kind)lookup(traces, TRACE_TTMETAL, TRACE_XPLANE, s, len, TRACE_OTHER);
}

enum trace_kind
rec_trace(struct rec *r)
{
	size_t len;
	const char *s = rec_str(r, "trace", &len);

	return trace_of(s, len);
}

const char *
rec_kind_name(enum rec_kind k)
{
	return k >= KIND_TRACE && k <= KIND_GROUP ? kinds[k] : NULL;
}

const char *
trace_kind_name(enum trace_kind t)
{
	return t >= TRACE_TTMETAL && t <= TRACE_XPLANE ? traces[t] : NULL;
}

bool
trace_read(struct rec *r, struct trace_info *t)
{
	size_t len;
	const char *s = str(r, "kind", &len);

	memset(t, 0, sizeof(*t));
	if (s == NULL || len != 5 || memcmp(s, "trace", 5) != 0)
		return false;
	s = str(r, "trace", &len);
	t->trace = trace_of(s, len);
	t->file = str(r, "file", NULL);
	t->fmt = str(r, "fmt", NULL);
	t->ids_ascending = rec_type(r, "ids_ascending") == REC_BOOL &&
	    rec_bool(r, "ids_ascending", &t->ids_ascending) && t->ids_ascending;
	if (rec_type(r, "devices") == REC_ARRAY)
		t->devices = rec_raw(r, "devices", &t->devices_len);
	/* rec_strv marks the record bad when an element is not a string: look first */
	if (rec_type(r, "signposts") == REC_ARRAY) {
		struct rec_elems e;
		bool strings = rec_elems(r, "signposts", &e);

		while (strings && rec_elem_next(&e))
			strings = rec_elem_type(&e, NULL) == REC_STRING;
		t->has_signposts = strings && rec_strv(r, "signposts", &t->signposts);
	}
	t->has_rank = rec_type(r, "rank") == REC_INT && rec_int(r, "rank", &t->rank);
	return true;
}
