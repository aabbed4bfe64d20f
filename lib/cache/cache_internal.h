/* Private declarations of lib/cache/: the public cache API (usmarr/cache.h: directories,
 * modes, statistics), prewarm and the kernel-shape tuner.  Prewarm and the tuner run
 * common operations to compile and time their kernels, so this folder sits above
 * lib/ops/ and lib/index/ (doc/architecture.md).  Never installed. */
#ifndef USMARR_CACHE_INTERNAL_H
#define USMARR_CACHE_INTERNAL_H

#include "../ops/ops_internal.h"

/* usmarr_cache_prewarm()'s workload: the common operations on tiny arrays of every
 * dtype, so that their kernels are compiled and stored (prewarm.c). */
USMARR_INTERNAL int usmarr__engine_prewarm(usmarr_context_t *context);
/* The tuner: times the candidate shapes on the context's device (interleaved rounds,
 * median ratios to the shape in use) within about `budget_seconds`, keeps the fastest in ctx->shape and the disk
 * cache; `report` (may be NULL) receives what was timed and chosen. */
USMARR_INTERNAL int usmarr__engine_tune(usmarr_context_t *ctx, double budget_seconds, char *report, size_t report_size);
/* The tuner's candidates as USMARR_KERNEL_SHAPE text over the table's shape (fields
 * only), or NULL past the last. */
USMARR_INTERNAL const char *usmarr__tune_candidate(size_t index);

#endif
