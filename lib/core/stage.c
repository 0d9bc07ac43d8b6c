/* SPDX-License-Identifier: ISC */
/* stage: the record stage contract and record programs' main (core/stage.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/rec.h"
#include "core/stage.h"

void
sink_stream(struct sink *s, FILE *fp)
{
	memset(s, 0, sizeof(*s));
	s->fp = fp;
}

void
sink_memory(struct sink *s)
{
	memset(s, 0, sizeof(*s));
	if ((s->fp = open_memstream(&s->mem, &s->len)) == NULL)
		die(EXIT_DATA, "memory sink: %s", strerror(errno));
	s->own = true;
}

const char *
sink_text(struct sink *s, size_t *len)
{
	if (s->own && fflush(s->fp) != 0)
		die(EXIT_DATA, "memory sink: %s", strerror(errno));
	if (len != NULL)
		*len = s->len;
	return s->mem != NULL ? s->mem : "";
}

void
sink_close(struct sink *s)
{
	if (s->own) {
		fclose(s->fp);
		free(s->mem);
	}
	memset(s, 0, sizeof(*s));
}

/* Push every record of rd; a record the stage found bad is the policy's. */
static int
push_all(const struct stage *st, void *self, struct rec_reader *rd, FILE *out,
    struct stage_env *env, struct error *e)
{
	struct rec *r;
	int rc;

	while ((r = badrec_next(&env->bad, rd)) != NULL) {
		if ((rc = st->push(self, r, e)) < 0)
			return -1;
		if (rc == STAGE_WRITE && !badrec_check(&env->bad, r))
			rec_write(r, out);
		else if (rc == STAGE_READ)
			(void)badrec_check(&env->bad, r);
	}
	return 0;
}

int
stage_run(const struct stage *st, void *self, struct rec_reader *rd, struct sink *out,
    struct stage_env *env, struct error *e)
{
	int rc;

	if (st->open != NULL && st->open(self, out->fp, env, e) != 0)
		rc = -1;
	else if (st->push != NULL)
		rc = push_all(st, self, rd, out->fp, env, e);
	else
		rc = st->run(self, rd, e);
	/* the count of skipped records comes before what finishing says */
	badrec_end(&env->bad);
	if (rc == 0 && st->finish != NULL)
		rc = st->finish(self, e);
	return rc;
}

/* The program's options followed by the common ones, for getopt_long. */
static struct option *
all_longopts(const struct option *own)
{
	static const struct option common[] = {
		{ "quiet",	no_argument,	NULL, 'q' },
		{ "verbose",	no_argument,	NULL, 'v' },
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ "skip-bad",	no_argument,	NULL, STAGE_OPT_SKIP_BAD },
		{ NULL,		0,		NULL, 0 }
	};
	size_t n = 0, i;
	struct option *v;

	while (own != NULL && own[n].name != NULL)
		n++;
	v = xcalloc(n + sizeof(common) / sizeof(common[0]), sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = own[i];
	memcpy(v + n, common, sizeof(common));
	return v;
}

/* Parse argv: the common options here, the program's through its callback. Returns
 * optind; exits for -h, -V and usage errors. */
static int
options(const struct stage_prog *p, int argc, char **argv, struct stage_env *env)
{
	struct option *lo = all_longopts(p->longopts);
	char *so = xmalloc(strlen(p->optstring) + 6);
	int ch;

	sprintf(so, ":%sqvhV", p->optstring);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (ch) {
		case 'q':
			env->quiet = true;
			diag_set_quiet(1);
			break;
		case 'v':
			env->verbose = true;
			env->nverbose++;
			break;
		case 'h':
			p->usage(stdout);
			exit(0);
		case 'V':
			printf("%s %s\n", p->name, TTP_VERSION);
			exit(0);
		case STAGE_OPT_SKIP_BAD:
			if (!(p->flags & STAGE_SKIP_BAD)) {
				optopt = 0;	/* as for any unknown long option */
				die_getopt('?', argv);
			}
			env->bad.skip = true;
			break;
		case '?':
		case ':':
			die_getopt(ch, argv);
		default:
			p->option(p->self, ch, optarg);
		}
	}
	free(so);
	free(lo);
	return optind;
}

/* Whether the inputs include the standard input (none given, or "-"). */
static bool
stdin_named(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			return true;
	return argc == 0;
}

/* Globals, so that a leak checker sees them when an error exits from deep inside. */
static struct rec_reader *rd;
static struct stage_env env = { false, false, 0, BADREC_INIT };

/* The inputs as records, through the stage. */
static int
run_stage(const struct stage_prog *p, int argc, char **argv, struct sink *out,
    struct error *e)
{
	int rc;

	rd = rec_open_list(argv, argc);
	/* on an error rd stays open: the error may name its input */
	if ((rc = stage_run(p->stage, p->self, rd, out, &env, e)) != 0)
		return rc;
	if (p->stage->close != NULL)
		p->stage->close(p->self);
	rec_close(rd);
	rd = NULL;
	return 0;
}

int
stage_main(const struct stage_prog *p, int argc, char **argv)
{
	struct error err = ERROR_INIT;
	struct sink out;
	int first;

	io_init();
	first = options(p, argc, argv, &env);
	argc -= first;
	argv += first;
	if (p->ready != NULL)
		p->ready(p->self, &env);
	if (p->operands != NULL) {
		first = p->operands(p->self, argc, argv);
		argc -= first;
		argv += first;
	}
	io_stdin_or_usage(argc, p->usage);
	/* A closed standard input: a temporary file would take descriptor 0 and be read
	 * as the input (an empty one). */
	if (p->source == NULL && stdin_named(argc, argv) &&
	    fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF)
		die(EXIT_DATA, "<stdin>: %s", strerror(EBADF));
	sink_stream(&out, stdout);
	if ((p->source != NULL ? p->source(p->self, argc, argv, &out, &env, &err) :
	    run_stage(p, argc, argv, &out, &err)) != 0)
		error_die(&err);
	io_finish();
	return 0;
}
