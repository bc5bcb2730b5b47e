// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symopts.c - the symbol options every command that resolves callchains
 * takes (CLI_SYMBOL_OPTIONS in cli.h; with -a and -b forms for the two
 * traces of compare), the symbolizer they feed every event to, and the
 * summary of what resolved.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "cli.h"

bool cli_symbol_opt(struct cli_symbol_args *a, int id, const char *arg)
{
	switch (id) {
	case CLI_SYM_KALLSYMS:		a->o.kallsyms = arg; return true;
	case CLI_SYM_VMLINUX:		a->o.vmlinux = arg; return true;
	case CLI_SYM_SYMFS:		a->o.symfs = arg; return true;
	case CLI_SYM_BUILDID_DIR:	a->o.buildid_dir = arg; return true;
	case CLI_SYM_NONE:		a->off = true; return true;
	default:			return false;
	}
}

bool cli_symbol_opt_sides(struct cli_symbol_args sym[3], int id, const char *arg)
{
	if (id >= CLI_SYM_KALLSYMS + CLI_SYM_B && id <= CLI_SYM_BUILDID_DIR + CLI_SYM_B)
		return cli_symbol_opt(&sym[2], id - CLI_SYM_B, arg);
	if (id >= CLI_SYM_KALLSYMS + CLI_SYM_A && id <= CLI_SYM_BUILDID_DIR + CLI_SYM_A)
		return cli_symbol_opt(&sym[1], id - CLI_SYM_A, arg);
	return cli_symbol_opt(&sym[0], id, arg);
}

void cli_symbol_args_of(const struct cli_symbol_args sym[3], int k, struct cli_symbol_args *out)
{
	const struct srep_symbol_opts *own = &sym[k + 1].o, *both = &sym[0].o;

	*out = sym[0];
	out->o.kallsyms = own->kallsyms ? own->kallsyms : both->kallsyms;
	out->o.vmlinux = own->vmlinux ? own->vmlinux : both->vmlinux;
	out->o.symfs = own->symfs ? own->symfs : both->symfs;
	out->o.buildid_dir = own->buildid_dir ? own->buildid_dir : both->buildid_dir;
}

/*
 * Whether any event of the trace can carry a callchain or a user stack. A
 * pipe announces its events as it goes, so there the answer is always yes.
 */
static bool has_stacks(const struct srep_session *s)
{
	size_t i, n = srep_session__nr_evsels(s);

	if (srep_session__meta(s)->pipe_mode)
		return true;
	for (i = 0; i < n; i++)
		if (srep_session__evsel_sample_type(s, i) &
		    (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER))
			return true;
	return false;
}

int cli_symbolizer_new(struct srep_symbolizer **sy, struct srep_session *s,
		       const struct cli_symbol_args *a, struct srep_error *err)
{
	*sy = NULL;
	if (a->off || !has_stacks(s))
		return 0;
	return srep_symbolizer__new(sy, s, &a->o, err);
}

int cli_symbols_open(struct cli_symbols *cs, struct srep_session *s,
		     const struct cli_symbol_args *a)
{
	struct srep_error err = { 0 };

	memset(cs, 0, sizeof(*cs));
	if (cli_symbolizer_new(&cs->sy, s, a, &err))
		return cli_error(&err);
	return EXIT_OK;
}

int cli_symbols_event(struct cli_symbols *cs, const struct srep_event *ev,
		      struct srep_error *err)
{
	struct srep_frame *n;

	cs->nr = 0;
	if (!cs->sy)
		return 0;
	if (srep_symbolizer__observe(cs->sy, ev))
		return srep_error__set(err, SREP_E_NOMEM, "no memory for the mappings");
	if (!ev->nr_callchain)
		return 0;
	if ((size_t)ev->nr_callchain + SREP_UNWIND_MAX + 1 > cs->cap) {
		size_t cap = (size_t)ev->nr_callchain + SREP_UNWIND_MAX + 1;

		n = realloc(cs->frames, cap * sizeof(*n));
		if (!n)
			return srep_error__set(err, SREP_E_NOMEM, "no memory for frames");
		cs->frames = n;
		cs->cap = cap;
	}
	cs->nr = srep_symbolizer__callchain(cs->sy, ev, cs->frames, cs->cap);
	return 0;
}

void cli_symbols_close(struct cli_symbols *cs)
{
	srep_symbolizer__delete(cs->sy);
	free(cs->frames);
	memset(cs, 0, sizeof(*cs));
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void cli_symbols_summary(FILE *f, const char *label, const struct srep_symbolizer *sy)
{
	const struct srep_symbol_stats *st;

	if (!sy)
		return;
	st = srep_symbolizer__stats(sy);
	if (st->callchains)
		fprintf(f, "%s%" PRIu64 " callchains, %" PRIu64 " frames, %" PRIu64
			" resolved (%.1f%%): kernel %" PRIu64 "/%" PRIu64 ", user %" PRIu64 "/%"
			PRIu64 "\n", label, st->callchains, st->frames, st->resolved,
			pct(st->resolved, st->frames), st->kernel_resolved, st->kernel_frames,
			st->user_resolved, st->user_frames);
	if (st->dwarf_stacks)
		fprintf(f, "%s%" PRIu64 " samples carry --call-graph dwarf user stacks, %" PRIu64
			" unwound\n", label, st->dwarf_stacks, st->dwarf_unwound);
}
