/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/cache.h"
#endif
#ifndef USMARR_CACHE_H
#define USMARR_CACHE_H

/** @name Kernel cache on disk
 * Compiled kernels are kept in memory per context and, across processes, as program
 * binaries in a cache directory (see doc/cache.md).  The directory is,
 * in order: the path given to usmarr_cache_set_directory(), the environment variable
 * `USMARR_CACHE_DIR`, `$XDG_CACHE_HOME/usmarr`, `~/.cache/usmarr` (home from `HOME`, else
 * the password database).  The mode comes from usmarr_cache_set_mode(), else `USMARR_CACHE`
 * (`off`, `on` — the default —, `readonly`); the size cap from `USMARR_CACHE_MAX_BYTES`
 * (default 256 MiB; suffixes K, M, G); `USMARR_CACHE_TRACE=1` prints every hit, miss,
 * store and eviction with its time to stderr.
 *
 * After a miss there, the *system cache* is read: a directory of binaries built when the
 * library was installed (`$(pkglibdir)/kernels`, filled by `make install`; the
 * environment variable `USMARR_CACHE_SYSTEM_DIR` names another, and any value that is not
 * an absolute path, such as `off`, turns it off).  It is never written, and its entries
 * are keyed and checked exactly as the directory's, so that a driver or library change is
 * a miss.
 *
 * The cache never fails a kernel operation: a bad entry is a miss and is deleted, and a
 * directory that cannot be created, read or written disables the disk cache for the rest
 * of the process (usmarr_cache_get_stats() says why).  The settings are process-wide and
 * every function here is thread-safe.
 * @{ */

/** How the disk cache is used. */
typedef enum usmarr_cache_mode {
    USMARR_CACHE_OFF = 0,     /**< neither read nor written */
    USMARR_CACHE_ON = 1,      /**< read, written, evicted (the default) */
    USMARR_CACHE_READONLY = 2 /**< read only: serves a pre-warmed cache, never modifies it */
} usmarr_cache_mode_t;

/** Counters of this process and a snapshot of the directory. */
typedef struct usmarr_cache_stats {
    uint64_t hits;       /**< loads served from disk by this process */
    uint64_t misses;     /**< loads that found no valid entry */
    uint64_t stores;     /**< entries written */
    uint64_t evictions;  /**< entries removed to respect the size cap */
    uint64_t discards;   /**< invalid entries removed (corrupt, wrong key, binary failed to build) */
    uint64_t entries;    /**< entries now in the directory */
    uint64_t bytes;      /**< their total size in bytes */
    uint64_t max_bytes;  /**< the size cap */
    usmarr_cache_mode_t mode; /**< the current mode */
    bool disabled;       /**< a file-system failure disabled the disk cache for this process */
    char reason[256];    /**< why it is disabled; empty otherwise */
} usmarr_cache_stats_t;

/** @brief Sets the cache directory for this process, overriding the environment.
 *
 *  The directory is created (mode 0700, parents too) when the first entry is stored.
 *  Setting a directory also lifts an earlier "disabled" state.
 *  @param path an absolute path (copied), or NULL to return to the default resolution
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p path is empty, relative, or longer than
 *          the limit the detail names */
USMARR_API USMARR_NODISCARD int usmarr_cache_set_directory(const char *path);

/** @brief Writes the directory the cache uses (after resolution) into @p buffer.
 *  @param buffer receives a NUL-terminated path
 *  @param size the size of @p buffer in bytes
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p buffer is NULL, or @p size is smaller than
 *          the length the detail names
 *  @retval USMARR_ERROR_IO no directory can be resolved (no setting, no environment
 *          variable, no home directory) */
USMARR_API USMARR_NODISCARD int usmarr_cache_directory(char *buffer, size_t size);

/** @brief Writes the system cache's directory (read after the cache directory, never
 *  written) into @p buffer.
 *  @param buffer receives a NUL-terminated path
 *  @param size the size of @p buffer in bytes
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p buffer is NULL, or @p size is smaller than
 *          the length the detail names
 *  @retval USMARR_ERROR_IO there is no system cache: turned off, not configured, missing,
 *          or not safe to trust (the detail says which) */
USMARR_API USMARR_NODISCARD int usmarr_cache_system_directory(char *buffer, size_t size);

/** @brief Sets the mode for this process, overriding `USMARR_CACHE`.
 *  @param mode one of ::usmarr_cache_mode
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p mode is not a ::usmarr_cache_mode value */
USMARR_API USMARR_NODISCARD int usmarr_cache_set_mode(usmarr_cache_mode_t mode);

/** @brief Reports this process's counters and the directory's entries and bytes.
 *  @param[out] stats filled on success
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p stats is NULL
 *  @retval USMARR_ERROR_IO the directory exists but cannot be listed (the counters are
 *          filled all the same) */
USMARR_API USMARR_NODISCARD int usmarr_cache_get_stats(usmarr_cache_stats_t *stats);

/** @brief Deletes every cache entry in the directory (and temporary files left behind by
 *  crashed writers); other files are never touched.
 *  @param[out] removed the number of files deleted; may be NULL
 *  @return 0 on success (also when the directory does not exist)
 *  @retval USMARR_ERROR_BAD_STATE the mode is ::USMARR_CACHE_READONLY
 *  @retval USMARR_ERROR_IO a file could not be deleted or the directory not listed
 *          (the detail names it) */
USMARR_API USMARR_NODISCARD int usmarr_cache_clear(size_t *removed);

/** @brief Compiles the library's common kernels for the context's device and stores
 *  them, so that later processes start warm: casts between every pair of dtypes, common
 *  elementwise functions and reductions, and a 2-D strided copy, each run once on tiny
 *  arrays of every dtype, and a sort of a 1000-element row of float32, float64, int32
 *  and int64 (`usmarr cache prewarm all` does every device side by side).  The
 *  environment variable `USMARR_PREWARM_DTYPES`, a comma-separated list of dtype names
 *  (`float32,int64`), limits the arrays to those dtypes (the casts still go from each of
 *  them to every dtype).
 *  @param context the device to compile for (borrowed)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p context is NULL, or `USMARR_PREWARM_DTYPES`
 *          names something that is not a dtype (the detail quotes it)
 *  @retval USMARR_ERROR_BAD_STATE the mode is not ::USMARR_CACHE_ON, or the disk cache
 *          is disabled (the detail says why)
 *  @retval USMARR_ERROR_ALLOCATION a small USM array could not be allocated
 *  @retval USMARR_ERROR_BUILD a kernel failed to compile
 *  @retval USMARR_ERROR_IO the kernels compiled but writing them failed, which disabled
 *          the disk cache (the detail says why) */
USMARR_API USMARR_NODISCARD int usmarr_cache_prewarm(usmarr_context_t *context);

/** @brief Times the candidate kernel shapes on the context's device and keeps the
 *  fastest, for this context and in the disk cache for every later context on the device.
 *
 *  A kernel shape says how the engine shapes its kernels on a device: work-group sizes
 *  and elements per work-item of contiguous maps, non-temporal stores for large outputs,
 *  inner strides of 0 and 1 compiled in, the work-groups of 2-D maps and whether their
 *  rows run as 16-vectors, the transpose's kernel and the reductions' (doc/engine.md,
 *  "Kernel shapes per device" and "Tuning").  Until a device
 *  is tuned its contexts use a table chosen by the driver's name.  The questions are timed
 *  one after the other, each candidate interleaved with the others and judged by the
 *  median over the rounds of its time over the shape in use's; a question left when @p budget_seconds is spent keeps the table's value (the
 *  whole run takes a few seconds more: each question runs at least five rounds).  Not
 *  while other threads use @p context.  `usmarr cache tune [SEL|all]` runs it, and
 *  `usmarr cache prewarm` runs it for a device not yet tuned.  `USMARR_KERNEL_SHAPE`
 *  still overrides the stored choice.
 *  @param context the device to tune (borrowed); its shape becomes the chosen one
 *  @param budget_seconds time to spend, compiles included, in (0, 3600]; 25 suits a CPU
 *         (`usmarr cache tune`'s default; a question started still runs its compiles and
 *         five rounds, so a run may end that much later)
 *  @param report receives what was timed (one line per question, each candidate's
 *         median time and its median ratio to the shape in use, the winner starred) and the chosen shape; may be NULL
 *  @param report_size the size of @p report in bytes (a longer report is cut)
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p context is NULL, @p budget_seconds is outside
 *          (0, 3600], or @p report is NULL with a non-zero @p report_size
 *  @retval USMARR_ERROR_BAD_STATE the mode is not ::USMARR_CACHE_ON, or the disk cache
 *          is disabled (the detail says why)
 *  @retval USMARR_ERROR_ALLOCATION the workloads' arrays (about 100 MiB) could not be allocated
 *  @retval USMARR_ERROR_IO the choice could not be stored (the detail says why) */
USMARR_API USMARR_NODISCARD int usmarr_cache_tune(usmarr_context_t *context, double budget_seconds, char *report,
                                                  size_t report_size);

/** @brief Writes the kernel shape the context uses, and where it came from, into @p buffer:
 *  `<shape> (<origin>)`, e.g. `pocl-cpu contig=vec16/256 nt=0 rows=1 rowgroup=128x2
 *  rowvec=64 masks=1 tile=0 s2=16 tree=0 (tuned)`; the origin is `table` (chosen by the driver's
 *  name), `tuned` (usmarr_cache_tune()'s choice from the disk cache) or `forced`
 *  (`USMARR_KERNEL_SHAPE`, which takes the same text, whole or in part).
 *  @param context the context (borrowed)
 *  @param buffer receives a NUL-terminated text
 *  @param size the size of @p buffer in bytes
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p context or @p buffer is NULL, or @p size is
 *          smaller than the length the detail names */
USMARR_API USMARR_NODISCARD int usmarr_cache_kernel_shape(const usmarr_context_t *context, char *buffer, size_t size);

/** @brief The tuner's candidates, one per call, as `USMARR_KERNEL_SHAPE` text of the fields
 *  each changes (e.g. `contig=one/256`), so that each can be forced and tested alone.
 *  @param index from 0
 *  @return a static string, or NULL past the last candidate */
USMARR_API const char *usmarr_cache_tune_candidate(size_t index);

/** @} */

#endif
