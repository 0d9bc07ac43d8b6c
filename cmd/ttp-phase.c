/* SPDX-License-Identifier: ISC */
/*
 * ttp-phase: tag every op record with the phase of the run it belongs to (phase, iter).
 * Option parsing and the call into lib/phase/phase.c, which owns the methods.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/io.h"
#include "phase/guess.h"
#include "phase/phase.h"
#include "core/rec.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-phase [-hqVv] [-b METHOD] [-t N] [--skip-bad] [FILE...]\n"
	    "Tag each op record with a phase (and an iteration where the phase repeats).\n"
	    "  -b, --by METHOD    signpost: the signpost that opened the op's segment;\n"
	    "                     steps: the engine step annotation (vLLM, SGLang, ATOM,\n"
	    "                       profiler steps) enclosing the op: prefill, decode,\n"
	    "                       mixed, idle; \"outside\" when none encloses it;\n"
	    "                     matmul-m: decode where matmul M <= N, else prefill;\n"
	    "                     repeat: the repeating op sequence is decode, iter 1, 2, ...;\n"
	    "                     gemm-params, kernel-names, attention, framework,\n"
	    "                       frequency, hybrid, union: TraceLens's heuristics on\n"
	    "                       PyTorch kernel launchers (unreliable; see ttp-phase(1);\n"
	    "                       TraceLens's names, gemm_params, ..., work too);\n"
	    "                     auto (default): TT traces: signpost if any, else repeat,\n"
	    "                       else matmul-m; PyTorch traces: steps if any, else\n"
	    "                       gemm-params\n"
	    "  -t, --threshold N  largest M that is decode (default %d for matmul-m and\n"
	    "                     repeat, %d for the heuristics)\n"
	    "  --skip-bad         leave out bad records (not JSON, a key of the wrong\n"
	    "                     type): warn about the first %d, count them, exit 0\n"
	    "  -q, --quiet        no advisory notes (which method auto chose, what it\n"
	    "                     found); warnings and errors still appear\n"
	    "  -v, --verbose      say what each method found\n"
	    "  -h, --help         show this help and exit\n"
	    "  -V, --version      show the version and exit\n", PHASE_THRESHOLD, GUESS_THRESHOLD,
	    BADREC_SHOWN);
}

enum { OPT_SKIP_BAD = 256 };

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "skip-bad", no_argument, NULL, OPT_SKIP_BAD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct badrec bad = BADREC_INIT;
	struct phase_opts o = { PHASE_AUTO, -1, 0, 0, &bad };
	struct rec_reader *rd;
	const char *errstr;
	int ch;

	io_init();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":b:t:qvhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			if (!phase_by_parse(optarg, &o.by))
				die_usage("--by: unknown method \"%s\" (auto, signpost, "
				    "steps, matmul-m, repeat, gemm-params, kernel-names, "
				    "attention, framework, frequency, hybrid, union)", optarg);
			break;
		case 't':
			o.threshold = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr != NULL)
				die_usage("--threshold: %s: %s", optarg, errstr);
			break;
		case 'q':
			o.quiet = 1;
			diag_set_quiet(1);
			break;
		case 'v':
			o.verbose = 1;
			break;
		case OPT_SKIP_BAD:
			bad.skip = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ttp-phase %s\n", TTP_VERSION);
			return 0;
		default:
			die_getopt(ch, argv);
		}
	}
	argc -= optind;
	argv += optind;
	io_stdin_or_usage(argc, usage);
	rd = rec_open_list(argv, argc);
	phase_tag(rd, stdout, &o);
	badrec_end(&bad);
	rec_close(rd);
	io_finish();
	return 0;
}
