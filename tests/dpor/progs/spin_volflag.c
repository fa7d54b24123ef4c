/*
 * spin_volflag.c - a result published through a plain `volatile` flag,
 * as older C code does: the worker writes the result, then raises the
 * flag; main spins until it sees the flag, then reads the result.
 *
 * `spin_volflag broken`: the worker raises the flag before it writes the
 * result, so main can read the result too early.
 *
 * `spin_volflag forever`: the worker never raises the flag; main spins
 * forever, which is a deadlock with main's stack, not a livelock.
 *
 * `spin_volflag yield`: as the correct one, with a sched_yield in main's
 * loop; a yield is no side effect for the spin-wait rule, so the count
 * is the same (1).
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

static volatile int ready;
static int result;
static int mode; /* 0 correct, 1 broken, 2 forever, 3 yield */

static void *worker(void *arg)
{
    (void)arg;
    if (mode == 1) {
        ready = 1;
        result = 42;
    } else {
        result = 42;
        if (mode != 2)
            ready = 1;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        mode = !strcmp(argv[1], "broken")    ? 1
               : !strcmp(argv[1], "forever") ? 2
               : !strcmp(argv[1], "yield")   ? 3
                                             : 0;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    if (mode == 3) {
        while (!ready)
            sched_yield();
    } else {
        while (!ready) {
        }
    }
    assert(result == 42);
    pthread_join(t, NULL);
    return 0;
}
