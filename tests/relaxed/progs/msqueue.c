/*
 * msqueue.c - a Michael-Scott queue whose bug is a missing release, for
 * --memory-model rc11 (tests/relaxed/relaxed.py, group deque).
 *
 *   msqueue ok|norelease
 *
 * Two threads enqueue one node each; a third dequeues twice. The queue is
 * Michael and Scott's (PODC 1996): a dummy node, head and tail pointers,
 * an enqueue that links its node after the last one with a
 * compare-exchange on that node's next pointer and then swings tail (any
 * thread that finds tail lagging helps), a dequeue that reads the value
 * of the node after the dummy and swings head past it. Nodes come from a
 * static pool and are never freed, so there is no reclamation to get
 * wrong. A node's value is a relaxed atomic stored before the node is
 * linked. With `ok` the linking compare-exchange and the swings of tail
 * are release and every load of a pointer is acquire, so a dequeuer that
 * reaches a node sees its value. With `norelease` the linking
 * compare-exchange is relaxed: a dequeuer that finds the node through the
 * next pointer without having read the enqueuer's own swing of tail has
 * no happens-before edge to the value's store, and under RC11 may read
 * its initial 0, which the assertion catches. Under sequential
 * consistency both versions are correct.
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

static struct node pool[3]; /* pool[0] is the first dummy */
static _Atomic(struct node *) head, tail;
static memory_order link_order;

#define ACQ memory_order_acquire
#define REL memory_order_release
#define RLX memory_order_relaxed

static void enqueue(struct node *n, int v)
{
    atomic_store_explicit(&n->value, v, RLX);
    atomic_store_explicit(&n->next, NULL, RLX);
    for (;;) {
        struct node *t = atomic_load_explicit(&tail, ACQ);
        struct node *next = atomic_load_explicit(&t->next, ACQ);
        if (t != atomic_load_explicit(&tail, ACQ))
            continue;
        if (next == NULL) {
            if (atomic_compare_exchange_strong_explicit(&t->next, &next, n,
                                                        link_order, RLX)) {
                atomic_compare_exchange_strong_explicit(&tail, &t, n, REL,
                                                        RLX);
                return;
            }
        } else {
            atomic_compare_exchange_strong_explicit(&tail, &t, next, REL,
                                                    RLX);
        }
    }
}

/* The dequeued value, or -1 when the queue is empty. */
static int dequeue(void)
{
    for (;;) {
        struct node *h = atomic_load_explicit(&head, ACQ);
        struct node *t = atomic_load_explicit(&tail, ACQ);
        struct node *next = atomic_load_explicit(&h->next, ACQ);
        if (h != atomic_load_explicit(&head, ACQ))
            continue;
        if (h == t) {
            if (next == NULL)
                return -1;
            atomic_compare_exchange_strong_explicit(&tail, &t, next, REL,
                                                    RLX);
        } else {
            int v = atomic_load_explicit(&next->value, RLX);
            if (atomic_compare_exchange_strong_explicit(&head, &h, next, REL,
                                                        RLX))
                return v;
        }
    }
}

static void *enqueuer(void *arg)
{
    long i = (long)arg;
    enqueue(&pool[i + 1], (int)i + 1);
    return NULL;
}

static void *dequeuer(void *arg)
{
    (void)arg;
    for (int k = 0; k < 2; k++) {
        int v = dequeue();
        assert(v != 0); /* -1: empty; 1 or 2: a value; 0: never stored */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "ok") && strcmp(argv[1], "norelease"))) {
        fprintf(stderr, "usage: msqueue ok|norelease\n");
        return 2;
    }
    link_order = strcmp(argv[1], "ok") ? RLX : REL;
    atomic_store_explicit(&head, &pool[0], RLX);
    atomic_store_explicit(&tail, &pool[0], RLX);
    pthread_t t[3];
    pthread_create(&t[0], NULL, enqueuer, (void *)0L);
    pthread_create(&t[1], NULL, enqueuer, (void *)1L);
    pthread_create(&t[2], NULL, dequeuer, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
