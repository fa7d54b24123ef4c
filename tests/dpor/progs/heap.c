/*
 * heap.c - a lock-free stack of heap nodes: two threads each allocate a
 * node and push it with compare-and-swap; a third pops one. Objects
 * live on the heap at addresses that depend on the order of allocations,
 * so DPOR must name them by who allocated them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
    struct node *_Atomic next;
    atomic_int value;
};

static struct node *_Atomic top;

static void *pusher(void *arg)
{
    struct node *n = malloc(sizeof *n);
    atomic_store(&n->value, (int)(long)arg);
    struct node *old = atomic_load(&top);
    do
        atomic_store(&n->next, old);
    while (!atomic_compare_exchange_strong(&top, &old, n));
    return NULL;
}

static void *popper(void *arg)
{
    (void)arg;
    struct node *old = atomic_load(&top);
    while (old && !atomic_compare_exchange_strong(&top, &old,
                                                 atomic_load(&old->next)))
        ;
    if (old)
        atomic_load(&old->value);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, pusher, (void *)1);
    pthread_create(&b, NULL, pusher, (void *)2);
    pthread_create(&c, NULL, popper, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    return 0;
}
