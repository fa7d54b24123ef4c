/*
 * race_flag.c - publishing data through a plain flag.
 *
 * The writer fills `data` and then sets a plain `ready`; main reads data
 * if it sees ready set. Nothing orders the two threads: both the flag and
 * the data race. (Main does not spin on the flag: a compiler may read a
 * plain flag once and loop forever, which it is allowed to do precisely
 * because a data race is undefined behaviour; gcc -O2 does.)
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <sched.h>

static int data;
static int ready;

static void *writer(void *arg)
{
    (void)arg;
    data = 42;
    ready = 1;
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    sched_yield(); /* lets the writer run first, in some executions */
    int v = 42;
    if (ready)
        v = data;
    pthread_join(t, NULL);
    return v == 42 ? 0 : 1;
}
