// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp_synth.c - what libtraceevent prints for one value of one field: a
 * zeroed record of the format's fixed part, its common_type set, the value
 * written in, printed with tep_print_event(). tp.c asks it for the letters
 * of a prev_state value and tp_native.c for the text of the one expression
 * it does not compile; both keep the answer per value, so libtraceevent
 * runs once per distinct value, not per event.
 */
#include <stdlib.h>
#include <string.h>

#include "tp_local.h"

#define SYNTH_MAX	(64u << 10)	/* a synthetic record: real ones are ~64 bytes */

/* the end of the fixed part: every field, common ones too; 0 for an absurd layout */
static uint32_t fixed_end(const struct tep_event *tev)
{
	struct tep_format_field *f, *lists[2] = { tev->format.common_fields, tev->format.fields };
	uint32_t end = 0;
	int i;

	for (i = 0; i < 2; i++) {
		for (f = lists[i]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 || (uint32_t)f->offset > SYNTH_MAX ||
			    (uint32_t)f->size > SYNTH_MAX - (uint32_t)f->offset)
				return 0;
			if ((uint32_t)(f->offset + f->size) > end)
				end = (uint32_t)(f->offset + f->size);
		}
	}
	return end;
}

int tp_synth_init(struct tp_synth *s, struct tep_handle *tep, struct tep_event *tev,
		  uint32_t key_off, uint32_t key_size, bool big_endian)
{
	struct tep_format_field *type = tep_find_common_field(tev, "common_type");
	uint32_t end = fixed_end(tev);

	memset(s, 0, sizeof(*s));
	if (!end || !type || type->offset < 0 || (type->size != 1 && type->size != 2 &&
						  type->size != 4 && type->size != 8) ||
	    (uint32_t)(type->offset + type->size) > end || key_off > end || key_size > end - key_off)
		return SREP_E_CORRUPT;
	s->rec = calloc(1, (size_t)end + 8);
	if (!s->rec)
		return SREP_E_NOMEM;
	s->tep = tep;
	s->size = end;
	s->key_off = key_off;
	s->key_size = key_size;
	s->big_endian = big_endian;
	srep_put_uint(s->rec + type->offset, (uint32_t)type->size, (uint64_t)tev->id, big_endian);
	return 0;
}

bool tp_synth_print(struct tp_synth *s, uint64_t v, struct trace_seq *seq)
{
	struct tep_record rec;

	srep_put_uint(s->rec + s->key_off, s->key_size, v, s->big_endian);
	memset(&rec, 0, sizeof(rec));
	rec.data = s->rec;
	rec.size = (int)s->size;
	trace_seq_init(seq);
	tep_print_event(s->tep, seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(seq);
	if (seq->state == TRACE_SEQ__GOOD && seq->buffer)
		return true;
	trace_seq_destroy(seq);
	return false;
}

void tp_synth_free(struct tp_synth *s)
{
	free(s->rec);
	memset(s, 0, sizeof(*s));
}
