// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exporter.c - the table of exporters, and what every exporter asks of a
 * selection.
 */
#include <stdio.h>
#include <string.h>

#include "exporter.h"

const struct srep_exporter *const srep_exporters[] = {
	&srep_exporter_perfetto,
	&srep_exporter_pftrace,
	&srep_exporter_json,
	&srep_exporter_svg,
	&srep_exporter_criu,
	&srep_exporter_rtapp,
	NULL,
};

const struct srep_exporter *srep_exporter_find(const char *name)
{
	const struct srep_exporter *const *x;

	for (x = srep_exporters; *x; x++) {
		if (!strcmp((*x)->name, name))
			return *x;
	}
	return NULL;
}

bool srep_export_has_tid(const struct srep_selection *sel, int32_t tid)
{
	return !sel || (tid >= 0 && srep_selection__has_tid(sel, tid));
}

bool srep_export_selected(const struct srep_selection *sel, const struct srep_event *ev)
{
	const struct srep_switch *sw = &ev->u.sw;

	if (!sel)
		return true;
	switch (ev->kind) {
	case SREP_EV_SWITCH:
		return srep_export_has_tid(sel, sw->prev_tid) || srep_export_has_tid(sel, sw->next_tid);
	case SREP_EV_WAKEUP:	return srep_export_has_tid(sel, ev->u.wake.tid);
	case SREP_EV_MIGRATE:	return srep_export_has_tid(sel, ev->u.migrate.tid);
	case SREP_EV_FORK:
		return srep_export_has_tid(sel, ev->u.fork.parent_tid) ||
		       srep_export_has_tid(sel, ev->u.fork.child_tid);
	case SREP_EV_EXEC:	return srep_export_has_tid(sel, ev->u.exec.tid);
	case SREP_EV_EXIT:
	case SREP_EV_FREE:	return srep_export_has_tid(sel, ev->u.exit.tid);
	case SREP_EV_COMM:	return srep_export_has_tid(sel, ev->u.comm.tid);
	case SREP_EV_STAT:	return srep_export_has_tid(sel, ev->u.stat.tid);
	case SREP_EV_MMAP:	return srep_export_has_tid(sel, ev->u.mmap.tid);
	case SREP_EV_SAMPLE:	return srep_export_has_tid(sel, ev->tid);
	default:		return true;	/* CPU state, losses */
	}
}

void srep_export_task_label(const struct srep_task *t, char *buf, size_t size)
{
	size_t n = srep_task__nr_comms(t), first = 0, i, len = 0;
	uint64_t time;

	for (i = 1; i < n; i++) {
		srep_task__comm_at(t, i, &time);
		if (!time)
			first = i;
	}
	buf[0] = '\0';
	for (i = first; i < n && len < size; i++) {
		if (n - first > 3 && i > first && i < n - 1) {
			if (i == first + 1)
				len += (size_t)snprintf(buf + len, size - len, " → …");
			continue;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i > first ? " → " : "",
					srep_task__comm_at(t, i, NULL));
	}
}
