# tests: one Check suite per module, in the folder of its layer
# (tests/LAYER/check_MODULE.c), the helpers in tests/lib/, CLI scripts in
# tests/cli/. Tests are white-box: they see every layer's headers. Every
# test program links the same libraries (LDADD).
AM_CPPFLAGS = $(INC_READER) -I$(top_srcdir)/src/reader/json -I$(top_srcdir)/src/symbols \
	-I$(top_srcdir)/src/analysis -I$(top_srcdir)/formats -I$(top_srcdir)/formats/criu \
	-I$(top_builddir)/formats/criu -I$(top_srcdir)/formats/rtapp -I$(top_srcdir)/replay -I$(top_srcdir)/record \
	-I$(top_srcdir)/tests/lib \
	-DSREP_TOP_SRCDIR='"$(abs_top_srcdir)"' -DSREP_TOP_BUILDDIR='"$(abs_top_builddir)"'
AM_CFLAGS = $(SREP_CFLAGS) $(CHECK_CFLAGS) $(TRACEEVENT_CFLAGS) $(ZSTD_CFLAGS) \
	$(CJSON_CFLAGS) $(PROTOBUF_C_CFLAGS) $(LIBDW_CFLAGS) -pthread
LDADD = tests/lib/libtests.la formats/libformats.la formats/criu/libcriu.la \
	formats/rtapp/librtapp.la replay/libreplay.la record/librecord.la $(LIBSCHEDREP_STATIC) \
	$(CHECK_LIBS) -lpthread -lm

check_LTLIBRARIES += tests/lib/libtests.la
tests_lib_libtests_la_SOURCES = tests/lib/fixture.c tests/lib/fixture_formats.c \
	tests/lib/fixture.h tests/lib/testutil.c tests/lib/testutil.h \
	tests/lib/fmtutil.c tests/lib/fmtutil.h tests/lib/rectest.c tests/lib/rectest.h \
	tests/lib/replay_fixtures.c tests/lib/replay_fixtures.h
EXTRA_DIST += tests/lib/lsan.supp tests/lib/crit-check.py

UNIT_TESTS = tests/lib/check_fixture \
	tests/core/check_bytes tests/core/check_error tests/core/check_loss \
	tests/core/check_timefmt \
	tests/reader/check_input tests/reader/check_header tests/reader/check_feature \
	tests/reader/check_evsel tests/reader/check_sample tests/reader/check_order \
	tests/reader/check_decomp tests/reader/check_records tests/reader/check_tp \
	tests/reader/check_model tests/reader/check_task tests/reader/check_session \
	tests/reader/check_schema tests/reader/check_tp_check tests/reader/check_tp_native \
	tests/reader/check_reader tests/reader/check_damage tests/reader/check_corpus \
	tests/reader/json/check_jsonin \
	tests/symbols/check_symtab tests/symbols/check_kallsyms tests/symbols/check_maps \
	tests/symbols/check_dso tests/symbols/check_symfind \
	tests/symbols/check_symbolizer tests/symbols/check_resolve tests/symbols/check_regs \
	tests/analysis/check_select tests/analysis/check_hist tests/analysis/check_metrics \
	tests/analysis/check_match tests/analysis/check_compare tests/analysis/check_blocking \
	tests/analysis/check_simpoint tests/analysis/check_runs tests/analysis/check_schedmap \
	tests/formats/check_emit tests/formats/check_fmt_perfetto tests/formats/check_fmt_pftrace \
	tests/formats/check_fmt_json \
	tests/formats/check_fmt_svg tests/formats/check_fmt_criu tests/formats/check_fmt_rtapp \
	tests/formats/check_palette \
	tests/replay/check_replay_plan tests/replay/check_replay_run \
	tests/replay/check_replay_report \
	tests/record/check_record_util tests/record/check_record_perfdata \
	tests/record/check_record_account tests/record/check_record_flight \
	tests/record/check_record_latency \
	tests/fastforward/check_ff_action tests/cli/check_linebuf
tests_cli_check_linebuf_SOURCES = tests/cli/check_linebuf.c src/cli/linebuf.c
tests_cli_check_linebuf_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/cli
tests_fastforward_check_ff_action_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fastforward
tests_fastforward_check_ff_action_LDADD = fastforward/libfastforward.la $(LDADD)
# programs the CLI tests run
TEST_TOOLS = tests/lib/mkpairs tests/lib/late_wakeups tests/lib/soak tests/lib/ff_spin \
	tests/lib/mklbr
# the fastforward workload needs nothing but libc
tests_lib_ff_spin_LDADD =
check_PROGRAMS += $(UNIT_TESTS) $(TEST_TOOLS)
TESTS += $(UNIT_TESTS)

# CLI tests: scripts, their helpers and golden files are listed one by one
# (a listed directory would also ship the test logs of the build tree)
CLI_TESTS = tests/cli/help.sh tests/cli/info.sh tests/cli/filters.sh tests/cli/compare-runs.sh \
	tests/cli/compare.sh tests/cli/compare-corpus.sh tests/cli/compare-html.sh \
	tests/cli/compare-symbols.sh tests/cli/convert.sh tests/cli/pftrace.sh tests/cli/svg-render.sh \
	tests/cli/json-input.sh tests/cli/convert-symbols.sh \
	tests/cli/convert-criu.sh tests/cli/criu-corpus.sh tests/cli/callchains.sh \
	tests/cli/replay.sh tests/cli/rtapp.sh tests/cli/rtapp-corpus.sh \
	tests/cli/record.sh tests/cli/record-ring.sh \
	tests/cli/example.sh tests/cli/completion.sh tests/cli/bad-inputs.sh \
	tests/cli/perf-dir.sh tests/cli/perf-corpus.sh tests/cli/perf-host.sh \
	tests/cli/progress.sh tests/cli/fastforward.sh tests/cli/fastforward-plan.sh \
	tests/cli/simpoint.sh tests/cli/simpoint-lbr.sh
TESTS += $(CLI_TESTS) tests/layers.sh tests/abi.sh
dist_check_SCRIPTS = $(CLI_TESTS) tests/layers.sh tests/abi.sh
EXTRA_DIST += tests/cli/lib.sh tests/simpoint/ari.awk tests/simpoint/phases.c \
	tests/cli/info-sample-x86_64.stdout tests/cli/info-sample-s390x-zstd.stdout \
	tests/cli/compare-pair.json tests/cli/compare-pair.stdout \
	tests/cli/compare-symbols.stdout tests/cli/convert-symbols.stdout \
	tests/cli/convert-criu-pair.timeline.json \
	tests/cli/replay-dry-run-sample-x86_64.stdout

# libtraceevent 1.7.1 leaks a few bytes for each event format whose field
# list it cannot parse (damaged traces); that leak is the library's, not ours.
AM_TESTS_ENVIRONMENT = \
	LSAN_OPTIONS='suppressions=$(abs_top_srcdir)/tests/lib/lsan.supp'; export LSAN_OPTIONS; \
	UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1'; export UBSAN_OPTIONS; \
	TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1'; export TSAN_OPTIONS; \
	CK_DEFAULT_TIMEOUT=60; export CK_DEFAULT_TIMEOUT; \
	SREP_TOP_SRCDIR='$(abs_top_srcdir)'; export SREP_TOP_SRCDIR; \
	SREP_TOP_BUILDDIR='$(abs_top_builddir)'; export SREP_TOP_BUILDDIR; \
	SREP_CC='$(CC)'; SREP_LDFLAGS='$(SREP_LDFLAGS)'; export SREP_CC SREP_LDFLAGS; \
	SREP_BIN='$(abs_top_builddir)/schedrep'; export SREP_BIN;

# the suites of the code that runs threads (replay's mockups, the exporters'
# writer, the reader's window prefetch): what the --enable-tsan build runs
# (quickstart.sh test)
THREAD_UNIT_TESTS = tests/replay/check_replay_plan tests/replay/check_replay_run \
	tests/replay/check_replay_report tests/formats/check_emit \
	tests/formats/check_fmt_perfetto tests/reader/check_input
THREAD_TESTS = $(THREAD_UNIT_TESTS) tests/cli/replay.sh tests/cli/convert.sh
check-threads: schedrep $(THREAD_UNIT_TESTS) $(TEST_TOOLS)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(THREAD_TESTS)'
.PHONY: check-threads fuzz-check

# the fuzz targets and their driver ship in the tarball even when not built
EXTRA_DIST += tests/fuzz/local.mk tests/fuzz/run.sh tests/fuzz/fuzz.h tests/fuzz/fuzz.c \
	tests/fuzz/fuzz_reader.c tests/fuzz/fuzz_pipe.c tests/fuzz/fuzz_export.c \
	tests/fuzz/fuzz_symbols.c tests/fuzz/fuzz_record.c tests/fuzz/seeds.c \
	tests/data/bad
