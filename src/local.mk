# libschedrep: the layers of src/ (all but the CLI) as one library
SREP_LAYERS = src/core/libsrep-core.la src/reader/libsrep-reader.la \
	src/reader/json/libsrep-jsonin.la src/symbols/libsrep-symbols.la \
	src/analysis/libsrep-analysis.la
SREP_EXTERNAL_LIBS = $(TRACEEVENT_LIBS) $(ZSTD_LIBS) $(CJSON_LIBS) $(LIBDW_LIBS) -lm
lib_LTLIBRARIES += src/libschedrep.la
src_libschedrep_la_SOURCES =
src_libschedrep_la_LIBADD = $(SREP_LAYERS) $(SREP_EXTERNAL_LIBS)
# the ABI: libschedrep.so.0; the version script keeps everything but srep_* local
src_libschedrep_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-Wl,--version-script=$(srcdir)/src/libschedrep.map
EXTRA_DIST += src/libschedrep.map
src_libschedrep_la_DEPENDENCIES = $(SREP_LAYERS) $(srcdir)/src/libschedrep.map

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/schedrep.pc

# the same objects as one archive, for the program and the tests: linked
# statically (one file to copy to a board; LTO inlines the reader's hot path
# across its files), and one archive resolves the layers' calls into each
# other in any order
noinst_LTLIBRARIES += src/libsrep-all.la
src_libsrep_all_la_SOURCES =
src_libsrep_all_la_LIBADD = $(SREP_LAYERS) $(SREP_EXTERNAL_LIBS)
LIBSCHEDREP_STATIC = src/libsrep-all.la

# the public headers, installed as <schedrep/NAME.h>
schedrepincludedir = $(includedir)/schedrep
schedrepinclude_HEADERS = src/include/schedrep/schedrep.h src/include/schedrep/error.h \
	src/include/schedrep/text.h \
	src/include/schedrep/session.h src/include/schedrep/select.h \
	src/include/schedrep/analysis.h src/include/schedrep/symbols.h \
	src/include/schedrep/schema.h src/include/schedrep/perfsched.h \
	src/include/schedrep/simpoint.h
