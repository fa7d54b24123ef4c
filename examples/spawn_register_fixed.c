/*
 * spawn_register_fixed.c - spawn_register.c with the worker registered
 * before it can exit: main holds the registry lock across spawning and
 * registering, and a worker marks itself dead and unregisters under the
 * same lock, so "spawn + register" is one step as far as the worker can
 * tell. ravel lint sees the lock held from the spawn to the registration:
 *
 * ravel-lint: pair pthread_create(4) -> register_locked(2)
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

struct worker {
    pthread_t thread;
    atomic_bool alive;
};

struct registry {
    pthread_mutex_t lock;
    const char *name[4];
    struct worker *who[4];
};

static struct registry registry = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Caller holds registry.lock. */
static int register_locked(const char *name, struct worker *w)
{
    if (!atomic_load(&w->alive))
        return -1;
    for (int i = 0; i < 4; i++) {
        if (!registry.name[i]) {
            registry.name[i] = name;
            registry.who[i] = w;
            return 0;
        }
    }
    return -1;
}

static void *flusher(void *arg)
{
    struct worker *self = arg;
    /* ... flush a buffer once, then exit: unregister on the way out ... */
    pthread_mutex_lock(&registry.lock);
    atomic_store(&self->alive, false);
    for (int i = 0; i < 4; i++)
        if (registry.who[i] == self)
            registry.name[i] = NULL, registry.who[i] = NULL;
    pthread_mutex_unlock(&registry.lock);
    return NULL;
}

int main(void)
{
    static struct worker w;
    atomic_store(&w.alive, true);
    pthread_mutex_lock(&registry.lock);
    pthread_create(&w.thread, NULL, flusher, &w);
    int rc = register_locked("flusher", &w);
    pthread_mutex_unlock(&registry.lock);
    assert(rc == 0);
    pthread_join(w.thread, NULL);
    return 0;
}
