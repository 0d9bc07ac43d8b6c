/* SPDX-License-Identifier: ISC */
/* Unit tests for opclass: the op kinds tt-perf-report tells by substrings. */
#include <string.h>

#include "tt/opclass.h"
#include "tap.h"

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
	return tap_done();
}
