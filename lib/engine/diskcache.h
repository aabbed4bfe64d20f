/* Private to lib/engine/ (and the tests that compile the disk cache into the runner):
 * the disk cache of program binaries (diskcache.c, diskcache_entry.c) as the program
 * cache and the kernel shapes use it, its test hooks, and its internals.  The settings
 * behind usmarr_cache_* are in engine_internal.h.  doc/cache.md. */
#ifndef USMARR_DISKCACHE_H
#define USMARR_DISKCACHE_H

#include "engine_internal.h"

/* ---- the disk cache of program binaries (diskcache.c, diskcache_entry.c) ----------- */

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
/* Cross-process single-flight of compiles.  Before compiling `key` from source, a process
 * takes the key's lock file in the cache directory (flock on ".lock-<hash>").  When
 * another process holds it (it is compiling the same program and will store it), this
 * one waits, up to USMARR__COMPILE_WAIT_SECONDS, and sets *waited: the caller then looks
 * the entry up again before compiling.  A process that already holds a lock never waits
 * (two processes each waiting for the other's program would otherwise deadlock).
 * Returns the lock's descriptor (>= 0; *lock_path is the file) or -1 when there is no
 * lock to hold (mode not on, cache disabled, waited too long): the caller compiles
 * either way.  usmarr__diskcache_compile_unlock() after the entry is stored, or the
 * program is given up; it accepts -1. */
#define USMARR__COMPILE_WAIT_SECONDS 120
USMARR_INTERNAL int usmarr__diskcache_compile_lock(const struct usmarr__program_key *key, char **lock_path,
                                                   bool *waited);
USMARR_INTERNAL void usmarr__diskcache_compile_unlock(int fd, char *lock_path);
/* Deletes the entry of this key (its binary failed to build).  Not in read-only mode. */
USMARR_INTERNAL void usmarr__diskcache_discard(const struct usmarr__program_key *key);
/* Reports an engine event ("compile", "build-binary", ...) with its duration under the
 * trace switch (USMARR_CACHE_TRACE=1). */
USMARR_INTERNAL void usmarr__diskcache_trace(const char *event, const struct usmarr__program_key *key, double ms);
/* True when USMARR_CACHE_TRACE=1 (read once). */
USMARR_INTERNAL bool usmarr__diskcache_tracing(void);

/* ---- test hooks (tests/engine/test_cache.c compiles this module into the runner) ------------ */

/* Back to a fresh process's state: environment re-read, settings and counters cleared. */
USMARR_INTERNAL void usmarr__diskcache_reset(void);
/* Replaces the device's driver version in the key (NULL: the real one), to simulate a
 * driver update. */
USMARR_INTERNAL void usmarr__diskcache_test_driver_version(const char *driver_version);
/* The entry's file path for `key` into buffer[size]; false if unresolvable. */
USMARR_INTERNAL bool usmarr__diskcache_entry_path(const struct usmarr__program_key *key, char *buffer, size_t size);

/* Bump FORMAT_VERSION whenever the entry layout or the key's composition changes: old
 * entries then become misses (their file names differ) and age out through the cap. */
#define FORMAT_VERSION 2u
static const char ENTRY_MAGIC[8] __attribute__((unused)) = {'U', 'S', 'M', 'A', 'R', 'R', 'P', 'B'};
static const char KEY_MAGIC[] __attribute__((unused)) = "usmarr program key";
#define ENTRY_SUFFIX ".clbin"
#define HASH_HEX 32 /* XXH3-128 as hex */
#define TEMP_PREFIX ".tmp-"
#define LOCK_PREFIX ".lock-"
#define STALE_TEMP_SECONDS 3600
#define DEFAULT_MAX_BYTES ((uint64_t)256 << 20)
#define MAX_ENTRY_BYTES ((uint64_t)1 << 31)
/* magic, format version, reserved, key length | key | payload length | payload | checksum */
#define HEADER_BYTES (8 + 4 + 4 + 8)
#define CHECKSUM_BYTES 16

/* Process-wide settings and state, under usmarr__dc_lock (diskcache.c). */
struct usmarr__dc_settings {
    bool initialized; /* environment read */
    usmarr_cache_mode_t env_mode;
    bool mode_set; /* through the API */
    usmarr_cache_mode_t mode;
    uint64_t max_bytes;
    char *explicit_directory; /* through the API */
    char *directory;          /* resolved; NULL until resolved or when unresolvable */
    const char *unresolved;   /* why no directory */
    bool prepared;            /* created (mode on) and checked */
    bool disabled;
    char reason[256];
    unsigned generation; /* bumped whenever the directory changes */
    char *driver_override;
    /* The system cache: a read-only directory of entries built at installation, consulted
     * after the directory above ($USMARR_CACHE_SYSTEM_DIR, else USMARR_SYSTEM_CACHE_DIR). */
    bool system_resolved;     /* resolved and checked (again after a directory change) */
    char *system_directory;   /* NULL: none, or not safe to trust (system_none says why) */
    char system_none[256];
};
USMARR_INTERNAL extern pthread_mutex_t usmarr__dc_lock;
USMARR_INTERNAL extern struct usmarr__dc_settings usmarr__dc_state;

USMARR_INTERNAL extern atomic_uint_fast64_t usmarr__dc_count_hits, usmarr__dc_count_misses, usmarr__dc_count_stores,
    usmarr__dc_count_evictions, usmarr__dc_count_discards;

/* What one operation needs, copied out under the lock. */
struct session {
    usmarr_cache_mode_t mode;
    uint64_t max_bytes;
    unsigned generation;
    char *directory;        /* NULL when only the system cache is read */
    char *driver_override;
    char *system_directory; /* set by usmarr__dc_session_begin_load() only */
};

struct key {
    unsigned char *bytes;
    size_t size, capacity;
    bool failed;
    char name[HASH_HEX + sizeof ENTRY_SUFFIX]; /* file name */
};

struct listed {
    char *name;
    uint64_t size;
    struct timespec mtime;
};

/* ---- diskcache.c ---- */
USMARR_INTERNAL char *usmarr__dc_concat(const char *a, const char *b);
USMARR_INTERNAL void usmarr__dc_disable(unsigned generation, const char *format, ...) __attribute__((format(printf, 2, 3)));
USMARR_INTERNAL uint32_t usmarr__dc_get_u32(const unsigned char *p);
USMARR_INTERNAL uint64_t usmarr__dc_get_u64(const unsigned char *p);
USMARR_INTERNAL bool usmarr__dc_is_entry_name(const char *name);
USMARR_INTERNAL bool usmarr__dc_is_temp_name(const char *name);
USMARR_INTERNAL int usmarr__dc_make_directories(const char *path);
USMARR_INTERNAL double usmarr__dc_now_ms(void);
USMARR_INTERNAL void usmarr__dc_put_u32(unsigned char *p, uint32_t v);
USMARR_INTERNAL void usmarr__dc_put_u64(unsigned char *p, uint64_t v);
USMARR_INTERNAL bool usmarr__dc_read_all(int fd, void *data, size_t size);
USMARR_INTERNAL bool usmarr__dc_session_begin(struct session *s, bool write);
/* For a load: the directory when it is usable, and the system directory; false when
 * neither is to be read. */
USMARR_INTERNAL bool usmarr__dc_session_begin_load(struct session *s);
USMARR_INTERNAL void usmarr__dc_session_end(struct session *s);
USMARR_INTERNAL void usmarr__dc_trace(const char *format, ...) __attribute__((format(printf, 1, 2)));
USMARR_INTERNAL bool usmarr__dc_write_all(int fd, const void *data, size_t size);
/* The effective mode; call with usmarr__dc_lock held. */
USMARR_INTERNAL usmarr_cache_mode_t usmarr__dc_mode_locked(void);
/* A copy of the resolved directory (free it), or NULL. */
USMARR_INTERNAL char *usmarr__dc_directory_copy(void);


#endif
