/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The part of QEMU's TCG plugin interface that sdsi-doorbell uses, declared
 * here because Debian's qemu-system-x86 (7.2) exports the functions but
 * ships no header for them.  Written from the documented interface at API
 * version 1, which is what QEMU 7.2 accepts (it refuses a plugin whose
 * qemu_plugin_version lies outside its minimum..current range).  Only the
 * calls we make are declared; their C types must match QEMU's exactly,
 * since nothing checks them at load time.
 */
#ifndef SDSI_WINDOW_QEMU_PLUGIN_API_H
#define SDSI_WINDOW_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SDSI_QEMU_PLUGIN_API	1

/* QEMU looks these two symbols up with dlsym(). */
#define SDSI_QEMU_PLUGIN_EXPORT	__attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells a plugin about the machine, valid during install only. */
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* Opaque handles, valid only inside the callback that received them. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_hwaddr;
/* Size, sign, endianness and direction of one access, packed. */
typedef uint32_t qemu_plugin_meminfo_t;

/* Whether a callback touches the vCPU's registers (ours never do). */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* Which accesses a memory callback sees. */
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
/* Called after the access has been made. */
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

/* Exported by the plugin. */
extern SDSI_QEMU_PLUGIN_EXPORT int qemu_plugin_version;
SDSI_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
						const qemu_info_t *info,
						int argc, char **argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Before the instruction runs. */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
/* NULL outside system emulation. */
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info,
						  uint64_t vaddr);
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *haddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);

#endif /* SDSI_WINDOW_QEMU_PLUGIN_API_H */
