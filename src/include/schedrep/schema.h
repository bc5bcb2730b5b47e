/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schedrep/schema.h - the members of struct srep_event's union, kind by
 * kind, written once: the lossless JSON writer writes them in this order
 * under these keys, its reader reads them back, and tests compare events
 * member by member through the same table. A new member is one line in
 * src/reader/schema.c.
 */
#ifndef SCHEDREP_SCHEMA_H
#define SCHEDREP_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <schedrep/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* how a member is stored in the union */
enum srep_member_type {
	SREP_MT_I32,		/* int32_t */
	SREP_MT_I64,		/* int64_t */
	SREP_MT_U32,		/* uint32_t */
	SREP_MT_U64,		/* uint64_t */
	SREP_MT_ADDR,		/* uint64_t, an address (the JSON writes it in hex) */
	SREP_MT_COMM,		/* char[SREP_COMM_MAX], NUL-terminated unless full */
	SREP_MT_CSTR,		/* const char *, may be NULL */
	SREP_MT_STATE,		/* char: a task state letter */
	SREP_MT_BOOL,		/* bool */
	SREP_MT_WAKE,		/* enum srep_wakeup_kind */
	SREP_MT_STAT,		/* enum srep_stat_kind */
	SREP_MT_BUILD_ID,	/* struct srep_mmap's build_id_size and build_id */
};

struct srep_member {
	enum srep_event_kind kind;	/* the union's kind (see srep_event_kind__union) */
	const char *key;		/* its name, as the lossless JSON writes it */
	enum srep_member_type type;
	size_t offset;			/* in struct srep_event */
};

/* every member of every kind, kinds in enum order, members in writing order */
SREP_API const struct srep_member *srep_event_schema(size_t *nr);
/* the kind whose union members an event has: EXIT for FREE, CPU_IDLE for CPU_FREQ */
SREP_API enum srep_event_kind srep_event_kind__union(enum srep_event_kind kind);
/* true when member @m of @a and @b are equal (strings by content) */
SREP_API bool srep_member__equal(const struct srep_member *m, const struct srep_event *a,
				 const struct srep_event *b);

/* names of the enumerated members: "waking", "wakeup", "new"; "runtime", ... */
SREP_API const char *srep_wakeup_kind_name(enum srep_wakeup_kind kind);	/* "?" if unknown */
SREP_API const char *srep_stat_kind_name(enum srep_stat_kind kind);
/* the kind of a name; false if none */
SREP_API bool srep_wakeup_kind__parse(const char *name, enum srep_wakeup_kind *out);
SREP_API bool srep_stat_kind__parse(const char *name, enum srep_stat_kind *out);

#ifdef __cplusplus
}
#endif
#endif /* SCHEDREP_SCHEMA_H */
