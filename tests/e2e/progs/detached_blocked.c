/*
 * detached_blocked.c - main returns while a detached worker still waits on
 * a condition variable nobody will signal. Natively the process simply
 * ends; so does the execution. Not a deadlock.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stdbool.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool go;

static void *waiter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    while (!go)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    pthread_detach(t);
    pthread_t u;
    pthread_create(&u, NULL, waiter, NULL);
    pthread_detach(u);
    return 0;
}
