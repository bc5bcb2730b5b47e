// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schema.c - the members of struct srep_event's union, kind by kind: the
 * one list the lossless JSON writer, its reader and the tests follow.
 */
#include <string.h>

#include <schedrep/schema.h>

#define M(k, key, type, member) \
	{ SREP_EV_##k, #key, SREP_MT_##type, offsetof(struct srep_event, u.member) }

static const struct srep_member schema[] = {
	M(SWITCH, prev_pid, I32, sw.prev_pid),
	M(SWITCH, prev_tid, I32, sw.prev_tid),
	M(SWITCH, next_pid, I32, sw.next_pid),
	M(SWITCH, next_tid, I32, sw.next_tid),
	M(SWITCH, prev_prio, I32, sw.prev_prio),
	M(SWITCH, next_prio, I32, sw.next_prio),
	M(SWITCH, prev_state, STATE, sw.prev_state),
	M(SWITCH, prev_comm, COMM, sw.prev_comm),
	M(SWITCH, next_comm, COMM, sw.next_comm),
	M(WAKEUP, type, WAKE, wake.kind),
	M(WAKEUP, pid, I32, wake.pid),
	M(WAKEUP, tid, I32, wake.tid),
	M(WAKEUP, prio, I32, wake.prio),
	M(WAKEUP, target_cpu, I32, wake.target_cpu),
	M(WAKEUP, success, I32, wake.success),
	M(WAKEUP, comm, COMM, wake.comm),
	M(MIGRATE, pid, I32, migrate.pid),
	M(MIGRATE, tid, I32, migrate.tid),
	M(MIGRATE, prio, I32, migrate.prio),
	M(MIGRATE, orig_cpu, I32, migrate.orig_cpu),
	M(MIGRATE, dest_cpu, I32, migrate.dest_cpu),
	M(MIGRATE, comm, COMM, migrate.comm),
	M(FORK, parent_pid, I32, fork.parent_pid),
	M(FORK, parent_tid, I32, fork.parent_tid),
	M(FORK, child_pid, I32, fork.child_pid),
	M(FORK, child_tid, I32, fork.child_tid),
	M(FORK, parent_comm, COMM, fork.parent_comm),
	M(FORK, child_comm, COMM, fork.child_comm),
	M(EXEC, pid, I32, exec.pid),
	M(EXEC, tid, I32, exec.tid),
	M(EXEC, old_tid, I32, exec.old_tid),
	M(EXEC, comm, COMM, exec.comm),
	M(EXEC, filename, CSTR, exec.filename),
	M(EXIT, pid, I32, exit.pid),
	M(EXIT, tid, I32, exit.tid),
	M(EXIT, ppid, I32, exit.ppid),
	M(EXIT, ptid, I32, exit.ptid),
	M(EXIT, prio, I32, exit.prio),
	M(EXIT, comm, COMM, exit.comm),
	M(COMM, pid, I32, comm.pid),
	M(COMM, tid, I32, comm.tid),
	M(COMM, comm, COMM, comm.comm),
	M(STAT, type, STAT, stat.kind),
	M(STAT, pid, I32, stat.pid),
	M(STAT, tid, I32, stat.tid),
	M(STAT, value, U64, stat.value),
	M(STAT, vruntime, U64, stat.vruntime),
	M(STAT, comm, COMM, stat.comm),
	M(CPU_IDLE, cpu, I32, cpu_state.cpu),
	M(CPU_IDLE, state, I64, cpu_state.state),
	M(MMAP, pid, I32, mmap.pid),
	M(MMAP, tid, I32, mmap.tid),
	M(MMAP, addr, ADDR, mmap.addr),
	M(MMAP, len, U64, mmap.len),
	M(MMAP, pgoff, U64, mmap.pgoff),
	M(MMAP, prot, U32, mmap.prot),
	M(MMAP, flags, U32, mmap.flags),
	M(MMAP, build_id, BUILD_ID, mmap),
	M(MMAP, filename, CSTR, mmap.filename),
	M(LOST, samples, BOOL, lost.samples),
	M(LOST, id, U64, lost.id),
	M(LOST, lost, U64, lost.lost),
};

static const char *const wakeup_kinds[] = { "waking", "wakeup", "new" };
static const char *const stat_kinds[] = { "runtime", "sleep", "wait", "iowait", "blocked" };
#define NR(a) (sizeof(a) / sizeof((a)[0]))

const struct srep_member *srep_event_schema(size_t *nr)
{
	*nr = NR(schema);
	return schema;
}

enum srep_event_kind srep_event_kind__union(enum srep_event_kind kind)
{
	return kind == SREP_EV_FREE ? SREP_EV_EXIT : kind == SREP_EV_CPU_FREQ ? SREP_EV_CPU_IDLE : kind;
}

bool srep_member__equal(const struct srep_member *m, const struct srep_event *a,
			const struct srep_event *b)
{
	const void *x = (const char *)a + m->offset, *y = (const char *)b + m->offset;
	const struct srep_mmap *ma = x, *mb = y;
	const char *sa, *sb;

	switch (m->type) {
	case SREP_MT_I32:
	case SREP_MT_U32:	return !memcmp(x, y, 4);
	case SREP_MT_I64:
	case SREP_MT_U64:
	case SREP_MT_ADDR:	return !memcmp(x, y, 8);
	case SREP_MT_COMM:	return !strncmp(x, y, SREP_COMM_MAX);
	case SREP_MT_STATE:	return *(const char *)x == *(const char *)y;
	case SREP_MT_BOOL:	return *(const bool *)x == *(const bool *)y;
	case SREP_MT_WAKE:	return *(const enum srep_wakeup_kind *)x == *(const enum srep_wakeup_kind *)y;
	case SREP_MT_STAT:	return *(const enum srep_stat_kind *)x == *(const enum srep_stat_kind *)y;
	case SREP_MT_BUILD_ID:
		return ma->build_id_size == mb->build_id_size &&
		       !memcmp(ma->build_id, mb->build_id,
			       ma->build_id_size < 20 ? ma->build_id_size : 20);
	case SREP_MT_CSTR:
		memcpy(&sa, x, sizeof(sa));
		memcpy(&sb, y, sizeof(sb));
		return sa == sb || (sa && sb && !strcmp(sa, sb));
	}
	return false;
}

const char *srep_wakeup_kind_name(enum srep_wakeup_kind kind)
{
	return (unsigned)kind < NR(wakeup_kinds) ? wakeup_kinds[kind] : "?";
}

const char *srep_stat_kind_name(enum srep_stat_kind kind)
{
	return (unsigned)kind < NR(stat_kinds) ? stat_kinds[kind] : "?";
}

static bool find_name(const char *const *names, size_t n, const char *name, unsigned *out)
{
	size_t i;

	for (i = 0; name && i < n; i++) {
		if (!strcmp(names[i], name)) {
			*out = (unsigned)i;
			return true;
		}
	}
	return false;
}

bool srep_wakeup_kind__parse(const char *name, enum srep_wakeup_kind *out)
{
	unsigned k;

	if (!find_name(wakeup_kinds, NR(wakeup_kinds), name, &k))
		return false;
	*out = (enum srep_wakeup_kind)k;
	return true;
}

bool srep_stat_kind__parse(const char *name, enum srep_stat_kind *out)
{
	unsigned k;

	if (!find_name(stat_kinds, NR(stat_kinds), name, &k))
		return false;
	*out = (enum srep_stat_kind)k;
	return true;
}
