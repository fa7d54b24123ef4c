/*
 * crash.c - a null-pointer dereference that happens only when a reader
 * loads the configuration while a reloading thread has it cleared.
 *
 * ravel-expect: crash
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int defaults = 42;
static int *_Atomic config;

static void *reader(void *arg)
{
    (void)arg;
    int *c = atomic_load(&config);
    printf("reader sees %d\n", *c);
    return NULL;
}

static void *reloader(void *arg)
{
    (void)arg;
    atomic_store(&config, NULL); /* "reloading" */
    atomic_store(&config, &defaults);
    return NULL;
}

int main(void)
{
    atomic_store(&config, &defaults);
    pthread_t a, b;
    pthread_create(&a, NULL, reader, NULL);
    pthread_create(&b, NULL, reloader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
