/*
 * race_relaxed.c - publishing plain data through a relaxed atomic flag.
 *
 * The flag itself is atomic, so it does not race, but relaxed operations
 * create no happens-before: the reader's read of `data` races with the
 * writer's write even when it saw the flag set. (With release/acquire it
 * would not; see sync_atomics.c.)
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <stdatomic.h>

static int data;
static atomic_int ready;

static void *writer(void *arg)
{
    (void)arg;
    data = 42;
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    while (!atomic_load_explicit(&ready, memory_order_relaxed))
        ;
    int v = data;
    pthread_join(t, NULL);
    return v == 42 ? 0 : 1;
}
