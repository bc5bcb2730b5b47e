# src/cli: the command, thin files over the library and the exporters,
# replay, record and fastforward interfaces (exporter.h, replay.h, record.h,
# fastforward.h)
bin_PROGRAMS += schedrep
schedrep_CPPFLAGS = $(INC_PUBLIC) -I$(top_srcdir)/%reldir% -I$(top_srcdir)/formats \
	-I$(top_srcdir)/replay -I$(top_srcdir)/record -I$(top_srcdir)/fastforward
schedrep_CFLAGS = $(SREP_CFLAGS) $(CJSON_CFLAGS)
schedrep_SOURCES = %reldir%/main.c %reldir%/cli.h %reldir%/cmd-record.c
schedrep_LDADD = record/librecord.la src/core/libsrep-core.la
if !RECORDER_ONLY
schedrep_SOURCES += %reldir%/output.c %reldir%/json-print.c %reldir%/xml-text.c %reldir%/symopts.c \
	%reldir%/cmd-info.c %reldir%/info.h %reldir%/info-json.c %reldir%/info-schedstat.c \
	%reldir%/cmd-convert.c %reldir%/cmd-callchains.c \
	%reldir%/cmd-compare.c %reldir%/compare.h %reldir%/compare-text.c \
	%reldir%/compare-json.c %reldir%/compare-html.c %reldir%/compare-runs.c \
	%reldir%/cmd-replay.c %reldir%/replay-print.c %reldir%/replay-print.h \
	%reldir%/perfopts.c %reldir%/perfopts.h %reldir%/linebuf.c %reldir%/linebuf.h \
	%reldir%/cmd-latency.c %reldir%/cmd-timehist.c \
	%reldir%/cmd-script.c %reldir%/cmd-map.c \
	%reldir%/cmd-fastforward.c %reldir%/ff-log.c %reldir%/ff-log.h \
	%reldir%/cmd-simpoint.c %reldir%/simpoint-out.c %reldir%/simpoint-out.h \
	%reldir%/simpoint-code.c %reldir%/simpoint-code.h %reldir%/simpoint-svg.c \
	%reldir%/simpoint-threads.c \
	%reldir%/simpoint-summary.c
schedrep_LDADD += formats/libformats.la formats/criu/libcriu.la formats/rtapp/librtapp.la \
	replay/libreplay.la fastforward/libfastforward.la \
	$(LIBSCHEDREP_STATIC) -lpthread
endif
