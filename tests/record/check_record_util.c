// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_record_util.c - the recorder's small parsers: sizes with binary
 * suffixes, CPU lists, perf strings, tracefs ids and field offsets, event
 * names, and where the record layout puts times and RAW payloads.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "rectest.h"

START_TEST(sizes)
{
	struct srep_error err = { 0 };
	uint64_t v;

	ck_assert_int_eq(srep_rec_parse_size("64M", &v, &err), 0);
	ck_assert_uint_eq(v, 64ull << 20);
	ck_assert_int_eq(srep_rec_parse_size("1k", &v, &err), 0);
	ck_assert_uint_eq(v, 1024);
	ck_assert_int_eq(srep_rec_parse_size("2G", &v, &err), 0);
	ck_assert_uint_eq(v, 2ull << 30);
	ck_assert_int_eq(srep_rec_parse_size("4096", &v, &err), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(srep_rec_parse_size("1.5M", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_parse_size("-1M", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_parse_size("M", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_parse_size("64MB", &v, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_parse_size("99999999999999G", &v, &err), SREP_E_INVAL);
}
END_TEST

START_TEST(cpu_lists)
{
	struct srep_error err = { 0 };
	int *cpus;
	size_t nr;

	ck_assert_int_eq(cpulist_parse("0-3,6,2\n", &cpus, &nr, &err), 0);
	ck_assert_uint_eq(nr, 5);
	ck_assert_int_eq(cpus[0], 0);
	ck_assert_int_eq(cpus[3], 3);
	ck_assert_int_eq(cpus[4], 6);
	ck_assert(cpulist_has(cpus, nr, 6));
	ck_assert(!cpulist_has(cpus, nr, 4));
	ck_assert(!cpulist_has(cpus, 0, 0));
	free(cpus);
	ck_assert_int_eq(cpulist_parse("5", &cpus, &nr, &err), 0);
	ck_assert_uint_eq(nr, 1);
	free(cpus);
	ck_assert_int_eq(cpulist_parse("3-1", &cpus, &nr, &err), SREP_E_INVAL);
	ck_assert_int_eq(cpulist_parse("a", &cpus, &nr, &err), SREP_E_INVAL);
	ck_assert_int_eq(cpulist_parse("", &cpus, &nr, &err), SREP_E_INVAL);
	ck_assert_int_eq(cpulist_parse("1,,2", &cpus, &nr, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "bad CPU list"));
}
END_TEST

/* perf strings: u32 length rounded up to 64, the text, NUL padding */
START_TEST(perf_strings)
{
	struct rec_buf b = { 0 };

	ck_assert_int_eq(buf_str64(&b, "x86_64"), 0);
	ck_assert_uint_eq(b.len, 4 + 64);
	ck_assert_uint_eq(srep_get32(b.p, false), 64);	/* host order */
	ck_assert_str_eq((const char *)b.p + 4, "x86_64");
	b.len = 0;
	ck_assert_int_eq(buf_str64(&b, "0123456789012345678901234567890123456789012345678901234567890123"), 0);
	ck_assert_uint_eq(b.len, 4 + 128);
	buf_free(&b);
}
END_TEST

START_TEST(tracefs_lookups)
{
	struct srep_error err = { 0 };
	struct rec_field f;
	uint64_t id;
	char *dir;

	ck_assert_int_eq(tracefs_event_id(RT_TRACEFS, "sched", "sched_switch", &id, &err), 0);
	ck_assert_uint_eq(id, 372);
	ck_assert_int_eq(tracefs_event_id(RT_TRACEFS, "sched", "no_such", &id, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown event 'sched:no_such'"));
	ck_assert_int_eq(tracefs_event_id(RT_TRACEFS, "..", "x", &id, &err), SREP_E_INVAL);
	ck_assert_int_eq(tracefs_field(RT_TRACEFS, "sched", "sched_switch", "next_pid", &f, &err), 0);
	ck_assert_uint_eq(f.offset, 56);
	ck_assert_uint_eq(f.size, 4);
	ck_assert_int_eq(tracefs_field(RT_TRACEFS, "sched", "sched_switch", "prev_comm", &f, &err), 0);
	ck_assert_uint_eq(f.offset, 8);
	ck_assert_uint_eq(f.size, 16);
	ck_assert_int_eq(tracefs_field(RT_TRACEFS, "sched", "sched_wakeup", "pid", &f, &err), 0);
	ck_assert_uint_eq(f.offset, 24);
	ck_assert_int_eq(tracefs_field(RT_TRACEFS, "sched", "sched_wakeup", "nope", &f, &err),
			 SREP_E_UNSUPPORTED);
	ck_assert_int_eq(tracefs_find(RT_TRACEFS, &dir, &err), 0);
	free(dir);
	ck_assert_int_eq(tracefs_find(SREP_TOP_SRCDIR, &dir, &err), SREP_E_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not a tracefs"));
}
END_TEST

START_TEST(event_names)
{
	static const char *const ok[] = { "sched:sched_switch", "cs", "cpu-clock", "sched:sched_switch" };
	static const char *const hw[] = { "instructions:u", "sched:sched_switch" };
	static const char *const bad[] = { "cycle" };
	struct srep_rec_opts o = { .events = ok, .nr_events = 4, .system_wide = true };
	struct srep_error err = { 0 };
	struct rec_evlist el;

	ck_assert_int_eq(evlist_build(&el, &o, RT_TRACEFS, &err), 0);
	ck_assert_uint_eq(el.nr, 4);	/* the duplicate once, and the side-band event */
	ck_assert_str_eq(el.ev[1].name, "context-switches");
	ck_assert_int_eq(el.ev[1].attr.type, PERF_TYPE_SOFTWARE);
	ck_assert_int_eq(el.ev[1].attr.freq, 1);
	ck_assert_str_eq(el.ev[el.sideband].name, "dummy:HG");
	ck_assert_int_eq(el.ev[el.sideband].attr.comm, 1);
	ck_assert(el.has_tracepoints);
	evlist_free(&el);
	/* a counter with perf's modifier is not taken for a tracepoint */
	o.events = hw;
	o.nr_events = 2;
	ck_assert_int_eq(evlist_build(&el, &o, RT_TRACEFS, &err), 0);
	ck_assert_str_eq(el.ev[0].name, "instructions:u");
	ck_assert_int_eq(el.ev[0].attr.type, PERF_TYPE_HARDWARE);
	ck_assert_int_eq(el.ev[0].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert_int_eq(el.ev[0].attr.exclude_kernel, 1);
	ck_assert_int_eq(el.ev[0].attr.exclude_user, 0);
	ck_assert_str_eq(el.ev[1].name, "sched:sched_switch");
	evlist_free(&el);
	o.events = bad;
	o.nr_events = 1;
	ck_assert_int_eq(evlist_build(&el, &o, RT_TRACEFS, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown event 'cycle'"));
}
END_TEST

/* the one parser of counter names, as 'record -e' and 'fastforward -e' use it */
START_TEST(counter_names)
{
	struct srep_rec_counter c;
	struct srep_error err = { 0 };

	ck_assert_int_eq(srep_rec_counter__parse("task-clock", &c, &err), 0);
	ck_assert_str_eq(c.unit, "ns");
	ck_assert_int_eq(c.type, PERF_TYPE_SOFTWARE);
	ck_assert(!c.exclude_kernel && !c.exclude_user);
	ck_assert_int_eq(srep_rec_counter__parse("faults:k", &c, &err), 0);
	ck_assert_str_eq(c.name, "page-faults");
	ck_assert(c.exclude_user && !c.exclude_kernel);
	ck_assert_int_eq(srep_rec_counter__parse("cpu-cycles:u", &c, &err), 0);
	ck_assert_str_eq(c.name, "cycles");
	ck_assert_uint_eq(c.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_int_eq(srep_rec_counter__parse("instructions:uk", &c, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_counter__parse("dummy:HG", &c, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_counter__parse("sched:sched_switch", &c, &err), SREP_E_INVAL);
	ck_assert_int_eq(srep_rec_counter__parse("instruction", &c, &err), SREP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown event 'instruction'"));
}
END_TEST

/* the default set: what this tracefs copy lacks is skipped, and said */
START_TEST(default_events)
{
	struct srep_rec_opts o = { .system_wide = true };
	struct srep_error err = { 0 };
	struct rec_evlist el;

	ck_assert_int_eq(evlist_build(&el, &o, RT_TRACEFS, &err), 0);
	ck_assert_str_eq(el.ev[0].name, "sched:sched_switch");
	ck_assert_ptr_nonnull(strstr(el.skipped, "sched:sched_migrate_task"));
	ck_assert_ptr_null(strstr(el.skipped, "sched:sched_waking"));
	ck_assert_int_eq(el.ev[0].attr.enable_on_exec, 0);
	evlist_free(&el);
}
END_TEST

START_TEST(layout)
{
	struct rec_evlist el;
	struct rec_layout lay;
	struct rec_buf b = { 0 };
	const uint8_t *raw;
	uint32_t raw_size;

	rt_evlist(&el, false);
	layout_init(&lay, el.ev[0].attr.sample_type);
	ck_assert_uint_eq(lay.time_off, 32);
	ck_assert_uint_eq(lay.trailer_size, 32);
	ck_assert_uint_eq(lay.trailer_time_back, 24);
	rt_switch(&b, &el, 12345, 1, 7, 8);
	ck_assert_uint_eq(layout_time(&lay, b.p, REC_SAMPLE, (uint16_t)b.len), 12345);
	ck_assert(layout_raw(&lay, b.p, (uint16_t)b.len, &raw, &raw_size));
	ck_assert_uint_eq(raw_size, 68);
	ck_assert_uint_eq(srep_get32(raw + 56, false), 8);
	ck_assert(!layout_raw(&lay, b.p, 60, &raw, &raw_size));	/* cut short */
	b.len = 0;
	rt_comm(&b, &el, 777, 0, 5, "x");
	ck_assert_uint_eq(layout_time(&lay, b.p, REC_COMM, (uint16_t)b.len), 777);
	ck_assert_uint_eq(layout_time(&lay, b.p, REC_COMM, 16), 0);
	buf_free(&b);
	evlist_free(&el);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record_util");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, sizes);
	tcase_add_test(tc, cpu_lists);
	tcase_add_test(tc, perf_strings);
	tcase_add_test(tc, tracefs_lookups);
	tcase_add_test(tc, event_names);
	tcase_add_test(tc, counter_names);
	tcase_add_test(tc, default_events);
	tcase_add_test(tc, layout);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}
