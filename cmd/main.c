// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - allocbench: routes `allocbench CMD ...` to the command table.
 */
#include <stdio.h>
#include <string.h>

#include "allocbench.h"

int main(int argc, const char **argv)
{
	const struct ab_cmd *c;

	if (argc < 2) {
		ab_usage(stderr);
		return AB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("allocbench %s (ABI %d)\n", AB_TOOL_VERSION,
		       AB_ABI_VERSION);
		return AB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ab_usage(stdout);
		return AB_EXIT_OK;
	}
	c = ab_cmd_find(argv[1]);
	if (!c)
		return AB_EXIT_USAGE;
	return c->fn(argc - 1, argv + 1);
}
