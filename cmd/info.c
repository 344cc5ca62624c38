// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - `allocbench info`: the backend's versions, limits and state.
 */
#include <popt.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "allocbench.h"

int cmd_info(int argc, const char **argv)
{
	const char *backend = NULL;
	struct poptOption opts[] = { { "backend", 0, POPT_ARG_STRING, &backend,
				       0, "backend to ask (default: kmod)",
				       "NAME" },
				     POPT_AUTOHELP POPT_TABLEEND };
	const struct ab_backend *be;
	struct ab_backend_info bi;
	struct utsname u;
	int ret;

	ret = ab_popt_parse("info", argc, argv, opts);
	if (ret)
		return ret;
	ret = ab_backend_open(backend, &be, &bi);
	if (ret)
		return ret;
	uname(&u);
	printf("allocbench:        %s (ABI %d)\n", AB_TOOL_VERSION,
	       AB_ABI_VERSION);
	printf("backend:           %s\n", be->name);
	printf("module:            %s (ABI %u)\n", bi.info.version,
	       bi.info.abi_version);
	printf("kernel:            %s %s\n", u.release, u.machine);
	printf("strategies:        %u\n", bi.info.nr_strategies);
	printf("max batch:         %llu objects per trial\n",
	       (unsigned long long)bi.info.max_batch);
	printf("max trials:        %llu (and as many warm-up trials)\n",
	       (unsigned long long)bi.info.max_trials);
	printf("max bytes at once: %llu (%.1f MiB; module parameter max_outstanding_mb, 0 = a quarter of RAM)\n",
	       (unsigned long long)bi.info.max_bytes,
	       (double)bi.info.max_bytes / (1 << 20));
	printf("outstanding:       %llu objects\n",
	       (unsigned long long)bi.info.outstanding);
	printf("page size:         %u\n", bi.info.page_size);
	if (bi.info.tsc_khz)
		printf("TSC:               %u kHz\n", bi.info.tsc_khz);
	else
		printf("TSC:               unknown (results in cycles only)\n");
	printf("nr_node_ids:       %u\n", bi.info.nr_node_ids);
	return AB_EXIT_OK;
}
