/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/queue.h"
#endif
#ifndef USMARR_QUEUE_H
#define USMARR_QUEUE_H

/** @name Queues and events: asynchronous execution
 *
 * Every operation enqueues its work on an in-order OpenCL queue and returns without
 * waiting for the device, unless its result's shape or a returned host value depends on
 * device data (doc/async.md lists those calls).  Which queue: the calling thread's
 * *current queue* when it belongs to the operation's context, else the context's own
 * queue (usmarr_context_queue()), so that code that never names a queue runs as before.
 *
 * A queue is a reference-counted handle over an in-order `cl_command_queue` of a
 * context: created by the library, adopted from the application (retained, and released
 * once, by the queue's last release), or the context's own queue
 * (usmarr_queue_current() with no current queue set; its references count on the context).
 * Work on two queues runs in any order relative to each other; order it with
 * usmarr_queue_marker() on one and usmarr_queue_wait() on the other, or with
 * usmarr_array_record_queue().  Markers are plain `cl_event`s, so events of the
 * application's own OpenCL code (and user events) mix freely with the library's.
 *
 * Thread safety: queues may be shared between threads; the current queue is per thread.
 * Kernel arguments are set and enqueued under the context's lock, so two threads on two
 * queues never share a kernel object's arguments unsynchronised.
 * @{ */

/** A queue of a context (opaque, reference-counted). */
typedef struct usmarr_queue usmarr_queue_t;

/** usmarr_queue_create() flag: the queue records profiling information, so that its
 *  markers' CL_PROFILING_COMMAND_END times can be compared. */
#define USMARR_QUEUE_PROFILING 1u

/** @brief Creates an in-order queue on the context's device.
 *  @param context the context (the queue retains it)
 *  @param flags 0 or ::USMARR_QUEUE_PROFILING
 *  @param queue receives the new queue (one reference)
 *  @return 0 or an error (nothing is created then)
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument or an unknown flag
 *  @return the OpenCL error of clCreateCommandQueueWithProperties */
USMARR_API USMARR_NODISCARD int usmarr_queue_create(usmarr_context_t *context, unsigned flags,
                                                    usmarr_queue_t **queue);

/** @brief Adopts an application's in-order queue on the context's cl_context and device.
 *  @param context the context (the queue retains it)
 *  @param cl_queue the application's queue: retained here, released once by the last
 *         usmarr_queue_release(); the application keeps its own reference
 *  @param queue receives the new queue (one reference)
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument, or an out-of-order @p cl_queue
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p cl_queue belongs to another cl_context or device */
USMARR_API USMARR_NODISCARD int usmarr_queue_adopt(usmarr_context_t *context, cl_command_queue cl_queue,
                                                   usmarr_queue_t **queue);

/** @brief Adds a reference.
 *  @param queue a queue, or NULL
 *  @return @p queue */
USMARR_API usmarr_queue_t *usmarr_queue_retain(usmarr_queue_t *queue);

/** @brief Drops a reference; the last one releases the cl_command_queue (without waiting:
 *  OpenCL runs what was enqueued) and the context.
 *  @param queue a queue, or NULL (no-op) */
USMARR_API void usmarr_queue_release(usmarr_queue_t *queue);

/** @brief Makes @p queue the calling thread's current queue: the operations of this thread
 *  on the queue's context enqueue on it.  The thread holds a reference to it until another
 *  queue (or NULL) is set, or until the thread ends.
 *  @param queue a queue, or NULL: every context's own queue again
 *  @return 0 */
USMARR_API USMARR_NODISCARD int usmarr_queue_set_current(usmarr_queue_t *queue);

/** @brief The calling thread's current queue as usmarr_queue_set_current() set it
 *  (borrowed), or NULL when none is set (to save and restore it around a block).
 *  @return the queue or NULL */
USMARR_API usmarr_queue_t *usmarr_queue_get_current(void);

/** @brief The queue that the calling thread's operations on @p context use: its current
 *  queue when that belongs to @p context, else the context's own queue (borrowed; retain
 *  it to keep it).
 *  @param context the context
 *  @return the queue, NULL for a NULL context */
USMARR_API usmarr_queue_t *usmarr_queue_current(usmarr_context_t *context);

/** @brief The queue's context (borrowed).  @return NULL for a NULL queue */
USMARR_API usmarr_context_t *usmarr_queue_context(const usmarr_queue_t *queue);
/** @brief The queue's cl_command_queue (borrowed).  @return NULL for a NULL queue */
USMARR_API cl_command_queue usmarr_queue_cl(const usmarr_queue_t *queue);

/** @brief Enqueues a marker: an event that completes when all work enqueued on @p queue so
 *  far has completed.  The queue is flushed, so another queue may wait on the event.
 *  @param queue the queue
 *  @param event receives the event; the caller releases it with clReleaseEvent()
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @return the OpenCL error of clEnqueueMarkerWithWaitList */
USMARR_API USMARR_NODISCARD int usmarr_queue_marker(usmarr_queue_t *queue, cl_event *event);

/** @brief Makes the work enqueued on @p queue from now on wait for @p events (markers of
 *  other queues, the application's events, user events).  Returns at once.
 *  @param queue the queue
 *  @param nevents how many events (0: nothing to wait for)
 *  @param events the events (borrowed; OpenCL retains what it needs)
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL queue, a NULL @p events with @p nevents
 *          > 0, or a NULL event (the detail names its index)
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH an event of another cl_context (named by index)
 *  @return the OpenCL error of clEnqueueBarrierWithWaitList */
USMARR_API USMARR_NODISCARD int usmarr_queue_wait(usmarr_queue_t *queue, size_t nevents, const cl_event *events);

/** @brief Waits until all work enqueued on @p queue has completed, then releases the
 *  memory whose release waited for it (doc/async.md, "Lifetimes").
 *  @param queue the queue
 *  @retval USMARR_ERROR_INVALID_ARGUMENT @p queue is NULL
 *  @return the OpenCL error of clFinish */
USMARR_API USMARR_NODISCARD int usmarr_queue_finish(usmarr_queue_t *queue);

/** @brief Orders the array's block for use on @p queue, as CuPy's `record_stream`: the
 *  work enqueued on @p queue from now on waits for the work enqueued so far on the queue
 *  that last wrote the block (the one it was allocated on, or the last one recorded here),
 *  and @p queue becomes that queue, so that the block is reused or freed only after the
 *  work on @p queue.  Nothing waits on the host.
 *  @param array the array (its block is the one ordered)
 *  @param queue a queue of the array's context
 *  @retval USMARR_ERROR_INVALID_ARGUMENT a NULL argument
 *  @retval USMARR_ERROR_CONTEXT_MISMATCH @p queue belongs to another context */
USMARR_API USMARR_NODISCARD int usmarr_array_record_queue(usmarr_array_t *array, usmarr_queue_t *queue);

/** @brief The queue that last wrote the array's block, as the library orders it: the
 *  queue current when the block was allocated (a result is allocated on the queue that
 *  computes it), or the last one given to usmarr_array_record_queue().  A write through
 *  `out` on another queue does not change it; record the block for that queue (the rule of
 *  doc/async.md, "Lifetimes").  A consumer that orders itself after this queue
 *  (usmarr_queue_marker() and usmarr_queue_wait()) reads the array's values.
 *  @param array the array
 *  @return the queue (borrowed; retain it to keep it): the context's own queue when no
 *          other one wrote the block; NULL for a NULL array */
USMARR_API usmarr_queue_t *usmarr_array_queue(const usmarr_array_t *array);

/** @} */

#endif
