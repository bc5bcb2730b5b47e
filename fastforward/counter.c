// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counter.c - the counting perf event the targets are measured in.
 *
 * It is opened on the workload's pid after fork and before exec, disabled,
 * with enable_on_exec: counting starts at the exec itself, so neither the
 * tool nor the child's own pre-exec code is in the count. Opened before
 * fork, on the tool, it would be the tool's counter, inherited by the child
 * as a copy: the tool's reads and ioctls would act on its own idle copy, and
 * enable_on_exec on that copy is what was reported not to work. With
 * inherit, threads and processes the workload creates later get counters of
 * their own whose counts read() sums into ours.
 *
 * Overflow is signalled with SIGIO (F_SETOWN, F_SETSIG, O_ASYNC): poll()
 * would need a ring buffer, and the kernel refuses to mmap one for an
 * inherited per-task counter. Each task's counter has its own period, and
 * PERF_EVENT_IOC_PERIOD changes only the first task's (IOC_REFRESH is
 * refused for inherited counters): the engine treats a signal as a hint
 * and always decides on the summed count (run.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ff_local.h"

static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

static int open_error(const struct ff_counter *k, int e, struct srep_error *err)
{
	if (e == EACCES || e == EPERM)
		return srep_error__set(err, SREP_E_UNSUPPORTED,
				       "no permission to count '%s' (kernel.perf_event_paranoid is %d): run as "
				       "root or allow it with 'sysctl kernel.perf_event_paranoid=1'",
				       k->name, paranoid_level());
	if (k->c.type == PERF_TYPE_HARDWARE && (e == ENOENT || e == EOPNOTSUPP || e == ENODEV))
		return srep_error__set(err, SREP_E_UNSUPPORTED,
				       "this machine cannot count '%s': no hardware counters (as in most "
				       "virtual machines); use a software event such as -e task-clock", k->name);
	return srep_error__set(err, SREP_E_UNSUPPORTED, "cannot count '%s': %s", k->name, strerror(e));
}

int counter_open(struct ff_counter *k, const char *event, int pid, bool inherit,
		 uint64_t period, struct srep_error *err)
{
	struct perf_event_attr a;
	int r;

	k->fd = -1;
	snprintf(k->name, sizeof(k->name), "%s", event);
	r = srep_rec_counter__parse(event, &k->c, err);
	if (r)
		return r;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = k->c.type;
	a.config = k->c.config;
	a.exclude_kernel = k->c.exclude_kernel;
	a.exclude_hv = k->c.exclude_kernel;
	a.exclude_user = k->c.exclude_user;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = inherit;
	a.sample_period = period;
	a.wakeup_events = 1;
	k->fd = (int)syscall(__NR_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (k->fd < 0)
		return open_error(k, errno, err);
	/* overflow notifications come to this process as SIGIO with si_fd set */
	if (fcntl(k->fd, F_SETOWN, getpid()) || fcntl(k->fd, F_SETSIG, SIGIO) ||
	    fcntl(k->fd, F_SETFL, fcntl(k->fd, F_GETFL) | O_ASYNC)) {
		r = srep_error__set(err, SREP_E_IO, "cannot route overflow signals of '%s': %s", k->name,
				    strerror(errno));
		counter_close(k);
		return r;
	}
	return 0;
}

int counter_read(const struct ff_counter *k, uint64_t *value, struct srep_error *err)
{
	ssize_t n = read(k->fd, value, sizeof(*value));

	if (n != (ssize_t)sizeof(*value))
		return srep_error__set(err, SREP_E_IO, "cannot read the '%s' counter: %s", k->name,
				       n < 0 ? strerror(errno) : "short read");
	return 0;
}

static int ioctl_arg(const struct ff_counter *k, unsigned long req, void *arg, const char *what,
		     struct srep_error *err)
{
	if (ioctl(k->fd, req, arg) < 0)
		return srep_error__set(err, SREP_E_IO, "cannot %s the '%s' counter: %s", what, k->name,
				       strerror(errno));
	return 0;
}

int counter_set_period(const struct ff_counter *k, uint64_t period, struct srep_error *err)
{
	if (ioctl(k->fd, PERF_EVENT_IOC_PERIOD, &period) < 0)
		return srep_error__set(err, SREP_E_IO, "cannot re-arm the '%s' counter with a period "
				       "of %" PRIu64 ": %s", k->name, period, strerror(errno));
	return 0;
}

/* ENABLE and DISABLE reach the inherited counters too */
int counter_enable(const struct ff_counter *k, struct srep_error *err)
{
	return ioctl_arg(k, PERF_EVENT_IOC_ENABLE, NULL, "enable", err);
}

int counter_disable(const struct ff_counter *k, struct srep_error *err)
{
	return ioctl_arg(k, PERF_EVENT_IOC_DISABLE, NULL, "disable", err);
}

void counter_close(struct ff_counter *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
