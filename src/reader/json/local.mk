# src/reader/json: schedrep's lossless JSON as a second input
noinst_LTLIBRARIES += %reldir%/libsrep-jsonin.la
%canon_reldir%_libsrep_jsonin_la_CPPFLAGS = $(INC_READER) -I$(top_srcdir)/%reldir%
%canon_reldir%_libsrep_jsonin_la_CFLAGS = $(LT_CFLAGS) $(CJSON_CFLAGS)
%canon_reldir%_libsrep_jsonin_la_SOURCES = %reldir%/jsonin.c %reldir%/jsonin_header.c \
	%reldir%/jsonin_value.c %reldir%/jsonin_local.h
