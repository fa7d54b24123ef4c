/*
 * deadlock_lanes.c - three threads take two of three locks in a cycle;
 * many interleavings deadlock, so several lanes find it at once.
 */
#include <pthread.h>

static pthread_mutex_t m[3] = {PTHREAD_MUTEX_INITIALIZER,
                               PTHREAD_MUTEX_INITIALIZER,
                               PTHREAD_MUTEX_INITIALIZER};

static void *worker(void *arg)
{
    long i = (long)arg;
    pthread_mutex_lock(&m[i]);
    pthread_mutex_lock(&m[(i + 1) % 3]);
    pthread_mutex_unlock(&m[(i + 1) % 3]);
    pthread_mutex_unlock(&m[i]);
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
