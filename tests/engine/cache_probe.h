/* A tiny real OpenCL program for the disk-cache tests (tests/engine/test_cache.c) and their
 * child helper (tests/engine/cache_child.c): compiled from source, launched, its binary stored
 * and loaded through the disk-cache module's internal interface, rebuilt from the binary
 * and launched again, with every result checked on the host. */
#ifndef USMARR_TESTS_CACHE_PROBE_H
#define USMARR_TESTS_CACHE_PROBE_H

#include "../../lib/engine/engine_internal.h"
#include "../../lib/engine/diskcache.h"

/* Kernel: y[i] = a * i + OFFSET, with OFFSET from the build options "-DOFFSET=<variant>",
 * so that programs of different keys give different results. */
extern const char probe_source[];

/* Where probe_obtain() got its program. */
enum probe_how { PROBE_COMPILED, PROBE_LOADED };

/* The disk key of variant `variant` on the context's device.  `options` receives the
 * option string the key points to (keep it alive while the key is used). */
struct usmarr__program_key probe_key(usmarr_context_t *ctx, int variant, char options[64]);

/* Builds the program from source; 0 or an OpenCL error. */
cl_int probe_compile(usmarr_context_t *ctx, int variant, cl_program *program);
/* Builds the program from a binary; 0 or an OpenCL error (the binary is unusable). */
cl_int probe_from_binary(usmarr_context_t *ctx, int variant, const unsigned char *binary, size_t size,
                         cl_program *program);
/* The program's binary for the context's device (free() it); 0 or an OpenCL error. */
cl_int probe_binary(usmarr_context_t *ctx, cl_program program, unsigned char **binary, size_t *size);
/* Launches the program once with `a` over PROBE_N elements and checks every element on
 * the host against a * i + variant.  0 when correct, 1 when a value is wrong, or the
 * negative OpenCL/library error. */
int probe_run(usmarr_context_t *ctx, cl_program program, int variant, int a);

/* What the engine does: the disk cache first (a binary that fails to build is discarded),
 * else compile from source, launch once, then store the binary.  Returns probe_run()'s
 * result for the program it ended with; *how says which path, *ms how long it took from
 * the lookup to the end of the first launch. */
int probe_obtain(usmarr_context_t *ctx, int variant, int a, enum probe_how *how, double *ms);

#define PROBE_N 1024

#endif
