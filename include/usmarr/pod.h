/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/pod.h"
#endif
#ifndef USMARR_POD_H
#define USMARR_POD_H

/** @name Pod allocator: growable USM blocks for results of unknown size
 *
 * A memory block with an allocator API of three functions (`allocate`, `resize`,
 * `finalize`), after DyND's "memory block pod allocator" (doc/glossary.md, "Pod
 * allocator"), on USM memory blocks.  A pod block starts
 * empty and unfinished.  A producer that does not know how many bytes it will write
 * (boolean extraction, nonzero, ...) calls `allocate` with an upper bound or a guess,
 * `resize` to grow (possibly moving the bytes to a new USM allocation) or to shrink once
 * it knows, and `finalize` to trim the allocation to the bytes in use and freeze the
 * block.  After `finalize` the block is an ordinary, immutable-layout memory block that
 * arrays can be made over; every further `allocate`, `resize` or `finalize` fails with
 * ::USMARR_ERROR_BAD_STATE.
 *
 * Differences from DyND's API, forced by USM:
 * - Allocations are reported as byte offsets from the block's base pointer
 *   (`[begin, end)`), not as pointers: growing a USM allocation means moving the whole
 *   block, which would leave earlier pointers dangling, while offsets stay valid.  The
 *   current base is usmarr_memory_pointer(); it may change at every `allocate` or
 *   `resize` until `finalize`.
 * - While unfinished, usmarr_memory_size() is the end of the most recent allocation (the
 *   bytes in use), so copies into an allocation work; the capacity behind it is private.
 * - An unfinished block must not be shared: `allocate`, `resize` and `finalize` fail with
 *   ::USMARR_ERROR_BAD_STATE while the block's reference count exceeds 1 (for instance
 *   while an array is made over it), since moving or trimming it could cut under that
 *   array.  Make arrays after `finalize`.
 * - An unfinished block is not thread-safe: one producer builds it.
 * @{ */

/** The allocator's table of three functions; see the individual functions below. */
typedef struct usmarr_pod_allocator_api {
    /** usmarr_memory_pod_allocate() */
    int (*allocate)(usmarr_memory_t *self, size_t size_bytes, size_t alignment, size_t *out_begin,
                    size_t *out_end);
    /** usmarr_memory_pod_resize() */
    int (*resize)(usmarr_memory_t *self, size_t size_bytes, size_t *inout_begin, size_t *inout_end);
    /** usmarr_memory_pod_finalize() */
    int (*finalize)(usmarr_memory_t *self);
} usmarr_pod_allocator_api_t;

/** State of a memory block with respect to the pod allocator. */
typedef enum usmarr_pod_state {
    USMARR_POD_NONE = 0,      /**< an ordinary block (usmarr_memory_create(), usmarr_memory_wrap()) */
    USMARR_POD_BUILDING = 1,  /**< a pod block that still accepts allocate/resize/finalize */
    USMARR_POD_FINALIZED = 2  /**< a pod block after finalize: frozen */
} usmarr_pod_state_t;

/** @brief Creates an empty, unfinished pod block.
 *  @param context the context to allocate on (borrowed; the block retains it)
 *  @param kind USM kind of every allocation the block makes
 *  @param capacity bytes to reserve now (0 reserves nothing until the first allocate)
 *  @param[out] memory the new block, with one reference
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL context or memory, or a bad kind
 *  @retval USMARR_ERROR_ALLOCATION @p capacity exceeds the device's maximum allocation or
 *          the driver refused */
USMARR_API USMARR_NODISCARD int usmarr_memory_create_pod(usmarr_context_t *context, usmarr_usm_kind_t kind,
                                                         size_t capacity, usmarr_memory_t **memory);

/** @brief The allocator table of a pod block (DyND's `get_memory_block_pod_allocator_api`).
 *  @param memory a pod block (borrowed)
 *  @return the table (static, never freed), or NULL when @p memory is NULL or not a pod
 *          block (the detail then says why). */
USMARR_API const usmarr_pod_allocator_api_t *usmarr_memory_pod_allocator_api(const usmarr_memory_t *memory);

/** @brief The pod state of a block; ::USMARR_POD_NONE for NULL or ordinary blocks.
 *  @param memory any block, or NULL
 */
USMARR_API usmarr_pod_state_t usmarr_memory_pod_state(const usmarr_memory_t *memory);

/** @brief Allocates @p size_bytes after the block's previous allocations.
 *
 * Call once per output.  The block grows (doubling, moving its bytes) when its capacity
 * is short; earlier allocations keep their offsets.
 * @param memory an unfinished pod block, not shared
 * @param size_bytes bytes to allocate (0 allowed)
 * @param alignment alignment in bytes of the allocation's start: 0 (meaning 1) or a power
 *        of two up to 128 (PoCL 6.0 does not honour larger USM alignments)
 * @param[out] out_begin byte offset of the allocation from the block's base
 * @param[out] out_end @p out_begin + @p size_bytes
 * @return 0 on success; on failure the block is unchanged
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, not a pod block, bad alignment
 * @retval USMARR_ERROR_BAD_STATE the block is finalized or shared
 * @retval USMARR_ERROR_OVERFLOW the block's size would overflow
 * @retval USMARR_ERROR_ALLOCATION growing beyond the device's maximum allocation, or the
 *         driver refused */
USMARR_API USMARR_NODISCARD int usmarr_memory_pod_allocate(usmarr_memory_t *memory, size_t size_bytes,
                                                           size_t alignment, size_t *out_begin, size_t *out_end);

/** @brief Resizes the most recent allocation to @p size_bytes, growing or shrinking it.
 *
 * Growing may move the whole block (usmarr_memory_pointer() changes; offsets do not); the
 * allocation's bytes up to the smaller of the two sizes are kept.  Shrinking never moves.
 * @param memory an unfinished pod block, not shared
 * @param size_bytes the new size of the allocation
 * @param[in,out] inout_begin the allocation's begin, from the last allocate or resize
 * @param[in,out] inout_end its end; updated to begin + @p size_bytes
 * @return 0 on success; on failure the block and the pair are unchanged
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL argument, not a pod block, or the pair is not
 *         the most recent allocation
 * @retval USMARR_ERROR_BAD_STATE the block is finalized or shared
 * @retval USMARR_ERROR_OVERFLOW the block's size would overflow
 * @retval USMARR_ERROR_ALLOCATION growing failed (as for usmarr_memory_pod_allocate()) */
USMARR_API USMARR_NODISCARD int usmarr_memory_pod_resize(usmarr_memory_t *memory, size_t size_bytes,
                                                         size_t *inout_begin, size_t *inout_end);

/** @brief Trims the block to the bytes in use and freezes it.
 *
 * Afterwards usmarr_memory_size() is the end of the last allocation.  How the unused
 * capacity is given back depends on the device:
 * - on a CPU device, where USM is this process's virtual memory, the slack's whole pages
 *   are returned to the system in place (`madvise(MADV_DONTNEED)`): no copy, the pointer
 *   stays (setting the environment variable `USMARR_POD_TRIM=move` forces the other way);
 * - elsewhere the bytes move to an allocation of exactly that size (USM has no realloc);
 *   should that allocation fail, the block keeps its larger allocation and is frozen
 *   anyway.  A block with no bytes in use then ends with a NULL pointer and size 0, like
 *   usmarr_memory_create() of 0 bytes.
 *
 * On CPU devices large capacities are also advised to use transparent huge pages, as NumPy
 * does for its large arrays, so that filling an upper bound faults 2 MiB at a time.
 *  @param memory an unfinished pod block, not shared
 * @return 0 on success
 * @retval USMARR_ERROR_INVALID_ARGUMENT NULL or not a pod block
 * @retval USMARR_ERROR_BAD_STATE already finalized, or shared */
USMARR_API USMARR_NODISCARD int usmarr_memory_pod_finalize(usmarr_memory_t *memory);

/** @} */

#endif
