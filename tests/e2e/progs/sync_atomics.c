/*
 * sync_atomics.c - plain data published correctly through C11 atomics:
 * the race detector must stay silent over the whole exploration.
 *
 *   release/acquire   store-release of a flag, load-acquire that sees it
 *   seq_cst           the same with the default (sequentially consistent)
 *                     operations
 *   fences            relaxed flag between a release fence and an acquire
 *                     fence
 *   release sequence  a relaxed fetch_add by a third thread continues the
 *                     writer's release sequence: the reader that sees its
 *                     result still synchronises with the writer
 *   compare-exchange  an acq_rel CAS hands a plain slot over
 *
 * Readers read the plain data only when they saw the flag set, as correct
 * code does; they do not spin, so the exploration is complete.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int ra_data, sc_data, f_data, rs_data, cas_data;
static atomic_int ra_flag, sc_flag, f_flag, rs_count, cas_owner;

static void *writer(void *arg)
{
    (void)arg;
    ra_data = 1;
    atomic_store_explicit(&ra_flag, 1, memory_order_release);
    sc_data = 2;
    atomic_store(&sc_flag, 1);
    f_data = 3;
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&f_flag, 1, memory_order_relaxed);
    rs_data = 4;
    atomic_store_explicit(&rs_count, 1, memory_order_release);
    return NULL;
}

static void *bumper(void *arg)
{
    (void)arg;
    /* Relaxed RMW: part of the writer's release sequence. */
    atomic_fetch_add_explicit(&rs_count, 1, memory_order_relaxed);
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&cas_owner, &expected, 1,
                                                memory_order_acq_rel,
                                                memory_order_acquire)) {
        cas_data = 5;
        atomic_store_explicit(&cas_owner, 2, memory_order_release);
    }
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    if (atomic_load_explicit(&ra_flag, memory_order_acquire))
        assert(ra_data == 1);
    if (atomic_load(&sc_flag))
        assert(sc_data == 2);
    if (atomic_load_explicit(&f_flag, memory_order_relaxed)) {
        atomic_thread_fence(memory_order_acquire);
        assert(f_data == 3);
    }
    if (atomic_load_explicit(&rs_count, memory_order_acquire) == 2)
        assert(rs_data == 4);
    if (atomic_load_explicit(&cas_owner, memory_order_acquire) == 2)
        assert(cas_data == 5);
    return NULL;
}

int main(void)
{
    pthread_t w, b, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&b, NULL, bumper, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(b, NULL);
    pthread_join(r, NULL);
    return 0;
}
