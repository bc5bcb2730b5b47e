/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * criu.h - the CRIU exporter's options, for the command that drives it
 * (convert --format criu) and for tests. The format is docs/criu.md.
 */
#ifndef SREP_FORMAT_CRIU_H
#define SREP_FORMAT_CRIU_H

#include <stddef.h>
#include <stdint.h>

#include "exporter.h"

/*
 * Instants are resolved when the export begins, against the trace's span:
 * --at specs are kept as given ("0.3" is relative to the trace start).
 * All zero: one instant at the end of the trace.
 */
struct srep_criu_opts {
	char **at;			/* --at specs, owned */
	size_t nr_at;
	uint64_t every_ns;		/* --every, 0 = none */
	uint64_t every_instructions;	/* --every-instructions, 0 = none */
};

enum { SREP_CRIU_OPT_AT = 1, SREP_CRIU_OPT_EVERY, SREP_CRIU_OPT_EVERY_INSTRUCTIONS };

/*
 * The exporter's own options (srep_exporter_criu.options), in the order
 * --help lists them: convert makes an options object with __new()
 * (->opts_new), hands each option given to __opt() (->opt) by id, passes
 * the object to ->begin() as ctx->opts and frees it with __free()
 * (->opts_free).
 */
extern const struct srep_export_opt srep_criu_options[];

int srep_criu_opts__new(void **opts, struct srep_error *err);
/* SREP_E_TIME or SREP_E_INVAL for a bad value, SREP_E_INVAL for an unknown id */
int srep_criu_opts__opt(void *opts, int id, const char *arg, struct srep_error *err);
void srep_criu_opts__free(void *opts);		/* NULL is fine */

extern const struct srep_exporter srep_exporter_criu;

#endif /* SREP_FORMAT_CRIU_H */
