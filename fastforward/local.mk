# fastforward: the engine behind 'schedrep fastforward' (stop a workload at
# counts of a perf event, checkpoint it, go on). Like record/ it needs only
# libc: it reuses record/'s counter names and held-before-exec workload
# through record.h, so the recorder-only build can have it too.
noinst_LTLIBRARIES += %reldir%/libfastforward.la
%canon_reldir%_libfastforward_la_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/%reldir% \
	-I$(top_srcdir)/record
%canon_reldir%_libfastforward_la_CFLAGS = $(LT_CFLAGS)
%canon_reldir%_libfastforward_la_SOURCES = %reldir%/fastforward.h %reldir%/ff_local.h \
	%reldir%/counter.c %reldir%/tree.c %reldir%/action.c %reldir%/run.c
