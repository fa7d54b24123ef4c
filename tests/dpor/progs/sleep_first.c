/*
 * sleep_first.c - a thread that sleeps or yields before it takes a lock
 * may still take it first.
 *
 *   sleep_first once   the worker sleeps 1 us, then doubles x under m;
 *                      main adds 1 under m. Two traces: x is 4 or 3. The
 *                      assertion x == 4 fails when the worker goes first.
 *   sleep_first twice  the same with a sched_yield after the sleep.
 *   sleep_first retry  the worker takes m with a trylock loop that sleeps
 *                      between attempts: every fair schedule is explored,
 *                      but schedules in which the loop goes round with no
 *                      step of main between are not (the fairness rule
 *                      holds it back), and the guarantee must say so.
 *
 * Before, the fairness rule of src/rt/sched.c held a thread back after
 * any sleep or yield until the others had run a step: DPOR said
 * "exhausted: all 1 traces" about `once` and missed the assertion.
 * With an argument after the mode ("check"), main asserts x == 4.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x = 1;
static const char *mode = "once";

static void *worker(void *arg)
{
    if (!strcmp(mode, "retry")) {
        while (pthread_mutex_trylock(&m) != 0)
            usleep(1);
    } else {
        usleep(1);
        if (!strcmp(mode, "twice"))
            sched_yield();
        pthread_mutex_lock(&m);
    }
    x = x * 2;
    pthread_mutex_unlock(&m);
    return arg;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        mode = argv[1];
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    if (argc > 2)
        assert(x == 4 && "the worker doubled x first");
    return 0;
}
