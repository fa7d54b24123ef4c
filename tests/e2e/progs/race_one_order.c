/*
 * race_one_order.c - a race that only one interleaving contains.
 *
 * The worker sets `ready` under the lock and then, outside it, writes
 * `data`. Main reads `ready` under the lock and writes `data` only if it
 * was set. When main takes the lock first it sees 0 and touches nothing:
 * no race. Only when the worker's critical section comes first do both
 * threads write data with nothing ordering the writes. The first
 * execution ravel runs can be either; the exploration reaches the other.
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int ready;
static int data;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    data = 1;
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&m);
    int r = ready;
    pthread_mutex_unlock(&m);
    if (r)
        data = 2;
    pthread_join(t, NULL);
    printf("data = %d\n", data);
    return 0;
}
