/*
 * sync_cas_publish.c - correct code the race detector must stay silent
 * on, where atomics and plain accesses meet:
 *
 *   CAS publish   a node filled with plain writes is pushed with a
 *                 release compare-exchange (a lock-free stack's push);
 *                 a reader that loads it with acquire reads its fields
 *   mixed         a counter initialised with a plain write before the
 *                 threads start, incremented atomically by both, read
 *                 with a plain read after joining them
 *
 * Readers do not spin, so the exploration is complete.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
    int data;
    struct node *next;
};

static _Atomic(struct node *) top;
static long hits; /* plain; atomically incremented by the threads */

static void *producer(void *arg)
{
    (void)arg;
    struct node *n = malloc(sizeof *n);
    n->data = 42;
    n->next = atomic_load_explicit(&top, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        &top, &n->next, n, memory_order_release, memory_order_relaxed))
        ;
    __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    struct node *n = atomic_load_explicit(&top, memory_order_acquire);
    if (n)
        assert(n->data == 42);
    __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    hits = 0;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    assert(hits == 2);
    free(atomic_load(&top));
    atomic_store(&top, NULL);
    return 0;
}
