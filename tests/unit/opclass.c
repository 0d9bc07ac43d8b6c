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
	ok(opclass_report("MatmulDeviceOperation 32 x 64 x 32", 34) == OPC_MATMUL &&
	    opclass_report("(torch) aten::add", 17) == OPC_HOST &&
	    opclass_report("Matmul (torch)", 14) == (OPC_HOST | OPC_MATMUL),
	    "report classes: host and matmul, also both");
	ok(opclass_report("OptimizedConvNew 4096 x 576 x 64 [ABH=x|x ADB]", 46) == OPC_CONV_NEW &&
	    opclass_report("Conv2dDeviceOperation", 21) == 0 &&
	    opclass_report("HaloDeviceOperation", 19) == 0 && opclass_report("", 0) == 0,
	    "report classes: OptimizedConvNew, not Conv2d, halo or nothing");
	ok(opclass_report("(torch)Matmul", 7) == OPC_HOST, "report classes: within the n bytes");
	return tap_done();
}
