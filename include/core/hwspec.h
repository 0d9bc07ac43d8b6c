/* SPDX-License-Identifier: ISC */
/*
 * hwspec: the one table of accelerator hardware specifications (architecture name,
 * worker-core budget, DRAM bandwidth, matmul throughput per core for each math
 * fidelity), the built-in entries of tt-perf-report (wormhole, blackhole, bh20, n1)
 * with the exact doubles its Python computes, and more entries or overrides loaded at
 * run time from a small JSON file (hwspec_load), so a new chip needs no rebuild.
 */
#ifndef TTP_HWSPEC_H
#define TTP_HWSPEC_H

#include <stddef.h>

/* Math fidelities, in the order of the spec file's "tflops_per_core" members. */
enum fidelity { FID_HIFI4, FID_HIFI2, FID_LOFI, FID_HIFI3, FID_N };

#define HWSPEC_NAMESZ 32

struct hwspec {
	char	 name[HWSPEC_NAMESZ];	/* lower case: "wormhole" */
	int	 worker_cores;		/* default worker-core budget */
	double	 dram_gbps;		/* DRAM bandwidth, GB/s */
	double	 tflops[FID_N];		/* TFLOP/s per core; 0 = fidelity not modelled */
};

/* The fidelity named s ("HiFi4", "HiFi2", "LoFi", "HiFi3"; exact spelling), or -1. */
int hwspec_fidelity(const char *s);
/* Name of a fidelity as written in traces. */
const char *hwspec_fidelity_name(int fid);

/* The architecture named name, case-insensitive; "wormhole_b0" is "wormhole".
 * NULL when unknown. */
const struct hwspec *hwspec_find(const char *name);
/* Known names, ", "-separated, in table order (for error messages). Static buffer. */
const char *hwspec_names(void);
/* Per-core TFLOP/s for fid, or 0 when the architecture does not model it. */
double hwspec_tflops(const struct hwspec *hw, int fid);

/*
 * Load a spec file: one JSON object or an array of objects, each
 *   {"name": "quasar", "worker_cores": 32, "dram_gbps": 600,
 *    "tflops_per_core": {"HiFi4": 1.5, "HiFi2": 3, "LoFi": 6}, "aliases": ["qsr"]}
 * An entry whose name is known overrides the members it gives; a new name needs
 * worker_cores, dram_gbps and tflops_per_core. On error: message "prog: file: ...",
 * exit 1.
 */
void hwspec_load(const char *path);

#endif
