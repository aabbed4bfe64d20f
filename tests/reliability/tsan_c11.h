/* Force-included (-include) into every ThreadSanitizer build: `./configure --enable-tsan`
 * and the one tests/reliability/tsan-check.sh runs.  glibc implements C11's mtx_* / cnd_* /
 * thrd_create by calling its internal pthread functions directly, past the interceptors
 * through which ThreadSanitizer (gcc 12's and clang 15's alike) learns about locks and
 * threads: it then misses every lock of the library and crashes in threads it never saw
 * start.  This maps the C11 calls the library and its tests use onto the intercepted
 * pthread ones. */
#ifndef USMARR_TSAN_C11_H
#define USMARR_TSAN_C11_H

/* Included before a source's own feature macros: ask for everything now (the sources
 * that define it define it empty, an identical redefinition). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t is a pthread mutex in glibc");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t is a pthread condition in glibc");

static inline int tsan_c11_result(int rc) { return rc ? thrd_error : thrd_success; }

static inline int tsan_mtx_init(mtx_t *m, int type)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    int rc = pthread_mutex_init((pthread_mutex_t *)m, &a);
    pthread_mutexattr_destroy(&a);
    return tsan_c11_result(rc);
}
static inline int tsan_mtx_lock(mtx_t *m) { return tsan_c11_result(pthread_mutex_lock((pthread_mutex_t *)m)); }
static inline int tsan_mtx_unlock(mtx_t *m) { return tsan_c11_result(pthread_mutex_unlock((pthread_mutex_t *)m)); }
static inline void tsan_mtx_destroy(mtx_t *m) { pthread_mutex_destroy((pthread_mutex_t *)m); }
static inline int tsan_cnd_init(cnd_t *c) { return tsan_c11_result(pthread_cond_init((pthread_cond_t *)c, NULL)); }
static inline int tsan_cnd_broadcast(cnd_t *c) { return tsan_c11_result(pthread_cond_broadcast((pthread_cond_t *)c)); }
static inline int tsan_cnd_wait(cnd_t *c, mtx_t *m)
{
    return tsan_c11_result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}
static inline void tsan_cnd_destroy(cnd_t *c) { pthread_cond_destroy((pthread_cond_t *)c); }

struct tsan_thread_start {
    thrd_start_t function;
    void *arg;
};
static inline void *tsan_thread_trampoline(void *p)
{
    struct tsan_thread_start s = *(struct tsan_thread_start *)p;
    free(p);
    return (void *)(intptr_t)s.function(s.arg);
}
static inline int tsan_thrd_create(thrd_t *t, thrd_start_t function, void *arg)
{
    struct tsan_thread_start *s = malloc(sizeof *s);
    if (!s)
        return thrd_nomem;
    *s = (struct tsan_thread_start){function, arg};
    int rc = pthread_create((pthread_t *)t, NULL, tsan_thread_trampoline, s);
    if (rc)
        free(s);
    return tsan_c11_result(rc);
}
static inline int tsan_thrd_join(thrd_t t, int *result)
{
    void *r = NULL;
    int rc = pthread_join((pthread_t)t, &r);
    if (result)
        *result = (int)(intptr_t)r;
    return tsan_c11_result(rc);
}

#define mtx_init tsan_mtx_init
#define mtx_lock tsan_mtx_lock
#define mtx_unlock tsan_mtx_unlock
#define mtx_destroy tsan_mtx_destroy
#define cnd_init tsan_cnd_init
#define cnd_broadcast tsan_cnd_broadcast
#define cnd_wait tsan_cnd_wait
#define cnd_destroy tsan_cnd_destroy
#define thrd_create tsan_thrd_create
#define thrd_join tsan_thrd_join

#endif
