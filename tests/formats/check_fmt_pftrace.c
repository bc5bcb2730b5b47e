// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_fmt_pftrace.c - the Perfetto protobuf exporter and its wire writer.
 *
 * The writer's bytes are compared with the protobuf encoding worked out by
 * hand (varints, negative int32s in ten bytes, nested lengths shortened
 * once known). The exporter's output of the scenario fixture, in every byte
 * order, is walked as protobuf: a stream of Trace.packet fields that fill
 * the file exactly, whose ftrace bundles all name their CPU and hold every switch
 * the model delivers (compact or whole), plus a few filled in at most.
 * Perfetto's own reading of the corpus is tests/cli/pftrace.sh.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fmtutil.h"
#include "pbwire.h"

static void same(const struct pbw *w, const uint8_t *want, size_t n)
{
	ck_assert_uint_eq(w->len, n);
	ck_assert_msg(!memcmp(w->buf, want, n), "bytes differ");
}

START_TEST(wire_bytes)
{
	static const uint8_t varints[] = { 0x08, 0x96, 0x01, 0x10, 0x00, 0x18,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t strings[] = { 0x12, 0x03, 'a', 'b', 'c', 0x1a, 0x00 };
	static const uint8_t nested[] = { 0x0a, 0x05, 0x08, 0x01, 0x12, 0x01, 'x' };
	struct pbw w = { 0 };
	size_t outer;

	pbw_uint(&w, 1, 150);
	pbw_uint(&w, 2, 0);
	pbw_int(&w, 3, -1);		/* int32 -1: ten bytes */
	same(&w, varints, sizeof(varints));
	pbw_reset(&w);
	pbw_str(&w, 2, "abcdef", 3);	/* at most 3 bytes */
	pbw_str(&w, 3, "", 16);
	same(&w, strings, sizeof(strings));
	pbw_reset(&w);
	outer = pbw_begin(&w, 1);
	pbw_uint(&w, 1, 1);
	pbw_str(&w, 2, "x", 1);
	pbw_end(&w, outer);		/* the 4 reserved bytes shrink to one */
	same(&w, nested, sizeof(nested));
	ck_assert(!w.nomem);
	pbw_free(&w);
}
END_TEST

/* a 200-byte body keeps a two-byte length, the body moved up by two */
START_TEST(wire_long_nested)
{
	struct pbw w = { 0 };
	size_t body = pbw_begin(&w, 5), i;
	char text[200];

	memset(text, 'q', sizeof(text));
	pbw_bytes(&w, 1, text, 197);	/* 1 + 2 + 197 = 200 bytes */
	pbw_end(&w, body);
	ck_assert_uint_eq(w.len, 1 + 2 + 200);
	ck_assert_uint_eq(w.buf[0], 5 << 3 | 2);
	ck_assert_uint_eq(w.buf[1], 0xc8);
	ck_assert_uint_eq(w.buf[2], 0x01);
	ck_assert_uint_eq(w.buf[3], 0x0a);
	for (i = 6; i < w.len; i++)
		ck_assert_uint_eq(w.buf[i], 'q');
	pbw_free(&w);
}
END_TEST

/* ---- reading the output back ---- */

struct cur {
	const uint8_t *p, *end;
};

static uint64_t varint(struct cur *c)
{
	uint64_t v = 0;
	int shift = 0;

	while (c->p < c->end && shift < 64) {
		uint8_t b = *c->p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
	ck_abort_msg("truncated varint");
	return 0;
}

/* the next field: 1 and its number, wire type and (LEN) body; 0 at the end */
static int field(struct cur *c, uint32_t *num, int *wire, struct cur *body, uint64_t *v)
{
	uint64_t tag, len;

	if (c->p == c->end)
		return 0;
	tag = varint(c);
	*num = (uint32_t)(tag >> 3);
	*wire = (int)(tag & 7);
	switch (*wire) {
	case 0:
		*v = varint(c);
		return 1;
	case 2:
		len = varint(c);
		ck_assert_msg(len <= (uint64_t)(c->end - c->p), "field %u overruns", *num);
		body->p = c->p;
		body->end = c->p + len;
		c->p += len;
		return 1;
	default:
		ck_abort_msg("unexpected wire type %d", *wire);
		return 0;
	}
}

/* count the elements of a packed varint array */
static size_t packed_count(struct cur c)
{
	size_t n = 0;

	while (c.p < c.end) {
		varint(&c);
		n++;
	}
	return n;
}

/* switches in one FtraceEventBundle: compact and whole */
static size_t bundle_switches(struct cur b, bool *has_cpu)
{
	struct cur f, g;
	uint32_t num, num2;
	int wire, wire2;
	uint64_t v;
	size_t n = 0;

	while (field(&b, &num, &wire, &f, &v)) {
		if (num == 1 && wire == 0)
			*has_cpu = true;
		if (num == 4 && wire == 2) {		/* CompactSched */
			while (field(&f, &num2, &wire2, &g, &v))
				if (num2 == 1)
					n += packed_count(g);
		}
		if (num == 2 && wire == 2) {		/* FtraceEvent */
			while (field(&f, &num2, &wire2, &g, &v))
				n += num2 == 4 && wire2 == 2;
		}
	}
	return n;
}

/* the switches the model delivers on a known CPU */
static size_t model_switches(const char *path)
{
	struct srep_session *s = NULL;
	struct srep_error err = { 0 };
	const struct srep_event *ev;
	size_t n = 0;
	int ret;

	ck_assert_msg(srep_session__open(&s, path, NULL, &err) == 0, "%s", err.msg);
	while ((ret = srep_session__next_event(s, &ev, &err)) > 0)
		n += ev->kind == SREP_EV_SWITCH && ev->cpu >= 0;
	ck_assert_int_eq(ret, 0);
	srep_session__delete(s);
	return n;
}

START_TEST(scenario_structure)
{
	struct fixture_opts o = { 0 };
	struct fixture *fx;
	char path[4096], *out = NULL, *dir;
	struct srep_error err = { 0 };
	struct cur c, body;
	size_t len, packets = 0, bundles = 0, switches = 0, want;
	bool has_cpu;
	uint32_t num;
	int wire;
	uint64_t v;

	o.big_endian = _i & 1;
	fx = tu_scenario(&o, NULL, NULL);
	dir = tu_scenario_file(fx, path, sizeof(path));
	want = model_switches(path);
	ck_assert_msg(tu_convert(path, &srep_exporter_pftrace, NULL, &out, &len, &err) == 0,
		      "%s", err.msg);
	c.p = (const uint8_t *)out;
	c.end = c.p + len;
	while (field(&c, &num, &wire, &body, &v)) {
		struct cur f = body, g;
		uint32_t n2;
		int w2;

		ck_assert_msg(num == 1 && wire == 2, "not a Trace.packet");
		packets++;
		while (field(&f, &n2, &w2, &g, &v)) {
			if (n2 != 1 || w2 != 2)
				continue;
			has_cpu = false;
			switches += bundle_switches(g, &has_cpu);
			ck_assert_msg(has_cpu, "a bundle without its CPU");
			bundles++;
		}
	}
	ck_assert(c.p == c.end);
	ck_assert_uint_gt(packets, 2);
	ck_assert_uint_gt(bundles, 0);
	/* every switch of the fixture, and per CPU at most one filled in before its first */
	ck_assert_uint_gt(want, 0);
	ck_assert_uint_ge(switches, want);
	ck_assert_uint_le(switches, want + 2 * 4);
	free(out);
	fixture_free(fx);
	tu_rmdir(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fmt_pftrace");
	TCase *tc = tcase_create("pftrace");

	tcase_add_test(tc, wire_bytes);
	tcase_add_test(tc, wire_long_nested);
	tcase_add_loop_test(tc, scenario_structure, 0, 2);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
