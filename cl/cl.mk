# Kernel sources (OpenCL C), embedded into the library at build time as lib/engine/cl_sources.c.
KERNEL_FILES = cl/prelude.cl cl/map.cl cl/boxes.cl cl/cast.cl cl/fill.cl cl/ramp.cl cl/lookup.cl cl/tally.cl cl/complex.cl cl/vmath.cl cl/elementwise.cl \
	cl/elementwise_funcs.cl cl/elementwise_map.cl \
	cl/reduce.cl cl/reduce_cols.cl cl/reduce_tree.cl cl/scan.cl cl/index.cl cl/compact.cl cl/linalg.cl cl/stats.cl cl/sort.cl cl/sort_radix.cl cl/topk.cl \
	cl/groupscan.cl cl/radix.cl cl/search.cl cl/gemm.cl cl/linalg_lu.cl cl/linalg_eig.cl cl/linalg_tridiag.cl cl/fft.cl
EXTRA_DIST += $(KERNEL_FILES) scripts/embed-cl.sh
nodist_lib_libusmarr_la_SOURCES = lib/engine/cl_sources.c
BUILT_SOURCES += lib/engine/cl_sources.c
DISTCLEANFILES += lib/engine/cl_sources.c
lib/engine/cl_sources.c: $(KERNEL_FILES) $(top_srcdir)/scripts/embed-cl.sh
	$(AM_V_GEN)$(MKDIR_P) lib/engine && $(SHELL) $(top_srcdir)/scripts/embed-cl.sh $(top_srcdir) $(KERNEL_FILES) > $@.tmp && mv $@.tmp $@
