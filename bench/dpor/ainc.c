/*
 * ainc.c - ainc(N): the "atomic increments" shape of GenMC's synthetic
 * tests (MPI-SWS/genmc, tests/correct/synthetic/ainc). N threads each
 * add 1 to one atomic int with a relaxed fetch-and-add. Every two
 * increments conflict, so each order of the N read-modify-writes is its
 * own execution: N! of them (GenMC publishes 2, 6, 24, 120, 720, 5040
 * for N = 2..7, under SC and under RC11, where modification order is
 * the order of the read-modify-writes and there is nothing else to
 * choose).
 *
 * It is here to be run side by side with GenMC (bench/genmc-side-by-
 * side): the cost of exploring a program whose every execution is a
 * distinct trace, with nothing for partial-order reduction to remove.
 *
 * usage: ainc N
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_N 16

static atomic_int counter;

static void *increment(void *arg)
{
    (void)arg;
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    if (n < 1 || n > MAX_N)
        return 2;
    pthread_t t[MAX_N];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, increment, NULL);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}
