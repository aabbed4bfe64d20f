# The test suite (doc/building.md).  tests/<layer>/ holds the Check suites of each layer of
# lib/, tests/harness/ the runner, tests/gen/ the NumPy generators of the case files,
# tests/reliability/ the allocation-failure and thread checks, tests/scripts/ the scripts.
check_PROGRAMS += tests/runner tests/cache_child
TESTS += tests/runner tests/scripts/installed-example.sh tests/scripts/layers.sh tests/scripts/ew-copies.sh \
	tests/scripts/runner-suites.sh
EXTRA_DIST += tests/scripts/installed-example.sh tests/scripts/layers.sh tests/scripts/layers.py tests/scripts/runner-suites.sh \
	tests/scripts/ew-copies.sh tests/scripts/ew_copies.py tests/scripts/fuzz-numpy.sh tests/scripts/fuzz_numpy.py \
	tests/scripts/fuzz_numpy_core.py tests/scripts/fuzz_numpy_ops.py
tests_runner_SOURCES = \
	tests/harness/runner.c \
	tests/harness/common.h \
	tests/harness/check_usmarr.h \
	tests/harness/suites.h \
	tests/harness/case_file.h \
	tests/harness/case_file.c \
	tests/core/test_error.c \
	tests/core/test_context.c \
	tests/core/test_memory.c \
	tests/core/test_pod.c \
	tests/core/test_dtype.c \
	tests/core/test_promote.c \
	tests/core/test_array.c \
	tests/core/test_create.c \
	tests/core/test_threads.c \
	tests/core/test_queue.c \
	tests/engine/test_simplify.c \
	tests/engine/test_copy.c \
	tests/engine/test_copy_orders.c \
	tests/engine/copy_blocks.h \
	tests/engine/test_copy_plan.c \
	tests/engine/cast_cases.h \
	tests/engine/cast_cases.c \
	tests/engine/test_cache.h \
	tests/engine/test_cache.c \
	tests/engine/test_cache_settings.c \
	tests/engine/test_cache_api.c \
	tests/engine/test_build.c \
	tests/engine/test_shape.c \
	tests/engine/cache_probe.h \
	tests/engine/cache_probe.c \
	tests/ops/ops_cases.h \
	tests/ops/ops_cases.c \
	tests/ops/test_elementwise.c \
	tests/ops/expr_cases.h \
	tests/ops/expr_cases.c \
	tests/ops/test_expr.c \
	tests/ops/test_complex.c \
	tests/ops/test_accuracy.c \
	tests/ops/test_lanes.c \
	tests/ops/test_reduce.c \
	tests/ops/test_reduce_paths.c \
	tests/ops/test_sort.c \
	tests/ops/test_sort_rows.c \
	tests/ops/test_search.c \
	tests/ops/test_stats.c \
	tests/ops/test_linalg.c \
	tests/ops/test_tiles.c \
	tests/linalg/test_linalg_lu.c \
	tests/linalg/test_decomp.c \
	tests/fft/test_fft.c \
	tests/index/test_view.c \
	tests/index/test_index.c \
	tests/index/test_manip.c \
	tests/index/test_getitem.c \
	tests/index/test_utilities.c \
	tests/interop/test_interface.c \
	tests/interop/test_dlpack.c \
	tests/interop/test_debug.c \
	tests/storage/test_storage.h \
	tests/storage/test_storage.c \
	tests/storage/test_storage_params.c \
	tests/storage/test_storage_sync.c \
	tests/storage/test_storage_view.c \
	tests/storage/test_storage_wrap.c \
	tests/storage/storage_cases.h \
	tests/storage/storage_cases.c \
	tests/storage/test_storage_ops.c \
	lib/engine/simplify.c \
	lib/engine/diskcache.c \
	lib/engine/diskcache_entry.c
tests_runner_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_runner_LDADD = lib/libusmarr.la $(CHECK_LIBS)
# Helper process of the cache suite; compiles the disk-cache module in, like the runner.
tests_cache_child_SOURCES = tests/engine/cache_child.c tests/engine/cache_probe.h tests/engine/cache_probe.c \
	lib/engine/diskcache.c lib/engine/diskcache_entry.c
tests_cache_child_LDADD = lib/libusmarr.la

# NumPy 2 oracles: tests/gen/gen_<name>_cases.py writes tests/<name>_cases.txt.
# tests/numpy-oracle names the Python that has NumPy 2 (the configured one, or a private
# virtual environment tests/numpy2-env made once from PyPI: scripts/numpy-oracle.sh).
CASE_FILES = tests/ops_cases.txt tests/expr_cases.txt tests/index_cases.txt tests/storage_cases.txt tests/linalg_cases.txt \
	tests/sort_cases.txt tests/complex_cases.txt tests/stats_cases.txt tests/utilities_cases.txt \
	tests/accuracy_cases.txt tests/lane_cases.txt tests/linalg_lu_cases.txt tests/decomp_cases.txt tests/fft_cases.txt
check_DATA += $(CASE_FILES)
GENERATORS = tests/gen/gen_cast_cases.py tests/gen/gen_ops_cases.py tests/gen/gen_expr_cases.py tests/gen/gen_complex_cases.py \
	tests/gen/gen_index_cases.py tests/gen/gen_getitem_cases.py tests/gen/gen_storage_cases.py \
	tests/gen/gen_linalg_cases.py tests/gen/gen_sort_cases.py tests/gen/gen_stats_cases.py \
	tests/gen/gen_utilities_cases.py tests/gen/gen_accuracy_cases.py tests/gen/gen_lane_cases.py \
	tests/gen/gen_linalg_lu_cases.py tests/gen/gen_decomp_cases.py tests/gen/gen_fft_cases.py
EXTRA_DIST += $(GENERATORS)
NUMPY_ORACLE = `cat tests/numpy-oracle`
tests/numpy-oracle: $(top_srcdir)/scripts/numpy-oracle.sh
	$(AM_V_GEN)$(MKDIR_P) tests && $(SHELL) $(top_srcdir)/scripts/numpy-oracle.sh $(PYTHON_NUMPY) \
	  $(abs_top_builddir)/tests/numpy2-env > $@.tmp && mv $@.tmp $@
GENERATE_CASES = $(AM_V_GEN)$(MKDIR_P) tests && $(NUMPY_ORACLE) $< > $@.tmp && mv $@.tmp $@
tests/ops_cases.txt: $(top_srcdir)/tests/gen/gen_ops_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/expr_cases.txt: $(top_srcdir)/tests/gen/gen_expr_cases.py $(top_srcdir)/tests/gen/gen_ops_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/index_cases.txt: $(top_srcdir)/tests/gen/gen_index_cases.py $(top_srcdir)/tests/gen/gen_getitem_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/storage_cases.txt: $(top_srcdir)/tests/gen/gen_storage_cases.py $(top_srcdir)/tests/gen/gen_ops_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/linalg_cases.txt: $(top_srcdir)/tests/gen/gen_linalg_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/decomp_cases.txt: $(top_srcdir)/tests/gen/gen_decomp_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/sort_cases.txt: $(top_srcdir)/tests/gen/gen_sort_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/linalg_lu_cases.txt: $(top_srcdir)/tests/gen/gen_linalg_lu_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/stats_cases.txt: $(top_srcdir)/tests/gen/gen_stats_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/complex_cases.txt: $(top_srcdir)/tests/gen/gen_complex_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/utilities_cases.txt: $(top_srcdir)/tests/gen/gen_utilities_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/accuracy_cases.txt: $(top_srcdir)/tests/gen/gen_accuracy_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/fft_cases.txt: $(top_srcdir)/tests/gen/gen_fft_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
tests/lane_cases.txt: $(top_srcdir)/tests/gen/gen_lane_cases.py $(top_srcdir)/tests/gen/gen_ops_cases.py tests/numpy-oracle
	$(GENERATE_CASES)
CLEANFILES += $(CASE_FILES) tests/numpy-oracle tests/accuracy-report.txt
distclean-local: clean-numpy-oracle
clean-numpy-oracle:
	rm -rf tests/numpy2-env
.PHONY: clean-numpy-oracle

# ---- host-allocation failure injection (doc/reliability.md): interposes malloc, so not
# in the sanitizer builds (their own allocator); LeakSanitizer alone where the compiler has
# it, besides the test's own count of the library's blocks.
if !SANITIZERS
check_PROGRAMS += tests/alloc_fail
tests_alloc_fail_SOURCES = tests/reliability/alloc_fail.c
tests_alloc_fail_CFLAGS = $(AM_CFLAGS) $(LSAN_CFLAGS)
tests_alloc_fail_LDFLAGS = $(AM_LDFLAGS) $(LSAN_CFLAGS)
tests_alloc_fail_LDADD = lib/libusmarr.la -ldl
TESTS += tests/alloc_fail
endif
EXTRA_DIST += tests/reliability/alloc_fail.c tests/reliability/lsan.supp tests/reliability/lsan-drivers.supp

# ---- ThreadSanitizer: tests/reliability/stress.c (8 threads on one context) against a
# TSan build of every library source, compiled straight with the C compiler (no second
# configure), an object each so that make compiles them side by side;
# tests/reliability/tsan-check.sh runs it and fails on any report
# (tests/reliability/tsan.supp: driver frames only).
TSAN_COMPILE_FLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=thread $(AM_CPPFLAGS) \
	-include $(top_srcdir)/tests/reliability/tsan_c11.h
TSAN_OBJECTS = $(LIB_C_FILES:%.c=tests/tsan/%.o)
tests/tsan/%.o: %.c $(LIB_H_FILES) $(srcdir)/tests/reliability/tsan_c11.h
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(CC) $(TSAN_COMPILE_FLAGS) -fvisibility=hidden -c $< -o $@
tests/tsan/stress: $(TSAN_OBJECTS) $(srcdir)/tests/reliability/stress.c
	$(AM_V_CCLD)$(CC) $(TSAN_COMPILE_FLAGS) -o $@ $(srcdir)/tests/reliability/stress.c $(TSAN_OBJECTS) $(LIBS)
check_DATA += tests/tsan/stress
TESTS += tests/reliability/tsan-check.sh
EXTRA_DIST += tests/reliability/stress.c tests/reliability/tsan-check.sh tests/reliability/tsan.supp \
	tests/reliability/tsan_c11.h
clean-local: clean-tsan
clean-tsan:
	rm -rf tests/tsan
.PHONY: clean-tsan

# ---- MPI: the suites run under mpirun (tests/scripts/mpi-check.sh); without MPI the
# script skips, or fails under USMARR_REQUIRE_DEVICE=1.
EXTRA_DIST += tests/scripts/mpi-check.sh
TESTS += tests/scripts/mpi-check.sh
AM_TESTS_ENVIRONMENT += \
	USMARR_HAVE_MPI="$(HAVE_MPI)"; export USMARR_HAVE_MPI; \
	USMARR_MPIRUN="$(MPIRUN)"; export USMARR_MPIRUN;
if HAVE_MPI
check_PROGRAMS += tests/mpi_runner
tests_mpi_runner_SOURCES = \
	tests/mpi/mpi_runner.c \
	tests/mpi/mpi_common.h \
	tests/mpi/mpi_oracle.h \
	tests/mpi/mpi_oracle.c \
	tests/mpi/test_mpi_grid.c \
	tests/mpi/test_mpi_exchange.c \
	tests/mpi/test_mpi_scatter.c \
	tests/mpi/test_mpi_stencil.c
# The stencil oracle compares bitwise: no fused multiply-adds in the host loops.
tests_mpi_runner_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(CHECK_CFLAGS) -ffp-contract=off
tests_mpi_runner_LDADD = lib/libusmarr-mpi.la lib/libusmarr.la $(MPI_LIBS) $(CHECK_LIBS)
endif

# ---- the differential test against NumPy 2 (doc/reliability.md): make check runs
# FUZZ_NUMPY_COUNT chains of seed FUZZ_NUMPY_SEED, the devices sharing them in turn
# (FUZZ_NUMPY_SPLIT=1); `make fuzz-numpy SEED=N COUNT=M` as many as asked on each device
# (FIRST=K: from chain K, to replay one).
FUZZ_NUMPY_SEED = 1
FUZZ_NUMPY_COUNT = 1000
TESTS += tests/scripts/fuzz-numpy.sh
AM_TESTS_ENVIRONMENT += FUZZ_NUMPY_SEED=$(FUZZ_NUMPY_SEED); export FUZZ_NUMPY_SEED; \
	FUZZ_NUMPY_COUNT=$(FUZZ_NUMPY_COUNT); export FUZZ_NUMPY_COUNT; \
	FUZZ_NUMPY_SPLIT=1; export FUZZ_NUMPY_SPLIT;
fuzz-numpy: all tests/numpy-oracle
	@$(AM_TESTS_ENVIRONMENT) seed='$(SEED)' count='$(COUNT)' first='$(FIRST)'; FUZZ_NUMPY_SPLIT=0; \
	srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/scripts/fuzz-numpy.sh "$${seed:-1}" "$${count:-2000}" "$${first:-0}"
.PHONY: fuzz-numpy

# The scripts that meet many of the runner's kernels (the differential test, the Python
# package's tests, the MPI suites) start once the runner has ended, and load them from the
# disk cache it filled instead of compiling them side by side with it; only when the
# runner is among the tests run (`make check TESTS=...` runs a script alone).
AFTER_RUNNER = $(if $(filter tests/runner$(EXEEXT),$(TESTS)),tests/runner.log)
tests/scripts/fuzz-numpy.sh.log python/run-tests.sh.log tests/scripts/mpi-check.sh.log: | $(AFTER_RUNNER)
