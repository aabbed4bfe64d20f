/* The on-disk cache of program binaries (rules: ../shared/notes/kernel-cache.md, user
 * documentation: doc/cache.md).  Never installed.
 *
 * The engine asks usmarr__diskcache_load() before compiling from source, builds the
 * returned binary with clCreateProgramWithBinary, and on a build failure calls
 * usmarr__diskcache_discard().  After a program's first launch (on PoCL the binary then
 * carries the work-group functions) it calls usmarr__diskcache_store().  None of these
 * ever fails a user's operation: every problem is a miss, and file-system failures
 * disable the disk cache for the process with one trace message.
 *
 * Process-wide state: the directory and the mode (both settable through the public API,
 * else taken from the environment), the size cap, the counters.  Everything is
 * thread-safe. */
#ifndef USMARR_DISKCACHE_H
#define USMARR_DISKCACHE_H

#include "internal.h"

/* What identifies a program on disk.  The device description (platform and device
 * names, vendors, versions, driver version, OpenCL C version, address bits), the library
 * version and the cache format version are added by the module itself. */
struct usmarr__program_key {
    const char *source;   /* the final source text, exactly as compiled */
    size_t source_size;   /* its length in bytes (0: strlen(source)) */
    const char *options;  /* the effective build options, including any taken from the
                             environment; NULL means "" */
    cl_platform_id platform;
    cl_device_id device;
};

/* 0 on a hit: *binary (free() it) holds *size bytes that were stored under this exact key.
 * Non-zero on a miss of any kind (no entry, corrupt entry — deleted —, cache off or
 * disabled). */
USMARR_INTERNAL int usmarr__diskcache_load(const struct usmarr__program_key *key, unsigned char **binary,
                                           size_t *size);
/* Writes the entry atomically (temp file + rename) and applies the size cap.  A no-op when
 * the mode is not "on" or the cache is disabled. */
USMARR_INTERNAL void usmarr__diskcache_store(const struct usmarr__program_key *key, const unsigned char *binary,
                                             size_t size);
/* Deletes the entry of this key (its binary failed to build).  Not in read-only mode. */
USMARR_INTERNAL void usmarr__diskcache_discard(const struct usmarr__program_key *key);
/* Reports an engine event ("compile", "build-binary", ...) with its duration under the
 * trace switch (USMARR_CACHE_TRACE=1). */
USMARR_INTERNAL void usmarr__diskcache_trace(const char *event, const struct usmarr__program_key *key, double ms);
/* True when USMARR_CACHE_TRACE=1 (read once). */
USMARR_INTERNAL bool usmarr__diskcache_tracing(void);

/* ---- settings and maintenance, behind the public usmarr_cache_* functions (cache.c) --- */

/* NULL: back to the default resolution.  The caller has validated `path`. */
USMARR_INTERNAL void usmarr__diskcache_set_directory(const char *path);
USMARR_INTERNAL void usmarr__diskcache_set_mode(usmarr_cache_mode_t mode);
USMARR_INTERNAL usmarr_cache_mode_t usmarr__diskcache_mode(void);
/* Resolves, creates (mode on) and checks the directory now rather than at the first
 * load or store.  True when the disk cache is usable in the current mode; otherwise
 * `reason` says why (mode off, or the failure that disabled it). */
USMARR_INTERNAL bool usmarr__diskcache_ready(char *reason, size_t reason_size);
/* The resolved directory into buffer[size] (*needed: its length + 1).  0; ERANGE when
 * the buffer is too small; ENOENT when no directory can be resolved (*why says why). */
USMARR_INTERNAL int usmarr__diskcache_directory(char *buffer, size_t size, size_t *needed, const char **why);
/* Counters plus a scan of the directory.  0, or an errno from the scan. */
USMARR_INTERNAL int usmarr__diskcache_stats(usmarr_cache_stats_t *stats);
/* Deletes every entry (and stale temporary files) of the directory; never other files.
 * 0, or an errno; `failed_path` then says what failed ("list <dir>", "delete <file>"). */
USMARR_INTERNAL int usmarr__diskcache_clear(size_t *removed, char *failed_path, size_t failed_path_size);

/* ---- test hooks (tests/test_cache.c compiles this module into the runner) ------------ */

/* Back to a fresh process's state: environment re-read, settings and counters cleared. */
USMARR_INTERNAL void usmarr__diskcache_reset(void);
/* Replaces the device's driver version in the key (NULL: the real one), to simulate a
 * driver update. */
USMARR_INTERNAL void usmarr__diskcache_test_driver_version(const char *driver_version);
/* The entry's file path for `key` into buffer[size]; false if unresolvable. */
USMARR_INTERNAL bool usmarr__diskcache_entry_path(const struct usmarr__program_key *key, char *buffer, size_t size);

#endif
