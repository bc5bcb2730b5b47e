# src/symbols: callchains resolved offline with libdw (docs/symbols.md)
noinst_LTLIBRARIES += %reldir%/libsrep-symbols.la
%canon_reldir%_libsrep_symbols_la_CPPFLAGS = $(INC_CORE) -I$(top_srcdir)/%reldir%
%canon_reldir%_libsrep_symbols_la_CFLAGS = $(LIB_CFLAGS) $(LIBDW_CFLAGS)
%canon_reldir%_libsrep_symbols_la_SOURCES = %reldir%/sym_local.h %reldir%/symbolizer.h \
	%reldir%/symtab.c %reldir%/kallsyms.c %reldir%/maps.c %reldir%/dso.c \
	%reldir%/symfind.c %reldir%/symbolizer.c %reldir%/symkernel.c %reldir%/resolve.c \
	%reldir%/regs.c %reldir%/unwind.c
