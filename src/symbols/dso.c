// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dso.c - ELF files of any architecture, byte order and word size,
 * through elfutils' libdwfl: the only caller of libdw and libelf.
 *
 * Each file gets its own Dwfl with the file reported at bias 0, so module
 * addresses are the file's own ELF virtual addresses whatever its type
 * (ET_EXEC or ET_DYN) and nothing else can overlap it; the caller turns a
 * run-time address into a file offset (from the MMAP record) and
 * dso_vaddr() turns that into an ELF address through the PT_LOAD
 * headers. libdwfl picks the symbol table (.symtab of the file, else of its
 * separate debug file, else .dynsym) and reads DWARF lines; the table is
 * then filtered and ordered with perf's rules (symtab.c) so that names
 * agree with the target's perf.
 *
 * Separate debug files are found by a callback of ours (the caller's
 * elf_debug_finder), never by libdwfl's standard search: that would look in
 * this machine's /usr/lib/debug and ask debuginfod servers.
 *
 * libdw is not thread-safe: an dso, like the symbolizer owning it, is
 * used by one thread at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "sym_local.h"

struct load_seg {
	uint64_t off, filesz, vaddr;
};

struct dso {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char *path;
	char *debug_path;		/* set when the finder gave one */
	elf_debug_finder finder;
	void *finder_arg;
	uint8_t build_id[SYM_MAX_BUILD_ID];
	size_t build_id_len;
	GElf_Half machine;
	struct load_seg *loads;
	size_t nr_loads;
	struct symtab tab;
	bool tab_built;
};

static int no_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		  char **file_name, Elf **elfp)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name; (void)elfp;
	return -1;	/* every file is reported with its descriptor */
}

/* the unwinder needs .eh_frame only, which the binary itself has */
static int no_debuginfo(Dwfl_Module *mod, void **userdata,
			const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink,
			GElf_Word crc, char **debug_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink; (void)crc; (void)debug_name;
	return -1;
}

static int find_debug(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink, GElf_Word crc,
		      char **debug_name)
{
	struct dso *d = *userdata;
	char *path;
	int fd;

	(void)mod; (void)modname; (void)base; (void)file_name; (void)crc;
	if (!d || !d->finder)
		return -1;
	path = d->finder(d->finder_arg, d->build_id, d->build_id_len, debuglink);
	if (!path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(path);
		return -1;
	}
	free(d->debug_path);
	d->debug_path = strdup(path);
	*debug_name = path;	/* libdwfl frees it with the module */
	return fd;
}

static char *no_debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = no_elf,
	.find_debuginfo = find_debug,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

int dso_file_build_id(const char *path, uint8_t *id, size_t size)
{
	const void *bits;
	ssize_t len = -1;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		len = dwelf_elf_gnu_build_id(elf, &bits);
		if (len < 0)
			len = 0;	/* an ELF file without a build id */
		if ((size_t)len > size)
			len = (ssize_t)size;
		if (len > 0)
			memcpy(id, bits, (size_t)len);
	}
	elf_end(elf);
	close(fd);
	return (int)len;
}

static int read_loads(struct dso *d, Elf *elf)
{
	size_t nr, i;
	GElf_Ehdr eh;
	GElf_Phdr ph;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &nr))
		return -1;
	d->machine = eh.e_machine;
	d->loads = calloc(nr ? nr : 1, sizeof(*d->loads));
	if (!d->loads)
		return -1;
	for (i = 0; i < nr; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->loads[d->nr_loads++] = (struct load_seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

static int report(struct dso *d, int fd, char *why, size_t why_size)
{
	const unsigned char *bits;
	GElf_Addr vaddr, bias;
	void **userdata;
	int len;
	Elf *elf;

	dwfl_report_begin(d->dwfl);
	/* base 0 added to p_vaddr: addresses are the file's own */
	d->mod = dwfl_report_elf(d->dwfl, d->path, d->path, fd, 0, true);
	if (!d->mod) {
		close(fd);
		snprintf(why, why_size, "%s", dwfl_errmsg(-1));
		return -1;
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	dwfl_module_info(d->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = d;
	elf = dwfl_module_getelf(d->mod, &bias);
	if (!elf || read_loads(d, elf)) {
		snprintf(why, why_size, "%s", elf ? "bad program headers" : dwfl_errmsg(-1));
		return -1;
	}
	len = dwfl_module_build_id(d->mod, &bits, &vaddr);
	if (len > 0) {
		d->build_id_len = (size_t)len < sizeof(d->build_id) ? (size_t)len : sizeof(d->build_id);
		memcpy(d->build_id, bits, d->build_id_len);
	}
	return 0;
}

struct dso *dso_open(const char *path, elf_debug_finder finder, void *finder_arg,
		     char *why, size_t why_size)
{
	struct dso *d = calloc(1, sizeof(*d));
	int fd;

	if (!d || !(d->path = strdup(path))) {
		snprintf(why, why_size, "no memory");
		free(d);
		return NULL;
	}
	d->finder = finder;
	d->finder_arg = finder_arg;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_size, "%s", strerror(errno));
		dso_free(d);
		return NULL;
	}
	d->dwfl = dwfl_begin(&callbacks);
	if (!d->dwfl) {
		close(fd);
		snprintf(why, why_size, "%s", dwfl_errmsg(-1));
		dso_free(d);
		return NULL;
	}
	if (report(d, fd, why, why_size)) {
		dso_free(d);
		return NULL;
	}
	return d;
}

void dso_free(struct dso *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	symtab_free(&d->tab);
	free(d->loads);
	free(d->debug_path);
	free(d->path);
	free(d);
}

bool dso_vaddr(const struct dso *d, uint64_t file_off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < d->nr_loads; i++) {
		const struct load_seg *l = &d->loads[i];

		if (file_off >= l->off && file_off - l->off < l->filesz) {
			*vaddr = file_off - l->off + l->vaddr;
			return true;
		}
	}
	return false;
}

/* the section a label sits in must be code ("text" in its name), as perf asks */
static bool in_text_section(Elf *elf, GElf_Word shndx)
{
	size_t strndx;
	GElf_Shdr sh;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &strndx))
		return false;
	name = elf_strptr(elf, strndx, sh.sh_name);
	return name && strstr(name, "text");
}

static bool is_mapping_symbol(GElf_Half machine, const char *name)
{
	if (machine != EM_ARM && machine != EM_AARCH64)
		return false;
	return name[0] == '$' && strchr("adtx", name[1]) && name[1] &&
	       (name[2] == '\0' || name[2] == '.');
}

/* perf's choice of ELF symbols: functions and objects, and labels in code */
static bool keep_symbol(const struct dso *d, const char *name, const GElf_Sym *sym,
			GElf_Word shndx, Elf *elf)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);

	if (!name || !name[0] || shndx == SHN_UNDEF || shndx == (GElf_Word)-1 ||
	    is_mapping_symbol(d->machine, name))
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	return type == STT_NOTYPE && shndx != SHN_ABS && vis != STV_HIDDEN &&
	       vis != STV_INTERNAL && in_text_section(elf, shndx);
}

static int build_table(struct dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	struct sym_entry e;
	GElf_Word shndx;
	GElf_Addr addr;
	Dwarf_Addr bias;
	const char *name;
	GElf_Sym sym;
	Elf *elf;

	d->tab_built = true;
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx, &elf, &bias);
		if (!keep_symbol(d, name, &sym, shndx, elf))
			continue;
		/* ARM marks Thumb functions with bit 0 of their address */
		if (d->machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			addr &= ~(GElf_Addr)1;
		e = (struct sym_entry){ .start = addr, .end = addr + sym.st_size, .name = name,
					.binding = GELF_ST_BIND(sym.st_info) == STB_WEAK ? SYM_WEAK :
					GELF_ST_BIND(sym.st_info) == STB_LOCAL ? SYM_LOCAL : SYM_GLOBAL };
		if (e.end < e.start)
			e.end = e.start;	/* a size running past the address space */
		if (symtab_add(&d->tab, &e))
			return SREP_E_NOMEM;
	}
	symtab_finish(&d->tab, false);
	return 0;
}

const struct sym_entry *dso_find(struct dso *d, uint64_t vaddr)
{
	if (!d->tab_built && build_table(d)) {
		symtab_free(&d->tab);
		return NULL;
	}
	return symtab_find(&d->tab, vaddr);
}

bool dso_symbol_value(struct dso *d, const char *name, uint64_t *value)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	const char *s;
	GElf_Sym sym;
	GElf_Addr addr;

	for (i = 1; i < n; i++) {
		s = dwfl_module_getsym_info(d->mod, i, &sym, &addr, NULL, NULL, NULL);
		if (s && !strcmp(s, name)) {
			*value = addr;
			return true;
		}
	}
	return false;
}

bool dso_srcline(struct dso *d, uint64_t vaddr, const char **file, int *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(d->mod, vaddr);

	*file = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL) : NULL;
	return *file != NULL;
}

const char *dso_path(const struct dso *d)
{
	return d->path;
}

const char *dso_debug_path(const struct dso *d)
{
	return d->debug_path ? d->debug_path : "";
}

size_t dso_nr_symbols(const struct dso *d)
{
	return d->tab.nr;
}

unsigned dso_machine(const struct dso *d)
{
	return d->machine;
}

/* ---- unwinding (perf's tools/perf/util/unwind-libdw.c, step for step) ---- */

struct unwinder {
	const struct dso_unwind_ops *ops;
	const struct dso_unwind_in *in;
	Dwfl *dwfl;
	uint64_t *pcs;
	size_t n, max;
};

/* the module at 'pc' in the Dwfl, reported at its run-time base when new */
static bool uw_report(struct unwinder *u, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);
	uint64_t base, off;
	const char *path;
	Dwarf_Addr start;

	if (!u->ops->module_at(u->ops->arg, pc, &path, &base, &off))
		return true;	/* nothing mapped there: perf 6.1 goes on */
	if (mod) {
		dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		if (start != base)
			mod = NULL;
	}
	if (!mod && path) {
		/* adding to a Dwfl already searched: libdwfl rebuilds its tables at the end */
		dwfl_report_begin_add(u->dwfl);
		mod = dwfl_report_elf(u->dwfl, path, path, -1, base, false);
		dwfl_report_end(u->dwfl, NULL, NULL);
	}
	return mod && dwfl_addrmodule(u->dwfl, pc) == mod;
}

/* an 8-byte word of the target (bytes.h does the byte order) */
static uint64_t target_word(const struct unwinder *u, const uint8_t *p)
{
	return srep_get64(p, u->in->big_endian != SREP_HOST_BIG_ENDIAN);
}

/* memory outside the stack copy: the mapped file's bytes (code, tables) */
static bool uw_file_read(struct unwinder *u, uint64_t addr, uint64_t *out)
{
	uint8_t buf[8];
	uint64_t base, off;
	const char *path;
	ssize_t n = -1;
	int fd;

	if (!u->ops->module_at(u->ops->arg, addr, &path, &base, &off) || !path)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && off <= INT64_MAX)
		n = pread(fd, buf, sizeof(buf), (off_t)off);
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(buf))
		return false;
	*out = target_word(u, buf);
	return true;
}

static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	uint64_t start = u->in->regs.sp, end = start + u->in->stack_size;

	(void)dwfl;
	/*
	 * perf reads a whole 8-byte word whatever the target's word size (on
	 * 32-bit ARM the next word comes along in the upper half); so do we,
	 * in the target's byte order, so that libdw unwinds as it did there.
	 */
	if (addr + 8 < addr)
		return false;
	if (addr < start || addr + 8 > end)
		return uw_file_read(u, addr, result);
	*result = target_word(u, u->in->stack + (addr - start));
	return true;
}

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;	/* one thread: the sample's */
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool uw_set_registers(Dwfl_Thread *thread, void *arg)
{
	const struct unwind_regs *r = &((struct unwinder *)arg)->in->regs;

	if (r->set_pc)
		dwfl_thread_state_register_pc(thread, r->pc);
	return dwfl_thread_state_registers(thread, 0, r->nr_dwarf, r->dwarf);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = uw_next_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_registers,
};

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	bool activation;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	uw_report(u, pc);	/* before asking whether it is an activation */
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;		/* a return address: the call is one byte before */
	if (!uw_report(u, pc))
		return DWARF_CB_ABORT;
	u->pcs[u->n++] = pc;
	return u->n == u->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static const Dwfl_Callbacks unwind_callbacks = {
	.find_elf = no_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

/* the pid libdwfl is told: every stack is one thread's, whichever it was */
#define UNWIND_TID 1

struct dso_unwinder {
	Dwfl *dwfl;
	bool attached;
	struct unwinder u;		/* the callbacks' argument: must not move */
};

struct dso_unwinder *dso_unwinder_new(const struct dso_unwind_ops *ops)
{
	struct dso_unwinder *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->u.ops = ops;
	w->dwfl = w->u.dwfl = dwfl_begin(&unwind_callbacks);
	if (!w->dwfl) {
		free(w);
		return NULL;
	}
	return w;
}

void dso_unwinder_free(struct dso_unwinder *w)
{
	if (!w)
		return;
	dwfl_end(w->dwfl);
	free(w);
}

size_t dso_unwind(struct dso_unwinder *w, const struct dso_unwind_in *in, uint64_t *pcs,
		  size_t max)
{
	struct unwinder *u = &w->u;

	u->in = in;
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	if (!max || !uw_report(u, in->regs.ip))
		return 0;
	/* the machine comes from the first module: attach once one is there */
	if (!w->attached)
		w->attached = dwfl_attach_state(w->dwfl, NULL, UNWIND_TID, &thread_callbacks, u);
	if (w->attached)
		dwfl_getthread_frames(w->dwfl, UNWIND_TID, uw_frame, u);
	return u->n;
}
