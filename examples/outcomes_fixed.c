/*
 * outcomes_fixed.c - outcomes.c with a deterministic result: each thread
 * writes its own slot, and main reads only after joining both.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_long slot[2];

static void *write_one(void *arg)
{
    (void)arg;
    atomic_store(&slot[0], 1);
    return NULL;
}

static void *write_two(void *arg)
{
    (void)arg;
    atomic_store(&slot[1], 2);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, write_one, NULL);
    pthread_create(&b, NULL, write_two, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    long seen = atomic_load(&slot[0]) + 10 * atomic_load(&slot[1]);
    ravel_result(seen);
    printf("main read %ld\n", seen);
    return 0;
}
