# src/core: errors, byte order, growth of arrays, the data-loss figure, time
# arguments. Below everything; the recorder uses it without the library.
noinst_LTLIBRARIES += %reldir%/libsrep-core.la
%canon_reldir%_libsrep_core_la_CPPFLAGS = $(INC_CORE)
%canon_reldir%_libsrep_core_la_CFLAGS = $(LIB_CFLAGS)
%canon_reldir%_libsrep_core_la_SOURCES = %reldir%/bug.h %reldir%/bytes.h %reldir%/grow.h \
	%reldir%/error.c %reldir%/loss.c %reldir%/loss.h %reldir%/timefmt.c %reldir%/digits.c
