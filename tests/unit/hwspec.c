/* SPDX-License-Identifier: ISC */
/* Unit tests for hwspec: the built-in table's exact doubles, names, spec files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/hwspec.h"
#include "core/numfmt.h"
#include "tap.h"

static void
num(double got, const char *want, const char *name)
{
	char buf[NUM_BUFSZ];

	num_shortest(buf, got);
	is_str(buf, want, name);
}

int
main(void)
{
	const struct hwspec *wh, *bh, *bh20, *n1, *q;
	char path[] = "/tmp/ttp-hwspec-XXXXXX";
	struct error err = ERROR_INIT;
	FILE *fp;
	int fd;

	wh = hwspec_find("wormhole");
	bh = hwspec_find("BlackHole");
	bh20 = hwspec_find("bh20");
	n1 = hwspec_find("N1");
	ok(wh && bh && bh20 && n1, "built-in names, case-insensitive");
	ok(hwspec_find("wormhole_b0") == wh && hwspec_find("WORMHOLE_B0") == wh,
	    "wormhole_b0 alias");
	ok(hwspec_find("grayskull") == NULL && hwspec_find(NULL) == NULL, "unknown name");
	is_str(hwspec_names(), "wormhole, blackhole, bh20, n1, wormhole_b0", "name list");

	/* Python: 74/72, 148/72, 262/72, 4096*1.35/1000/4 ... */
	num(hwspec_tflops(wh, FID_HIFI4), "1.0277777777777777", "wormhole HiFi4");
	num(hwspec_tflops(wh, FID_HIFI2), "2.0555555555555554", "wormhole HiFi2");
	num(hwspec_tflops(wh, FID_LOFI), "3.638888888888889", "wormhole LoFi");
	num(hwspec_tflops(bh, FID_HIFI4), "1.3824", "blackhole HiFi4");
	num(hwspec_tflops(bh, FID_HIFI2), "2.7648", "blackhole HiFi2");
	num(hwspec_tflops(bh, FID_LOFI), "5.5296", "blackhole LoFi");
	num(hwspec_tflops(n1, FID_HIFI4), "0.6656", "n1 HiFi4");
	num(hwspec_tflops(n1, FID_LOFI), "2.6624", "n1 LoFi");
	ok(hwspec_tflops(wh, FID_HIFI3) == 0, "HiFi3 not modelled");
	ok(hwspec_tflops(wh, -1) == 0, "unknown fidelity");
	ok(wh->worker_cores == 64 && bh->worker_cores == 130 && bh20->worker_cores == 20 &&
	    n1->worker_cores == 20, "worker cores");
	ok(wh->dram_gbps == 288 && bh->dram_gbps == 512 && bh20->dram_gbps == 512 &&
	    n1->dram_gbps == 120, "DRAM bandwidth");
	ok(hwspec_fidelity("HiFi4") == FID_HIFI4 && hwspec_fidelity("LoFi") == FID_LOFI &&
	    hwspec_fidelity("lofi") == -1 && hwspec_fidelity(NULL) == -1, "fidelity names");

	/* a spec file: one override, one new architecture with an alias */
	if ((fd = mkstemp(path)) < 0 || (fp = fdopen(fd, "w")) == NULL)
		return ok(0, "temp file"), tap_done();
	fputs("[{\"name\": \"N1\", \"dram_gbps\": 150},\n"
	    " {\"name\": \"Quasar\", \"worker_cores\": 32, \"dram_gbps\": 600,\n"
	    "  \"tflops_per_core\": {\"HiFi4\": 1.5, \"HiFi2\": 3, \"LoFi\": 6, \"HiFi3\": 2},\n"
	    "  \"aliases\": [\"qsr\"]}]\n", fp);
	fclose(fp);
	ok(hwspec_load(path, &err) == 0 && !error_is_set(&err), "spec file loaded");
	unlink(path);
	n1 = hwspec_find("n1");
	ok(n1->dram_gbps == 150 && n1->worker_cores == 20, "override keeps other members");
	num(hwspec_tflops(n1, FID_HIFI2), "1.3312", "override keeps TFLOPs");
	q = hwspec_find("qsr");
	ok(q != NULL && strcmp(q->name, "quasar") == 0 && q->worker_cores == 32, "new arch");
	ok(q != NULL && hwspec_tflops(q, FID_HIFI3) == 2 && hwspec_tflops(q, FID_LOFI) == 6,
	    "new arch TFLOPs, HiFi3 modelled");
	ok(hwspec_find("wormhole") != NULL && hwspec_find("wormhole")->worker_cores == 64,
	    "built-ins still there");

	/* bad spec files are returned: file, line of bad JSON, what is wrong */
	{
		static const struct { const char *text, *msg; long long line; } bad[] = {
			{ "[]", "no entries", 0 },
			{ "[1]", "entry 1: expected an object", 0 },
			{ "{\"name\": \"zz\"}", "zz: \"worker_cores\" missing", 0 },
			{ "{\"name\": \"x\", \"mem_bw_gbps\": -1}",
			    "x: \"mem_bw_gbps\" must be a positive number", 0 },
			{ "[{\"name\": \"n1\",\n \"name\": \"n1\"}]", NULL, 2 },
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			strcpy(path, "/tmp/ttp-hwspec-XXXXXX");
			if ((fd = mkstemp(path)) < 0 || (fp = fdopen(fd, "w")) == NULL)
				return ok(0, "temp file"), tap_done();
			fputs(bad[i].text, fp);
			fclose(fp);
			ok(hwspec_load(path, &err) == -1 && err.file != NULL &&
			    strcmp(err.file, path) == 0 && err.line == bad[i].line &&
			    (bad[i].msg == NULL || strcmp(err.msg, bad[i].msg) == 0),
			    "bad spec returned: %s", err.msg != NULL ? err.msg : "(none)");
			error_free(&err);
			unlink(path);
		}
		ok(hwspec_load("/nonexistent/spec.json", &err) == -1 &&
		    strcmp(err.msg, "No such file or directory") == 0, "a file that does not open");
		error_free(&err);
	}
	return tap_done();
}
