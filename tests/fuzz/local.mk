# tests/fuzz: libFuzzer targets (configure --enable-fuzzers, with clang).
# 'make fuzz-check' runs each for FUZZ_SECONDS (20) on its seeds and every
# regression input, and the regression tests under clang's sanitizers;
# tests/fuzz/run.sh campaign runs longer campaigns.
FUZZ_TARGETS = tests/fuzz/fuzz_reader tests/fuzz/fuzz_pipe tests/fuzz/fuzz_export \
	tests/fuzz/fuzz_symbols tests/fuzz/fuzz_record
check_PROGRAMS += $(FUZZ_TARGETS) tests/fuzz/seeds
FUZZ_COMMON = tests/fuzz/fuzz.h tests/fuzz/fuzz.c
tests_fuzz_fuzz_reader_SOURCES = tests/fuzz/fuzz_reader.c $(FUZZ_COMMON)
tests_fuzz_fuzz_pipe_SOURCES = tests/fuzz/fuzz_pipe.c $(FUZZ_COMMON)
tests_fuzz_fuzz_export_SOURCES = tests/fuzz/fuzz_export.c $(FUZZ_COMMON)
tests_fuzz_fuzz_symbols_SOURCES = tests/fuzz/fuzz_symbols.c
tests_fuzz_fuzz_record_SOURCES = tests/fuzz/fuzz_record.c
# libFuzzer's main(); the rest of the build is instrumented with fuzzer-no-link
tests_fuzz_fuzz_reader_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_pipe_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_export_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_symbols_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_record_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
FUZZ_SECONDS = 20

# the regression inputs, damage and the corpus, under clang's sanitizers
# (which see what GCC's do not, such as NULL + 0)
FUZZ_REGRESSION = tests/reader/check_damage tests/reader/check_corpus tests/reader/check_decomp
fuzz-check: schedrep $(FUZZ_TARGETS) tests/fuzz/seeds $(FUZZ_REGRESSION)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='tests/cli/bad-inputs.sh $(FUZZ_REGRESSION)'
	$(SHELL) $(srcdir)/tests/fuzz/run.sh smoke $(abs_top_builddir) $(FUZZ_SECONDS)
