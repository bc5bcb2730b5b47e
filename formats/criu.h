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

/* the exporter's own options, in the order --help lists them */
struct srep_criu_option {
	const char *name;		/* long name without "--" */
	const char *arg;		/* argument placeholder */
	const char *help;
};

extern const struct srep_criu_option srep_criu_options[];	/* ends with a NULL name */

/*
 * Take one option by its long name ("at", "every", "every-instructions");
 * SREP_E_INVAL for another name, SREP_E_TIME for a bad value.
 */
int srep_criu_opts__set(struct srep_criu_opts *o, const char *name, const char *arg,
			struct srep_error *err);
void srep_criu_opts__release(struct srep_criu_opts *o);	/* frees what __set took */

extern const struct srep_exporter srep_exporter_criu;

#endif /* SREP_FORMAT_CRIU_H */
