/*
 * spawn_register.c - registering a worker by name after starting it.
 *
 * A tiny process registry in the style of Erlang's register/2: workers are
 * looked up by name, and registering a worker that has already exited is
 * refused (there is nobody to talk to). main starts a short-lived worker
 * and then registers it as "flusher". Usually the worker is still running
 * when main registers it; but if it runs to completion first, the
 * registration fails. Starting and registering are two steps, and the
 * worker can finish in between (the classic spawn-then-register race).
 *
 *     ravel run --seed 1 -- ./spawn_register
 *
 * spawn_register_fixed.c registers the worker before it can exit: main
 * holds the registry lock from before the spawn until the registration,
 * and a worker unregisters itself under the same lock when it exits.
 *
 * `ravel lint spawn_register.c` reports the race without running the
 * program, told by the comment below that registering the worker passed
 * to pthread_create (its argument 4) relies on what the spawn started,
 * which the new thread can change first:
 *
 * ravel-lint: pair pthread_create(4) -> register_name(2)
 *
 * ravel-expect: assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* Like Erlang's register/2: refuses a worker that is no longer alive. */
static int register_name(const char *name, struct worker *w)
{
    int rc = -1;
    pthread_mutex_lock(&registry.lock);
    if (atomic_load(&w->alive)) {
        for (int i = 0; i < 4; i++) {
            if (!registry.name[i]) {
                registry.name[i] = name;
                registry.who[i] = w;
                rc = 0;
                break;
            }
        }
    }
    pthread_mutex_unlock(&registry.lock);
    return rc;
}

static void *flusher(void *arg)
{
    struct worker *self = arg;
    /* ... flush a buffer once, then exit ... */
    atomic_store(&self->alive, false);
    return NULL;
}

int main(void)
{
    static struct worker w;
    atomic_store(&w.alive, true);
    pthread_create(&w.thread, NULL, flusher, &w);
    int rc = register_name("flusher", &w);
    if (rc != 0)
        printf("register(\"flusher\") failed: the worker already exited\n");
    assert(rc == 0);
    pthread_join(w.thread, NULL);
    return 0;
}
