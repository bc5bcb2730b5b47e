// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * criu_images.c - write one CRIU image set: inventory.img, pstree.img and
 * one core-<tid>.img per thread. The only caller of protobuf-c, the library
 * CRIU itself uses; the messages are formats/criu.proto.
 *
 * Framing (../shared/FORMATS.md B.1): a head magic (none for inventory.img),
 * the image magic, then for each entry its size and the packed message. CRIU
 * writes these u32 in the byte order of the machine that dumps and crit
 * reads them in the order of the machine it runs on, so they are written in
 * this host's order whatever the trace's: the images are for the tools
 * here. Protobuf payloads have no byte order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "criu.pb-c.h"
#include "criu_local.h"

#define IMG_COMMON_MAGIC	0x54564319u
#define INVENTORY_MAGIC		0x58313116u
#define PSTREE_MAGIC		0x50273030u
#define CORE_MAGIC		0x55053847u
/* inventory_entry.img_version: images carry the head magic (CRTOOLS_IMAGES_V1_1) */
#define IMG_VERSION		2
#define SCHED_OTHER_POLICY	0
#define SCHED_FIFO_POLICY	1
#define PATH_LEN		4096

/* perf's arch (uname -m of the recording machine) -> core_entry.mtype */
int criu_march(const char *arch)
{
	static const struct { const char *prefix; int march; } map[] = {
		{ "x86_64", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "amd64", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		/* CRIU keeps 32-bit x86 tasks as X86_64 with compat registers */
		{ "i386", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "i486", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "i586", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "i686", SREP_CRIU__CORE_ENTRY__MARCH__X86_64 },
		{ "aarch64", SREP_CRIU__CORE_ENTRY__MARCH__AARCH64 },
		{ "arm64", SREP_CRIU__CORE_ENTRY__MARCH__AARCH64 },
		{ "arm", SREP_CRIU__CORE_ENTRY__MARCH__ARM },
		{ "ppc64", SREP_CRIU__CORE_ENTRY__MARCH__PPC64 },
		{ "s390", SREP_CRIU__CORE_ENTRY__MARCH__S390 },
		{ "mips", SREP_CRIU__CORE_ENTRY__MARCH__MIPS },
		{ "loongarch64", SREP_CRIU__CORE_ENTRY__MARCH__LOONGARCH64 },
		{ "riscv64", SREP_CRIU__CORE_ENTRY__MARCH__RISCV64 },
	};
	size_t i;

	for (i = 0; arch && i < sizeof(map) / sizeof(map[0]); i++) {
		if (!strncmp(arch, map[i].prefix, strlen(map[i].prefix)))
			return map[i].march;
	}
	return SREP_CRIU__CORE_ENTRY__MARCH__UNKNOWN;
}

const char *criu_march_name(int march)
{
	const ProtobufCEnumValue *v =
		protobuf_c_enum_descriptor_get_value(&srep_criu__core_entry__march__descriptor, march);

	return v ? v->name : "UNKNOWN";
}

const char *criu_state_name(int state)
{
	switch (state) {
	case CRIU_TASK_ALIVE:	return "alive";
	case CRIU_TASK_DEAD:	return "dead";
	case CRIU_TASK_STOPPED:	return "stopped";
	case CRIU_TASK_ZOMBIE:	return "zombie";
	default:		return "unknown";
	}
}

/* ---- framing ---- */

struct img {
	FILE *f;
	char path[PATH_LEN];
};

static int img_fail(struct img *im, struct srep_error *err, const char *what)
{
	int e = errno;

	if (im->f)
		fclose(im->f);
	im->f = NULL;
	srep_error__set(err, SREP_E_IO, "%s '%s': %s", what, im->path, strerror(e));
	return SREP_E_IO;
}

static int put32(struct img *im, uint32_t v, struct srep_error *err)
{
	/* images are in the byte order of the machine whose crit reads them: this one */
	return fwrite(&v, 1, sizeof(v), im->f) == sizeof(v) ? 0 : img_fail(im, err, "cannot write");
}

static int img_open(struct img *im, const char *dir, const char *name, uint32_t magic,
		    struct srep_error *err)
{
	int ret;

	snprintf(im->path, sizeof(im->path), "%s/%s", dir, name);
	im->f = fopen(im->path, "wb");
	if (!im->f)
		return img_fail(im, err, "cannot create");
	/* inventory.img alone starts with its own magic (FORMATS.md B.1) */
	if (magic != INVENTORY_MAGIC && (ret = put32(im, IMG_COMMON_MAGIC, err)))
		return ret;
	return put32(im, magic, err);
}

static int img_entry(struct img *im, const ProtobufCMessage *msg, struct srep_error *err)
{
	size_t len = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf;
	int ret;

	/* crit reads the size as a signed 32-bit number */
	if (len > INT32_MAX)
		return srep_error__set(err, SREP_E_LIMIT, "'%s': entry of %zu bytes", im->path, len);
	buf = malloc(len ? len : 1);
	if (!buf)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for an image entry");
	protobuf_c_message_pack(msg, buf);
	ret = put32(im, (uint32_t)len, err);
	if (!ret && fwrite(buf, 1, len, im->f) != len)
		ret = img_fail(im, err, "cannot write");
	free(buf);
	return ret;
}

static int img_close(struct img *im, struct srep_error *err)
{
	FILE *f = im->f;

	im->f = NULL;
	if (fclose(f))
		return img_fail(im, err, "cannot write");
	return 0;
}

/* ---- the images ---- */

static int write_inventory(const char *dir, struct srep_error *err)
{
	SrepCriu__InventoryEntry inv = SREP_CRIU__INVENTORY_ENTRY__INIT;
	struct img im = { 0 };
	int ret;

	inv.img_version = IMG_VERSION;
	inv.has_fdinfo_per_id = inv.fdinfo_per_id = 1;	/* as CRIU writes today */
	inv.has_ns_per_id = inv.ns_per_id = 1;
	ret = img_open(&im, dir, "inventory.img", INVENTORY_MAGIC, err);
	if (!ret)
		ret = img_entry(&im, &inv.base, err);
	return ret ? ret : img_close(&im, err);
}

/* the leader's tid, then the others: CRIU lists the leader in threads too */
static uint32_t *thread_list(const struct criu_state *st, const struct criu_proc *p, size_t *n)
{
	uint32_t *v = malloc((p->nr + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	*n = 0;
	if (p->leader == CRIU_NONE)
		v[(*n)++] = (uint32_t)p->pid;
	for (i = 0; i < p->nr; i++)
		v[(*n)++] = (uint32_t)srep_task__tid(st->tasks[st->snap.threads[p->first + i]].t);
	return v;
}

static int write_pstree(const struct criu_state *st, const char *dir, struct srep_error *err)
{
	const struct criu_snapshot *snap = &st->snap;
	struct img im = { 0 };
	size_t i;
	int ret;

	ret = img_open(&im, dir, "pstree.img", PSTREE_MAGIC, err);
	for (i = 0; !ret && i < snap->nr_procs; i++) {
		const struct criu_proc *p = &snap->procs[snap->order[i]];
		SrepCriu__PstreeEntry e = SREP_CRIU__PSTREE_ENTRY__INIT;

		/* the trace knows no sessions or groups: each process leads its own */
		e.pid = e.pgid = e.sid = (uint32_t)p->pid;
		e.ppid = (uint32_t)p->ppid;
		e.threads = thread_list(st, p, &e.n_threads);
		if (!e.threads) {
			fclose(im.f);
			return srep_error__set(err, SREP_E_NOMEM, "no memory for a thread list");
		}
		ret = img_entry(&im, &e.base, err);
		free(e.threads);
	}
	return ret ? ret : img_close(&im, err);
}

/* kernel prio -> policy and priority: 100..139 is the fair class (nice = prio - 120), below real time */
static void set_sched(SrepCriu__ThreadCoreEntry *th, int32_t prio)
{
	if (prio >= 100 && prio <= 139) {
		th->has_sched_policy = th->has_sched_nice = th->has_sched_prio = 1;
		th->sched_policy = SCHED_OTHER_POLICY;
		th->sched_nice = prio - 120;
		th->sched_prio = 0;
	} else if (prio >= 0 && prio < 99) {
		th->has_sched_policy = th->has_sched_prio = 1;
		th->sched_policy = SCHED_FIFO_POLICY;
		th->sched_prio = (uint32_t)(99 - prio);
	}
}

/* one core-<tid>.img; 'ct' NULL for a made-up leader or root */
static int write_core(const struct criu_state *st, const char *dir, int32_t tid,
		      const struct criu_task *ct, const char *comm, struct srep_error *err)
{
	SrepCriu__CoreEntry core = SREP_CRIU__CORE_ENTRY__INIT;
	SrepCriu__TaskCoreEntry tc = SREP_CRIU__TASK_CORE_ENTRY__INIT;
	SrepCriu__ThreadCoreEntry th = SREP_CRIU__THREAD_CORE_ENTRY__INIT;
	char name[32], clean[SREP_COMM_MAX * 2];
	struct img im = { 0 };
	int ret;

	criu_utf8_clean(comm, clean, sizeof(clean));
	core.mtype = (SrepCriu__CoreEntry__March)st->march;
	core.tc = &tc;
	core.thread_core = &th;
	/* exit_code, personality, flags, blk_sigset stay 0: see docs/criu.md */
	tc.task_state = ct ? (uint32_t)criu_task_state(ct, st->snap.time) : CRIU_TASK_ALIVE;
	tc.comm = clean;
	th.comm = clean;
	if (ct)
		set_sched(&th, ct->prio);
	snprintf(name, sizeof(name), "core-%d.img", (int)tid);
	ret = img_open(&im, dir, name, CORE_MAGIC, err);
	if (!ret)
		ret = img_entry(&im, &core.base, err);
	return ret ? ret : img_close(&im, err);
}

static int write_cores(const struct criu_state *st, const char *dir, struct srep_error *err)
{
	const struct criu_snapshot *snap = &st->snap;
	size_t i, j;
	int ret = 0;

	for (i = 0; !ret && i < snap->nr_procs; i++) {
		const struct criu_proc *p = &snap->procs[i];

		if (p->leader == CRIU_NONE) {
			const char *comm = p->nr ? criu_comm_at(st->tasks[snap->threads[p->first]].t,
								snap->time) : snap->root_comm;

			ret = write_core(st, dir, p->pid, NULL, comm ? comm : "init", err);
		}
		for (j = 0; !ret && j < p->nr; j++) {
			const struct criu_task *ct = &st->tasks[snap->threads[p->first + j]];

			ret = write_core(st, dir, srep_task__tid(ct->t), ct,
					 criu_comm_at(ct->t, snap->time), err);
		}
	}
	return ret;
}

int criu_images_write(const struct criu_state *st, const char *dir, struct srep_error *err)
{
	int ret = write_inventory(dir, err);

	if (!ret)
		ret = write_pstree(st, dir, err);
	if (!ret)
		ret = write_cores(st, dir, err);
	return ret;
}
