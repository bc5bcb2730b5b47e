// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fixture_formats.c - the tracepoint formats of the fixture writer and the
 * tracing data blob (FORMATS.md A.10) that carries them.
 *
 * Each tracepoint is a list of C declarations as the kernel's format file
 * shows them; offsets, sizes and signedness are computed from the word size
 * and the architecture's char signedness, the way the compiler laid out the
 * kernel's struct. So the format text and the payload encoder cannot
 * disagree, and the generated texts are byte-identical to real ones: the
 * 6.1 texts to the blobs of corpus/emulated/{x86_64,s390x,armhf}-messaging
 * (Debian 12 kernels), the 6.18 texts to /sys/kernel/tracing of the machine
 * this was written on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "fixture.h"

#define K61	(1u << FIXTURE_KERNEL_6_1)
#define K618	(1u << FIXTURE_KERNEL_6_18)

enum { ID_X86_64, ID_S390X, ID_ARMHF, ID_618, NR_ID_SETS };

struct tp_def {
	const char *system, *name;
	unsigned kernels;		/* K61 | K618 */
	/*
	 * IDs of the kernels the texts come from. 6.1 sched: seen in the
	 * corpus, or (wakeup, free, exit, exec, stat_blocked) derived from the
	 * kernel assigning them in definition order; 6.1 power: made up.
	 */
	uint16_t id[NR_ID_SETS];
	const char *const *fields;	/* declarations after the common fields */
	const char *print_fmt;
};

static const char *const wakeup_fields[] = {
	"char comm[16]", "pid_t pid", "int prio", "int target_cpu", NULL };
static const char *const switch_fields[] = {
	"char prev_comm[16]", "pid_t prev_pid", "int prev_prio", "long prev_state",
	"char next_comm[16]", "pid_t next_pid", "int next_prio", NULL };
static const char *const migrate_fields[] = {
	"char comm[16]", "pid_t pid", "int prio", "int orig_cpu", "int dest_cpu", NULL };
static const char *const migrate_fields_618[] = {
	"__data_loc char[] comm", "pid_t pid", "int prio", "int orig_cpu", "int dest_cpu", NULL };
static const char *const task_fields[] = {	/* sched_process_free, _exit (6.1) */
	"char comm[16]", "pid_t pid", "int prio", NULL };
static const char *const free_fields_618[] = {
	"__data_loc char[] comm", "pid_t pid", "int prio", NULL };
static const char *const exit_fields_618[] = {
	"char comm[16]", "pid_t pid", "int prio", "bool group_dead", NULL };
static const char *const fork_fields[] = {
	"char parent_comm[16]", "pid_t parent_pid", "char child_comm[16]", "pid_t child_pid",
	NULL };
static const char *const fork_fields_618[] = {
	"__data_loc char[] parent_comm", "pid_t parent_pid", "__data_loc char[] child_comm",
	"pid_t child_pid", NULL };
static const char *const exec_fields[] = {
	"__data_loc char[] filename", "pid_t pid", "pid_t old_pid", NULL };
static const char *const delay_fields[] = {
	"char comm[16]", "pid_t pid", "u64 delay", NULL };
static const char *const runtime_fields[] = {
	"char comm[16]", "pid_t pid", "u64 runtime", "u64 vruntime", NULL };
static const char *const runtime_fields_618[] = {
	"__data_loc char[] comm", "pid_t pid", "u64 runtime", NULL };
static const char *const cpu_fields[] = { "u32 state", "u32 cpu_id", NULL };

#define WAKEUP_FMT "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu"
#define SWITCH_MASK "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"
#define SWITCH_FMT "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> " \
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, " \
	"REC->prev_prio, (REC->prev_state & " SWITCH_MASK ") ? __print_flags(REC->prev_state & " \
	SWITCH_MASK ", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, " \
	"\"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, " \
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & " \
	"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | " \
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, " \
	"REC->next_prio"
#define MIGRATE_ARGS "REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu"
#define MIGRATE_FMT "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", "
#define TASK_FMT "\"comm=%s pid=%d prio=%d\", "
#define FORK_FMT "\"comm=%s pid=%d child_comm=%s child_pid=%d\", "
#define DELAY_FMT "\"comm=%s pid=%d delay=%Lu [ns]\", REC->comm, REC->pid, " \
	"(unsigned long long)REC->delay"
#define CPU_FMT "\"state=%lu cpu_id=%lu\", (unsigned long)REC->state, " \
	"(unsigned long)REC->cpu_id"

static const struct tp_def tps[] = {
	{ "sched", "sched_waking", K61 | K618, { 322, 255, 245, 375 }, wakeup_fields, WAKEUP_FMT },
	{ "sched", "sched_wakeup", K61 | K618, { 321, 254, 244, 374 }, wakeup_fields, WAKEUP_FMT },
	{ "sched", "sched_wakeup_new", K61 | K618, { 320, 253, 243, 373 }, wakeup_fields,
	  WAKEUP_FMT },
	{ "sched", "sched_switch", K61 | K618, { 319, 252, 242, 372 }, switch_fields, SWITCH_FMT },
	{ "sched", "sched_migrate_task", K61, { 318, 251, 241, 0 }, migrate_fields,
	  MIGRATE_FMT "REC->comm, " MIGRATE_ARGS },
	{ "sched", "sched_migrate_task", K618, { 0, 0, 0, 371 }, migrate_fields_618,
	  MIGRATE_FMT "__get_str(comm), " MIGRATE_ARGS },
	{ "sched", "sched_process_free", K61, { 317, 250, 240, 0 }, task_fields,
	  TASK_FMT "REC->comm, REC->pid, REC->prio" },
	{ "sched", "sched_process_free", K618, { 0, 0, 0, 370 }, free_fields_618,
	  TASK_FMT "__get_str(comm), REC->pid, REC->prio" },
	{ "sched", "sched_process_exit", K61, { 316, 249, 239, 0 }, task_fields,
	  TASK_FMT "REC->comm, REC->pid, REC->prio" },
	{ "sched", "sched_process_exit", K618, { 0, 0, 0, 369 }, exit_fields_618,
	  "\"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, "
	  "REC->group_dead ? \"true\" : \"false\"" },
	{ "sched", "sched_process_fork", K61, { 313, 246, 236, 0 }, fork_fields,
	  FORK_FMT "REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid" },
	{ "sched", "sched_process_fork", K618, { 0, 0, 0, 366 }, fork_fields_618,
	  FORK_FMT "__get_str(parent_comm), REC->parent_pid, __get_str(child_comm), "
	  "REC->child_pid" },
	{ "sched", "sched_process_exec", K61 | K618, { 312, 245, 235, 365 }, exec_fields,
	  "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid" },
	{ "sched", "sched_stat_wait", K61, { 311, 244, 234, 0 }, delay_fields, DELAY_FMT },
	{ "sched", "sched_stat_sleep", K61, { 310, 243, 233, 0 }, delay_fields, DELAY_FMT },
	{ "sched", "sched_stat_iowait", K61, { 309, 242, 232, 0 }, delay_fields, DELAY_FMT },
	{ "sched", "sched_stat_blocked", K61, { 308, 241, 231, 0 }, delay_fields, DELAY_FMT },
	{ "sched", "sched_stat_runtime", K61, { 307, 240, 230, 0 }, runtime_fields,
	  "\"comm=%s pid=%d runtime=%Lu [ns] vruntime=%Lu [ns]\", REC->comm, REC->pid, "
	  "(unsigned long long)REC->runtime, (unsigned long long)REC->vruntime" },
	{ "sched", "sched_stat_runtime", K618, { 0, 0, 0, 363 }, runtime_fields_618,
	  "\"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(comm), REC->pid, "
	  "(unsigned long long)REC->runtime" },
	{ "power", "cpu_idle", K61 | K618, { 477, 477, 477, 568 }, cpu_fields, CPU_FMT },
	{ "power", "cpu_frequency", K61 | K618, { 474, 474, 474, 565 }, cpu_fields, CPU_FMT },
};

#define NR_TPS ((int)(sizeof(tps) / sizeof(tps[0])))

void fx_flavour_init(struct fx_flavour *fl, const struct fixture_opts *o)
{
	fl->big_endian = o->big_endian;
	fl->long_size = o->word_size == 4 ? 4 : 8;
	fl->kernel = o->kernel;
	fl->kallsyms = o->kallsyms;
	/* char became unsigned on every arch in 6.2; in 6.1 x86 alone has signed char */
	fl->char_signed = o->kernel == FIXTURE_KERNEL_6_1 && !o->big_endian &&
			  fl->long_size == 8;
	if (o->kernel == FIXTURE_KERNEL_6_18)
		fl->id_set = ID_618;
	else if (fl->long_size == 4)
		fl->id_set = ID_ARMHF;
	else
		fl->id_set = o->big_endian ? ID_S390X : ID_X86_64;
}

int fx_tp_count(void)
{
	return NR_TPS;
}

int fx_tp_find(const struct fx_flavour *fl, const char *system, const char *name)
{
	for (int i = 0; i < NR_TPS; i++) {
		if (!(tps[i].kernels & (1u << fl->kernel)))
			continue;
		if (!strcmp(tps[i].system, system) && !strcmp(tps[i].name, name))
			return i;
	}
	return -1;
}

const char *fx_tp_system(int tp)
{
	return tps[tp].system;
}

const char *fx_tp_name(int tp)
{
	return tps[tp].name;
}

uint16_t fx_tp_id_of(const struct fx_flavour *fl, int tp)
{
	return tps[tp].id[fl->id_set];
}

/* ---- field layout ---- */

struct field_pos {
	char name[32];
	uint32_t offset, size, align;
	bool is_signed, data_loc, is_char;
};

/* size, alignment and signedness of one declaration, as the compiler sees it */
static void decl_parse(const struct fx_flavour *fl, const char *decl, struct field_pos *f)
{
	static const struct { const char *type; uint32_t size; bool sign; } ints[] = {
		{ "pid_t ", 4, true }, { "int ", 4, true }, { "u64 ", 8, false },
		{ "u32 ", 4, false }, { "bool ", 1, false }, { "long ", 0, true },
	};
	const char *name = strrchr(decl, ' ') + 1;
	size_t n = strcspn(name, "[");

	memset(f, 0, sizeof(*f));
	memcpy(f->name, name, n < sizeof(f->name) ? n : sizeof(f->name) - 1);
	if (!strncmp(decl, "__data_loc ", 11)) {
		f->size = f->align = 4;
		f->data_loc = true;
		f->is_signed = fl->char_signed;
		return;
	}
	if (!strncmp(decl, "char ", 5)) {
		f->size = (uint32_t)atoi(name + n + 1);
		f->align = 1;
		f->is_char = true;
		f->is_signed = fl->char_signed;
		return;
	}
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (strncmp(decl, ints[i].type, strlen(ints[i].type)))
			continue;
		f->size = f->align = ints[i].size ? ints[i].size : (uint32_t)fl->long_size;
		f->is_signed = ints[i].sign;
		return;
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * Walk the fields of 'tp' laying them out; stop at 'want' (by name) and
 * return 0, or -1 when absent. Without 'want', *f describes the end:
 * f->offset = offsetof(__data), f->size = sizeof(struct).
 */
static int tp_layout(const struct fx_flavour *fl, int tp, const char *want, struct field_pos *f)
{
	uint32_t off = 8, max_align = 4;	/* struct trace_entry: 8 bytes, int-aligned */

	for (const char *const *d = tps[tp].fields; *d; d++) {
		decl_parse(fl, *d, f);
		off = align_up(off, f->align);
		f->offset = off;
		if (want && !strcmp(f->name, want))
			return 0;
		off += f->size;
		if (f->align > max_align)
			max_align = f->align;
	}
	if (want)
		return -1;
	f->offset = off;
	f->size = align_up(off, max_align);
	return 0;
}

/* ---- payloads ---- */

static void put_uint(const struct fx_flavour *fl, uint8_t *p, uint32_t size, uint64_t v)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: srep_put16(p, (uint16_t)v, fl->big_endian); break;
	case 4: srep_put32(p, (uint32_t)v, fl->big_endian); break;
	case 8: srep_put64(p, v, fl->big_endian); break;
	}
}

void fx_raw_init(struct fx_raw *r, const struct fx_flavour *fl, int tp, int32_t common_pid)
{
	struct field_pos end;

	memset(r, 0, sizeof(*r));
	r->fl = fl;
	r->tp = tp;
	tp_layout(fl, tp, NULL, &end);
	r->fixed = end.offset;
	r->struct_size = end.size;
	put_uint(fl, r->data, 2, fx_tp_id_of(fl, tp));		/* common_type */
	put_uint(fl, r->data + 4, 4, (uint32_t)common_pid);	/* common_pid */
}

int fx_raw_int(struct fx_raw *r, const char *field, int64_t v)
{
	struct field_pos f;

	if (r->failed)
		return -1;
	if (tp_layout(r->fl, r->tp, field, &f) < 0)
		return 0;		/* this kernel has no such field */
	if (f.data_loc || f.is_char) {
		r->failed = true;
		return -1;
	}
	put_uint(r->fl, r->data + f.offset, f.size, (uint64_t)v);
	return 0;
}

/* char[N] fields get the string NUL-padded; __data_loc ones a {offset, len} word */
int fx_raw_str(struct fx_raw *r, const char *field, const char *s)
{
	struct field_pos f;
	size_t n = strlen(s);

	if (r->failed)
		return -1;
	if (tp_layout(r->fl, r->tp, field, &f) < 0)
		return 0;
	if (f.is_char) {
		memcpy(r->data + f.offset, s, n < f.size ? n : f.size - 1);
		return 0;
	}
	uint32_t at = r->fixed + r->dyn;
	if (!f.data_loc || n + 1 > 0xffff || r->struct_size + r->dyn + n + 1 > sizeof(r->data)) {
		r->failed = true;
		return -1;
	}
	memcpy(r->data + at, s, n + 1);
	r->dyn += (uint32_t)n + 1;
	put_uint(r->fl, r->data + f.offset, 4, (uint32_t)(n + 1) << 16 | at);
	return 0;
}

/* ---- format texts ---- */

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static int header_page(const struct fx_flavour *fl, char *buf, size_t size)
{
	int ls = fl->long_size;

	return snprintf(buf, size,
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
		ls, 8 + ls, 4096 - 8 - ls, fl->char_signed);
}

static void text_field(struct fx_buf *b, const char *decl, const struct field_pos *f)
{
	char line[160];

	snprintf(line, sizeof(line), "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
		 decl, f->offset, f->size, f->is_signed);
	fxb_bytes(b, line, strlen(line));
}

/* the text of /sys/kernel/tracing/events/SYSTEM/NAME/format */
static void format_text(const struct fx_flavour *fl, int tp, struct fx_buf *b)
{
	static const char common[] =
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
	char head[96];
	struct field_pos f;

	snprintf(head, sizeof(head), "name: %s\nID: %u\n", tps[tp].name, fx_tp_id_of(fl, tp));
	fxb_bytes(b, head, strlen(head));
	fxb_bytes(b, common, strlen(common));
	for (const char *const *d = tps[tp].fields; *d; d++) {
		const char *name = strrchr(*d, ' ') + 1;
		char want[32];

		snprintf(want, sizeof(want), "%.*s", (int)strcspn(name, "["), name);
		tp_layout(fl, tp, want, &f);
		text_field(b, *d, &f);
	}
	fxb_bytes(b, "\nprint fmt: ", 12);
	fxb_bytes(b, tps[tp].print_fmt, strlen(tps[tp].print_fmt));
	fxb_bytes(b, "\n", 1);
}

/* ---- the blob ---- */

static void blob_text(struct fx_buf *b, const char *tag, const void *text, size_t len)
{
	if (tag)
		fxb_cstr(b, tag);
	fxb_u64(b, len);
	fxb_bytes(b, text, len);
}

static void blob_header(const struct fx_flavour *fl, struct fx_buf *b)
{
	char page[256];
	int n = header_page(fl, page, sizeof(page));

	fxb_bytes(b, "\x17\x08\x44tracing", 10);
	fxb_cstr(b, "0.6");
	fxb_u8(b, fl->big_endian);
	fxb_u8(b, (uint8_t)fl->long_size);
	fxb_u32(b, 4096);				/* page size */
	blob_text(b, "header_page", page, (size_t)n);
	blob_text(b, "header_event", header_event, strlen(header_event));
	fxb_u32(b, 0);					/* ftrace formats: none */
}

/* one system: its name, then the formats of tps[] entries in it, in list order */
static void blob_system(const struct fx_flavour *fl, struct fx_buf *b, const char *system,
			const int *list, size_t nr)
{
	uint32_t count = 0;

	for (size_t i = 0; i < nr; i++)
		count += !strcmp(tps[list[i]].system, system);
	fxb_cstr(b, system);
	fxb_u32(b, count);
	for (size_t i = 0; i < nr; i++) {
		struct fx_buf text = { .be = fl->big_endian };

		if (strcmp(tps[list[i]].system, system))
			continue;
		format_text(fl, list[i], &text);
		b->failed |= text.failed;
		blob_text(b, NULL, text.p, text.len);
		free(text.p);
	}
}

uint8_t *fx_tracing_blob(const struct fx_flavour *fl, const int *list, size_t nr, size_t *len)
{
	struct fx_buf b = { .be = fl->big_endian };
	const char *systems[8];
	size_t nr_sys = 0;

	for (size_t i = 0; i < nr; i++) {	/* systems in order of first use */
		size_t s = 0;

		while (s < nr_sys && strcmp(systems[s], tps[list[i]].system))
			s++;
		if (s == nr_sys && nr_sys < 8)
			systems[nr_sys++] = tps[list[i]].system;
	}
	blob_header(fl, &b);
	fxb_u32(&b, (uint32_t)nr_sys);
	for (size_t s = 0; s < nr_sys; s++)
		blob_system(fl, &b, systems[s], list, nr);
	/* kallsyms: modern perf writes none */
	fxb_u32(&b, fl->kallsyms ? (uint32_t)strlen(fl->kallsyms) : 0);
	if (fl->kallsyms)
		fxb_bytes(&b, fl->kallsyms, strlen(fl->kallsyms));
	fxb_u32(&b, 0);		/* printk formats */
	fxb_u64(&b, 0);		/* saved_cmdlines (version 0.6) */
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

uint8_t *fixture_tracing_data(const struct fixture_opts *opts, size_t *len)
{
	struct fx_flavour fl;
	int list[NR_TPS];
	size_t nr = 0;

	fx_flavour_init(&fl, opts);
	for (int i = 0; i < NR_TPS; i++)
		if (tps[i].kernels & (1u << fl.kernel))
			list[nr++] = i;
	return fx_tracing_blob(&fl, list, nr, len);
}

int fixture_tp_id(const struct fixture_opts *opts, const char *system, const char *name)
{
	struct fx_flavour fl;
	int tp;

	fx_flavour_init(&fl, opts);
	tp = fx_tp_find(&fl, system, name);
	return tp < 0 ? -1 : fx_tp_id_of(&fl, tp);
}
