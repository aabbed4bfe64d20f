# The usmarr command-line tool: devices, the kernel cache, benchmarks, the demo.
bin_PROGRAMS += tools/usmarr
tools_usmarr_SOURCES = tools/usmarr.c
tools_usmarr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bench
tools_usmarr_LDADD = bench/libusmarr-bench.la lib/libusmarr.la

# Compiles the common kernels for every device into the disk cache.
prewarm: tools/usmarr
	@$(OCL_ENVIRONMENT) ./tools/usmarr cache prewarm all >/dev/null
demo: tools/usmarr
	@$(OCL_ENVIRONMENT) ./tools/usmarr demo
.PHONY: prewarm demo
EXTRA_DIST += scripts/setup.sh scripts/install-deps.sh scripts/usm-probe.c scripts/numpy-oracle.sh
