/*
 * registry.c - a name registry that can register the same name twice.
 *
 * Services register themselves by name; a name must be registered once.
 * register_once() first asks the registry whether the name is taken and,
 * if not, inserts it. Each of the two calls locks the registry, but only
 * for itself: between the lookup and the insert the lock is free, so two
 * threads registering the same name can both see it free and both insert
 * it (the lookup-then-insert race, Erlang's whereis-then-register).
 *
 *     ravel run --seed 1 -- ./registry      finds the double insert
 *     ravel lint registry.c                 reports it without running
 *
 * registry_fixed.c holds one lock across the lookup and the insert.
 *
 * The comment below tells ravel lint that a lookup followed by an insert
 * of the same name (argument 1 of each) is a check and an act:
 *
 * ravel-lint: pair registry_lookup(1) -> registry_insert(1)
 *
 * ravel-expect: assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Room for a few names: the example registers one. */
#define REGISTRY_SIZE 8

static struct registry {
    pthread_mutex_t lock;
    int n;
    const char *names[REGISTRY_SIZE];
} registry = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};

/* Is the name registered? Locks the registry for the lookup only. */
static bool registry_lookup(const char *name)
{
    bool found = false;
    pthread_mutex_lock(&registry.lock);
    for (int i = 0; i < registry.n; i++)
        if (!strcmp(registry.names[i], name))
            found = true;
    pthread_mutex_unlock(&registry.lock);
    return found;
}

/* Adds the name. Locks the registry for the insert only. */
static void registry_insert(const char *name)
{
    pthread_mutex_lock(&registry.lock);
    if (registry.n < REGISTRY_SIZE)
        registry.names[registry.n++] = name;
    pthread_mutex_unlock(&registry.lock);
}

static void register_once(const char *name)
{
    if (!registry_lookup(name))
        registry_insert(name);
}

static void *service(void *arg)
{
    register_once(arg);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, service, "logger");
    pthread_create(&b, NULL, service, "logger");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    int count = 0;
    for (int i = 0; i < registry.n; i++)
        count += !strcmp(registry.names[i], "logger");
    if (count != 1)
        printf("\"logger\" registered %d times\n", count);
    assert(count == 1);
    return 0;
}
