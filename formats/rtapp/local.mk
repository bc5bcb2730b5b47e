# formats/rtapp: the rt-app exporter, a writer of replay's plan
# (public API, the exporter interface and its writer, replay.h)
noinst_LTLIBRARIES += %reldir%/librtapp.la
%canon_reldir%_librtapp_la_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/formats \
	-I$(top_srcdir)/replay -I$(top_srcdir)/%reldir%
%canon_reldir%_librtapp_la_CFLAGS = $(LT_CFLAGS)
%canon_reldir%_librtapp_la_SOURCES = %reldir%/rtapp.h %reldir%/rtapp.c \
	%reldir%/rtapp_names.c %reldir%/rtapp_write.c
