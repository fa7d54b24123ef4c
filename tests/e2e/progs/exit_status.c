/*
 * exit_status.c - a self-checking program that reports failure through
 * its exit status, only in some interleavings.
 *
 * ravel-expect: exit-status
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int stage;

static void *step(void *arg)
{
    (void)arg;
    int s = atomic_load(&stage);
    atomic_store(&stage, s + 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, step, NULL);
    pthread_create(&b, NULL, step, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (atomic_load(&stage) != 2) {
        fprintf(stderr, "self-check failed: stage %d\n", atomic_load(&stage));
        exit(3);
    }
    return 0;
}
