/*
 * filesystem.c - filesystem(N) (Flanagan & Godefroid, POPL 2005): N threads
 * each allocate a block for their inode, under one lock per inode and one
 * per block; the blocks tried first collide from 14 threads on:
 * 2^(N-13) Mazurkiewicz traces for N = 14..19. The plain variables are
 * only touched under their locks.
 *
 * usage: filesystem N
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#define NUMBLOCKS 26
#define NUMINODE 32
#define MAX_THREADS 32

static pthread_mutex_t locki[NUMINODE], lockb[NUMBLOCKS];
static int inode[NUMINODE];
static bool busy[NUMBLOCKS];

static void *allocate(void *arg)
{
    int i = (int)(long)arg % NUMINODE;
    pthread_mutex_lock(&locki[i]);
    if (inode[i] == 0) {
        int b = (i * 2) % NUMBLOCKS;
        for (;;) {
            pthread_mutex_lock(&lockb[b]);
            if (!busy[b]) {
                busy[b] = true;
                inode[i] = b + 1;
                pthread_mutex_unlock(&lockb[b]);
                break;
            }
            pthread_mutex_unlock(&lockb[b]);
            b = (b + 1) % NUMBLOCKS;
        }
    }
    pthread_mutex_unlock(&locki[i]);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 14;
    if (n < 1 || n > MAX_THREADS)
        return 2;
    for (int i = 0; i < NUMINODE; i++)
        pthread_mutex_init(&locki[i], NULL);
    for (int i = 0; i < NUMBLOCKS; i++)
        pthread_mutex_init(&lockb[i], NULL);
    pthread_t t[MAX_THREADS];
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, allocate, (void *)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}
