/*
 * race_deferred_wide.c - a race after the threads touched more memory
 * than the race detector's deferral can keep track of
 * (src/rt/race/defer.c): its table of granules fills at 1,024, it
 * replays its log, and the detector must still see the relaxed flag
 * create no happens-before, and name both accesses to `data`.
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <stdatomic.h>

#define SLOTS 1100

static int data;
static atomic_int ready;
static atomic_long slots[SLOTS]; /* one granule each */

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < SLOTS; i += 2)
        atomic_store_explicit(&slots[i], i, memory_order_relaxed);
    data = 42;
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    for (int i = 1; i < SLOTS; i += 2)
        atomic_store_explicit(&slots[i], i, memory_order_relaxed);
    int v = 42;
    if (atomic_load_explicit(&ready, memory_order_relaxed))
        v = data;
    pthread_join(t, NULL);
    return v == 42 ? 0 : 1;
}
