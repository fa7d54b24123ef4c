/*
 * late_bug.c - a bug that DPOR reaches only after thousands of
 * executions: three threads take numbers from one counter, and the
 * assertion fails only when they took them in the reverse of creation
 * order. With several lanes (--jobs 2) the bug is found while the other
 * lane is in the middle of its own work, perhaps analysing an execution
 * with the shared search tree locked; the run must stop cleanly then
 * (tests/dpor/dpor.py, group stop).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int next, first[3];

static void *take(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k < 4; k++) {
        int v = atomic_fetch_add(&next, 1);
        if (k == 0)
            atomic_store(&first[i], v);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, take, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(!(first[2] == 0 && first[1] == 4 && first[0] == 8));
    return 0;
}
