// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symbolizer.c - the symbolizer object: the table of modules the trace
 * mapped and the files found for them, and the mappings kept current from
 * the events (symkernel.c: the kernel's symbols; resolve.c: the frames).
 *
 * Modules are looked for on first use, so a trace whose callchains never
 * touch a library never opens it. Each module is looked for once; what was
 * found (or why not) is kept and warned about once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym_local.h"
#include "symbolizer.h"
#include "grow.h"

#define KERNEL_NAME	"[kernel.kallsyms]"
#define SAMPLE_STACK_USER (1ull << 13)	/* perf's PERF_SAMPLE_STACK_USER */
#define PROT_EXEC_BIT	0x4

void symbolizer_warn(struct srep_symbolizer *sy, const char *path, const char *fmt, ...)
{
	const struct srep_open_opts *o = srep_session__open_opts(sy->s);
	struct srep_error w = { .code = SREP_E_SYMBOLS, .record_type = -1 };
	va_list ap;

	if (!o->diag)
		return;
	snprintf(w.path, sizeof(w.path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(w.msg, sizeof(w.msg), fmt, ap);
	va_end(ap);
	o->diag(o->diag_arg, &w);
}

/* ---- the module table ---- */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int rehash_dsos(struct srep_symbolizer *sy)
{
	size_t n = sy->nr_dso_slots ? sy->nr_dso_slots * 2 : 64, i, j;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return SREP_E_NOMEM;
	for (i = 0; i < sy->nr_dsos; i++) {
		for (j = name_hash(sy->dsos[i]->name) & (n - 1); slots[j]; j = (j + 1) & (n - 1))
			;
		slots[j] = (uint32_t)i + 1;
	}
	free(sy->dso_slots);
	sy->dso_slots = slots;
	sy->nr_dso_slots = n;
	return 0;
}

static int find_dso(const struct srep_symbolizer *sy, const char *name)
{
	size_t j;

	if (!sy->nr_dso_slots)
		return -1;
	for (j = name_hash(name) & (sy->nr_dso_slots - 1); sy->dso_slots[j];
	     j = (j + 1) & (sy->nr_dso_slots - 1)) {
		if (!strcmp(sy->dsos[sy->dso_slots[j] - 1]->name, name))
			return (int)sy->dso_slots[j] - 1;
	}
	return -1;
}

static int append_dso(struct srep_symbolizer *sy, struct sym_dso *d)
{
	struct sym_dso **n = grow_array(sy->dsos, &sy->cap_dsos, sy->nr_dsos, sizeof(*n), 16);
	size_t j;

	if (!n)
		return SREP_E_NOMEM;
	sy->dsos = n;
	sy->dsos[sy->nr_dsos++] = d;
	/* keep the slots at most half full; rehashing places the new one too */
	if (2 * sy->nr_dsos > sy->nr_dso_slots) {
		if (rehash_dsos(sy)) {
			sy->nr_dsos--;
			return SREP_E_NOMEM;
		}
		return 0;
	}
	for (j = name_hash(d->name) & (sy->nr_dso_slots - 1); sy->dso_slots[j];
	     j = (j + 1) & (sy->nr_dso_slots - 1))
		;
	sy->dso_slots[j] = (uint32_t)sy->nr_dsos;
	return 0;
}

/* the module named 'name', created on first sight; -1 on ENOMEM */
static int get_dso(struct srep_symbolizer *sy, const char *name, bool kernel)
{
	int idx = find_dso(sy, name);
	struct sym_dso *d;

	if (idx >= 0)
		return idx;
	if (sy->nr_dsos >= UINT32_MAX - 1)
		return -1;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return -1;
	}
	d->sy = sy;
	d->kernel = kernel;
	if (append_dso(sy, d)) {
		free(d->name);
		free(d);
		return -1;
	}
	return (int)sy->nr_dsos - 1;
}

static void free_dso(struct sym_dso *d)
{
	dso_free(d->elf);
	free(d->host_path);
	free(d->name);
	free(d);
}

/* the trace's build id of a module (BUILD_ID feature, HEADER_BUILD_ID records) */
void symbolizer_trace_build_id(struct srep_symbolizer *sy, struct sym_dso *d)
{
	size_t i;

	if (d->build_id_len)
		return;
	for (i = 0; i < srep_session__nr_build_ids(sy->s); i++) {
		const struct srep_build_id *b = srep_session__build_id(sy->s, i);

		if (b->filename && !strcmp(b->filename, d->name)) {
			d->build_id_len = b->size <= SYM_MAX_BUILD_ID ? b->size : SYM_MAX_BUILD_ID;
			memcpy(d->build_id, b->id, d->build_id_len);
			return;
		}
	}
}

static char *debug_finder(void *arg, const uint8_t *id, size_t len, const char *debuglink)
{
	struct sym_dso *d = arg;

	return symfind_debug(&d->sy->find, d->name, d->host_path, id, len, debuglink);
}

void symbolizer_warn_mismatch(struct srep_symbolizer *sy, struct sym_dso *d, const char *path)
{
	uint8_t got[SYM_MAX_BUILD_ID];
	char want_hex[2 * SYM_MAX_BUILD_ID + 1], got_hex[2 * SYM_MAX_BUILD_ID + 1];
	int n = dso_file_build_id(path, got, sizeof(got));

	symfind_hex(d->build_id, d->build_id_len, want_hex);
	symfind_hex(got, n > 0 ? (size_t)n : 0, got_hex);
	symbolizer_warn(sy, path, "build id %s differs from the trace's %s for '%s': not used",
		 got_hex, want_hex, d->name);
}

/* look for a user-space module's file once; afterwards d->state says what came of it */
void symbolizer_load_dso(struct srep_symbolizer *sy, struct sym_dso *d)
{
	char why[256], *mismatch = NULL;
	uint8_t id[SYM_MAX_BUILD_ID];
	size_t id_len;

	symbolizer_trace_build_id(sy, d);
	d->host_path = symfind_main(&sy->find, d->name, d->build_id, d->build_id_len, &mismatch,
				    id, &id_len);
	if (mismatch)
		symbolizer_warn_mismatch(sy, d, mismatch);
	free(mismatch);
	if (!d->host_path) {
		d->state = mismatch ? SREP_MODULE_MISMATCH : SREP_MODULE_MISSING;
		return;
	}
	d->elf = dso_open(d->host_path, debug_finder, d, why, sizeof(why));
	if (!d->elf) {
		d->state = SREP_MODULE_BAD;
		symbolizer_warn(sy, d->host_path, "not a usable ELF file for '%s': %s", d->name, why);
		return;
	}
	d->state = SREP_MODULE_FOUND;
}

/* ---- events ---- */

static int on_mmap(struct srep_symbolizer *sy, const struct srep_mmap *m)
{
	size_t klen = strlen(KERNEL_NAME);
	bool kernel = m->pid == -1 || !strncmp(m->filename, KERNEL_NAME, klen);
	int dso;

	if (!kernel && m->prot && !(m->prot & PROT_EXEC_BIT))
		return 0;	/* data: no code runs there */
	if (!strncmp(m->filename, KERNEL_NAME, klen)) {
		snprintf(sy->kernel_ref, sizeof(sy->kernel_ref), "%s", m->filename + klen);
		sy->kernel_ref_addr = m->pgoff;
		dso = SYM_KERNEL_DSO;
	} else {
		dso = get_dso(sy, m->filename, kernel);
		if (dso < 0)
			return SREP_E_NOMEM;
	}
	if (m->build_id_size && m->build_id_size <= SYM_MAX_BUILD_ID &&
	    !sy->dsos[dso]->build_id_len) {
		sy->dsos[dso]->build_id_len = m->build_id_size;
		memcpy(sy->dsos[dso]->build_id, m->build_id, m->build_id_size);
	}
	if (!kernel)
		unwind_forget(sy, m->pid);
	return maps_insert(&sy->maps, kernel ? -1 : m->pid, m->addr, m->len, m->pgoff,
			   (uint32_t)dso);
}

static void exec_clear(struct srep_symbolizer *sy, int32_t pid)
{
	unwind_forget(sy, pid);
	maps_clear(&sy->maps, pid);
}

int srep_symbolizer__observe(struct srep_symbolizer *sy, const struct srep_event *ev)
{
	const struct srep_fork *f = &ev->u.fork;

	/* --call-graph dwarf: user registers and stack in every sample (resolve.c unwinds) */
	if (ev->source != SREP_SRC_RECORD && ev->evsel >= 0 &&
	    (srep_session__evsel_sample_type(sy->s, (size_t)ev->evsel) & SAMPLE_STACK_USER))
		sy->stats.dwarf_stacks++;
	switch (ev->kind) {
	case SREP_EV_MMAP:
		return on_mmap(sy, &ev->u.mmap);
	case SREP_EV_FORK:
		if (f->parent_pid < 0 || f->child_pid < 0 || f->parent_pid == f->child_pid)
			return 0;
		unwind_forget(sy, f->child_pid);
		return maps_fork(&sy->maps, f->parent_pid, f->child_pid);
	case SREP_EV_EXEC:
		/* from the COMM record (the new image's MMAPs follow it); the
		   sched_process_exec tracepoint comes after them */
		if (ev->source == SREP_SRC_RECORD)
			exec_clear(sy, ev->u.exec.pid);
		return 0;
	case SREP_EV_COMM:
		if (ev->flags & SREP_EVF_EXEC_COMM)
			exec_clear(sy, ev->u.comm.pid);
		return 0;
	default:
		return 0;
	}
}

/* ---- the object ---- */

static int copy_opts(struct srep_symbolizer *sy, const struct srep_symbol_opts *o)
{
	const char *home = getenv("HOME");
	const char *bdir = o->buildid_dir;
	char *def = NULL;

	if (!bdir && home && *home && asprintf(&def, "%s/.debug", home) < 0)
		return SREP_E_NOMEM;
	sy->lines = o->lines;
	sy->symfs = o->symfs && o->symfs[0] ? strdup(o->symfs) : NULL;
	sy->buildid_dir = def ? def : bdir && bdir[0] ? strdup(bdir) : NULL;
	sy->kallsyms_path = o->kallsyms ? strdup(o->kallsyms) : NULL;
	sy->vmlinux_path = o->vmlinux ? strdup(o->vmlinux) : NULL;
	if ((o->symfs && o->symfs[0] && !sy->symfs) || (bdir && bdir[0] && !sy->buildid_dir) ||
	    (o->kallsyms && !sy->kallsyms_path) || (o->vmlinux && !sy->vmlinux_path))
		return SREP_E_NOMEM;
	sy->find.symfs = sy->symfs;
	sy->find.buildid_dir = sy->buildid_dir;
	return 0;
}

int srep_symbolizer__new(struct srep_symbolizer **out, struct srep_session *s,
			 const struct srep_symbol_opts *opts, struct srep_error *err)
{
	struct srep_symbolizer *sy = calloc(1, sizeof(*sy));
	static const struct srep_symbol_opts none;
	int ret;

	*out = NULL;
	if (!sy)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the symbolizer");
	sy->s = s;
	maps_init(&sy->maps);
	ret = copy_opts(sy, opts ? opts : &none);
	if (!ret && get_dso(sy, KERNEL_NAME, true) != SYM_KERNEL_DSO)
		ret = SREP_E_NOMEM;
	if (ret) {
		srep_symbolizer__delete(sy);
		return srep_error__set(err, ret, "no memory for the symbolizer");
	}
	ret = symkernel_check(sy, err);
	if (ret) {
		srep_symbolizer__delete(sy);
		return ret;
	}
	*out = sy;
	return 0;
}

void srep_symbolizer__delete(struct srep_symbolizer *sy)
{
	size_t i;

	if (!sy)
		return;
	/* the unwinders first: they hold pointers into the modules */
	unwind_forget(sy, -1);
	for (i = 0; i < sy->nr_dsos; i++)
		free_dso(sy->dsos[i]);
	free(sy->dsos);
	free(sy->dso_slots);
	maps_free(&sy->maps);
	kallsyms_free(&sy->ksyms);
	dso_free(sy->vmlinux);
	free(sy->cache);
	free(sy->raw);
	free(sy->symfs);
	free(sy->buildid_dir);
	free(sy->kallsyms_path);
	free(sy->vmlinux_path);
	free(sy);
}

const struct srep_symbol_stats *srep_symbolizer__stats(const struct srep_symbolizer *sy)
{
	return &sy->stats;
}

size_t srep_symbolizer__nr_modules(const struct srep_symbolizer *sy)
{
	return sy->nr_dsos;
}

int srep_symbolizer__module(const struct srep_symbolizer *sy, size_t idx,
			    struct srep_module_info *out)
{
	const struct sym_dso *d;

	if (idx >= sy->nr_dsos)
		return SREP_E_INVAL;
	d = sy->dsos[idx];
	memset(out, 0, sizeof(*out));
	out->name = d->name;
	out->state = d->state;
	out->frames = d->frames;
	out->resolved = d->resolved;
	symfind_hex(d->build_id, d->build_id_len, out->build_id);
	if (idx == SYM_KERNEL_DSO) {
		out->path = sy->kernel_source;
	} else if (d->elf) {
		out->path = dso_path(d->elf);
		out->debug_path = dso_debug_path(d->elf)[0] ? dso_debug_path(d->elf) : NULL;
	}
	return 0;
}
