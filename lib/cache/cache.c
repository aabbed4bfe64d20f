/* The public usmarr_cache_* functions: argument checks and error details around the
 * disk-cache module (diskcache.c). */
#include "cache_internal.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* Provided by the kernel engine; absent (NULL) in a build without one. */

/* Leaves room for "/<32 hex>.clbin" and the temporary names under PATH_MAX. */
#define MAX_DIRECTORY_LENGTH (PATH_MAX - 64)

int usmarr_cache_set_directory(const char *path)
{
    usmarr__clear_error();
    if (path) {
        size_t n = strlen(path);
        if (n == 0)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "path is empty (NULL selects the default)");
        if (path[0] != '/')
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "path \"%s\" is not absolute", path);
        if (n > MAX_DIRECTORY_LENGTH)
            return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "path length %zu exceeds the limit %d", n,
                                MAX_DIRECTORY_LENGTH);
    }
    usmarr__diskcache_set_directory(path);
    return 0;
}

/* usmarr_cache_directory and (`system`) usmarr_cache_system_directory. */
static int directory_query(char *buffer, size_t size, bool system)
{
    usmarr__clear_error();
    if (!buffer)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    size_t needed = 0;
    char why[256] = "";
    const char *reason = NULL;
    int rc = system ? usmarr__diskcache_system_directory(buffer, size, &needed, why, sizeof why)
                    : usmarr__diskcache_directory(buffer, size, &needed, &reason);
    if (rc == ERANGE)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "size=%zu is less than the %zu bytes the path needs", size,
                            needed);
    if (rc)
        return usmarr__fail(USMARR_ERROR_IO, "%s: %s", system ? "no system cache" : "no cache directory",
                            system ? why : reason ? reason : "unknown reason");
    return 0;
}

int usmarr_cache_directory(char *buffer, size_t size) { return directory_query(buffer, size, false); }

int usmarr_cache_system_directory(char *buffer, size_t size) { return directory_query(buffer, size, true); }

int usmarr_cache_set_mode(usmarr_cache_mode_t mode)
{
    usmarr__clear_error();
    if (mode != USMARR_CACHE_OFF && mode != USMARR_CACHE_ON && mode != USMARR_CACHE_READONLY)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "mode=%d is not USMARR_CACHE_OFF (0), _ON (1) or _READONLY (2)",
                            (int)mode);
    usmarr__diskcache_set_mode(mode);
    return 0;
}

int usmarr_cache_get_stats(usmarr_cache_stats_t *stats)
{
    usmarr__clear_error();
    if (!stats)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "stats is NULL");
    int rc = usmarr__diskcache_stats(stats);
    if (rc) {
        char dir[PATH_MAX];
        if (usmarr_cache_directory(dir, sizeof dir) != 0)
            dir[0] = '\0';
        return usmarr__fail(USMARR_ERROR_IO, "cannot list the cache directory %s: %s", dir, strerror(rc));
    }
    return 0;
}

int usmarr_cache_clear(size_t *removed)
{
    usmarr__clear_error();
    size_t count = 0;
    if (removed)
        *removed = 0;
    if (usmarr__diskcache_mode() == USMARR_CACHE_READONLY)
        return usmarr__fail(USMARR_ERROR_BAD_STATE, "the cache mode is readonly (USMARR_CACHE or usmarr_cache_set_mode)");
    char failed[PATH_MAX + 64] = "";
    int rc = usmarr__diskcache_clear(&count, failed, sizeof failed);
    if (removed)
        *removed = count;
    if (rc)
        return usmarr__fail(USMARR_ERROR_IO, "cannot %s: %s (%zu files deleted before)", failed, strerror(rc),
                            count);
    return 0;
}

/* Prewarm and tune store into the disk cache: it must be on and usable. */
static int writable_cache(void)
{
    usmarr_cache_mode_t mode = usmarr__diskcache_mode();
    if (mode != USMARR_CACHE_ON)
        return usmarr__fail(USMARR_ERROR_BAD_STATE, "the cache mode is %s, not on",
                            mode == USMARR_CACHE_OFF ? "off" : "readonly");
    char reason[256];
    if (!usmarr__diskcache_ready(reason, sizeof reason))
        return usmarr__fail(USMARR_ERROR_BAD_STATE, "the disk cache is disabled: %s", reason);
    return 0;
}

int usmarr_cache_prewarm(usmarr_context_t *context)
{
    usmarr__clear_error();
    if (!context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context is NULL");
    int rc = writable_cache();
    if (rc)
        return rc;
    char reason[256];
    rc = usmarr__engine_prewarm(context);
    if (rc == 0 && !usmarr__diskcache_ready(reason, sizeof reason))
        return usmarr__fail(USMARR_ERROR_IO, "the kernels compiled but could not be stored: %s", reason);
    return rc;
}

int usmarr_cache_tune(usmarr_context_t *context, double budget_seconds, char *report, size_t report_size)
{
    usmarr__clear_error();
    if (!context)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "context is NULL");
    if (!(budget_seconds > 0 && budget_seconds <= 3600))
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "budget_seconds=%g is outside (0, 3600]", budget_seconds);
    if (!report && report_size)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "report is NULL but report_size=%zu", report_size);
    int rc = writable_cache();
    if (rc)
        return rc;
    rc = usmarr__engine_tune(context, budget_seconds, report, report_size);
    char reason[256];
    if (rc == 0 && !usmarr__diskcache_ready(reason, sizeof reason))
        return usmarr__fail(USMARR_ERROR_IO, "the tuned shape could not be stored: %s", reason);
    return rc;
}

int usmarr_cache_kernel_shape(const usmarr_context_t *context, char *buffer, size_t size)
{
    usmarr__clear_error();
    if (!context || !buffer)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !context ? "context" : "buffer");
    char text[320];
    int n = usmarr__kernel_shape_format(&context->shape, text, sizeof text);
    int len = snprintf(NULL, 0, "%s (%s)", text, context->shape.origin ? context->shape.origin : "table");
    if (n < 0 || (size_t)len >= size)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "size=%zu: the text needs %d bytes", size, len + 1);
    snprintf(buffer, size, "%s (%s)", text, context->shape.origin ? context->shape.origin : "table");
    return 0;
}

const char *usmarr_cache_tune_candidate(size_t index) { return usmarr__tune_candidate(index); }
