/*
 * treiber.c - a Treiber stack whose bug is a missing release, for
 * --memory-model rc11 (tests/relaxed/relaxed.py, group deque).
 *
 *   treiber ok|norelease
 *
 * Two threads push one node each; a third pops twice. A node's value and
 * next pointer are relaxed atomics written before the push publishes the
 * node with a compare-exchange on top; the popper loads top with acquire
 * and then reads the node. With `ok` the push's compare-exchange is
 * release, so the popper sees the value the pusher wrote. With
 * `norelease` it is relaxed: nothing orders the value's store before the
 * node's publication, and under RC11 the popper may read the value's
 * initial 0, which the assertion catches. Under sequential consistency
 * both versions are correct.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct node {
    atomic_int value;
    _Atomic(struct node *) next;
};

static struct node nodes[2];
static _Atomic(struct node *) top;
static int release_push;

static void push(struct node *n, int v)
{
    atomic_store_explicit(&n->value, v, memory_order_relaxed);
    struct node *old = atomic_load_explicit(&top, memory_order_relaxed);
    do {
        atomic_store_explicit(&n->next, old, memory_order_relaxed);
    } while (release_push
                 ? !atomic_compare_exchange_weak_explicit(
                       &top, &old, n, memory_order_release,
                       memory_order_relaxed)
                 : !atomic_compare_exchange_weak_explicit(
                       &top, &old, n, memory_order_relaxed,
                       memory_order_relaxed));
}

static struct node *pop(void)
{
    struct node *t = atomic_load_explicit(&top, memory_order_acquire);
    while (t) {
        struct node *next =
            atomic_load_explicit(&t->next, memory_order_relaxed);
        if (atomic_compare_exchange_weak_explicit(&top, &t, next,
                                                  memory_order_acquire,
                                                  memory_order_acquire))
            return t;
    }
    return NULL;
}

static void *pusher(void *arg)
{
    long i = (long)arg;
    push(&nodes[i], (int)i + 1);
    return NULL;
}

static void *popper(void *arg)
{
    (void)arg;
    for (int k = 0; k < 2; k++) {
        struct node *n = pop();
        if (n)
            assert(atomic_load_explicit(&n->value, memory_order_relaxed) !=
                   0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "ok") && strcmp(argv[1], "norelease"))) {
        fprintf(stderr, "usage: treiber ok|norelease\n");
        return 2;
    }
    release_push = !strcmp(argv[1], "ok");
    pthread_t t[3];
    pthread_create(&t[0], NULL, pusher, (void *)0L);
    pthread_create(&t[1], NULL, pusher, (void *)1L);
    pthread_create(&t[2], NULL, popper, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
