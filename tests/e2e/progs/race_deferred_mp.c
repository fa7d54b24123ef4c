/*
 * race_deferred_mp.c - plain data published through release/acquire
 * after a long prefix: the race detector's deferred calls overflow their
 * log (src/rt/race/defer.c) before the threads meet.
 *
 * Every new heap block is a call to the detector (its shadow is
 * forgotten), so main's 4,200 small allocations fill the deferral's log
 * of 4,096 calls: it is replayed, and the rest of the execution goes to
 * the detector directly. Then the flag hands `data` over correctly; a
 * report here would be a synchronisation lost in the replay.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define BLOCKS 4200

struct block {
    struct block *next;
};

static int data;
static atomic_int ready;

static void *writer(void *arg)
{
    (void)arg;
    data = 42;
    atomic_store_explicit(&ready, 1, memory_order_release);
    return NULL;
}

int main(void)
{
    struct block *list = NULL;
    for (int i = 0; i < BLOCKS; i++) {
        struct block *b = malloc(sizeof *b);
        if (!b)
            return 2;
        b->next = list;
        list = b;
    }
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    int v = 42;
    if (atomic_load_explicit(&ready, memory_order_acquire))
        v = data;
    pthread_join(t, NULL);
    int n = 0;
    while (list) {
        struct block *b = list;
        list = b->next;
        free(b);
        n++;
    }
    return v == 42 && n == BLOCKS ? 0 : 1;
}
