/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbolizer.h - the symbolizer's layout, shared by symbolizer.c (the
 * object, modules, mappings) and resolve.c (frames and their cache).
 */
#ifndef SREP_SYMBOLIZER_H
#define SREP_SYMBOLIZER_H

#include "sym_local.h"

#define SYM_KERNEL_DSO	0		/* module 0 is always "[kernel.kallsyms]" */
/* processes whose unwinder is kept (each holds its modules open: a few files) */
#define SYM_MAX_UNWINDERS	16

struct sym_unwinder;

struct srep_symbolizer;

struct sym_dso {
	char *name;			/* the path on the target, or "[name]" */
	bool kernel;			/* the kernel or one of its modules */
	uint8_t build_id[SYM_MAX_BUILD_ID];	/* the trace's; length 0 unknown */
	size_t build_id_len;
	enum srep_module_state state;
	char *host_path;		/* the file found here */
	struct dso *elf;
	uint64_t frames, resolved;
	struct srep_symbolizer *sy;	/* for the debug-file finder */
};

/* one resolved (module, address): the cache of resolve.c */
struct sym_cached {
	uint64_t addr;			/* file offset (user) or address (kernel) */
	uint32_t dso;			/* module index + 1 (kernel frames: 1); 0 = empty slot */
	uint32_t map_dso;		/* the module the frame fell in (a kernel module) */
	uint32_t line;
	const char *module;
	const char *symbol;
	uint64_t symbol_offset;
	const char *file;
};

/* a frame before resolution */
struct sym_raw {
	uint64_t addr;
	enum srep_frame_mode mode;
};

struct srep_symbolizer {
	struct srep_session *s;
	char *symfs, *buildid_dir, *kallsyms_path;
	bool lines;
	struct symfind find;

	/* the kernel (symkernel.c): loaded when the first kernel frame needs it */
	char *vmlinux_path;
	bool kernel_loaded;
	struct kallsyms_table ksyms;
	bool have_ksyms;
	struct dso *vmlinux;
	uint64_t vmlinux_reloc;		/* run-time address - vmlinux address */
	const char *kernel_source;	/* the file (or where) kernel symbols came from */
	char kernel_ref[32];		/* the kernel map's reference symbol ("_text") */
	uint64_t kernel_ref_addr;	/* and its run-time address, 0 unknown */

	struct sym_dso **dsos;		/* pointers: the finder keeps one */
	size_t nr_dsos, cap_dsos;
	uint32_t *dso_slots;		/* name -> index + 1 */
	size_t nr_dso_slots;
	struct maps maps;		/* pid -1: the kernel and its modules */

	struct sym_cached *cache;
	size_t cache_slots, cache_used;

	/* unwinders of recently unwound processes (unwind.c) */
	struct sym_unwinder *unwinders[SYM_MAX_UNWINDERS];
	uint64_t unwind_clock;

	/* the frames of the event last asked about (resolve.c) */
	struct sym_raw *raw;
	size_t nr_raw, cap_raw;
	const struct srep_event *raw_ev;
	const uint64_t *raw_chain;
	const uint8_t *raw_stack;
	uint64_t raw_time;
	int32_t raw_tid;
	uint32_t raw_nr;
	enum srep_event_kind raw_kind;
	struct srep_symbol_stats stats;
};

/* warn through the session's diag callback (SREP_E_SYMBOLS) */
void symbolizer_warn(struct srep_symbolizer *sy, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* look for a user-space module's file (once: see d->state) */
void symbolizer_load_dso(struct srep_symbolizer *sy, struct sym_dso *d);
/* the trace's build id of a module, into d (BUILD_ID feature, HEADER_BUILD_ID) */
void symbolizer_trace_build_id(struct srep_symbolizer *sy, struct sym_dso *d);
void symbolizer_warn_mismatch(struct srep_symbolizer *sy, struct sym_dso *d, const char *path);
/* at creation: the kernel files named in the options exist (symkernel.c) */
int symkernel_check(struct srep_symbolizer *sy, struct srep_error *err);
/* the first kernel frame: load the kernel's symbols (symkernel.c) */
void symkernel_load(struct srep_symbolizer *sy);
/* --call-graph dwarf: the user frames unwound from the event's stack copy (unwind.c) */
size_t unwind_user(struct srep_symbolizer *sy, const struct srep_event *ev,
		   uint64_t *pcs, size_t max);
/* the process's mappings changed: its unwinder goes (pid -1: every one) */
void unwind_forget(struct srep_symbolizer *sy, int32_t pid);
/* perf -g on arm64: the caller of the first user frame, from the sampled LR; 0 none */
uint64_t unwind_leaf_caller(struct srep_symbolizer *sy, const struct srep_event *ev,
			    uint64_t first_user_ip);

#endif /* SREP_SYMBOLIZER_H */
