/* SPDX-License-Identifier: ISC */
/*
 * opclass: TT-Metal op kinds from names and op types (see opclass.h).
 */
#include <string.h>

#include "tt/opclass.h"

bool
opclass_host(const char *name)
{
	return strstr(name, "(torch)") != NULL;
}

bool
opclass_matmul(const char *name, size_t n)
{
	return memmem(name, n, "Matmul", 6) != NULL;
}

bool
opclass_conv(const char *name)
{
	return strstr(name, "OptimizedConvNew") != NULL || strstr(name, "Conv2d") != NULL;
}

bool
opclass_halo(const char *name)
{
	return strstr(name, "HaloDeviceOperation") != NULL;
}

bool
opclass_collective(const char *name)
{
	return strstr(name, "AllGather") != NULL || strstr(name, "ReduceScatter") != NULL ||
	    strstr(name, "AllReduce") != NULL;
}

unsigned
opclass_report(const char *label, size_t n)
{
	unsigned c = 0;

	if (memmem(label, n, "(torch)", 7) != NULL)
		c |= OPC_HOST;
	if (opclass_matmul(label, n))
		c |= OPC_MATMUL;
	if (memmem(label, n, "OptimizedConvNew", 16) != NULL)
		c |= OPC_CONV_NEW;
	return c;
}

bool
opclass_device_type(const char *op_type)
{
	return op_type != NULL && strcmp(op_type, "tt_dnn_device") == 0;
}
