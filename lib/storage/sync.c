/* The sync state of a managed host/device pair and every call that reads or moves it.
 * One state serves every view of the pair; a transfer moves the pair's whole span in one
 * clEnqueueMemcpyINTEL, so whichever sub-region a view shows, all views see the data.
 * On the other kinds every call is a valid no-op, so user code need not know
 * the kind. */
#include "storage_internal.h"

#include <stdlib.h>

int usmarr__sync_state_new(usmarr_sync_t value, void *host_begin, void *device_begin, size_t span_bytes,
                           usmarr_sync_state_t **out)
{
    usmarr_sync_state_t *s = calloc(1, sizeof *s);
    if (!s)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "sync state");
    if (mtx_init(&s->lock, mtx_plain) != thrd_success) {
        free(s);
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "sync state lock");
    }
    usmarr__ref_init(&s->refcount);
    atomic_init(&s->storages, 0);
    atomic_init(&s->value, (int)value);
    s->host_begin = host_begin;
    s->device_begin = device_begin;
    s->span_bytes = span_bytes;
    *out = s;
    return 0;
}

void usmarr__sync_state_attach(usmarr_sync_state_t *s)
{
    usmarr_sync_state_retain(s);
    atomic_fetch_add_explicit(&s->storages, 1, memory_order_relaxed);
}

void usmarr__sync_state_detach(usmarr_sync_state_t *s)
{
    if (!s)
        return;
    /* Under the lock, so that a transfer never runs on blocks that are going away. */
    mtx_lock(&s->lock);
    atomic_fetch_sub_explicit(&s->storages, 1, memory_order_acq_rel);
    mtx_unlock(&s->lock);
    usmarr_sync_state_release(s);
}

usmarr_sync_state_t *usmarr_storage_sync_state(const usmarr_storage_t *storage)
{
    return storage ? storage->sync : NULL;
}

usmarr_sync_state_t *usmarr_sync_state_retain(usmarr_sync_state_t *state) { return USMARR__RETAIN(state); }

void usmarr_sync_state_release(usmarr_sync_state_t *state)
{
    if (!USMARR__RELEASE_LAST(state))
        return;
    mtx_destroy(&state->lock);
    free(state);
}

int usmarr_sync_state_get(const usmarr_sync_state_t *state, usmarr_sync_t *value)
{
    usmarr__clear_error();
    if (!state || !value)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !state ? "state" : "value");
    *value = (usmarr_sync_t)atomic_load_explicit(&((usmarr_sync_state_t *)state)->value, memory_order_acquire);
    return 0;
}

static int check_value(usmarr_sync_t value)
{
    if (value != USMARR_SYNC_CLEAN && value != USMARR_SYNC_HOST_DIRTY && value != USMARR_SYNC_DEVICE_DIRTY)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "value=%d is not a usmarr_sync_t (0 clean, 1 host dirty, "
                                                           "2 device dirty)",
                            (int)value);
    return 0;
}

int usmarr_sync_state_set(usmarr_sync_state_t *state, usmarr_sync_t value)
{
    usmarr__clear_error();
    if (!state)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "state is NULL");
    int rc = check_value(value);
    if (rc)
        return rc;
    mtx_lock(&state->lock);
    if (atomic_load_explicit(&state->storages, memory_order_acquire) == 0)
        rc = usmarr__fail(USMARR_ERROR_BAD_STATE, "state: every storage of its host/device pair was released");
    else
        atomic_store_explicit(&state->value, (int)value, memory_order_release);
    mtx_unlock(&state->lock);
    return rc;
}

/* ---- transfers ---------------------------------------------------------------------- */

enum direction { TO_DEVICE, TO_HOST };

/* Copies the whole span in `dir` when the source side is dirty or `force`, then marks
 * the pair clean; a pair dirty on the destination side stays as it is unless forced. */
static int transfer(usmarr_storage_t *s, enum direction dir, bool force)
{
    usmarr_sync_state_t *st = s->sync;
    usmarr_context_t *ctx = s->device->memory->context;
    int rc = 0;
    mtx_lock(&st->lock);
    int dirty = dir == TO_DEVICE ? USMARR_SYNC_HOST_DIRTY : USMARR_SYNC_DEVICE_DIRTY;
    if (force || atomic_load_explicit(&st->value, memory_order_acquire) == dirty) {
        if (st->span_bytes) {
            void *dst = dir == TO_DEVICE ? st->device_begin : st->host_begin;
            const void *src = dir == TO_DEVICE ? st->host_begin : st->device_begin;
            mtx_lock(&ctx->queue_lock);
            cl_int err = ctx->usm.memcpy(usmarr__queue_of(ctx), CL_TRUE, dst, src, st->span_bytes, 0, NULL, NULL);
            mtx_unlock(&ctx->queue_lock);
            if (err != CL_SUCCESS)
                rc = usmarr__cl_fail(err, dir == TO_DEVICE ? "host_to_device: clEnqueueMemcpyINTEL"
                                                           : "device_to_host: clEnqueueMemcpyINTEL");
        }
        if (!rc)
            atomic_store_explicit(&st->value, USMARR_SYNC_CLEAN, memory_order_release);
    }
    mtx_unlock(&st->lock);
    return rc;
}

static bool managed(const usmarr_storage_t *s) { return s->kind == USMARR_STORAGE_MANAGED; }

int usmarr__storage_sync_for_device(usmarr_storage_t *s) { return managed(s) ? transfer(s, TO_DEVICE, false) : 0; }
int usmarr__storage_sync_for_host(usmarr_storage_t *s) { return managed(s) ? transfer(s, TO_HOST, false) : 0; }

void usmarr__storage_mark(usmarr_storage_t *s, usmarr_sync_t value)
{
    if (managed(s))
        atomic_store_explicit(&s->sync->value, (int)value, memory_order_release);
}

static int mark(usmarr_storage_t *s, usmarr_sync_t value)
{
    usmarr__clear_error();
    if (!s)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    if (managed(s)) {
        mtx_lock(&s->sync->lock); /* never in the middle of a transfer */
        atomic_store_explicit(&s->sync->value, (int)value, memory_order_release);
        mtx_unlock(&s->sync->lock);
    }
    return 0;
}

int usmarr_storage_set_host_modified(usmarr_storage_t *storage) { return mark(storage, USMARR_SYNC_HOST_DIRTY); }
int usmarr_storage_set_device_modified(usmarr_storage_t *storage) { return mark(storage, USMARR_SYNC_DEVICE_DIRTY); }
int usmarr_storage_set_synchronized(usmarr_storage_t *storage) { return mark(storage, USMARR_SYNC_CLEAN); }

int usmarr_storage_synchronize(usmarr_storage_t *storage)
{
    usmarr__clear_error();
    if (!storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    if (!managed(storage))
        return 0;
    int rc = transfer(storage, TO_DEVICE, false);
    return rc ? rc : transfer(storage, TO_HOST, false);
}

int usmarr_storage_host_to_device(usmarr_storage_t *storage, bool force)
{
    usmarr__clear_error();
    if (!storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    return managed(storage) ? transfer(storage, TO_DEVICE, force) : 0;
}

int usmarr_storage_device_to_host(usmarr_storage_t *storage, bool force)
{
    usmarr__clear_error();
    if (!storage)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "storage is NULL");
    return managed(storage) ? transfer(storage, TO_HOST, force) : 0;
}
