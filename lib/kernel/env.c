// SPDX-License-Identifier: GPL-2.0-only
/*
 * env.c - capture the settings that change allocation costs (see env.h).
 *
 * Sources: uname, /proc/cmdline, the kernel config (/proc/config.gz, else
 * /boot/config-RELEASE; zlib reads both compressed and plain files),
 * /proc/cpuinfo, cpufreq and SMT in sysfs, DMI identity, and
 * /sys/kernel/debug/sched/preempt for a PREEMPT_DYNAMIC kernel's mode,
 * and allocbench.vm= on the command line (how scripts/vm/vm-run.sh ran qemu),
 * and getrandom(GRND_NONBLOCK) for whether the kernel's crng is seeded.
 * Parameter meanings: Documentation/admin-guide/kernel-parameters.txt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "env.h"
#include "kfile.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/*
 * Value of boot parameter @name in @cmdline into @val ("" when it is
 * absent, "1" when given without a value). Returns 1 if present.
 */
static int cmdline_param(const char *cmdline, const char *name, char *val,
			 size_t len)
{
	size_t n = strlen(name);
	const char *p = cmdline;

	val[0] = '\0';
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) &&
		    (p[n] == '=' || p[n] == ' ' || !p[n])) {
			if (p[n] == '=') {
				size_t m = strcspn(p + n + 1, " ");

				snprintf(val, len, "%.*s", (int)m, p + n + 1);
			} else {
				copy(val, len, "1");
			}
			return 1;
		}
		p += strcspn(p, " ");
	}
	return 0;
}

void ab_env_clearcpuid(const char *cmdline, char *val, size_t len)
{
	const char *p = cmdline;

	val[0] = '\0';
	while (*p) {
		size_t m;

		while (*p == ' ')
			p++;
		m = strcspn(p, " \n");
		if (m == 2 && !strncmp(p, "--", 2))
			break;
		if (m > 11 && !strncmp(p, "clearcpuid=", 11))
			snprintf(val, len, "%.*s", (int)(m - 11), p + 11);
		p += m;
		while (*p == '\n')
			p++;
	}
}

struct cfg_want {
	const char *sym;
	char *val;
};

/* Reads the kernel config; fills each wanted symbol with y, m or n. */
static void read_config(struct ab_env *env, const char *root)
{
	char path[512], line[512];
	struct cfg_want want[] = {
		{ "CONFIG_INIT_ON_ALLOC_DEFAULT_ON", env->c_init_on_alloc },
		{ "CONFIG_INIT_ON_FREE_DEFAULT_ON", env->c_init_on_free },
		{ "CONFIG_SLAB_MERGE_DEFAULT", env->c_slab_merge },
		{ "CONFIG_SLUB_DEBUG_ON", env->c_slub_debug_on },
		{ "CONFIG_DEBUG_PREEMPT", env->c_debug_preempt },
		{ "CONFIG_KASAN", env->c_kasan },
		{ "CONFIG_SLAB_FREELIST_RANDOM", env->c_freelist_random },
		{ "CONFIG_SHUFFLE_PAGE_ALLOCATOR", env->c_shuffle },
		{ "CONFIG_PREEMPT_DYNAMIC", env->c_preempt_dynamic },
	};
	const char *models[][2] = {
		{ "CONFIG_PREEMPT_RT", "rt" },
		{ "CONFIG_PREEMPT_LAZY", "lazy" },
		{ "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT_NONE", "none" },
	};
	size_t i, n = sizeof(want) / sizeof(want[0]);
	gzFile gz;

	for (i = 0; i < n; i++)
		copy(want[i].val, 4, "?");
	copy(env->preempt_model, sizeof(env->preempt_model), "?");
	snprintf(path, sizeof(path), "%s/proc/config.gz", root);
	gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(path, sizeof(path), "%s/boot/config-%s", root,
			 env->release);
		gz = gzopen(path, "rb");
	}
	if (!gz) {
		copy(env->config_source, sizeof(env->config_source), "none");
		return;
	}
	copy(env->config_source, sizeof(env->config_source),
	     path + strlen(root));
	for (i = 0; i < n; i++)
		copy(want[i].val, 4, "n");
	while (gzgets(gz, line, sizeof(line))) {
		char *eq = strchr(line, '=');

		if (strncmp(line, "CONFIG_", 7) || !eq)
			continue;
		*eq = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(line, want[i].sym))
				snprintf(want[i].val, 4, "%c", eq[1]);
		for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
			if (!strcmp(line, models[i][0]) && eq[1] == 'y' &&
			    env->preempt_model[0] == '?')
				copy(env->preempt_model,
				     sizeof(env->preempt_model), models[i][1]);
	}
	gzclose(gz);
}

/*
 * The compiler part of /proc/version: "Linux version R (BUILDER)
 * (COMPILER, LINKER) #..." (init/version-timestamp.c), where COMPILER
 * holds parentheses of its own; it ends at the comma before the linker.
 */
static void read_compiler(struct ab_env *env, const char *root)
{
	char line[512], *p, *start;
	int depth = 0;

	if (ab_kfile_line(line, sizeof(line), "%s/proc/version", root) <= 0)
		return;
	p = strstr(line, ") (");
	if (!p)
		return;
	start = p + 3;
	for (p = start; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth-- == 0)
			break;
		else if (*p == ',' && depth == 0)
			break;
	}
	*p = '\0';
	copy(env->compiler, sizeof(env->compiler), start);
}

/* Whether @s holds @word between spaces (or its ends). */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = s; (p = strstr(p, word)); p += n)
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/*
 * The release's parts: the upstream version (digits and dots), then the
 * local version. Debian's releases are UPSTREAM-ABI-FLAVOUR
 * (6.1.0-57-amd64, 6.1.0-0.deb11.17-amd64) or UPSTREAM+debN-FLAVOUR and
 * UPSTREAM+bpo-FLAVOUR (6.12.117+deb12-rt-amd64): the flavour is what
 * follows the ABI part.
 */
static void read_release_parts(struct ab_env *env)
{
	const char *p = env->release + strspn(env->release, "0123456789.");

	copy(env->local_version, sizeof(env->local_version), p);
	if (has_word(env->uts_version, "Debian") || strstr(p, "+deb") ||
	    strstr(p, "+bpo"))
		copy(env->distribution, sizeof(env->distribution), "Debian");
	if (!env->distribution[0] || (*p != '-' && *p != '+'))
		return;
	p++;
	p += strcspn(p, "-");
	if (*p == '-' && p[1])
		copy(env->flavour, sizeof(env->flavour), p + 1);
}

int ab_env_preempt_rt(void)
{
	struct utsname u;

	if (uname(&u))
		return 0;
	return has_word(u.version, "PREEMPT_RT") || has_word(u.version, "RT");
}

/*
 * The preemption model as the kernel reports it (env.h): the words of
 * uname -v first (the kernel's build flags: PREEMPT_RT, PREEMPT_DYNAMIC,
 * PREEMPT), then a dynamic kernel's current mode, which debugfs names in
 * parentheses ("none voluntary full (lazy)"); the config (read before)
 * when the kernel says nothing more.
 */
static void read_preempt(struct ab_env *env, const char *root)
{
	char line[128], config[32], *open, *close, mode[32] = "";
	const char *v = env->uts_version;

	ab_kfile_line(line, sizeof(line), "%s/sys/kernel/debug/sched/preempt",
		      root);
	open = strchr(line, '(');
	close = open ? strchr(open, ')') : NULL;
	if (open && close) {
		*close = '\0';
		copy(mode, sizeof(mode), open + 1);
	}
	copy(config, sizeof(config), env->preempt_model);
	if (has_word(v, "PREEMPT_RT") || has_word(v, "RT")) {
		copy(env->preempt_model, sizeof(env->preempt_model), "rt");
		snprintf(env->preempt_detail, sizeof(env->preempt_detail),
			 "PREEMPT_RT%s%s", mode[0] ? "; mode " : "", mode);
	} else if (has_word(v, "PREEMPT_DYNAMIC") ||
		   (!v[0] && (mode[0] || env->p_preempt[0]))) {
		const char *how = "PREEMPT_DYNAMIC; mode from debugfs";

		if (mode[0]) {
			copy(env->preempt_model, sizeof(env->preempt_model),
			     mode);
		} else if (env->p_preempt[0]) {
			copy(env->preempt_model, sizeof(env->preempt_model),
			     env->p_preempt);
			how = "PREEMPT_DYNAMIC; mode from the preempt= boot parameter, debugfs not readable";
		} else {
			how = "PREEMPT_DYNAMIC; the config's default mode, debugfs not readable";
		}
		copy(env->preempt_detail, sizeof(env->preempt_detail), how);
	} else if (has_word(v, "PREEMPT_LAZY")) {
		copy(env->preempt_model, sizeof(env->preempt_model), "lazy");
		copy(env->preempt_detail, sizeof(env->preempt_detail),
		     "PREEMPT_LAZY");
	} else if (has_word(v, "PREEMPT")) {
		copy(env->preempt_model, sizeof(env->preempt_model), "full");
		copy(env->preempt_detail, sizeof(env->preempt_detail),
		     "PREEMPT");
	} else if (v[0]) {
		/* uname -v names no preemption: voluntary or none */
		if (strcmp(config, "voluntary") && strcmp(config, "none"))
			copy(env->preempt_model, sizeof(env->preempt_model),
			     "voluntary or none");
		copy(env->preempt_detail, sizeof(env->preempt_detail),
		     "uname -v names no preemption; the config tells which");
	} else {
		copy(env->preempt_detail, sizeof(env->preempt_detail),
		     "from the config (no uname -v)");
	}
}

static void read_cpuinfo(struct ab_env *env, const char *root)
{
	char line[1024];
	FILE *f;

	copy(env->cpu_model, sizeof(env->cpu_model), "?");
	env->hypervisor = -1;
	f = ab_kfile_open("%s/proc/cpuinfo", root);
	if (!f)
		return;
	env->hypervisor = 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "model name", 10) &&
		    env->cpu_model[0] == '?')
			copy(env->cpu_model, sizeof(env->cpu_model), colon + 2);
		if (!strncmp(line, "flags", 5) && strstr(colon, " hypervisor"))
			env->hypervisor = 1;
	}
	fclose(f);
}

/* "1"/"0"/"on"/"off"/"y"/"n" to 1/0; -1 for anything else. */
static int truth(const char *v)
{
	if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "y"))
		return 1;
	if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "n"))
		return 0;
	return -1;
}

/* A boot parameter if given, else the config default. */
static int in_force(const char *param, const char *config)
{
	return param[0] ? truth(param) : truth(config);
}

/* struct ab_env.crng_ready of the running system: one byte, never waiting */
static int crng_ready(void)
{
	unsigned char b;

	if (getrandom(&b, 1, GRND_NONBLOCK) == 1)
		return 1;
	return errno == EAGAIN ? 0 : -1;
}

void ab_env_read(struct ab_env *env, const char *root, int cpu)
{
	char path[128], vendor[64], product[64];
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (!root[0] && !uname(&u)) {
		copy(env->release, sizeof(env->release), u.release);
		copy(env->uts_version, sizeof(env->uts_version), u.version);
	} else {
		ab_kfile_line(env->release, sizeof(env->release),
			      "%s/proc/sys/kernel/osrelease", root);
		ab_kfile_line(env->uts_version, sizeof(env->uts_version),
			      "%s/proc/sys/kernel/version", root);
	}
	read_release_parts(env);
	ab_kfile_line(env->cmdline, sizeof(env->cmdline), "%s/proc/cmdline",
		      root);
	cmdline_param(env->cmdline, "init_on_alloc", env->p_init_on_alloc,
		      sizeof(env->p_init_on_alloc));
	cmdline_param(env->cmdline, "init_on_free", env->p_init_on_free,
		      sizeof(env->p_init_on_free));
	cmdline_param(env->cmdline, "slub_debug", env->p_slub_debug,
		      sizeof(env->p_slub_debug));
	cmdline_param(env->cmdline, "preempt", env->p_preempt,
		      sizeof(env->p_preempt));
	cmdline_param(env->cmdline, "mitigations", env->p_mitigations,
		      sizeof(env->p_mitigations));
	cmdline_param(env->cmdline, "page_alloc.shuffle", env->p_shuffle,
		      sizeof(env->p_shuffle));
	env->p_slab_nomerge =
		cmdline_param(env->cmdline, "slab_nomerge", path,
			      sizeof(path)) ||
		cmdline_param(env->cmdline, "slub_nomerge", path, sizeof(path));
	env->p_slub_merge =
		cmdline_param(env->cmdline, "slab_merge", path, sizeof(path)) ||
		cmdline_param(env->cmdline, "slub_merge", path, sizeof(path));
	ab_env_clearcpuid(env->cmdline, env->p_clearcpuid,
			  sizeof(env->p_clearcpuid));
	cmdline_param(env->cmdline, "allocbench.vm", env->vm_accel,
		      sizeof(env->vm_accel));
	cmdline_param(env->cmdline, "allocbench.vpmu", env->vm_vpmu,
		      sizeof(env->vm_vpmu));

	read_config(env, root);
	read_compiler(env, root);
	read_preempt(env, root);
	env->init_on_alloc =
		in_force(env->p_init_on_alloc, env->c_init_on_alloc);
	env->init_on_free = in_force(env->p_init_on_free, env->c_init_on_free);
	env->slab_merge = env->p_slab_nomerge ? 0
			  : env->p_slub_merge ? 1
					      : truth(env->c_slab_merge);
	/* a bare "slub_debug" turns on the default debug options */
	env->slub_debug = env->p_slub_debug[0]
				  ? strcmp(env->p_slub_debug, "-") != 0
				  : truth(env->c_slub_debug_on);

	read_cpuinfo(env, root);
	ab_kfile_line(
		env->governor, sizeof(env->governor),
		"%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
		root, cpu);
	if (!env->governor[0])
		copy(env->governor, sizeof(env->governor), "none");
	ab_kfile_line(env->smt, sizeof(env->smt),
		      "%s/sys/devices/system/cpu/smt/control", root);
	if (!env->smt[0])
		copy(env->smt, sizeof(env->smt), "?");
	ab_kfile_line(vendor, sizeof(vendor), "%s/sys/class/dmi/id/sys_vendor",
		      root);
	ab_kfile_line(product, sizeof(product),
		      "%s/sys/class/dmi/id/product_name", root);
	snprintf(env->dmi, sizeof(env->dmi), "%s%s%s", vendor,
		 vendor[0] && product[0] ? " " : "", product);
	env->crng_ready = root[0] ? -1 : crng_ready();
}

int ab_env_vcpus_serialized(const struct ab_env *env)
{
	return !strcmp(env->vm_accel, "tcg-single");
}

static const char *onoff(int v)
{
	return v < 0 ? "?" : v ? "1" : "0";
}

void ab_env_kernel_kind(const struct ab_env *env, char *buf, size_t len)
{
	if (env->flavour[0])
		snprintf(buf, len, "%s, flavour %s", env->distribution,
			 env->flavour);
	else if (env->distribution[0])
		snprintf(buf, len, "%s, flavour unknown: local version '%s'",
			 env->distribution, env->local_version);
	else if (env->local_version[0])
		snprintf(buf, len,
			 "not a Debian kernel: no flavour; local version '%s'",
			 env->local_version);
	else if (env->release[0])
		snprintf(buf, len,
			 "not a Debian kernel: no flavour, no local version");
	else
		snprintf(buf, len, "release unknown");
}

void ab_env_print(FILE *f, const struct ab_env *env, unsigned int tsc_khz)
{
	char warn[2048];
	const char *w;
	int n, i;

	char kind[160];

	ab_env_kernel_kind(env, kind, sizeof(kind));
	fprintf(f,
		"kernel %s (%s): preempt %s (%s), init_on_alloc=%s, init_on_free=%s, slab merging %s, slub_debug %s, mitigations=%s\n",
		env->release, kind, env->preempt_model, env->preempt_detail,
		onoff(env->init_on_alloc), onoff(env->init_on_free),
		env->slab_merge < 0 ? "?"
		: env->slab_merge   ? "on"
				    : "off",
		env->slub_debug < 0 ? "?"
		: env->slub_debug   ? "on"
				    : "off",
		env->p_mitigations[0] ? env->p_mitigations : "auto");
	fprintf(f,
		"config (%s): KASAN=%s DEBUG_PREEMPT=%s SLAB_FREELIST_RANDOM=%s SHUFFLE_PAGE_ALLOCATOR=%s%s; built by %s\n",
		env->config_source, env->c_kasan, env->c_debug_preempt,
		env->c_freelist_random, env->c_shuffle,
		env->p_shuffle[0] ? " (page_alloc.shuffle given)" : "",
		env->compiler[0] ? env->compiler : "?");
	fprintf(f,
		"cpu: %s, TSC %u.%03u MHz, governor %s, SMT %s, %s%s%s%s%s%s%s%s%s\n",
		env->cpu_model, tsc_khz / 1000, tsc_khz % 1000, env->governor,
		env->smt,
		env->hypervisor > 0    ? "virtualized"
		: env->hypervisor == 0 ? "bare metal"
				       : "virtualization unknown",
		env->dmi[0] ? ": " : "", env->dmi,
		env->vm_accel[0] ? ", qemu " : "", env->vm_accel,
		ab_env_vcpus_serialized(env)
			? " (allocbench.vm: its vCPUs take turns on one host thread, never at the same time)"
			: "",
		env->vm_vpmu[0] ? ", virtual PMU " : "", env->vm_vpmu,
		env->vm_vpmu[0]
			? " (QEMU TCG plugin: exact instructions, branches, loads, stores; model: branch and cache misses)"
			: "");
	n = ab_env_warnings(env, warn, sizeof(warn));
	for (i = 0, w = warn; i < n; i++, w += strlen(w) + 1)
		fprintf(f, "%s\n", w);
}

/* Appends @word to the comma-separated list in @buf; returns its length. */
static size_t add_word(char *buf, size_t len, size_t used, int *count,
		       const char *word)
{
	int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			 word);

	if (w < 0 || (size_t)w + 1 > len - used)
		return used;
	(*count)++;
	return used + (size_t)w;
}

/* Appends one NUL-terminated warning; returns the new used length. */
static size_t add_warning(char *buf, size_t len, size_t used, int *count,
			  const char *text)
{
	int w = snprintf(buf + used, len - used, "warning: %s", text);

	if (w < 0 || (size_t)w + 1 > len - used)
		return used;
	(*count)++;
	return used + (size_t)w + 1;
}

/*
 * Each setting that distorts the numbers, as a warning (@brief 0: "warning:
 * TEXT", NUL-terminated one after another) or in a word or two (@brief 1:
 * "init_on_alloc=1, slab merging", one string): one list for both.
 */
static int env_warnings(const struct ab_env *env, char *buf, size_t len,
			int brief)
{
	size_t used = 0;
	int count = 0;

	if (len)
		buf[0] = '\0';

#define WARN_IF(cond, word, text)                                         \
	do {                                                              \
		if (!(cond))                                              \
			break;                                            \
		if (brief)                                                \
			used = add_word(buf, len, used, &count, word);    \
		else                                                      \
			used = add_warning(buf, len, used, &count, text); \
	} while (0)
	WARN_IF(env->init_on_alloc > 0, "init_on_alloc=1",
		"init_on_alloc=1: every allocation is zeroed, which dominates the cost of large objects (boot with init_on_alloc=0 to time the allocator alone)");
	WARN_IF(env->init_on_free > 0, "init_on_free=1",
		"init_on_free=1: every free zeroes the object first");
	WARN_IF(env->slab_merge > 0, "slab merging",
		"slab merging is on: a private kmem_cache may be an alias of another cache and share its slabs (use --nomerge, or boot with slab_nomerge)");
	WARN_IF(env->slub_debug > 0, "slub_debug",
		"slub_debug is on: every slab allocation and free runs debug checks");
	WARN_IF(!strcmp(env->c_kasan, "y"), "KASAN",
		"KASAN: every memory access is instrumented; costs are not representative");
	WARN_IF(!strcmp(env->c_debug_preempt, "y"), "DEBUG_PREEMPT",
		"DEBUG_PREEMPT: preempt_disable()/enable() inside the allocators are checked and slower");
	WARN_IF(!strcmp(env->c_freelist_random, "y"), "SLAB_FREELIST_RANDOM",
		"SLAB_FREELIST_RANDOM: objects in a new slab are handed out in random order, so cache locality differs from kernels without it");
	WARN_IF(!strcmp(env->c_shuffle, "y") && truth(env->p_shuffle) == 1,
		"page_alloc.shuffle=1",
		"page_alloc.shuffle=1: the page allocator's free lists are randomized");
	/*
	 * vm-run.sh boots its default TCG guest with clearcpuid=rep_good:
	 * rep string instructions crawled on a loaded host (its comment)
	 */
	WARN_IF(env->p_clearcpuid[0], "clearcpuid",
		"clearcpuid= hides CPU features from the kernel (the command line names them), which then runs other code than this CPU's; allocbench vm's default TCG guest hides rep_good, so that it clears and copies pages with plain stores in loops, not rep string instructions");
	WARN_IF(!env->crng_ready, "crng not seeded",
		"the kernel's random number generator is not seeded yet: until it is, every get_random_*() (SLAB_FREELIST_RANDOM's shuffle of each new slab) extracts entropy with BLAKE2s, hundreds of instructions; read /dev/random once first (it waits for the seed)");
	WARN_IF(env->hypervisor > 0,
		env->vm_accel[0]
			? (strncmp(env->vm_accel, "tcg", 3) ? "KVM" : "TCG")
			: "virtualized",
		"virtualized: under emulation (qemu TCG) or a hypervisor, costs are not those of bare metal; compare rows with each other");
	WARN_IF(strcmp(env->governor, "performance") &&
			strcmp(env->governor, "none"),
		"governor not performance",
		"the cpufreq governor is not 'performance': the clock rate may change during the run");
#undef WARN_IF
	return count;
}

int ab_env_warnings(const struct ab_env *env, char *buf, size_t len)
{
	return env_warnings(env, buf, len, 0);
}

int ab_env_caveats(const struct ab_env *env, char *buf, size_t len)
{
	return env_warnings(env, buf, len, 1);
}
