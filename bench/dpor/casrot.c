/*
 * casrot.c - casrot(N): the "CAS rotation" shape of GenMC's synthetic
 * tests (MPI-SWS/genmc, tests/correct/synthetic/casrot). One atomic int
 * x, initially 0; thread i (1..N) tries once to move x from i-1 to i
 * with a relaxed compare-exchange. Whether a thread's exchange succeeds
 * depends on which of the others ran before it, so the executions are
 * the orders in which the successful exchanges form the chain 1, 2, ...
 * up to some k, interleaved with the failed ones. GenMC publishes 2, 5,
 * 14, 43, 144, 523, 2048, 8597 complete executions for N = 2..9 under
 * SC and under RC11 (the exchanges read-modify-write one location, so
 * modification order follows their order and RC11 adds nothing).
 *
 * It is here to be run side by side with GenMC (bench/genmc-side-by-
 * side) on a program both tools accept: no arguments parsed beyond N,
 * nothing but pthreads and <stdatomic.h>.
 *
 * usage: casrot N
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_N 32

static atomic_int x;

static void *rotate(void *arg)
{
    int to = (int)(long)arg;
    int from = to - 1;
    atomic_compare_exchange_strong_explicit(&x, &from, to,
                                            memory_order_relaxed,
                                            memory_order_relaxed);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    if (n < 1 || n > MAX_N)
        return 2;
    pthread_t t[MAX_N];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, rotate, (void *)(long)(i + 1));
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}
