// SPDX-License-Identifier: GPL-2.0-only
/*
 * abvpmu.c - allocbench's virtual PMU: a QEMU TCG plugin that counts, for
 * the regions the guest brackets with marker NOPs, exactly what TCG
 * executes on the guest's behalf: instructions, branch instructions, loads
 * and stores, per vCPU; and, in its model mode, the misses of a stated
 * branch predictor and cache hierarchy (see MODEL below).
 *
 * Loaded by qemu-system-x86_64 (scripts/vm/vm-run.sh, VPMU=1) or
 * qemu-x86_64 (tests/vpmu/): -plugin
 * build/vpmu/abvpmu.so,out=FILE[,shm=SHMFILE][,model=on]
 * (memfilter=r|w|rw narrows the memory callbacks to what QEMU's filter
 * hands: only for the test of that filter; counts are wrong with r or w)
 *
 * The marker (common/ab_vpmu.h): the 8-byte NOP
 *	nopl 0x564d50XX(%rax,%rax,1)	0f 1f 84 00 XX 50 4d 56
 * is recognised by its bytes when a block is translated; on hardware and
 * under KVM it is an ordinary NOP. Bit 7 of XX ends a region (clear: begins
 * one), the low 7 bits are the region's phase id. A begin marker opens the
 * region on the vCPU that executes it (an open one is dropped), the end
 * marker closes it and appends one line to FILE:
 *	R <vcpu> <phase> <instructions> <branches> <loads> <stores> <irets>
 *	  <branch-misses> <L1-dcache-load-misses> <L1-icache-load-misses>
 *	  <LLC-load-misses> <interrupts>
 * (one line; the model's four fields are 0 without model=on). The markers
 * themselves are not counted. FILE's first line is
 *	# abvpmu 2 vcpus=N model=off|on
 * With shm=SHMFILE every line goes to SHMFILE's ring too (struct
 * ab_vpmu_shm, common/ab_vpmu.h): the file qemu maps as an ivshmem-plain
 * device's BAR, which the guest reads as memory (lib/counters/vpmushm.c),
 * the line there before the guest's next instruction. Without it the
 * guest reads FILE over virtio-9p (scripts/vm/init; vm-run.sh
 * VPMU_CHANNEL=9p), whose replies come at host-timed moments.
 *
 * When (exact mode): only regions count, and none can be open before the
 * first marker executes, so until then only the blocks that hold a marker
 * are instrumented (the boot runs without callbacks). That marker (in a
 * kernel run, the module's hand-over of the gates, before the run's
 * regions; in one vCPU's thread) has QEMU flush every translated block
 * with qemu_plugin_reset(), which is done before that vCPU's next block;
 * from then on every block has all the callbacks below (before
 * 2026-12-07's change, every block had them from the start). A region
 * that another vCPU opens before that flush is done counts one iret
 * (blind; see irets).
 * The model keeps its state always: model=on instruments every block.
 *
 * What is counted, and how exactly (QEMU 7.2, API version 1):
 *  - instructions: one per execution of a guest instruction, counted per
 *    translated block with the vCPU that runs it: one callback at the
 *    block's start adds its instructions, but a last one that starts
 *    within 15 bytes of its page's end counts itself (a block can be cut
 *    before an instruction that crosses a page after the plugin saw it;
 *    inline counters are not per vCPU in API 1), as do IRETs and rep
 *    string instructions; a marker inside a block
 *    adds or takes back the block's instructions after it. A rep-prefixed
 *    string instruction counts once, as hardware retires it (TCG executes
 *    it once per iteration and once more: rcx 32 counted 33 before);
 *    its accesses each count.
 *  - branches: instructions that can change the flow (Jcc, JMP, CALL, RET,
 *    LOOP/JCXZ, IRET, SYSCALL/SYSRET, INT), by their opcode, as the
 *    hardware's "branch instructions retired" counts them.
 *  - loads, stores: memory accesses, one per access (an instruction that
 *    reads and writes, such as an add to memory, is one of each; a push is
 *    a store). Every access is taken (QEMU_PLUGIN_MEM_RW) and split with
 *    qemu_plugin_mem_is_store(): 7.2's R filter hands stores only, and
 *    W and RW hand every access (tests/vpmu/vpmu.sh tests for it).
 *  - interrupts: the external interrupts and IPIs taken inside the region
 *    and taken out of it whole: every count above (and the profile) is as
 *    if the interrupt had not come. The module hands the plugin the IDT's
 *    gates for vectors 32-255 (kmod/vpmu.c, markers AB_VPMU_GATES...). A
 *    block that starts at a gate, executed in an open region, is an
 *    interrupt's entry: the counts are saved, and the entry's first store
 *    (its push of the vector or of -1, Linux's arch/x86/entry/entry_64.S
 *    and idtentry.h) is 8 bytes below the frame the CPU pushed; the CPU's
 *    delivery before it (QEMU reads the gate and the code segment's
 *    descriptors, 5 loads, and pushes the frame, 5 stores) is found by
 *    those addresses and taken out with it (it kept +5 loads and +5 stores
 *    per interrupt before). The IRETQ
 *    whose first load reads that frame (the saved RIP) is the interrupt's
 *    end: the saved counts come back, the IRETQ and its loads included, so
 *    what another task ran while the interrupt was open (a preemption at
 *    its return) goes with it. Nested interrupts nest, up to MAX_NEST.
 *    The cache and predictor state the handler left stays (the model's
 *    next misses see it, as hardware's do); the interrupted branch is
 *    judged by where the code resumes. Only kernel regions (markers at
 *    kernel addresses): an interrupt from user mode has its frame at the
 *    top of the CPU's entry stack, the frame every task's return to user
 *    mode through it reads too, so it stays in (irets).
 *  - the harness: the module and the user backend hand the plugin the
 *    ranges of their own code (AB_VPMU_HARNESS_END after the gates): the
 *    none baseline's per-object bodies, the user backend's executable.
 *    In the regions of the allocation phases (AB_VPMU_ALLOC, _FREE,
 *    _PAIR) a block that starts there, its instructions and accesses, is
 *    not counted, so none's count is the loop and call sites alone, which
 *    every strategy's has too: a net count is the allocator's own.
 *  - irets: what could not be taken out: IRET instructions that matched no
 *    interrupt's frame (an exception's, sync_core()'s IRET to itself, the
 *    return of a task switched in without an interrupt), interrupts in a
 *    user region or past MAX_NEST, interrupts whose IRETQ the region did
 *    not see (before the gates are handed over, every interrupt is one),
 *    and a region opened on another vCPU before the first marker's flush
 *    (its blocks may lack callbacks; see When). The region then holds a
 *    handler's instructions (or lacks some counts); the reader keeps such
 *    regions out of its counts and says how many.
 *
 * MODEL (model=on; counted only inside regions, the state kept always):
 *  - branch-misses: conditional branches by a bimodal predictor of 4096
 *    2-bit counters indexed by the branch's address; indirect jumps and
 *    calls by a 4096-entry target buffer (last target); returns by a
 *    16-entry return stack (Hennessy & Patterson, Computer Architecture,
 *    6th ed., 3.3; 2-bit counters after J. E. Smith, "A study of branch
 *    prediction strategies", ISCA 1981).
 *  - L1-dcache-load-misses, L1-icache-load-misses: 32 KiB, 8-way, 64-byte
 *    lines, LRU, by virtual address (the line of an access's first byte;
 *    instruction fetch per line entered), write-allocate.
 *  - LLC-load-misses: loads that miss L1d and a shared 2 MiB, 16-way,
 *    64-byte-line LRU cache that L1d and L1i misses fill.
 *  No TLB, no prefetcher, no memory latency: the model ranks code paths by
 *  their misses, it does not predict a machine's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab_vpmu.h"
#include "qemu_api.h"
#include "vpmu_insn.h"
#include "vpmu_irq.h"
#include "vpmu_model.h"
#include "vpmu_shm.h"
#include "vpmu_vcpu.h"

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_VCPUS 256

static struct vcpu *vcpus;
static unsigned int nvcpus;
static int out_fd = -1;
static int model;
/* memfilter=r|w|rw: the accesses asked for (tests/vpmu/vpmu.sh; rw default) */
static enum qemu_plugin_mem_rw memfilter = QEMU_PLUGIN_MEM_RW;
static struct cache llc;

static struct vcpu *vcpu_of(unsigned int i)
{
	return i < nvcpus ? &vcpus[i] : NULL;
}

/* before each instruction of @v: an IRETQ before it that matched nothing */
static void insn_start(struct vcpu *v)
{
	if (v->in_iret) {
		v->c[EV_IRETS]++;
		v->in_iret = 0;
	}
	v->drop_mem = 0;
}

static void count_kind(struct vcpu *v, unsigned int kind)
{
	v->c[EV_INSNS]++;
	if (kind != K_PLAIN)
		v->c[EV_BRANCHES]++;
	if (kind == K_IRET) {
		if (v->nirq)
			v->in_iret = 1; /* its first load says whose */
		else
			v->c[EV_IRETS]++;
	}
}

/*
 * One execution of the instruction at @vaddr of @kind; @rep: a
 * rep-prefixed string instruction, counted once however many iterations
 * (as hardware retires it): TCG's next iteration executes it again with
 * nothing counted in between (an interrupt between two iterations is
 * taken out, its counts restored). Returns whether it counted.
 */
static int count_insn(struct vcpu *v, unsigned int kind, int rep,
		      uint64_t vaddr)
{
	if (rep && v->rep_vaddr == vaddr && v->rep_mark == v->c[EV_INSNS])
		return 0;
	count_kind(v, kind);
	if (rep) {
		v->rep_vaddr = vaddr;
		v->rep_mark = v->c[EV_INSNS];
	}
	return 1;
}

/*
 * Exact mode counts per translated block: the block's callback adds the
 * instructions and branches of the block but a last instruction near its
 * page's end, which counts itself when it runs (x86's translator can cut
 * a block before an instruction that crosses a page, after the plugin saw
 * it: that one never runs in this block); so do IRETs (their loads say whose
 * frame) and rep string instructions (counted once). A marker in the block adds
 * (begin) or takes back (end) the block's instructions after it. Interrupts
 * come between blocks only; a fault inside one (an exception) leaves a handler
 * in the region, which is then left out (irets) anyway.
 * Virtual addresses are canonical (sign-extended) below VA_BITS, 57 with
 * 5-level paging, 48 without; an instruction's kind and rep go above.
 */
#define VA_BITS 57
#define VA_MASK ((1ULL << VA_BITS) - 1)
#define ONE_REP (1ULL << 62)

struct tbx {
	uint64_t vaddr;
	uint32_t n, br; /* instructions and branches the block adds */
};

struct markx {
	uint64_t tbvaddr;
	uint32_t n, br;	 /* the block's, after the marker */
	unsigned int xk; /* mark_data() */
};

/*
 * Before the first marker no region is open anywhere, and exact mode
 * instruments only the blocks that hold a marker: the boot runs without
 * callbacks. The first marker to execute (all_on) asks QEMU to flush every
 * translated block (qemu_plugin_reset(), asynchronous: it comes before its
 * vCPU's next block), and every block translated after it has all its
 * callbacks. A region that another vCPU opens before the flush (none
 * should: a run's first marker and its regions come from one thread)
 * could run blocks without them: it counts one iret (blind), so that its
 * counts are kept out.
 */
static int all_on;	      /* a marker executed: every block instrumented */
static int all_live;	      /* and the flush is done */
static unsigned int all_vcpu; /* the vCPU whose marker asked for it */
static qemu_plugin_id_t plugin_id;

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
static void at_exit(qemu_plugin_id_t id, void *udata);

/* at load, and after the flush (qemu_plugin_reset() unregistered all) */
static void install_cbs(qemu_plugin_id_t id)
{
	all_live = all_on;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

/* a marker executes on @vcpu_index: from now on, every block counts */
static void all_from_now(unsigned int vcpu_index)
{
	if (all_on)
		return;
	all_on = 1;
	all_vcpu = vcpu_index;
	qemu_plugin_reset(plugin_id, install_cbs);
}

static void *one_pack(uint64_t vaddr, enum kind k, int rep)
{
	return (void *)(uintptr_t)((vaddr & VA_MASK) | (uint64_t)k << VA_BITS |
				   (rep ? ONE_REP : 0));
}

static void tb_start(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	const struct tbx *t = udata;

	if (!v || !v->open)
		return;
	insn_start(v);
	if (vpmu_is_gate(t->vaddr))
		vpmu_irq_enter(v);
	v->harness = v->ranges && vpmu_in_harness(t->vaddr);
	if (!v->harness) {
		v->c[EV_INSNS] += t->n;
		v->c[EV_BRANCHES] += t->br;
	}
}

static void one_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	uint64_t u = (uint64_t)(uintptr_t)udata, vaddr = u & VA_MASK;

	if (!v || !v->open || v->harness)
		return;
	if (vaddr >> (VA_BITS - 1))
		vaddr |= ~VA_MASK;
	count_insn(v, (unsigned int)(u >> VA_BITS) & 0xf, !!(u & ONE_REP),
		   vaddr);
}

/* one execution of @vaddr in the open region of @v */
static void prof_add(struct vcpu *v, uint64_t vaddr)
{
	uint32_t h = (uint32_t)((vaddr * 0x9e3779b97f4a7c15ull) >> 48);
	uint32_t i, n;

	for (n = 0; n < PROF_SIZE; n++) {
		i = (h + n) & (PROF_SIZE - 1);
		if (v->prof[i].vaddr == vaddr || !v->prof[i].vaddr) {
			if (!v->prof[i].vaddr)
				v->prof[i].vaddr = vaddr;
			if (!v->prof[i].pending++)
				v->touched[v->ntouched++] = i;
			return;
		}
	}
	v->dropped++;
}

/* the open region closed: its pending counts kept (@keep) or dropped */
static void prof_close(struct vcpu *v, int keep)
{
	uint32_t i;

	for (i = 0; i < v->ntouched; i++) {
		struct prof *p = &v->prof[v->touched[i]];

		if (keep)
			p->committed += p->pending;
		p->pending = 0;
	}
	v->ntouched = 0;
}

static void emit(const char *line, size_t len);

/* the dump marker: the profile out, then cleared */
static void prof_dump(unsigned int vcpu_index, struct vcpu *v)
{
	char line[96];
	uint32_t i;
	int n;

	for (i = 0; i < PROF_SIZE; i++) {
		if (v->prof[i].committed) {
			n = snprintf(line, sizeof(line), "P %u %llx %llu\n",
				     vcpu_index,
				     (unsigned long long)v->prof[i].vaddr,
				     (unsigned long long)v->prof[i].committed);
			emit(line, (size_t)n);
		}
		v->prof[i] = (struct prof){ 0 };
	}
	n = snprintf(line, sizeof(line), "P %u end %llu\n", vcpu_index,
		     (unsigned long long)v->dropped);
	emit(line, (size_t)n);
	v->dropped = 0;
}

/* the model sees @in execute next on @v: the verdict on a branch before */
static void follow(struct vcpu *v, const struct insn *in)
{
	const struct insn *b = v->prev;

	if (b && b->kind != K_PLAIN &&
	    predictor_miss(&v->bp, b->kind, b->call, b->vaddr,
			   b->vaddr + b->size, in->vaddr) &&
	    v->open && !v->harness)
		v->c[EV_BR_MISS]++;
	v->prev = in;
}

static void exec_model(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	const struct insn *in = udata;
	uint64_t line = (in->vaddr >> LINE_SHIFT) + 1;

	if (!v)
		return;
	if (v->open) {
		insn_start(v);
		if (in->first && vpmu_is_gate(in->vaddr))
			vpmu_irq_enter(v);
	}
	follow(v, in);
	if (v->open)
		v->harness = v->ranges && vpmu_in_harness(in->vaddr);
	if (line != v->iline) {
		v->iline = line;
		if (!cache_access(&v->l1i, in->vaddr) && v->open && !v->harness)
			v->c[EV_L1I_MISS]++;
	}
	/* an interrupt's instructions: never the op's */
	if (v->open && !v->harness &&
	    count_insn(v, in->kind, in->rep, in->vaddr) && !v->nirq)
		prof_add(v, in->vaddr);
}

static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	int store = qemu_plugin_mem_is_store(info), counted;

	if (!v)
		return;
	counted = v->open && !v->drop_mem && !v->harness;
	if (model && !cache_access(&v->l1d, vaddr) && !store) {
		if (counted)
			v->c[EV_L1D_MISS]++;
		if (!cache_access(&llc, vaddr) && counted)
			v->c[EV_LLC_MISS]++;
	}
	if (!v->open)
		return;
	if (store) {
		if (v->want_frame)
			vpmu_irq_frame(v, vaddr);
		v->st_ring[v->st_pos % RING] = vaddr;
		v->st_cnt[v->st_pos++ % RING] = (uint8_t)counted;
	} else {
		v->ld_ring[v->ld_pos % RING] = vaddr;
		v->ld_cnt[v->ld_pos++ % RING] = (uint8_t)counted;
	}
	if (!counted)
		return;
	v->c[store ? EV_STORES : EV_LOADS]++;
	if (v->in_iret && !store) {
		vpmu_irq_match(v, vaddr);
		v->in_iret = 0; /* only its first load reads the RIP */
		if (!v->drop_mem)
			v->c[EV_IRETS]++;
	}
}

static void emit(const char *line, size_t len)
{
	vpmu_shm_put(line, len);
	while (len) {
		ssize_t n = write(out_fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		line += n;
		len -= (size_t)n;
	}
}

/* a marker's callback pointer: its XX, MARK_KERNEL for kernel code */
#define MARK_KERNEL 0x100

/* the callback pointer of the marker XX @xx at @vaddr */
static void *mark_data(unsigned int xx, uint64_t vaddr)
{
	return (void *)(uintptr_t)(xx | (vaddr >> 63 ? MARK_KERNEL : 0));
}

/*
 * A marker on @vcpu_index: @udata is mark_data()'s; @m, in exact mode,
 * the block's instructions after it (a region opens or closes mid-block)
 */
static void mark_at(unsigned int vcpu_index, void *udata, const struct markx *m)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	unsigned int xx = (unsigned int)(uintptr_t)udata & 0xff;
	char line[320];
	int n;

	if (!v || vpmu_gates_rx(v, xx))
		return;
	if (xx == AB_VPMU_DUMP) {
		if (v->prof)
			prof_dump(vcpu_index, v);
		return;
	}
	if (!(xx & AB_VPMU_END)) {
		memset(v->c, 0, sizeof(v->c));
		if (v->prof)
			prof_close(v, 0);
		v->phase = xx & ~AB_VPMU_END;
		v->open = 1;
		v->kernel = !!((uintptr_t)udata & MARK_KERNEL);
		v->nirq = 0;
		v->want_frame = v->in_iret = v->drop_mem = 0;
		v->blind = !model && !all_live && vcpu_index != all_vcpu;
		v->ranges = vpmu_has_ranges() && v->phase >= AB_VPMU_ALLOC &&
			    v->phase <= AB_VPMU_PAIR;
		v->rep_vaddr = 0;
		v->st_pos = v->ld_pos = 0;
		v->harness = m && v->ranges && vpmu_in_harness(m->tbvaddr);
		if (m && !v->harness) {
			v->c[EV_INSNS] += m->n;
			v->c[EV_BRANCHES] += m->br;
		}
		return;
	}
	if (!v->open || v->phase != (xx & ~AB_VPMU_END))
		return;
	if (m && !v->harness) {
		v->c[EV_INSNS] -= m->n;
		v->c[EV_BRANCHES] -= m->br;
	}
	v->open = 0;
	/* interrupts still open, an IRETQ unmatched: handlers in the counts */
	v->c[EV_IRETS] += v->nirq + !!v->in_iret + !!v->blind;
	if (v->prof)
		prof_close(v, !v->c[EV_IRETS]);
	n = snprintf(
		line, sizeof(line),
		"R %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		vcpu_index, v->phase, (unsigned long long)v->c[EV_INSNS],
		(unsigned long long)v->c[EV_BRANCHES],
		(unsigned long long)v->c[EV_LOADS],
		(unsigned long long)v->c[EV_STORES],
		(unsigned long long)v->c[EV_IRETS],
		(unsigned long long)v->c[EV_BR_MISS],
		(unsigned long long)v->c[EV_L1D_MISS],
		(unsigned long long)v->c[EV_L1I_MISS],
		(unsigned long long)v->c[EV_LLC_MISS],
		(unsigned long long)v->c[EV_IRQS]);
	if (n > 0 && (size_t)n < sizeof(line))
		emit(line, (size_t)n);
}

static void mark_model(unsigned int vcpu_index, void *udata)
{
	const struct insn *in = udata;
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v)
		follow(v, in);
	mark_at(vcpu_index, mark_data(in->xx, in->vaddr), NULL);
}

static void mark_exact(unsigned int vcpu_index, void *udata)
{
	const struct markx *m = udata;

	all_from_now(vcpu_index);
	mark_at(vcpu_index, (void *)(uintptr_t)m->xk, m);
}

/*
 * Whether @qi starts within an instruction's longest length (15 bytes) of
 * its page's end: x86's translator can cut a block before such an
 * instruction after the plugin saw it (it would cross the page), so when
 * it ends a block it counts itself; any other block runs to its end.
 */
static int near_page_end(struct qemu_plugin_insn *qi)
{
	return (qemu_plugin_insn_vaddr(qi) & 0xfff) > 0x1000 - 15;
}

/*
 * Exact mode's instrumentation of @tb (see tb_start()): per instruction
 * its class, 0 counted by the block, 1 by itself, 2 a marker
 */
static void translate_exact(struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct tbx *t = calloc(1, sizeof(*t));
	uint8_t *cls = calloc(n + 1, 1), *kind = calloc(n + 1, 1),
		*rep = calloc(n + 1, 1);
	struct markx **mk = calloc(n + 1, sizeof(*mk));
	uint32_t wn = 0, wb = 0;
	int marked = 0;

	if (!t || !cls || !kind || !rep || !mk)
		goto out;
	t->vaddr = qemu_plugin_tb_vaddr(tb);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *p = qemu_plugin_insn_data(qi);
		size_t len = qemu_plugin_insn_size(qi);
		int call;

		kind[i] = (uint8_t)vpmu_classify(p, len, &call);
		rep[i] = (uint8_t)vpmu_is_rep(p, len);
		if (kind[i] == K_MARK_BEGIN || kind[i] == K_MARK_END) {
			cls[i] = 2;
			marked = 1;
		} else if ((i == n - 1 && near_page_end(qi)) || rep[i] ||
			   kind[i] == K_IRET)
			cls[i] = 1;
	}
	if (!all_on && !marked)
		goto out; /* no region can be open (all_from_now()) */
	for (i = n; i-- > 0;) {
		if (cls[i] == 2) {
			struct qemu_plugin_insn *qi =
				qemu_plugin_tb_get_insn(tb, i);
			const uint8_t *p = qemu_plugin_insn_data(qi);

			mk[i] = calloc(1, sizeof(**mk));
			if (!mk[i])
				goto out;
			mk[i]->tbvaddr = t->vaddr;
			mk[i]->n = wn;
			mk[i]->br = wb;
			mk[i]->xk = (unsigned int)(uintptr_t)mark_data(
				p[4], qemu_plugin_insn_vaddr(qi));
		} else if (!cls[i]) {
			wn++;
			wb += kind[i] != K_PLAIN;
		}
	}
	t->n = wn;
	t->br = wb;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_start,
					     QEMU_PLUGIN_CB_NO_REGS, t);
	t = NULL;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);

		if (cls[i] == 2) {
			qemu_plugin_register_vcpu_insn_exec_cb(
				qi, mark_exact, QEMU_PLUGIN_CB_NO_REGS, mk[i]);
			mk[i] = NULL;
			continue;
		}
		if (cls[i] == 1)
			qemu_plugin_register_vcpu_insn_exec_cb(
				qi, one_exec, QEMU_PLUGIN_CB_NO_REGS,
				one_pack(qemu_plugin_insn_vaddr(qi),
					 (enum kind)kind[i], rep[i]));
		qemu_plugin_register_vcpu_mem_cb(qi, mem_access,
						 QEMU_PLUGIN_CB_NO_REGS,
						 memfilter, NULL);
	}
out:
	if (mk)
		for (i = 0; i < n; i++)
			free(mk[i]);
	free(mk);
	free(rep);
	free(kind);
	free(cls);
	free(t);
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	if (!model) {
		translate_exact(tb);
		return;
	}

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *p = qemu_plugin_insn_data(qi);
		size_t len = qemu_plugin_insn_size(qi);
		int call;
		enum kind k = vpmu_classify(p, len, &call);
		struct insn *in = calloc(1, sizeof(*in));

		if (!in)
			continue;
		in->vaddr = qemu_plugin_insn_vaddr(qi);
		in->size = (uint8_t)len;
		in->kind = (uint8_t)k;
		in->call = (uint8_t)call;
		in->rep = (uint8_t)vpmu_is_rep(p, len);
		if (k == K_MARK_BEGIN || k == K_MARK_END) {
			in->xx = p[4];
			qemu_plugin_register_vcpu_insn_exec_cb(
				qi, mark_model, QEMU_PLUGIN_CB_NO_REGS, in);
			continue;
		}
		in->first = !i;
		qemu_plugin_register_vcpu_insn_exec_cb(
			qi, exec_model, QEMU_PLUGIN_CB_NO_REGS, in);
		qemu_plugin_register_vcpu_mem_cb(qi, mem_access,
						 QEMU_PLUGIN_CB_NO_REGS,
						 memfilter, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	if (out_fd >= 0)
		close(out_fd);
	out_fd = -1;
}

static int fail(const char *what)
{
	char line[600];

	/* stderr: qemu_plugin_outs() writes to qemu's log, off without -d */
	snprintf(line, sizeof(line), "abvpmu: %s\n", what);
	fputs(line, stderr);
	return -1;
}

__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
		    char **argv);

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			char **argv)
{
	const char *out = NULL, *shm_path = NULL;
	char line[512], why[512];
	unsigned int i;
	int n;

	for (n = 0; n < argc; n++) {
		if (!strncmp(argv[n], "out=", 4))
			out = argv[n] + 4;
		else if (!strncmp(argv[n], "shm=", 4))
			shm_path = argv[n] + 4;
		else if (!strcmp(argv[n], "model=on"))
			model = 1;
		else if (!strcmp(argv[n], "model=off"))
			model = 0;
		else if (!strcmp(argv[n], "memfilter=r"))
			memfilter = QEMU_PLUGIN_MEM_R;
		else if (!strcmp(argv[n], "memfilter=w"))
			memfilter = QEMU_PLUGIN_MEM_W;
		else if (!strcmp(argv[n], "memfilter=rw"))
			memfilter = QEMU_PLUGIN_MEM_RW;
		else {
			snprintf(
				line, sizeof(line),
				"argument '%s': allowed are out=FILE, shm=FILE, model=on|off and memfilter=r|w|rw",
				argv[n]);
			return fail(line);
		}
	}
	if (!out)
		return fail("out=FILE is required (the file the counts go to)");
	if (strcmp(info->target_name, "x86_64"))
		return fail("only x86_64 guests are decoded");
	nvcpus = MAX_VCPUS;
	if (info->system_emulation && info->system.max_vcpus > 0 &&
	    (unsigned int)info->system.max_vcpus < nvcpus)
		nvcpus = (unsigned int)info->system.max_vcpus;
	vcpus = calloc(nvcpus, sizeof(*vcpus));
	if (!vcpus)
		return fail("out of memory");
	if (model) {
		for (i = 0; i < nvcpus; i++)
			if (cache_init(&vcpus[i].l1d, 32 << 10, 8) ||
			    cache_init(&vcpus[i].l1i, 32 << 10, 8) ||
			    !(vcpus[i].prof =
				      calloc(PROF_SIZE, sizeof(struct prof))) ||
			    !(vcpus[i].touched =
				      calloc(PROF_SIZE, sizeof(uint32_t))))
				return fail("out of memory");
		if (cache_init(&llc, 2 << 20, 16))
			return fail("out of memory");
	}
	out_fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out_fd < 0) {
		snprintf(line, sizeof(line), "out=%s: %s", out,
			 strerror(errno));
		return fail(line);
	}
	n = snprintf(line, sizeof(line), "# abvpmu 2 vcpus=%u model=%s\n",
		     nvcpus, model ? "on" : "off");
	if (shm_path && vpmu_shm_open(shm_path, line, why, sizeof(why)))
		return fail(why);
	emit(line, (size_t)n);
	plugin_id = id;
	install_cbs(id);
	return 0;
}
