/*
 * ops.c - the benchmark workload: THREADS threads each do ITERS rounds of
 * (lock a shared mutex, atomic increment, unlock), then main joins them.
 * One round of the workload ("an execution") has a known number of visible
 * operations: THREADS * (3 * ITERS + 2) + 2 * THREADS + ... counted below.
 *
 * usage: ops THREADS ITERS REPS
 * Natively, REPS rounds run in one process (so the baseline is not process
 * start-up). Under ravel, REPS is 1 and ravel runs the executions.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long total;
static long iters;

static void *worker(void *arg)
{
    (void)arg;
    for (long i = 0; i < iters; i++) {
        pthread_mutex_lock(&lock);
        atomic_fetch_add(&total, 1);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ops THREADS ITERS REPS\n");
        return 2;
    }
    int threads = atoi(argv[1]);
    iters = atol(argv[2]);
    long reps = atol(argv[3]);
    pthread_t t[64];
    if (threads < 1 || threads > 64)
        return 2;
    for (long r = 0; r < reps; r++) {
        atomic_store(&total, 0);
        for (int i = 0; i < threads; i++)
            pthread_create(&t[i], NULL, worker, NULL);
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
        if (atomic_load(&total) != threads * iters)
            return 1;
    }
    return 0;
}
