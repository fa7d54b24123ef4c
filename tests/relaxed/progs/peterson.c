/*
 * peterson.c - Peterson's mutual exclusion for two threads, with the
 * memory orders given on the command line (tests/relaxed/relaxed.py):
 *
 *   peterson sc      seq_cst stores and loads: correct under every model
 *   peterson ra      release stores, acquire loads: correct under
 *                    sequential consistency, broken under x86-TSO (each
 *                    thread's flag store can wait in its store buffer
 *                    while it reads the other's flag as 0)
 *   peterson fence   release/acquire plus a seq_cst fence after the
 *                    entry stores: correct again
 *
 * Two threads in the critical section at once fail the assertion (the
 * seq_cst read-modify-write counts who is inside).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static atomic_int flag[2], turn, inside;
static int mode; /* 0 sc, 1 ra, 2 fence */

static void store(atomic_int *p, int v)
{
    if (mode == 0)
        atomic_store_explicit(p, v, memory_order_seq_cst);
    else
        atomic_store_explicit(p, v, memory_order_release);
}

static int load(atomic_int *p)
{
    if (mode == 0)
        return atomic_load_explicit(p, memory_order_seq_cst);
    return atomic_load_explicit(p, memory_order_acquire);
}

static void *worker(void *arg)
{
    int me = (int)(long)arg, other = 1 - me;
    store(&flag[me], 1);
    store(&turn, other);
    if (mode == 2)
        atomic_thread_fence(memory_order_seq_cst);
    while (load(&flag[other]) == 1 && load(&turn) == other) {
    }
    /* critical section */
    assert(atomic_fetch_add(&inside, 1) == 0);
    atomic_fetch_sub(&inside, 1);
    store(&flag[me], 0);
    return NULL;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"sc", "ra", "fence"};
    mode = -1;
    for (int i = 0; i < 3; i++)
        if (argc == 2 && !strcmp(argv[1], modes[i]))
            mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: peterson sc|ra|fence\n");
        return 2;
    }
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
