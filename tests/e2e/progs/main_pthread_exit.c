/*
 * main_pthread_exit.c - main calls pthread_exit: the process (and the
 * execution) goes on until the other threads finish, and ends with status
 * 0.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int done;

static void *worker(void *arg)
{
    (void)arg;
    if (atomic_fetch_add(&done, 1) == 1)
        assert(atomic_load(&done) == 2);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_exit(NULL);
}
