/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sym_local.h - what the symbol modules share (kallsyms.c, maps.c,
 * dso.c, symfind.c, symbolizer.c). Only dso.c includes libdw; the
 * others see ELF files through the 'dso' functions below.
 */
#ifndef SREP_SYM_LOCAL_H
#define SREP_SYM_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedrep/schedrep.h>
#include "bytes.h"

/* a kallsyms text file of a big distribution kernel is about 15 MB */
#define SYM_MAX_KALLSYMS	(256u << 20)
/* resolved frames kept per symbolizer: about 100 bytes each */
#define SYM_MAX_CACHE		(4u << 20)
#define SYM_MAX_BUILD_ID	20

/* ---- symbol tables with perf's rules (symtab.c) ---- */

enum { SYM_LOCAL = 0, SYM_GLOBAL = 1, SYM_WEAK = 2 };	/* as ELF's STB_* */

struct sym_entry {
	uint64_t start, end;		/* [start, end); end == start: no size yet */
	const char *name;
	const char *module;		/* kallsyms: "[virtio_blk]", NULL for the kernel */
	uint8_t binding;		/* SYM_* */
	uint32_t order;			/* position in the source: ties keep it */
};

struct symtab {
	struct sym_entry *e;
	size_t nr, cap;
};

int symtab_add(struct symtab *t, const struct sym_entry *e);
int symtab_reserve(struct symtab *t, size_t nr);	/* room for 'nr' in all */
/*
 * Sort, give every symbol without a size the room up to the next one, and
 * keep one symbol per address, as perf does (see symtab.c).
 */
void symtab_finish(struct symtab *t, bool kallsyms);
const struct sym_entry *symtab_find(const struct symtab *t, uint64_t addr);
void symtab_free(struct symtab *t);

/* ---- kernel symbols from a kallsyms text (kallsyms.c) ---- */

struct kallsyms_table {
	struct symtab tab;
	char *text;			/* owned copy of the file: names point into it */
	uint64_t ref_text, ref_stext;	/* addresses of _text and _stext, 0 if absent */
	uint64_t bad_lines;		/* lines that were not 'ADDRESS TYPE NAME' */
};

/* parse 'len' bytes (need not end in NUL); keeps function and data symbols as perf does */
int kallsyms_parse(struct kallsyms_table *t, const char *text, size_t len,
		   struct srep_error *err);
int kallsyms_load(struct kallsyms_table *t, const char *path, struct srep_error *err);
void kallsyms_free(struct kallsyms_table *t);

/* ---- where modules are mapped, per process, over time (maps.c) ---- */

struct map_entry {
	uint64_t start, end;		/* [start, end) in the process */
	uint64_t pgoff;			/* file offset of 'start' */
	uint32_t dso;			/* index in the symbolizer's module table */
};

struct proc_maps {
	int32_t pid;
	struct map_entry *e;		/* sorted by start, never overlapping */
	size_t nr, cap;
};

struct maps {
	struct proc_maps *procs;
	size_t nr, cap;
	uint32_t *slots;		/* open addressing: pid -> index + 1 */
	size_t nr_slots;
	size_t last;			/* index + 1 of the process last looked up */
};

void maps_init(struct maps *m);
void maps_free(struct maps *m);
/* a new mapping replaces whatever it overlaps, as in the kernel */
int maps_insert(struct maps *m, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		uint32_t dso);
/* a new process starts with a copy of its parent's mappings */
int maps_fork(struct maps *m, int32_t parent_pid, int32_t child_pid);
/* exec replaced the address space */
void maps_clear(struct maps *m, int32_t pid);
const struct map_entry *maps_find(struct maps *m, int32_t pid, uint64_t addr);

/* ---- finding the files of the target on this machine (symfind.c) ---- */

struct symfind {
	const char *symfs;		/* the target's root; NULL or "" for "/" */
	const char *buildid_dir;	/* perf's build-id cache, NULL for none */
};

/* lowercase hex of a build id; 'out' holds 2 * SYM_MAX_BUILD_ID + 1 */
void symfind_hex(const uint8_t *id, size_t len, char *out);
/*
 * The file to read the symbols of 'trace_path' from (malloc'd), NULL if
 * none. 'want' is the trace's build id (want_len 0: unknown). The first
 * candidate with another build id goes to *mismatch (malloc'd, for the
 * warning). The build id of the file returned is copied to id/id_len.
 */
char *symfind_main(const struct symfind *f, const char *trace_path, const uint8_t *want,
		   size_t want_len, char **mismatch, uint8_t *id, size_t *id_len);
/* the separate debug file of the binary found at 'host_path' (malloc'd), NULL if none */
char *symfind_debug(const struct symfind *f, const char *trace_path, const char *host_path,
		    const uint8_t *id, size_t len, const char *debuglink);
/* DIR/NAME/ID/ENTRY in the build-id cache if it exists ("[kernel.kallsyms]", "kallsyms") */
char *symfind_cached(const struct symfind *f, const char *trace_name, const uint8_t *id,
		     size_t len, const char *entry);

/* ---- user registers for the unwinder (regs.c) ---- */

struct unwind_regs_in {
	uint64_t abi, mask;		/* PERF_SAMPLE_REGS_ABI_*, sample_regs_user */
	const uint64_t *regs;		/* one per bit of the mask, host order */
	uint32_t nr;
};

struct unwind_regs {
	uint64_t dwarf[32];		/* DWARF registers 0..nr_dwarf-1, as perf sets them */
	unsigned nr_dwarf;
	bool set_pc;			/* perf also sets the PC explicitly */
	uint64_t pc;
	uint64_t ip, sp;		/* where the unwinding starts, the stack copy's address */
};

/* EM_* whose register numbering the trace uses (HEADER_ARCH, the sample's ABI); 0 unknown */
unsigned regs_machine(const char *arch, uint64_t abi);
/* false for a machine perf does not unwind with libdw here */
bool regs_to_dwarf(unsigned machine, const struct unwind_regs_in *in, struct unwind_regs *out);

/* ---- ELF files through libdw (dso.c, the only libdw caller) ---- */

/*
 * Finds the separate debug file of an ELF file: called with the file's
 * build id (may be empty) and .gnu_debuglink name (may be NULL); returns a
 * malloc'd path or NULL. Every candidate it returns was checked already.
 */
typedef char *(*elf_debug_finder)(void *arg, const uint8_t *build_id, size_t build_id_len,
				  const char *debuglink);

struct dso;

/* read the GNU build id of an ELF file: its length (0 none), < 0 not an ELF file */
int dso_file_build_id(const char *path, uint8_t *id, size_t size);
/*
 * Open an ELF file of any architecture for symbol lookups; 'why' says what
 * failed (NULL return). The finder is asked for a separate debug file when
 * the file lacks .symtab or when source lines are wanted.
 */
struct dso *dso_open(const char *path, elf_debug_finder finder, void *finder_arg,
		     char *why, size_t why_size);
void dso_free(struct dso *d);
/* file offset of a mapped byte -> its ELF virtual address (via PT_LOAD) */
bool dso_vaddr(const struct dso *d, uint64_t file_off, uint64_t *vaddr);
/* the function (or data/label symbol, as perf keeps them) containing 'vaddr' */
const struct sym_entry *dso_find(struct dso *d, uint64_t vaddr);
/* value of a symbol by name (vmlinux: _text / _stext), false if absent */
bool dso_symbol_value(struct dso *d, const char *name, uint64_t *value);
/* source file and line of 'vaddr' from DWARF; false without DWARF */
bool dso_srcline(struct dso *d, uint64_t vaddr, const char **file, int *line);
/* the file symbols came from, and the separate debug file ("" if none) */
const char *dso_path(const struct dso *d);
/* ELF machine (EM_*) of the file */
unsigned dso_machine(const struct dso *d);
const char *dso_debug_path(const struct dso *d);
size_t dso_nr_symbols(const struct dso *d);

/* ---- unwinding a copied user stack with libdw (dso.c) ---- */

struct dso_unwind_ops {
	/*
	 * The file mapped at 'addr' in the process being unwound: its path
	 * here (NULL: mapped, but no file found), the address of its file
	 * offset 0, and the file offset of 'addr'. false: nothing mapped.
	 */
	bool (*module_at)(void *arg, uint64_t addr, const char **path, uint64_t *base,
			  uint64_t *file_off);
	void *arg;
};

struct dso_unwind_in {
	struct unwind_regs regs;
	bool big_endian;		/* the target's byte order */
	const uint8_t *stack;		/* the copy of the stack from regs.sp up */
	uint64_t stack_size;
};

/*
 * One process's unwinder: a Dwfl that keeps the modules reported so far
 * and the CFI libdw parsed, until the process's mappings change (the
 * caller then frees it). 'ops' must outlive it.
 */
struct dso_unwinder;

struct dso_unwinder *dso_unwinder_new(const struct dso_unwind_ops *ops);
void dso_unwinder_free(struct dso_unwinder *w);	/* NULL is fine */
/*
 * Unwind as perf does with libdw: the user frames innermost first (the
 * first at the sampled IP, callers at their return address minus 1), into
 * pcs[max]. Returns how many; 0 when not even the first module is known.
 */
size_t dso_unwind(struct dso_unwinder *w, const struct dso_unwind_in *in, uint64_t *pcs,
		  size_t max);

#endif /* SREP_SYM_LOCAL_H */
