/*
 * intercept/sync.c - mutexes, condition variables, rwlocks, spinlocks,
 * semaphores and barriers.
 *
 * While ravel controls the program, these objects live in the model only:
 * the program's pthread_mutex_t memory is never locked for real (only one
 * thread runs at a time, and a thread never gets the baton while its
 * operation would block). Their initial state is read from the program's
 * memory the first time an execution uses them, because the memory is
 * what the program initialised (PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
 * pthread_mutex_init with attributes, sem_init with a count): the *_init
 * interceptors call the C library's own init and then forget ravel's
 * state, so the next use reads it afresh.
 *
 * Reading that state needs the C library's layout in two places (the
 * mutex kind and the barrier count); they are in glibc's public headers
 * or stable since glibc 2.3 and are named below.
 */
#include "../rt.h"

#include "real.h"

#include <errno.h>

/* glibc: pthread_mutex_t.__data.__kind, low two bits = the mutex type. */
static uint8_t mutex_type_from_memory(const pthread_mutex_t *m)
{
    switch (m->__data.__kind & 3) {
    case PTHREAD_MUTEX_RECURSIVE:
        return RAVEL__MUTEX_RECURSIVE;
    case PTHREAD_MUTEX_ERRORCHECK:
        return RAVEL__MUTEX_ERRORCHECK;
    default:
        return RAVEL__MUTEX_NORMAL;
    }
}

static uint32_t mutex_obj(struct ravel__worker *w, pthread_mutex_t *m)
{
    bool created;
    uint32_t i = ravel__object(w, m, RAVEL__OBJ_MUTEX, &created);
    if (created)
        ravel__rt.x->objects[i].subtype = mutex_type_from_memory(m);
    return i;
}

/* One visible operation on `obj`; returns the model's result. */
static int op(struct ravel__worker *w, uint16_t kind, uint32_t obj,
              uint32_t obj2, int64_t arg, uint64_t pc)
{
    int saved = errno, rc;
    ravel__step(w, kind, obj, obj2, arg, pc, &rc);
    errno = saved;
    return rc;
}

/* ---- mutexes ---------------------------------------------------------- */

RAVEL__EXPORT int pthread_mutex_init(pthread_mutex_t *m,
                                     const pthread_mutexattr_t *a)
{
    int rc = REAL(pthread_mutex_init)(m, a);
    if (ravel__controlled())
        ravel__object_forget(m);
    return rc;
}

RAVEL__EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_lock)(m);
    return op(w, RAVEL__OP_MUTEX_LOCK, mutex_obj(w, m), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_trylock)(m);
    return op(w, RAVEL__OP_MUTEX_TRYLOCK, mutex_obj(w, m), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m,
                                          const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_timedlock)(m, t);
    ravel__vtime_deadline(-1, t);
    return ravel__vtime_waited(op(w, RAVEL__OP_MUTEX_TIMEDLOCK,
                                  mutex_obj(w, m), RAVEL__NONE, 0,
                                  RAVEL__CALLER_PC),
                               -1, t);
}

RAVEL__EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t c,
                                          const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_clocklock) ? REAL(pthread_mutex_clocklock)(
                                                   m, c, t)
                                             : ENOSYS;
    ravel__vtime_deadline(c, t);
    return ravel__vtime_waited(op(w, RAVEL__OP_MUTEX_TIMEDLOCK,
                                  mutex_obj(w, m), RAVEL__NONE, 0,
                                  RAVEL__CALLER_PC),
                               c, t);
}

RAVEL__EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_unlock)(m);
    return op(w, RAVEL__OP_MUTEX_UNLOCK, mutex_obj(w, m), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_mutex_destroy)(m);
    return op(w, RAVEL__OP_MUTEX_DESTROY, mutex_obj(w, m), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

/* ---- condition variables ---------------------------------------------- */

static uint32_t cond_obj(struct ravel__worker *w, pthread_cond_t *c)
{
    bool created;
    return ravel__object(w, c, RAVEL__OBJ_COND, &created);
}

RAVEL__EXPORT int pthread_cond_init(pthread_cond_t *c,
                                    const pthread_condattr_t *a)
{
    int rc = REAL(pthread_cond_init)(c, a);
    if (ravel__controlled())
        ravel__object_forget(c);
    return rc;
}

RAVEL__EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
    if (!ravel__controlled())
        return REAL(pthread_cond_destroy)(c);
    ravel__object_forget(c);
    return 0;
}

/* wait = release the mutex and sleep (one step), then wake up and take the
 * mutex back (a second step, enabled once signalled - or at any time for a
 * timed wait, which may then time out). */
static int cond_wait(struct ravel__worker *w, pthread_cond_t *c,
                     pthread_mutex_t *m, bool timed, uint64_t pc)
{
    uint32_t co = cond_obj(w, c), mo = mutex_obj(w, m);
    op(w, timed ? RAVEL__OP_COND_TIMEDWAIT : RAVEL__OP_COND_WAIT, co, mo, 0,
       pc);
    return op(w, RAVEL__OP_COND_WAKE, co, mo, timed, pc);
}

RAVEL__EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_cond_wait)(c, m);
    return cond_wait(w, c, m, false, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                         const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_cond_timedwait)(c, m, t);
    ravel__vtime_deadline(-1, t);
    return ravel__vtime_waited(cond_wait(w, c, m, true, RAVEL__CALLER_PC), -1,
                               t);
}

RAVEL__EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
                                         clockid_t clock,
                                         const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_cond_clockwait)
                   ? REAL(pthread_cond_clockwait)(c, m, clock, t)
                   : ENOSYS;
    ravel__vtime_deadline(clock, t);
    return ravel__vtime_waited(cond_wait(w, c, m, true, RAVEL__CALLER_PC),
                               clock, t);
}

RAVEL__EXPORT int pthread_cond_signal(pthread_cond_t *c)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_cond_signal)(c);
    return op(w, RAVEL__OP_COND_SIGNAL, cond_obj(w, c), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_cond_broadcast(pthread_cond_t *c)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_cond_broadcast)(c);
    return op(w, RAVEL__OP_COND_BROADCAST, cond_obj(w, c), RAVEL__NONE, 0,
              RAVEL__CALLER_PC);
}

/* ---- rwlocks ---------------------------------------------------------- */

static uint32_t rw_obj(struct ravel__worker *w, pthread_rwlock_t *l)
{
    bool created;
    return ravel__object(w, l, RAVEL__OBJ_RWLOCK, &created);
}

RAVEL__EXPORT int pthread_rwlock_init(pthread_rwlock_t *l,
                                      const pthread_rwlockattr_t *a)
{
    int rc = REAL(pthread_rwlock_init)(l, a);
    if (ravel__controlled())
        ravel__object_forget(l);
    return rc;
}

#define RW_INTERCEPT(name, kind)                                               \
    RAVEL__EXPORT int name(pthread_rwlock_t *l)                                \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return REAL(name)(l);                                              \
        return op(w, kind, rw_obj(w, l), RAVEL__NONE, 0, RAVEL__CALLER_PC);    \
    }
RW_INTERCEPT(pthread_rwlock_rdlock, RAVEL__OP_RW_RDLOCK)
RW_INTERCEPT(pthread_rwlock_tryrdlock, RAVEL__OP_RW_TRYRDLOCK)
RW_INTERCEPT(pthread_rwlock_wrlock, RAVEL__OP_RW_WRLOCK)
RW_INTERCEPT(pthread_rwlock_trywrlock, RAVEL__OP_RW_TRYWRLOCK)
RW_INTERCEPT(pthread_rwlock_unlock, RAVEL__OP_RW_UNLOCK)
RW_INTERCEPT(pthread_rwlock_destroy, RAVEL__OP_RW_DESTROY)
#undef RW_INTERCEPT

#define RW_TIMED_INTERCEPT(name, kind)                                         \
    RAVEL__EXPORT int name(pthread_rwlock_t *l, const struct timespec *t)      \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return REAL(name)(l, t);                                           \
        ravel__vtime_deadline(-1, t);                                          \
        return ravel__vtime_waited(                                            \
            op(w, kind, rw_obj(w, l), RAVEL__NONE, 0, RAVEL__CALLER_PC), -1,   \
            t);                                                                \
    }
RW_TIMED_INTERCEPT(pthread_rwlock_timedrdlock, RAVEL__OP_RW_TIMEDRDLOCK)
RW_TIMED_INTERCEPT(pthread_rwlock_timedwrlock, RAVEL__OP_RW_TIMEDWRLOCK)
#undef RW_TIMED_INTERCEPT

#define RW_CLOCK_INTERCEPT(name, kind)                                         \
    RAVEL__EXPORT int name(pthread_rwlock_t *l, clockid_t c,                   \
                           const struct timespec *t)                           \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return REAL(name) ? REAL(name)(l, c, t) : ENOSYS;                  \
        ravel__vtime_deadline(c, t);                                           \
        return ravel__vtime_waited(                                            \
            op(w, kind, rw_obj(w, l), RAVEL__NONE, 0, RAVEL__CALLER_PC), c,    \
            t);                                                                \
    }
RW_CLOCK_INTERCEPT(pthread_rwlock_clockrdlock, RAVEL__OP_RW_TIMEDRDLOCK)
RW_CLOCK_INTERCEPT(pthread_rwlock_clockwrlock, RAVEL__OP_RW_TIMEDWRLOCK)
#undef RW_CLOCK_INTERCEPT

/* ---- spinlocks -------------------------------------------------------- */

static uint32_t spin_obj(struct ravel__worker *w, pthread_spinlock_t *l)
{
    bool created;
    return ravel__object(w, (const void *)l, RAVEL__OBJ_SPIN, &created);
}

RAVEL__EXPORT int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
    int rc = REAL(pthread_spin_init)(l, pshared);
    if (ravel__controlled())
        ravel__object_forget((const void *)l);
    return rc;
}

RAVEL__EXPORT int pthread_spin_destroy(pthread_spinlock_t *l)
{
    if (!ravel__controlled())
        return REAL(pthread_spin_destroy)(l);
    ravel__object_forget((const void *)l);
    return 0;
}

#define SPIN_INTERCEPT(name, kind)                                             \
    RAVEL__EXPORT int name(pthread_spinlock_t *l)                              \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return REAL(name)(l);                                              \
        return op(w, kind, spin_obj(w, l), RAVEL__NONE, 0, RAVEL__CALLER_PC);  \
    }
SPIN_INTERCEPT(pthread_spin_lock, RAVEL__OP_SPIN_LOCK)
SPIN_INTERCEPT(pthread_spin_trylock, RAVEL__OP_SPIN_TRYLOCK)
SPIN_INTERCEPT(pthread_spin_unlock, RAVEL__OP_SPIN_UNLOCK)
#undef SPIN_INTERCEPT

/* ---- semaphores ------------------------------------------------------- */

static uint32_t sem_obj(struct ravel__worker *w, sem_t *s)
{
    bool created;
    uint32_t i = ravel__object(w, s, RAVEL__OBJ_SEM, &created);
    if (created) {
        int v = 0;
        REAL(sem_getvalue)(s, &v);
        ravel__rt.x->objects[i].value = v;
    }
    return i;
}

/* Semaphore functions report errors through errno and -1. */
static int sem_result(int rc)
{
    if (rc == 0)
        return 0;
    errno = rc;
    return -1;
}

RAVEL__EXPORT int sem_init(sem_t *s, int pshared, unsigned value)
{
    int rc = REAL(sem_init)(s, pshared, value);
    if (rc == 0 && ravel__controlled())
        ravel__object_forget(s);
    return rc;
}

RAVEL__EXPORT int sem_destroy(sem_t *s)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_destroy)(s);
    return sem_result(op(w, RAVEL__OP_SEM_DESTROY, sem_obj(w, s),
                         RAVEL__NONE, 0, RAVEL__CALLER_PC));
}

RAVEL__EXPORT int sem_wait(sem_t *s)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_wait)(s);
    return sem_result(op(w, RAVEL__OP_SEM_WAIT, sem_obj(w, s), RAVEL__NONE, 0,
                         RAVEL__CALLER_PC));
}

RAVEL__EXPORT int sem_trywait(sem_t *s)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_trywait)(s);
    return sem_result(op(w, RAVEL__OP_SEM_TRYWAIT, sem_obj(w, s), RAVEL__NONE,
                         0, RAVEL__CALLER_PC));
}

RAVEL__EXPORT int sem_timedwait(sem_t *s, const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_timedwait)(s, t);
    ravel__vtime_deadline(-1, t);
    return sem_result(ravel__vtime_waited(
        op(w, RAVEL__OP_SEM_TIMEDWAIT, sem_obj(w, s), RAVEL__NONE, 0,
           RAVEL__CALLER_PC),
        -1, t));
}

RAVEL__EXPORT int sem_clockwait(sem_t *s, clockid_t c,
                                const struct timespec *t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w) {
        if (!REAL(sem_clockwait)) {
            errno = ENOSYS;
            return -1;
        }
        return REAL(sem_clockwait)(s, c, t);
    }
    ravel__vtime_deadline(c, t);
    return sem_result(ravel__vtime_waited(
        op(w, RAVEL__OP_SEM_TIMEDWAIT, sem_obj(w, s), RAVEL__NONE, 0,
           RAVEL__CALLER_PC),
        c, t));
}

RAVEL__EXPORT int sem_post(sem_t *s)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_post)(s);
    return sem_result(op(w, RAVEL__OP_SEM_POST, sem_obj(w, s), RAVEL__NONE, 0,
                         RAVEL__CALLER_PC));
}

RAVEL__EXPORT int sem_getvalue(sem_t *s, int *value)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sem_getvalue)(s, value);
    int saved = errno, rc;
    struct ravel__event *ev =
        ravel__step(w, RAVEL__OP_SEM_GETVALUE, sem_obj(w, s), RAVEL__NONE, 0,
                    RAVEL__CALLER_PC, &rc);
    *value = (int)ev->value;
    errno = saved;
    return 0;
}

/* ---- barriers --------------------------------------------------------- */

/* glibc: struct pthread_barrier { unsigned in, current_round, count; ...}
 * (sysdeps/nptl/internaltypes.h): the count is the third word. */
static unsigned barrier_count_from_memory(const pthread_barrier_t *b)
{
    const unsigned *words = (const unsigned *)(const void *)b;
    return words[2];
}

static uint32_t barrier_obj(struct ravel__worker *w, pthread_barrier_t *b)
{
    bool created;
    uint32_t i = ravel__object(w, b, RAVEL__OBJ_BARRIER, &created);
    if (created)
        ravel__rt.x->objects[i].limit = barrier_count_from_memory(b);
    return i;
}

RAVEL__EXPORT int pthread_barrier_init(pthread_barrier_t *b,
                                       const pthread_barrierattr_t *a,
                                       unsigned count)
{
    int rc = REAL(pthread_barrier_init)(b, a, count);
    if (rc == 0 && ravel__controlled())
        ravel__object_forget(b);
    return rc;
}

RAVEL__EXPORT int pthread_barrier_destroy(pthread_barrier_t *b)
{
    if (!ravel__controlled())
        return REAL(pthread_barrier_destroy)(b);
    ravel__object_forget(b);
    return 0;
}

RAVEL__EXPORT int pthread_barrier_wait(pthread_barrier_t *b)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_barrier_wait)(b);
    int saved = errno, rc;
    uint64_t pc = RAVEL__CALLER_PC;
    uint32_t o = barrier_obj(w, b);
    struct ravel__event *ev =
        ravel__step(w, RAVEL__OP_BARRIER_WAIT, o, RAVEL__NONE, 0, pc, &rc);
    if (ev->flags & RAVEL__EV_SERIAL) {
        errno = saved;
        return PTHREAD_BARRIER_SERIAL_THREAD;
    }
    ravel__step(w, RAVEL__OP_BARRIER_LEAVE, o, RAVEL__NONE, 0, pc, &rc);
    errno = saved;
    return 0;
}
