// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host.c - how mockups map onto this machine: --cpu-map and --keep-prio.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "replay.h"

/* recorded CPU numbers a --cpu-map LIST may name: more than any machine perf ran on */
#define RP_MAX_MAP_CPUS 4096

static int parse_cpu(const char **s, long max, int32_t *out)
{
	char *end;
	long v;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v > max)
		return -1;
	*out = (int32_t)v;
	*s = end;
	return 0;
}

static int parse_list(const char *spec, struct rp_run_opts *o, struct srep_error *err)
{
	const char *s = spec;
	int32_t rec, host, *map;
	size_t i;

	while (*s) {
		if (parse_cpu(&s, RP_MAX_MAP_CPUS - 1, &rec) || *s++ != '=' ||
		    parse_cpu(&s, CPU_SETSIZE - 1, &host) || (*s && *s++ != ',') ||
		    (!*s && s[-1] == ','))
			return srep_error__set(err, SREP_E_INVAL, "--cpu-map '%s': expected auto, none "
					       "or REC=HOST pairs such as 0=2,1=3 (recorded CPU < %d, "
					       "host CPU < %d)", spec, RP_MAX_MAP_CPUS, CPU_SETSIZE);
		if ((size_t)rec >= o->nr_map) {
			map = realloc(o->map, ((size_t)rec + 1) * sizeof(*map));
			if (!map)
				return srep_error__set(err, SREP_E_NOMEM, "no memory");
			for (i = o->nr_map; i <= (size_t)rec; i++)
				map[i] = -1;
			o->map = map;
			o->nr_map = (size_t)rec + 1;
		}
		if (o->map[rec] >= 0)
			return srep_error__set(err, SREP_E_INVAL,
					       "--cpu-map '%s': recorded CPU %d is mapped twice", spec, rec);
		o->map[rec] = host;
	}
	return 0;
}

int rp_cpu_map__parse(const char *spec, struct rp_run_opts *o, struct srep_error *err)
{
	free(o->map);
	o->map = NULL;
	o->nr_map = 0;
	if (strcmp(spec, "none") == 0) {
		o->cpu_map = RP_CPU_MAP_NONE;
		return 0;
	}
	if (strcmp(spec, "auto") == 0) {
		o->cpu_map = RP_CPU_MAP_AUTO;
		return 0;
	}
	o->cpu_map = RP_CPU_MAP_LIST;
	if (!*spec)
		return srep_error__set(err, SREP_E_INVAL, "--cpu-map: empty list");
	return parse_list(spec, o, err);
}

/* kernel prio 0..99 is RT (rtprio 99 - prio; below 0: deadline, the top), 100..139 nice -20..19 */
enum rp_policy rp_prio__policy(int32_t prio, int32_t *value)
{
	if (prio == RP_NO_PRIO)
		return RP_POLICY_NONE;
	if (prio < 100) {
		*value = prio < 0 ? 99 : 99 - prio;
		if (*value < 1)
			*value = 1;
		return RP_POLICY_FIFO;
	}
	*value = prio > 139 ? 19 : prio - 120;
	return RP_POLICY_OTHER;
}

int rp_prio__apply(int32_t prio)
{
	struct sched_param sp = { 0 };
	int32_t value;

	switch (rp_prio__policy(prio, &value)) {
	case RP_POLICY_FIFO:
		sp.sched_priority = value;
		return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	case RP_POLICY_OTHER:
		return setpriority(PRIO_PROCESS, (id_t)gettid(), value) ? errno : 0;
	default:
		return 0;
	}
}

struct probe {
	int32_t prio;
	int ret;
};

static void *probe_thread(void *arg)
{
	struct probe *pr = arg;

	pr->ret = rp_prio__apply(pr->prio);
	return NULL;
}

/* the prio asking most of the system: the highest RT one, else the lowest nice */
static const struct rp_task *most_demanding(const struct rp_plan *p)
{
	const struct rp_task *best = NULL;
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		const struct rp_task *t = &p->tasks[i];

		if (t->prio != RP_NO_PRIO && (!best || t->prio < best->prio))
			best = t;
	}
	return best;
}

int rp_prio__check(const struct rp_plan *p, struct srep_error *err)
{
	const struct rp_task *t = most_demanding(p);
	struct probe pr = { 0 };
	pthread_t th;
	int ret;

	if (!t)
		return 0;
	pr.prio = t->prio;
	ret = pthread_create(&th, NULL, probe_thread, &pr);
	if (ret)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "--keep-prio: cannot start a probe "
				       "thread: %s", strerror(ret));
	pthread_join(th, NULL);
	if (!pr.ret)
		return 0;
	if (t->prio < 100)
		return srep_error__set(err, SREP_E_UNSUPPORTED, "--keep-prio: task %d (%s) was recorded "
				       "with RT priority %d, which needs CAP_SYS_NICE or RLIMIT_RTPRIO "
				       "(%s): run as root or replay without --keep-prio", t->tid,
				       t->comm, t->prio < 0 ? 99 : 99 - t->prio, strerror(pr.ret));
	return srep_error__set(err, SREP_E_UNSUPPORTED, "--keep-prio: task %d (%s) was recorded with "
			       "nice %d, which needs CAP_SYS_NICE or RLIMIT_NICE (%s): run as root or "
			       "replay without --keep-prio", t->tid, t->comm,
			       t->prio > 139 ? 19 : t->prio - 120, strerror(pr.ret));
}
