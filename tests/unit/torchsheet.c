/* SPDX-License-Identifier: ISC */
/* Unit tests for opclass_sheet: TraceLens's roofline sheet of a family (docs/tracelens.md
 * §3.3). */
#include <stdbool.h>

#include "torch/opclass.h"
#include "tap.h"

static const char *
sheet(const char *family, bool bwd, bool inference)
{
	static char buf[64];

	return opclass_sheet(family, bwd, inference, buf, sizeof(buf));
}

int
main(void)
{
	char small[8];

	is_str(sheet("GEMM", true, false), "GEMM", "GEMM is one sheet, bwd rows too");
	is_str(sheet("GEMM", false, true), "GEMM", "GEMM is one sheet in the inference report");
	is_str(sheet("UnaryElementwise", true, true), "UnaryElementwise", "unary: one sheet");
	is_str(sheet("BinaryElementwise", false, false), "BinaryElementwise", "binary: one sheet");
	is_str(sheet("Normalization", true, false), "Normalization",
	    "Normalization: one sheet in the training report");
	is_str(sheet("Normalization", true, true), "Normalization_fwd",
	    "Normalization: Normalization_fwd in the inference report, bwd rows too");
	is_str(sheet("SDPA", false, false), "SDPA_fwd", "other families: FAMILY_fwd");
	is_str(sheet("CONV", true, false), "CONV_bwd", "other families: FAMILY_bwd");
	is_str(sheet("Reduce", false, true), "Reduce_fwd", "Reduce: split");
	is_str(sheet("CONV", true, true), "CONV_fwd", "no FAMILY_bwd in the inference report");
	is_str(sheet("SDPA_bwd", false, true), "SDPA_bwd", "a sheet name is its own sheet");
	is_str(sheet("CONV_fwd", true, false), "CONV_fwd", "its suffix wins over bwd");
	is_str(sheet("other", false, false), "other_fwd", "a category without a suffix");
	is_str(opclass_sheet("InferenceAttention", false, false, small, sizeof(small)),
	    "Inferen", "a short buffer truncates, terminated");
	return tap_done();
}
