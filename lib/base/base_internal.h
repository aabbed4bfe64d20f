/* Private declarations of lib/base/, the lowest layer: errors (error.c) and the helpers
 * every file shares (overflow-checked arithmetic, environment switches, reference
 * counts).  Included by lib/backend/backend_internal.h; never installed. */
#ifndef USMARR_BASE_INTERNAL_H
#define USMARR_BASE_INTERNAL_H

#include "config.h"

#define USMARR_BUILDING_LIBRARY 1
#include "usmarr.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define USMARR_INTERNAL __attribute__((visibility("hidden")))

/* ---- errors (error.c) ----------------------------------------------------------- */

/* Records the calling thread's failure detail (printf-style) and returns `code`, so
 * that failures read `return usmarr__fail(USMARR_ERROR_X, "arg=%d exceeds %d", ...)`. */
USMARR_INTERNAL int usmarr__fail(int code, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* For OpenCL failures: records "<what>: CL_NAME (code)" and returns the cl code. */
USMARR_INTERNAL int usmarr__cl_fail(cl_int err, const char *what);
/* Clears the thread's detail at the start of a public call that may fail. */
USMARR_INTERNAL void usmarr__clear_error(void);

/* ---- overflow-checked arithmetic ------------------------------------------------ */
static inline bool usmarr__mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
static inline bool usmarr__add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
/* Greatest common divisor (Euclid); gcd(a, 0) = a. */
static inline int64_t usmarr__gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- environment switches -------------------------------------------------------
 * An on/off switch from the environment (USMARR_BUILD_LOG, USMARR_CACHE_TRACE): on when
 * set to anything but "" and "0"; read once into *cache, -1 until then. */
static inline bool usmarr__env_switch(atomic_int *cache, const char *name)
{
    int on = atomic_load_explicit(cache, memory_order_relaxed);
    if (on < 0) {
        const char *v = getenv(name);
        on = v && *v && strcmp(v, "0") != 0;
        atomic_store_explicit(cache, on, memory_order_relaxed);
    }
    return on;
}

/* ---- reference counts ----------------------------------------------------------
 * Every counted object (context, memory block, array, copy plan, storage, sync state)
 * has an `atomic_int refcount`, 1 at creation, and only these change it: retains need
 * no ordering; the release that drops the last reference sees every other holder's
 * writes (acq_rel) before its caller destroys the object.  NULL objects are allowed. */
static inline void usmarr__ref_init(atomic_int *count) { atomic_init(count, 1); }
static inline void usmarr__ref_add(atomic_int *count) { atomic_fetch_add_explicit(count, 1, memory_order_relaxed); }
static inline bool usmarr__ref_drop(atomic_int *count)
{
    return atomic_fetch_sub_explicit(count, 1, memory_order_acq_rel) == 1;
}
/* The body of usmarr_<object>_retain: one more reference; returns `object`. */
#define USMARR__RETAIN(object) ((object) ? (usmarr__ref_add(&(object)->refcount), (object)) : (object))
/* True when this release dropped the last reference: the caller destroys `object`. */
#define USMARR__RELEASE_LAST(object) ((object) && usmarr__ref_drop(&(object)->refcount))
/* The count now (0 for NULL); a snapshot for tests and debug output. */
#define USMARR__REFCOUNT(object) \
    ((object) ? atomic_load_explicit((atomic_int *)&(object)->refcount, memory_order_relaxed) : 0)

#endif
