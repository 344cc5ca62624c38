// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - `allocbench info`: the backend's versions, limits and state.
 */
#include <popt.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "allocbench.h"
#include "jsonout.h"

int cmd_info(int argc, const char **argv)
{
	const char *backend = NULL;
	struct poptOption opts[] = { { "backend", 0, POPT_ARG_STRING, &backend,
				       0, "backend to ask (default: kmod)",
				       "NAME" },
				     { NULL, 0, POPT_ARG_INCLUDE_TABLE,
				       ab_output_table, 0, "Output:", NULL },
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
	if (ab_out.json) {
		json_object *root =
			ab_json_envelope("info", (time_t)ab_out.start);
		json_object *d = json_object_new_object();

		json_object_object_add(d, "backend",
				       json_object_new_string(be->name));
		json_object_object_add(d, "module_version",
				       json_object_new_string(bi.info.version));
		json_object_object_add(
			d, "abi", json_object_new_int64(bi.info.abi_version));
		json_object_object_add(d, "kernel_release",
				       json_object_new_string(u.release));
		json_object_object_add(
			d, "strategies",
			json_object_new_int64(bi.info.nr_strategies));
		json_object_object_add(
			d, "max_batch",
			json_object_new_int64((int64_t)bi.info.max_batch));
		json_object_object_add(
			d, "max_trials",
			json_object_new_int64((int64_t)bi.info.max_trials));
		json_object_object_add(
			d, "max_bytes",
			json_object_new_int64((int64_t)bi.info.max_bytes));
		json_object_object_add(
			d, "outstanding",
			json_object_new_int64((int64_t)bi.info.outstanding));
		json_object_object_add(
			d, "page_size",
			json_object_new_int64(bi.info.page_size));
		json_object_object_add(
			d, "tsc_khz",
			bi.info.tsc_khz ? json_object_new_int64(bi.info.tsc_khz)
					: NULL);
		json_object_object_add(
			d, "nr_node_ids",
			json_object_new_int64(bi.info.nr_node_ids));
		json_object_object_add(root, "data", d);
		ab_json_print(root, stdout);
		return AB_EXIT_OK;
	}
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
