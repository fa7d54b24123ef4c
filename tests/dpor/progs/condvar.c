/*
 * condvar.c - a one-slot buffer with a condition variable: a producer
 * puts two items, a consumer takes two, each waiting while the slot is
 * full or empty; a third thread peeks at the slot without waiting.
 */
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static atomic_int full;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        while (atomic_load(&full))
            pthread_cond_wait(&c, &m);
        atomic_store(&full, 1);
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        while (!atomic_load(&full))
            pthread_cond_wait(&c, &m);
        atomic_store(&full, 0);
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *peeker(void *arg)
{
    (void)arg;
    atomic_load(&full);
    return NULL;
}

int main(void)
{
    pthread_t p, q, r;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&q, NULL, consumer, NULL);
    pthread_create(&r, NULL, peeker, NULL);
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    pthread_join(r, NULL);
    return 0;
}
