# formats/criu: the CRIU exporter; criu.proto is compiled by protoc-c
noinst_LTLIBRARIES += %reldir%/libcriu.la
%canon_reldir%_libcriu_la_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/formats \
	-I$(top_srcdir)/%reldir% -I$(top_builddir)/%reldir%
%canon_reldir%_libcriu_la_CFLAGS = $(LT_CFLAGS) $(PROTOBUF_C_CFLAGS)
%canon_reldir%_libcriu_la_SOURCES = %reldir%/criu.h %reldir%/criu_local.h %reldir%/criu.c \
	%reldir%/criu_tree.c %reldir%/criu_images.c %reldir%/criu_timeline.c
nodist_%canon_reldir%_libcriu_la_SOURCES = %reldir%/criu.pb-c.c %reldir%/criu.pb-c.h
%canon_reldir%_libcriu_la_LIBADD = $(PROTOBUF_C_LIBS)
BUILT_SOURCES += %reldir%/criu.pb-c.h
CLEANFILES += %reldir%/criu.pb-c.c %reldir%/criu.pb-c.h
EXTRA_DIST += %reldir%/criu.proto

%reldir%/criu.pb-c.h: %reldir%/criu.pb-c.c
%reldir%/criu.pb-c.c: $(srcdir)/%reldir%/criu.proto
	$(AM_V_GEN)$(MKDIR_P) %reldir% && \
	$(PROTOC_C) --proto_path=$(srcdir)/%reldir% --c_out=%reldir% $(srcdir)/%reldir%/criu.proto
