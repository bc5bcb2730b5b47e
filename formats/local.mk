# formats: one exporter per file behind exporter.h (public API only)
noinst_LTLIBRARIES += %reldir%/libformats.la
%canon_reldir%_libformats_la_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/%reldir%
%canon_reldir%_libformats_la_CFLAGS = $(LT_CFLAGS)
%canon_reldir%_libformats_la_SOURCES = %reldir%/exporter.h %reldir%/exporter.c \
	%reldir%/emit.h %reldir%/emit.c %reldir%/timeline.h %reldir%/timeline.c \
	%reldir%/perfetto.c %reldir%/json.c %reldir%/svg.c \
	%reldir%/pbwire.h %reldir%/pbwire.c %reldir%/pftrace.h %reldir%/pftrace.c \
	%reldir%/pftrace-cpu.c %reldir%/pftrace-stacks.c %reldir%/pftrace-blocked.c \
	%reldir%/framecache.h %reldir%/framecache.c \
	%reldir%/palette.c
