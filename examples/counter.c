/*
 * counter.c - the textbook lost update.
 *
 * Two threads each add one to a shared counter. The counter is atomic, but
 * the increment is not: a load followed by a separate store. When both
 * threads load before either stores, one increment is lost and main sees
 * 1 instead of 2.
 *
 * ravel finds it in a few executions and shows the interleaving:
 *
 *     ravel run --seed 1 -- ./counter
 *
 * counter_fixed.c does the increment with one atomic read-modify-write.
 * (The same program with a plain int belongs to the race detector.)
 *
 * ravel-expect: assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int counter;

static void *increment(void *arg)
{
    (void)arg;
    int seen = atomic_load(&counter);
    atomic_store(&counter, seen + 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, increment, NULL);
    pthread_create(&b, NULL, increment, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    int total = atomic_load(&counter);
    printf("counter = %d\n", total);
    assert(total == 2);
    return 0;
}
