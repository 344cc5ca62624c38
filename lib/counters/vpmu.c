// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpmu.c - virtual events on the plugin's stream of lines (see vpmu.h):
 * its one reader, from the shared memory (vpmushm.c) or the counts file,
 * and the struct ab_pmu whose calls fall back to it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ab_vpmu.h"
#include "counters.h"
#include "kfile.h"
#include "placement.h"
#include "vpmu.h"
#include "vpmushm.h"

#define MAX_VIRTUAL 16
#define NR_PHASES   128 /* a marker's phase id: 7 bits (common/ab_vpmu.h) */

/**
 * struct vev - one open virtual event
 * @fd:    its own descriptor of the file or the shared memory (-1: the
 *         slot is free)
 * @field: enum ab_vpmu_field it sums
 * @vcpu:  the only vCPU whose regions count, -1 for all
 * @pos:   the stream's offset read up to (whole lines only)
 * @lost:  the ring was written over before it was read: not counted
 * @sum, @total, @clean: since the last reset, per phase id (an alloc
 *         phase and a free phase are different code, of different
 *         lengths), the field's sum over the regions that hold no handler
 *         (irets 0), the regions closed, those that hold none
 */
struct vev {
	int fd;
	int field;
	int vcpu;
	uint64_t pos;
	int lost;
	uint64_t sum[NR_PHASES], total[NR_PHASES], clean[NR_PHASES];
};

static struct vev vevs[MAX_VIRTUAL] = {
	[0 ... MAX_VIRTUAL - 1] = { .fd = -1 },
};

static const char *vpmu_path(void)
{
	const char *p = getenv("AB_VPMU_FILE");

	return p && *p ? p : AB_VPMU_FILE;
}

/*
 * The channel: the shared memory (vpmushm.c), unless $AB_VPMU_FILE names
 * a file, or there is none; then the counts file (over virtio-9p in a
 * guest booted with vm-run.sh VPMU_CHANNEL=9p).
 */
static int use_shm(void)
{
	const char *p = getenv("AB_VPMU_FILE");

	return !(p && *p) && ab_vpmu_shm_fd() >= 0;
}

/* the stream's end: where a reader of @fd starts */
static uint64_t stream_end(int fd)
{
	off_t end;

	if (use_shm())
		return ab_vpmu_shm_head();
	end = lseek(fd, 0, SEEK_END);
	return end < 0 ? 0 : (uint64_t)end;
}

/* up to @len bytes of the stream from @pos: their number, or -1 */
static ssize_t stream_read(int fd, uint64_t pos, char *buf, size_t len)
{
	if (use_shm())
		return ab_vpmu_shm_read(pos, buf, len);
	return pread(fd, buf, len, (off_t)pos);
}

/* the stream from @pos to its end, in a buffer to free(), or NULL */
static char *stream_slurp(int fd, uint64_t pos, size_t *len)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap), *m;
	ssize_t n;

	while (buf) {
		n = stream_read(fd, pos + used, buf + used, cap - used);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (!n)
			break;
		used += (size_t)n;
		if (used == cap) {
			cap *= 2;
			m = realloc(buf, cap);
			if (!m)
				free(buf);
			buf = m;
		}
	}
	*len = used;
	return buf;
}

/* a descriptor of one's own on the stream */
static int stream_open(void)
{
	if (use_shm())
		return fcntl(ab_vpmu_shm_fd(), F_DUPFD_CLOEXEC, 0);
	return open(vpmu_path(), O_RDONLY | O_CLOEXEC);
}

int ab_vpmu_parse(const char *line, struct ab_vpmu_region *r)
{
	const char *p = line;
	char *end;
	int i;

	if (p[0] != 'R' || p[1] != ' ')
		return -1;
	p += 2;
	r->vcpu = (unsigned int)strtoul(p, &end, 10);
	if (end == p || *end != ' ')
		return -1;
	p = end + 1;
	r->phase = (unsigned int)strtoul(p, &end, 10);
	if (end == p)
		return -1;
	for (i = 0; i < AB_VPMU_NFIELDS; i++) {
		p = end;
		if (*p != ' ')
			return -1;
		r->count[i] = strtoull(++p, &end, 10);
		if (end == p)
			return -1;
	}
	return *end == '\0' || *end == '\n' ? 0 : -1;
}

int ab_vpmu_present(void)
{
	char head[128] = "";
	FILE *f;

	if (use_shm()) {
		snprintf(head, sizeof(head), "%s", ab_vpmu_shm_hello());
	} else {
		f = fopen(vpmu_path(), "re");
		if (!f)
			return 0;
		if (!fgets(head, sizeof(head), f))
			head[0] = '\0';
		fclose(f);
	}
	if (strncmp(head, "# abvpmu 2 ", 11))
		return 0;
	return strstr(head, " model=on") ? 2 : 1;
}

/* PERF_TYPE_HW_CACHE config: cache | op << 8 | result << 16 */
#define HW_CACHE(cache, op, result)                                       \
	(PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/*
 * The virtual PMU's events, once: how perf encodes each (what
 * ab_counter_encode() makes of the name), the field of a region line that
 * counts it, whether the model does, and what `list events` says of it.
 */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
	int field, model;
	const char *what;
} vevents[] = {
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  AB_VPMU_INSTRUCTIONS, 0, "instructions TCG executes" },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  AB_VPMU_BRANCHES, 0,
	  "branch instructions (also branch-instructions)" },
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, HW_CACHE(L1D, READ, ACCESS),
	  AB_VPMU_LOADS, 0, "memory reads (also loads)" },
	{ "L1-dcache-stores", PERF_TYPE_HW_CACHE, HW_CACHE(L1D, WRITE, ACCESS),
	  AB_VPMU_STORES, 0, "memory writes (also stores)" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  AB_VPMU_BRANCH_MISSES, 1,
	  "bimodal predictor, target buffer, return stack" },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(L1D, READ, MISS), AB_VPMU_L1D_LOAD_MISSES, 1,
	  "32 KiB 8-way L1d, 64 B lines, LRU" },
	{ "L1-icache-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(L1I, READ, MISS), AB_VPMU_L1I_LOAD_MISSES, 1,
	  "32 KiB 8-way L1i, 64 B lines, LRU" },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, HW_CACHE(LL, READ, MISS),
	  AB_VPMU_LLC_LOAD_MISSES, 1, "2 MiB 16-way shared, LRU" },
};

int ab_vpmu_field_of(const struct perf_event_attr *a, int *model)
{
	size_t i;

	for (i = 0; i < sizeof(vevents) / sizeof(vevents[0]); i++)
		if (a->type == vevents[i].type &&
		    (a->config & 0xffffffffULL) == vevents[i].config) {
			if (model)
				*model = vevents[i].model;
			return vevents[i].field;
		}
	return -1;
}

int ab_vpmu_modifier_refused(const struct perf_event_attr *a)
{
	/* exclude_guest is libpfm4's default (PFM_PLM0 | PFM_PLM3), as perf's
	 */
	return a->exclude_user || a->exclude_kernel || a->exclude_host ||
	       a->exclude_idle;
}

const char *ab_vpmu_default_events(void)
{
	switch (ab_vpmu_present()) {
	case 2:
		return "instructions,branches,loads,stores,branch-misses,L1-dcache-load-misses";
	case 1:
		return "instructions,branches,loads,stores";
	}
	return NULL;
}

int ab_vpmu_list(FILE *f, int (*keep)(const char *glob, const char *name),
		 const char *glob)
{
	int present = ab_vpmu_present();
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(vevents) / sizeof(vevents[0]); i++) {
		if (!keep(glob, vevents[i].name))
			continue;
		if (!n++)
			fprintf(f,
				"pmu vpmu: the virtual PMU, a QEMU TCG plugin (allocbench vm --vpmu, make vm-run VPMU=1): %s\n",
				present > 1 ? "booted here, with its model"
				: present
					? "booted here, exact counts only"
					: "not booted here (the events open on it where no hardware PMU does)");
		fprintf(f, "  %-44s emulated, %s: %s%s\n", vevents[i].name,
			vevents[i].model ? "model" : "exact", vevents[i].what,
			present && vevents[i].model && present < 2
				? " (needs --vpmu=model)"
				: "");
	}
	return n;
}

static struct vev *vev_of(int fd)
{
	int i;

	for (i = 0; fd >= 0 && i < MAX_VIRTUAL; i++)
		if (vevs[i].fd == fd)
			return &vevs[i];
	return NULL;
}

int ab_vpmu_fd_is_virtual(int fd)
{
	return vev_of(fd) != NULL;
}

/*
 * @v's count as perf reads one, {value, enabled, running}: enabled the
 * regions closed, running those that hold no handler, and value the
 * count already estimated (lib/counters.c does not scale a virtual event
 * again), phase by phase: each phase's kept sum scaled by its own regions
 * closed / kept, to the nearest whole count (exact when nothing was left
 * out). Scaling all phases together would let a short phase stand for
 * the long one whose regions were left out (a free phase for the alloc
 * phases a reschedule point was met in). A phase none of whose regions
 * was kept cannot be estimated: running 0, not counted.
 */
static void vev_value(const struct vev *v, uint64_t out[3])
{
	uint64_t total = 0, clean = 0;
	double est = 0;
	int p;

	if (v->lost) {
		out[0] = out[1] = out[2] = 0;
		return;
	}
	for (p = 0; p < NR_PHASES; p++) {
		if (!v->total[p])
			continue;
		total += v->total[p];
		clean += v->clean[p];
		if (!v->clean[p]) {
			out[0] = out[2] = 0;
			out[1] = total;
			for (p++; p < NR_PHASES; p++)
				out[1] += v->total[p];
			return;
		}
		est += (double)v->sum[p] * (double)v->total[p] /
		       (double)v->clean[p];
	}
	out[0] = (uint64_t)llround(est);
	out[1] = total;
	out[2] = clean;
}

/* Reads the regions closed since @v->pos into @v's sums. */
static void vev_update(struct vev *v)
{
	char buf[8192], *line, *nl;
	struct ab_vpmu_region r;
	ssize_t n;
	size_t used;

	for (;;) {
		n = stream_read(v->fd, v->pos, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EOVERFLOW)
			v->lost = 1;
		if (n <= 0)
			return;
		buf[n] = '\0';
		used = 0;
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			used = (size_t)(nl + 1 - buf);
			if (ab_vpmu_parse(line, &r))
				continue;
			if (v->vcpu >= 0 && r.vcpu != (unsigned int)v->vcpu)
				continue;
			r.phase %= NR_PHASES;
			v->total[r.phase]++;
			if (r.count[AB_VPMU_IRETS])
				continue;
			v->clean[r.phase]++;
			v->sum[r.phase] += r.count[v->field];
		}
		if (!used)
			return; /* a line longer than the buffer, or unfinished
				 */
		v->pos += used;
	}
}

static int vpmu_open(void *ctx, struct perf_event_attr *attr, int group)
{
	int fd, i, model = 0, err, present;
	int field = ab_vpmu_field_of(attr, &model);
	struct vev *v = NULL;

	/* a group leader that is virtual cannot lead a kernel event */
	fd = (int)syscall(__NR_perf_event_open, attr, 0, -1,
			  ab_vpmu_fd_is_virtual(group) ? -1 : group, 0);
	if (fd >= 0 || field < 0)
		return fd;
	err = errno;
	present = ab_vpmu_present();
	if (!present || (model && present < 2)) {
		errno = err;
		return -1;
	}
	/* a privilege filter it cannot apply (ab_vpmu_modifier_refused()) */
	if (ab_vpmu_modifier_refused(attr)) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < MAX_VIRTUAL && !v; i++)
		if (vevs[i].fd < 0)
			v = &vevs[i];
	if (!v) {
		errno = EMFILE;
		return -1;
	}
	fd = stream_open();
	if (fd < 0)
		return -1;
	*v = (struct vev){ .fd = fd, .field = field, .vcpu = ab_pinned_cpu() };
	v->pos = stream_end(fd);
	return fd;
}

static int vpmu_ioctl(void *ctx, int fd, unsigned long req)
{
	struct vev *v = vev_of(fd);

	if (!v)
		return ioctl(fd, req, 0);
	if (req == PERF_EVENT_IOC_RESET) {
		v->pos = stream_end(fd);
		v->lost = 0;
		memset(v->sum, 0, sizeof(v->sum));
		memset(v->total, 0, sizeof(v->total));
		memset(v->clean, 0, sizeof(v->clean));
		v->vcpu = ab_pinned_cpu();
	}
	return 0;
}

static long vpmu_read(void *ctx, int fd, void *buf, size_t len)
{
	struct vev *v = vev_of(fd);
	uint64_t out[3];

	if (!v)
		return (long)read(fd, buf, len);
	vev_update(v);
	vev_value(v, out);
	if (len > sizeof(out))
		len = sizeof(out);
	memcpy(buf, out, len);
	return (long)len;
}

static int vpmu_close(void *ctx, int fd)
{
	struct vev *v = vev_of(fd);

	if (v)
		v->fd = -1;
	return close(fd);
}

const struct ab_pmu ab_vpmu_pmu = {
	.open = vpmu_open,
	.ioctl = vpmu_ioctl,
	.read = vpmu_read,
	.close = vpmu_close,
};

/* ---- the profile ---- */

struct ksym {
	uint64_t addr;
	char name[64];
};

static struct ksym *ksyms;
static size_t nksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* one function of /proc/kallsyms into the table (with its address) */
static int ksym_add(uint64_t addr, const char *name, void *cap)
{
	size_t *c = cap;

	if (!addr)
		return 0;
	if (nksyms == *c) {
		struct ksym *n;

		*c = *c ? 2 * *c : 65536;
		n = realloc(ksyms, *c * sizeof(*n));
		if (!n)
			return 1;
		ksyms = n;
	}
	ksyms[nksyms].addr = addr;
	snprintf(ksyms[nksyms].name, sizeof(ksyms[nksyms].name), "%.63s", name);
	nksyms++;
	return 0;
}

/* /proc/kallsyms' functions, sorted, read once (0 addresses: no root) */
static void ksyms_load(void)
{
	size_t cap = 0;

	if (ksyms)
		return;
	ab_kallsyms_each(ksym_add, &cap);
	if (ksyms)
		qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

/* the function that holds @addr (the last symbol at or below it) */
static const char *ksym_of(uint64_t addr)
{
	size_t lo = 0, hi = nksyms;

	if (addr < 0xffff800000000000ull)
		return "(user space)";
	if (!nksyms || addr < ksyms[0].addr)
		return "(unknown)";
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return ksyms[lo].name;
}

struct fnsum {
	const char *name;
	double count;
};

static int fnsum_cmp(const void *a, const void *b)
{
	const struct fnsum *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

int ab_vpmu_profile(struct ab_vpmu_prof *p)
{
	int cpu = ab_pinned_cpu(), got_end = 0;
	struct fnsum *sum = NULL;
	size_t n = 0, cap = 0, i;
	char line[160], *text;
	unsigned long long addr, count;
	unsigned int vcpu;
	size_t len;
	uint64_t pos;
	FILE *f;
	int fd;

	memset(p, 0, sizeof(*p));
	if (cpu < 0 || ab_vpmu_present() != 2)
		return -1;
	fd = stream_open();
	if (fd < 0)
		return -1;
	pos = stream_end(fd);
	/* the plugin writes the profile while this instruction executes */
	ab_vpmu_mark(AB_VPMU_DUMP);
	text = stream_slurp(fd, pos, &len);
	close(fd);
	f = text && len ? fmemopen(text, len, "r") : NULL;
	if (!f) {
		free(text);
		return -1;
	}
	ksyms_load();
	while (!got_end && fgets(line, sizeof(line), f)) {
		const char *name;

		if (sscanf(line, "P %u end %llu", &vcpu, &count) == 2) {
			if (vcpu == (unsigned int)cpu) {
				p->dropped = count;
				got_end = 1;
			}
			continue;
		}
		if (sscanf(line, "P %u %llx %llu", &vcpu, &addr, &count) != 3 ||
		    vcpu != (unsigned int)cpu)
			continue;
		name = ksym_of(addr);
		for (i = 0; i < n && sum[i].name != name; i++)
			;
		if (i == n) {
			if (n == cap) {
				struct fnsum *m;

				cap = cap ? 2 * cap : 256;
				m = realloc(sum, cap * sizeof(*m));
				if (!m)
					break;
				sum = m;
			}
			sum[n].name = name;
			sum[n++].count = 0;
		}
		sum[i].count += (double)count;
		p->total += (double)count;
	}
	fclose(f);
	free(text);
	if (sum)
		qsort(sum, n, sizeof(*sum), fnsum_cmp);
	for (i = 0; i < n; i++) {
		if (i < AB_VPMU_PROF_TOP) {
			snprintf(p->fn[i].name, sizeof(p->fn[i].name), "%s",
				 sum[i].name);
			p->fn[i].count = sum[i].count;
			p->n++;
		} else {
			p->other += sum[i].count;
		}
	}
	free(sum);
	p->valid = got_end;
	return got_end ? 0 : -1;
}

void ab_vpmu_prof_scale(struct ab_vpmu_prof *p, double ops)
{
	int i;

	if (!(ops > 0))
		return;
	for (i = 0; i < p->n; i++)
		p->fn[i].count /= ops;
	p->total /= ops;
	p->other /= ops;
}

int ab_vpmu_paths_begin(struct ab_vpmu_paths *p)
{
	int fd;

	memset(p, 0, sizeof(*p));
	p->vcpu = ab_pinned_cpu();
	if (p->vcpu < 0 || !ab_vpmu_present())
		return -1;
	fd = stream_open();
	if (fd < 0)
		return -1;
	p->pos = stream_end(fd);
	close(fd);
	return 0;
}

/* @x onto the growing array *@v of *@n values (*@cap slots): 0 or -1 */
static int push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	uint64_t *m;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		m = realloc(*v, *cap * sizeof(*m));
		if (!m)
			return -1;
		*v = m;
	}
	(*v)[(*n)++] = x;
	return 0;
}

int ab_vpmu_paths_end(struct ab_vpmu_paths *p)
{
	uint64_t *v[2] = { NULL, NULL }, left[2] = { 0, 0 }, seen[2] = { 0, 0 };
	size_t n[2] = { 0, 0 }, cap[2] = { 0, 0 }, len;
	struct ab_vpmu_region r;
	char *text, *line, *nl;
	int fd, k, err = 0;

	fd = stream_open();
	if (fd < 0)
		return -1;
	errno = 0;
	text = stream_slurp(fd, p->pos, &len);
	p->lost = !text && errno == EOVERFLOW;
	close(fd);
	if (!text)
		return -1;
	for (line = text; !err && (nl = memchr(line, '\n', text + len - line));
	     line = nl + 1) {
		*nl = '\0';
		if (ab_vpmu_parse(line, &r) ||
		    r.vcpu != (unsigned int)p->vcpu ||
		    (r.phase != AB_VPMU_ALLOC && r.phase != AB_VPMU_FREE))
			continue;
		k = r.phase == AB_VPMU_FREE;
		/* the warm-up trials' regions come first */
		if (seen[k]++ < p->skip)
			continue;
		if (r.count[AB_VPMU_IRETS])
			left[k]++;
		else
			err = push_u64(&v[k], &n[k], &cap[k],
				       r.count[AB_VPMU_INSTRUCTIONS]);
	}
	free(text);
	for (k = 0; k < 2; k++) {
		/* (-1 here is out of memory: n[k] is above 0) */
		if (!err && n[k])
			err = ab_vpmu_path_lengths(v[k], n[k], &p->ph[k]);
		p->ph[k].left_out = left[k];
		free(v[k]);
	}
	p->valid = !err;
	return err;
}
