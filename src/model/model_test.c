/*
 * model_test.c - the semantics of visible operations, without threads:
 * each test sets pending operations directly and asks the model what is
 * enabled and what applying does.
 */
#include "model.h"

#include "../../tests/check.h"

#include <errno.h>
#include <stdlib.h>

static struct ravel__exec *x;
static uint32_t last_choice_n;

static uint32_t choose_last(void *ctx, uint32_t n)
{
    (void)ctx;
    last_choice_n = n;
    return n - 1;
}

static void fresh(void)
{
    static void *mem;
    size_t size = ravel__exec_size(1024, 64);
    free(mem);
    mem = calloc(1, size);
    x = ravel__exec_layout(mem, 1024, 64);
    ravel__exec_begin(x, 0);
}

static void set_op(uint32_t t, uint16_t kind, uint32_t obj, uint32_t obj2,
                   int64_t arg)
{
    x->threads[t].pending = (struct ravel__op){kind, obj, obj2, 0x1000 + t,
                                               arg};
    ravel__note_pending(x, t); /* as the scheduler does */
}

/* Applies t's pending op (which must be enabled); returns the result. */
static int apply(uint32_t t)
{
    CHECK(ravel__op_enabled(x, t));
    struct ravel__event *ev;
    return ravel__op_apply(x, t, choose_last, NULL, &ev);
}

static uint32_t obj(uint64_t addr, uint8_t kind)
{
    bool created;
    return ravel__obj_find(x, addr, kind, &created);
}

/* Thread 1 creates a child; returns the child's index. */
static uint32_t spawn_child(void)
{
    set_op(0, RAVEL__OP_CREATE, RAVEL__NONE, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    return x->events[x->nevents - 1].aux;
}

CHECK_TEST(threads_are_named_by_creation_path)
{
    fresh();
    uint32_t a = spawn_child(), b = spawn_child();
    CHECK_STR(x->threads[0].name, "1");
    CHECK_STR(x->threads[a].name, "1.1");
    CHECK_STR(x->threads[b].name, "1.2");
    set_op(a, RAVEL__OP_CREATE, RAVEL__NONE, RAVEL__NONE, 0);
    apply(a);
    CHECK_STR(x->threads[x->events[x->nevents - 1].aux].name, "1.1.1");
}

CHECK_TEST(lock_blocks_until_unlock)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    set_op(c, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, c));
    CHECK_EQ(ravel__blocker(x, c), 0);
    set_op(0, RAVEL__OP_MUTEX_UNLOCK, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    CHECK(ravel__op_enabled(x, c));
}

CHECK_TEST(trylock_and_timedlock_fail_instead_of_blocking)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(0);
    set_op(c, RAVEL__OP_MUTEX_TRYLOCK, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(c), EBUSY);
    set_op(c, RAVEL__OP_MUTEX_TIMEDLOCK, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(c), ETIMEDOUT);
    CHECK(x->events[x->nevents - 1].flags & RAVEL__EV_TIMEDOUT);
}

CHECK_TEST(recursive_mutex_counts)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    x->objects[m].subtype = RAVEL__MUTEX_RECURSIVE;
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(0);
    CHECK(!ravel__op_selfblock(x, 0));
    apply(0);
    set_op(0, RAVEL__OP_MUTEX_UNLOCK, m, RAVEL__NONE, 0);
    apply(0);
    set_op(c, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, c)); /* still held once */
    apply(0);
    CHECK(ravel__op_enabled(x, c));
}

CHECK_TEST(relocking_a_normal_mutex_is_misuse)
{
    fresh();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(0);
    CHECK(ravel__op_selfblock(x, 0));
    CHECK_EQ(x->failure.kind, RAVEL__FAIL_LOCK_MISUSE);
    CHECK_EQ(x->failure.obj, m);
}

CHECK_TEST(unlock_by_non_owner_is_misuse)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(0);
    set_op(c, RAVEL__OP_MUTEX_UNLOCK, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(c), RAVEL__APPLY_MISUSE);
    CHECK_EQ(x->failure.kind, RAVEL__FAIL_LOCK_MISUSE);
    CHECK_EQ(x->failure.thread, c);
}

CHECK_TEST(destroying_a_held_mutex_is_misuse)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    set_op(c, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(c);
    set_op(0, RAVEL__OP_MUTEX_DESTROY, m, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), RAVEL__APPLY_MISUSE);
}

CHECK_TEST(lock_order_inversion_leaves_nothing_enabled)
{
    fresh();
    uint32_t a = spawn_child(), b = spawn_child();
    uint32_t m1 = obj(0x100, RAVEL__OBJ_MUTEX);
    uint32_t m2 = obj(0x200, RAVEL__OBJ_MUTEX);
    set_op(a, RAVEL__OP_MUTEX_LOCK, m1, RAVEL__NONE, 0);
    apply(a);
    set_op(b, RAVEL__OP_MUTEX_LOCK, m2, RAVEL__NONE, 0);
    apply(b);
    set_op(a, RAVEL__OP_MUTEX_LOCK, m2, RAVEL__NONE, 0);
    set_op(b, RAVEL__OP_MUTEX_LOCK, m1, RAVEL__NONE, 0);
    set_op(0, RAVEL__OP_JOIN, a, RAVEL__NONE, 0);
    uint32_t en[RAVEL__MAX_THREADS];
    CHECK_EQ(ravel__enabled(x, en, NULL), 0);
    CHECK_EQ(ravel__blocker(x, a), b);
    CHECK_EQ(ravel__blocker(x, b), a);
}

CHECK_TEST(join_waits_for_finish_and_returns_value)
{
    fresh();
    uint32_t c = spawn_child();
    set_op(0, RAVEL__OP_JOIN, c, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(c, RAVEL__OP_FINISH, RAVEL__NONE, RAVEL__NONE, 42);
    apply(c);
    CHECK(ravel__op_enabled(x, 0));
    CHECK_EQ(apply(0), 0);
    CHECK_EQ(x->events[x->nevents - 1].value, 42);
    set_op(0, RAVEL__OP_JOIN, c, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), EINVAL); /* joined twice */
}

CHECK_TEST(all_finished_ends_the_execution)
{
    fresh();
    uint32_t c = spawn_child();
    set_op(0, RAVEL__OP_FINISH, RAVEL__NONE, RAVEL__NONE, 0);
    apply(0);
    CHECK_EQ(x->ended, RAVEL__END_NONE);
    set_op(c, RAVEL__OP_FINISH, RAVEL__NONE, RAVEL__NONE, 0);
    apply(c);
    CHECK_EQ(x->ended, RAVEL__END_ALL_FINISHED);
}

CHECK_TEST(cond_wait_releases_and_signal_picks_a_waiter)
{
    fresh();
    uint32_t a = spawn_child(), b = spawn_child();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    uint32_t cv = obj(0x200, RAVEL__OBJ_COND);
    for (uint32_t t = a; t <= b; t++) {
        set_op(t, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
        apply(t);
        set_op(t, RAVEL__OP_COND_WAIT, cv, m, 0);
        CHECK(!ravel__op_selfblock(x, t));
        apply(t);
        CHECK_EQ(x->objects[m].owner, RAVEL__NONE);
        set_op(t, RAVEL__OP_COND_WAKE, cv, m, 0);
        CHECK(!ravel__op_enabled(x, t));
    }
    set_op(0, RAVEL__OP_COND_SIGNAL, cv, RAVEL__NONE, 0);
    apply(0);
    /* Two waiters: a data choice; choose_last picks the later waiter. */
    CHECK_EQ(last_choice_n, 2);
    CHECK_EQ(x->nvchoices, 1);
    CHECK(ravel__op_enabled(x, b));
    CHECK(!ravel__op_enabled(x, a));
    CHECK_EQ(apply(b), 0);
    CHECK_EQ(x->objects[m].owner, b);
}

CHECK_TEST(cond_wait_without_the_mutex_is_misuse)
{
    fresh();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    uint32_t cv = obj(0x200, RAVEL__OBJ_COND);
    set_op(0, RAVEL__OP_COND_WAIT, cv, m, 0);
    CHECK(ravel__op_selfblock(x, 0));
    CHECK_EQ(x->failure.kind, RAVEL__FAIL_LOCK_MISUSE);
}

CHECK_TEST(timed_cond_wait_can_time_out)
{
    fresh();
    uint32_t m = obj(0x100, RAVEL__OBJ_MUTEX);
    uint32_t cv = obj(0x200, RAVEL__OBJ_COND);
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    apply(0);
    set_op(0, RAVEL__OP_COND_TIMEDWAIT, cv, m, 0);
    apply(0);
    set_op(0, RAVEL__OP_COND_WAKE, cv, m, 1);
    CHECK_EQ(apply(0), ETIMEDOUT);
    CHECK_EQ(x->objects[m].owner, 0);
}

CHECK_TEST(semaphore_counts)
{
    fresh();
    uint32_t s = obj(0x100, RAVEL__OBJ_SEM);
    x->objects[s].value = 1;
    set_op(0, RAVEL__OP_SEM_WAIT, s, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(0, RAVEL__OP_SEM_TRYWAIT, s, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), EAGAIN);
    set_op(0, RAVEL__OP_SEM_POST, s, RAVEL__NONE, 0);
    apply(0);
    CHECK_EQ(x->objects[s].value, 1);
}

CHECK_TEST(barrier_releases_on_last_arrival)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t b = obj(0x100, RAVEL__OBJ_BARRIER);
    x->objects[b].limit = 2;
    set_op(0, RAVEL__OP_BARRIER_WAIT, b, RAVEL__NONE, 0);
    apply(0);
    set_op(0, RAVEL__OP_BARRIER_LEAVE, b, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(c, RAVEL__OP_BARRIER_WAIT, b, RAVEL__NONE, 0);
    apply(c);
    CHECK(x->events[x->nevents - 1].flags & RAVEL__EV_SERIAL);
    CHECK(ravel__op_enabled(x, 0));
}

CHECK_TEST(rwlock_readers_share_writers_exclude)
{
    fresh();
    uint32_t a = spawn_child(), b = spawn_child();
    uint32_t l = obj(0x100, RAVEL__OBJ_RWLOCK);
    set_op(a, RAVEL__OP_RW_RDLOCK, l, RAVEL__NONE, 0);
    apply(a);
    set_op(b, RAVEL__OP_RW_RDLOCK, l, RAVEL__NONE, 0);
    CHECK(ravel__op_enabled(x, b));
    apply(b);
    set_op(0, RAVEL__OP_RW_WRLOCK, l, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(a, RAVEL__OP_RW_UNLOCK, l, RAVEL__NONE, 0);
    apply(a);
    set_op(b, RAVEL__OP_RW_UNLOCK, l, RAVEL__NONE, 0);
    apply(b);
    CHECK(ravel__op_enabled(x, 0));
    set_op(a, RAVEL__OP_RW_UNLOCK, l, RAVEL__NONE, 0);
    CHECK_EQ(apply(a), RAVEL__APPLY_MISUSE);
}

CHECK_TEST(once_runs_init_once_and_others_wait)
{
    fresh();
    uint32_t c = spawn_child();
    uint32_t o = obj(0x100, RAVEL__OBJ_ONCE);
    set_op(0, RAVEL__OP_ONCE, o, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 1); /* runs init */
    set_op(c, RAVEL__OP_ONCE, o, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, c));
    set_op(0, RAVEL__OP_ONCE_DONE, o, RAVEL__NONE, 0);
    apply(0);
    CHECK_EQ(apply(c), 0); /* already done */
}

CHECK_TEST(objects_are_found_again_and_reset_on_kind_change)
{
    fresh();
    bool created;
    uint32_t m = ravel__obj_find(x, 0x100, RAVEL__OBJ_MUTEX, &created);
    CHECK(created);
    CHECK_EQ(ravel__obj_find(x, 0x100, RAVEL__OBJ_MUTEX, &created), m);
    CHECK(!created);
    x->objects[m].owner = 0;
    CHECK_EQ(ravel__obj_find(x, 0x100, RAVEL__OBJ_SEM, &created), m);
    CHECK(created);
    CHECK_EQ(x->objects[m].owner, RAVEL__NONE);
    /* A new execution forgets everything. */
    ravel__exec_begin(x, 1);
    CHECK_EQ(ravel__obj_peek(x, 0x100), RAVEL__NONE);
    for (uint64_t a = 0; a < 64; a++)
        CHECK(ravel__obj_find(x, 0x1000 + a * 8, RAVEL__OBJ_ATOMIC,
                              &created) != RAVEL__NONE);
    CHECK_EQ(ravel__obj_find(x, 0x9000, RAVEL__OBJ_ATOMIC, &created),
             RAVEL__NONE); /* table full */
}

/* --memory-model tso: a relaxed store creates the thread's store-buffer
 * pseudo-thread and fills it; a seq_cst fence, a read-modify-write and a
 * mutex lock wait for it to drain; a load does not; the flush empties it
 * and lets the fence go. */
CHECK_TEST(tso_store_buffers_drain_before_locked_operations)
{
    fresh();
    x->memory_model = RAVEL__MM_TSO;
    uint32_t a = obj(0x2000, RAVEL__OBJ_ATOMIC);
    uint32_t m = obj(0x3000, RAVEL__OBJ_MUTEX);
    set_op(0, RAVEL__OP_START, RAVEL__NONE, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    /* A seq_cst store drains (an xchg) and is not buffered. */
    set_op(0, RAVEL__OP_ATOMIC_STORE, a, RAVEL__NONE, __ATOMIC_SEQ_CST);
    CHECK(!ravel__op_buffered_store(x, 0));
    CHECK_EQ(apply(0), 0);
    CHECK_EQ(x->threads[0].sb, 0u);
    /* A volatile store (obj2 set) is not buffered either. */
    set_op(0, RAVEL__OP_ATOMIC_STORE, a, 0, __ATOMIC_RELEASE);
    CHECK(!ravel__op_buffered_store(x, 0));
    /* A release store is. */
    set_op(0, RAVEL__OP_ATOMIC_STORE, a, RAVEL__NONE, __ATOMIC_RELEASE);
    CHECK(ravel__op_buffered_store(x, 0));
    CHECK_EQ(apply(0), 0);
    CHECK(x->events[x->nevents - 1].flags & RAVEL__EV_BUFFERED);
    CHECK(x->threads[0].sb != 0);
    uint32_t b = x->threads[0].sb - 1;
    CHECK(ravel__is_sb(x, b));
    CHECK_STR(x->threads[b].name, "1/sb");
    CHECK_EQ(x->threads[b].sb_n, 1u);
    CHECK_EQ(x->threads[b].pending.kind, RAVEL__OP_FLUSH);
    CHECK_EQ(x->threads[b].pending.obj, a);
    CHECK(ravel__op_enabled(x, b));
    /* Loads and weaker fences go ahead; locked operations wait. */
    set_op(0, RAVEL__OP_ATOMIC_LOAD, a, RAVEL__NONE, __ATOMIC_ACQUIRE);
    CHECK(ravel__op_enabled(x, 0));
    set_op(0, RAVEL__OP_FENCE, RAVEL__NONE, RAVEL__NONE, __ATOMIC_ACQ_REL);
    CHECK(ravel__op_enabled(x, 0));
    set_op(0, RAVEL__OP_ATOMIC_RMW, a, RAVEL__NONE, __ATOMIC_RELAXED);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(0, RAVEL__OP_MUTEX_LOCK, m, RAVEL__NONE, 0);
    CHECK(!ravel__op_enabled(x, 0));
    set_op(0, RAVEL__OP_FENCE, RAVEL__NONE, RAVEL__NONE, __ATOMIC_SEQ_CST);
    CHECK(!ravel__op_enabled(x, 0));
    /* The flush (its memory effect is the runtime's) empties it. */
    struct ravel__event *ev;
    CHECK_EQ(ravel__op_apply(x, b, choose_last, NULL, &ev), 0);
    CHECK_EQ(ev->kind, RAVEL__OP_FLUSH);
    CHECK_EQ(ev->aux, 0u); /* whose buffer */
    x->threads[b].sb_n--;
    CHECK(!ravel__op_enabled(x, b));
    CHECK(ravel__op_enabled(x, 0));
    CHECK_EQ(apply(0), 0);
    CHECK(x->events[x->nevents - 1].flags & RAVEL__EV_DRAINS);
    /* A full buffer makes the next store wait. */
    x->threads[b].sb_n = RAVEL__SB_MAX;
    set_op(0, RAVEL__OP_ATOMIC_STORE, a, RAVEL__NONE, __ATOMIC_RELAXED);
    CHECK(!ravel__op_enabled(x, 0));
    /* Under sc nothing of this happens. */
    fresh();
    set_op(0, RAVEL__OP_START, RAVEL__NONE, RAVEL__NONE, 0);
    CHECK_EQ(apply(0), 0);
    a = obj(0x2000, RAVEL__OBJ_ATOMIC);
    set_op(0, RAVEL__OP_ATOMIC_STORE, a, RAVEL__NONE, __ATOMIC_RELAXED);
    CHECK(!ravel__op_buffered_store(x, 0));
    CHECK_EQ(apply(0), 0);
    CHECK_EQ(x->threads[0].sb, 0u);
    CHECK_EQ(x->nthreads, 1u);
}

int main(void)
{
    return CHECK_RUN(threads_are_named_by_creation_path,
                     tso_store_buffers_drain_before_locked_operations,
                     lock_blocks_until_unlock,
                     trylock_and_timedlock_fail_instead_of_blocking,
                     recursive_mutex_counts, relocking_a_normal_mutex_is_misuse,
                     unlock_by_non_owner_is_misuse,
                     destroying_a_held_mutex_is_misuse,
                     lock_order_inversion_leaves_nothing_enabled,
                     join_waits_for_finish_and_returns_value,
                     all_finished_ends_the_execution,
                     cond_wait_releases_and_signal_picks_a_waiter,
                     cond_wait_without_the_mutex_is_misuse,
                     timed_cond_wait_can_time_out, semaphore_counts,
                     barrier_releases_on_last_arrival,
                     rwlock_readers_share_writers_exclude,
                     once_runs_init_once_and_others_wait,
                     objects_are_found_again_and_reset_on_kind_change);
}
