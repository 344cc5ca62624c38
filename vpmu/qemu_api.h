/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_api.h - the few functions of QEMU's TCG plugin API (version 1, as
 * Debian 12's qemu 7.2 loads it) that the virtual PMU uses, declared here
 * from QEMU's documentation (docs/devel/tcg-plugins.rst, "Plugin API"):
 * Debian ships no qemu-plugin.h, and the project writes its own
 * declarations rather than copying QEMU's header.
 *
 * The loader's contract (the same page): the plugin is a shared object
 * that exports the int qemu_plugin_version (the API version it was written
 * for; 7.2 refuses one newer than 1) and qemu_plugin_install(), called
 * once at load with the plugin's id, a description of the emulator and the
 * "name=value" arguments given after the plugin's path in -plugin. The
 * opaque handles (struct qemu_plugin_tb, _insn) are valid only during the
 * callback that received them.
 */
#ifndef AB_QEMU_API_H
#define AB_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t qemu_plugin_id_t;
/* a memory access's size, sign, endianness and direction, as one word */
typedef uint32_t qemu_plugin_meminfo_t;

/* qemu_info_t: what the emulator tells qemu_plugin_install() */
typedef struct {
	const char *target_name; /* "x86_64" */
	struct {
		int min; /* oldest API version it loads */
		int cur; /* newest */
	} version;
	bool system_emulation; /* qemu-system-*, not qemu-<arch> */
	union {
		struct {
			int smp_vcpus; /* vCPUs at start (-smp) */
			int max_vcpus; /* the most there can be */
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* whether a callback reads the guest's registers: the virtual PMU never */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* which accesses a memory callback is for (see vpmu/abvpmu.c on 7.2) */
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

/* at translation of each block: its instructions, to instrument */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
/* 7.2: a pointer to the instruction's bytes (9.0 copies them instead) */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

/* @cb runs before each execution of @tb (before its instructions' own) */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

/* @cb runs before each execution of @insn, on the vCPU that executes it */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
/* @cb runs at each memory access of @insn's execution, per access */
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

/*
 * Unregisters every callback of the plugin @id and flushes every translated
 * block, asynchronously (the vCPUs stop first): callbacks still come until
 * @cb runs, after the flush, where the plugin registers anew. Not from
 * qemu_plugin_install().
 */
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);

/* at the emulator's exit */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

#endif
