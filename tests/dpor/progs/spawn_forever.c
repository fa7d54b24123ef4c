/*
 * spawn_forever.c - main creates threads without bound; each adds one to a
 * counter in an atomic section. With --max-threads the creating thread
 * stops at the cap and the others finish: every execution is cut short,
 * so no run may claim to be complete.
 */
#include <pthread.h>
#include <ravel.h>

static int count;

static void *worker(void *arg)
{
    (void)arg;
    ravel_atomic_begin();
    count++;
    ravel_atomic_end();
    return NULL;
}

int main(void)
{
    pthread_t t;
    for (;;)
        pthread_create(&t, NULL, worker, NULL);
}
