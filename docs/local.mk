# docs: manual pages, written in Markdown (docs/man/NAME.SECTION.md) and
# made roff by pandoc; the roff pages are distributed, so building from a
# release tarball does not need pandoc.
MAN_PAGES1 = docs/man/schedrep.1 docs/man/schedrep-info.1 docs/man/schedrep-convert.1 \
	docs/man/schedrep-compare.1 docs/man/schedrep-callchains.1 \
	docs/man/schedrep-replay.1 docs/man/schedrep-record.1 docs/man/schedrep-latency.1 \
	docs/man/schedrep-timehist.1 docs/man/schedrep-script.1 docs/man/schedrep-map.1 \
	docs/man/schedrep-fastforward.1 docs/man/schedrep-simpoint.1
man1_MANS = $(MAN_PAGES1)
man3_MANS = docs/man/schedrep.3
MAINTAINERCLEANFILES = $(man1_MANS) $(man3_MANS)
# listed, so that 'make dist' makes them first even in a fresh build directory
EXTRA_DIST += $(man1_MANS) $(man3_MANS)

# the page's title and section from its name: schedrep-info.1 is SCHEDREP-INFO(1)
docs/man/%: $(srcdir)/docs/man/%.md
	$(AM_V_GEN)$(MKDIR_P) docs/man && name=$$(basename $@) && \
	sed 1d $< | $(PANDOC) -s -f markdown-smart-raw_html -t man --shift-heading-level-by=-1 \
		-M title="$$(echo $${name%.*} | tr a-z A-Z)" -M section="$${name##*.}" \
		-M header="schedrep manual" -M footer="schedrep $(PACKAGE_VERSION)" \
		-M date="$$(date -u -d @$${SOURCE_DATE_EPOCH:-$$(stat -c %Y $<)} +%Y-%m-%d)" -o $@

# bash completion, read from the program's own help
bashcompdir = $(BASH_COMPLETION_DIR)
dist_bashcomp_DATA = src/cli/schedrep.bash
install-data-hook:
	cd $(DESTDIR)$(bashcompdir) && mv -f schedrep.bash schedrep
uninstall-hook:
	rm -f $(DESTDIR)$(bashcompdir)/schedrep
