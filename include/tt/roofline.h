/* SPDX-License-Identifier: ISC */
/*
 * roofline: ttp's own per-op roofline, beside tt-perf-report's compatible figures
 * (which it never changes): DRAM and L1 bytes of every op with tensor shapes, a FLOP
 * count where the op kind has a model, arithmetic intensity, the attainable TFLOP/s
 * under the architecture's roofline for the op's core count, which roof binds, the
 * share of it achieved, achieved bandwidth, PM IDEAL efficiency, and grid advice
 * against the architecture's real worker-core count. The models are documented in
 * ttp-roofline(1).
 */
#ifndef TTP_ROOFLINE_H
#define TTP_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "tt/metrics.h"

struct rop {
	const struct mop	*mop;		/* the op as metrics saw it */
	const struct mtensor	*tensors;	/* every tensor of in[] then out[] */
	size_t			 ntensors;
	bool			 has_pm_ideal;
	double			 pm_ideal_ns;	/* PM IDEAL [ns] */
};

struct rextra {
	bool		 has_bytes;
	double		 bytes;		/* DRAM bytes read and written */
	double		 l1_bytes;	/* bytes of L1-resident tensors */
	const char	*bytes_model;	/* "tensors", "gather", "slice", "slice-write" */
	bool		 has_flops;
	double		 flops;		/* floating-point operations (model below) */
	const char	*flops_model;	/* "matmul", "conv", "sdpa", "elementwise", "none" */
	bool		 has_intensity;
	double		 intensity;	/* flops / DRAM byte */
	bool		 has_roof;
	double		 peak_tflops;	/* compute roof for the op's cores and fidelity */
	double		 roof_tflops;	/* attainable: min(peak, intensity * DRAM bw) */
	const char	*roof;		/* "compute" or "memory" */
	bool		 has_roof_pct;
	double		 roof_pct;	/* achieved / attainable * 100 */
	bool		 has_bw;
	double		 bw_gbps, bw_pct;	/* achieved DRAM bandwidth, % of the arch's */
	bool		 has_pm_eff;
	double		 pm_eff_pct;	/* PM IDEAL / device time * 100 */
	/* Efficiencies over 100 %: the model does not fit the op (caching, broadcast,
	 * partial access it cannot see, or a PM IDEAL above the real cost): the names of
	 * the keys concerned, written as the "unsure" array. */
	const char	*unsure[2];
	size_t		 nunsure;
	bool		 has_grid;
	char		 grid_advice[128];	/* FLOP-bound matmul on part of the real grid */
};

void roofline_analyse(const struct rop *r, const struct mresult *m, struct rextra *x);

/* ttp-roofline's options. */
struct roofline_opts {
	const struct hwspec	*arch;		/* --arch (default wormhole) */
	const char		*arch_arg;	/* --arch as given, NULL when not given */
	const struct hwspec	*override;	/* --override-arch, or NULL */
	bool			 extras;	/* write the roofline extras */
	bool			 verbose;	/* the reference's informational messages */
};

struct rec;
/*
 * Analyse one op record and set its keys (compatible ones, then the extras); m is
 * scratch space kept between calls. A record it cannot use (a key of the wrong type, a
 * tensor of more than four dimensions, an unknown architecture of its own) is marked
 * bad (rec_bad) and left as it was, nothing said: the program decides. Returns -1, the
 * record untouched, when it names no architecture and o->arch is NULL (--arch named no
 * known one): an error of the command line, the program's to report; else 0.
 */
int roofline_record(struct rec *r, const struct roofline_opts *o, struct mresult *m);

#endif
