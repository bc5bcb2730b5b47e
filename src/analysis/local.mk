# src/analysis: task selection, metrics, task matching, comparison
noinst_LTLIBRARIES += %reldir%/libsrep-analysis.la
%canon_reldir%_libsrep_analysis_la_CPPFLAGS = $(INC_CORE) -I$(top_srcdir)/%reldir%
%canon_reldir%_libsrep_analysis_la_CFLAGS = $(LIB_CFLAGS)
%canon_reldir%_libsrep_analysis_la_SOURCES = %reldir%/select.c %reldir%/hist.c %reldir%/hist.h \
	%reldir%/metrics.c %reldir%/match.c %reldir%/compare.c %reldir%/blocking.c \
	%reldir%/blocking.h %reldir%/pthreads.c %reldir%/pthreads.h \
	%reldir%/perfcommon.c %reldir%/latency.c %reldir%/timehist.c \
	%reldir%/schedmap.c %reldir%/runs.c %reldir%/simpoint.h %reldir%/simpoint_intervals.c \
	%reldir%/simpoint_kmeans.c %reldir%/simpoint_ran2.c %reldir%/simpoint_cluster.c %reldir%/simpoint_source.c
