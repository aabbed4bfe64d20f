# The API reference from the public headers (needs doxygen), with doc/guide.md as its
# main page.
doc: doc/Doxyfile
	@if test -z "$(DOXYGEN)"; then echo "doxygen not found: apt-get install doxygen"; exit 1; fi
	$(DOXYGEN) doc/Doxyfile && echo "API reference: $(abs_top_builddir)/doc/api/html/index.html"
# The documents travel by name pattern, not as the directory `doc` in EXTRA_DIST: that
# would make `make dist` build the phony target `doc` above (Doxygen output in doc/api).
dist-hook:
	$(MKDIR_P) $(distdir)/doc && cp -p $(srcdir)/doc/*.md $(srcdir)/doc/Doxyfile.in $(distdir)/doc/
.PHONY: doc
