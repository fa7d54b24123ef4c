/*
 * race_many_objects.c - an execution that touches more synchronisation
 * objects than the race detector has clocks for (2,048: src/model/
 * detect.c), then protects a counter with a mutex it uses for the first
 * time. tinycthread's test does this: 10,000 once flags, then a mutex
 * around a count in thread-specific-data destructors. The detector gave
 * objects beyond its arena no clock at all, so the mutex ordered nothing
 * and both increments were reported as a data race; they now share one
 * clock that is only joined into (extra edges, never missing ones).
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>

#define OBJECTS 3000

static pthread_once_t once[OBJECTS];
static pthread_mutex_t locks[OBJECTS];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void nothing(void)
{
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    for (int i = 0; i < OBJECTS; i++) {
        pthread_once(&once[i], nothing);
        pthread_mutex_init(&locks[i], NULL);
        pthread_mutex_lock(&locks[i]);
        pthread_mutex_unlock(&locks[i]);
    }
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(count == 2);
    for (int i = 0; i < OBJECTS; i++)
        pthread_mutex_destroy(&locks[i]);
    return 0;
}
