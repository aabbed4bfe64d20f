/* Private declarations shared by the disk cache's modules: diskcache.c (settings, the
 * directory, sessions, clearing) and diskcache_entry.c (keys and self-validating
 * entries: load, store, discard, the size cap, statistics), which alone calls into the
 * other.  Like them, nothing here uses the rest of the library.  Never installed. */
#ifndef USMARR_DISKCACHE_INTERNAL_H
#define USMARR_DISKCACHE_INTERNAL_H

#include "diskcache.h"

#include <pthread.h>
#include <stdatomic.h>

/* Bump FORMAT_VERSION whenever the entry layout or the key's composition changes: old
 * entries then become misses (their file names differ) and age out through the cap. */
#define FORMAT_VERSION 1u
static const char ENTRY_MAGIC[8] __attribute__((unused)) = {'U', 'S', 'M', 'A', 'R', 'R', 'P', 'B'};
static const char KEY_MAGIC[] __attribute__((unused)) = "usmarr program key";
#define ENTRY_SUFFIX ".clbin"
#define HASH_HEX 32 /* XXH3-128 as hex */
#define TEMP_PREFIX ".tmp-"
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
    char *directory;
    char *driver_override;
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
USMARR_INTERNAL void usmarr__dc_session_end(struct session *s);
USMARR_INTERNAL void usmarr__dc_trace(const char *format, ...) __attribute__((format(printf, 1, 2)));
USMARR_INTERNAL bool usmarr__dc_write_all(int fd, const void *data, size_t size);
/* The effective mode; call with usmarr__dc_lock held. */
USMARR_INTERNAL usmarr_cache_mode_t usmarr__dc_mode_locked(void);
/* A copy of the resolved directory (free it), or NULL. */
USMARR_INTERNAL char *usmarr__dc_directory_copy(void);

/* ---- diskcache_entry.c ---- */
USMARR_INTERNAL bool usmarr__dc_key_build(struct key *k, const struct usmarr__program_key *pk, const char *driver_override);
USMARR_INTERNAL void usmarr__dc_key_free(struct key *k);
USMARR_INTERNAL int usmarr__dc_list_entries(const char *directory, bool sort, bool sweep, struct listed **out, size_t *count,
                        uint64_t *bytes);
USMARR_INTERNAL void usmarr__dc_free_list(struct listed *list, size_t count);

#endif
