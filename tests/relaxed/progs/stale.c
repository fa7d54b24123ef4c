/*
 * stale.c - a load that reads an older store than the newest one, for
 * the trace picture under --memory-model rc11.
 *
 * The worker stores x := 1 with release, then x := 2 and y := 1 relaxed.
 * Main reads y relaxed and, when it saw 1, loads x with acquire and
 * asserts it did not read 1. Under sc it cannot: y = 1 comes after
 * x := 2. Under rc11 the relaxed read of y synchronises with nothing,
 * and the load of x may read 1, the older store: the only failure. Its
 * picture must draw which store the load read ("read") and the
 * synchronisation with that store only ("atomic" from the release store
 * of 1, none from the newer store of 2).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x, y;

static void *worker(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_release);
    atomic_store_explicit(&x, 2, memory_order_relaxed);
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    if (atomic_load_explicit(&y, memory_order_relaxed) == 1) {
        int r = atomic_load_explicit(&x, memory_order_acquire);
        assert(r != 1);
    }
    pthread_join(t, 0);
    return 0;
}
