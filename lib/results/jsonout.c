// SPDX-License-Identifier: GPL-2.0-only
/* jsonout.c - JSON output helpers (see jsonout.h). */
#include <math.h>
#include <string.h>

#include "jsonout.h"
#include "textout.h"

int ab_cmdline_argc;
const char **ab_cmdline_argv;

json_object *ab_json_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *ab_json_stats(const struct ab_stats *s)
{
	json_object *o = json_object_new_object(), *ci;

	json_object_object_add(o, "n", json_object_new_int64((int64_t)s->n));
	json_object_object_add(o, "min", ab_json_num(s->min));
	json_object_object_add(o, "median", ab_json_num(s->median));
	json_object_object_add(o, "mean", ab_json_num(s->mean));
	json_object_object_add(o, "p90", ab_json_num(s->p90));
	json_object_object_add(o, "p99", ab_json_num(s->p99));
	json_object_object_add(o, "p99_9", ab_json_num(s->p999));
	json_object_object_add(o, "max", ab_json_num(s->max));
	json_object_object_add(o, "stddev", ab_json_num(s->stddev));
	json_object_object_add(o, "cv", ab_json_num(s->cv));
	ci = json_object_new_array();
	json_object_array_add(ci, ab_json_num(s->ci_lo));
	json_object_array_add(ci, ab_json_num(s->ci_hi));
	json_object_object_add(o, "ci95_median", ci);
	/* the interval's exact coverage, >= 0.95; null with the interval */
	json_object_object_add(o, "ci_median_coverage",
			       ab_json_num(s->ci_level));
	return o;
}

static json_object *tri(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

json_object *ab_json_env(const struct ab_env *e, unsigned int tsc_khz)
{
	json_object *o = json_object_new_object(), *cfg, *boot, *w;
	char buf[4096];
	const char *p;
	int i, n;

	json_object_object_add(o, "kernel_release", str(e->release));
	json_object_object_add(o, "kernel_version", str(e->uts_version));
	json_object_object_add(o, "distribution",
			       e->distribution[0] ? str(e->distribution)
						  : NULL);
	json_object_object_add(o, "flavour",
			       e->flavour[0] ? str(e->flavour) : NULL);
	json_object_object_add(o, "local_version", str(e->local_version));
	json_object_object_add(o, "cmdline", str(e->cmdline));
	boot = json_object_new_object();
	json_object_object_add(boot, "init_on_alloc", str(e->p_init_on_alloc));
	json_object_object_add(boot, "init_on_free", str(e->p_init_on_free));
	json_object_object_add(boot, "slab_nomerge",
			       json_object_new_boolean(e->p_slab_nomerge));
	json_object_object_add(boot, "slub_merge",
			       json_object_new_boolean(e->p_slub_merge));
	json_object_object_add(boot, "slub_debug", str(e->p_slub_debug));
	json_object_object_add(boot, "preempt", str(e->p_preempt));
	json_object_object_add(boot, "mitigations", str(e->p_mitigations));
	json_object_object_add(boot, "page_alloc.shuffle", str(e->p_shuffle));
	json_object_object_add(o, "boot_parameters", boot);
	cfg = json_object_new_object();
	json_object_object_add(cfg, "source", str(e->config_source));
	json_object_object_add(cfg, "INIT_ON_ALLOC_DEFAULT_ON",
			       str(e->c_init_on_alloc));
	json_object_object_add(cfg, "INIT_ON_FREE_DEFAULT_ON",
			       str(e->c_init_on_free));
	json_object_object_add(cfg, "SLAB_MERGE_DEFAULT", str(e->c_slab_merge));
	json_object_object_add(cfg, "SLUB_DEBUG_ON", str(e->c_slub_debug_on));
	json_object_object_add(cfg, "DEBUG_PREEMPT", str(e->c_debug_preempt));
	json_object_object_add(cfg, "KASAN", str(e->c_kasan));
	json_object_object_add(cfg, "SLAB_FREELIST_RANDOM",
			       str(e->c_freelist_random));
	json_object_object_add(cfg, "SHUFFLE_PAGE_ALLOCATOR",
			       str(e->c_shuffle));
	json_object_object_add(cfg, "PREEMPT_DYNAMIC",
			       str(e->c_preempt_dynamic));
	json_object_object_add(o, "config", cfg);
	json_object_object_add(o, "kernel_compiler",
			       e->compiler[0] ? str(e->compiler) : NULL);
	json_object_object_add(o, "preempt_model", str(e->preempt_model));
	json_object_object_add(o, "preempt_detail", str(e->preempt_detail));
	json_object_object_add(o, "init_on_alloc", tri(e->init_on_alloc));
	json_object_object_add(o, "init_on_free", tri(e->init_on_free));
	json_object_object_add(o, "slab_merge", tri(e->slab_merge));
	json_object_object_add(o, "slub_debug", tri(e->slub_debug));
	json_object_object_add(o, "cpu_model", str(e->cpu_model));
	json_object_object_add(o, "tsc_khz",
			       tsc_khz ? json_object_new_int64(tsc_khz) : NULL);
	json_object_object_add(o, "cpufreq_governor", str(e->governor));
	json_object_object_add(o, "smt", str(e->smt));
	json_object_object_add(o, "virtualized", tri(e->hypervisor));
	json_object_object_add(o, "crng_ready", tri(e->crng_ready));
	json_object_object_add(o, "dmi", str(e->dmi));
	json_object_object_add(o, "vm_accel",
			       e->vm_accel[0] ? str(e->vm_accel) : NULL);
	json_object_object_add(o, "vm_vpmu",
			       e->vm_vpmu[0] ? str(e->vm_vpmu) : NULL);
	json_object_object_add(
		o, "vcpus_serialized",
		json_object_new_boolean(ab_env_vcpus_serialized(e)));
	w = json_object_new_array();
	n = ab_env_warnings(e, buf, sizeof(buf));
	for (i = 0, p = buf; i < n; i++, p += strlen(p) + 1)
		json_object_array_add(w, str(p + strlen("warning: ")));
	json_object_object_add(o, "warnings", w);
	return o;
}

json_object *ab_json_time(time_t t)
{
	char buf[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return str(buf);
}

json_object *ab_json_envelope(const char *command, time_t start)
{
	json_object *o = json_object_new_object(), *argv, *tool;
	int i;

	json_object_object_add(o, "schema", str("allocbench-result"));
	json_object_object_add(o, "schema_version",
			       json_object_new_int(AB_JSON_SCHEMA_VERSION));
	tool = json_object_new_object();
	json_object_object_add(tool, "name", str("allocbench"));
	json_object_object_add(tool, "version", str(AB_TOOL_VERSION));
	json_object_object_add(o, "tool", tool);
	json_object_object_add(o, "command", str(command));
	argv = json_object_new_array();
	for (i = 0; i < ab_cmdline_argc && ab_cmdline_argv[i]; i++)
		json_object_array_add(argv, str(ab_cmdline_argv[i]));
	json_object_object_add(o, "argv", argv);
	json_object_object_add(o, "start", ab_json_time(start));
	return o;
}

json_object *ab_json_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

json_object *ab_json_array(json_object *o, const char *key)
{
	json_object *v = ab_json_get(o, key);

	return json_object_is_type(v, json_type_array) ? v : NULL;
}

json_object *ab_json_int_array(const int64_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64(v[i]));
	return a;
}

double ab_json_double(json_object *v)
{
	return v && !json_object_is_type(v, json_type_null)
		       ? json_object_get_double(v)
		       : NAN;
}

void ab_json_print(json_object *root, FILE *f)
{
	/*
	 * The one place every document's strings are made valid UTF-8 (a
	 * file name, a label or a kernel string may hold any byte). json-c
	 * writes structure, numbers and escapes in ASCII and copies the bytes
	 * >= 0x80 of strings as they are, so a byte that is not UTF-8 can
	 * only stand inside a string, and repairing the whole text repairs
	 * each string and nothing else; U+FFFD adds no JSON syntax.
	 */
	ab_utf8_fputs(json_object_to_json_string_ext(
			      root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE),
		      f);
	fputc('\n', f);
	json_object_put(root);
}
