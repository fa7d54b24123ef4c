/*
 * snapshot_race.c - a data race that comes after several choice points:
 * two threads bump an atomic counter a few times; the first writes a
 * plain global, and so does the second if its first bump came before
 * any of the first thread's (which the search tries last). Main counts to ten first, so that there are
 * choice points to take snapshots at before either thread runs. The
 * first execution (each thread runs as long as it can) has no race; a
 * later one, which starts from a snapshot, does. It must report it as a run from main does, both
 * accesses with their stacks: the race detector was deferred
 * (src/rt/race/defer.c) and its log up to the snapshot is put back with
 * it (the dpor `snapshots` group).
 */
#include <pthread.h>
#include <stdatomic.h>

static atomic_int ticks, warmup;
int shared; /* read by main: not a dead store */

static void store(int v)
{
    shared = v;
}

static void *bump(void *arg)
{
    int first = atomic_fetch_add(&ticks, 1);
    for (int i = 0; i < 2; i++)
        atomic_fetch_add(&ticks, 1);
    if (arg == (void *)1L || first == 0)
        store((int)(long)arg);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < 10; i++)
        atomic_fetch_add(&warmup, 1);
    pthread_create(&a, NULL, bump, (void *)1L);
    pthread_create(&b, NULL, bump, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return shared == 0;
}
