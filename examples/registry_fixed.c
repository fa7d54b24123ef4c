/*
 * registry_fixed.c - registry.c with the lookup and the insert in one
 * critical section: register_once() holds the registry's lock from the
 * lookup to the insert, so no other thread can register the name in
 * between. registry_lookup() and registry_insert() now expect the caller
 * to hold the lock.
 *
 * ravel lint, told the same pair as for registry.c, sees the lock held
 * from the check to the act and reports nothing:
 *
 * ravel-lint: pair registry_lookup(1) -> registry_insert(1)
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define REGISTRY_SIZE 8

static struct registry {
    pthread_mutex_t lock;
    int n;
    const char *names[REGISTRY_SIZE];
} registry = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};

/* Is the name registered? The caller holds registry.lock. */
static bool registry_lookup(const char *name)
{
    for (int i = 0; i < registry.n; i++)
        if (!strcmp(registry.names[i], name))
            return true;
    return false;
}

/* Adds the name. The caller holds registry.lock. */
static void registry_insert(const char *name)
{
    if (registry.n < REGISTRY_SIZE)
        registry.names[registry.n++] = name;
}

static void register_once(const char *name)
{
    pthread_mutex_lock(&registry.lock);
    if (!registry_lookup(name))
        registry_insert(name);
    pthread_mutex_unlock(&registry.lock);
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
    assert(count == 1);
    return 0;
}
