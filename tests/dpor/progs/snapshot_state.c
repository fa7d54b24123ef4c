/*
 * snapshot_state.c - what an execution started from a snapshot must find
 * as it was (src/rt/process/resume.c): each thread's _Thread_local
 * variable, its locals (an atomic on its stack another thread reads
 * through a pointer), its errno, its depth of calls, a global main wrote
 * before the threads, a semaphore's count, the pthread_t of each thread
 * and, for the last worker, the way back from pthread_exit.
 * Three workers take turns under a semaphore and add to a total; every
 * interleaving ends with the same checks passing (the total depends on
 * the order only through the values each read). The dpor `snapshots`
 * group runs it with snapshots, without, and with --snapshots-check:
 * the same traces, no report, and executions started from snapshots.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>

#define WORKERS 3

static _Thread_local int mine;
static int started_with; /* main's argc, written before any thread */
static atomic_int flag, total;
static sem_t turn;
static _Atomic(atomic_int *) shared_slot[WORKERS + 1];

/* A few frames deep at an atomic: the shadow stack goes into the
 * snapshot too. */
static int deep(int n)
{
    return n ? deep(n - 1) + 1 : atomic_load(&flag);
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    atomic_int here;
    int local[4];
    for (int i = 0; i < 4; i++)
        local[i] = id * 10 + i;
    atomic_init(&here, id);
    atomic_store(&shared_slot[id], &here);
    mine = id;
    for (int r = 0; r < 2; r++) {
        sem_wait(&turn);
        int other = id % WORKERS + 1;
        atomic_int *o = atomic_load(&shared_slot[other]);
        int seen = o ? atomic_load(o) : 0;
        atomic_fetch_add(&total, local[r] + mine * seen + deep(3));
        errno = 100 + id;
        sem_post(&turn);
        assert(errno == 100 + id);
    }
    assert(mine == id && started_with > 0);
    atomic_store(&shared_slot[id], NULL);
    if (id == WORKERS)
        pthread_exit((void *)(long)(local[3] + mine));
    return (void *)(long)(local[3] + mine);
}

int main(int argc, char **argv)
{
    (void)argv;
    pthread_t t[WORKERS];
    started_with = argc;
    mine = -1;
    sem_init(&turn, 0, 1);
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    atomic_store(&flag, 1);
    for (int i = 0; i < WORKERS; i++) {
        void *r;
        pthread_join(t[i], &r);
        assert((long)r == (i + 1) * 10 + 3 + i + 1);
    }
    assert(mine == -1 && errno == 0);
    int *p = malloc(sizeof *p); /* after the last snapshot: allowed */
    *p = atomic_load(&total);
    assert(*p > 0);
    free(p);
    return 0;
}
