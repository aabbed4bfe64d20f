# Fuzz targets (doc/fuzzing.md): libFuzzer binaries that clang builds straight from the
# library's sources; `make check` runs each for FUZZ_CHECK_SECONDS, `make fuzz` for FUZZ_SECONDS.
FUZZERS = fuzz/fuzz_index fuzz/fuzz_typestr fuzz/fuzz_json fuzz/fuzz_create
FUZZ_COMPILE_FLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined $(WARN_CFLAGS) $(AM_CPPFLAGS) -I$(top_srcdir)/fuzz
FUZZ_CHECK_SECONDS = 10
FUZZ_SECONDS = 60
FUZZ_ENVIRONMENT = FUZZ_CC="$(FUZZ_CC)"; export FUZZ_CC;
AM_TESTS_ENVIRONMENT += $(FUZZ_ENVIRONMENT) USMARR_FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS); export USMARR_FUZZ_SECONDS;
EXTRA_DIST += fuzz/fuzz.h fuzz/host_context.c fuzz/fuzz_index.c fuzz/fuzz_typestr.c fuzz/fuzz_json.c \
	fuzz/fuzz_create.c fuzz/run.sh fuzz/corpus fuzz/dict
TESTS += fuzz/run.sh
if FUZZ
check_DATA += $(FUZZERS)
endif
# The library sources the targets link, instrumented for coverage (an object each, compiled
# side by side): the text parsers and what creating an array on a host context reaches.  A
# target that comes to need another source fails to link, naming its symbol; add it here.
FUZZ_LIB_FILES = lib/core/array.c lib/core/context.c lib/core/device.c lib/core/dtype.c lib/base/error.c \
	lib/core/memory.c lib/core/promote.c lib/core/queue.c lib/backend/pool.c lib/backend/svm.c lib/backend/usm.c \
	lib/backend/order.c \
	lib/engine/cl_sources.c lib/engine/diskcache.c lib/engine/diskcache_entry.c lib/engine/map.c \
	lib/engine/launch.c lib/engine/program.c lib/engine/kernel_shape.c lib/engine/simplify.c lib/index/parse.c \
	lib/interop/interface.c lib/interop/json.c
FUZZ_OBJECTS = $(FUZZ_LIB_FILES:%.c=fuzz/lib/%.o)
fuzz/lib/%.o: %.c $(LIB_H_FILES)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_COMPILE_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
fuzz/libusmarr-fuzz.a: $(FUZZ_OBJECTS)
	$(AM_V_AR)rm -f $@ && $(AR) rcs $@ $(FUZZ_OBJECTS)
FUZZ_LINK_COMMAND = $(FUZZ_CC) $(FUZZ_COMPILE_FLAGS) -fsanitize=fuzzer -o $@ $(srcdir)/fuzz/host_context.c
FUZZ_DEPS = fuzz/libusmarr-fuzz.a $(srcdir)/fuzz/fuzz.h $(srcdir)/fuzz/host_context.c
fuzz/fuzz_index: $(srcdir)/fuzz/fuzz_index.c $(FUZZ_DEPS)
	$(AM_V_CCLD)$(FUZZ_LINK_COMMAND) $(srcdir)/fuzz/fuzz_index.c fuzz/libusmarr-fuzz.a $(LIBS)
fuzz/fuzz_typestr: $(srcdir)/fuzz/fuzz_typestr.c $(FUZZ_DEPS)
	$(AM_V_CCLD)$(FUZZ_LINK_COMMAND) $(srcdir)/fuzz/fuzz_typestr.c fuzz/libusmarr-fuzz.a $(LIBS)
fuzz/fuzz_json: $(srcdir)/fuzz/fuzz_json.c $(FUZZ_DEPS)
	$(AM_V_CCLD)$(FUZZ_LINK_COMMAND) $(srcdir)/fuzz/fuzz_json.c fuzz/libusmarr-fuzz.a $(LIBS)
fuzz/fuzz_create: $(srcdir)/fuzz/fuzz_create.c $(FUZZ_DEPS)
	$(AM_V_CCLD)$(FUZZ_LINK_COMMAND) $(srcdir)/fuzz/fuzz_create.c fuzz/libusmarr-fuzz.a $(LIBS)
if FUZZ
fuzz: $(FUZZERS)
	@$(FUZZ_ENVIRONMENT) srcdir=$(srcdir) $(SHELL) $(srcdir)/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)
else
fuzz:
	@echo "make fuzz: the fuzz targets are not built (--disable-fuzz, or configure found no clang with libFuzzer; Debian: clang-15); see doc/fuzzing.md"; exit 1
endif
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz/lib fuzz/work fuzz/artifacts fuzz/logs fuzz/libusmarr-fuzz.a $(FUZZERS)
.PHONY: fuzz clean-fuzz
