/*
 * counter_fixed.c - counter.c with the increment done by one atomic
 * read-modify-write: no interleaving loses an update.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int counter;

static void *increment(void *arg)
{
    (void)arg;
    atomic_fetch_add(&counter, 1);
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
