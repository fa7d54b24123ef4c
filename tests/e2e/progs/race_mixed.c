/*
 * race_mixed.c - an atomic write and a plain read of the same variable,
 * unordered: a data race (C11 makes only two atomic accesses safe
 * together). The writer uses the __atomic builtins on a plain int, the
 * reader reads it as an int; nothing orders them.
 *
 * ravel-expect: data-race
 */
#include <pthread.h>

static int level;
int race_mixed_seen; /* not static: the read must stay */

static void *writer(void *arg)
{
    (void)arg;
    __atomic_store_n(&level, 3, __ATOMIC_RELEASE);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    race_mixed_seen = level;
    pthread_join(t, NULL);
    return 0;
}
