// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - setting the recorder up and taking it down: options checked,
 * tracefs and events found, the workload held before exec, counters and
 * rings opened, the header facts gathered and the output opened. Every step
 * is undone by srep_recorder__delete(), whatever was reached, so a failure
 * never leaves counters open or a child running. run.c records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_local.h"

#define BACKLOG_MAX	(512ull << 20)	/* bytes waiting for the disk, at most... */
#define BACKLOG_SHARE	8		/* ...and at most this fraction of memory */

int srep_rec_parse_size(const char *s, uint64_t *out, struct srep_error *err)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		goto bad;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end || v > (UINT64_MAX >> shift))
		goto bad;
	*out = (uint64_t)v << shift;
	return 0;
bad:
	return srep_error__set(err, SREP_E_INVAL, "bad size '%s': expected a number with K, M or G (binary units)",
			       s);
}

static int check_opts(const struct srep_rec_opts *o, struct srep_error *err)
{
	bool triggers = o->trigger_signal || o->trigger_fifo || o->trigger_latency_ns;

	if (o->ring_bytes && o->output && !strcmp(o->output, "-"))
		return srep_error__set(err, SREP_E_INVAL,
				       "--ring writes dump files: it cannot write to standard output ('-o -')");
	if (triggers && !o->ring_bytes)
		return srep_error__set(err, SREP_E_INVAL, "--trigger needs --ring SIZE");
	if (o->nr_pids && (o->argv || o->system_wide))
		return srep_error__set(err, SREP_E_INVAL, "-p cannot be combined with -a or a command");
	if (o->mmap_pages & (o->mmap_pages - 1))
		return srep_error__set(err, SREP_E_INVAL, "-m %u: the number of pages must be a power of two",
				       o->mmap_pages);
	return 0;
}

static bool needs_tracefs(const struct srep_rec_opts *o)
{
	size_t i;

	if (!o->nr_events || o->trigger_latency_ns)
		return true;
	for (i = 0; i < o->nr_events; i++) {
		struct srep_rec_counter c;

		if (strchr(o->events[i], ':') && srep_rec_counter__parse(o->events[i], &c, NULL))
			return true;
	}
	return false;
}

static int online_cpus(int **cpus, size_t *nr, struct srep_error *err)
{
	char *online;
	int ret;

	if (read_text_file("/sys/devices/system/cpu/online", &online, NULL))
		return srep_error__set(err, SREP_E_IO, "cannot read the online CPUs: %s", strerror(errno));
	ret = cpulist_parse(online, cpus, nr, err);
	free(online);
	return ret;
}

/* -C names CPUs that must be online: perf_event_open on another says only EINVAL */
static int find_cpus(struct srep_recorder *r, struct srep_error *err)
{
	int *online;
	size_t nr_online, i;
	int ret;

	if (online_cpus(&online, &nr_online, err))
		return -1;
	if (!r->o.cpus) {
		r->cpus = online;
		r->nr_cpus = nr_online;
		return 0;
	}
	ret = cpulist_parse(r->o.cpus, &r->cpus, &r->nr_cpus, err);
	for (i = 0; !ret && i < r->nr_cpus; i++) {
		if (!cpulist_has(online, nr_online, r->cpus[i]))
			ret = srep_error__set(err, SREP_E_INVAL, "-C: CPU %d is not online", r->cpus[i]);
	}
	free(online);
	return ret;
}

/* -p: every thread of every process; a workload: its pid (children inherit) */
static int find_tasks(struct srep_recorder *r, struct srep_error *err)
{
	int32_t *t, *n;
	size_t i, nr;

	if (r->o.argv && !r->o.system_wide) {
		r->tids = malloc(sizeof(*r->tids));
		if (!r->tids)
			return srep_error__set(err, SREP_E_NOMEM, "no memory");
		r->tids[0] = r->wl.pid;
		r->nr_tids = 1;
	}
	for (i = 0; i < r->o.nr_pids; i++) {
		if (synth_threads_of(r->o.pids[i], &t, &nr, err))
			return err->code;
		n = realloc(r->tids, (r->nr_tids + nr) * sizeof(*n));
		if (!n) {
			free(t);
			return srep_error__set(err, SREP_E_NOMEM, "no memory");
		}
		r->tids = n;
		memcpy(r->tids + r->nr_tids, t, nr * sizeof(*t));
		r->nr_tids += nr;
		free(t);
	}
	return 0;
}

static int open_counters(struct srep_recorder *r, struct srep_error *err)
{
	struct counters_target t = { r->cpus, r->nr_cpus, r->nr_tids ? r->tids : NULL, r->nr_tids,
				     r->o.mmap_pages ? r->o.mmap_pages : SREP_REC_DEFAULT_PAGES };
	uint64_t st = r->el.ev[0].attr.sample_type;
	size_t i;

	if (counters_open(&r->ctr, &r->el, &t, err) || evlist_index_ids(&r->el, err))
		return err->code;
	/* every event has the same sample_id layout; take a tracepoint's for RAW */
	for (i = 0; i < r->el.nr; i++) {
		if (r->el.ev[i].sys) {
			st = r->el.ev[i].attr.sample_type;
			break;
		}
	}
	layout_init(&r->lay, st);
	r->hup = calloc(r->ctr.nr_rings ? r->ctr.nr_rings : 1, sizeof(*r->hup));
	if (!r->hup || account_init(&r->acct, &r->lay, &r->el, r->ctr.nr_rings))
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	return 0;
}

static int header_facts(struct srep_recorder *r, struct srep_error *err)
{
	size_t ring = (size_t)(r->o.mmap_pages ? r->o.mmap_pages : SREP_REC_DEFAULT_PAGES) *
		      (size_t)sysconf(_SC_PAGESIZE);
	struct rec_feature_input in = { &r->el, NULL, r->o.cmdline, r->o.nr_cmdline, r->o.compress,
					(uint32_t)(ring > RZ_SLICE ? ring : RZ_SLICE) };

	if (r->el.has_tracepoints) {
		if (tracefs_tracing_data(r->tracefs, &r->el, &r->tracing, err))
			return err->code;
		in.tracing = &r->tracing;
	}
	if (features_collect(&r->fs, &in, err))
		return err->code;
	r->meta = (struct pd_meta){ &r->el, &r->fs, in.tracing, r->o.compress, in.comp_mmap_len };
	return 0;
}

/* as perf: an older trace of the same name is kept as NAME.old */
static int open_output(struct srep_recorder *r, struct srep_error *err)
{
	const char *out = r->o.output ? r->o.output : "perf.data";
	struct stat st;
	char *old;

	r->path = strdup(out);
	if (!r->path)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	if (r->o.ring_bytes)
		return 0;
	if (!strcmp(out, "-")) {
		r->out_fd = STDOUT_FILENO;
		return 0;
	}
	if (!stat(out, &st) && S_ISREG(st.st_mode)) {
		if (asprintf(&old, "%s.old", out) < 0)
			return srep_error__set(err, SREP_E_NOMEM, "no memory");
		if (rename(out, old)) {
			free(old);
			return srep_error__set(err, SREP_E_IO, "cannot keep the old '%s': %s", out, strerror(errno));
		}
		free(old);
	}
	r->out_fd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->out_fd < 0)
		return srep_error__set(err, SREP_E_IO, "cannot create '%s': %s", out, strerror(errno));
	return 0;
}

static int open_fifo(struct srep_recorder *r, struct srep_error *err)
{
	const char *path = r->o.trigger_fifo;
	struct stat st;

	if (stat(path, &st)) {
		if (errno != ENOENT || mkfifo(path, 0600))
			return srep_error__set(err, SREP_E_IO, "cannot create the FIFO '%s': %s", path,
					       strerror(errno));
		r->fifo_created = true;
	} else if (!S_ISFIFO(st.st_mode)) {
		return srep_error__set(err, SREP_E_INVAL, "'%s' is not a FIFO", path);
	}
	/* read-write: we stay a writer, so the FIFO never reports end of file */
	r->fifo_fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (r->fifo_fd < 0)
		return srep_error__set(err, SREP_E_IO, "cannot open the FIFO '%s': %s", path, strerror(errno));
	return 0;
}

static uint64_t default_backlog(const struct srep_recorder *r)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
	uint64_t cap = mem ? mem / BACKLOG_SHARE : BACKLOG_MAX, rings = 0;
	size_t i;

	for (i = 0; i < r->ctr.nr_rings; i++)
		rings += r->ctr.rings[i].size;
	cap = cap < BACKLOG_MAX ? cap : BACKLOG_MAX;
	return cap > 2 * rings ? cap : 2 * rings;
}

static int setup(struct srep_recorder *r, struct srep_error *err)
{
	if (check_opts(&r->o, err))
		return err->code;
	if (needs_tracefs(&r->o) && tracefs_find(r->o.tracefs, &r->tracefs, err))
		return err->code;
	if (evlist_build(&r->el, &r->o, r->tracefs, err) || find_cpus(r, err))
		return err->code;
	r->st.skipped_events = r->el.skipped;
	if (r->o.argv &&
	    srep_rec_workload__prepare(&r->wl, r->o.argv,
				       !r->o.ring_bytes && r->o.output && !strcmp(r->o.output, "-"), err))
		return err->code;
	if (find_tasks(r, err) || open_counters(r, err) || header_facts(r, err))
		return err->code;
	r->backlog_cap = default_backlog(r);
	if (r->o.ring_bytes && flight_init(&r->flight, (size_t)r->o.ring_bytes, err))
		return err->code;
	if (r->o.trigger_latency_ns &&
	    latency_new(&r->lat, &r->el, r->tracefs, r->o.trigger_latency_ns, err))
		return err->code;
	if (r->o.trigger_fifo && open_fifo(r, err))
		return err->code;
	/* last: a failure before this leaves no output behind */
	if (open_output(r, err))
		return err->code;
	if (!r->o.ring_bytes) {
		r->pd_open = true;
		if (pd_begin(&r->pd, r->out_fd, !strcmp(r->path, "-"), r->path, &r->meta, err)) {
			if (r->out_fd > STDOUT_FILENO)
				unlink(r->path);
			return err->code;
		}
	}
	return 0;
}

int srep_recorder__new(struct srep_recorder **out, const struct srep_rec_opts *opts,
		       struct srep_error *err)
{
	struct srep_recorder *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	r->o = *opts;
	r->out_fd = r->fifo_fd = -1;
	r->wl.go_fd = r->wl.err_fd = -1;
	if (!r->o.ring_bytes)
		r->o.trigger_signal = false;
	else if (!r->o.trigger_signal && !r->o.trigger_fifo && !r->o.trigger_latency_ns)
		r->o.trigger_signal = true;	/* a flight recorder needs some trigger */
	if (setup(r, err)) {
		srep_recorder__delete(r);
		return err->code;
	}
	*out = r;
	return 0;
}

const struct srep_rec_stats *srep_recorder__stats(const struct srep_recorder *r)
{
	return &r->st;
}

void srep_recorder__delete(struct srep_recorder *r)
{
	if (!r)
		return;
	counters_close(&r->ctr);
	srep_rec_workload__kill(&r->wl);
	srep_rec_workload__done(&r->wl);
	writer_free(r->w);
	if (r->pd_open)
		pd_free(&r->pd);
	if (r->out_fd > STDOUT_FILENO)
		close(r->out_fd);
	if (r->fifo_fd >= 0)
		close(r->fifo_fd);
	if (r->fifo_created)
		unlink(r->o.trigger_fifo);
	latency_free(r->lat);
	flight_free(&r->flight);
	account_free(&r->acct);
	features_free(&r->fs);
	buf_free(&r->tracing);
	buf_free(&r->round);
	evlist_free(&r->el);
	free(r->ev_stats);
	free(r->hup);
	free(r->tids);
	free(r->cpus);
	free(r->path);
	free(r->tracefs);
	free(r);
}
