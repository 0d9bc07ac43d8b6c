/* SPDX-License-Identifier: ISC */
/* Unit tests for outfile: written whole through a temporary, or not at all; a link at the
 * target replaced, never written through; inputs refused; devices and descriptor aliases
 * written directly; temporaries removed at exit and on a fatal signal. */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/outfile.h"
#include "tap.h"

static char dir[] = "/tmp/ttp-outfile.XXXXXX";

static char *
at(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

/* The file's first line, "" when missing. */
static const char *
get(const char *path)
{
	static char b[256];
	FILE *fp = fopen(path, "r");

	b[0] = '\0';
	if (fp != NULL) {
		if (fgets(b, sizeof(b), fp) == NULL)
			b[0] = '\0';
		fclose(fp);
	}
	return b;
}

/* How many names in the directory start with '.' (temporaries), besides . and .. */
static int
hidden(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
write_commit(const char *path, const char *text, struct error *e, int *rc)
{
	struct outfile *f = outfile_open(path, e);

	*rc = -1;
	if (f == NULL)
		return;
	fputs(text, outfile_fp(f));
	*rc = outfile_commit(f, e);
}

int
main(void)
{
	struct error e = ERROR_INIT;
	struct outfile *f;
	struct stat st;
	int rc, status;
	pid_t pid;

	if (mkdtemp(dir) == NULL)
		return 1;

	write_commit(at("a.csv"), "new\n", &e, &rc);
	is_str(get(at("a.csv")), "new\n", "commit writes the file");
	ok(rc == 0 && hidden() == 0, "and leaves no temporary");

	f = outfile_open(at("a.csv"), &e);
	fputs("half", outfile_fp(f));
	fflush(outfile_fp(f));
	is_str(get(at("a.csv")), "new\n", "while written, the old file is intact");
	ok(hidden() == 1, "the temporary is beside it");
	outfile_abort(f);
	is_str(get(at("a.csv")), "new\n", "abort keeps the old file");
	ok(hidden() == 0, "abort removes the temporary");

	put(at("victim"), "VICTIM\n");
	symlink(at("victim"), at("link.csv"));
	write_commit(at("link.csv"), "out\n", &e, &rc);
	is_str(get(at("victim")), "VICTIM\n", "a link's target is not written through");
	ok(rc == 0 && lstat(at("link.csv"), &st) == 0 && S_ISREG(st.st_mode),
	    "the link is replaced by the file");

	put(at("in.json"), "INPUT\n");
	outfile_protect(at("in.json"));
	symlink(at("in.json"), at("inlink"));
	link(at("in.json"), at("hard.json"));
	ok(outfile_open(at("in.json"), &e) == NULL && strstr(e.msg, "is an input") != NULL,
	    "an input is refused as output");
	ok(outfile_open(at("inlink"), &e) == NULL, "also through a symlink");
	ok(outfile_open(at("hard.json"), &e) == NULL, "also through a hard link");
	is_str(get(at("in.json")), "INPUT\n", "the input is intact");
	ok(outfile_is_input(at("inlink")) && !outfile_is_input(at("a.csv")),
	    "outfile_is_input");

	chmod(at("a.csv"), 0640);
	write_commit(at("a.csv"), "again\n", &e, &rc);
	ok(rc == 0 && stat(at("a.csv"), &st) == 0 && (st.st_mode & 0777) == 0640,
	    "the replaced file's mode is kept");

	ok(outfile_open(dir, &e) == NULL && strstr(e.msg, "Is a directory") != NULL,
	    "a directory is refused");
	ok(outfile_open(at("sub/"), &e) == NULL, "a name ending in / is refused");
	ok(outfile_open(at("nodir/x.csv"), &e) == NULL &&
	    strstr(e.msg, "No such file") != NULL, "a missing directory: its error");

	ok(outfile_is_stream("/dev/null") && outfile_is_stream("-") &&
	    outfile_is_stream("/dev/stdout") && outfile_is_stream("/dev/fd/1") &&
	    !outfile_is_stream(at("a.csv")), "streams: devices, descriptors, -");
	write_commit("/dev/null", "x\n", &e, &rc);
	ok(rc == 0 && stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode),
	    "/dev/null is written directly");

	/* a temporary left open at exit, or at a fatal signal, is removed */
	fflush(stdout);
	if ((pid = fork()) == 0) {
		f = outfile_open(at("exit.csv"), &e);
		fputs("x", outfile_fp(f));
		exit(hidden() == 1 ? 0 : 3);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && hidden() == 0 &&
	    access(at("exit.csv"), F_OK) != 0, "exit removes an open temporary");
	if ((pid = fork()) == 0) {
		f = outfile_open(at("sig.csv"), &e);
		fputs("x", outfile_fp(f));
		if (hidden() != 1)
			exit(3);
		raise(SIGTERM);
		exit(4);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM && hidden() == 0 &&
	    access(at("sig.csv"), F_OK) != 0, "SIGTERM removes it and still ends the process");

	error_free(&e);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
