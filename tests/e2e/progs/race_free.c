/*
 * race_free.c - a heap block freed by one thread while another uses it.
 *
 * The worker frees the block it was handed; main goes on reading it with
 * nothing ordering the free before or after the read. free() counts as a
 * write of the whole block, so this is a data race (and, in the orders
 * where the free comes first, a use after free).
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <stdlib.h>

static void *release(void *arg)
{
    free(arg);
    return NULL;
}

int main(void)
{
    int *p = malloc(4 * sizeof *p);
    if (!p)
        return 2;
    p[0] = 1;
    pthread_t t;
    pthread_create(&t, NULL, release, p);
    int v = p[0];
    pthread_join(t, NULL);
    return v == 1 ? 0 : 1;
}
