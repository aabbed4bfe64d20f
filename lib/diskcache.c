/* The on-disk cache of program binaries: keys, self-validating entries, atomic writes,
 * the directory and mode settings, the size cap with LRU eviction, counters and trace.
 * Rules: ../shared/notes/kernel-cache.md; user documentation: doc/cache.md.
 *
 * This file uses nothing from the rest of the library (no usmarr__fail: nothing here
 * fails a caller), so that tests can compile it into their own programs and drive it
 * through its internal interface. */
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

/* Bump FORMAT_VERSION whenever the entry layout or the key's composition changes: old
 * entries then become misses (their file names differ) and age out through the cap. */
#define FORMAT_VERSION 1u
static const char ENTRY_MAGIC[8] = {'U', 'S', 'M', 'A', 'R', 'R', 'P', 'B'};
static const char KEY_MAGIC[] = "usmarr program key";
#define ENTRY_SUFFIX ".clbin"
#define HASH_HEX 32 /* XXH3-128 as hex */
#define TEMP_PREFIX ".tmp-"
#define STALE_TEMP_SECONDS 3600
#define DEFAULT_MAX_BYTES ((uint64_t)256 << 20)
#define MAX_ENTRY_BYTES ((uint64_t)1 << 31)
/* magic, format version, reserved, key length | key | payload length | payload | checksum */
#define HEADER_BYTES (8 + 4 + 4 + 8)
#define CHECKSUM_BYTES 16

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
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
} state;

static atomic_int tracing = -1; /* -1: not read yet */
static atomic_uint_fast64_t count_hits, count_misses, count_stores, count_evictions, count_discards;

/* ---- small helpers ------------------------------------------------------------------ */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool usmarr__diskcache_tracing(void)
{
    int t = atomic_load_explicit(&tracing, memory_order_relaxed);
    if (t < 0) {
        const char *v = getenv("USMARR_CACHE_TRACE");
        t = v && *v && strcmp(v, "0") != 0;
        atomic_store_explicit(&tracing, t, memory_order_relaxed);
    }
    return t;
}

static void trace(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *format, ...)
{
    if (!usmarr__diskcache_tracing())
        return;
    char line[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    fprintf(stderr, "usmarr-cache: %s\n", line);
}

static char *concat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static bool write_all(int fd, const void *data, size_t size)
{
    const unsigned char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* Reads exactly `size` bytes; false on an error (errno set) or a short file (errno 0). */
static bool read_all(int fd, void *data, size_t size)
{
    unsigned char *p = data;
    while (size) {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = 0;
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* "<32 hex>.clbin" */
static bool is_entry_name(const char *name)
{
    size_t n = strlen(name);
    if (n != HASH_HEX + strlen(ENTRY_SUFFIX) || strcmp(name + HASH_HEX, ENTRY_SUFFIX) != 0)
        return false;
    for (size_t i = 0; i < HASH_HEX; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return true;
}

static bool is_temp_name(const char *name) { return strncmp(name, TEMP_PREFIX, strlen(TEMP_PREFIX)) == 0; }

/* ---- settings --------------------------------------------------------------------- */

static usmarr_cache_mode_t parse_mode(const char *v)
{
    if (!v || !*v)
        return USMARR_CACHE_ON;
    static const char *const off[] = {"off", "0", "no", "false"};
    static const char *const on[] = {"on", "1", "yes", "true"};
    static const char *const ro[] = {"readonly", "read-only", "ro"};
    for (size_t i = 0; i < sizeof off / sizeof *off; i++)
        if (!strcasecmp(v, off[i]))
            return USMARR_CACHE_OFF;
    for (size_t i = 0; i < sizeof on / sizeof *on; i++)
        if (!strcasecmp(v, on[i]))
            return USMARR_CACHE_ON;
    for (size_t i = 0; i < sizeof ro / sizeof *ro; i++)
        if (!strcasecmp(v, ro[i]))
            return USMARR_CACHE_READONLY;
    trace("USMARR_CACHE=\"%s\" is not off, on or readonly; using on", v);
    return USMARR_CACHE_ON;
}

static uint64_t parse_size(const char *v)
{
    if (!v || !*v)
        return DEFAULT_MAX_BYTES;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B')
        end += *end == 'i' && end[1] == 'B' ? 2 : 1;
    if (errno || end == v || *end || v[0] == '-' || (shift && n > (UINT64_MAX >> shift))) {
        trace("USMARR_CACHE_MAX_BYTES=\"%s\" is not a size; using %llu", v, (unsigned long long)DEFAULT_MAX_BYTES);
        return DEFAULT_MAX_BYTES;
    }
    return (uint64_t)n << shift;
}

static void init_locked(void)
{
    if (state.initialized)
        return;
    state.env_mode = parse_mode(getenv("USMARR_CACHE"));
    state.max_bytes = parse_size(getenv("USMARR_CACHE_MAX_BYTES"));
    state.initialized = true;
}

static usmarr_cache_mode_t mode_locked(void)
{
    init_locked();
    return state.mode_set ? state.mode : state.env_mode;
}

static void disable_locked(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void disable_locked(const char *format, ...)
{
    if (state.disabled)
        return;
    state.disabled = true;
    va_list ap;
    va_start(ap, format);
    vsnprintf(state.reason, sizeof state.reason, format, ap);
    va_end(ap);
    trace("disabled for this process: %s", state.reason);
}

/* Disables the cache for a failure seen outside the lock, unless the directory changed
 * in the meantime. */
static void disable(unsigned generation, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void disable(unsigned generation, const char *format, ...)
{
    char reason[sizeof state.reason];
    va_list ap;
    va_start(ap, format);
    vsnprintf(reason, sizeof reason, format, ap);
    va_end(ap);
    pthread_mutex_lock(&state_lock);
    if (generation == state.generation)
        disable_locked("%s", reason);
    pthread_mutex_unlock(&state_lock);
}

static char *home_directory(void)
{
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return strdup(home);
    long n = sysconf(_SC_GETPW_R_SIZE_MAX);
    size_t size = n > 0 ? (size_t)n : 16384;
    char *buf = malloc(size);
    struct passwd pw, *found = NULL;
    char *dir = NULL;
    if (buf && getpwuid_r(geteuid(), &pw, buf, size, &found) == 0 && found && found->pw_dir &&
        found->pw_dir[0] == '/')
        dir = strdup(found->pw_dir);
    free(buf);
    return dir;
}

/* Explicit setting, USMARR_CACHE_DIR, $XDG_CACHE_HOME/usmarr, ~/.cache/usmarr.  Relative
 * environment values are ignored, as the XDG specification asks. */
static void resolve_locked(void)
{
    if (state.directory || state.unresolved)
        return;
    const char *env;
    if (state.explicit_directory) {
        state.directory = strdup(state.explicit_directory);
    } else if ((env = getenv("USMARR_CACHE_DIR")) && env[0] == '/') {
        state.directory = strdup(env);
    } else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') {
        state.directory = concat(env, "/usmarr");
    } else {
        char *home = home_directory();
        if (home) {
            state.directory = concat(strcmp(home, "/") ? home : "", "/.cache/usmarr");
            free(home);
        } else {
            state.unresolved = "no USMARR_CACHE_DIR, XDG_CACHE_HOME or HOME, and no home directory in the "
                               "password database";
            return;
        }
    }
    if (!state.directory)
        state.unresolved = "out of memory";
}

/* mkdir -p with mode 0700 for every directory it creates. */
static int make_directories(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return ENOMEM;
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            rc = errno;
            break;
        }
        *s = c;
        if (!c)
            break;
    }
    free(p);
    return rc;
}

/* Creates (mode on) and checks the directory once per directory setting.  A binary from
 * the cache is code the process will run, so the directory must belong to us (or root)
 * and be writable by nobody else. */
static void prepare_locked(usmarr_cache_mode_t mode)
{
    if (state.prepared || state.disabled)
        return;
    resolve_locked();
    if (!state.directory) {
        disable_locked("%s", state.unresolved);
        return;
    }
    if (mode == USMARR_CACHE_ON) {
        int rc = make_directories(state.directory);
        if (rc) {
            disable_locked("cannot create %s: %s", state.directory, strerror(rc));
            return;
        }
    }
    struct stat st;
    if (stat(state.directory, &st) != 0) {
        disable_locked("%s: %s", state.directory, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        disable_locked("%s is not a directory", state.directory);
        return;
    }
    if (st.st_uid != geteuid() && st.st_uid != 0) {
        disable_locked("%s belongs to uid %u, not to this user", state.directory, (unsigned)st.st_uid);
        return;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        disable_locked("%s is writable by group or others (mode %03o)", state.directory,
                       (unsigned)(st.st_mode & 0777));
        return;
    }
    state.prepared = true;
}

/* What one operation needs, copied out under the lock. */
struct session {
    usmarr_cache_mode_t mode;
    uint64_t max_bytes;
    unsigned generation;
    char *directory;
    char *driver_override;
};

static void session_end(struct session *s)
{
    free(s->directory);
    free(s->driver_override);
}

/* False when the disk cache is not to be used: off, disabled, or the mode does not allow
 * writing and `write` is set. */
static bool session_begin(struct session *s, bool write)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&state_lock);
    s->mode = mode_locked();
    bool ok = s->mode == USMARR_CACHE_ON || (s->mode == USMARR_CACHE_READONLY && !write);
    if (ok)
        prepare_locked(s->mode);
    ok = ok && state.prepared && !state.disabled;
    if (ok) {
        s->max_bytes = state.max_bytes;
        s->generation = state.generation;
        s->directory = strdup(state.directory);
        s->driver_override = state.driver_override ? strdup(state.driver_override) : NULL;
        ok = s->directory && (!state.driver_override || s->driver_override);
    }
    pthread_mutex_unlock(&state_lock);
    if (!ok)
        session_end(s);
    return ok;
}

/* ---- keys ------------------------------------------------------------------------- */

struct key {
    unsigned char *bytes;
    size_t size, capacity;
    bool failed;
    char name[HASH_HEX + sizeof ENTRY_SUFFIX]; /* file name */
};

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
    put_u64(k->bytes + k->size, size);
    if (size)
        memcpy(k->bytes + k->size + 8, data, size);
    k->size = need;
}

static void key_append_u32(struct key *k, uint32_t v)
{
    unsigned char b[4];
    put_u32(b, v);
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

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void key_append_driver_environment(struct key *k)
{
    size_t n = 0, cap = 0;
    const char **vars = NULL;
    for (char **e = environ; e && *e; e++) {
        bool match = false;
        for (size_t i = 0; i < sizeof DRIVER_ENV_PREFIXES / sizeof *DRIVER_ENV_PREFIXES; i++)
            match |= strncmp(*e, DRIVER_ENV_PREFIXES[i], strlen(DRIVER_ENV_PREFIXES[i])) == 0;
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
static bool key_build(struct key *k, const struct usmarr__program_key *pk, const char *driver_override)
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

static void key_free(struct key *k) { free(k->bytes); }

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
        trace("miss %s: %s (read-only: left in place)", key_label(k), why);
        return;
    }
    struct stat opened, now;
    if (fd >= 0 && (fstat(fd, &opened) != 0 || stat(path, &now) != 0 || opened.st_ino != now.st_ino ||
                    opened.st_dev != now.st_dev)) {
        trace("miss %s: %s (already replaced)", key_label(k), why);
        return;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        disable(s->generation, "cannot delete %s: %s", path, strerror(errno));
        return;
    }
    atomic_fetch_add(&count_discards, 1);
    trace("miss %s: %s; entry deleted", key_label(k), why);
}

int usmarr__diskcache_load(const struct usmarr__program_key *pk, unsigned char **binary, size_t *size)
{
    if (!binary || !size)
        return -1;
    *binary = NULL;
    *size = 0;
    struct session s;
    if (!session_begin(&s, false))
        return -1;
    double t0 = now_ms();
    struct key k;
    if (!key_build(&k, pk, s.driver_override)) {
        trace("miss: the device cannot be described for a key");
        atomic_fetch_add(&count_misses, 1);
        session_end(&s);
        return -1;
    }
    int rc = -1;
    unsigned char *data = NULL;
    char *path = entry_path(s.directory, &k);
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
    const char *bad = NULL;
    if (fd < 0) {
        if (!path || errno == ENOENT)
            trace("miss %s: no entry", key_label(&k));
        else if (errno == ELOOP)
            bad = "a symbolic link";
        else
            disable(s.generation, "cannot open %s: %s", path, strerror(errno));
        goto done;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        disable(s.generation, "cannot stat %s: %s", path, strerror(errno));
        goto done;
    }
    uint64_t fixed = HEADER_BYTES + k.size + 8 + CHECKSUM_BYTES;
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
        trace("miss %s: out of memory", key_label(&k));
        goto done;
    }
    if (!read_all(fd, data, file_size)) {
        if (errno) {
            disable(s.generation, "cannot read %s: %s", path, strerror(errno));
            goto done;
        }
        bad = "short read";
        goto done;
    }
    XXH128_canonical_t stored;
    memcpy(&stored, data + file_size - CHECKSUM_BYTES, CHECKSUM_BYTES);
    XXH128_hash_t sum = XXH3_128bits(data, file_size - CHECKSUM_BYTES);
    uint64_t key_size = get_u64(data + 16), payload_size = get_u64(data + HEADER_BYTES + k.size);
    if (memcmp(data, ENTRY_MAGIC, sizeof ENTRY_MAGIC) != 0)
        bad = "bad magic";
    else if (get_u32(data + 8) != FORMAT_VERSION)
        bad = "other format version";
    else if (!XXH128_isEqual(sum, XXH128_hashFromCanonical(&stored)))
        bad = "checksum mismatch";
    else if (key_size != k.size || memcmp(data + HEADER_BYTES, k.bytes, k.size) != 0)
        bad = "stored key differs (hash collision or wrong entry)";
    else if (payload_size == 0 || payload_size != file_size - fixed)
        bad = "payload length mismatch";
    if (bad)
        goto done;
    *binary = malloc((size_t)payload_size);
    if (!*binary) {
        trace("miss %s: out of memory", key_label(&k));
        goto done;
    }
    memcpy(*binary, data + HEADER_BYTES + k.size + 8, (size_t)payload_size);
    *size = (size_t)payload_size;
    if (s.mode == USMARR_CACHE_ON)
        futimens(fd, NULL); /* least-recently-used order follows mtime */
    rc = 0;
    atomic_fetch_add(&count_hits, 1);
    trace("hit %s: %zu bytes in %.3f ms", key_label(&k), *size, now_ms() - t0);
done:
    if (bad)
        remove_bad_entry(&s, path, fd, bad, &k);
    if (rc)
        atomic_fetch_add(&count_misses, 1);
    if (fd >= 0)
        close(fd);
    free(data);
    free(path);
    key_free(&k);
    session_end(&s);
    return rc;
}

struct listed {
    char *name;
    uint64_t size;
    struct timespec mtime;
};

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
static int list_entries(const char *directory, bool sort, bool sweep, struct listed **out, size_t *count,
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
        bool entry = is_entry_name(e->d_name), temp = sweep && is_temp_name(e->d_name);
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

static void free_list(struct listed *list, size_t count)
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
    int rc = list_entries(s->directory, true, true, &list, &count, &bytes);
    if (rc && rc != ENOMEM) {
        disable(s->generation, "cannot list %s: %s", s->directory, strerror(rc));
        free_list(list, count);
        return;
    }
    for (size_t i = 0; i < count && bytes > s->max_bytes; i++) {
        char *path = concat(s->directory, "/");
        char *full = path ? concat(path, list[i].name) : NULL;
        free(path);
        if (!full)
            break;
        if (unlink(full) == 0) {
            atomic_fetch_add(&count_evictions, 1);
            trace("evict %.*s: %llu bytes (directory %llu bytes, cap %llu)", HASH_HEX, list[i].name,
                  (unsigned long long)list[i].size, (unsigned long long)bytes, (unsigned long long)s->max_bytes);
        } else if (errno != ENOENT) {
            disable(s->generation, "cannot evict %s: %s", full, strerror(errno));
            free(full);
            break;
        }
        bytes -= list[i].size;
        free(full);
    }
    free_list(list, count);
}

/* Writes header, key, payload and checksum to `fd`. */
static bool write_entry(int fd, const struct key *k, const unsigned char *binary, size_t size)
{
    unsigned char header[HEADER_BYTES], length[8];
    memcpy(header, ENTRY_MAGIC, sizeof ENTRY_MAGIC);
    put_u32(header + 8, FORMAT_VERSION);
    put_u32(header + 12, 0);
    put_u64(header + 16, k->size);
    put_u64(length, size);
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
    return write_all(fd, header, sizeof header) && write_all(fd, k->bytes, k->size) &&
           write_all(fd, length, sizeof length) && write_all(fd, binary, size) && write_all(fd, &sum, sizeof sum);
}

void usmarr__diskcache_store(const struct usmarr__program_key *pk, const unsigned char *binary, size_t size)
{
    if (!binary || !size)
        return;
    struct session s;
    if (!session_begin(&s, true))
        return;
    double t0 = now_ms();
    struct key k;
    char *path = NULL, *temp = NULL;
    int fd = -1;
    bool created = false;
    if (!key_build(&k, pk, s.driver_override)) {
        trace("store skipped: the device cannot be described for a key");
        session_end(&s);
        return;
    }
    uint64_t total = HEADER_BYTES + k.size + 8 + (uint64_t)size + CHECKSUM_BYTES;
    if (total > s.max_bytes || total > MAX_ENTRY_BYTES) {
        trace("store skipped %s: %llu bytes exceed the cap of %llu", key_label(&k), (unsigned long long)total,
              (unsigned long long)s.max_bytes);
        goto done;
    }
    path = entry_path(s.directory, &k);
    temp = concat(s.directory, "/" TEMP_PREFIX "XXXXXX");
    if (!path || !temp)
        goto done;
    fd = mkstemp(temp);
    if (fd < 0 && errno == ENOENT && make_directories(s.directory) == 0) { /* removed behind our back */
        memcpy(temp + strlen(temp) - 6, "XXXXXX", 6); /* a failed mkstemp leaves its last try there */
        fd = mkstemp(temp);
    }
    if (fd < 0) {
        disable(s.generation, "cannot create a file in %s: %s", s.directory, strerror(errno));
        goto done;
    }
    created = true;
    if (fchmod(fd, 0600) != 0 || !write_entry(fd, &k, binary, size)) {
        disable(s.generation, "cannot write %s: %s", temp, strerror(errno));
        goto done;
    }
    int closed = close(fd);
    fd = -1;
    if (closed != 0) {
        disable(s.generation, "cannot write %s: %s", temp, strerror(errno));
        goto done;
    }
    if (rename(temp, path) != 0) {
        disable(s.generation, "cannot rename %s to %s: %s", temp, path, strerror(errno));
        goto done;
    }
    created = false;
    atomic_fetch_add(&count_stores, 1);
    trace("store %s: %llu bytes in %.3f ms", key_label(&k), (unsigned long long)total, now_ms() - t0);
    enforce_cap(&s);
done:
    if (fd >= 0)
        close(fd);
    if (created)
        unlink(temp);
    free(temp);
    free(path);
    key_free(&k);
    session_end(&s);
}

void usmarr__diskcache_discard(const struct usmarr__program_key *pk)
{
    struct session s;
    if (!session_begin(&s, true))
        return;
    struct key k;
    if (key_build(&k, pk, s.driver_override)) {
        char *path = entry_path(s.directory, &k);
        if (path)
            remove_bad_entry(&s, path, -1, "the binary failed to build", &k);
        free(path);
        key_free(&k);
    }
    session_end(&s);
}

void usmarr__diskcache_trace(const char *event, const struct usmarr__program_key *pk, double ms)
{
    if (!usmarr__diskcache_tracing())
        return;
    char *override = NULL;
    pthread_mutex_lock(&state_lock);
    if (state.driver_override)
        override = strdup(state.driver_override);
    pthread_mutex_unlock(&state_lock);
    struct key k;
    if (key_build(&k, pk, override)) {
        trace("%s %s: %.3f ms", event ? event : "event", key_label(&k), ms);
        key_free(&k);
    } else {
        trace("%s: %.3f ms", event ? event : "event", ms);
    }
    free(override);
}

/* ---- settings and maintenance --------------------------------------------------------- */

void usmarr__diskcache_set_directory(const char *path)
{
    char *copy = path ? strdup(path) : NULL;
    pthread_mutex_lock(&state_lock);
    free(state.explicit_directory);
    free(state.directory);
    state.explicit_directory = copy;
    state.directory = NULL;
    state.unresolved = path && !copy ? "out of memory" : NULL;
    state.prepared = false;
    state.disabled = false;
    state.reason[0] = '\0';
    state.generation++;
    pthread_mutex_unlock(&state_lock);
}

void usmarr__diskcache_set_mode(usmarr_cache_mode_t mode)
{
    pthread_mutex_lock(&state_lock);
    init_locked();
    if (mode != mode_locked()) { /* "on" creates the directory, "readonly" does not: check again */
        state.prepared = false;
        state.disabled = false;
        state.reason[0] = '\0';
        state.generation++;
    }
    state.mode_set = true;
    state.mode = mode;
    pthread_mutex_unlock(&state_lock);
}

usmarr_cache_mode_t usmarr__diskcache_mode(void)
{
    pthread_mutex_lock(&state_lock);
    usmarr_cache_mode_t mode = mode_locked();
    pthread_mutex_unlock(&state_lock);
    return mode;
}

bool usmarr__diskcache_ready(char *reason, size_t reason_size)
{
    pthread_mutex_lock(&state_lock);
    usmarr_cache_mode_t mode = mode_locked();
    if (mode != USMARR_CACHE_OFF)
        prepare_locked(mode);
    bool ready = mode != USMARR_CACHE_OFF && state.prepared && !state.disabled;
    snprintf(reason, reason_size, "%s", ready ? "" : mode == USMARR_CACHE_OFF ? "the cache mode is off" : state.reason);
    pthread_mutex_unlock(&state_lock);
    return ready;
}

int usmarr__diskcache_directory(char *buffer, size_t size, size_t *needed, const char **why)
{
    int rc = 0;
    pthread_mutex_lock(&state_lock);
    init_locked();
    resolve_locked();
    if (!state.directory) {
        *why = state.unresolved;
        rc = ENOENT;
    } else {
        *needed = strlen(state.directory) + 1;
        if (*needed > size)
            rc = ERANGE;
        else
            memcpy(buffer, state.directory, *needed);
    }
    pthread_mutex_unlock(&state_lock);
    return rc;
}

/* The directory without preparing it (stats and clear never create it). */
static char *directory_copy(void)
{
    pthread_mutex_lock(&state_lock);
    init_locked();
    resolve_locked();
    char *d = state.directory ? strdup(state.directory) : NULL;
    pthread_mutex_unlock(&state_lock);
    return d;
}

int usmarr__diskcache_stats(usmarr_cache_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->hits = atomic_load(&count_hits);
    stats->misses = atomic_load(&count_misses);
    stats->stores = atomic_load(&count_stores);
    stats->evictions = atomic_load(&count_evictions);
    stats->discards = atomic_load(&count_discards);
    pthread_mutex_lock(&state_lock);
    stats->mode = mode_locked();
    stats->max_bytes = state.max_bytes;
    stats->disabled = state.disabled;
    snprintf(stats->reason, sizeof stats->reason, "%s", state.disabled ? state.reason : "");
    pthread_mutex_unlock(&state_lock);
    char *dir = directory_copy();
    if (!dir)
        return 0;
    struct listed *list;
    size_t count;
    uint64_t bytes;
    int rc = list_entries(dir, false, false, &list, &count, &bytes);
    free_list(list, count);
    free(dir);
    stats->entries = count;
    stats->bytes = bytes;
    return rc == ENOENT || rc == ENOTDIR ? 0 : rc;
}

int usmarr__diskcache_clear(size_t *removed, char *failed_path, size_t failed_path_size)
{
    *removed = 0;
    char *dir = directory_copy();
    if (!dir)
        return 0;
    DIR *d = opendir(dir);
    if (!d) {
        int rc = errno;
        snprintf(failed_path, failed_path_size, "list %s", dir);
        free(dir);
        return rc == ENOENT || rc == ENOTDIR ? 0 : rc;
    }
    int rc = 0;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        bool entry = is_entry_name(e->d_name);
        if (!entry && !is_temp_name(e->d_name))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
            continue;
        if (!entry && now - st.st_mtime <= STALE_TEMP_SECONDS)
            continue; /* maybe another process's write in progress */
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
            (*removed)++;
        } else if (errno != ENOENT) {
            rc = errno;
            snprintf(failed_path, failed_path_size, "delete %s/%s", dir, e->d_name);
            break;
        }
    }
    closedir(d);
    free(dir);
    return rc;
}

void usmarr__diskcache_reset(void)
{
    pthread_mutex_lock(&state_lock);
    free(state.explicit_directory);
    free(state.directory);
    free(state.driver_override);
    unsigned generation = state.generation + 1;
    memset(&state, 0, sizeof state);
    state.generation = generation;
    pthread_mutex_unlock(&state_lock);
    atomic_store(&tracing, -1);
    atomic_store(&count_hits, 0);
    atomic_store(&count_misses, 0);
    atomic_store(&count_stores, 0);
    atomic_store(&count_evictions, 0);
    atomic_store(&count_discards, 0);
}

void usmarr__diskcache_test_driver_version(const char *driver_version)
{
    char *copy = driver_version ? strdup(driver_version) : NULL;
    pthread_mutex_lock(&state_lock);
    free(state.driver_override);
    state.driver_override = copy;
    pthread_mutex_unlock(&state_lock);
}

bool usmarr__diskcache_entry_path(const struct usmarr__program_key *pk, char *buffer, size_t size)
{
    char *override = NULL;
    char *dir = directory_copy();
    pthread_mutex_lock(&state_lock);
    if (state.driver_override)
        override = strdup(state.driver_override);
    pthread_mutex_unlock(&state_lock);
    struct key k;
    bool ok = dir && key_build(&k, pk, override);
    if (ok) {
        ok = (size_t)snprintf(buffer, size, "%s/%s", dir, k.name) < size;
        key_free(&k);
    }
    free(override);
    free(dir);
    return ok;
}
