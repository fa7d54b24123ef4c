/*
 * lock_held.c - one lock held from the check to the act makes a pair
 * safe; anything that lets go of it in between does not.
 *
 * ravel-lint: pair cache_get(1) -> cache_put(1)
 */
#include <pthread.h>
#include <stdbool.h>

static int cache[256];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static bool ready;

struct obj {
    pthread_mutex_t mu;
    int key;
};

int cache_get(int k)
{
    return cache[k & 255];
}

void cache_put(int k)
{
    cache[k & 255] = 1;
}

static void lock_cache(void)
{
    pthread_mutex_lock(&m);
}

static void unlock_cache(void)
{
    pthread_mutex_unlock(&m);
}

void held(int k)
{
    pthread_mutex_lock(&m);
    if (!cache_get(k))
        cache_put(k); // NORACE
    pthread_mutex_unlock(&m);
}

void released_between(int k)
{
    pthread_mutex_lock(&m);
    if (!cache_get(k)) { // CHECK
        pthread_mutex_unlock(&m);
        pthread_mutex_lock(&m);
        cache_put(k); // RACE
    }
    pthread_mutex_unlock(&m);
}

void through_wrappers(int k)
{
    lock_cache();
    if (!cache_get(k))
        cache_put(k); // NORACE
    unlock_cache();
}

void wrapper_released_between(int k)
{
    lock_cache();
    int v = cache_get(k); // CHECK
    unlock_cache();
    lock_cache();
    if (!v)
        cache_put(k); // RACE
    unlock_cache();
}

/* pthread_cond_wait lets go of the mutex while it waits. */
void waits_in_between(int k)
{
    pthread_mutex_lock(&m);
    if (!cache_get(k)) { // CHECK
        while (!ready)
            pthread_cond_wait(&changed, &m);
        cache_put(k); // RACE
    }
    pthread_mutex_unlock(&m);
}

void another_lock(int k)
{
    pthread_mutex_lock(&m);
    int v = cache_get(k); // CHECK
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m2);
    if (!v)
        cache_put(k); // RACE
    pthread_mutex_unlock(&m2);
}

/* Held on one path only. */
void held_sometimes(int k, int careful)
{
    if (careful)
        pthread_mutex_lock(&m);
    if (!cache_get(k)) // CHECK
        cache_put(k); // RACE
    if (careful)
        pthread_mutex_unlock(&m);
}

void write_locked(int k)
{
    pthread_rwlock_wrlock(&rw);
    if (!cache_get(k))
        cache_put(k); // NORACE
    pthread_rwlock_unlock(&rw);
}

/* A lock inside an object reached through a parameter. */
void object_lock(struct obj *o)
{
    pthread_mutex_lock(&o->mu);
    if (!cache_get(o->key))
        cache_put(o->key); // NORACE
    pthread_mutex_unlock(&o->mu);
}

/* Taken after the check: not held from the check. */
void locked_too_late(int k)
{
    int v = cache_get(k); // CHECK
    pthread_mutex_lock(&m);
    if (!v)
        cache_put(k); // RACE
    pthread_mutex_unlock(&m);
}
