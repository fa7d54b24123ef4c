/*
 * readers.c - readers(N): one thread stores to x, N threads load x. Each
 * load is before or after the store: 2^N Mazurkiewicz traces (loads
 * commute with loads).
 *
 * usage: readers N
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_READERS 32

static atomic_int x;

static void *writer(void *arg)
{
    (void)arg;
    atomic_store(&x, 1);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    return (void *)(long)atomic_load(&x);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2;
    if (n < 1 || n > MAX_READERS)
        return 2;
    pthread_t w, r[MAX_READERS];
    pthread_create(&w, NULL, writer, NULL);
    for (int i = 0; i < n; i++)
        pthread_create(&r[i], NULL, reader, NULL);
    pthread_join(w, NULL);
    for (int i = 0; i < n; i++)
        pthread_join(r[i], NULL);
    return 0;
}
