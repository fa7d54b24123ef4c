/*
 * races.c - the race detector's benchmark workload: plain memory accesses,
 * as many as possible, few visible operations.
 *
 * usage: races THREADS|calls N REPS
 *   THREADS 0   main alone: a[i] = i over an int array of N elements,
 *               then sums it (2N plain accesses)
 *   THREADS k   k threads, each taking a shared mutex and doing the same
 *               over the whole array inside it (2kN plain accesses)
 *   calls       main alone calls a small function N times, which reads
 *               and writes a global (N function entries and exits, 2N
 *               plain accesses): what instrumented calls cost
 * Natively, REPS rounds run in one process (so the baseline is not
 * process start-up). Under ravel, REPS is 1 and ravel runs the
 * executions. scripts/bench-races compares the two.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int *a;
static long n;
static long long total;

static void pass(void)
{
    long long sum = 0;
    for (long i = 0; i < n; i++)
        a[i] = (int)i;
    for (long i = 0; i < n; i++)
        sum += a[i];
    total += sum;
}

static long acc;

static __attribute__((noinline)) long step(long i)
{
    acc += i;
    return acc & 1;
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    pass();
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: races THREADS|calls N REPS\n");
        return 2;
    }
    n = atol(argv[2]);
    long reps = atol(argv[3]);
    if (!strcmp(argv[1], "calls")) {
        long odd = 0;
        for (long r = 0; r < reps; r++)
            for (long i = 0; i < n; i++)
                odd += step(i);
        printf("%ld\n", odd);
        return 0;
    }
    int threads = atoi(argv[1]);
    pthread_t t[64];
    if (threads < 0 || threads > 64 || n < 1)
        return 2;
    a = malloc(sizeof *a * (size_t)n);
    if (!a)
        return 2;
    for (long r = 0; r < reps; r++) {
        total = 0;
        if (threads == 0) {
            pass();
        } else {
            for (int i = 0; i < threads; i++)
                pthread_create(&t[i], NULL, worker, NULL);
            for (int i = 0; i < threads; i++)
                pthread_join(t[i], NULL);
        }
        long long want = (long long)n * (n - 1) / 2 * (threads ? threads : 1);
        if (total != want)
            return 1;
    }
    free(a);
    return 0;
}
