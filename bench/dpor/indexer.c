/*
 * indexer.c - indexer(N) (Flanagan & Godefroid, POPL 2005): N threads each
 * insert 4 messages into a shared hash table of 128 entries with
 * compare-and-swap and linear probing. Hashes collide only from 12
 * threads on: 8^(N-11) Mazurkiewicz traces for N = 12..15 (a failed CAS
 * only reads).
 *
 * usage: indexer N
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SIZE 128
#define MAX 4
#define MAX_THREADS 32

static atomic_int table[SIZE];

static void *indexer(void *arg)
{
    int tid = (int)(long)arg;
    for (int m = 1; m <= MAX; m++) {
        int w = m * 11 + tid;
        int h = (w * 7) % SIZE;
        int zero = 0;
        while (!atomic_compare_exchange_strong(&table[h], &zero, w)) {
            zero = 0;
            h = (h + 1) % SIZE;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    if (n < 1 || n > MAX_THREADS)
        return 2;
    pthread_t t[MAX_THREADS];
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, indexer, (void *)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}
