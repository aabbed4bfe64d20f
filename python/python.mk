# The Python package (doc/python.md): the extension module usmarr._usmarr over the
# library, built for $(PYTHON_NUMPY) as python/usmarr/_usmarr.abi3.so next to the
# package's Python files (copied into out-of-tree builds); python/run-tests.sh runs pytest.
# The module is replaced by a rename, never rewritten in place: a running Python that has it
# mapped would die of SIGBUS.  PYTHON_SOURCES is also python/setup.py's list (pip install
# ./python), which python/install-check.sh builds and imports.
PYTHON_SOURCES = python/src/module.h python/src/errors.c python/src/array_wrap.c python/src/device.c python/src/queue.c \
	python/src/dlpack.c python/src/convert.c python/src/dtype.c python/src/expr.c python/src/ops.c \
	python/src/reduce.c python/src/copy.c python/src/creation.c python/src/view.c python/src/array_index.c \
	python/src/linalg.c python/src/linalg_decomp.c python/src/fft.c python/src/stats.c python/src/sort.c python/src/storage.c python/src/interop.c \
	python/src/bench.c python/src/array.c python/src/module.c
PYTHON_PACKAGE_FILES = python/usmarr/__init__.py python/usmarr/_info.py python/usmarr/linalg.py python/usmarr/fft.py python/usmarr/_sorting.py \
	python/usmarr/_stats.py python/usmarr/_expr.py python/usmarr/storage.py
PYTHON_TESTS = python/tests/conftest.py python/tests/test_array.py python/tests/test_indexing.py python/tests/test_interop.py \
	python/tests/test_storage.py python/tests/test_sorting.py python/tests/test_linalg.py python/tests/test_fft.py python/tests/test_stats.py \
	python/tests/test_utilities.py python/tests/test_expr.py python/tests/test_signatures.py \
	python/tests/test_linalg_lu.py python/tests/test_linalg_decomp.py python/tests/test_async.py python/tests/dpctl_support.py \
	python/tests_numpy2/test_sklearn.py python/tests_numpy2/test_dpctl.py
EXTRA_DIST += $(PYTHON_SOURCES) $(PYTHON_PACKAGE_FILES) python/setup.py python/pyproject.toml python/README.md \
	python/run-tests.sh python/run-sklearn-tests.sh python/install-check.sh $(PYTHON_TESTS) python/bench.py python/sweep.py python/array-api-tests/skips.txt python/array-api-tests/xfails.txt
TESTS += python/run-tests.sh python/run-sklearn-tests.sh python/install-check.sh
# scikit-learn for python/run-sklearn-tests.sh, in the NumPy 2 environment, once; without the
# network the stamp is not made (the next make check tries again) and the suite says why.
check_DATA += tests/numpy2-sklearn
CLEANFILES += tests/numpy2-sklearn
tests/numpy2-sklearn: $(top_srcdir)/scripts/numpy2-sklearn.sh $(top_srcdir)/scripts/numpy2-pip.sh tests/numpy-oracle
	$(AM_V_GEN)if $(SHELL) $(top_srcdir)/scripts/numpy2-sklearn.sh $(NUMPY_ORACLE); then touch $@; fi
# dpctl and dpnp (Intel's SYCL runtime, oneMKL) for python/tests_numpy2/test_dpctl.py and
# test_interop.py's dpnp.tensor exchanges, the same way.
check_DATA += tests/numpy2-dpctl
CLEANFILES += tests/numpy2-dpctl
tests/numpy2-dpctl: $(top_srcdir)/scripts/numpy2-dpctl.sh $(top_srcdir)/scripts/numpy2-pip.sh tests/numpy-oracle
	$(AM_V_GEN)if $(SHELL) $(top_srcdir)/scripts/numpy2-dpctl.sh $(NUMPY_ORACLE); then touch $@; fi
AM_TESTS_ENVIRONMENT += \
	USMARR_HAVE_PYTHON="$(HAVE_PYTHON)"; export USMARR_HAVE_PYTHON; \
	USMARR_PYTHON="$(PYTHON_NUMPY)"; export USMARR_PYTHON;
if HAVE_PYTHON
noinst_LTLIBRARIES += python/_usmarr.la
python__usmarr_la_SOURCES = $(PYTHON_SOURCES)
python__usmarr_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS) -DPy_LIMITED_API=0x030B0000
python__usmarr_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared -rpath $(libdir)
python__usmarr_la_LIBADD = lib/libusmarr.la
PYTHON_MODULE = python/usmarr/_usmarr.abi3.so
endif
all-local: $(PYTHON_MODULE)
python/usmarr/_usmarr.abi3.so: python/_usmarr.la $(PYTHON_PACKAGE_FILES)
	$(AM_V_GEN)$(MKDIR_P) python/usmarr && \
	if test "$(srcdir)" != .; then for f in $(PYTHON_PACKAGE_FILES); do cp $(srcdir)/$$f python/usmarr/ || exit 1; done; fi && \
	cp python/.libs/_usmarr.so $@.tmp && mv -f $@.tmp $@
clean-local: clean-python
clean-python:
	rm -f python/usmarr/_usmarr.abi3.so
	if test "$(srcdir)" != .; then rm -rf python/usmarr; fi
.PHONY: clean-python
