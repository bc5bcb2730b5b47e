# src/reader: perf.data in file and pipe mode, any byte order and word size
noinst_LTLIBRARIES += %reldir%/libsrep-reader.la
%canon_reldir%_libsrep_reader_la_CPPFLAGS = $(INC_READER)
%canon_reldir%_libsrep_reader_la_CFLAGS = $(LIB_CFLAGS) $(TRACEEVENT_CFLAGS) $(ZSTD_CFLAGS)
%canon_reldir%_libsrep_reader_la_SOURCES = %reldir%/reader.h \
	%reldir%/input.c %reldir%/prefetch.c %reldir%/header.c %reldir%/feature.c %reldir%/evsel.c \
	%reldir%/sample.c %reldir%/order.c %reldir%/decomp.c %reldir%/records.c \
	%reldir%/tp.c %reldir%/tp_blob.c %reldir%/tp_check.c %reldir%/tp_native.c %reldir%/tp_synth.c %reldir%/tp_local.h %reldir%/model.c \
	%reldir%/task.c %reldir%/session.c %reldir%/diag.c \
	%reldir%/owned.c %reldir%/perfdata.c %reldir%/schema.c %reldir%/schedstat.c \
	%reldir%/streams.c %reldir%/names.c
