// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * switches.c - count the context switches of every task of a trace with
 * libschedrep: how many times each task was switched out.
 *
 *   cc switches.c $(pkg-config --cflags --libs schedrep) -o switches
 *   ./switches perf.data
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <schedrep/schedrep.h>

int main(int argc, char **argv)
{
	struct srep_session *s;
	const struct srep_event *ev;
	struct srep_error err;
	uint64_t *switches;
	size_t i;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <perf.data>\n", argv[0]);
		return 2;
	}
	/* a prescan builds the whole task table first: tasks have their index from the start */
	ret = srep_session__open(&s, argv[1], &(struct srep_open_opts){ .flags = SREP_OPEN_PRESCAN },
				 &err);
	if (ret) {
		char msg[1024];

		srep_error__format(&err, msg, sizeof(msg));
		fprintf(stderr, "switches: %s\n", msg);
		return 1;
	}
	/* only switches are counted: the other tracepoints are left unread, which is faster */
	srep_session__set_interest(s, SREP_EV_BIT(SREP_EV_SWITCH));
	switches = calloc(srep_session__nr_tasks(s) + 1, sizeof(*switches));
	while (switches && (ret = srep_session__next_event(s, &ev, &err)) > 0) {
		const struct srep_task *t;

		if (ev->kind == SREP_EV_SWITCH && (t = srep_session__find_task(s, ev->u.sw.prev_tid)))
			switches[srep_task__index(t)]++;
	}
	for (i = 0; switches && ret == 0 && i < srep_session__nr_tasks(s); i++) {
		const struct srep_task *t = srep_session__task(s, i);

		if (switches[i])
			printf("%-16s %7d %8" PRIu64 "\n", srep_task__comm(t), srep_task__tid(t),
			       switches[i]);
	}
	free(switches);
	srep_session__delete(s);
	return ret == 0 ? 0 : 1;
}
