/*
 * assume.c - ravel_assume discards executions: only schedules where the
 * first thread to run is A are kept, and in those the invariant holds.
 * Every other execution counts as blocked, none as a bug.
 */
#include <assert.h>
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>

static atomic_int first;

static void *run(void *arg)
{
    int id = (int)(long)arg;
    int expected = 0;
    atomic_compare_exchange_strong(&first, &expected, id);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, run, (void *)1L);
    pthread_create(&b, NULL, run, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ravel_assume(atomic_load(&first) == 1);
    assert(atomic_load(&first) == 1);
    return 0;
}
