/* The on-disk cache of program binaries: keys, self-validating entries, atomic writes,
 * the directory and mode settings, the size cap with LRU eviction, counters and trace.
 * Documentation: doc/cache.md.
 *
 * This file uses nothing from the rest of the library (no usmarr__fail: nothing here
 * fails a caller), so that tests can compile it into their own programs and drive it
 * through its internal interface. */
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static atomic_int tracing = -1; /* -1: not read yet */
pthread_mutex_t usmarr__dc_lock = PTHREAD_MUTEX_INITIALIZER;
struct usmarr__dc_settings usmarr__dc_state;
atomic_uint_fast64_t usmarr__dc_count_hits, usmarr__dc_count_misses, usmarr__dc_count_stores,
    usmarr__dc_count_evictions, usmarr__dc_count_discards;

/* ---- small helpers ------------------------------------------------------------------ */

double usmarr__dc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool usmarr__diskcache_tracing(void) { return usmarr__env_switch(&tracing, "USMARR_CACHE_TRACE"); }

void usmarr__dc_trace(const char *format, ...)
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

char *usmarr__dc_concat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

void usmarr__dc_put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
void usmarr__dc_put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
uint32_t usmarr__dc_get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
uint64_t usmarr__dc_get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Writes or reads exactly `size` bytes, through interruptions and short transfers; false
 * on an error (errno set), a write that made no progress (EIO) or a short file (errno 0). */
static bool transfer_all(int fd, unsigned char *p, size_t size, bool writing)
{
    while (size) {
        ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = writing ? EIO : 0;
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

bool usmarr__dc_write_all(int fd, const void *data, size_t size)
{
    return transfer_all(fd, (unsigned char *)data, size, true); /* only written from */
}

/* Reads exactly `size` bytes; false on an error (errno set) or a short file (errno 0). */
bool usmarr__dc_read_all(int fd, void *data, size_t size) { return transfer_all(fd, data, size, false); }

/* "<32 hex>.clbin" */
bool usmarr__dc_is_entry_name(const char *name)
{
    size_t n = strlen(name);
    if (n != HASH_HEX + strlen(ENTRY_SUFFIX) || strcmp(name + HASH_HEX, ENTRY_SUFFIX) != 0)
        return false;
    for (size_t i = 0; i < HASH_HEX; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return true;
}

/* Temporary files of writers and lock files of compiles: removed when older than an hour
 * (left behind by a crash). */
bool usmarr__dc_is_temp_name(const char *name)
{
    return strncmp(name, TEMP_PREFIX, strlen(TEMP_PREFIX)) == 0 || strncmp(name, LOCK_PREFIX, strlen(LOCK_PREFIX)) == 0;
}

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
    usmarr__dc_trace("USMARR_CACHE=\"%s\" is not off, on or readonly; using on", v);
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
        usmarr__dc_trace("USMARR_CACHE_MAX_BYTES=\"%s\" is not a size; using %llu", v, (unsigned long long)DEFAULT_MAX_BYTES);
        return DEFAULT_MAX_BYTES;
    }
    return (uint64_t)n << shift;
}

static void init_locked(void)
{
    if (usmarr__dc_state.initialized)
        return;
    usmarr__dc_state.env_mode = parse_mode(getenv("USMARR_CACHE"));
    usmarr__dc_state.max_bytes = parse_size(getenv("USMARR_CACHE_MAX_BYTES"));
    usmarr__dc_state.initialized = true;
}

usmarr_cache_mode_t usmarr__dc_mode_locked(void)
{
    init_locked();
    return usmarr__dc_state.mode_set ? usmarr__dc_state.mode : usmarr__dc_state.env_mode;
}

static void disable_locked(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void disable_locked(const char *format, ...)
{
    if (usmarr__dc_state.disabled)
        return;
    usmarr__dc_state.disabled = true;
    va_list ap;
    va_start(ap, format);
    vsnprintf(usmarr__dc_state.reason, sizeof usmarr__dc_state.reason, format, ap);
    va_end(ap);
    usmarr__dc_trace("disabled for this process: %s", usmarr__dc_state.reason);
}

/* Disables the cache for a failure seen outside the lock, unless the directory changed
 * in the meantime. */
void usmarr__dc_disable(unsigned generation, const char *format, ...)
{
    char reason[sizeof usmarr__dc_state.reason];
    va_list ap;
    va_start(ap, format);
    vsnprintf(reason, sizeof reason, format, ap);
    va_end(ap);
    pthread_mutex_lock(&usmarr__dc_lock);
    if (generation == usmarr__dc_state.generation)
        disable_locked("%s", reason);
    pthread_mutex_unlock(&usmarr__dc_lock);
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
    if (usmarr__dc_state.directory || usmarr__dc_state.unresolved)
        return;
    const char *env;
    if (usmarr__dc_state.explicit_directory) {
        usmarr__dc_state.directory = strdup(usmarr__dc_state.explicit_directory);
    } else if ((env = getenv("USMARR_CACHE_DIR")) && env[0] == '/') {
        usmarr__dc_state.directory = strdup(env);
    } else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') {
        usmarr__dc_state.directory = usmarr__dc_concat(env, "/usmarr");
    } else {
        char *home = home_directory();
        if (home) {
            usmarr__dc_state.directory = usmarr__dc_concat(strcmp(home, "/") ? home : "", "/.cache/usmarr");
            free(home);
        } else {
            usmarr__dc_state.unresolved = "no USMARR_CACHE_DIR, XDG_CACHE_HOME or HOME, and no home directory in the "
                               "password database";
            return;
        }
    }
    if (!usmarr__dc_state.directory)
        usmarr__dc_state.unresolved = "out of memory";
}

/* mkdir -p with mode 0700 for every directory it creates. */
int usmarr__dc_make_directories(const char *path)
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
    if (usmarr__dc_state.prepared || usmarr__dc_state.disabled)
        return;
    resolve_locked();
    if (!usmarr__dc_state.directory) {
        disable_locked("%s", usmarr__dc_state.unresolved);
        return;
    }
    if (mode == USMARR_CACHE_ON) {
        int rc = usmarr__dc_make_directories(usmarr__dc_state.directory);
        if (rc) {
            disable_locked("cannot create %s: %s", usmarr__dc_state.directory, strerror(rc));
            return;
        }
    }
    struct stat st;
    if (stat(usmarr__dc_state.directory, &st) != 0) {
        disable_locked("%s: %s", usmarr__dc_state.directory, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        disable_locked("%s is not a directory", usmarr__dc_state.directory);
        return;
    }
    if (st.st_uid != geteuid() && st.st_uid != 0) {
        disable_locked("%s belongs to uid %u, not to this user", usmarr__dc_state.directory, (unsigned)st.st_uid);
        return;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        disable_locked("%s is writable by group or others (mode %03o)", usmarr__dc_state.directory,
                       (unsigned)(st.st_mode & 0777));
        return;
    }
    usmarr__dc_state.prepared = true;
}


/* The system cache: $USMARR_CACHE_SYSTEM_DIR when set (an absolute path; anything else,
 * such as "off" or "", means none), else the directory the library was configured with
 * (USMARR_SYSTEM_CACHE_DIR, $(pkglibdir)/kernels).  It is only ever read, so it is not
 * created; like the cache directory it must belong to the user or to root and be
 * writable by nobody else. */
static void resolve_system_locked(void)
{
    if (usmarr__dc_state.system_resolved)
        return;
    usmarr__dc_state.system_resolved = true;
    free(usmarr__dc_state.system_directory);
    usmarr__dc_state.system_directory = NULL;
    char *none = usmarr__dc_state.system_none;
    size_t none_size = sizeof usmarr__dc_state.system_none;
    const char *env = getenv("USMARR_CACHE_SYSTEM_DIR");
#ifdef USMARR_SYSTEM_CACHE_DIR
    const char *dir = env ? env : USMARR_SYSTEM_CACHE_DIR;
#else
    const char *dir = env;
#endif
    struct stat st;
    if (!dir)
        snprintf(none, none_size, "no system cache was configured");
    else if (dir[0] != '/')
        snprintf(none, none_size, "USMARR_CACHE_SYSTEM_DIR=\"%s\" (not an absolute path) turns it off", dir);
    else if (stat(dir, &st) != 0)
        snprintf(none, none_size, "%s: %s", dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        snprintf(none, none_size, "%s is not a directory", dir);
    else if (st.st_uid != geteuid() && st.st_uid != 0)
        snprintf(none, none_size, "%s belongs to uid %u, not to this user or root", dir, (unsigned)st.st_uid);
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(none, none_size, "%s is writable by group or others (mode %03o)", dir, (unsigned)(st.st_mode & 0777));
    else if (!(usmarr__dc_state.system_directory = strdup(dir)))
        snprintf(none, none_size, "out of memory");
    if (!usmarr__dc_state.system_directory && dir && dir[0] == '/')
        usmarr__dc_trace("no system cache: %s", none);
}

void usmarr__dc_session_end(struct session *s)
{
    free(s->directory);
    free(s->driver_override);
    free(s->system_directory);
}

bool usmarr__dc_session_begin_load(struct session *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&usmarr__dc_lock);
    s->mode = usmarr__dc_mode_locked();
    bool ok = s->mode != USMARR_CACHE_OFF;
    if (ok) {
        prepare_locked(s->mode);
        resolve_system_locked();
        s->generation = usmarr__dc_state.generation;
        s->max_bytes = usmarr__dc_state.max_bytes;
        bool user = usmarr__dc_state.prepared && !usmarr__dc_state.disabled;
        s->directory = user ? strdup(usmarr__dc_state.directory) : NULL;
        s->system_directory =
            usmarr__dc_state.system_directory ? strdup(usmarr__dc_state.system_directory) : NULL;
        s->driver_override = usmarr__dc_state.driver_override ? strdup(usmarr__dc_state.driver_override) : NULL;
        ok = (s->directory || s->system_directory) && (!user || s->directory) &&
             (!usmarr__dc_state.system_directory || s->system_directory) &&
             (!usmarr__dc_state.driver_override || s->driver_override);
    }
    pthread_mutex_unlock(&usmarr__dc_lock);
    if (!ok)
        usmarr__dc_session_end(s);
    return ok;
}

int usmarr__diskcache_system_directory(char *buffer, size_t size, size_t *needed, char *why, size_t why_size)
{
    int rc = 0;
    pthread_mutex_lock(&usmarr__dc_lock);
    resolve_system_locked();
    const char *dir = usmarr__dc_state.system_directory;
    if (!dir) {
        snprintf(why, why_size, "%s", usmarr__dc_state.system_none);
        rc = ENOENT;
    } else {
        *needed = strlen(dir) + 1;
        if (*needed > size)
            rc = ERANGE;
        else
            memcpy(buffer, dir, *needed);
    }
    pthread_mutex_unlock(&usmarr__dc_lock);
    return rc;
}

/* False when the disk cache is not to be used: off, disabled, or the mode does not allow
 * writing and `write` is set. */
bool usmarr__dc_session_begin(struct session *s, bool write)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&usmarr__dc_lock);
    s->mode = usmarr__dc_mode_locked();
    bool ok = s->mode == USMARR_CACHE_ON || (s->mode == USMARR_CACHE_READONLY && !write);
    if (ok)
        prepare_locked(s->mode);
    ok = ok && usmarr__dc_state.prepared && !usmarr__dc_state.disabled;
    if (ok) {
        s->max_bytes = usmarr__dc_state.max_bytes;
        s->generation = usmarr__dc_state.generation;
        s->directory = strdup(usmarr__dc_state.directory);
        s->driver_override = usmarr__dc_state.driver_override ? strdup(usmarr__dc_state.driver_override) : NULL;
        ok = s->directory && (!usmarr__dc_state.driver_override || s->driver_override);
    }
    pthread_mutex_unlock(&usmarr__dc_lock);
    if (!ok)
        usmarr__dc_session_end(s);
    return ok;
}

/* ---- settings and maintenance --------------------------------------------------------- */

void usmarr__diskcache_set_directory(const char *path)
{
    char *copy = path ? strdup(path) : NULL;
    pthread_mutex_lock(&usmarr__dc_lock);
    free(usmarr__dc_state.explicit_directory);
    free(usmarr__dc_state.directory);
    usmarr__dc_state.explicit_directory = copy;
    usmarr__dc_state.directory = NULL;
    usmarr__dc_state.unresolved = path && !copy ? "out of memory" : NULL;
    usmarr__dc_state.prepared = false;
    usmarr__dc_state.disabled = false;
    usmarr__dc_state.reason[0] = '\0';
    usmarr__dc_state.system_resolved = false; /* the environment is read again, too */
    usmarr__dc_state.generation++;
    pthread_mutex_unlock(&usmarr__dc_lock);
}

void usmarr__diskcache_set_mode(usmarr_cache_mode_t mode)
{
    pthread_mutex_lock(&usmarr__dc_lock);
    init_locked();
    if (mode != usmarr__dc_mode_locked()) { /* "on" creates the directory, "readonly" does not: check again */
        usmarr__dc_state.prepared = false;
        usmarr__dc_state.disabled = false;
        usmarr__dc_state.reason[0] = '\0';
        usmarr__dc_state.generation++;
    }
    usmarr__dc_state.mode_set = true;
    usmarr__dc_state.mode = mode;
    pthread_mutex_unlock(&usmarr__dc_lock);
}

usmarr_cache_mode_t usmarr__diskcache_mode(void)
{
    pthread_mutex_lock(&usmarr__dc_lock);
    usmarr_cache_mode_t mode = usmarr__dc_mode_locked();
    pthread_mutex_unlock(&usmarr__dc_lock);
    return mode;
}

bool usmarr__diskcache_ready(char *reason, size_t reason_size)
{
    pthread_mutex_lock(&usmarr__dc_lock);
    usmarr_cache_mode_t mode = usmarr__dc_mode_locked();
    if (mode != USMARR_CACHE_OFF)
        prepare_locked(mode);
    bool ready = mode != USMARR_CACHE_OFF && usmarr__dc_state.prepared && !usmarr__dc_state.disabled;
    snprintf(reason, reason_size, "%s", ready ? "" : mode == USMARR_CACHE_OFF ? "the cache mode is off" : usmarr__dc_state.reason);
    pthread_mutex_unlock(&usmarr__dc_lock);
    return ready;
}

int usmarr__diskcache_directory(char *buffer, size_t size, size_t *needed, const char **why)
{
    int rc = 0;
    pthread_mutex_lock(&usmarr__dc_lock);
    init_locked();
    resolve_locked();
    if (!usmarr__dc_state.directory) {
        *why = usmarr__dc_state.unresolved;
        rc = ENOENT;
    } else {
        *needed = strlen(usmarr__dc_state.directory) + 1;
        if (*needed > size)
            rc = ERANGE;
        else
            memcpy(buffer, usmarr__dc_state.directory, *needed);
    }
    pthread_mutex_unlock(&usmarr__dc_lock);
    return rc;
}

/* The directory without preparing it (stats and clear never create it). */
char *usmarr__dc_directory_copy(void)
{
    pthread_mutex_lock(&usmarr__dc_lock);
    init_locked();
    resolve_locked();
    char *d = usmarr__dc_state.directory ? strdup(usmarr__dc_state.directory) : NULL;
    pthread_mutex_unlock(&usmarr__dc_lock);
    return d;
}


int usmarr__diskcache_clear(size_t *removed, char *failed_path, size_t failed_path_size)
{
    *removed = 0;
    char *dir = usmarr__dc_directory_copy();
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
        bool entry = usmarr__dc_is_entry_name(e->d_name);
        if (!entry && !usmarr__dc_is_temp_name(e->d_name))
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
    pthread_mutex_lock(&usmarr__dc_lock);
    free(usmarr__dc_state.explicit_directory);
    free(usmarr__dc_state.directory);
    free(usmarr__dc_state.driver_override);
    free(usmarr__dc_state.system_directory);
    unsigned generation = usmarr__dc_state.generation + 1;
    memset(&usmarr__dc_state, 0, sizeof usmarr__dc_state);
    usmarr__dc_state.generation = generation;
    pthread_mutex_unlock(&usmarr__dc_lock);
    atomic_store(&tracing, -1);
    atomic_store(&usmarr__dc_count_hits, 0);
    atomic_store(&usmarr__dc_count_misses, 0);
    atomic_store(&usmarr__dc_count_stores, 0);
    atomic_store(&usmarr__dc_count_evictions, 0);
    atomic_store(&usmarr__dc_count_discards, 0);
}

void usmarr__diskcache_test_driver_version(const char *driver_version)
{
    char *copy = driver_version ? strdup(driver_version) : NULL;
    pthread_mutex_lock(&usmarr__dc_lock);
    free(usmarr__dc_state.driver_override);
    usmarr__dc_state.driver_override = copy;
    pthread_mutex_unlock(&usmarr__dc_lock);
}

