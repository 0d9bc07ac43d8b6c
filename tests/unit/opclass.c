/* SPDX-License-Identifier: ISC */
/* Unit tests for opclass: the op kinds tt-perf-report tells by substrings, and the
 * op-kind table's other facets: categories, access and FLOP models, colours. */
#include <stdio.h>
#include <string.h>

#include "tt/opclass.h"
#include "tap.h"

static const char *
cat(const char *w)
{
	const char *c = opkind_category(w, strlen(w));

	return c != NULL ? c : "(none)";
}

static int
acc(const char *s)
{
	return opkind_access(s);
}

static int
col(const char *s)
{
	return opkind_colour(s);
}

static void
table_tests(void)
{
	const struct opkind *t;
	size_t n, i, j, bad = 0;
	char w[128];

	/* docs/tt-perf-report.md §21: a word names a category as the pattern or pattern +
	 * DeviceOperation, and no word names two rows (so the rows' order does not matter
	 * to it) */
	t = opkind_table(&n);
	for (i = 0; i < n; i++) {
		if (t[i].category == NULL)
			continue;
		for (j = 0; j < 2; j++) {
			size_t k, hits = 0;

			snprintf(w, sizeof(w), "%s%s", t[i].pat, j ? "DeviceOperation" : "");
			for (k = 0; k < n; k++)
				if (t[k].category != NULL && (strcmp(w, t[k].pat) == 0 ||
				    (strncmp(w, t[k].pat, strlen(t[k].pat)) == 0 &&
				    strcmp(w + strlen(t[k].pat), "DeviceOperation") == 0)))
					hits++;
			if (hits != 1 || strcmp(cat(w), t[i].category) != 0)
				bad++;
		}
	}
	ok(bad == 0, "each category pattern names its row's category, and only it");
	is_str(cat("MatmulDeviceOperation"), "Compute", "category: pattern + DeviceOperation");
	is_str(cat("Matmul"), "Compute", "category: the pattern");
	is_str(cat("MatmulDevice"), "(none)", "category: no other suffix");
	is_str(cat("Halo"), "DM", "category: Halo is data movement");
	is_str(cat("PadDeviceOperation"), "TM", "category: a pattern with the suffix");
	is_str(cat("PadDeviceOperationDeviceOperation"), "TM",
	    "category: ... and the suffix once more");
	is_str(cat("(torch)"), "Host", "category: host fallbacks");
	is_str(cat("Slice"), "TM", "category: Slice");
	is_str(cat("AllGather"), "(none)", "category: AllGather is in none");
	ok(acc("EmbeddingsDeviceOperation") == OPA_GATHER &&
	    acc("EmbeddingBackward") == OPA_TENSORS, "access: embeddings gather, not backward");
	ok(acc("SliceWriteDeviceOperation") == OPA_SLICE_WRITE &&
	    acc("ShardedToInterleavedPartialDeviceOperation") == OPA_SLICE_WRITE &&
	    acc("SliceDeviceOperation") == OPA_SLICE &&
	    acc("InterleavedToShardedPartialDeviceOperation") == OPA_SLICE &&
	    acc("BinaryNgDeviceOperation") == OPA_TENSORS, "access: slices and slice writes");
	ok(opkind_flop("ScaledDotProductAttentionDecode") == OPF_SDPA &&
	    opkind_flop("SDPAOperation") == OPF_SDPA &&
	    opkind_flop("MatmulDeviceOperation") == OPF_NONE, "FLOP model: attention");
	ok(opkind_flags("EmbeddingBackward", OPK_CSTR, ~0u) == 0 &&
	    opkind_flags("AllGatherMatmul xyz", 9, ~0u) == OPC_COLLECTIVE,
	    "kind flags of a C string, and within n bytes");
	ok(col("(torch) Matmul") == OPCOL_RED && col("AllGatherMatmul") == OPCOL_MAGENTA &&
	    col("Conv2dDeviceOperation") == OPCOL_ORANGE &&
	    col("AllReduceAsync") == OPCOL_CYAN &&
	    col("PagedUpdateCacheDeviceOperation") == OPCOL_BLUE &&
	    col("NlpCreateHeadsDecode") == 0 && col("") == 0,
	    "colours: docs/tt-perf-report.md §16's order, none for other names");
	ok(opkind_flags("ScaledDotProductAttentionDecode", 31, OPC_DECODE) == OPC_DECODE &&
	    opkind_flags("UpdateCache", 11, ~0u) == OPC_DECODE &&
	    opkind_flags("AllGatherMatmul", 15, ~0u) == (OPC_MATMUL | OPC_COLLECTIVE) &&
	    opkind_flags("OptimizedConvNew", 16, ~0u) == (OPC_CONV | OPC_CONV_NEW),
	    "kind flags add up over the rows");
}

int
main(void)
{
	ok(opclass_host("(torch) ttnn.from_torch") && !opclass_host("torch.add"),
	    "host: \"(torch)\" anywhere, not a bare torch");
	ok(opclass_matmul("MatmulDeviceOperation 32 x 64 x 64", 34) &&
	    !opclass_matmul("MatmulDeviceOperation", 5) && !opclass_matmul("matmul", 6),
	    "matmul: case-sensitive, within the n bytes given");
	ok(opclass_conv("OptimizedConvNew") && opclass_conv("Conv2dDeviceOperation") &&
	    !opclass_conv("ConvertDeviceOperation"), "conv: OptimizedConvNew and Conv2d only");
	ok(opclass_halo("HaloDeviceOperation") && !opclass_halo("Halo"), "halo");
	ok(opclass_collective("AllGatherAsync") && opclass_collective("ReduceScatter") &&
	    opclass_collective("AllReduceCreateQkvHeads") && !opclass_collective("Reduce"),
	    "collectives");
	ok(opclass_device_type("tt_dnn_device") && !opclass_device_type("tt_dnn_cpu") &&
	    !opclass_device_type(NULL), "device op type");
	ok(opclass_report("MatmulDeviceOperation 32 x 64 x 32", 34) == OPC_MATMUL &&
	    opclass_report("(torch) aten::add", 17) == OPC_HOST &&
	    opclass_report("Matmul (torch)", 14) == (OPC_HOST | OPC_MATMUL),
	    "report classes: host and matmul, also both");
	ok(opclass_report("OptimizedConvNew 4096 x 576 x 64 [ABH=x|x ADB]", 46) == OPC_CONV_NEW &&
	    opclass_report("Conv2dDeviceOperation", 21) == 0 &&
	    opclass_report("HaloDeviceOperation", 19) == 0 && opclass_report("", 0) == 0,
	    "report classes: OptimizedConvNew, not Conv2d, halo or nothing");
	ok(opclass_report("(torch)Matmul", 7) == OPC_HOST, "report classes: within the n bytes");
	table_tests();
	return tap_done();
}
