// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - allocbench: routes `allocbench CMD ...` to the command table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <time.h>

#include "allocbench.h"
#include "backend.h"
#include "jsonout.h"

/*
 * At exit (also popt's exit after --help): output that could not be written
 * (a full disk, a closed stdout) is a failure, not a silent success.
 */
static void check_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		int e = errno;

		ab_err("cannot write the output (%s): %s",
		       ab_output_is_stdout(ab_out.path) ? "standard output"
							: ab_out.path,
		       e ? strerror(e) : "write error");
		_exit(AB_EXIT_RUN);
	}
}

/*
 * The commands: the one list --help, the error for an unknown command, help
 * and vm read (through ab_cmd_next()); each command's file holds its fn.
 */
static const struct ab_cmd commands[] = {
	{ "run", cmd_run, AB_CMD_GUEST | AB_CMD_VERDICT,
	  "run allocation strategies and print per-op costs" },
	{ "sweep", cmd_sweep, AB_CMD_GUEST | AB_CMD_VERDICT,
	  "sizes x strategies x CPU nodes x memory nodes, local against remote" },
	{ "compare", cmd_compare, AB_CMD_GUEST,
	  "two strategies, or saved runs: delta, significance, why" },
	{ "lookup", cmd_lookup, AB_CMD_GUEST | AB_CMD_VERDICT,
	  "time kmalloc size-class lookups: walk, fls, bsr, switch, kernel" },
	{ "reproduce", cmd_reproduce, AB_CMD_GUEST | AB_CMD_VERDICT,
	  "repeat a seed experiment: 2019-scatterlist, 2002-lookup" },
	{ "topology", cmd_topology, AB_CMD_GUEST,
	  "nodes, CPUs, memory, distances, cpusets, usable backends and counters" },
	{ "vm", cmd_vm, 0,
	  "the same command in boots of 1 to 4 kernels (qemu): A/B, per boot" },
	{ "plot", cmd_plot, AB_CMD_GUEST,
	  "draw a saved result with gnuplot: -o FILE.svg|png" },
	{ "export", cmd_export, 0,
	  "a saved result for LKP, mmtests, KCIDB or Fastpath" },
	{ "list", cmd_list, AB_CMD_GUEST,
	  "list the backends and their strategies" },
	{ "info", cmd_info, AB_CMD_GUEST,
	  "show the backend's versions and limits" },
	{ "help", cmd_help, AB_CMD_GUEST,
	  "show help for a command: allocbench help run" },
	{ NULL, NULL, 0, NULL },
};

int main(int argc, const char **argv)
{
	const struct ab_cmd *c;
	int ret;

	ab_cmd_register(commands);
	atexit(check_stdout);
	ab_cmdline_argc = argc;
	ab_cmdline_argv = argv;
	ab_out.start = (long)time(NULL);
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
	ret = c->fn(argc - 1, argv + 1);
	/* interrupted: 128 + the signal, as a shell reports it (SIGINT 130,
	 * SIGTERM 143, SIGHUP 129) */
	if (ret == AB_EXIT_INTR && ab_stop_requested > 0)
		ret = 128 + ab_stop_requested;
	return ab_output_end(ret);
}
