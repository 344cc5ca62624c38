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

int main(int argc, const char **argv)
{
	const struct ab_cmd *c;
	int ret;

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
	ab_output_end(ret);
	return ret;
}
