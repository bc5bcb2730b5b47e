# src/reader/json: schedrep's lossless JSON as a second input
noinst_LTLIBRARIES += %reldir%/libsrep-jsonin.la
%canon_reldir%_libsrep_jsonin_la_CPPFLAGS = $(INC_READER) -I$(top_srcdir)/%reldir%
%canon_reldir%_libsrep_jsonin_la_CFLAGS = $(LIB_CFLAGS) $(CJSON_CFLAGS)
%canon_reldir%_libsrep_jsonin_la_SOURCES = %reldir%/jsonin.c %reldir%/jhead.c \
	%reldir%/jval.c %reldir%/jsonin_local.h
