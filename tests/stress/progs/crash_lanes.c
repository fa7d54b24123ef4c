/*
 * crash_lanes.c - a null pointer dereference in almost every execution,
 * in several lanes at once: each must come out as one crash report with
 * the stack of the crashing thread.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int arrived;
static int *volatile target;

static void *worker(void *arg)
{
    (void)arg;
    if (atomic_fetch_add(&arrived, 1) == 2)
        *target = 1; /* the third thread to arrive writes through NULL */
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
