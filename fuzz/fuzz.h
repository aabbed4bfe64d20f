/* Shared by the libFuzzer targets in fuzz/ (doc/fuzzing.md).  Each target is built from
 * the library's sources with -fsanitize=fuzzer,address,undefined, so it may use the
 * library's private header as well as the public one. */
#ifndef USMARR_FUZZ_H
#define USMARR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/core/core_internal.h"

/* A property of the library that an input broke: report it and abort, which libFuzzer
 * records as a crash and saves the input for. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n(last detail: %s)\n", usmarr_last_error_detail());                  \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A failure must come with a detail naming what was wrong. */
#define FUZZ_CHECK_DETAIL(rc)                                                                      \
    FUZZ_CHECK(usmarr_last_error_detail()[0] != '\0', "%s without a detail", usmarr_error_name(rc))

/* The input as a NUL-terminated string in a heap block of exactly size + 1 bytes (so
 * AddressSanitizer sees any read past the NUL).  Embedded NULs simply end the text. */
char *fuzz_string(const uint8_t *data, size_t size);

/* Points the OpenCL ICD loader at an empty vendors directory, so that the device list is
 * empty and no driver is ever loaded into the fuzzer (selectors are still parsed), and
 * unsets USMARR_DEVICE so that the default device does not depend on the caller. */
void fuzz_no_opencl_devices(void);

/* ---- a host-memory stand-in for a device context (fuzz/host_context.c) ---------------- */
/* Contexts whose USM entry points are host allocations: USM allocation, free, copy,
 * fill and clGetMemAllocInfoINTEL behave as a driver's would, allocations above
 * FUZZ_HOST_ALLOC_LIMIT bytes fail like a device out of memory, alignments above 4096
 * bytes are ignored like PoCL ignores large ones, and the device's maximum allocation is
 * FUZZ_HOST_MAX_ALLOC.  Created once, never released.  Index 0 supports float64; index 1
 * is a different (OpenCL) context without float64, never passed to OpenCL itself. */
#define FUZZ_HOST_ALLOC_LIMIT (256u * 1024)
#define FUZZ_HOST_MAX_ALLOC (1u << 20)
usmarr_context_t *fuzz_host_context(int index);
/* Live stand-in allocations (to check that failed calls free what they allocated). */
size_t fuzz_host_live_allocations(void);

#endif
