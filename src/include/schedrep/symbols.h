/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/symbols.h - callchain frames resolved offline to modules,
 * functions and source lines.
 */
#ifndef SCHEDREP_SYMBOLS_H
#define SCHEDREP_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/error.h>
#include <schedrep/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Symbols: callchain frames to modules, functions and source lines     */
/* ------------------------------------------------------------------ */

/*
 * A symbolizer resolves the callchains of one session offline, from the
 * target's own files (ELF of any architecture, byte order and word size,
 * read with elfutils' libdw): see docs/symbols.md. Feed it every event with
 * srep_symbolizer__observe() as the events stream by (MMAP events place the
 * modules, FORK and exec events copy or empty a process's mappings), then
 * ask for the frames of any event with a callchain.
 *
 * The session must outlive the symbolizer: build ids and the tracing
 * data's kallsyms are read from it, warnings go to its diag callback. A
 * symbolizer is not thread-safe (neither is libdw): use one per thread, or
 * a lock. Strings it returns live as long as the symbolizer.
 */
struct srep_symbolizer;

/**
 * struct srep_symbol_opts - where the target's files are
 * @kallsyms: a copy of the target's /proc/kallsyms (plain text), or NULL
 * @vmlinux: the target kernel's ELF image, or NULL
 * @symfs: the target's root file system, or a copy of its binaries at the
 *	paths the trace names; NULL or "" for this machine's "/"
 * @buildid_dir: a perf build-id cache; NULL for $HOME/.debug, "" for none
 * @lines: also resolve source file and line where DWARF is present
 *
 * Kernel symbols come from @vmlinux, then @kallsyms, then the kallsyms in
 * the trace's tracing data (old perf versions wrote it), then the build-id
 * cache. A file whose build id differs from the trace's is not used (one
 * warning through the session's diag callback).
 */
struct srep_symbol_opts {
	const char *kallsyms;
	const char *vmlinux;
	const char *symfs;
	const char *buildid_dir;
	bool lines;
};

/* where a frame ran: from the callchain's context markers */
enum srep_frame_mode {
	SREP_FRAME_KERNEL = 1,
	SREP_FRAME_USER,
	SREP_FRAME_HV,
	SREP_FRAME_GUEST_KERNEL,	/* guest frames are never resolved */
	SREP_FRAME_GUEST_USER,
};

/**
 * struct srep_frame - one resolved callchain entry
 * @addr: the entry as recorded
 * @mode: kernel or user (guest, hypervisor)
 * @module: "[kernel.kallsyms]", "[virtio_blk]", "/usr/lib/.../libc.so.6";
 *	NULL when no mapping covers @addr
 * @module_addr: user frames: the offset in the module's file (what perf
 *	script prints); kernel frames and unmapped ones: @addr
 * @symbol: the function (or perf's kind of label), NULL when unresolved
 * @symbol_offset: @addr - the symbol's start
 * @file: source file with srep_symbol_opts.lines and DWARF, else NULL
 * @line: its line, 0 when @file is NULL
 */
struct srep_frame {
	uint64_t addr;
	enum srep_frame_mode mode;
	const char *module;
	uint64_t module_addr;
	const char *symbol;
	uint64_t symbol_offset;
	const char *file;
	uint32_t line;
};

/**
 * struct srep_symbol_stats - what srep_symbolizer__callchain() resolved
 * @callchains: events whose callchain was resolved
 * @frames: frames (context markers excluded); @resolved: those with a symbol
 * @kernel_frames, @kernel_resolved, @user_frames, @user_resolved: by mode
 * @unmapped: user frames that no mapping of their process covered
 * @dwarf_stacks: samples carrying user registers and stack for
 *	--call-graph dwarf; @dwarf_unwound: those whose stack gave frames
 * @cache_hits, @cache_misses: lookups of (module, address) answered from
 *	the cache, and resolved anew
 */
struct srep_symbol_stats {
	uint64_t callchains;
	uint64_t frames, resolved;
	uint64_t kernel_frames, kernel_resolved;
	uint64_t user_frames, user_resolved;
	uint64_t unmapped;
	uint64_t dwarf_stacks, dwarf_unwound;
	uint64_t cache_hits, cache_misses;
};

enum srep_module_state {
	SREP_MODULE_UNUSED = 0,		/* no frame asked for it yet */
	SREP_MODULE_FOUND,		/* symbols read from 'path' */
	SREP_MODULE_MISSING,		/* no file found */
	SREP_MODULE_MISMATCH,		/* only files with another build id */
	SREP_MODULE_BAD,		/* found, but not a readable ELF file */
};

/**
 * struct srep_module_info - a module the trace mapped, and its files here
 * @name: the path on the target ("[kernel.kallsyms]" for the kernel)
 * @state: whether its symbols were found
 * @path: the file symbols were read from, NULL if none
 * @debug_path: its separate debug file, NULL if none was needed or found
 * @build_id: the trace's build id as hex, "" when the trace has none
 * @frames, @resolved: frames that fell in it, and those with a symbol
 */
struct srep_module_info {
	const char *name;
	enum srep_module_state state;
	const char *path, *debug_path;
	char build_id[41];
	uint64_t frames, resolved;
};

/* Fails (SREP_E_IO, SREP_E_SYMBOLS) only when a file named in 'opts' is unusable. */
SREP_API int srep_symbolizer__new(struct srep_symbolizer **out, struct srep_session *s,
				  const struct srep_symbol_opts *opts, struct srep_error *err);
SREP_API void srep_symbolizer__delete(struct srep_symbolizer *sy);	/* NULL is fine */

/* Track mappings: call for every event in order. 0, or SREP_E_NOMEM. */
SREP_API int srep_symbolizer__observe(struct srep_symbolizer *sy, const struct srep_event *ev);

/* Resolve one address of process 'pid'; returns 1 with a symbol, 0 without. */
SREP_API int srep_symbolizer__resolve(struct srep_symbolizer *sy, int32_t pid,
				      enum srep_frame_mode mode, uint64_t addr, struct srep_frame *out);

/* user frames unwound from a --call-graph dwarf stack at most (perf's default) */
#define SREP_UNWIND_MAX		127

/*
 * Resolve the event's callchain into 'frames' (at most 'max'; the event's
 * nr_callchain + SREP_UNWIND_MAX + 1 is always enough), innermost first,
 * context markers left out: the recorded frames, then, for --call-graph
 * dwarf samples, the user stack unwound from the sampled registers, as the
 * target's perf does (arm64 -g: also the leaf's caller from the sampled
 * link register). Returns the number of frames written.
 */
SREP_API size_t srep_symbolizer__callchain(struct srep_symbolizer *sy, const struct srep_event *ev,
					   struct srep_frame *frames, size_t max);

/* srep_symbolizer__blocked_in() result bits */
#define SREP_BLOCKED_KERNEL	0x1
#define SREP_BLOCKED_USER	0x2

/*
 * Where the task of a switch-out blocked: the first kernel frame that is
 * not the scheduler itself (__schedule, schedule*, preempt_schedule*,
 * io_schedule*, __cond_resched) and the first user-space frame that has a
 * name (else the first user-space frame). Returns which of the two were
 * found (SREP_BLOCKED_* bits).
 */
SREP_API int srep_symbolizer__blocked_in(struct srep_symbolizer *sy, const struct srep_event *ev,
					 struct srep_frame *kernel, struct srep_frame *user);

/* room for a label: the smallest buffer, and one that cuts no module name short */
#define SREP_FRAME_LABEL_MIN	20
#define SREP_FRAME_LABEL_MAX	128

/*
 * A frame's short name, the same in every output: its symbol; else, for a
 * user frame in a mapped file, "FILE+0xOFFSET" (the file's base name and the
 * offset in it that perf script prints: "libc.so.6+0x7eb20"); else its
 * address, "0xffffffff81234567". Returns the symbol itself, or 'buf'
 * (at least SREP_FRAME_LABEL_MIN bytes; longer file names are cut).
 */
SREP_API const char *srep_frame__label(const struct srep_frame *f, char *buf, size_t size);

SREP_API const struct srep_symbol_stats *srep_symbolizer__stats(const struct srep_symbolizer *sy);
SREP_API size_t srep_symbolizer__nr_modules(const struct srep_symbolizer *sy);
/* module 'idx' (in the order the trace mapped them); 0, or SREP_E_INVAL */
SREP_API int srep_symbolizer__module(const struct srep_symbolizer *sy, size_t idx,
				     struct srep_module_info *out);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_SYMBOLS_H */
