// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_record.c - libFuzzer target: the recorder's perf.data writer round
 * trip. The input is a script of records (comm, wakeup, switch, loss) with
 * times, CPUs, tids and names taken from its bytes; the recorder writes them
 * in file or pipe mode, compressed or not, in rounds, and the reader must
 * read back exactly what was written: the same sample and comm counts, the
 * same losses, no error. A difference aborts (a finding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rectest.h"
#include "testutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct script {
	uint64_t samples, comms, lost;
};

/* one record per 8 input bytes: op, cpu, delta time, tid, name byte */
static void build(struct rec_buf *b, const struct rec_evlist *el, const uint8_t *p,
		  size_t n, struct script *sc)
{
	uint64_t t = 1000000000ull;
	char comm[8];
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		int cpu = p[i + 1] % 2;
		int32_t tid = 1 + (p[i + 3] | p[i + 4] << 8);

		t += p[i + 2] * 1000ull;
		switch (p[i] % 4) {
		case 0:
			snprintf(comm, sizeof(comm), "t%02x", p[i + 5]);
			rt_comm(b, el, t, cpu, tid, comm);
			sc->comms++;
			break;
		case 1:
			rt_wakeup(b, el, t, cpu, tid);
			sc->samples++;
			break;
		case 2:
			rt_switch(b, el, t, cpu, tid, 1 + p[i + 5]);
			sc->samples++;
			break;
		default:
			rt_lost(b, el, t, cpu, p[i + 6] + 1u);
			sc->lost += p[i + 6] + 1u;
			break;
		}
	}
}

static void check_read_back(const char *path, const struct script *sc)
{
	struct srep_session *s = NULL;
	struct srep_error err;
	const struct srep_stats *st;
	int ret = tu_read_all(path, 0, &s, &err);

	if (ret != 0) {
		fprintf(stderr, "fuzz_record: the reader refused the writer's file: %s\n", err.msg);
		abort();
	}
	st = srep_session__stats(s);
	if (st->records[REC_SAMPLE] != sc->samples || st->records[REC_COMM] != sc->comms ||
	    st->lost != sc->lost) {
		fprintf(stderr, "fuzz_record: wrote %llu samples, %llu comms, %llu lost; read %llu, %llu, %llu\n",
			(unsigned long long)sc->samples, (unsigned long long)sc->comms,
			(unsigned long long)sc->lost, (unsigned long long)st->records[REC_SAMPLE],
			(unsigned long long)st->records[REC_COMM], (unsigned long long)st->lost);
		abort();
	}
	srep_session__delete(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cmdline[] = { "record" };
	static struct rec_evlist el;
	static struct rec_buf tracing;
	static bool ready;
	struct rec_features fs;
	struct rec_buf b = { 0 };
	struct script sc = { 0 };
	struct srep_error err;
	struct pd_out pd;
	bool pipe, compress;
	char path[64];
	size_t half;
	int fd;

	if (size < 1)
		return 0;
	if (!ready) {
		rt_evlist(&el, false);
		if (tracefs_tracing_data(RT_TRACEFS, &el, &tracing, &err))
			abort();
		ready = true;
	}
	pipe = data[0] & 1;
	compress = data[0] & 2;
	struct rec_feature_input in = { &el, &tracing, cmdline, 1, compress, 1u << 20 };
	struct pd_meta meta = { &el, &fs, &tracing, compress, 1u << 20 };

	if (features_collect(&fs, &in, &err))
		abort();
	fd = memfd_create("fuzz-record", 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fd < 0 || pd_begin(&pd, fd, pipe, path, &meta, &err))
		abort();
	/* two rounds: the first half of the script, then the rest */
	half = (size - 1) / 16 * 8;
	build(&b, &el, data + 1, half, &sc);
	if (pd_records(&pd, b.p, b.len, &err) || pd_finished_round(&pd, &err))
		abort();
	b.len = 0;
	build(&b, &el, data + 1 + half, size - 1 - half, &sc);
	if (pd_records(&pd, b.p, b.len, &err) || pd_finished_round(&pd, &err) ||
	    pd_finish(&pd, &err))
		abort();
	pd_free(&pd);
	buf_free(&b);
	features_free(&fs);
	check_read_back(path, &sc);
	close(fd);
	return 0;
}
