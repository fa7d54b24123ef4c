/*
 * assert_lanes.c - an assertion that fails in most executions but not the
 * first: whenever a thread other than the last created arrives last. The
 * first execution runs the threads in creation order, then the lanes
 * share out the other interleavings and fail at nearly the same moment. The stress
 * test (tests/stress/stress.py) checks that every run reports it as an
 * assertion, with the failing thread's stack, and ends.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int arrived;

static void check_order(long id, int place)
{
    assert(place != 3 || id == 3); /* the last to arrive is thread 3 */
}

static void *worker(void *arg)
{
    long id = (long)arg;
    atomic_fetch_add(&arrived, 0); /* a scheduling point before arriving */
    check_order(id, atomic_fetch_add(&arrived, 1));
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    return 0;
}
