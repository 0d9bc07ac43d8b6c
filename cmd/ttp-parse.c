/* SPDX-License-Identifier: ISC */
/*
 * ttp-parse: TT-Metal ops perf CSV files to ttp records (NDJSON), one per row.
 * Options and usage here; the work is in lib/ttmetal.c and lib/csvread.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/diag.h"
#include "core/io.h"
#include "tt/ttmetal.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-parse [-ahnqVv] [FILE ...]\n"
	    "Read TT-Metal ops perf CSV files (none or \"-\": standard input; gzip is\n"
	    "read transparently) and write one record per row as NDJSON.\n"
	    "\n"
	    "  -a, --all          also keep every other column under its header name\n"
	    "  -n, --no-sort      keep file order (do not sort by HOST START TS);\n"
	    "      --tracing-mode same as --no-sort (tt-perf-report's name)\n"
	    "  -q, --quiet        no advisory notes (warnings and errors still appear)\n"
	    "  -v, --verbose      print tt-perf-report's informational messages\n"
	    "  -h, --help         show this help and exit\n"
	    "  -V, --version      show the version and exit\n");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "all",		no_argument,	NULL, 'a' },
		{ "no-sort",		no_argument,	NULL, 'n' },
		{ "tracing-mode",	no_argument,	NULL, 'n' },
		{ "quiet",		no_argument,	NULL, 'q' },
		{ "verbose",		no_argument,	NULL, 'v' },
		{ "help",		no_argument,	NULL, 'h' },
		{ "version",		no_argument,	NULL, 'V' },
		{ NULL,			0,		NULL, 0 }
	};
	struct ttm_opts o = { 0, 0, 0 };
	int ch;

	io_init();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":anqvhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.all = 1;
			break;
		case 'n':
			o.nosort = 1;
			break;
		case 'q':
			diag_set_quiet(1);
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ttp-parse %s\n", TTP_VERSION);
			return 0;
		default:
			die_getopt(ch, argv);
		}
	}
	ttm_parse(argv + optind, argc - optind, &o);
	io_finish();
	return 0;
}
