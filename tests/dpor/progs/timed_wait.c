/*
 * timed_wait.c - timeouts that a test assumes never come early.
 *
 *   timed_wait signal  a waiter waits up to 2 s for `ready`; main sleeps
 *                      500 ms and then sets it and signals. It asserts
 *                      the wait did not time out: true on any machine
 *                      that does not stall main for 1.5 s, false in the
 *                      schedule where the timeout comes first.
 *   timed_wait never   nobody signals: the wait times out in every
 *                      execution and the assertion fails.
 *   timed_wait sleep   main sleeps 200 ms after starting a worker and
 *                      asserts the worker ran meanwhile (tinycthread's
 *                      test_mutex_timed assumes this).
 *
 * With --timeouts any (the default) every strategy must find the failing
 * schedule of `signal` and `sleep`: DPOR once said "exhausted: all 2
 * traces" about `signal`, because the signal's edge to the wake hid the
 * race between main's lock and the timed-out wake taking the mutex back.
 * With --timeouts late, `signal` and `sleep` are clean and `never` still
 * fails (a timeout nobody can prevent is taken when no thread can run).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready;
static atomic_int worked;

static void *waiter(void *arg)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 2;
    pthread_mutex_lock(&m);
    int rc = 0;
    while (!ready && rc == 0)
        rc = pthread_cond_timedwait(&c, &m, &deadline);
    assert(ready && "the 2 s wait timed out");
    pthread_mutex_unlock(&m);
    return arg;
}

static void *worker(void *arg)
{
    atomic_store(&worked, 1);
    return arg;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "signal";
    pthread_t t;
    if (!strcmp(mode, "sleep")) {
        pthread_create(&t, 0, worker, 0);
        usleep(200000);
        assert(atomic_load(&worked) && "the worker did not run in 200 ms");
        pthread_join(t, 0);
        return 0;
    }
    pthread_create(&t, 0, waiter, 0);
    usleep(500000);
    if (!strcmp(mode, "signal")) {
        pthread_mutex_lock(&m);
        ready = 1;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, 0);
    return 0;
}
