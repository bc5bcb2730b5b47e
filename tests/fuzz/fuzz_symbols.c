// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_symbols.c - libFuzzer target: the symbolizer's readers of the
 * target's files on hostile bytes: a kallsyms text, and an ELF file of any
 * architecture (symbol tables, program headers, build id, DWARF lines),
 * read through libdw. The first byte picks which; the rest is the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym_local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void kallsyms(const uint8_t *data, size_t size)
{
	struct kallsyms_table t;
	struct srep_error err;

	memset(&t, 0, sizeof(t));
	if (kallsyms_parse(&t, (const char *)data, size, &err) == 0)
		(void)symtab_find(&t.tab, t.ref_text + 64);
	kallsyms_free(&t);
}

static void elf(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-elf", 0);
	char path[64], why[128];
	uint8_t id[20];
	struct dso *d;
	const char *file;
	uint64_t va = 0, v;
	int line;

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		(void)dso_file_build_id(path, id, sizeof(id));
		d = dso_open(path, NULL, NULL, why, sizeof(why));
		if (d) {
			(void)dso_vaddr(d, 0x1000, &va);
			(void)dso_find(d, va);
			(void)dso_symbol_value(d, "_text", &v);
			(void)dso_srcline(d, va, &file, &line);
			(void)dso_nr_symbols(d);
			dso_free(d);
		}
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		elf(data + 1, size - 1);
	else
		kallsyms(data + 1, size - 1);
	return 0;
}
