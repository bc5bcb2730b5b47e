/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tp.c - tracepoints: binding events to their formats and decoding the RAW
 * payloads of tracepoint samples. With tp_blob.c, the only caller of
 * libtraceevent.
 *
 * libtraceevent parses the format texts. The hot path (tp_decode) does not
 * call it: the offsets of the fields each neutral event needs are looked up
 * by name once, at bind time, because layouts differ between kernels (prev_state
 * is a 'long', comms became __data_loc strings in 6.x, ...). Payload bytes are
 * read through bytes.h in the blob's byte order and bounded by the payload size.
 *
 * libtraceevent sees a payload only to turn a sched_switch prev_state value
 * into a letter through the trace's own print format (DECISIONS.md); the answer
 * is memoised per value, so that costs one evaluation per distinct value.
 *
 * tp_print() gives the text of a payload as its print format says; for the
 * sched events tp_native.c writes it, libtraceevent for the rest.
 *
 * A session is single-threaded: tp_decode() updates that memo, and tp_print()
 * its buffer and tp_native's memo, through a const tp_event.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "reader.h"
#include "tp_local.h"

#define TP_FILENAME_MAX	(64u << 10)	/* exec filename copy: PATH_MAX is 4 KiB, room to spare */
#define TP_MEMO_MAX	32		/* distinct prev_state values remembered per event */

/* the fields the neutral decoders read, found by name at bind time */
#define FSLOTS								\
	X(COMMON_PID, "common_pid")						\
	X(COMM, "comm") X(PID, "pid") X(PRIO, "prio") X(TARGET_CPU, "target_cpu") \
	X(SUCCESS, "success") X(ORIG_CPU, "orig_cpu") X(DEST_CPU, "dest_cpu")	\
	X(PREV_COMM, "prev_comm") X(PREV_PID, "prev_pid") X(PREV_PRIO, "prev_prio") \
	X(PREV_STATE, "prev_state") X(NEXT_COMM, "next_comm")		\
	X(NEXT_PID, "next_pid") X(NEXT_PRIO, "next_prio")			\
	X(PARENT_COMM, "parent_comm") X(PARENT_PID, "parent_pid")		\
	X(CHILD_COMM, "child_comm") X(CHILD_PID, "child_pid")		\
	X(FILENAME, "filename") X(OLD_PID, "old_pid") X(NEWCOMM, "newcomm")	\
	X(RUNTIME, "runtime") X(DELAY, "delay") X(VRUNTIME, "vruntime")	\
	X(STATE, "state") X(CPU_ID, "cpu_id")

#define X(slot, name) F_##slot,
enum fslot { FSLOTS F_NR };
#undef X
#define X(slot, name) name,
static const char *const fslot_name[F_NR] = { FSLOTS };
#undef X

#define FL_SIGNED	0x1
#define FL_DYN		0x2	/* __data_loc / __rel_loc: the field holds where the data is */
#define FL_REL		0x4	/* __rel_loc: offset counts from the end of the field */

/* where a field is; size 0 = the format has no such field */
struct tp_fld {
	uint32_t off, size;
	uint32_t flags;
};

/* one field for generic access (tp_field) */
struct tp_gfield {
	const char *name;		/* owned by the tep handle */
	struct tp_fld loc;
	enum srep_field_kind kind;
	uint32_t elem_size;		/* ARRAY */
};

/* prev_state value -> letter; mutable behind a const tp_event (see top) */
struct tp_memo {
	unsigned nr, next;
	struct { uint64_t value; char letter; bool preempt; } e[TP_MEMO_MAX];
	struct tp_synth synth;		/* libtraceevent's text for a prev_state value */
};

struct tp_event {
	struct tp_event *next;		/* tp_ctx list: one binding per format, shared by evsels */
	struct tep_event *tev;
	struct tep_handle *tep;
	enum tp_kind kind;
	bool big_endian, swap;		/* of the tracing blob, hence of every payload */
	uint32_t usual_end;		/* the kind's usual layout (usual_end()): its end; 0 other */
	struct tp_fld f[F_NR];
	struct tp_gfield *fields;	/* common_* first, then the event's own, format order */
	int nr_fields;
	struct tp_memo *memo;		/* sched_switch only */
	struct trace_seq *seq;		/* tp_print's buffer, made on first use (see top) */
	struct tp_native *native;	/* tp_print without libtraceevent; NULL: with it */
};


/* ---- Context ---- */

int tp_ctx_new(struct tp_ctx **out, struct srep_error *err)
{
	struct tp_ctx *tp = calloc(1, sizeof(*tp));

	*out = NULL;
	if (!tp || !(tp->tep = tep_alloc())) {
		free(tp);
		return srep_error__set(err, SREP_E_NOMEM, "cannot allocate the tracepoint parser");
	}
	/*
	 * The library never prints. libtraceevent 1.7.1 sends its parse warnings
	 * through tep_warning(), gated by this process-wide level; we choose the
	 * level rather than overriding the weak tep_vprint(), which would need a
	 * global to find the session to report to. Parse failures are counted
	 * and reported by us instead (tp_blob_parse).
	 */
	tep_set_loglevel(TEP_LOG_NONE);
	*out = tp;
	return 0;
}

static void tp_event_free(struct tp_event *t)
{
	if (t->seq)
		trace_seq_destroy(t->seq);
	free(t->seq);
	tp_native_free(t->native);
	if (t->memo)
		tp_synth_free(&t->memo->synth);
	free(t->memo);
	free(t->fields);
	free(t);
}

void tp_ctx_free(struct tp_ctx *tp)
{
	struct tp_event *t, *next;

	if (!tp)
		return;
	for (t = tp->events; t; t = next) {
		next = t->next;
		tp_event_free(t);
	}
	tep_free(tp->tep);
	free(tp);
}

/* ---- Binding an evsel to its format ---- */

static const struct {
	const char *sys, *name;
	enum tp_kind kind;
} tp_kinds[] = {
	{ "sched", "sched_switch", TP_SWITCH }, { "sched", "sched_waking", TP_WAKING },
	{ "sched", "sched_wakeup", TP_WAKEUP }, { "sched", "sched_wakeup_new", TP_WAKEUP_NEW },
	{ "sched", "sched_migrate_task", TP_MIGRATE },
	{ "sched", "sched_process_fork", TP_FORK }, { "sched", "sched_process_exec", TP_EXEC },
	{ "sched", "sched_process_exit", TP_EXIT }, { "sched", "sched_process_free", TP_FREE },
	{ "task", "task_rename", TP_RENAME },
	{ "sched", "sched_stat_runtime", TP_STAT_RUNTIME },
	{ "sched", "sched_stat_sleep", TP_STAT_SLEEP }, { "sched", "sched_stat_wait", TP_STAT_WAIT },
	{ "sched", "sched_stat_iowait", TP_STAT_IOWAIT },
	{ "sched", "sched_stat_blocked", TP_STAT_BLOCKED },
	{ "power", "cpu_idle", TP_CPU_IDLE }, { "power", "cpu_frequency", TP_CPU_FREQ },
};

static enum tp_kind tp_classify(const struct tep_event *tev)
{
	size_t i;

	if (!tev->system || !tev->name)
		return TP_NONE;
	for (i = 0; i < sizeof(tp_kinds) / sizeof(tp_kinds[0]); i++)
		if (!strcmp(tev->system, tp_kinds[i].sys) && !strcmp(tev->name, tp_kinds[i].name))
			return tp_kinds[i].kind;
	return TP_NONE;
}

/* false for a field whose offset or size libtraceevent could not make sense of */
static bool fld_from_tep(struct tp_fld *f, const struct tep_format_field *tf)
{
	memset(f, 0, sizeof(*f));
	if (!tf || tf->offset < 0 || tf->size <= 0)
		return false;
	f->off = (uint32_t)tf->offset;
	f->size = (uint32_t)tf->size;
	if (tf->flags & TEP_FIELD_IS_SIGNED)
		f->flags |= FL_SIGNED;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC)
		f->flags |= FL_DYN;
	if (tf->flags & TEP_FIELD_IS_RELATIVE)
		f->flags |= FL_REL;
	return true;
}

/* element size of an array field; unknown types fall back to bytes (lossless) */
static uint32_t elem_size_of(const struct tep_format_field *tf, int long_size)
{
	uint32_t es = tf->elementsize;

	if (es == 1 || es == 2 || es == 4 || es == 8)
		return es;
	if (tf->flags & TEP_FIELD_IS_LONG)
		return (uint32_t)long_size;
	return 1;
}

static void gfield_from_tep(struct tp_gfield *g, const struct tep_format_field *tf, int long_size)
{
	bool sized = tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8;

	g->name = tf->name;
	fld_from_tep(&g->loc, tf);
	g->elem_size = 1;
	/* libtraceevent calls u8/s8 arrays strings too: only char ones are text */
	if ((tf->flags & TEP_FIELD_IS_STRING) && tf->type && strstr(tf->type, "char")) {
		g->kind = SREP_FIELD_STR;
	} else if (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		g->kind = SREP_FIELD_ARRAY;
		g->elem_size = elem_size_of(tf, long_size);
	} else if (!sized) {
		g->kind = SREP_FIELD_ARRAY;	/* odd-sized scalar: its bytes */
	} else {
		g->kind = (tf->flags & TEP_FIELD_IS_SIGNED) ? SREP_FIELD_INT : SREP_FIELD_UINT;
	}
}

static int gfields_build(struct tp_event *t)
{
	const struct tep_format_field *tf;
	int n = 0, long_size = tep_get_long_size(t->tep);

	for (tf = t->tev->format.common_fields; tf; tf = tf->next)
		n++;
	for (tf = t->tev->format.fields; tf; tf = tf->next)
		n++;
	t->fields = calloc(n ? (size_t)n : 1, sizeof(*t->fields));
	if (!t->fields)
		return -1;
	n = 0;
	for (tf = t->tev->format.common_fields; tf; tf = tf->next)
		gfield_from_tep(&t->fields[n++], tf, long_size);
	for (tf = t->tev->format.fields; tf; tf = tf->next)
		gfield_from_tep(&t->fields[n++], tf, long_size);
	t->nr_fields = n;
	return 0;
}

/* prev_state's letters, found once per value (state_of); none for an absurd layout */
static int memo_new(struct tp_event *t)
{
	const struct tp_fld *st = &t->f[F_PREV_STATE];
	int ret;

	if (!st->size)
		return 0;
	t->memo = calloc(1, sizeof(*t->memo));
	if (!t->memo)
		return -1;
	ret = tp_synth_init(&t->memo->synth, t->tep, t->tev, st->off, st->size, t->big_endian);
	if (ret) {
		free(t->memo);
		t->memo = NULL;
	}
	return ret == SREP_E_NOMEM ? -1 : 0;	/* letters stay '?' otherwise */
}

/*
 * The layouts every kernel since 2.6 gives the busiest events: fixed pids,
 * priorities and CPUs of 4 bytes, comms of 16, times of 8 (sched_switch's
 * prev_state of 4 or 8: size 0 below). Found once per format, they let a
 * decoder check the payload's size once instead of per field.
 */
struct usual_fld {
	enum fslot slot;
	uint32_t size;
};

static const struct usual_fld usual_switch[] = {
	{ F_PREV_PID, 4 }, { F_NEXT_PID, 4 }, { F_PREV_PRIO, 4 }, { F_NEXT_PRIO, 4 },
	{ F_PREV_COMM, 16 }, { F_NEXT_COMM, 16 }, { F_PREV_STATE, 0 },
};
static const struct usual_fld usual_wakeup[] = {
	{ F_PID, 4 }, { F_PRIO, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 },
};
static const struct usual_fld usual_runtime[] = { { F_PID, 4 }, { F_RUNTIME, 8 } };

/* the end of the last of the fields when each has its usual size; 0 when one differs */
static uint32_t usual_end(const struct tp_event *t, const struct usual_fld *u, size_t nr)
{
	uint32_t end = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct tp_fld *f = &t->f[u[i].slot];

		if (f->flags & FL_DYN || (u[i].size ? f->size != u[i].size :
					  f->size != 4 && f->size != 8))
			return 0;
		if (f->off + f->size > end)
			end = f->off + f->size;
	}
	return end;
}

#define USUAL_END(t, table) usual_end((t), (table), sizeof(table) / sizeof((table)[0]))

/*
 * sched_stat_runtime: pid and runtime, then a comm of 16 bytes and a
 * vruntime of 8, or (newer kernels: 6.18 here) a __data_loc comm and no vruntime
 */
static uint32_t usual_runtime_end(const struct tp_event *t)
{
	const struct tp_fld *vr = &t->f[F_VRUNTIME], *comm = &t->f[F_COMM];
	uint32_t end = USUAL_END(t, usual_runtime);

	if (!end || (vr->size && (vr->size != 8 || (vr->flags & FL_DYN))) ||
	    (!(comm->flags & FL_DYN) && comm->size != 16) || (comm->flags & FL_DYN && comm->size != 4))
		return 0;
	if (vr->size && vr->off + vr->size > end)
		end = vr->off + vr->size;
	return comm->off + comm->size > end ? comm->off + comm->size : end;
}

static uint32_t usual_end_of(const struct tp_event *t)
{
	switch (t->kind) {
	case TP_SWITCH:		return USUAL_END(t, usual_switch);
	case TP_WAKING:
	case TP_WAKEUP:
	case TP_WAKEUP_NEW:	return USUAL_END(t, usual_wakeup);
	case TP_STAT_RUNTIME:	return usual_runtime_end(t);
	default:		return 0;
	}
}

static struct tp_event *tp_event_new(struct tp_ctx *tp, struct tep_event *tev)
{
	struct tp_event *t = calloc(1, sizeof(*t));
	int i;

	if (!t)
		return NULL;
	t->tev = tev;
	t->tep = tp->tep;
	t->kind = tp_classify(tev);
	t->big_endian = tp->big_endian;
	t->swap = srep_swap_for(tp->big_endian);
	/* tep_find_any_field: common_type/common_pid live among the common fields */
	for (i = 0; i < F_NR; i++)
		fld_from_tep(&t->f[i], tep_find_any_field(tev, fslot_name[i]));
	t->usual_end = usual_end_of(t);
	if (gfields_build(t) < 0 || (t->kind == TP_SWITCH && memo_new(t) < 0)) {
		tp_event_free(t);
		return NULL;
	}
	t->native = tp_native_new(tp->tep, tev, tp->big_endian);	/* NULL: libtraceevent prints */
	t->next = tp->events;
	tp->events = t;
	return t;
}

void tp_bind(struct srep_session *s, struct evsel *ev)
{
	struct tp_ctx *tp = s->tp;
	struct tep_event *tev;
	struct tp_event *t;
	char name[256];

	ev->tp = NULL;
	ev->kind = TP_NONE;
	ev->kind_bit = 0;
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !tp || !tp->has_data ||
	    ev->attr.config > INT_MAX)
		return;
	tev = tep_find_event(tp->tep, (int)ev->attr.config);
	if (!tev)
		return;
	for (t = tp->events; t && t->tev != tev; t = t->next)
		;
	if (!t && !(t = tp_event_new(tp, tev)))
		return;		/* no memory: the samples stay generic */
	ev->tp = t;
	ev->kind = t->kind;
	/* the skip test of every record, without a table look-up */
	ev->kind_bit = t->kind != TP_NONE ? SREP_EV_BIT(tp_event_kind(t->kind)) : 0;
	if (!ev->name_from_file && tev->system && tev->name) {
		snprintf(name, sizeof(name), "%s:%s", tev->system, tev->name);
		/* on failure the derived name stays: nothing worse than that */
		(void)evsel_set_name(ev, name, false);
	}
	if (t->kind != TP_NONE)
		s->has_tp[t->kind] = true;
}

/* ---- Reading fields of a payload (hot path) ---- */

/* the bytes of a field: in place, or where its __data_loc / __rel_loc says */
static inline bool fld_region(const struct tp_fld *f, const uint8_t *raw, uint32_t n, bool swap,
			      const uint8_t **p, uint32_t *len)
{
	uint32_t o;

	if (!(f->flags & FL_DYN)) {
		if (!f->size || f->size > n || f->off > n - f->size)
			return false;
		*p = raw + f->off;
		*len = f->size;
		return true;
	}
	if (!tp_loc_region(f->off, f->size, f->flags & FL_REL, raw, n, swap, &o, len))
		return false;
	*p = raw + o;
	return true;
}

static inline bool fld_uint(const struct tp_event *t, enum fslot s, const uint8_t *raw,
			    uint32_t n, uint64_t *v)
{
	const uint8_t *p;
	uint32_t len;

	if ((t->f[s].flags & FL_DYN) || !fld_region(&t->f[s], raw, n, t->swap, &p, &len))
		return false;
	return srep_get_uint(p, len, t->swap, v);
}

/* a numeric field, sign-extended when signed; 'dflt' when absent or outside */
static inline int64_t fld_int(const struct tp_event *t, enum fslot s, const uint8_t *raw,
			      uint32_t n, int64_t dflt)
{
	uint64_t v;

	if (!fld_uint(t, s, raw, n, &v))
		return dflt;
	if (t->f[s].flags & FL_SIGNED)
		return srep_sign_extend(v, t->f[s].size);
	return (int64_t)v;
}

/* a comm: up to the first NUL, at most SREP_COMM_MAX - 1 bytes, "" when absent */
static inline void fld_comm(const struct tp_event *t, enum fslot s, const uint8_t *raw,
			    uint32_t n, char *dst)
{
	const uint8_t *p;
	uint32_t len;

	dst[0] = 0;
	if (!fld_region(&t->f[s], raw, n, t->swap, &p, &len))
		return;
	/* no search for the NUL: the copy reads as a string up to it anyway */
	if (len == 16) {
		memcpy(dst, p, 16);	/* TASK_COMM_LEN: a constant-size copy, inlined */
	} else {
		if (len > SREP_COMM_MAX - 1)
			len = SREP_COMM_MAX - 1;
		memcpy(dst, p, len);
	}
	dst[len] = 0;
}

/* the exec filename, copied into the caller's growing buffer; "" on failure */
static const char *fld_filename(const struct tp_event *t, const uint8_t *raw, uint32_t n,
				char **buf, size_t *cap)
{
	const uint8_t *p, *nul;
	uint32_t len;
	char *nb;

	if (!fld_region(&t->f[F_FILENAME], raw, n, t->swap, &p, &len))
		return "";
	nul = memchr(p, 0, len);
	if (nul)
		len = (uint32_t)(nul - p);
	if (len > TP_FILENAME_MAX - 1)
		len = TP_FILENAME_MAX - 1;
	if (*cap < (size_t)len + 1) {
		size_t ncap = len + 1 < 256 ? 256 : (size_t)len + 1;

		nb = realloc(*buf, ncap);
		if (!nb)
			return "";
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf, p, len);
	(*buf)[len] = 0;
	return *buf;
}

/* ---- prev_state letters from the trace's own print format ---- */

/* "... prev_state=S ==> ..." or "prev_state=R+": the letter, '+' = preempted */
static void state_from_text(const char *txt, char *letter, bool *preempt)
{
	const char *p = strstr(txt, "prev_state=");
	size_t n;

	if (!p)
		return;
	p += strlen("prev_state=");
	n = strcspn(p, " ");
	if (n == 0)
		return;
	if (p[n - 1] == '+') {
		*letter = 'R';
		*preempt = true;
	} else if (strchr("RSDTtXZPI", p[0])) {
		*letter = p[0];
	}
}

/* the expensive path: libtraceevent prints a synthetic record with this value */
static void state_eval(const struct tp_event *t, uint64_t v, char *letter, bool *preempt)
{
	struct trace_seq seq;

	if (!tp_synth_print(&t->memo->synth, v, &seq))
		return;
	state_from_text(seq.buffer, letter, preempt);
	trace_seq_destroy(&seq);
}

static void state_of(const struct tp_event *t, uint64_t v, char *letter, bool *preempt)
{
	struct tp_memo *m = t->memo;
	unsigned i;

	*letter = '?';
	*preempt = false;
	if (!m)
		return;
	for (i = 0; i < m->nr; i++) {
		if (m->e[i].value == v) {
			*letter = m->e[i].letter;
			*preempt = m->e[i].preempt;
			return;
		}
	}
	state_eval(t, v, letter, preempt);
	/* full: overwrite round robin (real traces show a handful of values) */
	i = m->nr < TP_MEMO_MAX ? m->nr++ : m->next++ % TP_MEMO_MAX;
	m->e[i].value = v;
	m->e[i].letter = *letter;
	m->e[i].preempt = *preempt;
}

/* ---- Neutral events ---- */

#define I32(slot, dflt) ((int32_t)fld_int(t, (slot), raw, n, (dflt)))

/* a comm of the usual 16 bytes, as fld_comm() copies it */
static inline void usual_comm(char *dst, const uint8_t *src)
{
	memcpy(dst, src, 16);
	dst[16] = 0;
}

/* the usual layout (usual_switch) in a payload long enough for it */
static void decode_usual_switch(const struct tp_event *t, const uint8_t *raw,
				struct srep_switch *sw, uint64_t *state)
{
	const struct tp_fld *f = t->f;

	sw->prev_tid = (int32_t)srep_get32(raw + f[F_PREV_PID].off, t->swap);
	sw->next_tid = (int32_t)srep_get32(raw + f[F_NEXT_PID].off, t->swap);
	sw->prev_prio = (int32_t)srep_get32(raw + f[F_PREV_PRIO].off, t->swap);
	sw->next_prio = (int32_t)srep_get32(raw + f[F_NEXT_PRIO].off, t->swap);
	usual_comm(sw->prev_comm, raw + f[F_PREV_COMM].off);
	usual_comm(sw->next_comm, raw + f[F_NEXT_COMM].off);
	*state = f[F_PREV_STATE].size == 8 ? srep_get64(raw + f[F_PREV_STATE].off, t->swap) :
		 srep_get32(raw + f[F_PREV_STATE].off, t->swap);
}

static void decode_switch(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			  struct srep_event *out)
{
	struct srep_switch *sw = &out->u.sw;
	uint64_t state;
	bool preempt = false, has_state = true;

	/* the hottest decoder: every member is set below, so no memset */
	sw->prev_pid = sw->next_pid = -1;	/* tgids: the caller's task table knows */
	if (t->usual_end && n >= t->usual_end) {
		decode_usual_switch(t, raw, sw, &state);
	} else {
		sw->prev_tid = I32(F_PREV_PID, -1);
		sw->next_tid = I32(F_NEXT_PID, -1);
		sw->prev_prio = I32(F_PREV_PRIO, INT32_MIN);
		sw->next_prio = I32(F_NEXT_PRIO, INT32_MIN);
		fld_comm(t, F_PREV_COMM, raw, n, sw->prev_comm);
		fld_comm(t, F_NEXT_COMM, raw, n, sw->next_comm);
		has_state = fld_uint(t, F_PREV_STATE, raw, n, &state);
	}
	sw->prev_state = '?';
	if (has_state)
		state_of(t, state, &sw->prev_state, &preempt);
	out->flags &= ~(uint32_t)SREP_EVF_PREEMPT;
	if (preempt)
		out->flags |= SREP_EVF_PREEMPT;
}

static void decode_wakeup(const struct tp_event *t, enum tp_kind kind, const uint8_t *raw,
			  uint32_t n, struct srep_event *out)
{
	struct srep_wakeup *w = &out->u.wake;

	memset(w, 0, sizeof(*w));
	w->kind = kind == TP_WAKING ? SREP_WAKE_WAKING :
		  kind == TP_WAKEUP ? SREP_WAKE_WAKEUP : SREP_WAKE_NEW;
	w->pid = -1;
	if (t->usual_end && n >= t->usual_end) {
		w->tid = (int32_t)srep_get32(raw + t->f[F_PID].off, t->swap);
		w->prio = (int32_t)srep_get32(raw + t->f[F_PRIO].off, t->swap);
		w->target_cpu = (int32_t)srep_get32(raw + t->f[F_TARGET_CPU].off, t->swap);
		usual_comm(w->comm, raw + t->f[F_COMM].off);
	} else {
		w->tid = I32(F_PID, -1);
		w->prio = I32(F_PRIO, INT32_MIN);
		w->target_cpu = I32(F_TARGET_CPU, -1);
		fld_comm(t, F_COMM, raw, n, w->comm);
	}
	/* newer kernels' formats have no 'success': looked up only where it is */
	w->success = t->f[F_SUCCESS].size ? I32(F_SUCCESS, -1) : -1;
}

static void decode_migrate(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			   struct srep_event *out)
{
	struct srep_migrate *m = &out->u.migrate;

	memset(m, 0, sizeof(*m));
	m->pid = -1;
	m->tid = I32(F_PID, -1);
	m->prio = I32(F_PRIO, INT32_MIN);
	m->orig_cpu = I32(F_ORIG_CPU, -1);
	m->dest_cpu = I32(F_DEST_CPU, -1);
	fld_comm(t, F_COMM, raw, n, m->comm);
}

static void decode_fork(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			struct srep_event *out)
{
	struct srep_fork *f = &out->u.fork;

	memset(f, 0, sizeof(*f));
	f->parent_pid = f->child_pid = -1;
	f->parent_tid = I32(F_PARENT_PID, -1);
	f->child_tid = I32(F_CHILD_PID, -1);
	fld_comm(t, F_PARENT_COMM, raw, n, f->parent_comm);
	fld_comm(t, F_CHILD_COMM, raw, n, f->child_comm);
}

static void decode_exec(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			struct srep_event *out, char **strbuf, size_t *strcap)
{
	struct srep_exec *x = &out->u.exec;

	memset(x, 0, sizeof(*x));
	x->pid = -1;
	x->tid = I32(F_PID, -1);
	x->old_tid = I32(F_OLD_PID, -1);
	x->filename = fld_filename(t, raw, n, strbuf, strcap);
}

static void decode_exit(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			struct srep_event *out)
{
	struct srep_exit *x = &out->u.exit;

	memset(x, 0, sizeof(*x));
	x->pid = x->ppid = x->ptid = -1;
	x->tid = I32(F_PID, -1);
	x->prio = I32(F_PRIO, INT32_MIN);
	fld_comm(t, F_COMM, raw, n, x->comm);
}

static void decode_rename(const struct tp_event *t, const uint8_t *raw, uint32_t n,
			  struct srep_event *out)
{
	struct srep_comm *c = &out->u.comm;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	/* newer kernels dropped 'pid': a task renames itself, so it is common_pid */
	c->tid = I32(F_PID, I32(F_COMMON_PID, -1));
	fld_comm(t, F_NEWCOMM, raw, n, c->comm);
}

static void decode_stat(const struct tp_event *t, enum tp_kind kind, const uint8_t *raw,
			uint32_t n, struct srep_event *out)
{
	struct srep_stat *st = &out->u.stat;
	uint64_t v = 0;

	memset(st, 0, sizeof(*st));
	st->kind = (enum srep_stat_kind)(SREP_STAT_RUNTIME + (kind - TP_STAT_RUNTIME));
	st->pid = -1;
	if (kind == TP_STAT_RUNTIME && t->usual_end && n >= t->usual_end) {
		st->tid = (int32_t)srep_get32(raw + t->f[F_PID].off, t->swap);
		st->value = srep_get64(raw + t->f[F_RUNTIME].off, t->swap);
		if (t->f[F_VRUNTIME].size)
			st->vruntime = srep_get64(raw + t->f[F_VRUNTIME].off, t->swap);
		if (t->f[F_COMM].flags & FL_DYN)
			fld_comm(t, F_COMM, raw, n, st->comm);
		else
			usual_comm(st->comm, raw + t->f[F_COMM].off);
		return;
	}
	st->tid = I32(F_PID, -1);
	if (fld_uint(t, kind == TP_STAT_RUNTIME ? F_RUNTIME : F_DELAY, raw, n, &v))
		st->value = v;
	if (kind == TP_STAT_RUNTIME && fld_uint(t, F_VRUNTIME, raw, n, &v))
		st->vruntime = v;
	fld_comm(t, F_COMM, raw, n, st->comm);
}

static void decode_cpu_state(const struct tp_event *t, enum tp_kind kind, const uint8_t *raw,
			     uint32_t n, struct srep_event *out)
{
	struct srep_cpu_state *c = &out->u.cpu_state;
	uint64_t v;

	memset(c, 0, sizeof(*c));
	c->cpu = I32(F_CPU_ID, -1);
	c->state = -1;
	if (!fld_uint(t, F_STATE, raw, n, &v))
		return;
	/* cpu_idle's u32 state uses (u32)-1 for "leaving idle"; kHz never get there */
	if (kind == TP_CPU_IDLE)
		c->state = srep_sign_extend(v, t->f[F_STATE].size);
	else
		c->state = (int64_t)v;
}

enum srep_event_kind tp_event_kind(enum tp_kind kind)
{
	static const enum srep_event_kind ev_kind[] = {
		[TP_NONE] = SREP_EV_SAMPLE,
		[TP_SWITCH] = SREP_EV_SWITCH, [TP_WAKING] = SREP_EV_WAKEUP,
		[TP_WAKEUP] = SREP_EV_WAKEUP, [TP_WAKEUP_NEW] = SREP_EV_WAKEUP,
		[TP_MIGRATE] = SREP_EV_MIGRATE, [TP_FORK] = SREP_EV_FORK,
		[TP_EXEC] = SREP_EV_EXEC, [TP_EXIT] = SREP_EV_EXIT, [TP_FREE] = SREP_EV_FREE,
		[TP_RENAME] = SREP_EV_COMM, [TP_STAT_RUNTIME] = SREP_EV_STAT,
		[TP_STAT_SLEEP] = SREP_EV_STAT, [TP_STAT_WAIT] = SREP_EV_STAT,
		[TP_STAT_IOWAIT] = SREP_EV_STAT, [TP_STAT_BLOCKED] = SREP_EV_STAT,
		[TP_CPU_IDLE] = SREP_EV_CPU_IDLE, [TP_CPU_FREQ] = SREP_EV_CPU_FREQ,
	};

	return (unsigned)kind <= TP_CPU_FREQ ? ev_kind[kind] : SREP_EV_SAMPLE;
}

bool tp_decode(const struct tp_event *t, enum tp_kind kind, const uint8_t *raw,
	       uint32_t n, struct srep_event *out, char **strbuf, size_t *strcap)
{
	if (!t || kind <= TP_NONE || kind > TP_CPU_FREQ || (!raw && n))
		return false;
	switch (kind) {
	case TP_SWITCH: decode_switch(t, raw, n, out); break;
	case TP_WAKING: case TP_WAKEUP: case TP_WAKEUP_NEW:
		decode_wakeup(t, kind, raw, n, out); break;
	case TP_MIGRATE: decode_migrate(t, raw, n, out); break;
	case TP_FORK: decode_fork(t, raw, n, out); break;
	case TP_EXEC: decode_exec(t, raw, n, out, strbuf, strcap); break;
	case TP_EXIT: case TP_FREE: decode_exit(t, raw, n, out); break;
	case TP_RENAME: decode_rename(t, raw, n, out); break;
	case TP_CPU_IDLE: case TP_CPU_FREQ: decode_cpu_state(t, kind, raw, n, out); break;
	default: decode_stat(t, kind, raw, n, out); break;
	}
	out->kind = tp_event_kind(kind);
	out->source = SREP_SRC_TRACEPOINT;
	return true;
}

#undef I32

/* ---- Generic field access (lossless) ---- */

int tp_nr_fields(const struct tp_event *t)
{
	return t ? t->nr_fields : 0;
}

int tp_field(const struct tp_event *t, const uint8_t *raw, uint32_t n, int idx,
	     struct srep_field *out)
{
	const struct tp_gfield *g;
	const uint8_t *p, *nul;
	uint32_t len;
	uint64_t v;

	if (!t || idx < 0 || idx >= t->nr_fields)
		return SREP_E_INVAL;
	g = &t->fields[idx];
	memset(out, 0, sizeof(*out));
	out->name = g->name;
	out->kind = g->kind;
	out->str = "";
	if (g->kind == SREP_FIELD_ARRAY) {
		out->elem_size = g->elem_size;
		out->elem_signed = (g->loc.flags & FL_SIGNED) != 0;
	}
	if (!g->loc.size)
		return 0;	/* a zero-length array ("char data[0]"): empty, not damaged */
	if (!raw || !fld_region(&g->loc, raw, n, t->swap, &p, &len))
		return SREP_E_CORRUPT;
	switch (g->kind) {
	case SREP_FIELD_STR:
		nul = memchr(p, 0, len);
		out->str = (const char *)p;
		out->len = nul ? (size_t)(nul - p) : len;
		break;
	case SREP_FIELD_ARRAY:
		out->nr_elems = len / g->elem_size;
		out->elems = p;
		out->elems_swap = t->swap;
		break;
	default:
		srep_get_uint(p, len, t->swap, &v);
		if (g->kind == SREP_FIELD_INT)
			out->i = srep_sign_extend(v, len);
		else
			out->u = v;
		break;
	}
	return 0;
}

int tp_field_info(const struct tp_event *t, int idx, struct srep_field *out)
{
	const struct tp_gfield *g;

	if (!t || idx < 0 || idx >= t->nr_fields)
		return SREP_E_INVAL;
	g = &t->fields[idx];
	memset(out, 0, sizeof(*out));
	out->name = g->name;
	out->kind = g->kind;
	out->str = "";
	if (g->kind == SREP_FIELD_ARRAY) {
		out->elem_size = g->elem_size;
		out->elem_signed = (g->loc.flags & FL_SIGNED) != 0;
	}
	return 0;
}

int tp_field_by_name(const struct tp_event *t, const uint8_t *raw, uint32_t n,
		     const char *name, struct srep_field *out)
{
	int i, ret;

	if (!t || !name)
		return 0;
	for (i = 0; i < t->nr_fields; i++) {
		if (t->fields[i].name && !strcmp(t->fields[i].name, name)) {
			ret = tp_field(t, raw, n, i, out);
			return ret < 0 ? ret : 1;
		}
	}
	return 0;
}

/* ---- The text of a payload, as its print format says (perf script) ---- */

/*
 * libtraceevent trusts a payload's layout: check that the fixed fields are
 * within it and that each __data_loc names bytes inside it first.
 */
static bool payload_ok(const struct tp_event *t, const uint8_t *raw, uint32_t n)
{
	const struct tp_fld *f;
	const uint8_t *p;
	uint32_t len;
	int i;

	for (i = 0; i < t->nr_fields; i++) {
		f = &t->fields[i].loc;
		if (!f->size)
			continue;
		if ((uint64_t)f->off + f->size > n)
			return false;
		if ((f->flags & FL_DYN) && !fld_region(f, raw, n, t->swap, &p, &len))
			return false;
	}
	return true;
}

int tp_print_native(const struct tp_event *t, const uint8_t *raw, uint32_t n, char *buf,
		    size_t size)
{
	return t->native ? tp_native_print(t->native, raw, n, buf, size) : -1;
}

int tp_print_tep(const struct tp_event *t, const uint8_t *raw, uint32_t n, int32_t cpu,
		 char *buf, size_t size)
{
	struct tep_record rec;
	struct tp_event *mt = (struct tp_event *)t;	/* the buffer only: see top */
	int len;

	if (!mt->seq) {
		mt->seq = malloc(sizeof(*mt->seq));
		if (!mt->seq)
			return SREP_E_NOMEM;
		trace_seq_init(mt->seq);
	}
	trace_seq_reset(mt->seq);
	memset(&rec, 0, sizeof(rec));
	rec.data = (void *)raw;
	rec.size = (int)n;
	rec.cpu = cpu;
	tep_print_event(t->tep, mt->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(mt->seq);
	if (mt->seq->state != TRACE_SEQ__GOOD || !mt->seq->buffer)
		return SREP_E_NOMEM;
	len = (int)mt->seq->len;
	if (size)
		snprintf(buf, size, "%s", mt->seq->buffer);
	return len;
}

int tp_print(const struct tp_event *t, const uint8_t *raw, uint32_t n, int32_t cpu, char *buf,
	     size_t size)
{
	int len;

	if (!t || !raw || !payload_ok(t, raw, n))
		return SREP_E_CORRUPT;
	len = tp_print_native(t, raw, n, buf, size);
	return len >= 0 ? len : tp_print_tep(t, raw, n, cpu, buf, size);
}
