// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_json.c - the JSON document of `allocbench vm` (vm.h; its schema
 * schema/allocbench-vm.schema.json.in, bundled into build/schema/): the
 * run's setup, its kernels, every boot with its result, and the
 * comparisons.
 */
#include <string.h>
#include <time.h>

#include "jsonout.h"
#include "vm.h"

static json_object *kernels_json(const struct vm_kernel *ks, int nk)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < nk; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name",
				       json_object_new_string(ks[i].spec));
		json_object_object_add(o, "kernel",
				       json_object_new_string(ks[i].name));
		json_object_object_add(o, "append",
				       json_object_new_string(ks[i].append));
		json_object_object_add(
			o, "release",
			ks[i].release ? json_object_new_string(ks[i].release)
				      : NULL);
		json_object_object_add(o, "good_boots",
				       json_object_new_int(ks[i].good));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *boots_json(struct ab_vm_boot *bs, int nb,
			       const struct vm_kernel *ks)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < nb; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "boot", json_object_new_int(i + 1));
		json_object_object_add(
			o, "kernel",
			json_object_new_string(ks[bs[i].kernel].spec));
		json_object_object_add(o, "kernel_index",
				       json_object_new_int(bs[i].kernel));
		json_object_object_add(o, "round",
				       json_object_new_int(bs[i].round));
		json_object_object_add(
			o, "seed",
			bs[i].seed ? json_object_new_int(bs[i].seed) : NULL);
		json_object_object_add(o, "status",
				       json_object_new_string(ab_vm_status_name(
					       bs[i].status)));
		json_object_object_add(
			o, "exit",
			bs[i].status == AB_VM_NOTRUN
				? NULL
				: json_object_new_int(bs[i].exit));
		json_object_object_add(o, "seconds",
				       ab_json_num(bs[i].seconds));
		json_object_object_add(
			o, "why",
			bs[i].why ? json_object_new_string(bs[i].why) : NULL);
		json_object_object_add(o, "result", bs[i].result);
		bs[i].result = NULL;
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *tool_json(void)
{
	json_object *t = json_object_new_object();

	json_object_object_add(t, "name", json_object_new_string("allocbench"));
	json_object_object_add(t, "version",
			       json_object_new_string(AB_TOOL_VERSION));
	return t;
}

json_object *vm_document(struct vm_run *v, const char *cmd0, json_object *cmps)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "schema",
			       json_object_new_string("allocbench-vm"));
	json_object_object_add(root, "schema_version", json_object_new_int(1));
	json_object_object_add(root, "tool", tool_json());
	json_object_object_add(root, "command", json_object_new_string("vm"));
	json_object_object_add(root, "start",
			       ab_json_time((time_t)ab_out.start));
	json_object_object_add(root, "end", ab_json_time(time(NULL)));
	json_object_object_add(root, "seconds", ab_json_num(v->seconds));
	json_object_object_add(root, "accel", json_object_new_string(v->accel));
	json_object_object_add(
		root, "entry",
		json_object_new_string(v->conf.pvh ? "pvh" : "bzimage"));
	json_object_object_add(
		root, "cpu_model",
		json_object_new_string(v->conf.cpu_model ? v->conf.cpu_model
				       : strcmp(v->accel, "kvm") ? "qemu64"
								 : "host"));
	json_object_object_add(root, "vpmu",
			       v->conf.vpmu && *v->conf.vpmu
				       ? json_object_new_string(v->conf.vpmu)
				       : NULL);
	json_object_object_add(root, "nodes",
			       json_object_new_int(v->conf.nodes));
	json_object_object_add(root, "smp", json_object_new_int(v->conf.smp));
	json_object_object_add(root, "deterministic",
			       json_object_new_boolean(v->conf.deterministic));
	json_object_object_add(root, "rounds",
			       json_object_new_int(v->conf.rounds));
	json_object_object_add(root, "append",
			       json_object_new_string(v->conf.append));
	json_object_object_add(root, "threshold_pct",
			       v->threshold > 0 ? ab_json_num(v->threshold)
						: NULL);
	json_object_object_add(root, "guest_command",
			       json_object_new_string(cmd0));
	json_object_object_add(root, "interrupted",
			       json_object_new_boolean(vm_stop_signal != 0));
	json_object_object_add(root, "kernels", kernels_json(v->ks, v->nk));
	json_object_object_add(root, "boots",
			       boots_json(v->boots, v->nboots, v->ks));
	json_object_object_add(root, "comparisons", cmps);
	return root;
}
