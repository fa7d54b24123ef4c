/*
 * outcomes.c - a result that depends on the schedule.
 *
 * Two threads write 1 and 2 into a shared variable; main reads it after
 * starting them but before joining them. Depending on the interleaving it
 * reads 0 (neither has written yet), 1 or 2. The program declares what it
 * read with ravel_result(), and ravel reports every distinct result, each
 * with a ticket that replays an execution producing it:
 *
 *     ravel run --seed 1 -- ./outcomes
 *
 * outcomes_fixed.c joins before reading and combines both writes, so every
 * execution declares the same result.
 *
 * ravel-expect: nondeterminism outcomes=0,1,2
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_long shared;

static void *write_one(void *arg)
{
    (void)arg;
    atomic_store(&shared, 1);
    return NULL;
}

static void *write_two(void *arg)
{
    (void)arg;
    atomic_store(&shared, 2);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, write_one, NULL);
    pthread_create(&b, NULL, write_two, NULL);
    long seen = atomic_load(&shared);
    ravel_result(seen);
    printf("main read %ld\n", seen);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
