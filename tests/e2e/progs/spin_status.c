/*
 * spin_status.c - a program that waits for its thread in a spin loop on a
 * volatile flag, prints, and exits with status 3 in every interleaving:
 * a test-suite program whose status is its answer.
 *
 * Under `ravel run` a non-zero status is a bug. Run directly (e2e group
 * "direct") it must exit with status 3 and print "done", with nothing
 * from ravel, although DPOR's first execution is cut short where main
 * goes round its loop in vain (src/model/spin.c): the program's first
 * execution is then the next one. Its stdout is a pipe there, and
 * "start" must come out once: the cut execution's buffered line is
 * dropped.
 *
 * ravel-expect: exit-status
 */
#include <pthread.h>
#include <stdio.h>

static volatile int ready;

static void *helper(void *arg)
{
    (void)arg;
    ready = 1;
    return NULL;
}

int main(void)
{
    pthread_t t;
    printf("start\n");
    pthread_create(&t, NULL, helper, NULL);
    while (!ready) {
    }
    pthread_join(t, NULL);
    printf("done\n");
    return 3;
}
