/*
 * misuse_destroy.c - main destroys a mutex a worker may still hold.
 *
 * ravel-expect: lock-misuse
 */
#include <pthread.h>
#include <stdlib.h>

struct job {
    pthread_mutex_t lock;
    int done;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

int main(void)
{
    struct job *j = malloc(sizeof *j);
    pthread_mutex_init(&j->lock, NULL);
    j->done = 0;
    pthread_t t;
    pthread_create(&t, NULL, worker, j);
    pthread_detach(t);
    pthread_mutex_destroy(&j->lock); /* the worker may be inside */
    return 0;
}
