/*
 * counter_plain.c - counter.c with a plain int: a data race.
 *
 * Two threads each do counter++ on a plain int with no lock. That is a
 * data race, undefined behaviour in C11, whatever the final value: ravel
 * reports it in the first execution, with both accesses' stacks, even
 * though the increments never interleave there (ravel switches threads
 * only at synchronisation, so counter ends up 2):
 *
 *     ravel run -- ./counter_plain
 *
 * Then race-directed scheduling (on by default) makes the racing line a
 * scheduling point and explores again: both threads read 0, one update
 * is lost, and the assertion fails, in a second report whose ticket
 * replays it. counter_fixed.c shows the fix.
 *
 * ravel-expect: data-race
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int counter;

static void *increment(void *arg)
{
    (void)arg;
    counter++;
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, increment, NULL);
    pthread_create(&b, NULL, increment, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("counter = %d\n", counter);
    assert(counter == 2);
    return 0;
}
