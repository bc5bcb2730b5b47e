# record: the engine behind 'schedrep record'. It uses src/core but not the
# library: --enable-recorder-only builds it alone with libc, pthreads and,
# for -z only, libzstd (no libtraceevent, libdw, cJSON or check).
noinst_LTLIBRARIES += %reldir%/librecord.la
%canon_reldir%_librecord_la_CPPFLAGS = $(INC_CORE) -I$(top_srcdir)/%reldir%
%canon_reldir%_librecord_la_CFLAGS = $(LT_CFLAGS) $(ZSTD_CFLAGS) -pthread
%canon_reldir%_librecord_la_SOURCES = %reldir%/record.h %reldir%/rec_local.h \
	%reldir%/util.c %reldir%/evname.c %reldir%/evlist.c %reldir%/tracefs.c %reldir%/layout.c \
	%reldir%/feature.c %reldir%/zstd.c %reldir%/perfdata.c %reldir%/synth.c \
	%reldir%/counters.c %reldir%/account.c %reldir%/flight.c %reldir%/latency.c \
	%reldir%/workload.c %reldir%/writer.c %reldir%/record.c %reldir%/run.c
%canon_reldir%_librecord_la_LIBADD = $(ZSTD_LIBS) -lpthread
EXTRA_DIST += tests/cross
