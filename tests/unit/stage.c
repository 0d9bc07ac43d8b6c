/* SPDX-License-Identifier: ISC */
/* Unit tests for stage: the contract (open, push, finish, close; or run) against the
 * memory sink; records a push leaves to the caller written unless bad; the bad records'
 * policy (skip: counted, left out); errors returned. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/rec.h"
#include "core/stage.h"
#include "core/trace.h"
#include "tap.h"

struct toy {
	FILE	*out;
	int	 opened, pushed, finished, closed;
	int	 fail_at;	/* push this many records, then an error */
};

static int
toy_open(void *self, FILE *out, struct stage_env *env, struct error *e)
{
	struct toy *t = self;

	t->out = out;
	t->opened++;
	return 0;
}

/* Ops get "seen"; signposts the stage writes itself, renamed; gpu records are dropped;
 * an op without an integer id is bad. */
static int
toy_push(void *self, struct rec *r, struct error *e)
{
	struct toy *t = self;
	long long id;

	if (t->fail_at > 0 && t->pushed == t->fail_at) {
		error_set(e, "toy", 0, -1, "stop here");
		return -1;
	}
	t->pushed++;
	switch (rec_kind(r)) {
	case KIND_OP:
		if (!rec_int(r, "id", &id))
			rec_reject(r, "an op without an id");
		rec_set_int(r, "seen", t->pushed);
		return STAGE_WRITE;
	case KIND_SIGNPOST:
		fprintf(t->out, "{\"kind\":\"signpost\",\"name\":\"renamed\"}\n");
		return STAGE_TAKEN;
	case KIND_GPU:
		return STAGE_TAKEN;
	default:
		return STAGE_WRITE;
	}
}

static int
toy_finish(void *self, struct error *e)
{
	struct toy *t = self;

	t->finished++;
	fprintf(t->out, "{\"kind\":\"end\"}\n");
	return 0;
}

static void
toy_close(void *self)
{
	((struct toy *)self)->closed++;
}

/* Pulls its records itself, counts them into one record. */
static int
toy_run(void *self, struct rec_reader *rd, struct error *e)
{
	struct toy *t = self;
	int n = 0;

	while (rec_next(rd) != NULL)
		n++;
	fprintf(t->out, "{\"count\":%d}\n", n);
	return 0;
}

static const struct stage toy = { toy_open, toy_push, NULL, toy_finish, toy_close };

/* A sink stage: counts the good ops it read, writes one line at the end. */
static int
sink_push(void *self, struct rec *r, struct error *e)
{
	struct toy *t = self;
	long long id;

	if (rec_kind(r) == KIND_OP && !rec_int(r, "id", &id))
		rec_reject(r, "an op without an id");
	if (rec_kind(r) == KIND_OP && rec_bad(r) == NULL)
		t->pushed++;
	return STAGE_READ;
}

static int
sink_finish(void *self, struct error *e)
{
	struct toy *t = self;

	fprintf(t->out, "%d ops\n", t->pushed);
	return 0;
}

static const struct stage toysink = { toy_open, sink_push, NULL, sink_finish, NULL };
static const struct stage toyrun = { toy_open, NULL, toy_run, NULL, NULL };

/* Standard input made to hold text (an unlinked temporary file): messages name it
 * "<stdin>", the same on every run. */
static void
input(const char *text)
{
	char path[64];
	int fd;

	strcpy(path, "/tmp/ttp-unit-stage.XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		die(EXIT_DATA, "temporary file");
	unlink(path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, STDIN_FILENO) < 0)
		die(EXIT_DATA, "temporary file");
	close(fd);
}

/* The stage over text into a memory sink: rc, and the sink's text in *out (malloc'd). */
static int
over(const struct stage *st, void *self, const char *text, bool skip, char **out,
    struct error *e)
{
	struct rec_reader *rd;
	struct stage_env env = { false, false, 0, BADREC_INIT };
	struct sink s;
	int rc;

	input(text);
	rd = rec_open("-");
	env.bad.skip = skip;
	sink_memory(&s);
	rc = stage_run(st, self, rd, &s, &env, e);
	*out = xstrdup(sink_text(&s, NULL));
	if (st->close != NULL)
		st->close(self);
	sink_close(&s);
	rec_close(rd);
	return rc;
}

static void
contract(void)
{
	static const char in[] = "{\"kind\":\"trace\",\"trace\":\"ttmetal\"}\n"
	    "{\"kind\":\"op\",\"id\":2}\n"
	    "{\"kind\":\"signpost\",\"id\":3,\"name\":\"a\"}\n"
	    "{\"kind\":\"gpu\",\"id\":4}\n"
	    "{\"kind\":\"op\",\"id\":5}\n";
	struct toy t = { 0 };
	struct error e = ERROR_INIT;
	char *out;

	ok(over(&toy, &t, in, false, &out, &e) == 0, "push stage: runs");
	is_str(out, "{\"kind\":\"trace\",\"trace\":\"ttmetal\"}\n"
	    "{\"kind\":\"op\",\"id\":2,\"seen\":2}\n"
	    "{\"kind\":\"signpost\",\"name\":\"renamed\"}\n"
	    "{\"kind\":\"op\",\"id\":5,\"seen\":5}\n"
	    "{\"kind\":\"end\"}\n", "written, taken, dropped, finished, in order");
	ok(t.opened == 1 && t.pushed == 5 && t.finished == 1 && t.closed == 1,
	    "open, five pushes, finish and close once each");
	free(out);

	memset(&t, 0, sizeof(t));
	t.fail_at = 2;
	ok(over(&toy, &t, in, false, &out, &e) == -1 && e.msg != NULL &&
	    strcmp(e.msg, "stop here") == 0, "an error is returned");
	ok(t.finished == 0 && t.closed == 1, "not finished, closed");
	is_str(out, "{\"kind\":\"trace\",\"trace\":\"ttmetal\"}\n"
	    "{\"kind\":\"op\",\"id\":2,\"seen\":2}\n", "what came before stays written");
	free(out);
	error_free(&e);

	memset(&t, 0, sizeof(t));
	ok(over(&toy, &t, "{\"kind\":\"trace\",\"trace\":\"kineto\"}\n{\"kind\":\"op\"}\n"
	    "not json\n{\"kind\":\"op\",\"id\":1}\n", true, &out, &e) == 0,
	    "skip: the run goes on");
	is_str(out, "{\"kind\":\"trace\",\"trace\":\"kineto\"}\n"
	    "{\"kind\":\"op\",\"id\":1,\"seen\":3}\n{\"kind\":\"end\"}\n",
	    "bad records (a stage's reject, a bad line) left out");
	free(out);

	memset(&t, 0, sizeof(t));
	ok(over(&toysink, &t, in, false, &out, &e) == 0, "sink stage: runs");
	is_str(out, "2 ops\n", "it writes no record, only its report");
	free(out);
	memset(&t, 0, sizeof(t));
	ok(over(&toysink, &t, "{\"kind\":\"trace\",\"trace\":\"kineto\"}\n{\"kind\":\"op\"}\n"
	    "{\"kind\":\"op\",\"id\":1}\n", true, &out, &e) == 0, "sink stage: skip");
	is_str(out, "1 ops\n", "the record it found bad judged by the policy, left out");
	free(out);

	memset(&t, 0, sizeof(t));
	ok(over(&toyrun, &t, in, false, &out, &e) == 0, "run stage: runs");
	is_str(out, "{\"count\":5}\n", "it read every record itself");
	free(out);
}

int
main(void)
{
	contract();
	return tap_done();
}
