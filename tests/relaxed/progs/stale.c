/*
 * stale.c - a load that reads an older store than the newest one, for
 * the trace picture under --memory-model rc11.
 *
 * The worker stores x := 1 with release, then x := 2 relaxed; main waits
 * until x is non-zero with an acquire load and asserts it saw 2. Under
 * sc it always does; under rc11 the load may read 1, the older store:
 * the failure's picture must draw which store the load read ("read")
 * and the synchronisation with that store only ("atomic" from the
 * release store of 1, not from the newer store of 2).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x;

static void *worker(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_release);
    atomic_store_explicit(&x, 2, memory_order_relaxed);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int r;
    while ((r = atomic_load_explicit(&x, memory_order_acquire)) == 0)
        ;
    assert(r == 2);
    pthread_join(t, 0);
    return 0;
}
