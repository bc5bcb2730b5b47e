// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symkernel.c - the kernel's symbols: --vmlinux, else kallsyms (--kallsyms,
 * else the trace's tracing data, else the build-id cache), loaded when the
 * first kernel frame needs them: a trace without callchains never pays for
 * a 100,000-line kallsyms. What is loaded is checked against the trace:
 * a vmlinux must carry the kernel's build id; the kernel map's record names
 * the symbol perf relocated against ("[kernel.kallsyms]_text") and carries
 * its run-time address as pgoff, so a kallsyms that puts that symbol
 * elsewhere is from another boot (KASLR) or kernel and is not used, and a
 * vmlinux is relocated by the difference.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbolizer.h"

#define KERNEL_NAME	"[kernel.kallsyms]"

int symkernel_check(struct srep_symbolizer *sy, struct srep_error *err)
{
	uint8_t id[SYM_MAX_BUILD_ID];
	struct stat st;

	if (sy->kallsyms_path && stat(sy->kallsyms_path, &st))
		return srep_error__set(err, SREP_E_IO, "kallsyms '%s': %s", sy->kallsyms_path,
				       strerror(errno));
	if (sy->kallsyms_path && !S_ISREG(st.st_mode))
		return srep_error__set(err, SREP_E_IO, "kallsyms '%s': not a regular file",
				       sy->kallsyms_path);
	if (sy->vmlinux_path && dso_file_build_id(sy->vmlinux_path, id, sizeof(id)) < 0)
		return srep_error__set(err, SREP_E_IO, "vmlinux '%s': cannot read it as ELF",
				       sy->vmlinux_path);
	return 0;
}

static void open_vmlinux(struct srep_symbolizer *sy)
{
	struct sym_dso *k = sy->dsos[SYM_KERNEL_DSO];
	uint8_t id[SYM_MAX_BUILD_ID];
	char why[256];
	int n = dso_file_build_id(sy->vmlinux_path, id, sizeof(id));

	if (n > 0 && k->build_id_len && ((size_t)n != k->build_id_len ||
					 memcmp(id, k->build_id, k->build_id_len))) {
		symbolizer_warn_mismatch(sy, k, sy->vmlinux_path);
		k->state = SREP_MODULE_MISMATCH;
		return;
	}
	sy->vmlinux = dso_open(sy->vmlinux_path, NULL, NULL, why, sizeof(why));
	if (!sy->vmlinux)
		symbolizer_warn(sy, sy->vmlinux_path, "not a usable kernel image: %s", why);
}

static void load_kallsyms(struct srep_symbolizer *sy)
{
	struct sym_dso *k = sy->dsos[SYM_KERNEL_DSO];
	struct srep_error err = { 0 };
	char *cached = NULL;
	const char *text;
	size_t len;
	int ret;

	if (sy->kallsyms_path) {
		ret = kallsyms_load(&sy->ksyms, sy->kallsyms_path, &err);
		sy->kernel_source = sy->kallsyms_path;
	} else if ((text = srep_session__tracing_kallsyms(sy->s, &len))) {
		ret = kallsyms_parse(&sy->ksyms, text, len, &err);
		sy->kernel_source = "the trace's tracing data";
	} else {
		cached = symfind_cached(&sy->find, KERNEL_NAME, k->build_id, k->build_id_len,
					"kallsyms");
		if (!cached)
			return;
		ret = kallsyms_load(&sy->ksyms, cached, &err);
		sy->kernel_source = "the build-id cache";
	}
	if (ret)
		symbolizer_warn(sy, cached, "kallsyms not used: %s", err.msg);
	sy->have_ksyms = !ret && sy->ksyms.tab.nr;
	free(cached);
}

static void check_ref(struct srep_symbolizer *sy)
{
	const char *ref = sy->kernel_ref;
	uint64_t want = 0, value;

	if (!sy->kernel_ref_addr)
		return;
	if (!strcmp(ref, "_text"))
		want = sy->ksyms.ref_text;
	else if (!strcmp(ref, "_stext"))
		want = sy->ksyms.ref_stext;
	if (sy->have_ksyms && want && want != sy->kernel_ref_addr) {
		symbolizer_warn(sy, sy->kallsyms_path, "kallsyms has %s at 0x%llx, the trace at 0x%llx: "
			 "from another boot or kernel, not used", ref, (unsigned long long)want,
			 (unsigned long long)sy->kernel_ref_addr);
		kallsyms_free(&sy->ksyms);
		sy->have_ksyms = false;
		sy->dsos[SYM_KERNEL_DSO]->state = SREP_MODULE_MISMATCH;
	}
	if (sy->vmlinux && ref[0] && dso_symbol_value(sy->vmlinux, ref, &value))
		sy->vmlinux_reloc = sy->kernel_ref_addr - value;
}

void symkernel_load(struct srep_symbolizer *sy)
{
	struct sym_dso *k = sy->dsos[SYM_KERNEL_DSO];

	sy->kernel_loaded = true;
	symbolizer_trace_build_id(sy, k);
	if (sy->vmlinux_path)
		open_vmlinux(sy);
	load_kallsyms(sy);
	check_ref(sy);
	if (sy->vmlinux)
		sy->kernel_source = dso_path(sy->vmlinux);
	else if (!sy->have_ksyms)
		sy->kernel_source = NULL;
	if (sy->vmlinux || sy->have_ksyms)
		k->state = SREP_MODULE_FOUND;
	else if (k->state != SREP_MODULE_MISMATCH)
		k->state = SREP_MODULE_MISSING;
}
