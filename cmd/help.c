// SPDX-License-Identifier: GPL-2.0-only
/*
 * help.c - `allocbench help [CMD]`: the manual page when one is installed
 * (allocbench(1), allocbench-CMD(1)), else the built-in option summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allocbench.h"

/*
 * Replaces the process with man(1) showing PAGE: the installed page, else
 * the page beside the binary in a source tree (man/PAGE.1). Returns when
 * neither is there, or man itself is missing.
 */
static void try_man(const char *page)
{
	char cmd[128], exe[4096], path[4200], *slash;
	ssize_t n;

	snprintf(cmd, sizeof(cmd), "man -w %s >/dev/null 2>&1", page);
	if (system(cmd) == 0) {
		fflush(stdout);
		execlp("man", "man", page, (char *)NULL);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/man/%s.1", exe, page);
	if (access(path, R_OK))
		return;
	fflush(stdout);
	execlp("man", "man", "-l", path, (char *)NULL);
}

int cmd_help(int argc, const char **argv)
{
	const char *sub_argv[] = { NULL, "--help", NULL };
	const struct ab_cmd *c;
	char page[64];

	if (argc < 2 || argv[1][0] == '-') {
		try_man("allocbench");
		ab_usage(stdout);
		return AB_EXIT_OK;
	}
	c = ab_cmd_find(argv[1]);
	if (!c)
		return AB_EXIT_USAGE;
	snprintf(page, sizeof(page), "allocbench-%s", c->name);
	try_man(page);
	sub_argv[0] = c->name;
	return c->fn(2, sub_argv);
}
