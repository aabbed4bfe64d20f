# Benchmarks (doc/benchmarks.md).  The harness of `usmarr bench` (bench/bench.h: add
# bench_<name>.c cases) is a convenience library that the tool and bench/bench link.
noinst_LTLIBRARIES += bench/libusmarr-bench.la
bench_libusmarr_bench_la_SOURCES = bench/bench.h bench/bench.c bench/plot.c bench/bench_copy.c bench/bench_ops.c bench/bench_expr.c \
	bench/bench_index.c bench/bench_storage.c bench/bench_memory.c bench/bench_linalg.c bench/bench_fft.c bench/bench_sort.c \
	bench/bench_startup.c bench/bench_roofline.c bench/roofline.c bench/bench_queue.c
bench_libusmarr_bench_la_CPPFLAGS = $(AM_CPPFLAGS) -DUSMARR_BENCH_SCRIPTS_DIR='"$(benchscriptsdir)"' \
	-DUSMARR_BENCH_SOURCE_DIR='"$(abs_top_srcdir)/bench"'
# The NumPy references, installed for `usmarr bench`.
benchscriptsdir = $(pkgdatadir)/bench
dist_benchscripts_DATA = bench/numpy_ref.py bench/numpy_index.py bench/numpy_sort.py bench/numpy_timing.py
EXTRA_PROGRAMS += bench/bench
bench_bench_SOURCES = bench/main.c
bench_bench_LDADD = bench/libusmarr-bench.la lib/libusmarr.la

# make bench: the engine's cases against NumPy 2 (the oracles' Python, tests/numpy-oracle),
# the Python package's, and MPI's.
# The bars hold for tuned kernel shapes: devices not tuned yet are tuned first (doc/engine.md,
# "Tuning"; a no-op once they are).
bench-engine: bench/bench tests/numpy-oracle tools/usmarr
	@$(OCL_ENVIRONMENT) PYTHON_NUMPY="$(NUMPY_ORACLE)"; export PYTHON_NUMPY; \
	./tools/usmarr cache tune all --untuned >/dev/null; \
	./bench/bench --srcdir $(top_srcdir) $(BENCH_ARGS)
bench-python: all
	@if test "$(HAVE_PYTHON)" != yes; then echo "bench-python: configure found no Python headers; skipped"; exit 0; fi; \
	$(OCL_ENVIRONMENT) PYTHONPATH="$(abs_top_builddir)/python" LD_LIBRARY_PATH="$(abs_top_builddir)/lib/.libs$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}" \
	$(PYTHON_NUMPY) $(srcdir)/python/bench.py $(BENCH_ARGS)
if HAVE_MPI
EXTRA_PROGRAMS += bench/bench_mpi
bench_bench_mpi_SOURCES = bench/bench_mpi.c
bench_bench_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_bench_mpi_LDADD = lib/libusmarr-mpi.la lib/libusmarr.la $(MPI_LIBS)
endif
bench-mpi:
	@if test "$(HAVE_MPI)" != yes; then echo "bench-mpi: configure found no MPI; skipped"; exit 0; fi; \
	$(MAKE) $(AM_MAKEFLAGS) bench/bench_mpi && $(OCL_ENVIRONMENT) \
	USMARR_MPIRUN="$(MPIRUN)" $(SHELL) $(top_srcdir)/tests/scripts/mpi-check.sh --bench ./bench/bench_mpi $(BENCH_ARGS)
# make bench-sweep: every elementwise function of each dtype class, and the reductions,
# scans and array functions along each kind of axis, against NumPy 2 on every USM device
# (python/sweep.py; SWEEP_ARGS="--filter TEXT" narrows it).
bench-sweep: all tests/numpy-oracle tools/usmarr
	@if test "$(HAVE_PYTHON)" != yes; then echo "bench-sweep: configure found no Python headers; skipped"; exit 0; fi; \
	$(OCL_ENVIRONMENT) for sel in `./tools/usmarr devices | sed -n 's/.*selector "\(.*\)".*/\1/p'`; do \
	  USMARR_DEVICE=$$sel PYTHONPATH="$(abs_top_builddir)/python" \
	  LD_LIBRARY_PATH="$(abs_top_builddir)/lib/.libs$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}" \
	  $(NUMPY_ORACLE) $(srcdir)/python/sweep.py $(SWEEP_ARGS) || exit 1; \
	done
bench: bench-engine bench-python bench-mpi bench-sweep

# make bench-peers: the library against Intel's dpnp on the same OpenCL device (Intel's
# CPU runtime by default), in one process through the Python package; PEERS_INSTALL=yes
# installs dpnp into bench/peers-venv first.
EXTRA_DIST += bench/peers.py bench/peers.sh
bench-peers: all
	@if test "$(HAVE_PYTHON)" != yes; then echo "bench-peers: configure found no Python headers" >&2; exit 1; fi; \
	$(OCL_ENVIRONMENT) $(SHELL) $(srcdir)/bench/peers.sh $(abs_top_srcdir) $(abs_top_builddir) $(PYTHON_NUMPY) $(BENCH_ARGS)
# make bench-gpu: the library against CuPy on the same NVIDIA GPU, in one process through
# the Python package (bench/cupy.py; doc/gpu.md).  USMARR_DEVICE picks the library's device
# (the first GPU by default); GPU_BENCH_PY the Python that has CuPy (python3).
EXTRA_DIST += bench/cupy.py
GPU_BENCH_PY = python3
bench-gpu: all
	@if test "$(HAVE_PYTHON)" != yes; then echo "bench-gpu: configure found no Python headers, so the package was not built; skipped"; exit 0; fi; \
	if ! $(GPU_BENCH_PY) -c 'import cupy' >/dev/null 2>&1; then \
	  echo "bench-gpu: CuPy does not import in $(GPU_BENCH_PY) (it needs an NVIDIA GPU and CUDA; GPU_BENCH_PY=... names another Python); skipped"; exit 0; fi; \
	$(OCL_ENVIRONMENT) PYTHONPATH="$(abs_top_builddir)/python" LD_LIBRARY_PATH="$(abs_top_builddir)/lib/.libs$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}" \
	$(GPU_BENCH_PY) $(srcdir)/bench/cupy.py $(BENCH_ARGS)
.PHONY: bench bench-engine bench-python bench-mpi bench-sweep bench-peers bench-gpu
