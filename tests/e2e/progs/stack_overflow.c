/*
 * stack_overflow.c - a recursive walk of a list that a second thread
 * re-links wrongly (its last node pointing back to the first): a walk that
 * gets there after the update never ends and overflows the thread's stack;
 * one that finishes first is fine.
 *
 * ravel-expect: crash
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
    struct node *_Atomic next;
    int value;
};

static struct node nodes[3];

static long sum(struct node *n)
{
    /* A frame that is still used after the call: no compiler can turn
     * the recursion into a loop. */
    volatile long pad[64]; /* indexed at run time: kept whole */
    size_t i = (size_t)n % 64;
    pad[i] = 0;
    if (!n)
        return pad[i];
    pad[i] = sum(atomic_load(&n->next));
    return n->value + pad[i];
}

static void *walker(void *arg)
{
    (void)arg;
    return (void *)sum(&nodes[0]);
}

static void *rotator(void *arg)
{
    (void)arg;
    /* meant to append nodes[0] to the end after unlinking it; forgets to */
    atomic_store(&nodes[2].next, &nodes[0]);
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 3; i++) {
        nodes[i].value = i;
        atomic_store(&nodes[i].next, i < 2 ? &nodes[i + 1] : NULL);
    }
    pthread_t a, b;
    pthread_create(&a, NULL, walker, NULL);
    pthread_create(&b, NULL, rotator, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
