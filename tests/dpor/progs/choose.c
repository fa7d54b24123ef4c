/*
 * choose.c - a bug that needs one particular nondeterministic value: a
 * request of size 7 (of 0..9) takes a path that forgets the lock, and only
 * then can the two workers lose an update.
 */
#include <assert.h>
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int total;
static unsigned size;

static void *worker(void *arg)
{
    (void)arg;
    if (size != 7)
        pthread_mutex_lock(&m);
    int t = atomic_load(&total);
    atomic_store(&total, t + 1);
    if (size != 7)
        pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    size = ravel_choose(10);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(atomic_load(&total) == 2);
    return 0;
}
