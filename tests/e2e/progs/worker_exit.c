/*
 * worker_exit.c - a worker ends the process with exit(0) while main waits
 * to join it; exit runs the handler main registered, in the worker. Clean:
 * exit status 0 in every interleaving.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int handler_ran;

static void on_exit_handler(void)
{
    atomic_store(&handler_ran, 1);
    printf("exit handler ran\n");
}

static void *worker(void *arg)
{
    (void)arg;
    exit(0);
}

int main(void)
{
    atexit(on_exit_handler);
    assert(atomic_load(&handler_ran) == 0);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return 1; /* not reached: the worker ends the process */
}
