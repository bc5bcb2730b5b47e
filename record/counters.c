// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c - perf_event_open for every event on every CPU (and every
 * thread when recording tasks), one ring buffer per CPU that all of that
 * CPU's counters write to (PERF_EVENT_IOC_SET_OUTPUT), and the ring buffer
 * protocol: read data_head, copy, publish data_tail.
 *
 * Failures name the cause and what to do in one line: permission
 * (perf_event_paranoid), an event this kernel lacks, too many open files,
 * locked-memory limits. counters_close() releases whatever was opened, so
 * a failure half-way leaves nothing behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec_local.h"

/* wake the drain when a ring is this fraction full: early enough that a
   busy machine still leaves it time to run before the ring overflows */
#define WAKEUP_DIVISOR 4

static int sys_perf_event_open(struct perf_event_attr *a, int pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, a, pid, cpu, group, flags);
}

static int paranoid_level(void)
{
	char *text;
	int v = 2;

	if (!read_text_file("/proc/sys/kernel/perf_event_paranoid", &text, NULL)) {
		v = atoi(text);
		free(text);
	}
	return v;
}

static int open_error(const struct rec_event *e, int cpu, int tid, int e_no, struct srep_error *err)
{
	switch (e_no) {
	case EACCES:
	case EPERM:
		return srep_error__set(err, SREP_E_UNSUPPORTED,
				       "no permission to record '%s' (kernel.perf_event_paranoid is %d): run as "
				       "root or allow it with 'sysctl kernel.perf_event_paranoid=-1'",
				       e->name, paranoid_level());
	case EMFILE:
	case ENFILE:
		return srep_error__set(err, SREP_E_LIMIT,
				       "too many open files for all the counters: raise the limit ('ulimit -n')");
	case ESRCH:
		return srep_error__set(err, SREP_E_INVAL, "no task %d to record", tid);
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return srep_error__set(err, SREP_E_UNSUPPORTED, "this kernel cannot record '%s' on CPU %d: %s",
				       e->name, cpu, strerror(e_no));
	default:
		return srep_error__set(err, SREP_E_IO, "perf_event_open '%s' on CPU %d: %s", e->name, cpu,
				       strerror(e_no));
	}
}

/* one counter per (CPU, thread, event) can be a lot: take the hard limit */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int map_ring(struct rec_counters *c, int cpu, int fd, unsigned pages, struct srep_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct rec_ring *r = &c->rings[c->nr_rings];
	void *base;

	r->mmap_len = (size_t)(pages + 1) * page;
	base = mmap(NULL, r->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int e = errno;

		return srep_error__set(err, e == ENOMEM ? SREP_E_NOMEM : SREP_E_LIMIT,
				       "cannot map a %zu KiB ring buffer for CPU %d: %s%s", r->mmap_len / 1024,
				       cpu, strerror(e), e == EPERM || e == ENOMEM ?
				       ": use a smaller -m or raise kernel.perf_event_mlock_kb" : "");
	}
	r->base = base;
	r->size = (size_t)pages * page;
	r->cpu = cpu;
	r->fd = fd;
	c->nr_rings++;
	return 0;
}

static int open_one(struct rec_counters *c, struct rec_event *e, int cpu, int tid, int *owner,
		    const struct counters_target *t, struct srep_error *err)
{
	uint64_t id;
	int fd;

	fd = sys_perf_event_open(&e->attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL)	/* kernels before 3.14 lack the flag */
		fd = sys_perf_event_open(&e->attr, tid, cpu, -1, 0);
	if (fd < 0)
		return open_error(e, cpu, tid, errno, err);
	c->fds[c->nr_fds++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return srep_error__set(err, SREP_E_UNSUPPORTED, "this kernel does not give event ids: %s",
				       strerror(errno));
	e->ids[e->nr_ids++] = id;
	if (*owner < 0) {
		*owner = fd;
		return map_ring(c, cpu, fd, t->pages, err);
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *owner))
		return srep_error__set(err, SREP_E_IO, "cannot share CPU %d's ring buffer: %s", cpu,
				       strerror(errno));
	return 0;
}

int counters_open(struct rec_counters *c, struct rec_evlist *el, const struct counters_target *t,
		  struct srep_error *err)
{
	size_t nr_tids = t->tids ? t->nr_tids : 1, per_event = t->nr_cpus * nr_tids, i, k, e;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int owner;

	memset(c, 0, sizeof(*c));
	raise_fd_limit();
	c->fds = calloc(per_event * el->nr, sizeof(*c->fds));
	c->rings = calloc(t->nr_cpus, sizeof(*c->rings));
	for (e = 0; e < el->nr && c->fds && c->rings; e++) {
		free(el->ev[e].ids);
		el->ev[e].nr_ids = 0;
		el->ev[e].ids = calloc(per_event, sizeof(uint64_t));
		if (!el->ev[e].ids)
			break;
		el->ev[e].attr.watermark = 1;
		el->ev[e].attr.wakeup_watermark = (uint32_t)((size_t)t->pages * page / WAKEUP_DIVISOR);
	}
	if (!c->fds || !c->rings || e < el->nr)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the counters");
	for (i = 0; i < t->nr_cpus; i++) {
		owner = -1;
		for (k = 0; k < nr_tids; k++) {
			for (e = 0; e < el->nr; e++) {
				if (open_one(c, &el->ev[e], t->cpus[i], t->tids ? t->tids[k] : -1, &owner, t, err)) {
					counters_close(c);
					return err->code;
				}
			}
		}
	}
	return 0;
}

int counters_enable(struct rec_counters *c, const struct rec_evlist *el, bool sideband_only,
		    struct srep_error *err)
{
	size_t i;

	/* counters were opened CPU by CPU, thread by thread, event by event */
	for (i = 0; i < c->nr_fds; i++) {
		if (sideband_only && i % el->nr != el->sideband)
			continue;
		if (ioctl(c->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return srep_error__set(err, SREP_E_IO, "cannot enable a counter: %s", strerror(errno));
	}
	return 0;
}

void counters_disable(struct rec_counters *c)
{
	size_t i;

	for (i = 0; i < c->nr_fds; i++)
		ioctl(c->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

void counters_close(struct rec_counters *c)
{
	size_t i;

	for (i = 0; i < c->nr_rings; i++)
		munmap(c->rings[i].base, c->rings[i].mmap_len);
	for (i = 0; i < c->nr_fds; i++)
		close(c->fds[i]);
	free(c->rings);
	free(c->fds);
	memset(c, 0, sizeof(*c));
}

/*
 * The kernel publishes data_head after writing the records; we read it, then
 * the data (acquire), and hand the space back with data_tail after the copy
 * (release). Where 64-bit atomics are lock-free these are atomic accesses
 * (which ThreadSanitizer also understands); 32-bit targets have none, so they
 * use plain volatile accesses with fences: the upper half only changes after
 * 4 GiB.
 */
#if __GCC_ATOMIC_LLONG_LOCK_FREE == 2
static uint64_t load_head(const struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static void store_tail(struct perf_event_mmap_page *pg, uint64_t tail)
{
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}
#else
static uint64_t load_head(const struct perf_event_mmap_page *pg)
{
	uint64_t head = *(const volatile __u64 *)&pg->data_head;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return head;
}

static void store_tail(struct perf_event_mmap_page *pg, uint64_t tail)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile __u64 *)&pg->data_tail = tail;
}
#endif

size_t ring_pending(const struct rec_ring *r, uint64_t *head, uint64_t *tail)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)r->base;

	*head = load_head(pg);
	*tail = pg->data_tail;
	return (size_t)(*head - *tail);
}

void ring_copy(const struct rec_ring *r, uint64_t from, size_t len, uint8_t *dst)
{
	const uint8_t *data = r->base + (r->mmap_len - r->size);
	size_t off = (size_t)(from & (r->size - 1)), first = r->size - off;

	if (first >= len) {
		memcpy(dst, data + off, len);
		return;
	}
	memcpy(dst, data + off, first);
	memcpy(dst + first, data, len - first);
}

void ring_release(struct rec_ring *r, uint64_t tail)
{
	store_tail((struct perf_event_mmap_page *)r->base, tail);
}
