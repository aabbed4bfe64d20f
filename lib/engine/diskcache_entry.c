/* The disk cache's keys and entries: the key's composition, self-validating entries
 * (load, atomic store, discard) and the size cap with LRU eviction.  Like diskcache.c it
 * uses nothing from the rest of the library. */
#include "engine_internal.h"
#include "diskcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static int dc_list_entries(const char *directory, bool sort, bool sweep, struct listed **out, size_t *count,
                           uint64_t *bytes);

static void dc_key_free(struct key *k);

/* ---- diskcache_entry.c ---- */
static bool dc_key_build(struct key *k, const struct usmarr__program_key *pk, const char *driver_override);

static void dc_free_list(struct listed *list, size_t count);

/* ---- keys ------------------------------------------------------------------------- */


static void key_append(struct key *k, const void *data, size_t size)
{
    if (k->failed)
        return;
    size_t need = k->size + 8 + size;
    if (need > k->capacity) {
        size_t cap = k->capacity ? k->capacity : 1024;
        while (cap < need)
            cap *= 2;
        unsigned char *p = realloc(k->bytes, cap);
        if (!p) {
            k->failed = true;
            return;
        }
        k->bytes = p;
        k->capacity = cap;
    }
    usmarr__dc_put_u64(k->bytes + k->size, size);
    if (size)
        memcpy(k->bytes + k->size + 8, data, size);
    k->size = need;
}

static void key_append_u32(struct key *k, uint32_t v)
{
    unsigned char b[4];
    usmarr__dc_put_u32(b, v);
    key_append(k, b, sizeof b);
}

typedef cl_int(CL_API_CALL *info_fn)(void *object, cl_uint param, size_t size, void *value, size_t *size_ret);

static void key_append_info(struct key *k, info_fn query, void *object, cl_uint param)
{
    size_t size = 0;
    if (k->failed || query(object, param, 0, NULL, &size) != CL_SUCCESS) {
        k->failed = true;
        return;
    }
    char *value = malloc(size ? size : 1);
    if (!value || query(object, param, size, value, NULL) != CL_SUCCESS) {
        free(value);
        k->failed = true;
        return;
    }
    key_append(k, value, size && value[size - 1] == '\0' ? size - 1 : size);
    free(value);
}

static cl_int CL_API_CALL platform_info(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
    return clGetPlatformInfo((cl_platform_id)o, p, s, v, r);
}
static cl_int CL_API_CALL device_info(void *o, cl_uint p, size_t s, void *v, size_t *r)
{
    return clGetDeviceInfo((cl_device_id)o, p, s, v, r);
}

extern char **environ;

/* Environment variables through which OpenCL drivers change how they compile (PoCL's
 * POCL_EXTRA_BUILD_FLAGS, POCL_WORK_GROUP_METHOD, ...; Intel's CL_CONFIG_CPU_*): their
 * values are part of the effective build options, so they are part of the key.  Sorted,
 * so that the order of the environment does not matter. */
static const char *const DRIVER_ENV_PREFIXES[] = {"POCL_", "CL_CONFIG_"};
/* ... except those that only say where a driver keeps its own cache, whether it does,
 * and what it logs: a fresh POCL_CACHE_DIR must still find the binaries built at
 * installation. */
static const char *const DRIVER_ENV_IGNORED[] = {"POCL_CACHE_DIR=", "POCL_KERNEL_CACHE=", "POCL_DEBUG="};

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void key_append_driver_environment(struct key *k)
{
    size_t n = 0, cap = 0;
    const char **vars = NULL;
    for (char **e = environ; e && *e; e++) {
        bool match = false;
        for (size_t i = 0; i < sizeof DRIVER_ENV_PREFIXES / sizeof *DRIVER_ENV_PREFIXES; i++)
            match |= strncmp(*e, DRIVER_ENV_PREFIXES[i], strlen(DRIVER_ENV_PREFIXES[i])) == 0;
        for (size_t i = 0; match && i < sizeof DRIVER_ENV_IGNORED / sizeof *DRIVER_ENV_IGNORED; i++)
            match = strncmp(*e, DRIVER_ENV_IGNORED[i], strlen(DRIVER_ENV_IGNORED[i])) != 0;
        if (!match)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            const char **p = realloc(vars, cap * sizeof *vars);
            if (!p) {
                k->failed = true;
                free(vars);
                return;
            }
            vars = p;
        }
        vars[n++] = *e;
    }
    if (n)
        qsort(vars, n, sizeof *vars, compare_strings);
    key_append_u32(k, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        key_append(k, vars[i], strlen(vars[i]));
    free(vars);
}

/* Everything that changes the binary, each field length-prefixed, in a fixed order. */
static bool dc_key_build(struct key *k, const struct usmarr__program_key *pk, const char *driver_override)
{
    memset(k, 0, sizeof *k);
    if (!pk || !pk->source || !pk->device)
        return false;
    cl_platform_id platform = pk->platform;
    if (!platform && clGetDeviceInfo(pk->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS)
        return false;
    key_append(k, KEY_MAGIC, sizeof KEY_MAGIC - 1);
    key_append_u32(k, FORMAT_VERSION);
    key_append(k, USMARR_VERSION_STRING, strlen(USMARR_VERSION_STRING));
    key_append_info(k, platform_info, platform, CL_PLATFORM_NAME);
    key_append_info(k, platform_info, platform, CL_PLATFORM_VENDOR);
    key_append_info(k, platform_info, platform, CL_PLATFORM_VERSION);
    key_append_info(k, device_info, pk->device, CL_DEVICE_NAME);
    key_append_info(k, device_info, pk->device, CL_DEVICE_VENDOR);
    key_append_info(k, device_info, pk->device, CL_DEVICE_VERSION);
    if (driver_override)
        key_append(k, driver_override, strlen(driver_override));
    else
        key_append_info(k, device_info, pk->device, CL_DRIVER_VERSION);
    key_append_info(k, device_info, pk->device, CL_DEVICE_OPENCL_C_VERSION);
    cl_uint bits = 0;
    if (clGetDeviceInfo(pk->device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL) != CL_SUCCESS)
        k->failed = true;
    key_append_u32(k, bits);
    const char *options = pk->options ? pk->options : "";
    key_append(k, options, strlen(options));
    key_append_driver_environment(k);
    key_append(k, pk->source, pk->source_size ? pk->source_size : strlen(pk->source));
    if (k->failed) {
        free(k->bytes);
        k->bytes = NULL;
        return false;
    }
    XXH128_hash_t h = XXH3_128bits(k->bytes, k->size);
    snprintf(k->name, sizeof k->name, "%016llx%016llx" ENTRY_SUFFIX, (unsigned long long)h.high64,
             (unsigned long long)h.low64);
    return true;
}

static void dc_key_free(struct key *k) { free(k->bytes); }

static char *entry_path(const char *directory, const struct key *k)
{
    size_t n = strlen(directory) + 1 + strlen(k->name) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", directory, k->name);
    return p;
}

static const char *key_label(const struct key *k) { return k->name; }

/* ---- entries ------------------------------------------------------------------------ */

/* Deletes a bad entry, unless another process replaced the file since we opened it. */
static void remove_bad_entry(const struct session *s, const char *path, int fd, const char *why,
                             const struct key *k)
{
    if (s->mode != USMARR_CACHE_ON) {
        usmarr__dc_trace("miss %s: %s (read-only: left in place)", key_label(k), why);
        return;
    }
    struct stat opened, now;
    if (fd >= 0 && (fstat(fd, &opened) != 0 || stat(path, &now) != 0 || opened.st_ino != now.st_ino ||
                    opened.st_dev != now.st_dev)) {
        usmarr__dc_trace("miss %s: %s (already replaced)", key_label(k), why);
        return;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        usmarr__dc_disable(s->generation, "cannot delete %s: %s", path, strerror(errno));
        return;
    }
    atomic_fetch_add(&usmarr__dc_count_discards, 1);
    usmarr__dc_trace("miss %s: %s; entry deleted", key_label(k), why);
}

/* Looks the key up in `directory`: 0 and the payload on a hit.  The cache directory's bad
 * entries are deleted and its file-system failures disable the disk cache; the system
 * cache (`system`) is only read, and a failure there is a miss. */
static int load_from(const struct session *s, const char *directory, bool system, const struct key *k,
                     unsigned char **binary, size_t *size)
{
    double t0 = usmarr__dc_now_ms();
    const char *level = system ? " (system cache)" : "";
    int rc = -1;
    unsigned char *data = NULL;
    char *path = entry_path(directory, k);
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
    const char *bad = NULL;
    if (fd < 0) {
        if (!path || errno == ENOENT)
            usmarr__dc_trace("miss %s%s: no entry", key_label(k), level);
        else if (errno == ELOOP)
            bad = "a symbolic link";
        else if (system)
            usmarr__dc_trace("miss %s%s: cannot open %s: %s", key_label(k), level, path, strerror(errno));
        else
            usmarr__dc_disable(s->generation, "cannot open %s: %s", path, strerror(errno));
        goto done;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        if (system)
            usmarr__dc_trace("miss %s%s: cannot stat %s: %s", key_label(k), level, path, strerror(errno));
        else
            usmarr__dc_disable(s->generation, "cannot stat %s: %s", path, strerror(errno));
        goto done;
    }
    uint64_t fixed = HEADER_BYTES + k->size + 8 + CHECKSUM_BYTES;
    if (!S_ISREG(st.st_mode)) {
        bad = "not a regular file";
        goto done;
    }
    if ((uint64_t)st.st_size < fixed || (uint64_t)st.st_size > MAX_ENTRY_BYTES) {
        bad = "wrong size for this key";
        goto done;
    }
    size_t file_size = (size_t)st.st_size;
    data = malloc(file_size);
    if (!data) {
        usmarr__dc_trace("miss %s%s: out of memory", key_label(k), level);
        goto done;
    }
    if (!usmarr__dc_read_all(fd, data, file_size)) {
        if (errno && !system) {
            usmarr__dc_disable(s->generation, "cannot read %s: %s", path, strerror(errno));
            goto done;
        }
        bad = errno ? "read error" : "short read";
        goto done;
    }
    XXH128_canonical_t stored;
    memcpy(&stored, data + file_size - CHECKSUM_BYTES, CHECKSUM_BYTES);
    XXH128_hash_t sum = XXH3_128bits(data, file_size - CHECKSUM_BYTES);
    uint64_t key_size = usmarr__dc_get_u64(data + 16), payload_size = usmarr__dc_get_u64(data + HEADER_BYTES + k->size);
    if (memcmp(data, ENTRY_MAGIC, sizeof ENTRY_MAGIC) != 0)
        bad = "bad magic";
    else if (usmarr__dc_get_u32(data + 8) != FORMAT_VERSION)
        bad = "other format version";
    else if (!XXH128_isEqual(sum, XXH128_hashFromCanonical(&stored)))
        bad = "checksum mismatch";
    else if (key_size != k->size || memcmp(data + HEADER_BYTES, k->bytes, k->size) != 0)
        bad = "stored key differs (hash collision or wrong entry)";
    else if (payload_size == 0 || payload_size != file_size - fixed)
        bad = "payload length mismatch";
    if (bad)
        goto done;
    *binary = malloc((size_t)payload_size);
    if (!*binary) {
        usmarr__dc_trace("miss %s%s: out of memory", key_label(k), level);
        goto done;
    }
    memcpy(*binary, data + HEADER_BYTES + k->size + 8, (size_t)payload_size);
    *size = (size_t)payload_size;
    if (s->mode == USMARR_CACHE_ON && !system)
        futimens(fd, NULL); /* least-recently-used order follows mtime */
    rc = 0;
    usmarr__dc_trace("hit %s%s: %zu bytes in %.3f ms", key_label(k), level, *size, usmarr__dc_now_ms() - t0);
done:
    if (bad && system)
        usmarr__dc_trace("miss %s%s: %s (left in place)", key_label(k), level, bad);
    else if (bad)
        remove_bad_entry(s, path, fd, bad, k);
    if (fd >= 0)
        close(fd);
    free(data);
    free(path);
    return rc;
}

int usmarr__diskcache_load(const struct usmarr__program_key *pk, unsigned char **binary, size_t *size)
{
    if (!binary || !size)
        return -1;
    *binary = NULL;
    *size = 0;
    struct session s;
    if (!usmarr__dc_session_begin_load(&s))
        return -1;
    struct key k;
    if (!dc_key_build(&k, pk, s.driver_override)) {
        usmarr__dc_trace("miss: the device cannot be described for a key");
        atomic_fetch_add(&usmarr__dc_count_misses, 1);
        usmarr__dc_session_end(&s);
        return -1;
    }
    int rc = s.directory ? load_from(&s, s.directory, false, &k, binary, size) : -1;
    if (rc && s.system_directory)
        rc = load_from(&s, s.system_directory, true, &k, binary, size);
    atomic_fetch_add(rc ? &usmarr__dc_count_misses : &usmarr__dc_count_hits, 1);
    dc_key_free(&k);
    usmarr__dc_session_end(&s);
    return rc;
}


static int by_age(const void *a, const void *b)
{
    const struct listed *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Lists the entries of `directory` (oldest first when `sort`); removes stale temporary
 * files when `sweep`.  0 or an errno (ENOENT: no directory, nothing listed). */
static int dc_list_entries(const char *directory, bool sort, bool sweep, struct listed **out, size_t *count,
                           uint64_t *bytes)
{
    *out = NULL;
    *count = 0;
    *bytes = 0;
    DIR *d = opendir(directory);
    if (!d)
        return errno;
    int dfd = dirfd(d);
    size_t cap = 0;
    struct listed *list = NULL;
    time_t now = time(NULL);
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        bool entry = usmarr__dc_is_entry_name(e->d_name), temp = sweep && usmarr__dc_is_temp_name(e->d_name);
        if (!entry && !temp)
            continue;
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (temp) {
            if (now - st.st_mtime > STALE_TEMP_SECONDS)
                unlinkat(dfd, e->d_name, 0);
            continue;
        }
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            struct listed *p = realloc(list, cap * sizeof *list);
            if (!p) {
                rc = ENOMEM;
                break;
            }
            list = p;
        }
        list[*count].name = strdup(e->d_name);
        if (!list[*count].name) {
            rc = ENOMEM;
            break;
        }
        list[*count].size = (uint64_t)st.st_size;
        list[*count].mtime = st.st_mtim;
        *bytes += (uint64_t)st.st_size;
        (*count)++;
    }
    closedir(d);
    if (sort && *count)
        qsort(list, *count, sizeof *list, by_age);
    *out = list;
    return rc;
}

static void dc_free_list(struct listed *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(list[i].name);
    free(list);
}

/* Deletes least-recently-used entries until the directory fits the cap. */
static void enforce_cap(const struct session *s)
{
    struct listed *list;
    size_t count;
    uint64_t bytes;
    int rc = dc_list_entries(s->directory, true, true, &list, &count, &bytes);
    if (rc && rc != ENOMEM) {
        usmarr__dc_disable(s->generation, "cannot list %s: %s", s->directory, strerror(rc));
        dc_free_list(list, count);
        return;
    }
    for (size_t i = 0; i < count && bytes > s->max_bytes; i++) {
        char *path = usmarr__dc_concat(s->directory, "/");
        char *full = path ? usmarr__dc_concat(path, list[i].name) : NULL;
        free(path);
        if (!full)
            break;
        if (unlink(full) == 0) {
            atomic_fetch_add(&usmarr__dc_count_evictions, 1);
            usmarr__dc_trace("evict %.*s: %llu bytes (directory %llu bytes, cap %llu)", HASH_HEX, list[i].name,
                  (unsigned long long)list[i].size, (unsigned long long)bytes, (unsigned long long)s->max_bytes);
        } else if (errno != ENOENT) {
            usmarr__dc_disable(s->generation, "cannot evict %s: %s", full, strerror(errno));
            free(full);
            break;
        }
        bytes -= list[i].size;
        free(full);
    }
    dc_free_list(list, count);
}

/* Writes header, key, payload and checksum to `fd`. */
static bool write_entry(int fd, const struct key *k, const unsigned char *binary, size_t size)
{
    unsigned char header[HEADER_BYTES], length[8];
    memcpy(header, ENTRY_MAGIC, sizeof ENTRY_MAGIC);
    usmarr__dc_put_u32(header + 8, FORMAT_VERSION);
    usmarr__dc_put_u32(header + 12, 0);
    usmarr__dc_put_u64(header + 16, k->size);
    usmarr__dc_put_u64(length, size);
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        errno = ENOMEM;
        return false;
    }
    XXH3_128bits_reset(h);
    XXH3_128bits_update(h, header, sizeof header);
    XXH3_128bits_update(h, k->bytes, k->size);
    XXH3_128bits_update(h, length, sizeof length);
    XXH3_128bits_update(h, binary, size);
    XXH128_canonical_t sum;
    XXH128_canonicalFromHash(&sum, XXH3_128bits_digest(h));
    XXH3_freeState(h);
    return usmarr__dc_write_all(fd, header, sizeof header) && usmarr__dc_write_all(fd, k->bytes, k->size) &&
           usmarr__dc_write_all(fd, length, sizeof length) && usmarr__dc_write_all(fd, binary, size) && usmarr__dc_write_all(fd, &sum, sizeof sum);
}

void usmarr__diskcache_store(const struct usmarr__program_key *pk, const unsigned char *binary, size_t size)
{
    if (!binary || !size)
        return;
    struct session s;
    if (!usmarr__dc_session_begin(&s, true))
        return;
    double t0 = usmarr__dc_now_ms();
    struct key k;
    char *path = NULL, *temp = NULL;
    int fd = -1;
    bool created = false;
    if (!dc_key_build(&k, pk, s.driver_override)) {
        usmarr__dc_trace("store skipped: the device cannot be described for a key");
        usmarr__dc_session_end(&s);
        return;
    }
    uint64_t total = HEADER_BYTES + k.size + 8 + (uint64_t)size + CHECKSUM_BYTES;
    if (total > s.max_bytes || total > MAX_ENTRY_BYTES) {
        usmarr__dc_trace("store skipped %s: %llu bytes exceed the cap of %llu", key_label(&k), (unsigned long long)total,
              (unsigned long long)s.max_bytes);
        goto done;
    }
    path = entry_path(s.directory, &k);
    temp = usmarr__dc_concat(s.directory, "/" TEMP_PREFIX "XXXXXX");
    if (!path || !temp)
        goto done;
    fd = mkstemp(temp);
    if (fd < 0 && errno == ENOENT && usmarr__dc_make_directories(s.directory) == 0) { /* removed behind our back */
        memcpy(temp + strlen(temp) - 6, "XXXXXX", 6); /* a failed mkstemp leaves its last try there */
        fd = mkstemp(temp);
    }
    if (fd < 0) {
        usmarr__dc_disable(s.generation, "cannot create a file in %s: %s", s.directory, strerror(errno));
        goto done;
    }
    created = true;
    if (fchmod(fd, 0600) != 0 || !write_entry(fd, &k, binary, size)) {
        usmarr__dc_disable(s.generation, "cannot write %s: %s", temp, strerror(errno));
        goto done;
    }
    int closed = close(fd);
    fd = -1;
    if (closed != 0) {
        usmarr__dc_disable(s.generation, "cannot write %s: %s", temp, strerror(errno));
        goto done;
    }
    if (rename(temp, path) != 0) {
        usmarr__dc_disable(s.generation, "cannot rename %s to %s: %s", temp, path, strerror(errno));
        goto done;
    }
    created = false;
    atomic_fetch_add(&usmarr__dc_count_stores, 1);
    usmarr__dc_trace("store %s: %llu bytes in %.3f ms", key_label(&k), (unsigned long long)total, usmarr__dc_now_ms() - t0);
    enforce_cap(&s);
done:
    if (fd >= 0)
        close(fd);
    if (created)
        unlink(temp);
    free(temp);
    free(path);
    dc_key_free(&k);
    usmarr__dc_session_end(&s);
}

/* ---- compile locks ------------------------------------------------------------------ */

static atomic_int held_locks; /* compile locks this process holds */

int usmarr__diskcache_compile_lock(const struct usmarr__program_key *pk, char **lock_path, bool *waited)
{
    *lock_path = NULL;
    *waited = false;
    struct session s;
    if (!usmarr__dc_session_begin(&s, true))
        return -1;
    struct key k;
    int fd = -1;
    char *path = NULL;
    if (!dc_key_build(&k, pk, s.driver_override))
        goto done;
    size_t n = strlen(s.directory) + 1 + strlen(LOCK_PREFIX) + HASH_HEX + 1;
    if (!(path = malloc(n)))
        goto done;
    snprintf(path, n, "%s/" LOCK_PREFIX "%.*s", s.directory, HASH_HEX, k.name);
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        goto done; /* no lock: compile anyway (a failure to write shows at the store) */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK || atomic_load(&held_locks) > 0) {
            close(fd), fd = -1;
            goto done;
        }
        *waited = true;
        double t0 = usmarr__dc_now_ms();
        struct timespec pause = {0, 10 * 1000 * 1000};
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (usmarr__dc_now_ms() - t0 > USMARR__COMPILE_WAIT_SECONDS * 1e3) {
                usmarr__dc_trace("wait %s: another process has compiled it for %d s; compiling here too", k.name,
                                 USMARR__COMPILE_WAIT_SECONDS);
                close(fd), fd = -1;
                goto done;
            }
            nanosleep(&pause, NULL);
        }
        usmarr__dc_trace("wait %s: another process compiled it: %.3f ms", k.name, usmarr__dc_now_ms() - t0);
    }
    atomic_fetch_add(&held_locks, 1);
    *lock_path = path;
    path = NULL;
done:
    free(path);
    if (k.bytes)
        dc_key_free(&k);
    usmarr__dc_session_end(&s);
    return fd;
}

void usmarr__diskcache_compile_unlock(int fd, char *lock_path)
{
    if (fd < 0)
        return;
    unlink(lock_path); /* while still holding it: a later process starts a new file */
    close(fd);
    free(lock_path);
    atomic_fetch_sub(&held_locks, 1);
}

void usmarr__diskcache_discard(const struct usmarr__program_key *pk)
{
    struct session s;
    if (!usmarr__dc_session_begin(&s, true))
        return;
    struct key k;
    if (dc_key_build(&k, pk, s.driver_override)) {
        char *path = entry_path(s.directory, &k);
        if (path)
            remove_bad_entry(&s, path, -1, "the binary failed to build", &k);
        free(path);
        dc_key_free(&k);
    }
    usmarr__dc_session_end(&s);
}

void usmarr__diskcache_trace(const char *event, const struct usmarr__program_key *pk, double ms)
{
    if (!usmarr__diskcache_tracing())
        return;
    char *override = NULL;
    pthread_mutex_lock(&usmarr__dc_lock);
    if (usmarr__dc_state.driver_override)
        override = strdup(usmarr__dc_state.driver_override);
    pthread_mutex_unlock(&usmarr__dc_lock);
    struct key k;
    if (dc_key_build(&k, pk, override)) {
        usmarr__dc_trace("%s %s: %.3f ms", event ? event : "event", key_label(&k), ms);
        dc_key_free(&k);
    } else {
        usmarr__dc_trace("%s: %.3f ms", event ? event : "event", ms);
    }
    free(override);
}

/* ---- statistics and test hooks over the entries ---- */

int usmarr__diskcache_stats(usmarr_cache_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->hits = atomic_load(&usmarr__dc_count_hits);
    stats->misses = atomic_load(&usmarr__dc_count_misses);
    stats->stores = atomic_load(&usmarr__dc_count_stores);
    stats->evictions = atomic_load(&usmarr__dc_count_evictions);
    stats->discards = atomic_load(&usmarr__dc_count_discards);
    pthread_mutex_lock(&usmarr__dc_lock);
    stats->mode = usmarr__dc_mode_locked();
    stats->max_bytes = usmarr__dc_state.max_bytes;
    stats->disabled = usmarr__dc_state.disabled;
    snprintf(stats->reason, sizeof stats->reason, "%s", usmarr__dc_state.disabled ? usmarr__dc_state.reason : "");
    pthread_mutex_unlock(&usmarr__dc_lock);
    char *dir = usmarr__dc_directory_copy();
    if (!dir)
        return 0;
    struct listed *list;
    size_t count;
    uint64_t bytes;
    int rc = dc_list_entries(dir, false, false, &list, &count, &bytes);
    dc_free_list(list, count);
    free(dir);
    stats->entries = count;
    stats->bytes = bytes;
    return rc == ENOENT || rc == ENOTDIR ? 0 : rc;
}

bool usmarr__diskcache_entry_path(const struct usmarr__program_key *pk, char *buffer, size_t size)
{
    char *override = NULL;
    char *dir = usmarr__dc_directory_copy();
    pthread_mutex_lock(&usmarr__dc_lock);
    if (usmarr__dc_state.driver_override)
        override = strdup(usmarr__dc_state.driver_override);
    pthread_mutex_unlock(&usmarr__dc_lock);
    struct key k;
    bool ok = dir && dc_key_build(&k, pk, override);
    if (ok) {
        ok = (size_t)snprintf(buffer, size, "%s/%s", dir, k.name) < size;
        dc_key_free(&k);
    }
    free(override);
    free(dir);
    return ok;
}
