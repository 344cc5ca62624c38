// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - `allocbench info`: the backend's versions, limits and state.
 */
#include <popt.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "allocbench.h"
#include "env.h"
#include "jsonout.h"
#include "options.h"
#include "runopts.h"
#include "textout.h"

/* ab_info.kernel_flags, as `info` names them (the config options). */
static const struct {
	uint64_t flag;
	const char *name, *key;
} kernel_flags[] = {
	{ AB_KERNEL_PREEMPT_RT, "PREEMPT_RT", "preempt_rt" },
	{ AB_KERNEL_PREEMPT_DYNAMIC, "PREEMPT_DYNAMIC", "preempt_dynamic" },
	{ AB_KERNEL_RANDOM_KMALLOC_CACHES, "RANDOM_KMALLOC_CACHES",
	  "random_kmalloc_caches" },
	{ AB_KERNEL_SLAB_BUCKETS, "SLAB_BUCKETS", "slab_buckets" },
};

#define NR_KERNEL_FLAGS (sizeof(kernel_flags) / sizeof(kernel_flags[0]))

/* The flags as "A=y B=n ...", or why they are unknown. */
static void flags_text(const struct ab_backend *be, const struct ab_info *info,
		       char *buf, size_t len)
{
	size_t i, used = 0;

	if (ab_kernel_flag(info, 0) < 0) {
		snprintf(
			buf, len, "%s",
			!(be->flags & AB_BACKEND_MODULE)
				? "not reported (the user backend has no module to ask)"
				: "not reported (allocbench.ko predates them: reload the module built with this allocbench)");
		return;
	}
	for (i = 0; i < NR_KERNEL_FLAGS && used < len; i++)
		used += (size_t)snprintf(
			buf + used, len - used, "%s%s=%s", i ? " " : "",
			kernel_flags[i].name,
			info->kernel_flags & kernel_flags[i].flag ? "y" : "n");
	if (used < len)
		snprintf(
			buf + used, len - used,
			" (the kernel's config, as allocbench.ko was built for it)");
}

int cmd_info(int argc, const char **argv)
{
	struct poptOption opts[] = { { NULL, 0, POPT_ARG_INCLUDE_TABLE,
				       ab_backend_table, 0, NULL, NULL },
				     { NULL, 0, POPT_ARG_INCLUDE_TABLE,
				       ab_output_table, 0, "Output:", NULL },
				     POPT_AUTOHELP POPT_TABLEEND };
	const struct ab_backend *be;
	struct ab_backend_info bi;
	char kind[160], flags[256];
	struct utsname u;
	struct ab_env env;
	json_object *kf;
	size_t i;
	int ret;

	ret = ab_popt_parse("info", argc, argv, opts);
	if (ret)
		return ret;
	ret = ab_backend_open(ab_run_args.backend, &be, &bi);
	if (ret)
		return ret;
	uname(&u);
	ab_env_read(&env, "", 0);
	ab_env_kernel_kind(&env, kind, sizeof(kind));
	if (ab_out.formats & AB_FORMAT_JSON) {
		json_object *root =
			ab_json_envelope("info", (time_t)ab_out.start);
		json_object *d = json_object_new_object();

		json_object_object_add(d, "backend",
				       json_object_new_string(be->name));
		json_object_object_add(
			d, "module_version",
			be->flags & AB_BACKEND_MODULE
				? json_object_new_string(bi.info.version)
				: NULL);
		json_object_object_add(
			d, "abi", json_object_new_int64(bi.info.abi_version));
		json_object_object_add(d, "kernel_release",
				       json_object_new_string(u.release));
		json_object_object_add(d, "kernel_version",
				       json_object_new_string(u.version));
		json_object_object_add(
			d, "distribution",
			env.distribution[0]
				? json_object_new_string(env.distribution)
				: NULL);
		json_object_object_add(
			d, "flavour",
			env.flavour[0] ? json_object_new_string(env.flavour)
				       : NULL);
		json_object_object_add(
			d, "local_version",
			json_object_new_string(env.local_version));
		json_object_object_add(
			d, "preempt_model",
			json_object_new_string(env.preempt_model));
		json_object_object_add(
			d, "preempt_detail",
			json_object_new_string(env.preempt_detail));
		kf = NULL;
		if (ab_kernel_flag(&bi.info, 0) >= 0) {
			kf = json_object_new_object();
			for (i = 0; i < NR_KERNEL_FLAGS; i++)
				json_object_object_add(
					kf, kernel_flags[i].key,
					json_object_new_boolean(ab_kernel_flag(
						&bi.info,
						kernel_flags[i].flag)));
		}
		json_object_object_add(d, "kernel_flags", kf);
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
		/* null from a module that predates the field */
		json_object_object_add(
			d, "possible_cpus",
			bi.info.possible_cpus
				? json_object_new_int64(bi.info.possible_cpus)
				: NULL);
		/* pages; null from a module that predates the field */
		json_object_object_add(
			d, "cma_pages",
			(be->flags & AB_BACKEND_MODULE) &&
					bi.info.size >= AB_INFO_SIZE_VER4
				? json_object_new_int64(
					  (int64_t)bi.info.cma_pages)
				: NULL);
		json_object_object_add(root, "data", d);
		ab_json_print(root, stdout);
		return AB_EXIT_OK;
	}
	printf("allocbench:        %s (ABI %d)\n", AB_TOOL_VERSION,
	       AB_ABI_VERSION);
	printf("backend:           %s\n", be->name);
	if (be->flags & AB_BACKEND_MODULE)
		printf("module:            allocbench.ko %s (ABI %u)\n",
		       bi.info.version, bi.info.abi_version);
	else
		printf("module:            none (the %s backend allocates in this process)\n",
		       be->name);
	printf("kernel:            %s %s (%s)\n", u.release, u.machine, kind);
	printf("kernel version:    %s\n", u.version);
	printf("preemption:        %s (%s)\n", env.preempt_model,
	       env.preempt_detail);
	flags_text(be, &bi.info, flags, sizeof(flags));
	printf("kernel flags:      %s\n", flags);
	printf("strategies:        %u\n", bi.info.nr_strategies);
	printf("max batch:         %llu objects per trial\n",
	       (unsigned long long)bi.info.max_batch);
	printf("max trials:        %llu (and as many warm-up trials)\n",
	       (unsigned long long)bi.info.max_trials);
	printf("max bytes at once: %llu (%.1f MiB; %s%s)\n",
	       (unsigned long long)bi.info.max_bytes,
	       (double)bi.info.max_bytes / (1 << 20), ab_budget_source(),
	       be->flags & AB_BACKEND_MODULE ? ", 0 = a quarter of RAM" : "");
	printf("outstanding:       %llu %s\n",
	       (unsigned long long)bi.info.outstanding,
	       ab_noun(bi.info.outstanding, "object", "objects"));
	printf("page size:         %u\n", bi.info.page_size);
	if (bi.info.tsc_khz)
		printf("TSC:               %u kHz\n", bi.info.tsc_khz);
	else
		printf("TSC:               unknown (results in cycles only)\n");
	printf("nr_node_ids:       %u\n", bi.info.nr_node_ids);
	/* the units every per-CPU object takes (B/object of percpu) */
	if (bi.info.possible_cpus)
		printf("possible CPUs:     %u\n", bi.info.possible_cpus);
	/* the most a cma run may hold at once (AB_LIMIT_CMA) */
	if ((be->flags & AB_BACKEND_MODULE) &&
	    bi.info.size >= AB_INFO_SIZE_VER4)
		printf("CMA:               %llu pages (%.1f MiB; the kernel's CMA areas, cma=SIZE)\n",
		       (unsigned long long)bi.info.cma_pages,
		       (double)bi.info.cma_pages * bi.info.page_size /
			       (1 << 20));
	return AB_EXIT_OK;
}
