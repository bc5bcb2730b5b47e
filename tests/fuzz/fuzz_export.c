// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_export.c - libFuzzer target: every exporter of formats/ fed from the
 * reader. The first byte picks the exporter (perfetto, json, svg, criu,
 * ...: the table of formats/exporter.c), the rest is the trace; file
 * exporters write to /dev/null, criu into a temporary directory.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exporter.h"
#include "criu.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static size_t nr_exporters(void)
{
	size_t n = 0;

	while (srep_exporters[n])
		n++;
	return n;
}

/* the exporter's options: criu gets instants every 10 ms, the others none */
static void *options_of(const struct srep_exporter *x)
{
	struct srep_error err;
	void *opts = NULL;

	if (!x->opts_new || x->opts_new(&opts, &err))
		return NULL;
	if (x == &srep_exporter_criu && x->opt(opts, SREP_CRIU_OPT_EVERY, "0.01", &err)) {
		x->opts_free(opts);
		return NULL;
	}
	return opts;
}

static void run(const struct srep_exporter *x, struct srep_export_ctx *ctx)
{
	const struct srep_event *ev;
	struct srep_error err;
	void *state = NULL;
	int ret = x->begin(&state, ctx, &err);

	while (!ret && (ret = srep_session__next_event(ctx->session, &ev, &err)) > 0)
		ret = x->event(state, ev, &err);
	if (!ret)
		x->end(state, &err);
	x->destroy(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srep_export_ctx ctx = { .to = UINT64_MAX };
	const struct srep_exporter *x;
	struct srep_session *s = NULL;
	struct srep_error err;
	char dir[] = "/tmp/schedrep-fuzz-XXXXXX";

	if (size < 1)
		return 0;
	x = srep_exporters[data[0] % nr_exporters()];
	if (srep_session__open_mem(&s, data + 1, size - 1, "fuzz",
				   &(struct srep_open_opts){
					   .flags = x->flags & SREP_EXPORT_PRESCAN ? SREP_OPEN_PRESCAN : 0 },
				   &err) == 0) {
		ctx.session = s;
		ctx.opts = options_of(x);
		ctx.out = fopen("/dev/null", "w");
		ctx.out_dir = mkdtemp(dir);
		if (ctx.out && ctx.out_dir)
			run(x, &ctx);
		if (ctx.out)
			fclose(ctx.out);
		if (ctx.out_dir)
			nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		if (x->opts_free)
			x->opts_free((void *)ctx.opts);
	}
	srep_session__delete(s);
	return 0;
}
