# replay: mockup threads over the library (public API only)
noinst_LTLIBRARIES += %reldir%/libreplay.la
%canon_reldir%_libreplay_la_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/%reldir%
%canon_reldir%_libreplay_la_CFLAGS = $(LT_CFLAGS) $(CJSON_CFLAGS)
%canon_reldir%_libreplay_la_SOURCES = %reldir%/replay.h %reldir%/defaults.c %reldir%/actions.c %reldir%/plan.c \
	%reldir%/scale.c %reldir%/host.c %reldir%/run.c %reldir%/report.c
%canon_reldir%_libreplay_la_LIBADD = $(CJSON_LIBS) -lpthread -lm
