/*
 * livelock.c - two polite threads each wait, yielding, for the other to
 * go first. Neither ever does: the execution never ends.
 *
 * ravel-expect: step-limit
 * ravel-options: --max-steps 2000
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int turn_taken[2];

static void *polite(void *arg)
{
    int me = (int)(long)arg, other = 1 - me;
    while (!atomic_load(&turn_taken[other]))
        sched_yield();
    atomic_store(&turn_taken[me], 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, polite, (void *)0L);
    pthread_create(&b, NULL, polite, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
