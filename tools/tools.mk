# The usmarr command-line tool: devices, the kernel cache, benchmarks, the demo.
bin_PROGRAMS += tools/usmarr
tools_usmarr_SOURCES = tools/usmarr.c
tools_usmarr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bench
tools_usmarr_LDADD = bench/libusmarr-bench.la lib/libusmarr.la

# Compiles the common kernels for every device into the disk cache.
prewarm: tools/usmarr
	@$(OCL_ENVIRONMENT) ./tools/usmarr cache prewarm all >/dev/null
# make install also builds them into the system cache, $(kernelcachedir), which every
# user's processes read after their own cache (doc/cache.md): a first use finds them
# without compiling.  They are built in the table's kernel shapes (--no-tune), which are
# the shapes of a device nobody tuned yet; `make prewarm` tunes (doc/engine.md, "Tuning").  INSTALL_KERNELS=no leaves it out (a package built on another machine).
INSTALL_KERNELS = yes
install-data-local: install-kernels
install-kernels: tools/usmarr
	@if test "$(INSTALL_KERNELS)" = yes; then \
	  echo "install: building the common kernels of every USM device into $(DESTDIR)$(kernelcachedir)"; \
	  $(MKDIR_P) "$(DESTDIR)$(kernelcachedir)" && \
	  $(OCL_ENVIRONMENT) USMARR_CACHE=on USMARR_CACHE_DIR="$(DESTDIR)$(kernelcachedir)" USMARR_CACHE_SYSTEM_DIR=off \
	    USMARR_CACHE_MAX_BYTES=4G ./tools/usmarr cache prewarm all --no-tune >/dev/null || \
	    echo "install: the kernels were not built (see 'usmarr cache prewarm all'); first uses will compile them"; \
	  chmod -R u=rwX,go=rX "$(DESTDIR)$(kernelcachedir)"; \
	fi
uninstall-local: uninstall-kernels
uninstall-kernels:
	rm -rf "$(DESTDIR)$(kernelcachedir)"
demo: tools/usmarr
	@$(OCL_ENVIRONMENT) ./tools/usmarr demo
.PHONY: prewarm demo install-kernels uninstall-kernels
EXTRA_DIST += scripts/setup.sh scripts/install-deps.sh scripts/usm-probe.c scripts/numpy-oracle.sh scripts/numpy2-sklearn.sh scripts/numpy2-dpctl.sh scripts/numpy2-pip.sh \
	scripts/pocl-prefix-pch.patch scripts/pocl-binary-specialized.patch scripts/pocl-unity-build.patch
