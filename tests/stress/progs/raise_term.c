/*
 * raise_term.c - a program that sends itself SIGTERM: under ravel, as
 * natively, that kills it (reported as a crash), unlike a SIGTERM sent
 * to the run from outside, which interrupts the run.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

static atomic_int n;

static void *worker(void *arg)
{
    (void)arg;
    if (atomic_fetch_add(&n, 1) == 1)
        raise(SIGTERM);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
