// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * synth.c - records for what existed before the counters were enabled, as
 * perf synthesizes them: the kernel's text mapping (MMAP of
 * "[kernel.kallsyms]_text", so kernel addresses resolve), and for every task
 * a FORK naming its parent and a COMM naming it, plus an MMAP2 for each of a
 * process's executable mappings. Without them a reader could not name the
 * tasks already running. Their time is 0: they describe the start.
 *
 * Tasks come and go while /proc is read: one that vanished is skipped.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rec_local.h"

#define MISC_KERNEL	1
#define MISC_USER	2

/* the sample_id trailer of a synthesized record: no time, CPU 0 */
static int put_trailer(const struct synth_ctx *c, struct rec_buf *b, int32_t pid, int32_t tid)
{
	uint64_t st = c->lay->sample_type;
	int r = 0;

	if (st & PERF_SAMPLE_TID)
		r |= buf_u32(b, (uint32_t)pid) | buf_u32(b, (uint32_t)tid);
	if (st & PERF_SAMPLE_TIME)
		r |= buf_u64(b, 0);
	if (st & PERF_SAMPLE_ID)
		r |= buf_u64(b, c->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		r |= buf_u64(b, c->id);
	if (st & PERF_SAMPLE_CPU)
		r |= buf_u64(b, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r |= buf_u64(b, c->id);
	return r;
}

/* begin a record; end_record() fills in its size */
static int begin_record(struct rec_buf *b, uint32_t type, uint16_t misc, size_t *start)
{
	*start = b->len;
	return buf_u32(b, type) || buf_u16(b, misc) || buf_u16(b, 0) ? -1 : 0;
}

/* a NUL-terminated name padded to 8 bytes */
static int put_name(struct rec_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	return buf_put(b, s, n) || buf_zero(b, (8 - n % 8) % 8) ? -1 : 0;
}

static int end_record(struct rec_buf *b, size_t start)
{
	size_t size = b->len - start;

	if (size > REC_MAX_RECORD) {
		b->len = start;		/* a name too long for a record: leave it out */
		return 0;
	}
	srep_put16(b->p + start + 6, (uint16_t)size, REC_BE);
	return 0;
}

static int nomem(struct srep_error *err)
{
	return srep_error__set(err, SREP_E_NOMEM, "no memory for the synthesized records");
}

static bool kallsyms_addr(const char *text, const char *name, uint64_t *addr)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(text, name); p; p = strstr(p + 1, name)) {
		/* "ffffffff81000000 T _text\n" */
		if (p >= text + 19 && p[-1] == ' ' && p[-3] == ' ' && (p[n] == '\n' || p[n] == '\0')) {
			const char *line = p - 3;

			while (line > text && line[-1] != '\n')
				line--;
			*addr = strtoull(line, NULL, 16);
			return *addr != 0;
		}
	}
	return false;
}

int synth_kernel_mmap(const struct synth_ctx *c, struct rec_buf *out, struct srep_error *err)
{
	uint64_t start, end;
	char *text;
	size_t rec;
	bool ok;

	/* no kallsyms, or addresses hidden (kptr_restrict): perf goes without too */
	if (read_text_file("/proc/kallsyms", &text, NULL))
		return 0;
	ok = (kallsyms_addr(text, "_text", &start) || kallsyms_addr(text, "_stext", &start)) &&
	     kallsyms_addr(text, "_etext", &end) && end > start;
	free(text);
	if (!ok)
		return 0;
	if (begin_record(out, REC_MMAP, MISC_KERNEL, &rec) || buf_u32(out, UINT32_MAX) ||
	    buf_u32(out, 0) || buf_u64(out, start) || buf_u64(out, end - start) ||
	    buf_u64(out, start) || put_name(out, "[kernel.kallsyms]_text") ||
	    put_trailer(c, out, -1, 0) || end_record(out, rec))
		return nomem(err);
	return 0;
}

/* ---- tasks ---- */

struct task_facts {
	int32_t tgid, ppid;
	char comm[32];
};

static bool read_status(int32_t pid, int32_t tid, struct task_facts *t)
{
	char path[64], *text, *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (read_text_file(path, &text, NULL))
		return false;
	t->tgid = (p = strstr(text, "\nTgid:")) ? (int32_t)strtol(p + 6, NULL, 10) : pid;
	t->ppid = (p = strstr(text, "\nPPid:")) ? (int32_t)strtol(p + 6, NULL, 10) : 0;
	t->comm[0] = '\0';
	if (!strncmp(text, "Name:", 5)) {
		p = text + 5 + strspn(text + 5, " \t");
		snprintf(t->comm, sizeof(t->comm), "%.*s", (int)strcspn(p, "\n"), p);
	}
	free(text);
	return true;
}

static int put_thread(const struct synth_ctx *c, struct rec_buf *out, int32_t pid, int32_t tid,
		      const struct task_facts *t)
{
	/* perf's convention: threads are the children of their process's main thread */
	int32_t parent = tid == pid ? t->ppid : pid;
	size_t rec;

	if (begin_record(out, REC_FORK, 0, &rec) || buf_u32(out, (uint32_t)pid) ||
	    buf_u32(out, (uint32_t)parent) || buf_u32(out, (uint32_t)tid) ||
	    buf_u32(out, (uint32_t)parent) || buf_u64(out, 0) || put_trailer(c, out, pid, tid) ||
	    end_record(out, rec))
		return -1;
	if (begin_record(out, REC_COMM, 0, &rec) || buf_u32(out, (uint32_t)pid) ||
	    buf_u32(out, (uint32_t)tid) || put_name(out, t->comm) || put_trailer(c, out, pid, tid) ||
	    end_record(out, rec))
		return -1;
	return 0;
}

/* one line of /proc/PID/maps, executable mappings only (as perf without --data) */
static int put_mapping(const struct synth_ctx *c, struct rec_buf *out, int32_t pid, char *line)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[5] = "", *path;
	uint32_t prot;
	int used = 0;
	size_t rec;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min,
		   &ino, &used) < 7 || perms[2] != 'x')
		return 0;
	path = line + used;
	prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
	if (begin_record(out, REC_MMAP2, MISC_USER, &rec) || buf_u32(out, (uint32_t)pid) ||
	    buf_u32(out, (uint32_t)pid) || buf_u64(out, start) || buf_u64(out, end - start) ||
	    buf_u64(out, pgoff) || buf_u32(out, maj) || buf_u32(out, min) || buf_u64(out, ino) ||
	    buf_u64(out, 0) || buf_u32(out, prot) ||
	    buf_u32(out, perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE) ||
	    put_name(out, *path ? path : "//anon") || put_trailer(c, out, pid, pid) ||
	    end_record(out, rec))
		return -1;
	return 0;
}

static int put_mappings(const struct synth_ctx *c, struct rec_buf *out, int32_t pid)
{
	char path[64], *text, *line, *save = NULL;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (read_text_file(path, &text, NULL))
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save))
		r = put_mapping(c, out, pid, line);
	free(text);
	return r;
}

int synth_threads_of(int32_t pid, int32_t **tids, size_t *nr, struct srep_error *err)
{
	char path[64];
	struct dirent *d;
	size_t cap = 0;
	int32_t *n;
	DIR *dir;

	*tids = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return srep_error__set(err, SREP_E_INVAL, "no process %d to record", pid);
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		if (*nr == cap) {
			cap = cap ? cap * 2 : 16;
			n = realloc(*tids, cap * sizeof(*n));
			if (!n) {
				closedir(dir);
				free(*tids);
				*tids = NULL;
				return nomem(err);
			}
			*tids = n;
		}
		(*tids)[(*nr)++] = (int32_t)strtol(d->d_name, NULL, 10);
	}
	closedir(dir);
	return *nr ? 0 : srep_error__set(err, SREP_E_INVAL, "process %d has no threads", pid);
}

static int put_process(const struct synth_ctx *c, struct rec_buf *out, int32_t pid)
{
	struct task_facts t;
	int32_t *tids;
	size_t nr, i;
	int r = 0;

	if (synth_threads_of(pid, &tids, &nr, NULL))
		return 0;	/* gone */
	for (i = 0; i < nr && !r; i++) {
		if (read_status(pid, tids[i], &t))
			r = put_thread(c, out, pid, tids[i], &t);
	}
	free(tids);
	return r ? r : put_mappings(c, out, pid);
}

int synth_tasks(const struct synth_ctx *c, struct rec_buf *out, struct srep_error *err)
{
	struct dirent *d;
	size_t i;
	DIR *dir;
	int r = 0;

	if (!c->system_wide) {
		for (i = 0; i < c->nr_pids && !r; i++)
			r = put_process(c, out, c->pids[i]);
		return r ? nomem(err) : 0;
	}
	dir = opendir("/proc");
	if (!dir)
		return srep_error__set(err, SREP_E_IO, "cannot read /proc: %s", strerror(errno));
	while (!r && (d = readdir(dir))) {
		if (isdigit((unsigned char)d->d_name[0]))
			r = put_process(c, out, (int32_t)strtol(d->d_name, NULL, 10));
	}
	closedir(dir);
	return r ? nomem(err) : 0;
}
