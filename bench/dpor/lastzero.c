/*
 * lastzero.c - lastzero(N) (Abdulla et al., POPL 2014): an array of N+1
 * atomic ints, all zero. Thread 0 looks for the last zero from the end;
 * thread j (1..N) writes array[j] = array[j-1] + 1. (N+3)*2^(N-2)
 * Mazurkiewicz traces.
 *
 * usage: lastzero N
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_N 31

static atomic_int array[MAX_N + 1];
static int n;

static void *finder(void *arg)
{
    (void)arg;
    int i;
    for (i = n; atomic_load(&array[i]) != 0; i--)
        ;
    return (void *)(long)i;
}

static void *writer(void *arg)
{
    long j = (long)arg;
    atomic_store(&array[j], atomic_load(&array[j - 1]) + 1);
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 5;
    if (n < 1 || n > MAX_N)
        return 2;
    pthread_t t[MAX_N + 1];
    pthread_create(&t[0], NULL, finder, NULL);
    for (long j = 1; j <= n; j++)
        pthread_create(&t[j], NULL, writer, (void *)j);
    for (int j = 0; j <= n; j++)
        pthread_join(t[j], NULL);
    return 0;
}
