// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - recording: the drain loop and the flight recorder's triggers.
 *
 * One thread polls the rings (woken when one is a quarter full, and every
 * POLL_MS anyway), copies every ring's new records into the round buffer,
 * counts them, and hands the round to the writer thread, which writes it
 * followed by FINISHED_ROUND. This thread never touches the disk, so a slow
 * write never delays draining; when the writer's backlog is full the data
 * stays in the rings and the kernel counts what it loses.
 *
 * With --ring, the records go to the flight recorder's memory instead, and
 * triggers (SIGUSR1/SIGUSR2, words on a FIFO, a late task) snapshot it into
 * a dump job for the writer thread. Triggers during a dump are coalesced.
 *
 * Signals are taken through a signalfd while recording, so nothing here
 * runs in a signal handler and the library keeps no global state.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rec_local.h"

#define POLL_MS		100	/* drain at least this often: latency trigger, quiet rings */

enum trig { TRIG_NONE = 0, TRIG_DUMP, TRIG_DUMP_STOP };

struct loop {
	int sfd;
	sigset_t mask, old;
	bool stop;
	enum trig trig;
	const char *reason;
	struct latency_hit hit;
	bool have_hit;
	char fifo_buf[64];
	size_t fifo_len;
};

/* ---- draining ---- */

static int scan(struct srep_recorder *r, size_t slot, const uint8_t *p, size_t len,
		struct srep_error *err)
{
	const uint8_t *raw;
	uint32_t type, raw_size;
	uint16_t size;
	size_t off;
	int idx;

	for (off = 0; off + 8 <= len; off += size) {
		type = srep_get32(p + off, false);
		size = srep_get16(p + off + 6, false);
		if (size < 8 || size > len - off)
			break;	/* the kernel never writes this; stop rather than misread */
		account_record(&r->acct, slot, p + off, type, size);
		if (r->lat && type == REC_SAMPLE &&
		    (idx = evlist_find(&r->el, layout_sample_id(p + off))) >= 0 &&
		    layout_raw(&r->lay, p + off, size, &raw, &raw_size))
			latency_sample(r->lat, idx, layout_time(&r->lay, p + off, type, size), raw, raw_size);
		if (r->o.ring_bytes && flight_add(&r->flight, p + off, type, size, err))
			return err->code;
	}
	return 0;
}

static int drain_ring(struct srep_recorder *r, size_t i, struct srep_error *err)
{
	struct rec_ring *ring = &r->ctr.rings[i];
	uint64_t head, tail;
	size_t n = ring_pending(ring, &head, &tail);

	if (!n)
		return 0;
	if (n > ring->size)	/* cannot happen unless the control page is damaged */
		return srep_error__set(err, SREP_E_CORRUPT, "CPU %d's ring reports %zu bytes in %zu", ring->cpu,
				       n, ring->size);
	if (!r->o.ring_bytes && !writer_has_room(r->w, r->round.len + n)) {
		r->room_wait = true;
		return 0;	/* the rings hold it; they lose, and say so, if it lasts */
	}
	if (buf_reserve(&r->round, n))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a round of records");
	ring_copy(ring, tail, n, r->round.p + r->round.len);
	ring_release(ring, head);
	if (scan(r, i, r->round.p + r->round.len, n, err))
		return err->code;
	r->round.len += n;
	return 0;
}

static int drain(struct srep_recorder *r, struct srep_error *err)
{
	size_t i;

	if (!r->o.ring_bytes && !r->round.p)
		writer_take_buf(r->w, &r->round);
	for (i = 0; i < r->ctr.nr_rings; i++) {
		if (drain_ring(r, i, err))
			return err->code;
	}
	if (!r->round.len)
		return 0;
	r->st.rounds++;
	if (r->o.ring_bytes) {
		r->round.len = 0;	/* the flight recorder kept what it needs */
		return 0;
	}
	return writer_submit(r->w, &r->round, err);
}

/* ---- what existed before: side-band records first ---- */

static int synthesize(struct srep_recorder *r, struct srep_error *err)
{
	const struct rec_event *sb = &r->el.ev[r->el.sideband];
	struct synth_ctx c = { &r->lay, sb->nr_ids ? sb->ids[0] : 0, r->o.system_wide || !r->nr_tids,
			       r->o.argv ? &r->wl.pid : r->o.pids, r->o.argv ? 1 : r->o.nr_pids };
	struct rec_buf b = { 0 };
	size_t off;
	uint16_t size;
	int ret;

	ret = synth_kernel_mmap(&c, &b, err);
	if (!ret)
		ret = synth_tasks(&c, &b, err);
	for (off = 0; !ret && off + 8 <= b.len; off += size) {
		size = srep_get16(b.p + off + 6, false);
		r->synth_records++;
		if (r->o.ring_bytes)
			ret = flight_add(&r->flight, b.p + off, srep_get32(b.p + off, false), size, err);
	}
	if (!ret && !r->o.ring_bytes && b.len) {
		r->st.rounds++;
		ret = writer_submit(r->w, &b, err);
	}
	buf_free(&b);
	return ret;
}

static int start(struct srep_recorder *r, struct srep_error *err)
{
	bool task_workload = r->o.argv && !r->o.system_wide;

	/* side-band counting first, so tasks born while /proc is read are seen */
	if (!task_workload && counters_enable(&r->ctr, &r->el, true, err))
		return err->code;
	if (synthesize(r, err))
		return err->code;
	/* a task workload's counters start at its exec (enable_on_exec) */
	if (!task_workload && counters_enable(&r->ctr, &r->el, false, err))
		return err->code;
	if (r->o.argv && srep_rec_workload__start(&r->wl, r->o.argv, err))
		return err->code;
	return 0;
}

/* ---- signals, FIFO words, processes ---- */

static int take_signals(struct srep_recorder *r, struct loop *l)
{
	struct signalfd_siginfo si;

	while (read(l->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGINT:
		case SIGTERM:
			r->st.interrupted = true;
			l->stop = true;
			break;
		case SIGCHLD:
			if (srep_rec_workload__reap(&r->wl))
				l->stop = true;
			break;
		case SIGUSR1:
		case SIGUSR2:
			if (l->trig != TRIG_DUMP_STOP)
				l->trig = si.ssi_signo == SIGUSR1 ? TRIG_DUMP : TRIG_DUMP_STOP;
			l->reason = "signal";
			break;
		default:
			break;
		}
	}
	return 0;
}

static void take_fifo(struct srep_recorder *r, struct loop *l)
{
	char *word, *save = NULL, *nl;
	ssize_t n;

	while ((n = read(r->fifo_fd, l->fifo_buf + l->fifo_len, sizeof(l->fifo_buf) - 1 - l->fifo_len)) > 0) {
		l->fifo_len += (size_t)n;
		l->fifo_buf[l->fifo_len] = '\0';
		/* whole words only: the rest waits for more bytes */
		while ((nl = strpbrk(l->fifo_buf, " \t\n"))) {
			*nl = '\0';
			word = strtok_r(l->fifo_buf, " \t", &save);
			if (word && !strcmp(word, "stop"))
				l->trig = TRIG_DUMP_STOP;
			else if (word && !strcmp(word, "dump") && l->trig != TRIG_DUMP_STOP)
				l->trig = TRIG_DUMP;
			if (word && (!strcmp(word, "stop") || !strcmp(word, "dump")))
				l->reason = "fifo";
			l->fifo_len -= (size_t)(nl + 1 - l->fifo_buf);
			memmove(l->fifo_buf, nl + 1, l->fifo_len + 1);
		}
		if (l->fifo_len == sizeof(l->fifo_buf) - 1)
			l->fifo_len = 0;	/* a word this long is no command */
	}
}

/* -p: the recording ends when every process asked for is gone */
static bool pids_gone(const struct srep_recorder *r)
{
	size_t i;

	for (i = 0; i < r->o.nr_pids; i++) {
		if (kill(r->o.pids[i], 0) == 0 || errno != ESRCH)
			return false;
	}
	return r->o.nr_pids > 0;
}

/* ---- dumps ---- */

static int start_dump(struct srep_recorder *r, struct loop *l, struct srep_error *err)
{
	struct dump_job *d;
	uint64_t t;

	if (writer_busy_dumping(r->w)) {
		r->st.coalesced++;
		return 0;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a dump");
	if (flight_snapshot(&r->flight, &d->snap, err)) {
		dump_job_free(d);
		return err->code;
	}
	/*
	 * A signal or FIFO word: "now" in perf's clock is the newest sample the
	 * dump holds. Not the newest drained: a round bigger than the ring
	 * pushes the first CPUs' records, the newest among them, out again.
	 */
	t = l->have_hit ? l->hit.time : flight_newest_sample(&r->lay, &d->snap);
	if (!t)
		t = r->acct.newest_sample;
	d->info.index = ++r->dumps_started;
	d->info.trigger_time = t;
	d->info.reason = l->reason;
	d->info.late_tid = l->have_hit ? l->hit.tid : -1;
	d->info.late_ns = l->have_hit ? l->hit.waited : 0;
	if (asprintf(&d->path, "%s.%u.%" PRIu64 ".%06" PRIu64, r->path, d->info.index,
		     t / 1000000000u, t % 1000000000u / 1000u) < 0 ||
	    asprintf(&d->tmp, "%s.tmp-XXXXXX", d->path) < 0) {
		dump_job_free(d);
		return srep_error__set(err, SREP_E_NOMEM, "no memory for a dump");
	}
	d->info.path = d->path;
	if (writer_submit_dump(r->w, d, err)) {
		dump_job_free(d);
		return err->code;
	}
	if (r->dumps_started >= (r->o.max_dumps ? r->o.max_dumps : SREP_REC_DEFAULT_DUMPS))
		l->stop = true;
	return 0;
}

static int finished_dumps(struct srep_recorder *r, struct srep_error *err)
{
	struct dump_job *d;
	int ret = 0;

	while ((d = writer_done_dump(r->w))) {
		if (d->status && !ret) {
			*err = d->err;
			ret = d->status;
		} else if (!d->status) {
			r->st.dumps++;
			if (r->o.on_dump)
				r->o.on_dump(r->o.on_dump_arg, &d->info);
		}
		dump_job_free(d);
	}
	return ret;
}

static int triggers(struct srep_recorder *r, struct loop *l, struct srep_error *err)
{
	l->have_hit = false;
	if (r->lat && latency_round(r->lat, &l->hit) && l->trig == TRIG_NONE) {
		l->have_hit = true;
		l->trig = TRIG_DUMP;
		l->reason = "latency";
	}
	if (l->trig == TRIG_NONE)
		return 0;
	if (l->trig == TRIG_DUMP_STOP)
		l->stop = true;
	l->trig = TRIG_NONE;
	return start_dump(r, l, err);
}

/* ---- the loop ---- */

static void wait_events(struct srep_recorder *r, struct loop *l, struct pollfd *pfd)
{
	size_t n = 0, i, first_ring;

	pfd[n++] = (struct pollfd){ l->sfd, POLLIN, 0 };
	pfd[n++] = (struct pollfd){ writer_fd(r->w), POLLIN, 0 };
	if (r->fifo_fd >= 0)
		pfd[n++] = (struct pollfd){ r->fifo_fd, POLLIN, 0 };
	first_ring = n;
	/* a full backlog: wait for the writer, not for rings we will not drain */
	for (i = 0; i < r->ctr.nr_rings && !r->room_wait; i++)
		pfd[n++] = (struct pollfd){ r->hup[i] ? -1 : r->ctr.rings[i].fd, POLLIN, 0 };
	if (poll(pfd, n, POLL_MS) <= 0)
		return;
	for (i = first_ring; i < n; i++) {
		/* a task's counter hangs up when it exits; its ring may still fill */
		if (pfd[i].revents & (POLLHUP | POLLERR))
			r->hup[i - first_ring] = true;
	}
}

static int record_loop(struct srep_recorder *r, struct loop *l, struct srep_error *err)
{
	struct pollfd *pfd = calloc(r->ctr.nr_rings + 3, sizeof(*pfd));
	int ret = 0;

	if (!pfd)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	while (!ret && !l->stop) {
		wait_events(r, l, pfd);
		take_signals(r, l);
		if (r->fifo_fd >= 0)
			take_fifo(r, l);
		r->room_wait = false;
		ret = drain(r, err);
		if (!ret && r->o.ring_bytes)
			ret = triggers(r, l, err);
		if (!ret)
			ret = finished_dumps(r, err);
		if (!ret)
			ret = writer_error(r->w, err);
		if (pids_gone(r) || (r->o.argv && srep_rec_workload__reap(&r->wl)))
			l->stop = true;
	}
	free(pfd);
	return ret;
}

/* counters off, everything they wrote drained; the workload ends too */
static int finish(struct srep_recorder *r, bool drain_rest, struct srep_error *err)
{
	struct pollfd pfd = { writer_fd(r->w), POLLIN, 0 };
	uint64_t head, tail;
	int ret = 0;
	size_t i, left;

	counters_disable(&r->ctr);
	do {
		r->room_wait = false;
		ret = drain_rest ? drain(r, err) : 0;
		for (i = 0, left = 0; i < r->ctr.nr_rings; i++)
			left += ring_pending(&r->ctr.rings[i], &head, &tail);
		if (!ret && left && r->room_wait)
			poll(&pfd, 1, POLL_MS);
		if (!ret)
			ret = writer_error(r->w, err);
	} while (drain_rest && !ret && left);
	if (r->wl.pid && !srep_rec_workload__reap(&r->wl))
		srep_rec_workload__end(&r->wl);
	return ret;
}

static void fill_stats(struct srep_recorder *r)
{
	struct srep_rec_stats *st = &r->st;
	size_t i;

	st->path = r->path;
	st->pipe_mode = !r->o.ring_bytes && !strcmp(r->path, "-");
	st->compressed = r->o.compress;
	st->ring = r->o.ring_bytes > 0;
	st->bytes = r->pd_open ? r->pd.bytes : 0;
	st->record_bytes = r->pd_open ? r->pd.raw_bytes : 0;
	st->records = r->acct.records + r->synth_records;
	st->lost = r->acct.lost;
	st->lost_samples = r->acct.lost_samples;
	st->lost_time_ns = account_lost_time(&r->acct);
	st->first_time = r->acct.first_time;
	st->last_time = r->acct.last_time;
	st->backlog_peak = r->w ? writer_backlog_peak(r->w) : 0;
	st->ring_dropped = r->flight.dropped;
	st->skipped_events = r->el.skipped;
	st->workload = r->o.argv != NULL;
	st->workload_status = r->wl.status;
	r->ev_stats = calloc(r->el.nr, sizeof(*r->ev_stats));
	st->events = r->ev_stats;
	st->nr_events = 0;
	for (i = 0; r->ev_stats && i < r->el.nr; i++) {
		if (i != r->el.sideband)
			r->ev_stats[st->nr_events++] = (struct srep_rec_event_stat){ r->el.ev[i].name,
										 r->el.ev[i].samples };
	}
}

/*
 * Draining is urgent: a ring a quarter full on a busy machine overflows if
 * the drain waits for its turn behind hundreds of runnable tasks. When
 * allowed (root, CAP_SYS_NICE or RLIMIT_RTPRIO), this thread alone runs at
 * the lowest real-time priority while recording, as 'perf record -r 1'
 * would; the writer thread and the workload keep their own. It sleeps in
 * poll() between drains, so it takes no more CPU, only takes it sooner.
 */
static bool urgent_drain(struct sched_param *saved, int *policy)
{
	struct sched_param fifo = { .sched_priority = 1 };

	*policy = sched_getscheduler(0);
	if (*policy < 0 || *policy == SCHED_FIFO || *policy == SCHED_RR || sched_getparam(0, saved))
		return false;	/* already real-time: the user chose */
	/* refused without the privilege: the drain then runs at normal priority */
	return !sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &fifo);
}

static int take_over_signals(struct srep_recorder *r, struct loop *l, struct srep_error *err)
{
	sigset_t fd_mask;

	sigemptyset(&l->mask);
	sigaddset(&l->mask, SIGINT);
	sigaddset(&l->mask, SIGTERM);
	sigaddset(&l->mask, SIGCHLD);
	if (r->o.trigger_signal) {
		sigaddset(&l->mask, SIGUSR1);
		sigaddset(&l->mask, SIGUSR2);
	}
	fd_mask = l->mask;
	/* a closed pipe on stdout must be a write error, not a silent death */
	sigaddset(&l->mask, SIGPIPE);
	if (pthread_sigmask(SIG_BLOCK, &l->mask, &l->old))
		return srep_error__set(err, SREP_E_IO, "cannot block signals");
	l->sfd = signalfd(-1, &fd_mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (l->sfd < 0) {
		pthread_sigmask(SIG_SETMASK, &l->old, NULL);
		return srep_error__set(err, SREP_E_IO, "signalfd: %s", strerror(errno));
	}
	return 0;
}

static void give_back_signals(struct loop *l)
{
	struct timespec zero = { 0, 0 };

	/* what came in while we held them was handled: do not deliver it again */
	while (sigtimedwait(&l->mask, NULL, &zero) > 0)
		;
	close(l->sfd);
	pthread_sigmask(SIG_SETMASK, &l->old, NULL);
}

int srep_recorder__run(struct srep_recorder *r, struct srep_error *err)
{
	struct srep_error err2 = { 0 };
	struct sched_param prio;
	struct loop l = { 0 };
	int ret, ret2, policy = SCHED_OTHER;
	bool urgent;

	if (take_over_signals(r, &l, err))
		return err->code;
	ret = writer_start(&r->w, r->pd_open ? &r->pd : NULL, &r->meta, &r->lay, r->backlog_cap, err);
	if (ret) {
		give_back_signals(&l);
		return ret;
	}
	ret = start(r, err);
	urgent = !ret && urgent_drain(&prio, &policy);
	if (!ret)
		ret = record_loop(r, &l, err);
	ret2 = finish(r, !ret, ret ? &err2 : err);
	if (urgent)
		sched_setscheduler(0, policy, &prio);
	ret = ret ? ret : ret2;
	ret2 = writer_stop(r->w, ret ? &err2 : err);
	ret = ret ? ret : ret2;
	ret2 = finished_dumps(r, ret ? &err2 : err);
	ret = ret ? ret : ret2;
	fill_stats(r);
	give_back_signals(&l);
	return ret;
}
