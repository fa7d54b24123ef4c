/*
 * endless.c - a search no run finishes: four threads, eight dependent
 * atomic increments each. The signal tests interrupt it.
 */
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++)
        atomic_fetch_add(&x, 1);
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    return 0;
}
